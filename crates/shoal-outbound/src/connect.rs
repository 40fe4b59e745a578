//! Connections for Functions: `net.connect`, `tls.connect`, TLS started on
//! an open connection, and the connection under an HTTP/1.1 upgrade.
//!
//! The TCP connection comes from the [`crate::dial`]er (policy by name and
//! address, resolution, the permitted addresses tried in order); TLS is
//! rustls with Node's verification. Failures carry Node's codes
//! (`ECONNREFUSED`, `ENOTFOUND`, `ETIMEDOUT`, a TLS verification code) and
//! messages (`connect ECONNREFUSED 127.0.0.1:1`).

use std::os::fd::AsFd;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rustls::pki_types::ServerName;
use shoal_runtime::outbound::{BoxStream, Connection, ConnectionInfo, SocketControl, TlsConnect};
use shoal_runtime::{FunctionKey, OutboundError};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;

use crate::HttpOutbound;
use crate::tls::NodeTlsError;

/// `setNoDelay`/`setKeepAlive` on a duplicate of the connection's socket
/// descriptor (the stream itself is owned by the sandbox's socket table).
struct TcpControl(socket2::Socket);

impl SocketControl for TcpControl {
    fn set_nodelay(&self, nodelay: bool) -> std::io::Result<()> {
        self.0.set_tcp_nodelay(nodelay)
    }

    fn set_keepalive(&self, idle: Option<Duration>) -> std::io::Result<()> {
        match idle {
            None => self.0.set_keepalive(false),
            Some(idle) => self.0.set_tcp_keepalive(&socket2::TcpKeepalive::new().with_time(idle)),
        }
    }
}

impl HttpOutbound {
    /// Opens a TCP connection to `host:port` for `function`, with TLS when
    /// `tls` is given.
    pub(crate) async fn open(
        &self,
        function: &FunctionKey,
        host: &str,
        port: u16,
        family: u8,
        tls: Option<&TlsConnect>,
        deadline: Instant,
    ) -> Result<Connection, OutboundError> {
        let namespace = self.namespace_policy(function);
        let stream = self.dialer.dial(namespace, host, port, family, deadline).await?;
        let connection = tcp_connection(stream)?;
        match tls {
            Some(tls) => self.start_tls_on(connection, host, tls, deadline).await,
            None => Ok(connection),
        }
    }

    /// Starts TLS (client side) on `connection`, verifying the server as
    /// Node's `tls.connect` does.
    pub(crate) async fn start_tls_on(
        &self,
        connection: Connection,
        host: &str,
        tls: &TlsConnect,
        deadline: Instant,
    ) -> Result<Connection, OutboundError> {
        let name = tls.servername.as_deref().filter(|s| !s.is_empty()).unwrap_or(host);
        let server_name = server_name(name)?;
        let (config, verifier) = self.tls_config(&tls.verify, &tls.alpn)?;
        let connector = TlsConnector::from(Arc::new(config));
        let handshake = connector.connect(server_name.clone(), connection.stream);
        let stream = match tokio::time::timeout_at(deadline.into(), handshake).await {
            Err(_) => {
                return Err(OutboundError::new(
                    "timeout",
                    format!("the TLS handshake with {name} did not finish within the Function's remaining time"),
                )
                .with_code("ETIMEDOUT"));
            }
            Ok(Err(e)) => return Err(tls_failure(&e, name)),
            Ok(Ok(stream)) => stream,
        };
        let failure = verifier.failure_for(&crate::tls::host_of(&server_name));
        let (_, session) = stream.get_ref();
        let mut info = connection.info;
        info.authorized = Some(failure.is_none());
        info.authorization_error = failure.map(|f| f.code);
        info.alpn_protocol = session.alpn_protocol().map(|p| String::from_utf8_lossy(p).into_owned());
        info.tls_protocol = session.protocol_version().map(|v| match v {
            rustls::ProtocolVersion::TLSv1_3 => "TLSv1.3",
            _ => "TLSv1.2",
        });
        let stream: BoxStream = Box::new(stream);
        Ok(Connection {
            stream,
            control: connection.control,
            info,
        })
    }
}

fn tcp_connection(stream: TcpStream) -> Result<Connection, OutboundError> {
    let io = |e: std::io::Error| OutboundError::new("network", format!("connect: {e}")).with_code(io_code(&e));
    let remote = stream.peer_addr().map_err(io)?;
    let local = stream.local_addr().map_err(io)?;
    let control = stream
        .as_fd()
        .try_clone_to_owned()
        .ok()
        .map(|fd| Box::new(TcpControl(socket2::Socket::from(fd))) as Box<dyn SocketControl>);
    Ok(Connection {
        stream: Box::new(stream),
        control,
        info: ConnectionInfo {
            remote_address: remote.ip().to_string(),
            remote_family: if remote.is_ipv4() { "IPv4" } else { "IPv6" },
            remote_port: remote.port(),
            local_address: local.ip().to_string(),
            local_port: local.port(),
            ..ConnectionInfo::default()
        },
    })
}

fn server_name(name: &str) -> Result<ServerName<'static>, OutboundError> {
    let bare = name.trim_start_matches('[').trim_end_matches(']');
    ServerName::try_from(bare.to_string()).map_err(|_| {
        OutboundError::new("invalid", format!("{name:?} is not a valid TLS server name"))
            .with_code("ERR_INVALID_ARG_VALUE")
    })
}

/// A failed handshake in Node's words: the verification failure the
/// verifier recorded, or the TLS alert.
fn tls_failure(error: &std::io::Error, name: &str) -> OutboundError {
    let node = error
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<rustls::Error>())
        .and_then(|e| match e {
            rustls::Error::InvalidCertificate(rustls::CertificateError::Other(other)) => {
                other.0.downcast_ref::<NodeTlsError>().cloned()
            }
            _ => None,
        });
    match node {
        Some(node) => OutboundError::new("network", node.message).with_code(node.code),
        None => OutboundError::new(
            "network",
            format!(
                "Client network socket disconnected before secure TLS connection was established ({name}: {error})"
            ),
        )
        .with_code("ECONNRESET"),
    }
}

fn io_code(error: &std::io::Error) -> &'static str {
    match error.kind() {
        std::io::ErrorKind::NotConnected => "ENOTCONN",
        _ => "ECONNRESET",
    }
}
