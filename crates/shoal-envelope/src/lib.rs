//! The heads of the requests and responses a Shoal node and a Function
//! exchange through the host ABI (`shoal_engine::abi`): the guest takes a
//! request's head as JSON and its body as bytes (`next_request`,
//! `request_read`) and answers with a head and a body (`respond`). Bodies
//! never pass through JSON.
//!
//! This crate owns the Rust side of those heads and nothing else: no I/O,
//! no wasmtime. The JavaScript side lives in the prelude of `shoal-build`;
//! both must change together, and a change that breaks old modules must
//! bump [`ENVELOPE_VERSION`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Version carried in every head's `v` field.
pub const ENVELOPE_VERSION: u32 = 1;

/// Errors reading a response head.
#[derive(Debug, thiserror::Error)]
pub enum EnvelopeError {
    /// The head is not the JSON this version expects.
    #[error("the Function's response head is not valid")]
    BadHead(#[from] serde_json::Error),
    /// A head from a different envelope version.
    #[error("envelope version {found} is not supported (this node speaks {ENVELOPE_VERSION})")]
    Version {
        /// The version the head claims.
        found: u32,
    },
}

/// A Function, by namespace and name: the one key every part of Shoal
/// names a Function by.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FunctionKey {
    /// Namespace.
    pub namespace: String,
    /// Name.
    pub name: String,
}

impl FunctionKey {
    /// A key from parts.
    pub fn new(namespace: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            namespace: namespace.into(),
            name: name.into(),
        }
    }
}

impl std::fmt::Display for FunctionKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.namespace, self.name)
    }
}

/// Whether a runtime has Kyma's request/response handler API (`nodejs26`:
/// `main(req, res)` with Express's own objects and the `sdk` module)
/// rather than the legacy `main(event, context)`.
pub fn has_request_response_api(runtime: &str) -> bool {
    runtime == "nodejs26"
}

/// What Kyma hands a Function as `context`, plus the limits the host enforces.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FunctionContext {
    /// The Function's name.
    pub name: String,
    /// The Function's namespace.
    pub namespace: String,
    /// Kyma runtime name, such as `nodejs22`.
    pub runtime: String,
    /// `FUNC_TIMEOUT` in seconds.
    pub timeout: u64,
    /// Request body limit in megabytes.
    pub body_size_limit: u64,
}

/// The head of a request: everything but the body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestHead {
    /// Envelope version, [`ENVELOPE_VERSION`].
    pub v: u32,
    /// HTTP method, upper case.
    pub method: String,
    /// Path without the query string.
    pub path: String,
    /// Raw query string without the `?`.
    pub query: String,
    /// Header lines, names lower case, in arrival order.
    pub headers: Vec<(String, String)>,
    /// Who the Function is.
    pub function: FunctionContext,
    /// The Function's environment variables. Read when a sandbox loads the
    /// Function (its first request); left out of a warm sandbox's later
    /// requests. A sandbox that loads to take the Function's snapshot gets
    /// them in a load-only head first: this head without `method`, `path`,
    /// `query` and `headers`, with `"load": true` (`shoal-runtime`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    /// The invocation's span when the node records traces: the Function's
    /// own spans are its children, and its outbound calls carry its trace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<TraceHead>,
}

/// The span a traced invocation runs in, as lower-case hex.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceHead {
    /// The trace id (32 hex digits).
    pub id: String,
    /// The invocation span's id (16 hex digits).
    pub span: String,
}

/// A span the Function ended (its tracer, `getTracer()`/`event.tracer`),
/// handed back with the response of the request it ended in. Only a
/// traced invocation has any.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GuestSpan {
    /// The span's id (16 hex digits).
    pub id: String,
    /// Its parent's id: the invocation span or another of the Function's.
    pub parent: String,
    /// The trace it belongs to (32 hex digits).
    pub trace: String,
    /// Its name.
    pub name: String,
    /// OpenTelemetry's `SpanKind` as `@opentelemetry/api` numbers it
    /// (0 internal, 1 server, 2 client, 3 producer, 4 consumer).
    #[serde(default)]
    pub kind: u8,
    /// Start, in milliseconds since the Unix epoch.
    pub start: f64,
    /// End, likewise.
    pub end: f64,
    /// Attributes as the Function set them (strings, numbers, booleans,
    /// or arrays of one of those).
    #[serde(default)]
    pub attributes: Vec<(String, serde_json::Value)>,
    /// `@opentelemetry/api`'s `SpanStatusCode` (0 unset, 1 ok, 2 error).
    #[serde(default)]
    pub status: u8,
    /// The status message.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// Events added to the span.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<GuestSpanEvent>,
}

/// An event on a [`GuestSpan`] (`span.addEvent`, `recordException`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GuestSpanEvent {
    /// Its name.
    pub name: String,
    /// When, in milliseconds since the Unix epoch.
    pub time: f64,
    /// Its attributes.
    #[serde(default)]
    pub attributes: Vec<(String, serde_json::Value)>,
}

/// The head of a response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResponseHead {
    /// Envelope version, [`ENVELOPE_VERSION`].
    pub v: u32,
    /// HTTP status code.
    pub status: u16,
    /// Header lines in the order the Function set them.
    pub headers: Vec<(String, String)>,
    /// Spans the Function ended since its previous response (traced
    /// invocations only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spans: Vec<GuestSpan>,
}

/// A head as the JSON the other side reads.
pub fn to_json<H: Serialize + Versioned>(head: &H) -> Vec<u8> {
    // Serialising these plain structs to a Vec cannot fail.
    serde_json::to_vec(head).unwrap_or_default()
}

/// Parses a head, refusing one of another envelope version.
///
/// # Errors
///
/// The bytes are not this version's head.
pub fn from_json<'a, H: Deserialize<'a> + Versioned>(json: &'a [u8]) -> Result<H, EnvelopeError> {
    let head: H = serde_json::from_slice(json)?;
    if head.version() != ENVELOPE_VERSION {
        return Err(EnvelopeError::Version { found: head.version() });
    }
    Ok(head)
}

/// A head that carries the envelope version.
pub trait Versioned {
    /// The `v` field.
    fn version(&self) -> u32;
}

impl Versioned for RequestHead {
    fn version(&self) -> u32 {
        self.v
    }
}

impl Versioned for ResponseHead {
    fn version(&self) -> u32 {
        self.v
    }
}

impl ResponseHead {
    /// The first value of a header, by case-insensitive name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_a_response_head() {
        let head = ResponseHead {
            v: ENVELOPE_VERSION,
            status: 201,
            headers: vec![("x-a".into(), "1".into())],
            spans: Vec::new(),
        };
        let back: ResponseHead = from_json(&to_json(&head)).unwrap();
        assert_eq!(back, head);
        assert_eq!(back.header("X-A"), Some("1"));
    }

    #[test]
    fn refuses_broken_and_foreign_heads() {
        assert!(matches!(
            from_json::<ResponseHead>(b"{\"v\":"),
            Err(EnvelopeError::BadHead(_))
        ));
        let foreign = serde_json::json!({"v": 9, "status": 200, "headers": []}).to_string();
        assert!(matches!(
            from_json::<ResponseHead>(foreign.as_bytes()),
            Err(EnvelopeError::Version { found: 9 })
        ));
    }
}
