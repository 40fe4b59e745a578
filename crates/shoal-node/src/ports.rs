//! The Functions' own ports.
//!
//! In a cluster each Function's EndpointSlice points at a port of its own on
//! the node pods: what identifies the Function is where the connection
//! arrives, which no proxy rewrites, not its Host header (an APIRule's
//! external host reaches the node unchanged). This module opens a listener
//! for each port the Function table names and closes it when the Function
//! goes; accepted connections are handed to the node's server, tagged with
//! their Function.

use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;

use crate::functions::FunctionKey;

/// A connection accepted on a Function's port.
pub(crate) struct Accepted {
    pub stream: TcpStream,
    pub peer: SocketAddr,
    pub function: FunctionKey,
}

struct Open {
    function: FunctionKey,
    accepting: tokio::task::AbortHandle,
}

/// The listeners open now, one per Function port.
pub(crate) struct PortListeners {
    ip: IpAddr,
    open: BTreeMap<u16, Open>,
    /// Ports that could not be bound, with why (retried on the next sync).
    failed: BTreeMap<u16, String>,
    accepted: mpsc::Sender<Accepted>,
}

impl PortListeners {
    /// Listeners on `ip` (the node's own listening address) handing
    /// connections to `accepted`.
    pub(crate) fn new(ip: IpAddr, accepted: mpsc::Sender<Accepted>) -> Self {
        Self {
            ip,
            open: BTreeMap::new(),
            failed: BTreeMap::new(),
            accepted,
        }
    }

    /// Opens and closes listeners so exactly `wanted` are open.
    pub(crate) fn sync(&mut self, wanted: &BTreeMap<u16, FunctionKey>) {
        self.open.retain(|port, open| {
            let keep = wanted.get(port) == Some(&open.function);
            if !keep {
                open.accepting.abort();
                tracing::debug!(port, function = %open.function, "Function port closed");
            }
            keep
        });
        self.failed.retain(|port, _| wanted.contains_key(port));
        for (&port, function) in wanted {
            if self.open.contains_key(&port) {
                continue;
            }
            match bind(SocketAddr::new(self.ip, port)) {
                Ok(listener) => {
                    self.failed.remove(&port);
                    let accepting =
                        tokio::spawn(accept(listener, function.clone(), self.accepted.clone())).abort_handle();
                    self.open.insert(
                        port,
                        Open {
                            function: function.clone(),
                            accepting,
                        },
                    );
                }
                Err(e) => {
                    if self.failed.insert(port, e.to_string()).is_none() {
                        tracing::warn!(port, %function, error = %e, "cannot listen on the Function's port; retrying");
                    }
                }
            }
        }
    }

    /// Whether some wanted port is not open yet.
    pub(crate) fn has_failures(&self) -> bool {
        !self.failed.is_empty()
    }

    /// Closes every listener.
    pub(crate) fn close_all(&mut self) {
        for open in self.open.values() {
            open.accepting.abort();
        }
        self.open.clear();
    }
}

impl Drop for PortListeners {
    fn drop(&mut self) {
        self.close_all();
    }
}

/// Binds with SO_REUSEADDR, so a port closed a moment ago (its connections
/// in TIME_WAIT) can be opened again for the next Function given it.
fn bind(addr: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(1024)
}

async fn accept(listener: TcpListener, function: FunctionKey, accepted: mpsc::Sender<Accepted>) {
    loop {
        match listener.accept().await {
            Ok((stream, peer)) => {
                let connection = Accepted {
                    stream,
                    peer,
                    function: function.clone(),
                };
                if accepted.send(connection).await.is_err() {
                    // The server stopped.
                    return;
                }
            }
            Err(e) => {
                tracing::warn!(%function, error = %e, "accept failed on the Function's port");
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            }
        }
    }
}
