//! A sandbox's open connections (`net`/`tls` sockets, WebSockets), kept
//! under the id of the call that opened them.
//!
//! A connection is split into its reading and writing halves so a Function
//! can read and write at once, as Node's sockets do; each half sits behind a
//! lock that an operation holds while it runs. The guest has at most one
//! read and one write in flight per socket (its stream keeps writes in
//! order, as libuv's write queue does), which keeps the bytes in order
//! without a queue here. Connections live as long as the sandbox: in a warm
//! sandbox a client kept at module level keeps its connection between
//! requests, as in Kyma's pod, and dropping the sandbox closes them all.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use bytes::Bytes;
use futures::future::BoxFuture;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt, ReadHalf, WriteHalf};
use tokio::sync::Mutex;

use crate::host::Completion;
use crate::outbound::{BoxStream, Connection, ConnectionInfo, OutboundError, SocketControl};

/// Most bytes one read hands the guest.
const MAX_READ: usize = 64 * 1024;

/// Most bytes one write hands the host: the guest's stream splits larger
/// chunks, so the node never holds more than this per connection on the
/// sandbox's behalf.
pub(crate) const MAX_WRITE: usize = 1024 * 1024;

type Half<T> = Arc<Mutex<Option<T>>>;

struct Slot {
    reader: Half<ReadHalf<BoxStream>>,
    writer: Half<WriteHalf<BoxStream>>,
    control: Option<Box<dyn SocketControl>>,
    info: ConnectionInfo,
    /// The call reading from it, if any.
    reading: Option<i32>,
    /// The call writing to it (or ending it), if any.
    writing: Option<i32>,
}

/// The connections of one sandbox.
#[derive(Default)]
pub(crate) struct Sockets {
    slots: HashMap<i32, Slot>,
    /// Calls that will open a connection, counted against the limit.
    opening: HashSet<i32>,
    /// Open connections of every sandbox of the Function (metrics).
    gauge: Arc<AtomicUsize>,
}

impl Drop for Sockets {
    fn drop(&mut self) {
        self.gauge.fetch_sub(self.slots.len(), Ordering::Relaxed);
    }
}

impl Sockets {
    /// A table that also counts its connections in `gauge`.
    pub(crate) fn counted(gauge: Arc<AtomicUsize>) -> Self {
        Self {
            slots: HashMap::new(),
            opening: HashSet::new(),
            gauge,
        }
    }

    fn insert(&mut self, id: i32, slot: Slot) {
        if self.slots.insert(id, slot).is_none() {
            self.gauge.fetch_add(1, Ordering::Relaxed);
        }
    }

    fn remove(&mut self, id: i32) -> Option<Slot> {
        let slot = self.slots.remove(&id);
        if slot.is_some() {
            self.gauge.fetch_sub(1, Ordering::Relaxed);
        }
        slot
    }

    /// Counts call `id` as opening a connection, if the sandbox may hold
    /// one more.
    pub(crate) fn reserve(&mut self, id: i32, max: u32) -> Result<(), OutboundError> {
        let held = self.slots.len().saturating_add(self.opening.len());
        if held >= max as usize {
            return Err(OutboundError::new(
                "limit",
                format!("connection limit reached: a Function's sandbox may hold {max} connections open at once"),
            )
            .with_code("EMFILE"));
        }
        self.opening.insert(id);
        Ok(())
    }

    /// Keeps `connection` under `id`.
    pub(crate) fn open(&mut self, id: i32, connection: Connection) {
        let (reader, writer) = tokio::io::split(connection.stream);
        self.insert(
            id,
            Slot {
                reader: Arc::new(Mutex::new(Some(reader))),
                writer: Arc::new(Mutex::new(Some(writer))),
                control: connection.control,
                info: connection.info,
                reading: None,
                writing: None,
            },
        );
    }

    /// Call `id` answered: it no longer reads, writes or opens anything.
    pub(crate) fn settled(&mut self, id: i32) {
        self.opening.remove(&id);
        for slot in self.slots.values_mut() {
            if slot.reading == Some(id) {
                slot.reading = None;
            }
            if slot.writing == Some(id) {
                slot.writing = None;
            }
        }
    }

    fn slot(&mut self, socket: i32) -> Result<&mut Slot, OutboundError> {
        self.slots
            .get_mut(&socket)
            .ok_or_else(|| OutboundError::new("invalid", "the socket is closed").with_code("ERR_SOCKET_CLOSED"))
    }

    /// Reads up to `size` bytes (at least one, at most 64 KiB) as call `id`;
    /// an empty body means the peer ended its side.
    pub(crate) fn read(
        &mut self,
        id: i32,
        socket: i32,
        size: usize,
    ) -> Result<BoxFuture<'static, Completion>, OutboundError> {
        let slot = self.slot(socket)?;
        if slot.reading.is_some() {
            return Err(OutboundError::new(
                "invalid",
                "a read is already in progress on this socket",
            ));
        }
        slot.reading = Some(id);
        let reader = slot.reader.clone();
        let size = size.clamp(1, MAX_READ);
        Ok(Box::pin(async move {
            let mut guard = reader.lock().await;
            let Some(half) = guard.as_mut() else {
                return Completion::failed(closed());
            };
            let mut buffer = vec![0u8; size];
            match half.read(&mut buffer).await {
                Ok(n) => {
                    buffer.truncate(n);
                    Completion::answer(json!({ "eof": n == 0 }), Bytes::from(buffer))
                }
                Err(e) => Completion::failed(io_error(&e, "read")),
            }
        }))
    }

    /// Writes all of `bytes` as call `id`; answers once they are handed to
    /// the operating system (or TLS).
    pub(crate) fn write(
        &mut self,
        id: i32,
        socket: i32,
        bytes: Bytes,
    ) -> Result<BoxFuture<'static, Completion>, OutboundError> {
        if bytes.len() > MAX_WRITE {
            return Err(OutboundError::new(
                "limit",
                format!("one socket write may hand the node at most {MAX_WRITE} bytes"),
            ));
        }
        let writer = self.claim_writer(id, socket)?;
        Ok(Box::pin(async move {
            let mut guard = writer.lock().await;
            let Some(half) = guard.as_mut() else {
                return Completion::failed(closed());
            };
            let written = async {
                half.write_all(&bytes).await?;
                half.flush().await
            };
            match written.await {
                Ok(()) => Completion::answer(json!({ "written": bytes.len() }), Bytes::new()),
                Err(e) => Completion::failed(io_error(&e, "write")),
            }
        }))
    }

    /// Ends the writing side (a TCP FIN, a TLS close_notify) as call `id`.
    pub(crate) fn end(&mut self, id: i32, socket: i32) -> Result<BoxFuture<'static, Completion>, OutboundError> {
        let writer = self.claim_writer(id, socket)?;
        Ok(Box::pin(async move {
            let mut guard = writer.lock().await;
            let Some(half) = guard.as_mut() else {
                return Completion::failed(closed());
            };
            match half.shutdown().await {
                Ok(()) => Completion::answer(json!({}), Bytes::new()),
                Err(e) => Completion::failed(io_error(&e, "shutdown")),
            }
        }))
    }

    fn claim_writer(&mut self, id: i32, socket: i32) -> Result<Half<WriteHalf<BoxStream>>, OutboundError> {
        let slot = self.slot(socket)?;
        if slot.writing.is_some() {
            return Err(OutboundError::new(
                "invalid",
                "a write is already in progress on this socket",
            ));
        }
        slot.writing = Some(id);
        Ok(slot.writer.clone())
    }

    /// Closes `socket`; the calls still reading or writing it, which the
    /// caller stops.
    pub(crate) fn close(&mut self, socket: i32) -> Vec<i32> {
        match self.remove(socket) {
            Some(slot) => slot.reading.into_iter().chain(slot.writing).collect(),
            None => Vec::new(),
        }
    }

    /// Sets `setNoDelay`/`setKeepAlive` options.
    pub(crate) fn set_options(
        &mut self,
        socket: i32,
        no_delay: Option<bool>,
        keep_alive: Option<Option<Duration>>,
    ) -> Result<(), OutboundError> {
        let slot = self.slot(socket)?;
        let Some(control) = &slot.control else {
            // Not a TCP socket of ours (an upgraded stream): nothing to set.
            return Ok(());
        };
        if let Some(no_delay) = no_delay {
            control.set_nodelay(no_delay).map_err(|e| io_error(&e, "setsockopt"))?;
        }
        if let Some(idle) = keep_alive {
            control.set_keepalive(idle).map_err(|e| io_error(&e, "setsockopt"))?;
        }
        Ok(())
    }

    /// Takes `socket` out whole, to start TLS on it. The guest has no write
    /// in flight and has cancelled its read; both halves are awaited, in
    /// case a cancelled read has not let go yet.
    pub(crate) fn take_whole(
        &mut self,
        socket: i32,
    ) -> Result<BoxFuture<'static, Result<Connection, OutboundError>>, OutboundError> {
        if self.slot(socket)?.writing.is_some() {
            return Err(OutboundError::new(
                "invalid",
                "TLS cannot start while a write is in progress on the socket",
            ));
        }
        let Some(slot) = self.remove(socket) else {
            return Err(closed());
        };
        Ok(Box::pin(async move {
            let reader = slot.reader.lock().await.take();
            let writer = slot.writer.lock().await.take();
            match (reader, writer) {
                (Some(reader), Some(writer)) => Ok(Connection {
                    stream: reader.unsplit(writer),
                    control: slot.control,
                    info: slot.info,
                }),
                _ => Err(closed()),
            }
        }))
    }
}

fn closed() -> OutboundError {
    OutboundError::new("invalid", "the socket is closed").with_code("ERR_SOCKET_CLOSED")
}

/// An I/O failure with Node's error code (`err.code`) and message shape
/// (`read ECONNRESET`).
pub(crate) fn io_error(error: &std::io::Error, syscall: &str) -> OutboundError {
    use std::io::ErrorKind;
    let code = match error.kind() {
        ErrorKind::ConnectionReset => "ECONNRESET",
        ErrorKind::BrokenPipe => "EPIPE",
        ErrorKind::ConnectionAborted => "ECONNABORTED",
        ErrorKind::ConnectionRefused => "ECONNREFUSED",
        ErrorKind::TimedOut => "ETIMEDOUT",
        ErrorKind::NotConnected => "ENOTCONN",
        ErrorKind::HostUnreachable => "EHOSTUNREACH",
        ErrorKind::NetworkUnreachable => "ENETUNREACH",
        ErrorKind::UnexpectedEof => "ECONNRESET",
        _ => "EIO",
    };
    OutboundError::new("network", format!("{syscall} {code}: {error}")).with_code(code)
}
