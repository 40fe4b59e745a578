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
}

/// The head of a response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResponseHead {
    /// Envelope version, [`ENVELOPE_VERSION`].
    pub v: u32,
    /// HTTP status code.
    pub status: u16,
    /// Header lines in the order the Function set them.
    pub headers: Vec<(String, String)>,
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
