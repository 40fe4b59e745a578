//! RSA: key generation, PKCS#1 v1.5 and PSS signatures, OAEP and PKCS#1
//! v1.5 encryption, and the raw private-key "encryption" behind Node's
//! `privateEncrypt`/`publicDecrypt`. Private operations are blinded.

use rsa::traits::{PrivateKeyParts, PublicKeyParts};
use rsa::{BoxedUint, Oaep, Pkcs1v15Encrypt, Pkcs1v15Sign, Pss};

use super::error::{CryptoError, Result};
use super::hash::{HashAlg, with_hash};
use super::keys::{RsaPrivate, RsaPublic};
use super::rng::HostRng;

/// Node's `crypto.constants` padding values.
pub const PKCS1_PADDING: i32 = 1;
pub const NO_PADDING: i32 = 3;
pub const OAEP_PADDING: i32 = 4;
pub const PSS_PADDING: i32 = 6;

/// Moduli Shoal accepts: OpenSSL's smallest (512 bits) up to 16384 bits,
/// the largest Node generates.
const MIN_BITS: usize = 512;
const MAX_BITS: usize = 16384;

fn uint(bytes: &[u8], bits: u32) -> Result<BoxedUint> {
    let bits = bits.max(8 * bytes.len() as u32).div_ceil(64) * 64;
    BoxedUint::from_be_slice(bytes, bits).map_err(|_| CryptoError::unsupported_key())
}

fn too_large() -> CryptoError {
    CryptoError::msg(format!("RSA keys of more than {MAX_BITS} bits are not supported"))
}

pub fn public_key(key: &RsaPublic) -> Result<rsa::PublicKey> {
    if key.n.len() * 8 > MAX_BITS {
        return Err(too_large());
    }
    let n = uint(&key.n, 0)?;
    let e = uint(&key.e, 0)?;
    rsa::PublicKey::new_with_size_limits(n, e, 256..=MAX_BITS)
        .map_err(|e| CryptoError::new("ERR_OSSL_RSA_BAD_E_VALUE", format!("Invalid RSA public key: {e}")))
}

pub fn private_key(key: &RsaPrivate) -> Result<rsa::PrivateKey> {
    if key.n.len() * 8 > MAX_BITS {
        return Err(too_large());
    }
    let bits = 8 * key.n.len() as u32;
    let n = uint(&key.n, bits)?;
    let e = uint(&key.e, 0)?;
    let d = uint(&key.d, bits)?;
    let p = uint(&key.p, bits)?;
    let q = uint(&key.q, bits)?;
    rsa::PrivateKey::from_components(n, e, d, vec![p, q])
        .map_err(|e| CryptoError::new("ERR_OSSL_RSA_INVALID_KEY", format!("Invalid RSA private key: {e}")))
}

fn be(v: &BoxedUint) -> Vec<u8> {
    v.to_be_bytes_trimmed_vartime().to_vec()
}

/// A new key of `bits` bits with public exponent `exponent`.
pub fn generate(bits: usize, exponent: &[u8]) -> Result<RsaPrivate> {
    if bits < MIN_BITS {
        return Err(CryptoError::msg("error:1C8000AB:Provider routines::key size too small"));
    }
    if bits > MAX_BITS {
        return Err(CryptoError::msg(format!(
            "RSA keys of more than {MAX_BITS} bits are not supported"
        )));
    }
    let e = uint(exponent, 0)?;
    if exponent.last().is_none_or(|b| b & 1 == 0) || e <= BoxedUint::one() {
        return Err(CryptoError::msg(
            "error:020000B2:rsa routines::pub exponent out of range",
        ));
    }
    let mut rng = HostRng::default();
    let key = rsa::PrivateKey::new_with_exp_unchecked(&mut rng, bits, e)
        .map_err(|e| CryptoError::msg(format!("RSA key generation failed: {e}")))?;
    let key = rng.check(key)?;
    let primes = key.primes();
    let failed = || CryptoError::msg("RSA key generation failed");
    Ok(RsaPrivate {
        n: be(key.n().as_ref()),
        e: be(key.e()),
        d: be(key.d()),
        p: be(primes[0].as_ref()),
        q: be(primes[1].as_ref()),
        dp: be(key.dp().ok_or_else(failed)?),
        dq: be(key.dq().ok_or_else(failed)?),
        qi: be(&key.crt_coefficient().ok_or_else(failed)?),
    })
}

fn modulus_bits(key: &rsa::PublicKey) -> usize {
    key.n().bit_width_vartime() as usize
}

/// The longest PSS salt the key takes with `hash`.
pub fn max_salt_len(key: &rsa::PublicKey, hash: HashAlg) -> Result<usize> {
    let em_len = (modulus_bits(key) - 1).div_ceil(8);
    em_len.checked_sub(hash.output_len() + 2).ok_or_else(|| {
        CryptoError::new(
            "ERR_OSSL_RSA_DATA_TOO_LARGE_FOR_KEY_SIZE",
            "error:0200006E:rsa routines::data too large for key size",
        )
    })
}

fn digest_too_big() -> CryptoError {
    CryptoError::new(
        "ERR_OSSL_RSA_DIGEST_TOO_BIG_FOR_RSA_KEY",
        "error:02000070:rsa routines::digest too big for rsa key",
    )
}

pub fn sign_pkcs1(key: &RsaPrivate, hash: HashAlg, digest: &[u8]) -> Result<Vec<u8>> {
    let key = private_key(key)?;
    let mut rng = HostRng::default();
    let sig = with_hash!(hash, D => key.sign_with_rng(&mut rng, Pkcs1v15Sign::new::<D>(), digest))
        .map_err(|_| digest_too_big())?;
    rng.check(sig)
}

pub fn verify_pkcs1(key: &RsaPublic, hash: HashAlg, digest: &[u8], signature: &[u8]) -> Result<bool> {
    let key = public_key(key)?;
    Ok(with_hash!(hash, D => key.verify(Pkcs1v15Sign::new::<D>(), digest, signature)).is_ok())
}

pub fn sign_pss(key: &RsaPrivate, hash: HashAlg, digest: &[u8], salt_len: usize) -> Result<Vec<u8>> {
    let key = private_key(key)?;
    if salt_len > max_salt_len(key.as_public_key(), hash)? {
        return Err(data_too_large());
    }
    let mut rng = HostRng::default();
    let sig = with_hash!(hash, D => key.sign_with_rng(&mut rng, Pss::<D>::new_with_salt(salt_len), digest))
        .map_err(|_| digest_too_big())?;
    rng.check(sig)
}

/// `salt_len` None: any salt length (OpenSSL's `RSA_PSS_SALTLEN_AUTO`).
pub fn verify_pss(
    key: &RsaPublic,
    hash: HashAlg,
    digest: &[u8],
    signature: &[u8],
    salt_len: Option<usize>,
) -> Result<bool> {
    let key = public_key(key)?;
    Ok(with_hash!(hash, D => {
        let mut scheme = Pss::<D>::new();
        scheme.salt_len = salt_len;
        key.verify(scheme, digest, signature)
    })
    .is_ok())
}

fn data_too_large() -> CryptoError {
    CryptoError::new(
        "ERR_OSSL_RSA_DATA_TOO_LARGE_FOR_KEY_SIZE",
        "error:0200006E:rsa routines::data too large for key size",
    )
}

/// `publicEncrypt`: OAEP (MGF1 with the same hash), PKCS#1 v1.5 or none.
pub fn public_encrypt(key: &RsaPublic, padding: i32, hash: HashAlg, label: &[u8], data: &[u8]) -> Result<Vec<u8>> {
    let key = public_key(key)?;
    let mut rng = HostRng::default();
    let out = match padding {
        OAEP_PADDING => with_hash!(hash, D => key.encrypt(&mut rng, Oaep::<D>::new_with_label(label.to_vec()), data)),
        PKCS1_PADDING => key.encrypt(&mut rng, Pkcs1v15Encrypt, data),
        NO_PADDING => return raw_public(&key, data),
        _ => return Err(unknown_padding()),
    }
    .map_err(|_| data_too_large())?;
    rng.check(out)
}

/// `privateDecrypt`. PKCS#1 v1.5 uses implicit rejection, as OpenSSL 3.2+
/// (Node 22 and later) does: a bad padding gives a pseudo-random message.
pub fn private_decrypt(key: &RsaPrivate, padding: i32, hash: HashAlg, label: &[u8], data: &[u8]) -> Result<Vec<u8>> {
    let key = private_key(key)?;
    let mut rng = HostRng::default();
    let out = match padding {
        OAEP_PADDING => {
            with_hash!(hash, D => key.decrypt_blinded(&mut rng, Oaep::<D>::new_with_label(label.to_vec()), data))
                .map_err(|_| {
                    CryptoError::new(
                        "ERR_OSSL_RSA_OAEP_DECODING_ERROR",
                        "error:02000079:rsa routines::oaep decoding error",
                    )
                })?
        }
        PKCS1_PADDING => key
            .decrypt_blinded(&mut rng, Pkcs1v15Encrypt, data)
            .map_err(|_| data_too_large())?,
        NO_PADDING => raw_private(&key, data, &mut rng)?,
        _ => return Err(unknown_padding()),
    };
    rng.check(out)
}

/// `privateEncrypt`: a PKCS#1 v1.5 type 1 block (a signature over raw
/// data), or raw RSA.
pub fn private_encrypt(key: &RsaPrivate, padding: i32, data: &[u8]) -> Result<Vec<u8>> {
    let key = private_key(key)?;
    let mut rng = HostRng::default();
    let out = match padding {
        PKCS1_PADDING => key
            .sign_with_rng(&mut rng, Pkcs1v15Sign::new_unprefixed(), data)
            .map_err(|_| {
                CryptoError::new(
                    "ERR_OSSL_RSA_DATA_TOO_LARGE_FOR_KEY_SIZE",
                    "error:0200006E:rsa routines::data too large for key size",
                )
            })?,
        NO_PADDING => raw_private(&key, data, &mut rng)?,
        _ => return Err(unknown_padding()),
    };
    rng.check(out)
}

/// `publicDecrypt`: undoes `privateEncrypt`.
pub fn public_decrypt(key: &RsaPublic, padding: i32, data: &[u8]) -> Result<Vec<u8>> {
    let key = public_key(key)?;
    let block = raw_public(&key, data)?;
    match padding {
        NO_PADDING => Ok(block),
        PKCS1_PADDING => {
            // 00 01 FF..FF 00 message, with at least 8 bytes of FF.
            let bad = || {
                CryptoError::new(
                    "ERR_OSSL_RSA_INVALID_PADDING",
                    "error:0200008A:rsa routines::invalid padding",
                )
            };
            if block.len() < 11 || block[0] != 0 || block[1] != 1 {
                return Err(bad());
            }
            let pad = block[2..].iter().take_while(|&&b| b == 0xff).count();
            let sep = 2 + pad;
            if pad < 8 || block.get(sep) != Some(&0) {
                return Err(bad());
            }
            Ok(block[sep + 1..].to_vec())
        }
        _ => Err(unknown_padding()),
    }
}

fn unknown_padding() -> CryptoError {
    CryptoError::new(
        "ERR_OSSL_RSA_UNKNOWN_PADDING_TYPE",
        "error:02000076:rsa routines::unknown padding type",
    )
}

/// Raw RSA needs input of exactly the modulus length, below the modulus.
fn raw_input(key: &rsa::PublicKey, data: &[u8]) -> Result<BoxedUint> {
    let size = key.size();
    if data.len() > size {
        return Err(data_too_large());
    }
    if data.len() < size {
        return Err(CryptoError::new(
            "ERR_OSSL_RSA_DATA_TOO_SMALL_FOR_KEY_SIZE",
            "error:0200006E:rsa routines::data too small for key size",
        ));
    }
    let m = BoxedUint::from_be_slice(data, key.n_bits_precision()).map_err(|_| data_too_large())?;
    if m >= *key.n().as_ref() {
        return Err(CryptoError::new(
            "ERR_OSSL_RSA_DATA_TOO_LARGE_FOR_MODULUS",
            "error:02000084:rsa routines::data too large for modulus",
        ));
    }
    Ok(m)
}

fn left_pad(v: &BoxedUint, size: usize) -> Vec<u8> {
    let bytes = be(v);
    let mut out = vec![0u8; size.saturating_sub(bytes.len())];
    out.extend_from_slice(&bytes);
    out
}

fn raw_public(key: &rsa::PublicKey, data: &[u8]) -> Result<Vec<u8>> {
    let m = raw_input(key, data)?;
    let c = rsa::hazmat::rsa_encrypt(key, &m).map_err(|_| data_too_large())?;
    Ok(left_pad(&c, key.size()))
}

fn raw_private(key: &rsa::PrivateKey, data: &[u8], rng: &mut HostRng) -> Result<Vec<u8>> {
    let c = raw_input(key.as_public_key(), data)?;
    let m = rsa::hazmat::rsa_decrypt_and_check(key, Some(rng), &c).map_err(|_| data_too_large())?;
    Ok(left_pad(&m, key.size()))
}
