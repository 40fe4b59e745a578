//! What a Function may reach beyond its sandbox, as the runtime asks for
//! it: outbound HTTP, name resolution and byte-stream connections (TCP,
//! TLS, an upgraded HTTP/1.1 connection such as a WebSocket).
//!
//! The runtime decides *when* and *how much* (calls per invocation, open
//! sockets per sandbox, the remaining `FUNC_TIMEOUT`); an [`Outbound`]
//! implementation (the node's, `shoal-outbound`) decides *how* and
//! *whether*: the client, TLS, the resolver and the egress policy.

use std::net::IpAddr;
use std::time::Duration;

use bytes::Bytes;
use futures::future::BoxFuture;
use serde::{Deserialize, Serialize};
pub use shoal_envelope::FunctionKey;

/// An outbound request as the Function asked for it.
#[derive(Debug, Clone, Deserialize)]
pub struct OutboundRequest {
    /// HTTP method.
    pub method: String,
    /// Absolute `http:` or `https:` URL.
    pub url: String,
    /// Header pairs, in order.
    #[serde(default)]
    pub headers: Vec<(String, String)>,
    /// `follow` (default), `manual` or `error`.
    #[serde(default)]
    pub redirect: Redirect,
    /// How to verify an `https:` server (node:https's options).
    #[serde(default)]
    pub tls: TlsOptions,
    /// The body (not part of the JSON head).
    #[serde(skip)]
    pub body: Bytes,
}

/// node:https's per-request TLS options (on the request or its Agent).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TlsOptions {
    /// PEM certificates trusted instead of the node's roots (`ca`).
    #[serde(default)]
    pub ca: Option<Vec<String>>,
    /// Whether a server that fails verification is refused
    /// (`rejectUnauthorized`, default true).
    #[serde(default = "yes")]
    pub reject_unauthorized: bool,
}

fn yes() -> bool {
    true
}

impl Default for TlsOptions {
    fn default() -> Self {
        Self {
            ca: None,
            reject_unauthorized: true,
        }
    }
}

/// What to do with a 3xx answer, as fetch's `redirect` option.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Redirect {
    /// Follow up to 20 redirects.
    #[default]
    Follow,
    /// Hand the 3xx answer to the Function.
    Manual,
    /// Fail the request.
    Error,
}

/// A completed outbound request.
#[derive(Debug, Clone, Serialize)]
pub struct OutboundResponse {
    /// Status code.
    pub status: u16,
    /// Reason phrase.
    #[serde(rename = "statusText")]
    pub status_text: String,
    /// Header pairs (content-encoding removed when the body was decoded).
    pub headers: Vec<(String, String)>,
    /// The final URL after redirects.
    pub url: String,
    /// Whether a redirect was followed.
    pub redirected: bool,
    /// For `https:`, whether the server passed verification (false only
    /// when `rejectUnauthorized` was off), as `socket.authorized`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub authorized: Option<bool>,
    /// Why it did not, as Node's `socket.authorizationError` code.
    #[serde(rename = "authorizationError", skip_serializing_if = "Option::is_none")]
    pub authorization_error: Option<&'static str>,
    /// The (decoded) body; not part of the JSON head.
    #[serde(skip)]
    pub body: Bytes,
}

/// Why an outbound request failed; the Function sees `kind` and `message`
/// on the rejected promise's error.
#[derive(Debug, Clone, thiserror::Error, Serialize)]
#[error("{message}")]
pub struct OutboundError {
    /// `policy` (egress denied), `limit`, `timeout`, `aborted`, `network`,
    /// `invalid`.
    pub kind: &'static str,
    /// What happened, naming the host where it matters.
    pub message: String,
    /// Node's error code where one applies (`DEPTH_ZERO_SELF_SIGNED_CERT`).
    pub code: Option<&'static str>,
}

impl OutboundError {
    /// An error of `kind`.
    pub fn new(kind: &'static str, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
            code: None,
        }
    }

    /// The same error carrying Node's error `code`.
    pub fn with_code(mut self, code: &'static str) -> Self {
        self.code = Some(code);
        self
    }
}

/// Per-invocation limits on outbound calls.
#[derive(Debug, Clone, Copy)]
pub struct OutboundLimits {
    /// Requests and connections one invocation may start.
    pub max_requests: u32,
    /// Connections one sandbox may hold open at once (they outlive the
    /// request that opened them in a warm sandbox, as in a Kyma pod).
    pub max_sockets: u32,
}

impl Default for OutboundLimits {
    fn default() -> Self {
        Self {
            max_requests: 50,
            max_sockets: 64,
        }
    }
}

/// A byte stream to a peer: a TCP connection, TLS over one, or an HTTP/1.1
/// connection after a protocol switch.
pub trait Stream: tokio::io::AsyncRead + tokio::io::AsyncWrite + Send + Unpin + 'static {}

impl<T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Send + Unpin + 'static> Stream for T {}

/// A boxed [`Stream`].
pub type BoxStream = Box<dyn Stream>;

/// Socket options a Function may change on an open connection
/// (`setNoDelay`, `setKeepAlive`).
pub trait SocketControl: Send + Sync + 'static {
    /// Disables (true) or enables Nagle's algorithm.
    ///
    /// # Errors
    /// When the operating system refuses the option.
    fn set_nodelay(&self, nodelay: bool) -> std::io::Result<()>;
    /// Enables TCP keep-alive probes after `idle` (None: disables them).
    ///
    /// # Errors
    /// When the operating system refuses the option.
    fn set_keepalive(&self, idle: Option<Duration>) -> std::io::Result<()>;
}

/// A connection a Function asked for (`net.connect`, `tls.connect`).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConnectRequest {
    /// Host name or IP address.
    pub host: String,
    /// TCP port.
    pub port: u16,
    /// 4 or 6 to use only that address family; 0 (default) for either.
    #[serde(default)]
    pub family: u8,
    /// TLS on top of the connection (`tls.connect`).
    #[serde(default)]
    pub tls: Option<TlsConnect>,
}

/// TLS client options of `tls.connect` (and of an upgrade to TLS).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TlsConnect {
    /// The name sent as SNI and verified (`servername`; defaults to the
    /// host when it is a name).
    #[serde(default)]
    pub servername: Option<String>,
    /// Trust these PEM certificates instead of the node's roots (`ca`),
    /// and whether a server failing verification is refused.
    #[serde(flatten)]
    pub verify: TlsOptions,
    /// ALPN protocols offered, in order.
    #[serde(default, rename = "ALPNProtocols")]
    pub alpn: Vec<String>,
}

/// What a Function learns about a connection it opened.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConnectionInfo {
    /// The peer's address (`socket.remoteAddress`).
    pub remote_address: String,
    /// `IPv4` or `IPv6` (`socket.remoteFamily`).
    pub remote_family: &'static str,
    /// The peer's port.
    pub remote_port: u16,
    /// The local address.
    pub local_address: String,
    /// The local port.
    pub local_port: u16,
    /// For TLS, whether the server passed verification (false only with
    /// `rejectUnauthorized: false`), as `socket.authorized`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub authorized: Option<bool>,
    /// Why it did not, as Node's `socket.authorizationError` code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub authorization_error: Option<&'static str>,
    /// The protocol ALPN agreed on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alpn_protocol: Option<String>,
    /// `TLSv1.2` or `TLSv1.3`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tls_protocol: Option<&'static str>,
}

/// An open connection.
pub struct Connection {
    /// The bytes.
    pub stream: BoxStream,
    /// Socket options, where the stream sits on a TCP socket.
    pub control: Option<Box<dyn SocketControl>>,
    /// What the Function sees of it.
    pub info: ConnectionInfo,
}

/// The answer to an HTTP/1.1 request asking for a protocol switch
/// (`Connection: Upgrade`, as a WebSocket handshake).
pub struct Upgraded {
    /// Status and headers; the body when the server did not switch.
    pub response: OutboundResponse,
    /// The connection, when the server answered 101 Switching Protocols.
    pub connection: Option<Connection>,
}

/// A DNS query (`dns.resolve*`).
#[derive(Debug, Clone, Deserialize)]
pub struct ResolveRequest {
    /// The name asked about.
    pub hostname: String,
    /// `A`, `AAAA`, `MX`, `TXT`, `SRV`, `CNAME`, `NS`, `PTR`, `SOA`, `CAA`,
    /// `NAPTR`, `TLSA` or `ANY`.
    pub rrtype: String,
    /// Whether A/AAAA records carry their TTL.
    #[serde(default)]
    pub ttl: bool,
}

/// Performs what Functions reach outside their sandbox. Implemented by the
/// node (`shoal-outbound`). Each method's default refuses, so an
/// implementation offers only what it supports.
pub trait Outbound: Send + Sync + 'static {
    /// Performs `request` for `function`, giving up after `timeout`.
    fn send(
        &self,
        function: &FunctionKey,
        request: OutboundRequest,
        timeout: Duration,
    ) -> BoxFuture<'static, Result<OutboundResponse, OutboundError>>;

    /// Sends an HTTP/1.1 request asking for a protocol switch and, on 101,
    /// hands over the connection.
    fn upgrade(
        &self,
        function: &FunctionKey,
        request: OutboundRequest,
        timeout: Duration,
    ) -> BoxFuture<'static, Result<Upgraded, OutboundError>> {
        let _ = (function, request, timeout);
        Box::pin(async { Err(not_offered("HTTP protocol upgrades")) })
    }

    /// Opens a TCP (or TLS) connection, giving up after `timeout`.
    fn connect(
        &self,
        function: &FunctionKey,
        request: ConnectRequest,
        timeout: Duration,
    ) -> BoxFuture<'static, Result<Connection, OutboundError>> {
        let _ = (function, request, timeout);
        Box::pin(async { Err(not_offered("sockets")) })
    }

    /// Starts TLS on an open connection (STARTTLS, `tls.connect({socket})`).
    fn start_tls(
        &self,
        function: &FunctionKey,
        connection: Connection,
        host: String,
        tls: TlsConnect,
        timeout: Duration,
    ) -> BoxFuture<'static, Result<Connection, OutboundError>> {
        let _ = (function, connection, host, tls, timeout);
        Box::pin(async { Err(not_offered("TLS on sockets")) })
    }

    /// The addresses a host name has, as the system resolver gives them
    /// (`dns.lookup`).
    fn lookup(
        &self,
        function: &FunctionKey,
        hostname: String,
    ) -> BoxFuture<'static, Result<Vec<IpAddr>, OutboundError>> {
        let _ = (function, hostname);
        Box::pin(async { Err(not_offered("name resolution")) })
    }

    /// The records a DNS query gives, in Node's shape for the record type
    /// (`dns.resolve*`).
    fn resolve(
        &self,
        function: &FunctionKey,
        request: ResolveRequest,
    ) -> BoxFuture<'static, Result<serde_json::Value, OutboundError>> {
        let _ = (function, request);
        Box::pin(async { Err(not_offered("DNS queries")) })
    }

    /// The names an address has (`dns.reverse`).
    fn reverse(&self, function: &FunctionKey, ip: IpAddr) -> BoxFuture<'static, Result<Vec<String>, OutboundError>> {
        let _ = (function, ip);
        Box::pin(async { Err(not_offered("DNS queries")) })
    }
}

fn not_offered(what: &str) -> OutboundError {
    OutboundError::new("policy", format!("{what} are not enabled on this node"))
}
