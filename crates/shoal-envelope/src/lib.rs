//! The envelope a Shoal node and a Function exchange over the guest's
//! stdin/stdout, as described in `wit/shoal-function.wit`.
//!
//! This crate owns the Rust side of that contract (types and framing) and
//! nothing else: no I/O, no wasmtime. The JavaScript side lives in the
//! prelude of `shoal-build`; both must change together, and a change that
//! breaks old modules must bump [`ENVELOPE_VERSION`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Version carried in every frame's `v` field.
pub const ENVELOPE_VERSION: u32 = 1;

/// Errors reading a frame.
#[derive(Debug, thiserror::Error)]
pub enum EnvelopeError {
    /// Fewer bytes than the length prefix or the head needs: the guest
    /// stopped (trap, exit, never answered) before writing a whole frame.
    #[error("the Function wrote no complete response ({0} bytes)")]
    Truncated(usize),
    /// The head is not the JSON this version expects.
    #[error("the Function's response head is not valid: {0}")]
    BadHead(#[from] serde_json::Error),
    /// A frame from a different envelope version.
    #[error("envelope version {found} is not supported (this node speaks {ENVELOPE_VERSION})")]
    Version {
        /// The version the frame claims.
        found: u32,
    },
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

/// The head of a request frame: everything but the body.
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
    /// Function (its first request); left out of the frames of a warm
    /// sandbox's later requests.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
}

/// The head of a response frame.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResponseHead {
    /// Envelope version, [`ENVELOPE_VERSION`].
    pub v: u32,
    /// HTTP status code.
    pub status: u16,
    /// Header lines in the order the Function set them.
    pub headers: Vec<(String, String)>,
}

/// Frames a head and a body: `u32 LE head length`, head JSON, body bytes.
pub fn encode<H: Serialize>(head: &H, body: &[u8]) -> Vec<u8> {
    // Serialising these plain structs to a Vec cannot fail.
    let head = serde_json::to_vec(head).unwrap_or_default();
    let mut frame = Vec::with_capacity(4 + head.len() + body.len());
    frame.extend_from_slice(&(head.len() as u32).to_le_bytes());
    frame.extend_from_slice(&head);
    frame.extend_from_slice(body);
    frame
}

/// Splits a frame into its parsed head and the body bytes that follow it.
pub fn decode<'a, H: Deserialize<'a> + Versioned>(frame: &'a [u8]) -> Result<(H, &'a [u8]), EnvelopeError> {
    let len_bytes: [u8; 4] = frame
        .get(..4)
        .and_then(|b| b.try_into().ok())
        .ok_or(EnvelopeError::Truncated(frame.len()))?;
    let head_len = u32::from_le_bytes(len_bytes) as usize;
    let head_bytes = frame
        .get(4..4 + head_len)
        .ok_or(EnvelopeError::Truncated(frame.len()))?;
    let head: H = serde_json::from_slice(head_bytes)?;
    if head.version() != ENVELOPE_VERSION {
        return Err(EnvelopeError::Version { found: head.version() });
    }
    Ok((head, &frame[4 + head_len..]))
}

/// A frame head that carries the envelope version.
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
    fn round_trips_a_response_with_binary_body() {
        let head = ResponseHead {
            v: ENVELOPE_VERSION,
            status: 201,
            headers: vec![("x-a".into(), "1".into())],
        };
        let body = [0u8, 159, 146, 150, 255];
        let frame = encode(&head, &body);
        let (back, back_body): (ResponseHead, _) = decode(&frame).unwrap();
        assert_eq!(back, head);
        assert_eq!(back_body, body);
    }

    #[test]
    fn refuses_truncated_and_foreign_frames() {
        assert!(matches!(
            decode::<ResponseHead>(&[1, 0]),
            Err(EnvelopeError::Truncated(2))
        ));
        let frame = encode(&serde_json::json!({"v": 9, "status": 200, "headers": []}), b"");
        assert!(matches!(
            decode::<ResponseHead>(&frame),
            Err(EnvelopeError::Version { found: 9 })
        ));
    }
}
