//! The named curves OpenSSL has and Shoal does not. Node reads keys on
//! them, so for a key that fits one Shoal says that it lacks the curve
//! (`ERR_NOT_AVAILABLE_IN_SHOAL`) rather than that the key is bad; a key
//! whose sizes do not fit fails as it fails in Node.

use super::error::CryptoError;

/// OID, OpenSSL's name, field size in bits.
const CURVES: [(&str, &str, usize); 77] = [
    ("1.2.840.10045.3.1.1", "prime192v1", 192),
    ("1.2.840.10045.3.1.2", "prime192v2", 192),
    ("1.2.840.10045.3.1.3", "prime192v3", 192),
    ("1.2.840.10045.3.1.4", "prime239v1", 239),
    ("1.2.840.10045.3.1.5", "prime239v2", 239),
    ("1.2.840.10045.3.1.6", "prime239v3", 239),
    ("1.2.840.10045.3.0.1", "c2pnb163v1", 163),
    ("1.2.840.10045.3.0.2", "c2pnb163v2", 163),
    ("1.2.840.10045.3.0.3", "c2pnb163v3", 163),
    ("1.2.840.10045.3.0.4", "c2pnb176v1", 176),
    ("1.2.840.10045.3.0.5", "c2tnb191v1", 191),
    ("1.2.840.10045.3.0.6", "c2tnb191v2", 191),
    ("1.2.840.10045.3.0.7", "c2tnb191v3", 191),
    ("1.2.840.10045.3.0.10", "c2pnb208w1", 208),
    ("1.2.840.10045.3.0.11", "c2tnb239v1", 239),
    ("1.2.840.10045.3.0.12", "c2tnb239v2", 239),
    ("1.2.840.10045.3.0.13", "c2tnb239v3", 239),
    ("1.2.840.10045.3.0.16", "c2pnb272w1", 272),
    ("1.2.840.10045.3.0.17", "c2pnb304w1", 304),
    ("1.2.840.10045.3.0.18", "c2tnb359v1", 359),
    ("1.2.840.10045.3.0.19", "c2pnb368w1", 368),
    ("1.2.840.10045.3.0.20", "c2tnb431r1", 431),
    ("1.3.132.0.1", "sect163k1", 163),
    ("1.3.132.0.2", "sect163r1", 163),
    ("1.3.132.0.3", "sect239k1", 239),
    ("1.3.132.0.4", "sect113r1", 113),
    ("1.3.132.0.5", "sect113r2", 113),
    ("1.3.132.0.6", "secp112r1", 112),
    ("1.3.132.0.7", "secp112r2", 112),
    ("1.3.132.0.8", "secp160r1", 160),
    ("1.3.132.0.9", "secp160k1", 160),
    ("1.3.132.0.10", "secp256k1", 256),
    ("1.3.132.0.15", "sect163r2", 163),
    ("1.3.132.0.16", "sect283k1", 283),
    ("1.3.132.0.17", "sect283r1", 283),
    ("1.3.132.0.22", "sect131r1", 131),
    ("1.3.132.0.23", "sect131r2", 131),
    ("1.3.132.0.24", "sect193r1", 193),
    ("1.3.132.0.25", "sect193r2", 193),
    ("1.3.132.0.26", "sect233k1", 233),
    ("1.3.132.0.27", "sect233r1", 233),
    ("1.3.132.0.28", "secp128r1", 128),
    ("1.3.132.0.29", "secp128r2", 128),
    ("1.3.132.0.30", "secp160r2", 160),
    ("1.3.132.0.31", "secp192k1", 192),
    ("1.3.132.0.32", "secp224k1", 224),
    ("1.3.132.0.33", "secp224r1", 224),
    ("1.3.132.0.36", "sect409k1", 409),
    ("1.3.132.0.37", "sect409r1", 409),
    ("1.3.132.0.38", "sect571k1", 571),
    ("1.3.132.0.39", "sect571r1", 571),
    ("1.3.36.3.3.2.8.1.1.1", "brainpoolP160r1", 160),
    ("1.3.36.3.3.2.8.1.1.2", "brainpoolP160t1", 160),
    ("1.3.36.3.3.2.8.1.1.3", "brainpoolP192r1", 192),
    ("1.3.36.3.3.2.8.1.1.4", "brainpoolP192t1", 192),
    ("1.3.36.3.3.2.8.1.1.5", "brainpoolP224r1", 224),
    ("1.3.36.3.3.2.8.1.1.6", "brainpoolP224t1", 224),
    ("1.3.36.3.3.2.8.1.1.7", "brainpoolP256r1", 256),
    ("1.3.36.3.3.2.8.1.1.8", "brainpoolP256t1", 256),
    ("1.3.36.3.3.2.8.1.1.9", "brainpoolP320r1", 320),
    ("1.3.36.3.3.2.8.1.1.10", "brainpoolP320t1", 320),
    ("1.3.36.3.3.2.8.1.1.11", "brainpoolP384r1", 384),
    ("1.3.36.3.3.2.8.1.1.12", "brainpoolP384t1", 384),
    ("1.3.36.3.3.2.8.1.1.13", "brainpoolP512r1", 512),
    ("1.3.36.3.3.2.8.1.1.14", "brainpoolP512t1", 512),
    ("2.23.43.1.4.1", "wap-wsg-idm-ecid-wtls1", 113),
    ("2.23.43.1.4.3", "wap-wsg-idm-ecid-wtls3", 163),
    ("2.23.43.1.4.4", "wap-wsg-idm-ecid-wtls4", 113),
    ("2.23.43.1.4.5", "wap-wsg-idm-ecid-wtls5", 163),
    ("2.23.43.1.4.6", "wap-wsg-idm-ecid-wtls6", 112),
    ("2.23.43.1.4.7", "wap-wsg-idm-ecid-wtls7", 160),
    ("2.23.43.1.4.8", "wap-wsg-idm-ecid-wtls8", 112),
    ("2.23.43.1.4.9", "wap-wsg-idm-ecid-wtls9", 160),
    ("2.23.43.1.4.10", "wap-wsg-idm-ecid-wtls10", 233),
    ("2.23.43.1.4.11", "wap-wsg-idm-ecid-wtls11", 233),
    ("2.23.43.1.4.12", "wap-wsg-idm-ecid-wtls12", 224),
    ("1.2.156.10197.1.301", "SM2", 256),
];

pub struct ForeignCurve {
    name: &'static str,
    field_len: usize,
}

/// The curve of a dotted OID, if OpenSSL has it.
pub fn find(oid: &str) -> Option<ForeignCurve> {
    CURVES
        .iter()
        .find(|(o, _, _)| *o == oid)
        .map(|&(_, name, bits)| ForeignCurve {
            name,
            field_len: bits.div_ceil(8),
        })
}

impl ForeignCurve {
    /// Whether a point encoding has the curve's size.
    pub fn fits_point(&self, point: &[u8]) -> bool {
        match point.first() {
            Some(4 | 6 | 7) => point.len() == 1 + 2 * self.field_len,
            Some(2 | 3) => point.len() == 1 + self.field_len,
            _ => false,
        }
    }

    /// Whether a private scalar is no longer than the curve's numbers.
    pub fn fits_scalar(&self, scalar: &[u8]) -> bool {
        let start = scalar.iter().position(|&b| b != 0).unwrap_or(scalar.len());
        start < scalar.len() && scalar.len() - start <= self.field_len
    }

    /// What Shoal says about a key that fits the curve; what Node says
    /// about one that does not.
    pub fn error(&self, fits: bool) -> CryptoError {
        if !fits {
            return CryptoError::unsupported_key();
        }
        CryptoError::new(
            "ERR_NOT_AVAILABLE_IN_SHOAL",
            format!(
                "Keys on the {} curve are not available in Shoal's JavaScript engine (P-256, P-384 and P-521 are)",
                self.name
            ),
        )
    }
}
