//! X.509 certificates for `crypto.X509Certificate`: the fields Node shows,
//! formatted as Node formats them (names as OpenSSL prints them one RDN per
//! line, times as `Nov 21 20:53:55 2026 GMT`), and the signature checked
//! with the issuer's key.

use der::Decode;
use der::asn1::ObjectIdentifier;

use super::asn1::{self, Tlv};
use super::error::{CryptoError, Result};
use super::hash::HashAlg;
use super::keys::{self, PublicKey, RsaVariant};
use super::openssl_der;
use super::ops;

fn invalid() -> CryptoError {
    CryptoError::new(
        "ERR_OSSL_ASN1_WRONG_TAG",
        "error:068000A8:asn1 encoding routines::wrong tag",
    )
}

/// A certificate's parts, borrowed from its DER.
pub struct Certificate<'a> {
    /// The certificate's own bytes (what follows it is ignored, as OpenSSL does).
    pub der: &'a [u8],
    pub tbs: &'a [u8],
    pub signature_algorithm: &'a [u8],
    pub signature: &'a [u8],
    pub serial: &'a [u8],
    pub issuer: &'a [u8],
    pub not_before: Tlv<'a>,
    pub not_after: Tlv<'a>,
    pub subject: &'a [u8],
    pub spki: &'a [u8],
    pub extensions: Vec<(ObjectIdentifier, &'a [u8])>,
}

pub fn parse(der: &[u8]) -> Result<Certificate<'_>> {
    if let Some(e) = openssl_der::check(&openssl_der::CERTIFICATE, der) {
        return Err(e.into());
    }
    (|| {
        let (cert, _) = asn1::read(der)?;
        let mut parts = asn1::children(cert.content)?.into_iter();
        let tbs = parts.next()?;
        let signature_algorithm = parts.next()?.whole;
        let signature = parts.next()?.content.get(1..)?;
        let mut fields = asn1::children(tbs.content)?.into_iter().peekable();
        if fields.peek()?.tag == 0xa0 {
            fields.next();
        }
        let serial = fields.next()?.content;
        let _algorithm = fields.next()?;
        let issuer = fields.next()?.whole;
        let validity = fields.next()?;
        let subject = fields.next()?.whole;
        let spki = fields.next()?.whole;
        let mut extensions = Vec::new();
        if let Some(list) = fields.find(|f| f.tag == 0xa3) {
            let (seq, _) = asn1::read(list.content)?;
            for ext in asn1::children(seq.content)? {
                let items = asn1::children(ext.content)?;
                let oid = ObjectIdentifier::from_bytes(items.first()?.content).ok()?;
                extensions.push((oid, items.last()?.content));
            }
        }
        let mut times = asn1::children(validity.content)?.into_iter();
        Some(Certificate {
            der: cert.whole,
            tbs: tbs.whole,
            signature_algorithm,
            signature,
            serial,
            issuer,
            not_before: times.next()?,
            not_after: times.next()?,
            subject,
            spki,
            extensions,
        })
    })()
    .ok_or_else(|| parse_error(der))
}

/// OpenSSL's report for a certificate that does not parse.
fn parse_error(der: &[u8]) -> CryptoError {
    openssl_der::check(&openssl_der::CERTIFICATE, der).map_or_else(invalid, Into::into)
}

/// OpenSSL's short names for the attributes certificates use.
const NAMES: [(&str, &str); 24] = [
    ("2.5.4.3", "CN"),
    ("2.5.4.6", "C"),
    ("2.5.4.7", "L"),
    ("2.5.4.8", "ST"),
    ("2.5.4.10", "O"),
    ("2.5.4.11", "OU"),
    ("2.5.4.5", "serialNumber"),
    ("2.5.4.9", "street"),
    ("2.5.4.12", "title"),
    ("2.5.4.4", "SN"),
    ("2.5.4.42", "GN"),
    ("2.5.4.43", "initials"),
    ("2.5.4.44", "generationQualifier"),
    ("2.5.4.46", "dnQualifier"),
    ("2.5.4.65", "pseudonym"),
    ("2.5.4.17", "postalCode"),
    ("2.5.4.15", "businessCategory"),
    ("2.5.4.97", "organizationIdentifier"),
    ("1.2.840.113549.1.9.1", "emailAddress"),
    ("0.9.2342.19200300.100.1.25", "DC"),
    ("0.9.2342.19200300.100.1.1", "UID"),
    ("1.3.6.1.4.1.311.60.2.1.3", "jurisdictionC"),
    ("1.3.6.1.4.1.311.60.2.1.2", "jurisdictionST"),
    ("1.3.6.1.4.1.311.60.2.1.1", "jurisdictionL"),
];

fn attribute_name(oid: &ObjectIdentifier) -> String {
    let dotted = oid.to_string();
    NAMES
        .iter()
        .find(|(o, _)| *o == dotted)
        .map_or(dotted, |(_, n)| (*n).to_string())
}

/// A directory string's text; other types as OpenSSL dumps them (`#` and
/// the DER in hex).
fn string_value(value: &Tlv<'_>) -> String {
    match value.tag {
        0x0c | 0x13 | 0x16 | 0x12 | 0x1a => String::from_utf8_lossy(value.content).into_owned(),
        0x14 => value.content.iter().map(|&b| char::from(b)).collect(),
        0x1e => {
            let units: Vec<u16> = value
                .content
                .chunks_exact(2)
                .map(|c| u16::from_be_bytes([c[0], c[1]]))
                .collect();
            String::from_utf16_lossy(&units)
        }
        0x1c => value
            .content
            .chunks_exact(4)
            .filter_map(|c| char::from_u32(u32::from_be_bytes([c[0], c[1], c[2], c[3]])))
            .collect(),
        _ => format!("#{}", hex(value.whole, "")),
    }
}

/// RFC 2253 escaping, as OpenSSL's `ASN1_STRFLGS_ESC_2253 | ESC_CTRL`.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let last = value.chars().count().saturating_sub(1);
    for (i, c) in value.chars().enumerate() {
        let edge = (i == 0 && (c == '#' || c == ' ')) || (i == last && c == ' ');
        if edge || matches!(c, ',' | '+' | '"' | '\\' | '<' | '>' | ';') {
            out.push('\\');
            out.push(c);
        } else if (c as u32) < 0x20 || c as u32 == 0x7f {
            out.push_str(&format!("\\{:02X}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// A Name as Node shows it: one RDN per line, `+` between the values of a
/// multi-valued RDN.
pub fn name(der: &[u8]) -> Result<String> {
    (|| {
        let (seq, _) = asn1::read(der)?;
        let mut lines = Vec::new();
        for rdn in asn1::children(seq.content)? {
            let mut values = Vec::new();
            for atv in asn1::children(rdn.content)? {
                let parts = asn1::children(atv.content)?;
                let oid = ObjectIdentifier::from_bytes(parts.first()?.content).ok()?;
                values.push(format!(
                    "{}={}",
                    attribute_name(&oid),
                    escape(&string_value(parts.get(1)?))
                ));
            }
            lines.push(values.join(" + "));
        }
        Some(lines.join("\n"))
    })()
    .ok_or_else(invalid)
}

/// `(Node's text, ISO 8601)` of a UTCTime or GeneralizedTime.
pub fn time(t: &Tlv<'_>) -> Result<(String, String)> {
    let text = std::str::from_utf8(t.content).map_err(|_| invalid())?;
    let digits = text.strip_suffix('Z').ok_or_else(invalid)?;
    let (year, rest) = match t.tag {
        // UTCTime: two-digit years, 1950-2049.
        0x17 => {
            let yy: u32 = digits.get(..2).and_then(|y| y.parse().ok()).ok_or_else(invalid)?;
            (if yy >= 50 { 1900 + yy } else { 2000 + yy }, &digits[2..])
        }
        0x18 => (
            digits.get(..4).and_then(|y| y.parse().ok()).ok_or_else(invalid)?,
            &digits[4..],
        ),
        _ => return Err(invalid()),
    };
    let field = |i: usize| -> Result<u32> { rest.get(i..i + 2).and_then(|v| v.parse().ok()).ok_or_else(invalid) };
    let (month, day, hour, minute) = (field(0)?, field(2)?, field(4)?, field(6)?);
    let second = if rest.len() >= 10 { field(8)? } else { 0 };
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let month_name = MONTHS.get((month as usize).wrapping_sub(1)).ok_or_else(invalid)?;
    Ok((
        format!("{month_name} {day:>2} {hour:02}:{minute:02}:{second:02} {year} GMT"),
        format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}Z"),
    ))
}

fn hex(bytes: &[u8], separator: &str) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(separator)
}

/// The serial number in hex, as OpenSSL's `BN_bn2hex` writes it.
pub fn serial(bytes: &[u8]) -> String {
    let start = bytes
        .iter()
        .position(|&b| b != 0)
        .unwrap_or(bytes.len().saturating_sub(1));
    let digits = hex(&bytes[start..], "");
    if digits.is_empty() { "00".into() } else { digits }
}

const OID_SAN: &str = "2.5.29.17";
const OID_BASIC_CONSTRAINTS: &str = "2.5.29.19";
const OID_EXT_KEY_USAGE: &str = "2.5.29.37";

impl Certificate<'_> {
    fn extension(&self, oid: &str) -> Option<&[u8]> {
        self.extensions
            .iter()
            .find(|(o, _)| o.to_string() == oid)
            .map(|(_, v)| *v)
    }

    /// Whether basicConstraints says this is a CA.
    pub fn is_ca(&self) -> bool {
        (|| {
            let (seq, _) = asn1::read(self.extension(OID_BASIC_CONSTRAINTS)?)?;
            let first = asn1::children(seq.content)?.into_iter().next()?;
            Some(first.tag == 0x01 && first.content.first().is_some_and(|&b| b != 0))
        })()
        .unwrap_or(false)
    }

    /// The extended key usages, by OID.
    pub fn ext_key_usage(&self) -> Option<Vec<String>> {
        let (seq, _) = asn1::read(self.extension(OID_EXT_KEY_USAGE)?)?;
        asn1::children(seq.content)?
            .iter()
            .map(|o| ObjectIdentifier::from_bytes(o.content).ok().map(|o| o.to_string()))
            .collect()
    }

    /// The subject alternative names as Node lists them
    /// (`DNS:a.example, IP Address:127.0.0.1`).
    pub fn subject_alt_name(&self) -> Option<String> {
        let (seq, _) = asn1::read(self.extension(OID_SAN)?)?;
        let names: Option<Vec<String>> = asn1::children(seq.content)?.iter().map(general_name).collect();
        Some(names?.join(", "))
    }

    pub fn signature_algorithm_oid(&self) -> Result<String> {
        let algorithm = spki::AlgorithmIdentifierRef::from_der(self.signature_algorithm).map_err(|_| invalid())?;
        Ok(algorithm.oid.to_string())
    }

    /// Whether `issuer`'s key signed this certificate.
    pub fn verify(&self, issuer: &PublicKey) -> Result<bool> {
        let algorithm = spki::AlgorithmIdentifierRef::from_der(self.signature_algorithm).map_err(|_| invalid())?;
        let oid = algorithm.oid.to_string();
        let rsa = |hash| (Some(hash), Some(1), None);
        let (hash, padding, salt): (Option<HashAlg>, Option<i32>, Option<i32>) = match oid.as_str() {
            "1.2.840.113549.1.1.4" => rsa(HashAlg::Md5),
            "1.2.840.113549.1.1.5" => rsa(HashAlg::Sha1),
            "1.2.840.113549.1.1.14" => rsa(HashAlg::Sha224),
            "1.2.840.113549.1.1.11" => rsa(HashAlg::Sha256),
            "1.2.840.113549.1.1.12" => rsa(HashAlg::Sha384),
            "1.2.840.113549.1.1.13" => rsa(HashAlg::Sha512),
            "1.2.840.10045.4.1" => (Some(HashAlg::Sha1), None, None),
            "1.2.840.10045.4.3.1" => (Some(HashAlg::Sha224), None, None),
            "1.2.840.10045.4.3.2" => (Some(HashAlg::Sha256), None, None),
            "1.2.840.10045.4.3.3" => (Some(HashAlg::Sha384), None, None),
            "1.2.840.10045.4.3.4" => (Some(HashAlg::Sha512), None, None),
            "1.3.101.112" => (None, None, None),
            "1.2.840.113549.1.1.10" => {
                let Ok(params) = keys::pss_params(algorithm.parameters) else {
                    return Ok(false);
                };
                let params = params.unwrap_or(keys::PssParams {
                    hash: HashAlg::Sha1,
                    mgf1: HashAlg::Sha1,
                    salt_len: 20,
                });
                (Some(params.hash), Some(6), Some(params.salt_len as i32))
            }
            // OpenSSL's X509_verify fails for what it cannot check, and
            // Node answers false.
            _ => return Ok(false),
        };
        // A certificate signed with PSS is checked with the key as RSA.
        let key = match issuer {
            PublicKey::Rsa { key, .. } => &PublicKey::Rsa {
                key: key.clone(),
                variant: RsaVariant::Plain,
            },
            other => other,
        };
        let options = ops::SignOptions {
            hash,
            padding,
            salt_len: salt,
            p1363: false,
        };
        // A key of another type than the signature's fails the same way.
        Ok(ops::verify(key, self.tbs, self.signature, &options).unwrap_or(false))
    }
}

fn general_name(name: &Tlv<'_>) -> Option<String> {
    Some(match name.tag {
        0x81 => format!("email:{}", String::from_utf8_lossy(name.content)),
        0x82 => format!("DNS:{}", String::from_utf8_lossy(name.content)),
        0x86 => format!("URI:{}", String::from_utf8_lossy(name.content)),
        0x87 => match name.content.len() {
            4 => format!(
                "IP Address:{}",
                name.content.iter().map(u8::to_string).collect::<Vec<_>>().join(".")
            ),
            16 => format!(
                "IP Address:{}",
                name.content
                    .chunks_exact(2)
                    .map(|c| format!("{:X}", u16::from_be_bytes([c[0], c[1]])))
                    .collect::<Vec<_>>()
                    .join(":")
            ),
            _ => "IP Address:<invalid>".to_string(),
        },
        0xa4 => format!("DirName:/{}", self::name(name.content).ok()?.replace('\n', "/")),
        0x88 => format!("Registered ID:{}", ObjectIdentifier::from_bytes(name.content).ok()?),
        _ => "othername:<unsupported>".to_string(),
    })
}
