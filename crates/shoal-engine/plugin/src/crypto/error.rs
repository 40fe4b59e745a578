//! Errors of the key primitives. Node reports OpenSSL's errors as `Error`s
//! with an `ERR_OSSL_…` code and OpenSSL's message; these carry the same
//! code and message where Node has one, so a Function that checks
//! `err.code` sees what it would see under Node. (Whether Node throws a
//! TypeError or an Error follows from the code; the JavaScript side knows.)

use std::borrow::Cow;

#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct CryptoError {
    /// Node's `err.code`; empty when Node gives none.
    pub code: &'static str,
    pub message: Cow<'static, str>,
}

pub type Result<T> = std::result::Result<T, CryptoError>;

impl CryptoError {
    pub fn new(code: &'static str, message: impl Into<Cow<'static, str>>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }

    /// A plain `Error` without a code.
    pub fn msg(message: impl Into<Cow<'static, str>>) -> Self {
        Self::new("", message)
    }

    /// What OpenSSL's decoders say about bytes that are no key they know.
    pub fn unsupported_key() -> Self {
        Self::new("ERR_OSSL_UNSUPPORTED", "error:1E08010C:DECODER routines::unsupported")
    }

    /// A wrong passphrase (or a corrupt encrypted key).
    pub fn bad_decrypt() -> Self {
        Self::new("ERR_OSSL_BAD_DECRYPT", "error:1C800064:Provider routines::bad decrypt")
    }

    /// An encrypted key and no passphrase: OpenSSL's password callback gives up.
    pub fn passphrase_required() -> Self {
        Self::new(
            "ERR_OSSL_CRYPTO_INTERRUPTED_OR_CANCELLED",
            "error:07880109:common libcrypto routines::interrupted or cancelled",
        )
    }

    pub fn operation_not_supported() -> Self {
        Self::new(
            "ERR_OSSL_EVP_OPERATION_NOT_SUPPORTED_FOR_THIS_KEYTYPE",
            "error:03000096:digital envelope routines::operation not supported for this keytype",
        )
    }

    pub fn randomness() -> Self {
        Self::msg("no randomness available from the host")
    }
}
