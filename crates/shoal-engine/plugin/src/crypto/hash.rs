//! The digests that signatures, RSA padding and HKDF are built on.

use der::asn1::ObjectIdentifier;

use super::error::{CryptoError, Result};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashAlg {
    Md5,
    Sha1,
    Sha224,
    Sha256,
    Sha384,
    Sha512,
}

/// Runs `$body` with `$d` bound to the digest type of `$alg`.
macro_rules! with_hash {
    ($alg:expr, $d:ident => $body:expr) => {
        match $alg {
            $crate::crypto::hash::HashAlg::Md5 => {
                type $d = md5::Md5;
                $body
            }
            $crate::crypto::hash::HashAlg::Sha1 => {
                type $d = sha1::Sha1;
                $body
            }
            $crate::crypto::hash::HashAlg::Sha224 => {
                type $d = sha2::Sha224;
                $body
            }
            $crate::crypto::hash::HashAlg::Sha256 => {
                type $d = sha2::Sha256;
                $body
            }
            $crate::crypto::hash::HashAlg::Sha384 => {
                type $d = sha2::Sha384;
                $body
            }
            $crate::crypto::hash::HashAlg::Sha512 => {
                type $d = sha2::Sha512;
                $body
            }
        }
    };
}
pub(crate) use with_hash;

const OIDS: [(HashAlg, ObjectIdentifier); 6] = [
    (HashAlg::Md5, ObjectIdentifier::new_unwrap("1.2.840.113549.2.5")),
    (HashAlg::Sha1, ObjectIdentifier::new_unwrap("1.3.14.3.2.26")),
    (HashAlg::Sha224, ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.4")),
    (HashAlg::Sha256, ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.1")),
    (HashAlg::Sha384, ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.2")),
    (HashAlg::Sha512, ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.3")),
];

impl HashAlg {
    /// Node's name (`sha256`), OpenSSL's (`SHA2-256`, `RSA-SHA256`) or Web
    /// Crypto's (`SHA-256`), in any case.
    pub fn parse(name: &str) -> Result<Self> {
        let lower = name.to_ascii_lowercase();
        let bare = lower
            .strip_prefix("rsa-")
            .unwrap_or(&lower)
            .replace("sha2-", "sha")
            .replace('-', "");
        Ok(match bare.as_str() {
            "md5" => Self::Md5,
            "sha1" => Self::Sha1,
            "sha224" => Self::Sha224,
            "sha256" => Self::Sha256,
            "sha384" => Self::Sha384,
            "sha512" => Self::Sha512,
            _ => {
                return Err(CryptoError::new(
                    "ERR_CRYPTO_INVALID_DIGEST",
                    format!("Invalid digest: {name}"),
                ));
            }
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Md5 => "md5",
            Self::Sha1 => "sha1",
            Self::Sha224 => "sha224",
            Self::Sha256 => "sha256",
            Self::Sha384 => "sha384",
            Self::Sha512 => "sha512",
        }
    }

    pub fn output_len(self) -> usize {
        match self {
            Self::Md5 => 16,
            Self::Sha1 => 20,
            Self::Sha224 => 28,
            Self::Sha256 => 32,
            Self::Sha384 => 48,
            Self::Sha512 => 64,
        }
    }

    pub fn digest(self, data: &[u8]) -> Vec<u8> {
        use digest::Digest;
        with_hash!(self, D => D::digest(data).to_vec())
    }

    pub fn oid(self) -> ObjectIdentifier {
        OIDS.iter()
            .find(|(alg, _)| *alg == self)
            .map(|(_, oid)| *oid)
            .unwrap_or(OIDS[1].1)
    }

    pub fn from_oid(oid: &ObjectIdentifier) -> Option<Self> {
        OIDS.iter().find(|(_, o)| o == oid).map(|(alg, _)| *alg)
    }
}
