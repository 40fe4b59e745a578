//! Ed25519 signatures and X25519 agreement.

use super::error::{CryptoError, Result};

pub fn ed25519_sign(seed: &[u8; 32], data: &[u8]) -> Vec<u8> {
    use ed25519_dalek::Signer;
    ed25519_dalek::SigningKey::from_bytes(seed)
        .sign(data)
        .to_bytes()
        .to_vec()
}

/// Whether `signature` is valid; a malformed signature or key is invalid,
/// as in Node.
pub fn ed25519_verify(public: &[u8; 32], data: &[u8], signature: &[u8]) -> bool {
    use ed25519_dalek::Verifier;
    let Ok(key) = ed25519_dalek::VerifyingKey::from_bytes(public) else {
        return false;
    };
    let Ok(sig) = ed25519_dalek::Signature::from_slice(signature) else {
        return false;
    };
    key.verify(data, &sig).is_ok()
}

/// The X25519 shared secret; like OpenSSL, refuses the all-zero result a
/// small-order public key gives.
pub fn x25519(secret: &[u8; 32], public: &[u8; 32]) -> Result<Vec<u8>> {
    let shared = x25519_dalek::x25519(*secret, *public);
    if shared.iter().all(|&b| b == 0) {
        return Err(CryptoError::new(
            "ERR_OSSL_FAILED_DURING_DERIVATION",
            "error:1C80006F:Provider routines::failed during derivation",
        ));
    }
    Ok(shared.to_vec())
}

pub fn random_secret() -> Result<[u8; 32]> {
    super::rng::random_vec(32)?
        .try_into()
        .map_err(|_| CryptoError::randomness())
}
