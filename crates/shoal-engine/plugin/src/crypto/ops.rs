//! Operations on whole keys, whatever their type: signing, verifying, key
//! agreement and generation, with Node's defaults and Node's errors for
//! what a key type cannot do.

use super::ec;
use super::error::{CryptoError, Result};
use super::hash::HashAlg;
use super::keys::{Curve, PrivateKey, PssParams, PublicKey, RsaPrivate, RsaVariant};
use super::okp;
use super::rsa;

/// OpenSSL's special PSS salt lengths, as Node's `crypto.constants` has them.
const SALTLEN_DIGEST: i32 = -1;
/// `RSA_PSS_SALTLEN_MAX_SIGN` when signing, `RSA_PSS_SALTLEN_AUTO` when verifying.
const SALTLEN_MAX_SIGN_OR_AUTO: i32 = -2;
const SALTLEN_MAX: i32 = -3;

pub struct SignOptions {
    /// None: the key type's default (SHA-256 for RSA and EC, none for Ed25519).
    pub hash: Option<HashAlg>,
    pub padding: Option<i32>,
    pub salt_len: Option<i32>,
    /// IEEE P1363 (`r || s`) rather than DER, for ECDSA.
    pub p1363: bool,
}

fn invalid_digest() -> CryptoError {
    CryptoError::new(
        "ERR_OSSL_INVALID_DIGEST",
        "error:1C80007A:Provider routines::invalid digest",
    )
}

fn illegal_padding() -> CryptoError {
    CryptoError::new(
        "ERR_OSSL_ILLEGAL_OR_UNSUPPORTED_PADDING_MODE",
        "error:1C8000A5:Provider routines::illegal or unsupported padding mode",
    )
}

enum RsaScheme {
    Pkcs1,
    /// The salt length; None while verifying means any.
    Pss(Option<usize>),
}

/// The hash and padding an RSA signature uses: the caller's, else the key's
/// restrictions, else PKCS#1 v1.5 (`rsa`) or PSS (`rsa-pss`) with SHA-256.
fn rsa_scheme(
    key: &::rsa::PublicKey,
    variant: RsaVariant,
    opts: &SignOptions,
    signing: bool,
) -> Result<(HashAlg, RsaScheme)> {
    let restriction = match variant {
        RsaVariant::Pss(p) => p,
        RsaVariant::Plain => None,
    };
    let hash = match (opts.hash, restriction) {
        (Some(h), Some(r)) if h != r.hash => {
            return Err(CryptoError::new(
                "ERR_OSSL_DIGEST_NOT_ALLOWED",
                "error:1C8000B6:Provider routines::digest not allowed",
            ));
        }
        (Some(h), _) => h,
        (None, Some(r)) => r.hash,
        (None, None) => HashAlg::Sha256,
    };
    if let Some(PssParams { mgf1, .. }) = restriction
        && mgf1 != hash
    {
        return Err(CryptoError::msg(
            "RSA-PSS keys whose MGF1 hash differs from the signature hash are not supported",
        ));
    }
    let pss = match (opts.padding, variant) {
        (None, RsaVariant::Plain) | (Some(rsa::PKCS1_PADDING), RsaVariant::Plain) => false,
        (None, RsaVariant::Pss(_)) | (Some(rsa::PSS_PADDING), _) => true,
        _ => return Err(illegal_padding()),
    };
    if !pss {
        return Ok((hash, RsaScheme::Pkcs1));
    }
    let max = rsa::max_salt_len(key, hash)?;
    let invalid = || {
        CryptoError::new(
            "ERR_OSSL_INVALID_SALT_LENGTH",
            "error:1C800070:Provider routines::invalid salt length",
        )
    };
    let salt = match (opts.salt_len, restriction) {
        (Some(SALTLEN_DIGEST), _) => Some(hash.output_len()),
        // A restricted key takes no "largest salt" when signing.
        (Some(SALTLEN_MAX_SIGN_OR_AUTO), Some(_)) if signing => return Err(invalid()),
        (Some(SALTLEN_MAX_SIGN_OR_AUTO), None) if signing => Some(max),
        (Some(SALTLEN_MAX_SIGN_OR_AUTO), _) => None,
        (Some(SALTLEN_MAX), _) => Some(max),
        (Some(n), _) if n >= 0 => Some(n as usize),
        (Some(_), _) => return Err(invalid()),
        (None, Some(r)) => Some(r.salt_len as usize),
        (None, None) if signing => Some(max),
        (None, None) => None,
    };
    if let (Some(r), Some(s)) = (restriction, salt)
        && s < r.salt_len as usize
    {
        return Err(CryptoError::new(
            "ERR_OSSL_PSS_SALTLEN_TOO_SMALL",
            "error:1C8000AC:Provider routines::pss saltlen too small",
        ));
    }
    Ok((hash, RsaScheme::Pss(salt)))
}

pub fn sign(key: &PrivateKey, data: &[u8], opts: &SignOptions) -> Result<Vec<u8>> {
    match key {
        PrivateKey::Rsa { key: parts, variant } => {
            let public = rsa::public_key(&super::keys::RsaPublic {
                n: parts.n.clone(),
                e: parts.e.clone(),
            })?;
            let (hash, scheme) = rsa_scheme(&public, *variant, opts, true)?;
            let digest = hash.digest(data);
            match scheme {
                RsaScheme::Pkcs1 => rsa::sign_pkcs1(parts, hash, &digest),
                RsaScheme::Pss(salt) => rsa::sign_pss(parts, hash, &digest, salt.unwrap_or(0)),
            }
        }
        PrivateKey::Ec { curve, scalar, .. } => {
            let hash = opts.hash.unwrap_or(HashAlg::Sha256);
            ec::sign(*curve, scalar, &hash.digest(data), !opts.p1363)
        }
        PrivateKey::Ed25519 { seed } => {
            if opts.hash.is_some() {
                return Err(invalid_digest());
            }
            Ok(okp::ed25519_sign(seed, data))
        }
        PrivateKey::X25519 { .. } => Err(CryptoError::operation_not_supported()),
    }
}

pub fn verify(key: &PublicKey, data: &[u8], signature: &[u8], opts: &SignOptions) -> Result<bool> {
    match key {
        PublicKey::Rsa { key: parts, variant } => {
            let public = rsa::public_key(parts)?;
            let (hash, scheme) = rsa_scheme(&public, *variant, opts, false)?;
            let digest = hash.digest(data);
            match scheme {
                RsaScheme::Pkcs1 => rsa::verify_pkcs1(parts, hash, &digest, signature),
                RsaScheme::Pss(salt) => rsa::verify_pss(parts, hash, &digest, signature, salt),
            }
        }
        PublicKey::Ec { curve, point } => {
            let hash = opts.hash.unwrap_or(HashAlg::Sha256);
            ec::verify(*curve, point, &hash.digest(data), signature, !opts.p1363)
        }
        PublicKey::Ed25519(public) => {
            if opts.hash.is_some() {
                return Err(invalid_digest());
            }
            Ok(okp::ed25519_verify(public, data, signature))
        }
        PublicKey::X25519(_) => Err(CryptoError::operation_not_supported()),
    }
}

/// `crypto.diffieHellman({ privateKey, publicKey })` and Web Crypto's
/// ECDH/X25519 `deriveBits`.
pub fn derive(private: &PrivateKey, public: &PublicKey) -> Result<Vec<u8>> {
    match (private, public) {
        (PrivateKey::Ec { curve, scalar, .. }, PublicKey::Ec { curve: peer, point }) => {
            if curve != peer {
                return Err(CryptoError::new(
                    "ERR_OSSL_MISMATCHING_DOMAIN_PARAMETERS",
                    "error:1C8000CB:Provider routines::mismatching domain parameters",
                ));
            }
            ec::diffie_hellman(*curve, scalar, point)
        }
        (PrivateKey::X25519 { secret }, PublicKey::X25519(peer)) => okp::x25519(secret, peer),
        _ => Err(CryptoError::new(
            "ERR_CRYPTO_INCOMPATIBLE_KEY",
            format!(
                "Incompatible key types for Diffie-Hellman: {} and {}",
                private.key_type(),
                public.key_type()
            ),
        )),
    }
}

pub struct GenerateOptions<'a> {
    pub key_type: &'a str,
    pub modulus_bits: usize,
    pub public_exponent: &'a [u8],
    pub curve: Option<Curve>,
    pub pss: Option<PssParams>,
}

pub fn generate(opts: &GenerateOptions<'_>) -> Result<PrivateKey> {
    match opts.key_type {
        "rsa" | "rsa-pss" => {
            let key: RsaPrivate = rsa::generate(opts.modulus_bits, opts.public_exponent)?;
            let variant = if opts.key_type == "rsa" {
                RsaVariant::Plain
            } else {
                RsaVariant::Pss(opts.pss)
            };
            Ok(PrivateKey::Rsa { key, variant })
        }
        "ec" => {
            let curve = opts
                .curve
                .ok_or_else(|| CryptoError::new("ERR_CRYPTO_INVALID_CURVE", "Invalid EC curve name"))?;
            let (scalar, point) = ec::generate(curve)?;
            Ok(PrivateKey::Ec {
                curve,
                scalar,
                point: Some(point),
            })
        }
        "ed25519" => Ok(PrivateKey::Ed25519 {
            seed: okp::random_secret()?,
        }),
        "x25519" => Ok(PrivateKey::X25519 {
            secret: okp::random_secret()?,
        }),
        other => Err(CryptoError::new(
            "ERR_INVALID_ARG_VALUE",
            format!("The argument 'type' must be a supported key type. Received '{other}'"),
        )),
    }
}
