//! What the controller and the build service say to each other, and how
//! each side knows the other said it.
//!
//! Both sides hold one key (the chart's `shoal-builder-key` Secret). The
//! controller signs each request, so nothing else in the cluster can make
//! the service build or push; the service signs each answer, so a result
//! the controller trusts can only have come from the service (a tenant pod
//! that took over a builder's address answers without the key). A signature
//! is an HMAC-SHA256 over a purpose label and the exact body bytes, so a
//! request cannot be replayed as an answer.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Serialize};
use shoal_oci::token::TokenKey;
pub use shoal_oci::token::WeakKey;

/// The path builds are requested at.
pub const BUILDS_PATH: &str = "/v1/builds";
/// The header carrying a body's signature.
pub const SIGNATURE_HEADER: &str = "shoal-signature";
/// The largest request body the service reads: the source and package.json
/// of one Function (a ConfigMap holds at most 1 MiB) with room to spare.
pub const MAX_REQUEST_BYTES: usize = 3 * 1024 * 1024;
/// The largest answer the controller reads.
pub const MAX_ANSWER_BYTES: usize = 64 * 1024;

/// One build: a Function's inline source at one build-input hash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildRequest {
    /// The Function's namespace.
    pub namespace: String,
    /// The Function's name.
    pub name: String,
    /// The build-input hash: the artifact's tag and the build's identity.
    pub hash: String,
    /// The runtime (`nodejs24`, ...).
    pub runtime: String,
    /// `handler.js`.
    pub source: String,
    /// `package.json`, if the Function has dependencies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dependencies: Option<String>,
    /// What the build may use.
    pub limits: BuildLimits,
}

impl BuildRequest {
    /// What the build is called in logs and messages.
    pub fn label(&self) -> String {
        let short: String = self.hash.chars().take(12).collect();
        format!("{}/{}@{short}", self.namespace, self.name)
    }
}

/// What one build may use, as a build Job's pod would have been limited.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildLimits {
    /// Resident memory of the build's processes together.
    pub memory_bytes: u64,
    /// Wall-clock time, from the moment the build starts running.
    pub deadline_secs: u64,
}

/// The service's answer to one [`BuildRequest`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildAnswer {
    /// The request's namespace.
    pub namespace: String,
    /// The request's name.
    pub name: String,
    /// The request's hash.
    pub hash: String,
    /// How it went.
    pub outcome: BuildOutcome,
}

/// How a build went.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "camelCase")]
pub enum BuildOutcome {
    /// Built and pushed (or found already pushed by an earlier build of the
    /// same hash).
    Built {
        /// The digest-pinned reference.
        artifact: String,
        /// Whether an earlier build's push was found and nothing was built.
        reused: bool,
    },
    /// The Function's build failed: its compiler's message, or the limit
    /// it went over.
    Failed {
        /// Why, for BuildReady.
        message: String,
    },
}

/// Which side signed a body: the same key never makes a request look like
/// an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// The controller's request.
    Request,
    /// The service's answer.
    Answer,
}

impl Purpose {
    fn label(self) -> &'static [u8] {
        match self {
            Purpose::Request => b"shoal-build-request-v1\n",
            Purpose::Answer => b"shoal-build-answer-v1\n",
        }
    }
}

/// The key shared by the controller and the build service: an HMAC key as
/// the registry's token key is ([`shoal_oci::token::TokenKey`]), at least
/// 32 bytes.
#[derive(Clone, Debug)]
pub struct BuildKey(TokenKey);

impl BuildKey {
    /// A key from its bytes (surrounding whitespace, as in a mounted file,
    /// is not part of it).
    ///
    /// # Errors
    /// [`WeakKey`] below 32 bytes.
    pub fn new(bytes: &[u8]) -> Result<Self, WeakKey> {
        TokenKey::new(bytes).map(Self)
    }

    /// The signature of `body` for `purpose`.
    pub fn sign(&self, purpose: Purpose, body: &[u8]) -> String {
        URL_SAFE_NO_PAD.encode(self.0.mac(&[purpose.label(), body]))
    }

    /// Whether `signature` is this key's for `body` and `purpose` (compared
    /// in constant time).
    pub fn verify(&self, purpose: Purpose, body: &[u8], signature: &str) -> bool {
        URL_SAFE_NO_PAD
            .decode(signature.trim())
            .is_ok_and(|tag| self.0.verify_mac(&[purpose.label(), body], &tag))
    }
}

/// The signature a request or answer carries (empty when it has none).
pub fn signature_of(headers: &http::HeaderMap) -> String {
    headers
        .get(SIGNATURE_HEADER)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string()
}

/// Whether `value` may be used as a path segment of a build's working
/// folder and registry repository: what Kubernetes allows in a namespace
/// or Function name, and hex for a hash.
pub fn is_plain_name(value: &str) -> bool {
    !value.is_empty()
        && value.len() <= 253
        && value
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.')
        && !value.starts_with('.')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> BuildKey {
        BuildKey::new(b"0123456789abcdef0123456789abcdef").expect("key")
    }

    #[test]
    fn a_signature_holds_only_for_its_body_purpose_and_key() {
        let body = br#"{"namespace":"a"}"#;
        let signature = key().sign(Purpose::Answer, body);
        assert!(key().verify(Purpose::Answer, body, &signature));
        assert!(!key().verify(Purpose::Request, body, &signature));
        assert!(!key().verify(Purpose::Answer, br#"{"namespace":"b"}"#, &signature));
        let other = BuildKey::new(b"fedcba9876543210fedcba9876543210").expect("key");
        assert!(!other.verify(Purpose::Answer, body, &signature));
        assert!(!key().verify(Purpose::Answer, body, "not base64 !"));
    }

    #[test]
    fn short_keys_and_odd_names_are_refused() {
        assert!(BuildKey::new(b"  short  ").is_err());
        assert!(is_plain_name("orders-v2"));
        for bad in ["", "..", "a/b", "A", ".hidden", "a b"] {
            assert!(!is_plain_name(bad), "{bad}");
        }
    }

    #[test]
    fn answers_keep_their_shape_on_the_wire() {
        let answer = BuildAnswer {
            namespace: "n".into(),
            name: "f".into(),
            hash: "ab".into(),
            outcome: BuildOutcome::Built {
                artifact: "r/n/f@sha256:00".into(),
                reused: false,
            },
        };
        let text = serde_json::to_string(&answer).expect("json");
        assert!(text.contains(r#""outcome":{"outcome":"built""#), "{text}");
        assert_eq!(serde_json::from_str::<BuildAnswer>(&text).expect("parse"), answer);
    }
}
