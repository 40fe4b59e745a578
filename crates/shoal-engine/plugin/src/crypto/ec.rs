//! Elliptic curves (P-256, P-384, P-521): point and scalar
//! checks, key generation, ECDSA and ECDH.

use elliptic_curve::Generate;
use elliptic_curve::sec1::ToSec1Point;
use signature::hazmat::{PrehashVerifier, RandomizedPrehashSigner};

use super::error::{CryptoError, Result};
use super::keys::Curve;
use super::rng::HostRng;

/// Runs `$body` with `$c` bound to the curve type of `$curve`.
macro_rules! with_curve {
    ($curve:expr, $c:ident => $body:expr) => {
        match $curve {
            Curve::P256 => {
                type $c = p256::NistP256;
                $body
            }
            Curve::P384 => {
                type $c = p384::NistP384;
                $body
            }
            Curve::P521 => {
                type $c = p521::NistP521;
                $body
            }
        }
    };
}

fn invalid_private() -> CryptoError {
    CryptoError::new(
        "ERR_CRYPTO_INVALID_KEYTYPE",
        "Private key is not valid for specified curve.",
    )
}

fn invalid_public() -> CryptoError {
    CryptoError::new(
        "ERR_CRYPTO_ECDH_INVALID_PUBLIC_KEY",
        "Public key is not valid for specified curve",
    )
}

/// The scalar as `field_len` bytes, if it is in `[1, n)`.
pub fn validate_scalar(curve: Curve, scalar: &[u8]) -> Result<Vec<u8>> {
    let len = curve.field_len();
    let digits = &scalar[scalar.iter().position(|&b| b != 0).unwrap_or(scalar.len())..];
    if digits.len() > len {
        return Err(invalid_private());
    }
    let mut fixed = vec![0u8; len - digits.len()];
    fixed.extend_from_slice(digits);
    with_curve!(curve, C => {
        elliptic_curve::SecretKey::<C>::from_slice(&fixed).map_err(|_| invalid_private())?;
    });
    Ok(fixed)
}

/// A SEC1 point (compressed, uncompressed, or OpenSSL's hybrid form)
/// checked to be on the curve, uncompressed.
pub fn validate_point(curve: Curve, point: &[u8]) -> Result<Vec<u8>> {
    let len = curve.field_len();
    // Hybrid (0x06/0x07): uncompressed with the parity of y in the prefix.
    let converted;
    let point = match point.first() {
        Some(prefix @ (6 | 7)) if point.len() == 1 + 2 * len => {
            if point[point.len() - 1] & 1 != prefix & 1 {
                return Err(invalid_public());
            }
            converted = [&[4u8][..], &point[1..]].concat();
            &converted[..]
        }
        _ => point,
    };
    with_curve!(curve, C => {
        let key = elliptic_curve::PublicKey::<C>::from_sec1_bytes(point).map_err(|_| invalid_public())?;
        Ok(key.to_sec1_point(false).as_bytes().to_vec())
    })
}

/// `point` (uncompressed) in Node's `format`: `uncompressed`, `compressed`
/// or `hybrid`.
pub fn encode_point(curve: Curve, point: &[u8], format: &str) -> Result<Vec<u8>> {
    match format {
        "uncompressed" => Ok(point.to_vec()),
        "hybrid" => {
            let mut out = point.to_vec();
            if let (Some(4), Some(last)) = (out.first().copied(), out.last().copied()) {
                out[0] = 6 | (last & 1);
            }
            Ok(out)
        }
        "compressed" => with_curve!(curve, C => {
            let key = elliptic_curve::PublicKey::<C>::from_sec1_bytes(point).map_err(|_| invalid_public())?;
            Ok(key.to_sec1_point(true).as_bytes().to_vec())
        }),
        other => Err(CryptoError::new(
            "ERR_CRYPTO_ECDH_INVALID_FORMAT",
            format!("Invalid ECDH format: {other}"),
        )),
    }
}

/// The uncompressed public point of `scalar`.
pub fn public_point(curve: Curve, scalar: &[u8]) -> Result<Vec<u8>> {
    with_curve!(curve, C => {
        let secret = elliptic_curve::SecretKey::<C>::from_slice(scalar).map_err(|_| invalid_private())?;
        Ok(secret.public_key().to_sec1_point(false).as_bytes().to_vec())
    })
}

/// A fresh `(scalar, uncompressed point)`.
pub fn generate(curve: Curve) -> Result<(Vec<u8>, Vec<u8>)> {
    let mut rng = HostRng::default();
    let pair = with_curve!(curve, C => {
        let secret = elliptic_curve::SecretKey::<C>::generate_from_rng(&mut rng);
        (secret.to_bytes().to_vec(), secret.public_key().to_sec1_point(false).as_bytes().to_vec())
    });
    rng.check(pair)
}

/// ECDSA over `prehash`, as `r || s` (IEEE P1363) or DER.
pub fn sign(curve: Curve, scalar: &[u8], prehash: &[u8], der: bool) -> Result<Vec<u8>> {
    let mut rng = HostRng::default();
    let out = with_curve!(curve, C => {
        let key = ecdsa::SigningKey::<C>::from_slice(scalar).map_err(|_| invalid_private())?;
        // RFC 6979 with added randomness: as unpredictable as OpenSSL's
        // random nonces, and safe even if the randomness were poor.
        let sig: ecdsa::Signature<C> = key.sign_prehash_with_rng(&mut rng, prehash).map_err(|_| CryptoError::msg("ECDSA signing failed"))?;
        if der { sig.to_der().as_bytes().to_vec() } else { sig.to_bytes().to_vec() }
    });
    rng.check(out)
}

/// Whether `signature` (DER or `r || s`) is valid for `prehash`. A signature
/// that does not parse is invalid, not an error, as in Node.
pub fn verify(curve: Curve, point: &[u8], prehash: &[u8], signature: &[u8], der: bool) -> Result<bool> {
    with_curve!(curve, C => {
        let key = ecdsa::VerifyingKey::<C>::from_sec1_bytes(point).map_err(|_| invalid_public())?;
        let parsed = if der { ecdsa::Signature::<C>::from_der(signature) } else { ecdsa::Signature::<C>::from_slice(signature) };
        let Ok(sig) = parsed else { return Ok(false) };
        Ok(key.verify_prehash(prehash, &sig).is_ok())
    })
}

/// The ECDH shared secret (the x coordinate) of `scalar` and `point`.
pub fn diffie_hellman(curve: Curve, scalar: &[u8], point: &[u8]) -> Result<Vec<u8>> {
    with_curve!(curve, C => {
        let secret = elliptic_curve::SecretKey::<C>::from_slice(scalar).map_err(|_| invalid_private())?;
        let public = elliptic_curve::PublicKey::<C>::from_sec1_bytes(point).map_err(|_| invalid_public())?;
        Ok(secret.diffie_hellman(&public).raw_secret_bytes().to_vec())
    })
}
