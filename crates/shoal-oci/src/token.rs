//! Registry grants: what one credential may do in the in-cluster registry.
//!
//! The registry holds every tenant's modules, and the build Jobs that push
//! them run in the tenants' namespaces, where the tenants can read their
//! Secrets. So a build gets no registry-wide password: the controller mints
//! a [`Grant`] to push the one repository of the Function it builds
//! (`<prefix>/<namespace>/<name>`), expiring with the build's deadline, and
//! signs it with a key only it and the registry gate ([`crate::gate`]) hold.
//! A tenant who copies the token can push or pull its own Function's
//! repository for a few minutes, nothing else. Node pods pull every
//! Function's module with a password of their own.
//!
//! A token is `shoal1.<claims>.<mac>`: the claims as base64url JSON and an
//! HMAC-SHA256 over `shoal1.<claims>`, also base64url.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

const PREFIX: &str = "shoal1.";

/// What a token allows: pushing (and pulling) one repository until a time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grant {
    /// The repository, as the registry names it (`functions/orders/hello`).
    #[serde(rename = "repo")]
    pub repository: String,
    /// Seconds since the Unix epoch after which the token is refused.
    #[serde(rename = "exp")]
    pub expires: u64,
}

/// Why a token was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TokenError {
    /// Not a token of this format.
    #[error("not a Shoal registry token")]
    Malformed,
    /// The signature does not match: forged, altered, or signed with another key.
    #[error("the registry token's signature does not match")]
    BadSignature,
    /// Past its expiry.
    #[error("the registry token expired")]
    Expired,
}

/// The key tokens are signed with: at least 32 bytes (the chart makes 48
/// random characters), held by the controller and the registry gate only.
#[derive(Clone)]
pub struct TokenKey(Hmac<Sha256>);

impl std::fmt::Debug for TokenKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TokenKey(<redacted>)")
    }
}

/// The key given is too short to sign with.
#[derive(Debug, thiserror::Error)]
#[error("a signing key needs at least 32 bytes, this one has {0}")]
pub struct WeakKey(pub usize);

impl TokenKey {
    /// A key from its bytes (surrounding whitespace, as in a mounted file,
    /// is not part of it).
    ///
    /// # Errors
    /// [`WeakKey`] below 32 bytes.
    pub fn new(bytes: &[u8]) -> Result<Self, WeakKey> {
        let bytes = bytes.trim_ascii();
        if bytes.len() < 32 {
            return Err(WeakKey(bytes.len()));
        }
        <Hmac<Sha256> as Mac>::new_from_slice(bytes)
            .map(Self)
            .map_err(|_| WeakKey(bytes.len()))
    }

    /// The HMAC-SHA256 of `parts`, one after the other: a signature other
    /// holders of the same key can check ([`TokenKey::verify_mac`]).
    pub fn mac(&self, parts: &[&[u8]]) -> Vec<u8> {
        let mut mac = self.0.clone();
        for part in parts {
            mac.update(part);
        }
        mac.finalize().into_bytes().to_vec()
    }

    /// Whether `tag` is this key's HMAC-SHA256 of `parts` (compared in
    /// constant time).
    pub fn verify_mac(&self, parts: &[&[u8]], tag: &[u8]) -> bool {
        let mut mac = self.0.clone();
        for part in parts {
            mac.update(part);
        }
        mac.verify_slice(tag).is_ok()
    }

    /// Signs `grant`.
    pub fn mint(&self, grant: &Grant) -> String {
        // A Grant is a string and a number: serializing it cannot fail.
        let claims = URL_SAFE_NO_PAD.encode(serde_json::to_vec(grant).unwrap_or_default());
        let signed = format!("{PREFIX}{claims}");
        format!("{signed}.{}", URL_SAFE_NO_PAD.encode(self.mac(&[signed.as_bytes()])))
    }

    /// The grant `token` carries, if this key signed it and it has not
    /// expired by `now` (seconds since the Unix epoch).
    ///
    /// # Errors
    /// [`TokenError`] for a malformed, forged or expired token.
    pub fn verify(&self, token: &str, now: u64) -> Result<Grant, TokenError> {
        let (signed, tag) = token.rsplit_once('.').ok_or(TokenError::Malformed)?;
        let claims = signed.strip_prefix(PREFIX).ok_or(TokenError::Malformed)?;
        let tag = URL_SAFE_NO_PAD.decode(tag).map_err(|_| TokenError::Malformed)?;
        // Checked before the claims are even decoded, in constant time.
        if !self.verify_mac(&[signed.as_bytes()], &tag) {
            return Err(TokenError::BadSignature);
        }
        let claims = URL_SAFE_NO_PAD.decode(claims).map_err(|_| TokenError::Malformed)?;
        let grant: Grant = serde_json::from_slice(&claims).map_err(|_| TokenError::Malformed)?;
        if now > grant.expires {
            return Err(TokenError::Expired);
        }
        Ok(grant)
    }
}

/// Seconds since the Unix epoch, now.
pub fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grant() -> Grant {
        Grant {
            repository: "functions/orders/hello".into(),
            expires: 1_000,
        }
    }

    fn key(seed: u8) -> TokenKey {
        TokenKey::new(&[seed; 32]).unwrap()
    }

    #[test]
    fn a_minted_token_verifies_until_it_expires() {
        let token = key(1).mint(&grant());
        assert_eq!(key(1).verify(&token, 1_000), Ok(grant()));
        assert_eq!(key(1).verify(&token, 1_001), Err(TokenError::Expired));
    }

    #[test]
    fn a_short_key_is_refused() {
        assert!(TokenKey::new(b"too short").is_err());
        assert!(TokenKey::new(b"   padded but still short   \n").is_err());
    }

    #[test]
    fn another_key_an_altered_claim_or_garbage_is_refused() {
        let token = key(1).mint(&grant());
        assert_eq!(key(2).verify(&token, 0), Err(TokenError::BadSignature));
        // Swap in claims for another repository, keeping the signature.
        let (_, tag) = token.rsplit_once('.').unwrap();
        let forged_claims = URL_SAFE_NO_PAD.encode(br#"{"repo":"functions/shop/cart","exp":1000}"#);
        let forged = format!("{PREFIX}{forged_claims}.{tag}");
        assert_eq!(key(1).verify(&forged, 0), Err(TokenError::BadSignature));
        for garbage in ["", "shoal1.", "shoal1..", "basic-password", "shoal1.e30.!!"] {
            assert!(key(1).verify(garbage, 0).is_err(), "{garbage:?}");
        }
    }
}
