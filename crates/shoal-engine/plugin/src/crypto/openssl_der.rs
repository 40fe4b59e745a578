//! Key structures read the way OpenSSL reads them, so a damaged key fails in
//! Shoal where and how it fails in Node.
//!
//! OpenSSL's template decoder is lenient where the DER crates are strict
//! (any version number, RSA integers with extra or sign bytes, BIT STRINGs
//! with unused bits) and reports what it refuses as an ASN.1 error of the
//! first bad element (`wrong tag`, `too long`, `field missing`...). Here a
//! [`Template`] of each structure is walked over the bytes to find that
//! error, and the readers below take the fields out of a structure the walk
//! accepted.

use super::asn1::{self, Tlv};
use super::error::{CryptoError, Result};

/// OpenSSL's ASN.1 errors (reason codes of `ERR_LIB_ASN1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asn1Error {
    AuxError,
    BooleanIsWrongLength,
    FieldMissing,
    HeaderTooLong,
    IllegalPadding,
    IllegalZeroContent,
    InvalidBitStringBitsLeft,
    InvalidObjectEncoding,
    NotEnoughData,
    NullIsWrongLength,
    SequenceLengthMismatch,
    StringTooShort,
    TooLong,
    UnexpectedEoc,
    WrongTag,
}

impl From<Asn1Error> for CryptoError {
    fn from(e: Asn1Error) -> Self {
        let (code, reason, text) = match e {
            Asn1Error::AuxError => ("ERR_OSSL_ASN1_AUX_ERROR", 0x64, "aux error"),
            Asn1Error::BooleanIsWrongLength => {
                ("ERR_OSSL_ASN1_BOOLEAN_IS_WRONG_LENGTH", 0x6A, "boolean is wrong length")
            }
            Asn1Error::FieldMissing => ("ERR_OSSL_ASN1_FIELD_MISSING", 0x79, "field missing"),
            Asn1Error::HeaderTooLong => ("ERR_OSSL_ASN1_HEADER_TOO_LONG", 0x7B, "header too long"),
            Asn1Error::IllegalPadding => ("ERR_OSSL_ASN1_ILLEGAL_PADDING", 0xDD, "illegal padding"),
            Asn1Error::IllegalZeroContent => ("ERR_OSSL_ASN1_ILLEGAL_ZERO_CONTENT", 0xDE, "illegal zero content"),
            Asn1Error::InvalidBitStringBitsLeft => (
                "ERR_OSSL_ASN1_INVALID_BIT_STRING_BITS_LEFT",
                0xDC,
                "invalid bit string bits left",
            ),
            Asn1Error::InvalidObjectEncoding => {
                ("ERR_OSSL_ASN1_INVALID_OBJECT_ENCODING", 0xD8, "invalid object encoding")
            }
            Asn1Error::NotEnoughData => ("ERR_OSSL_ASN1_NOT_ENOUGH_DATA", 0x8E, "not enough data"),
            Asn1Error::NullIsWrongLength => ("ERR_OSSL_ASN1_NULL_IS_WRONG_LENGTH", 0x90, "null is wrong length"),
            Asn1Error::SequenceLengthMismatch => (
                "ERR_OSSL_ASN1_SEQUENCE_LENGTH_MISMATCH",
                0x94,
                "sequence length mismatch",
            ),
            Asn1Error::StringTooShort => ("ERR_OSSL_ASN1_STRING_TOO_SHORT", 0x98, "string too short"),
            Asn1Error::TooLong => ("ERR_OSSL_ASN1_TOO_LONG", 0x9B, "too long"),
            Asn1Error::UnexpectedEoc => ("ERR_OSSL_ASN1_UNEXPECTED_EOC", 0x9F, "unexpected eoc"),
            Asn1Error::WrongTag => ("ERR_OSSL_ASN1_WRONG_TAG", 0xA8, "wrong tag"),
        };
        CryptoError::new(code, format!("error:068000{reason:02X}:asn1 encoding routines::{text}"))
    }
}

type Walk<T> = std::result::Result<T, Asn1Error>;

/// What a structure's element must be.
pub enum Template {
    /// An ASN1_INTEGER: minimal encoding checked.
    Integer,
    /// A BIGNUM (RSA's numbers): any content.
    BigNum,
    OctetString,
    BitString,
    Oid,
    /// An element of any type, checked as its universal type is.
    Any,
    /// An element with this tag, not looked into.
    Tagged(u8),
    /// One of these tags, not looked into.
    Choice(&'static [u8]),
    Optional(&'static Template),
    Sequence(&'static [Template]),
}

const ALGORITHM: Template = Template::Sequence(&[Template::Oid, Template::Optional(&Template::Any)]);

/// PKCS#8 PrivateKeyInfo (OpenSSL's, without OneAsymmetricKey's public key).
pub const PRIVATE_KEY_INFO: Template = Template::Sequence(&[
    Template::Integer,
    ALGORITHM,
    Template::OctetString,
    Template::Optional(&Template::Tagged(0xa0)),
]);

/// PKCS#8 EncryptedPrivateKeyInfo.
pub const ENCRYPTED_PRIVATE_KEY_INFO: Template = Template::Sequence(&[ALGORITHM, Template::OctetString]);

pub const SUBJECT_PUBLIC_KEY_INFO: Template = Template::Sequence(&[ALGORITHM, Template::BitString]);

/// PKCS#1 RSAPublicKey.
pub const RSA_PUBLIC_KEY: Template = Template::Sequence(&[Template::BigNum, Template::BigNum]);

const TIME: Template = Template::Choice(&[0x17, 0x18]);

/// X.509 Certificate, down to the fields a key is read from.
pub const CERTIFICATE: Template = Template::Sequence(&[
    Template::Sequence(&[
        Template::Optional(&Template::Tagged(0xa0)),
        Template::Integer,
        ALGORITHM,
        Template::Tagged(0x30),
        Template::Sequence(&[TIME, TIME]),
        Template::Tagged(0x30),
        SUBJECT_PUBLIC_KEY_INFO,
        Template::Optional(&Template::Tagged(0x81)),
        Template::Optional(&Template::Tagged(0x82)),
        Template::Optional(&Template::Tagged(0xa3)),
    ]),
    ALGORITHM,
    Template::BitString,
]);

/// A TLV header as ASN1_get_object reads it: `(tag, header length, content
/// length)` within `input`.
fn header(input: &[u8]) -> Walk<(u8, usize, usize)> {
    let (&tag, rest) = input.split_first().ok_or(Asn1Error::HeaderTooLong)?;
    let (&first, rest) = rest.split_first().ok_or(Asn1Error::HeaderTooLong)?;
    let (len, header_len) = if first < 0x80 {
        (usize::from(first), 2)
    } else if first == 0x80 {
        // Indefinite length (BER): the content runs to the container's end.
        (rest.len(), 2)
    } else {
        // asn1_get_length: no more length bytes than a long holds.
        let n = usize::from(first & 0x7f);
        if n > std::mem::size_of::<usize>() {
            return Err(Asn1Error::HeaderTooLong);
        }
        let digits = rest.get(..n).ok_or(Asn1Error::HeaderTooLong)?;
        (digits.iter().fold(0usize, |acc, &d| (acc << 8) | usize::from(d)), 2 + n)
    };
    if len > input.len() - header_len {
        return Err(Asn1Error::TooLong);
    }
    Ok((tag, header_len, len))
}

/// OpenSSL's checks of a primitive's content by its universal tag.
fn check_primitive(tag: u8, content: &[u8]) -> Walk<()> {
    match tag {
        0x01 if content.len() != 1 => Err(Asn1Error::BooleanIsWrongLength),
        0x02 => check_integer(content),
        0x03 => match content.first() {
            None => Err(Asn1Error::StringTooShort),
            Some(&unused) if unused > 7 => Err(Asn1Error::InvalidBitStringBitsLeft),
            Some(_) => Ok(()),
        },
        0x05 if !content.is_empty() => Err(Asn1Error::NullIsWrongLength),
        0x06 => check_oid(content),
        _ => Ok(()),
    }
}

/// c2i_ibuf: no empty INTEGER, no sign byte that is not needed.
fn check_integer(content: &[u8]) -> Walk<()> {
    let Some((&first, rest)) = content.split_first() else {
        return Err(Asn1Error::IllegalZeroContent);
    };
    let Some(&second) = rest.first() else { return Ok(()) };
    let padded = first == 0 || (first == 0xff && rest.iter().any(|&b| b != 0));
    if padded && (first & 0x80) == (second & 0x80) {
        return Err(Asn1Error::IllegalPadding);
    }
    Ok(())
}

/// c2i_ASN1_OBJECT: not empty, no sub-identifier with a leading 0x80, the
/// last one ended.
fn check_oid(content: &[u8]) -> Walk<()> {
    let starts = std::iter::once(true).chain(content.iter().map(|&b| b & 0x80 == 0));
    let leading_80 = content.iter().zip(starts).any(|(&b, start)| start && b == 0x80);
    match content.last() {
        Some(&last) if last & 0x80 == 0 && !leading_80 => Ok(()),
        _ => Err(Asn1Error::InvalidObjectEncoding),
    }
}

/// Walks `template` over the element at the start of `input`; the bytes it
/// took, or `None` when an optional element is absent (its tag differs:
/// a bad header is an error even there, as in asn1_check_tlen).
fn walk(template: &Template, input: &[u8], last: bool) -> Walk<Option<usize>> {
    let (template, optional) = match template {
        // The last field of a SEQUENCE with data left is not optional.
        Template::Optional(inner) => (*inner, !last),
        other => (other, false),
    };
    let (tag, header_len, len) = header(input)?;
    let content = &input[header_len..header_len + len];
    let tag_ok = match template {
        Template::Integer | Template::BigNum => tag == 0x02,
        Template::OctetString => tag == 0x04,
        Template::BitString => tag == 0x03,
        Template::Oid => tag == 0x06,
        Template::Sequence(_) => tag == 0x30,
        Template::Tagged(t) => tag == *t,
        Template::Choice(tags) => tags.contains(&tag),
        Template::Any | Template::Optional(_) => true,
    };
    if !tag_ok {
        return if optional { Ok(None) } else { Err(Asn1Error::WrongTag) };
    }
    match template {
        Template::Sequence(fields) => walk_sequence(fields, content)?,
        Template::BigNum | Template::Tagged(_) | Template::Choice(_) => {}
        _ if tag & 0x20 == 0 => check_primitive(tag, content)?,
        _ => {}
    }
    Ok(Some(header_len + len))
}

fn walk_sequence(fields: &[Template], content: &[u8]) -> Walk<()> {
    let mut rest = content;
    for (i, field) in fields.iter().enumerate() {
        if rest.is_empty() {
            // What follows must all be optional.
            if !matches!(field, Template::Optional(_)) {
                return Err(Asn1Error::FieldMissing);
            }
            continue;
        }
        if rest.starts_with(&[0, 0]) {
            return Err(Asn1Error::UnexpectedEoc);
        }
        if let Some(taken) = walk(field, rest, i + 1 == fields.len())? {
            rest = &rest[taken..];
        }
    }
    if !rest.is_empty() {
        return Err(Asn1Error::SequenceLengthMismatch);
    }
    Ok(())
}

/// The first error OpenSSL reports for `der` read as `template` from PEM
/// (the whole input at hand), or `None` when the structure is sound.
pub fn check(template: &Template, der: &[u8]) -> Option<Asn1Error> {
    walk(template, der, false).err()
}

/// Whether DER read from a buffer is cut short: OpenSSL reads the outer
/// element before decoding it and reports `not enough data`.
pub fn truncated(der: &[u8]) -> bool {
    // An indefinite length must end in an end-of-contents.
    let unended = der.get(1) == Some(&0x80) && !der.ends_with(&[0, 0]);
    unended || matches!(header(der), Err(Asn1Error::HeaderTooLong | Asn1Error::TooLong))
}

/// Node's IsEncryptedPrivateKeyInfo: a PKCS#8 SEQUENCE that does not start
/// with the version INTEGER.
pub fn looks_encrypted(der: &[u8]) -> bool {
    sequence_content(der).is_some_and(|c| c.first().is_some_and(|&t| t != 0x02))
}

/// Node's IsRSAPrivateKey: PKCS#1 DER starting with a one-byte version of 0
/// or 1 is a private key, anything else a public one.
pub fn looks_rsa_private(der: &[u8]) -> bool {
    sequence_content(der).is_some_and(|c| c.len() >= 3 && c[0] == 0x02 && c[1] == 0x01 && c[2] & 0xfe == 0)
}

/// Node's IsASN1Sequence: the content of a leading SEQUENCE, cut to what
/// is there.
fn sequence_content(der: &[u8]) -> Option<&[u8]> {
    if der.first() != Some(&0x30) {
        return None;
    }
    let first = *der.get(1)?;
    let (start, len) = if first & 0x80 == 0 {
        (2, usize::from(first))
    } else {
        let n = usize::from(first & 0x7f);
        if n > std::mem::size_of::<usize>() {
            return None;
        }
        let digits = der.get(2..2 + n)?;
        (2 + n, digits.iter().fold(0usize, |acc, &d| (acc << 8) | usize::from(d)))
    };
    let rest = der.get(start..)?;
    Some(&rest[..len.min(rest.len())])
}

// ---------------------------------------------------------------- readers

/// The elements of a SEQUENCE's content, leniently (indefinite lengths as
/// [`header`] reads them).
fn elements(content: &[u8]) -> Option<Vec<Tlv<'_>>> {
    let mut out = Vec::new();
    let mut rest = content;
    while !rest.is_empty() {
        let (tag, header_len, len) = header(rest).ok()?;
        let end = header_len + len;
        out.push(Tlv {
            tag,
            content: &rest[header_len..end],
            whole: &rest[..end],
        });
        rest = &rest[end..];
    }
    Some(out)
}

fn sequence(der: &[u8]) -> Option<Vec<Tlv<'_>>> {
    let (tag, header_len, len) = header(der).ok()?;
    if tag != 0x30 {
        return None;
    }
    elements(&der[header_len..header_len + len])
}

/// An AlgorithmIdentifier: the OID's content bytes and the parameters'
/// whole TLV.
pub struct Algorithm<'a> {
    pub oid: &'a [u8],
    pub parameters: Option<&'a [u8]>,
}

fn algorithm<'a>(tlv: &Tlv<'a>) -> Option<Algorithm<'a>> {
    let parts = elements(tlv.content)?;
    Some(Algorithm {
        oid: parts.first().filter(|p| p.tag == 0x06)?.content,
        parameters: parts.get(1).map(|p| p.whole),
    })
}

/// PrivateKeyInfo: the algorithm and the private key's bytes.
pub fn private_key_info(der: &[u8]) -> Option<(Algorithm<'_>, &[u8])> {
    let parts = sequence(der)?;
    Some((
        algorithm(parts.get(1)?)?,
        parts.get(2).filter(|p| p.tag == 0x04)?.content,
    ))
}

/// The version of a PrivateKeyInfo OpenSSL's callback checks after
/// decoding: 0, or 1 for OneAsymmetricKey.
pub fn check_private_key_info_version(der: &[u8]) -> Option<Asn1Error> {
    let version = sequence(der)?.into_iter().next()?;
    match version.content {
        [0] | [1] => None,
        _ => Some(Asn1Error::AuxError),
    }
}

/// SubjectPublicKeyInfo: the algorithm and the key's bytes, the BIT
/// STRING's unused bits cleared as c2i_ASN1_BIT_STRING clears them.
pub fn subject_public_key_info(der: &[u8]) -> Option<(Algorithm<'_>, Vec<u8>)> {
    let parts = sequence(der)?;
    let (&unused, bits) = parts.get(1).filter(|p| p.tag == 0x03)?.content.split_first()?;
    let mut key = bits.to_vec();
    if let Some(last) = key.last_mut() {
        *last &= 0xffu8.checked_shl(u32::from(unused)).unwrap_or(0);
    }
    Some((algorithm(parts.first()?)?, key))
}

/// INTEGERs of a sequence as OpenSSL reads BIGNUMs: big-endian magnitude
/// without leading zero bytes, whatever the encoding's sign byte.
pub fn integers(der: &[u8]) -> Option<Vec<Vec<u8>>> {
    sequence(der)?
        .into_iter()
        .take_while(|p| p.tag == 0x02)
        .map(|p| {
            let start = p.content.iter().position(|&b| b != 0).unwrap_or(p.content.len());
            Some(p.content[start..].to_vec())
        })
        .collect()
}

/// Whether an RSAPrivateKey carries otherPrimeInfos (a multi-prime key).
pub fn has_other_primes(der: &[u8]) -> bool {
    sequence(der).is_some_and(|parts| parts.len() > 9)
}

/// ECPrivateKey (SEC 1): the private scalar, the named curve parameters'
/// TLV and the public point, whatever its version.
pub struct EcPrivate<'a> {
    pub scalar: &'a [u8],
    pub parameters: Option<&'a [u8]>,
    pub point: Option<&'a [u8]>,
}

pub fn ec_private_key(der: &[u8]) -> Option<EcPrivate<'_>> {
    let parts = sequence(der)?;
    if parts.first()?.tag != 0x02 {
        return None;
    }
    let scalar = parts.get(1).filter(|p| p.tag == 0x04)?.content;
    let mut out = EcPrivate {
        scalar,
        parameters: None,
        point: None,
    };
    for part in parts.iter().skip(2) {
        match part.tag {
            0xa0 => out.parameters = Some(part.content),
            0xa1 => {
                let (bits, _) = asn1::read(part.content)?;
                out.point = Some(bits.content.get(1..).filter(|_| bits.tag == 0x03)?);
            }
            _ => return None,
        }
    }
    Some(out)
}

/// What Node reports for a key that does not parse, given where it came
/// from and the error the structure's reader gave.
pub fn pem_public_error(template: &Template, der: &[u8], e: CryptoError) -> CryptoError {
    if let Some(asn1) = check(template, der) {
        return asn1.into();
    }
    if e.code == "ERR_NOT_AVAILABLE_IN_SHOAL" {
        return e;
    }
    // The structure is sound and the key in it is not.
    CryptoError::new(
        "ERR_OSSL_EVP_DECODE_ERROR",
        "error:03000072:digital envelope routines::decode error",
    )
}

/// DER of a private key type: cut short (OpenSSL reads the outer element
/// from a buffer first), or what the structure's reader said.
pub fn der_private_error(der: &[u8], e: CryptoError) -> CryptoError {
    if truncated(der) {
        Asn1Error::NotEnoughData.into()
    } else {
        e
    }
}

/// ossl_rsa_check_factors, which OpenSSL's DER decoder applies to RSA
/// private keys (its PEM path does not): no number longer than the modulus.
pub fn rsa_factors_fit(numbers: &[&[u8]], n: &[u8]) -> bool {
    let bits = |x: &[u8]| {
        x.first()
            .map_or(0, |&top| (x.len() - 1) * 8 + (8 - top.leading_zeros() as usize))
    };
    numbers.iter().all(|x| bits(x) <= bits(n))
}

/// Shorthand for a reader's `None`.
pub fn unreadable<T>(value: Option<T>) -> Result<T> {
    value.ok_or_else(CryptoError::unsupported_key)
}
