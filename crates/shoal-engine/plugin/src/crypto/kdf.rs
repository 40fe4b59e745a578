//! HKDF (RFC 5869) and AES Key Wrap (RFC 3394).

use super::error::{CryptoError, Result};
use super::hash::{HashAlg, with_hash};

/// HKDF-Extract and -Expand to `length` bytes (at most 255 hash lengths).
pub fn hkdf(hash: HashAlg, ikm: &[u8], salt: &[u8], info: &[u8], length: usize) -> Result<Vec<u8>> {
    if length > 255 * hash.output_len() {
        return Err(CryptoError::new("ERR_CRYPTO_INVALID_KEYLEN", "Invalid key length"));
    }
    let mut out = vec![0u8; length];
    with_hash!(hash, D => hkdf::Hkdf::<D>::new(Some(salt), ikm).expand(info, &mut out))
        .map_err(|_| CryptoError::new("ERR_CRYPTO_INVALID_KEYLEN", "Invalid key length"))?;
    Ok(out)
}

/// Wraps (or unwraps) `data` with the AES key `key` (16, 24 or 32 bytes).
pub fn aes_kw(key: &[u8], data: &[u8], unwrap: bool) -> Result<Vec<u8>> {
    use aes_kw::KeyInit;
    if !data.len().is_multiple_of(8) || data.len() < if unwrap { 24 } else { 16 } {
        return Err(CryptoError::msg(
            "AES-KW input must be a multiple of 8 bytes and at least 16 bytes long",
        ));
    }
    let mut out = vec![0u8; if unwrap { data.len() - 8 } else { data.len() + 8 }];
    macro_rules! run {
        ($kw:ty) => {{
            let kw = <$kw>::new_from_slice(key).map_err(|_| CryptoError::msg("Invalid key length"))?;
            let len = if unwrap {
                kw.unwrap_key(data, &mut out)
                    .map_err(|_| {
                        CryptoError::new("ERR_OSSL_BAD_DECRYPT", "error:1C800064:Provider routines::bad decrypt")
                    })?
                    .len()
            } else {
                kw.wrap_key(data, &mut out)
                    .map_err(|_| CryptoError::msg("AES-KW wrapping failed"))?
                    .len()
            };
            out.truncate(len);
        }};
    }
    match key.len() {
        16 => run!(aes_kw::KwAes128),
        24 => run!(aes_kw::KwAes192),
        32 => run!(aes_kw::KwAes256),
        _ => return Err(CryptoError::msg("Invalid key length")),
    }
    Ok(out)
}
