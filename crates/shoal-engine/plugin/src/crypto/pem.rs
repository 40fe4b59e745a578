//! PEM, read as leniently as OpenSSL reads it (text around the blocks,
//! CRLF, any line length, several blocks) and written as OpenSSL writes it
//! (64-column lines, `\n`). Also the legacy encryption of PKCS#1 and SEC1
//! PEM (`Proc-Type: 4,ENCRYPTED`), which OpenSSL still reads and writes for
//! `{ type: 'pkcs1' | 'sec1', cipher, passphrase }`.

use base64ct::{Base64, Encoding};
use cbc::cipher::{BlockModeDecrypt, BlockModeEncrypt, KeyIvInit, block_padding::Pkcs7};
use digest::Digest;

use super::error::{CryptoError, Result};
use super::rng::random_vec;

pub struct Pem {
    pub label: String,
    pub headers: Vec<(String, String)>,
    pub der: Vec<u8>,
}

impl Pem {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Whether the block is encrypted the legacy way (`Proc-Type: 4,ENCRYPTED`).
    pub fn is_encrypted(&self) -> bool {
        self.header("Proc-Type").is_some_and(|v| v.contains("ENCRYPTED"))
    }
}

/// Every PEM block in `text`, in order. A block whose base64 is broken is
/// an error, as OpenSSL reports it.
pub fn decode_all(text: &[u8]) -> Result<Vec<Pem>> {
    let text = String::from_utf8_lossy(text);
    let mut blocks = Vec::new();
    let mut rest: &str = &text;
    while let Some(start) = rest.find("-----BEGIN ") {
        let after = &rest[start + 11..];
        let Some(label_end) = after.find("-----") else { break };
        let label = after[..label_end].to_string();
        let body_start = &after[label_end + 5..];
        let end_marker = format!("-----END {label}-----");
        let Some(body_end) = body_start.find(&end_marker) else {
            break;
        };
        let body = &body_start[..body_end];
        rest = &body_start[body_end + end_marker.len()..];

        let mut headers = Vec::new();
        let mut base64 = String::new();
        for line in body.lines().map(str::trim) {
            if line.is_empty() {
                continue;
            }
            match line.split_once(':') {
                Some((name, value)) if base64.is_empty() => {
                    headers.push((name.trim().to_string(), value.trim().to_string()))
                }
                _ => base64.extend(line.chars().filter(|c| !c.is_ascii_whitespace())),
            }
        }
        let der = Base64::decode_vec(&base64).map_err(|_| {
            CryptoError::new(
                "ERR_OSSL_PEM_BAD_BASE64_DECODE",
                "error:1E08010C:DECODER routines::unsupported",
            )
        })?;
        blocks.push(Pem { label, headers, der });
    }
    Ok(blocks)
}

/// `der` as a PEM block with `label` and (for legacy encryption) headers.
pub fn encode(label: &str, headers: &[(&str, String)], der: &[u8]) -> String {
    let base64 = Base64::encode_string(der);
    let mut out = String::with_capacity(base64.len() + base64.len() / 64 + 80);
    out.push_str(&format!("-----BEGIN {label}-----\n"));
    for (name, value) in headers {
        out.push_str(&format!("{name}: {value}\n"));
    }
    if !headers.is_empty() {
        out.push('\n');
    }
    for chunk in base64.as_bytes().chunks(64) {
        out.push_str(std::str::from_utf8(chunk).unwrap_or_default());
        out.push('\n');
    }
    out.push_str(&format!("-----END {label}-----\n"));
    out
}

/// OpenSSL's `EVP_BytesToKey` with MD5 and one round: how legacy PEM turns a
/// passphrase and the IV's first 8 bytes into a key.
fn bytes_to_key(passphrase: &[u8], salt: &[u8], key_len: usize) -> Vec<u8> {
    let mut key = Vec::with_capacity(key_len + 16);
    let mut previous: Vec<u8> = Vec::new();
    while key.len() < key_len {
        let mut md5 = md5::Md5::new();
        md5.update(&previous);
        md5.update(passphrase);
        md5.update(salt);
        previous = md5.finalize().to_vec();
        key.extend_from_slice(&previous);
    }
    key.truncate(key_len);
    key
}

/// Key length of a legacy PEM cipher; AES in CBC mode only.
fn legacy_key_len(cipher: &str) -> Option<usize> {
    match cipher.to_ascii_uppercase().as_str() {
        "AES-128-CBC" => Some(16),
        "AES-192-CBC" => Some(24),
        "AES-256-CBC" => Some(32),
        _ => None,
    }
}

fn aes_cbc(key: &[u8], iv: &[u8], data: &[u8], decrypt: bool) -> Result<Vec<u8>> {
    macro_rules! run {
        ($aes:ty) => {{
            if decrypt {
                cbc::Decryptor::<$aes>::new_from_slices(key, iv)
                    .map_err(|_| CryptoError::bad_decrypt())?
                    .decrypt_padded_vec::<Pkcs7>(data)
                    .map_err(|_| CryptoError::bad_decrypt())
            } else {
                Ok(cbc::Encryptor::<$aes>::new_from_slices(key, iv)
                    .map_err(|_| CryptoError::bad_decrypt())?
                    .encrypt_padded_vec::<Pkcs7>(data))
            }
        }};
    }
    match key.len() {
        16 => run!(aes::Aes128),
        24 => run!(aes::Aes192),
        _ => run!(aes::Aes256),
    }
}

/// The DER inside a legacy-encrypted block.
pub fn legacy_decrypt(pem: &Pem, passphrase: Option<&[u8]>) -> Result<Vec<u8>> {
    let passphrase = passphrase.ok_or_else(CryptoError::passphrase_required)?;
    let info = pem.header("DEK-Info").ok_or_else(CryptoError::unsupported_key)?;
    let (cipher, iv_hex) = info.split_once(',').ok_or_else(CryptoError::unsupported_key)?;
    let key_len = legacy_key_len(cipher.trim()).ok_or_else(|| {
        CryptoError::new(
            "ERR_OSSL_UNSUPPORTED",
            format!("PEM encrypted with {cipher}: Shoal reads AES-CBC encrypted keys only"),
        )
    })?;
    let iv = decode_hex(iv_hex.trim())
        .filter(|iv| iv.len() == 16)
        .ok_or_else(CryptoError::unsupported_key)?;
    let key = bytes_to_key(passphrase, &iv[..8], key_len);
    aes_cbc(&key, &iv, &pem.der, true)
}

/// `der` as a legacy-encrypted PEM block.
pub fn legacy_encrypt(label: &str, der: &[u8], cipher: &str, passphrase: &[u8]) -> Result<String> {
    let key_len =
        legacy_key_len(cipher).ok_or_else(|| CryptoError::new("ERR_CRYPTO_UNKNOWN_CIPHER", "Unknown cipher"))?;
    let iv = random_vec(16)?;
    let key = bytes_to_key(passphrase, &iv[..8], key_len);
    let encrypted = aes_cbc(&key, &iv, der, false)?;
    let hex: String = iv.iter().map(|b| format!("{b:02X}")).collect();
    let headers = [
        ("Proc-Type", "4,ENCRYPTED".to_string()),
        ("DEK-Info", format!("{},{hex}", cipher.to_ascii_uppercase())),
    ];
    Ok(encode(label, &headers, &encrypted))
}

fn decode_hex(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect()
}
