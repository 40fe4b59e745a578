//! Asymmetric keys: reading them from PKCS#8, SPKI, PKCS#1, SEC1 (DER or
//! PEM, encrypted or not), JWK and raw points, and writing them back the way
//! OpenSSL writes them, so that what a Function exports is byte for byte what
//! Node would export.
//!
//! The JavaScript side keeps a key as its canonical DER (PKCS#8 for private
//! keys, SPKI for public ones) and hands it back for every operation; nothing
//! here outlives a call.

use der::Decode;
use der::asn1::{AnyRef, ObjectIdentifier};

use super::asn1;
use super::ec;
use super::error::{CryptoError, Result};
use super::foreign_curves;
use super::hash::HashAlg;
use super::openssl_der;
use super::pem;

pub const OID_RSA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");
pub const OID_RSA_PSS: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.10");
const OID_MGF1: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.8");
const OID_EC: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");
const OID_ED25519: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.112");
const OID_X25519: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.110");

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Curve {
    P256,
    P384,
    P521,
}

const CURVES: [(Curve, &str, &str, ObjectIdentifier); 3] = [
    (
        Curve::P256,
        "prime256v1",
        "P-256",
        ObjectIdentifier::new_unwrap("1.2.840.10045.3.1.7"),
    ),
    (
        Curve::P384,
        "secp384r1",
        "P-384",
        ObjectIdentifier::new_unwrap("1.3.132.0.34"),
    ),
    (
        Curve::P521,
        "secp521r1",
        "P-521",
        ObjectIdentifier::new_unwrap("1.3.132.0.35"),
    ),
];

impl Curve {
    /// OpenSSL's name (`prime256v1`), its NIST alias (`P-256`, as Node also
    /// takes) or `secp256r1`.
    pub fn from_name(name: &str) -> Option<Self> {
        if name == "secp256r1" {
            return Some(Self::P256);
        }
        CURVES
            .iter()
            .find(|(_, node, jwk, _)| *node == name || *jwk == name)
            .map(|c| c.0)
    }

    fn entry(self) -> &'static (Curve, &'static str, &'static str, ObjectIdentifier) {
        // Every variant has an entry.
        CURVES.iter().find(|c| c.0 == self).unwrap_or(&CURVES[0])
    }

    /// The name Node reports in `asymmetricKeyDetails.namedCurve`.
    pub fn node_name(self) -> &'static str {
        self.entry().1
    }

    /// JWK's and Web Crypto's name.
    pub fn jwk_name(self) -> &'static str {
        self.entry().2
    }

    pub fn oid(self) -> ObjectIdentifier {
        self.entry().3
    }

    fn from_oid(oid: &ObjectIdentifier) -> Option<Self> {
        CURVES.iter().find(|c| &c.3 == oid).map(|c| c.0)
    }

    /// Bytes in a scalar or a coordinate.
    pub fn field_len(self) -> usize {
        match self {
            Self::P256 => 32,
            Self::P384 => 48,
            Self::P521 => 66,
        }
    }
}

/// The restrictions an RSA-PSS key carries (RFC 4055 RSASSA-PSS-params).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PssParams {
    pub hash: HashAlg,
    pub mgf1: HashAlg,
    pub salt_len: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RsaVariant {
    /// `rsaEncryption`: Node's `rsa`.
    Plain,
    /// `id-RSASSA-PSS`: Node's `rsa-pss`, with or without restrictions.
    Pss(Option<PssParams>),
}

/// The numbers of a two-prime RSA private key, big-endian without leading
/// zeros.
#[derive(Clone)]
pub struct RsaPrivate {
    pub n: Vec<u8>,
    pub e: Vec<u8>,
    pub d: Vec<u8>,
    pub p: Vec<u8>,
    pub q: Vec<u8>,
    pub dp: Vec<u8>,
    pub dq: Vec<u8>,
    pub qi: Vec<u8>,
}

#[derive(Clone)]
pub struct RsaPublic {
    pub n: Vec<u8>,
    pub e: Vec<u8>,
}

pub enum PrivateKey {
    Rsa {
        key: RsaPrivate,
        variant: RsaVariant,
    },
    /// `point`, when the encoding carried it; see [`PrivateKey::public`].
    Ec {
        curve: Curve,
        scalar: Vec<u8>,
        point: Option<Vec<u8>>,
    },
    Ed25519 {
        seed: [u8; 32],
    },
    X25519 {
        secret: [u8; 32],
    },
}

pub enum PublicKey {
    Rsa {
        key: RsaPublic,
        variant: RsaVariant,
    },
    /// Uncompressed and checked to be on the curve.
    Ec {
        curve: Curve,
        point: Vec<u8>,
    },
    Ed25519([u8; 32]),
    X25519([u8; 32]),
}

/// The DER structures Node names in `type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DerType {
    Pkcs8,
    Spki,
    Pkcs1,
    Sec1,
}

impl DerType {
    pub fn parse(name: &str) -> Result<Self> {
        Ok(match name {
            "pkcs8" => Self::Pkcs8,
            "spki" => Self::Spki,
            "pkcs1" => Self::Pkcs1,
            "sec1" => Self::Sec1,
            _ => {
                return Err(CryptoError::new(
                    "ERR_INVALID_ARG_VALUE",
                    format!("The property 'options.type' is invalid. Received '{name}'"),
                ));
            }
        })
    }
}

fn strip(b: &[u8]) -> Vec<u8> {
    let start = b.iter().position(|&x| x != 0).unwrap_or(b.len());
    b[start..].to_vec()
}

fn malformed<E>(_: E) -> CryptoError {
    CryptoError::unsupported_key()
}

// ---------------------------------------------------------------- reading

/// A private key from PEM (`der_type` None) or DER of `der_type`, failing
/// as Node fails for each (see [`openssl_der`]).
pub fn parse_private(data: &[u8], der_type: Option<DerType>, passphrase: Option<&[u8]>) -> Result<PrivateKey> {
    let der_error = |e| openssl_der::der_private_error(data, e);
    match der_type {
        None => {
            for block in pem::decode_all(data)? {
                let key = match block.label.as_str() {
                    "PRIVATE KEY" => private_from_pkcs8(&block.der),
                    "ENCRYPTED PRIVATE KEY" => encrypted_pkcs8(&block.der, passphrase),
                    "RSA PRIVATE KEY" => {
                        legacy_der(&block, passphrase).and_then(|der| rsa_private_from_pkcs1(&der, RsaVariant::Plain))
                    }
                    "EC PRIVATE KEY" => legacy_der(&block, passphrase).and_then(|der| ec_private_from_sec1(&der, None)),
                    _ => continue,
                };
                // OpenSSL's PEM decoders call any structure they cannot read
                // "unsupported".
                return key.map_err(|e| {
                    if e.code.starts_with("ERR_OSSL_ASN1_") {
                        CryptoError::unsupported_key()
                    } else {
                        e
                    }
                });
            }
            Err(CryptoError::unsupported_key())
        }
        // Node tells encrypted PKCS#8 from plain by its first field.
        Some(DerType::Pkcs8) if openssl_der::looks_encrypted(data) => {
            encrypted_pkcs8(data, passphrase).map_err(der_error)
        }
        Some(DerType::Pkcs8) => private_from_pkcs8(data).and_then(der_checked).map_err(der_error),
        Some(DerType::Pkcs1) => rsa_private_from_pkcs1(data, RsaVariant::Plain)
            .and_then(der_checked)
            .map_err(der_error),
        Some(DerType::Sec1) => ec_private_from_sec1(data, None).map_err(der_error),
        Some(DerType::Spki) => Err(CryptoError::unsupported_key()),
    }
}

/// The check OpenSSL's DER decoder makes of an RSA private key.
fn der_checked(key: PrivateKey) -> Result<PrivateKey> {
    if let PrivateKey::Rsa { key: k, .. } = &key {
        let numbers = [&k.d, &k.p, &k.q, &k.dp, &k.dq, &k.qi].map(Vec::as_slice);
        if !openssl_der::rsa_factors_fit(&numbers, &k.n) {
            return Err(CryptoError::unsupported_key());
        }
    }
    Ok(key)
}

/// A public key from PEM or DER. Like Node, a private key or an X.509
/// certificate gives its public key.
pub fn parse_public(data: &[u8], der_type: Option<DerType>, passphrase: Option<&[u8]>) -> Result<PublicKey> {
    match der_type {
        None => {
            for block in pem::decode_all(data)? {
                let der = &block.der;
                match block.label.as_str() {
                    "PUBLIC KEY" => {
                        return public_from_spki(der)
                            .map_err(|e| openssl_der::pem_public_error(&openssl_der::SUBJECT_PUBLIC_KEY_INFO, der, e));
                    }
                    "RSA PUBLIC KEY" => {
                        return rsa_public_from_pkcs1(der, RsaVariant::Plain)
                            .map_err(|e| openssl_der::pem_public_error(&openssl_der::RSA_PUBLIC_KEY, der, e));
                    }
                    "CERTIFICATE" => {
                        return certificate_spki(der)
                            .and_then(public_from_spki)
                            .map_err(|e| openssl_der::pem_public_error(&openssl_der::CERTIFICATE, der, e));
                    }
                    "PRIVATE KEY" | "ENCRYPTED PRIVATE KEY" | "RSA PRIVATE KEY" | "EC PRIVATE KEY" => {
                        return parse_private(data, None, passphrase)?.public();
                    }
                    _ => {}
                }
            }
            Err(CryptoError::unsupported_key())
        }
        Some(DerType::Spki) => public_from_spki(data).map_err(|e| unreadable_public(data, e)),
        // Node's IsRSAPrivateKey decides whether PKCS#1 DER is read as a
        // private key (and its errors reported) or as a public one.
        Some(DerType::Pkcs1) if openssl_der::looks_rsa_private(data) => {
            parse_private(data, der_type, passphrase)?.public()
        }
        Some(DerType::Pkcs1) => rsa_public_from_pkcs1(data, RsaVariant::Plain).map_err(|e| unreadable_public(data, e)),
        Some(t) => parse_private(data, Some(t), passphrase)?.public(),
    }
}

/// Node's own message when no decoder takes public DER (it keeps no
/// OpenSSL error): all but what Shoal lacks.
fn unreadable_public(der: &[u8], e: CryptoError) -> CryptoError {
    if e.code == "ERR_NOT_AVAILABLE_IN_SHOAL" || der.is_empty() {
        e
    } else {
        CryptoError::msg("Failed to read asymmetric key")
    }
}

/// EncryptedPrivateKeyInfo: its structure first (OpenSSL reads it before
/// asking for the passphrase), then the passphrase and the key inside.
fn encrypted_pkcs8(der: &[u8], passphrase: Option<&[u8]>) -> Result<PrivateKey> {
    if let Some(e) = openssl_der::check(&openssl_der::ENCRYPTED_PRIVATE_KEY_INFO, der) {
        return Err(e.into());
    }
    let info = pkcs8::EncryptedPrivateKeyInfoRef::from_der(der).map_err(malformed)?;
    let passphrase = passphrase.ok_or_else(CryptoError::passphrase_required)?;
    let doc = info.decrypt(passphrase).map_err(|_| CryptoError::bad_decrypt())?;
    private_from_pkcs8(doc.as_bytes())
}

fn legacy_der(block: &pem::Pem, passphrase: Option<&[u8]>) -> Result<Vec<u8>> {
    if block.is_encrypted() {
        pem::legacy_decrypt(block, passphrase)
    } else {
        Ok(block.der.clone())
    }
}

fn private_from_pkcs8(der: &[u8]) -> Result<PrivateKey> {
    if let Some(e) = openssl_der::check(&openssl_der::PRIVATE_KEY_INFO, der) {
        return Err(e.into());
    }
    let (algorithm, inner) = openssl_der::unreadable(openssl_der::private_key_info(der))?;
    if let Some(e) = openssl_der::check_private_key_info_version(der) {
        return Err(e.into());
    }
    let oid = ObjectIdentifier::from_bytes(algorithm.oid).map_err(malformed)?;
    let parameters = any(algorithm.parameters)?;
    if oid == OID_RSA {
        rsa_private_from_pkcs1(inner, RsaVariant::Plain)
    } else if oid == OID_RSA_PSS {
        rsa_private_from_pkcs1(inner, RsaVariant::Pss(pss_params(parameters)?))
    } else if oid == OID_EC {
        ec_private_from_sec1(inner, algorithm.parameters)
    } else if oid == OID_ED25519 || oid == OID_X25519 {
        // CurvePrivateKey ::= OCTET STRING, inside the PKCS#8 OCTET STRING.
        let secret: [u8; 32] = match inner {
            [0x04, 0x20, rest @ ..] => rest.try_into().map_err(malformed)?,
            _ => return Err(CryptoError::unsupported_key()),
        };
        Ok(if oid == OID_ED25519 {
            PrivateKey::Ed25519 { seed: secret }
        } else {
            PrivateKey::X25519 { secret }
        })
    } else {
        Err(CryptoError::unsupported_key())
    }
}

fn public_from_spki(der: &[u8]) -> Result<PublicKey> {
    if let Some(e) = openssl_der::check(&openssl_der::SUBJECT_PUBLIC_KEY_INFO, der) {
        return Err(e.into());
    }
    let (algorithm, bits) = openssl_der::unreadable(openssl_der::subject_public_key_info(der))?;
    let bits = bits.as_slice();
    let oid = ObjectIdentifier::from_bytes(algorithm.oid).map_err(malformed)?;
    let parameters = any(algorithm.parameters)?;
    if oid == OID_RSA {
        rsa_public_from_pkcs1(bits, RsaVariant::Plain)
    } else if oid == OID_RSA_PSS {
        rsa_public_from_pkcs1(bits, RsaVariant::Pss(pss_params(parameters)?))
    } else if oid == OID_EC {
        let curve = match curve_from(algorithm.parameters)? {
            NamedCurve::Shoal(curve) => curve,
            NamedCurve::Foreign(f) => return Err(f.error(f.fits_point(bits))),
        };
        Ok(PublicKey::Ec {
            curve,
            point: ec::validate_point(curve, bits)?,
        })
    } else if oid == OID_ED25519 {
        Ok(PublicKey::Ed25519(bits.try_into().map_err(malformed)?))
    } else if oid == OID_X25519 {
        Ok(PublicKey::X25519(bits.try_into().map_err(malformed)?))
    } else {
        Err(CryptoError::unsupported_key())
    }
}

/// The SubjectPublicKeyInfo inside an X.509 certificate: the seventh field
/// of `tbsCertificate` (the sixth without the optional version).
pub fn certificate_spki(der: &[u8]) -> Result<&[u8]> {
    if let Some(e) = openssl_der::check(&openssl_der::CERTIFICATE, der) {
        return Err(e.into());
    }
    let spki = (|| {
        let (cert, _) = asn1::read(der)?;
        let (tbs, _) = asn1::read(cert.content)?;
        let mut fields = asn1::children(tbs.content)?.into_iter().peekable();
        if fields.peek()?.tag == 0xa0 {
            fields.next();
        }
        // serial, signature, issuer, validity, subject, then the key.
        Some(fields.nth(5)?.whole)
    })();
    spki.ok_or_else(CryptoError::unsupported_key)
}

/// RSAPrivateKey, read as OpenSSL reads it: any version, the numbers
/// whatever their sign byte or padding.
fn rsa_private_from_pkcs1(der: &[u8], variant: RsaVariant) -> Result<PrivateKey> {
    if openssl_der::has_other_primes(der) {
        return Err(CryptoError::msg("Multi-prime RSA keys are not supported"));
    }
    let numbers = openssl_der::unreadable(openssl_der::integers(der))?;
    let [version, n, e, d, p, q, dp, dq, qi]: [Vec<u8>; 9] = numbers.try_into().map_err(malformed)?;
    // Version 1 announces the other primes that are not there.
    if version == [1] || n.is_empty() || e.is_empty() {
        return Err(CryptoError::unsupported_key());
    }
    let key = RsaPrivate {
        n,
        e,
        d,
        p,
        q,
        dp,
        dq,
        qi,
    };
    Ok(PrivateKey::Rsa { key, variant })
}

/// RSAPublicKey, as leniently.
fn rsa_public_from_pkcs1(der: &[u8], variant: RsaVariant) -> Result<PublicKey> {
    if let Some(e) = openssl_der::check(&openssl_der::RSA_PUBLIC_KEY, der) {
        return Err(e.into());
    }
    let numbers = openssl_der::unreadable(openssl_der::integers(der))?;
    let [n, e]: [Vec<u8>; 2] = numbers.try_into().map_err(malformed)?;
    if n.is_empty() || e.is_empty() {
        return Err(CryptoError::unsupported_key());
    }
    Ok(PublicKey::Rsa {
        key: RsaPublic { n, e },
        variant,
    })
}

/// An AlgorithmIdentifier's parameters as the DER crates take them.
fn any(parameters: Option<&[u8]>) -> Result<Option<AnyRef<'_>>> {
    parameters.map(AnyRef::from_der).transpose().map_err(malformed)
}

/// The curve EC parameters name.
enum NamedCurve {
    Shoal(Curve),
    Foreign(foreign_curves::ForeignCurve),
}

/// The curve of EC parameters (their TLV): a named curve, or, for explicit
/// parameters (an ECParameters SEQUENCE, version 1), that Shoal lacks them;
/// anything else is no key.
fn curve_from(parameters: Option<&[u8]>) -> Result<NamedCurve> {
    let (tlv, _) = parameters
        .and_then(asn1::read)
        .ok_or_else(CryptoError::unsupported_key)?;
    if tlv.tag == 0x30 {
        let explicit = asn1::children(tlv.content)
            .is_some_and(|fields| fields.len() >= 5 && fields[0].tag == 0x02 && fields[0].content == [1]);
        if !explicit {
            return Err(CryptoError::unsupported_key());
        }
        return Err(CryptoError::new(
            "ERR_NOT_AVAILABLE_IN_SHOAL",
            "EC keys with explicit curve parameters are not available in Shoal's JavaScript engine (named curves are)",
        ));
    }
    if tlv.tag != 0x06 {
        return Err(CryptoError::unsupported_key());
    }
    let oid = ObjectIdentifier::from_bytes(tlv.content).map_err(malformed)?;
    if let Some(curve) = Curve::from_oid(&oid) {
        return Ok(NamedCurve::Shoal(curve));
    }
    foreign_curves::find(&oid.to_string())
        .map(NamedCurve::Foreign)
        .ok_or_else(CryptoError::unsupported_key)
}

/// RSASSA-PSS-params (from a key's or a signature's algorithm identifier);
/// `None` for a key without restrictions.
pub fn pss_params(parameters: Option<AnyRef<'_>>) -> Result<Option<PssParams>> {
    let Some(any) = parameters else { return Ok(None) };
    let der = der::Encode::to_der(&any).map_err(malformed)?;
    let p = pkcs1::RsaPssParamsOwned::try_from(der.as_slice()).map_err(malformed)?;
    let hash = HashAlg::from_oid(&p.hash.oid).ok_or_else(CryptoError::unsupported_key)?;
    if p.mask_gen.oid != OID_MGF1 {
        return Err(CryptoError::unsupported_key());
    }
    let mgf1 = p
        .mask_gen
        .parameters
        .and_then(|h| HashAlg::from_oid(&h.oid))
        .ok_or_else(CryptoError::unsupported_key)?;
    Ok(Some(PssParams {
        hash,
        mgf1,
        salt_len: u32::from(p.salt_len),
    }))
}

/// ECPrivateKey (SEC 1), whatever its version, as OpenSSL reads it; the
/// curve from PKCS#8's parameters (`outer`) or its own.
fn ec_private_from_sec1(der: &[u8], outer: Option<&[u8]>) -> Result<PrivateKey> {
    let k = openssl_der::unreadable(openssl_der::ec_private_key(der))?;
    let curve = match curve_from(outer.or(k.parameters))? {
        NamedCurve::Shoal(curve) => curve,
        NamedCurve::Foreign(f) => {
            let fits = f.fits_scalar(k.scalar) && k.point.is_none_or(|p| f.fits_point(p));
            return Err(f.error(fits));
        }
    };
    let scalar = ec::validate_scalar(curve, k.scalar)?;
    let point = match k.point {
        Some(p) => Some(ec::validate_point(curve, p)?),
        None => None,
    };
    Ok(PrivateKey::Ec { curve, scalar, point })
}

// ---------------------------------------------------------------- writing

fn rsa_algorithm(variant: RsaVariant) -> Vec<u8> {
    match variant {
        RsaVariant::Plain => asn1::seq(&[&asn1::oid(&OID_RSA), &asn1::null()]),
        RsaVariant::Pss(None) => asn1::seq(&[&asn1::oid(&OID_RSA_PSS)]),
        RsaVariant::Pss(Some(p)) => asn1::seq(&[&asn1::oid(&OID_RSA_PSS), &pss_params_der(&p)]),
    }
}

/// RSASSA-PSS-params as OpenSSL writes them: the defaults (SHA-1, MGF1 with
/// SHA-1, 20-byte salt) left out, hash identifiers with NULL parameters.
fn pss_params_der(p: &PssParams) -> Vec<u8> {
    let hash_id = |h: HashAlg| asn1::seq(&[&asn1::oid(&h.oid()), &asn1::null()]);
    let mut fields = Vec::new();
    if p.hash != HashAlg::Sha1 {
        fields.push(asn1::explicit(0, &hash_id(p.hash)));
    }
    if p.mgf1 != HashAlg::Sha1 {
        fields.push(asn1::explicit(
            1,
            &asn1::seq(&[&asn1::oid(&OID_MGF1), &hash_id(p.mgf1)]),
        ));
    }
    if p.salt_len != 20 {
        fields.push(asn1::explicit(2, &asn1::small_uint(p.salt_len)));
    }
    asn1::seq(&fields.iter().map(Vec::as_slice).collect::<Vec<_>>())
}

fn ec_algorithm(curve: Curve) -> Vec<u8> {
    asn1::seq(&[&asn1::oid(&OID_EC), &asn1::oid(&curve.oid())])
}

fn pkcs8(algorithm: &[u8], inner: &[u8]) -> Vec<u8> {
    asn1::seq(&[&asn1::small_uint(0), algorithm, &asn1::octets(inner)])
}

fn spki(algorithm: &[u8], key: &[u8]) -> Vec<u8> {
    asn1::seq(&[algorithm, &asn1::bits(key)])
}

impl RsaPrivate {
    fn pkcs1(&self) -> Vec<u8> {
        let numbers = [
            &self.n, &self.e, &self.d, &self.p, &self.q, &self.dp, &self.dq, &self.qi,
        ];
        let mut parts = vec![asn1::small_uint(0)];
        parts.extend(numbers.iter().map(|n| asn1::uint(n)));
        asn1::seq(&parts.iter().map(Vec::as_slice).collect::<Vec<_>>())
    }
}

impl RsaPublic {
    fn pkcs1(&self) -> Vec<u8> {
        asn1::seq(&[&asn1::uint(&self.n), &asn1::uint(&self.e)])
    }

    pub fn modulus_bits(&self) -> u32 {
        let lead = self.n.first().copied().unwrap_or(0);
        (self.n.len() as u32).saturating_sub(1) * 8 + (8 - lead.leading_zeros())
    }
}

impl PrivateKey {
    /// Node's `asymmetricKeyType`.
    pub fn key_type(&self) -> &'static str {
        match self {
            Self::Rsa {
                variant: RsaVariant::Plain,
                ..
            } => "rsa",
            Self::Rsa { .. } => "rsa-pss",
            Self::Ec { .. } => "ec",
            Self::Ed25519 { .. } => "ed25519",
            Self::X25519 { .. } => "x25519",
        }
    }

    pub fn public(&self) -> Result<PublicKey> {
        Ok(match self {
            Self::Rsa { key, variant } => PublicKey::Rsa {
                key: RsaPublic {
                    n: key.n.clone(),
                    e: key.e.clone(),
                },
                variant: *variant,
            },
            Self::Ec { curve, scalar, point } => PublicKey::Ec {
                curve: *curve,
                point: match point {
                    Some(p) => p.clone(),
                    None => ec::public_point(*curve, scalar)?,
                },
            },
            Self::Ed25519 { seed } => {
                PublicKey::Ed25519(ed25519_dalek::SigningKey::from_bytes(seed).verifying_key().to_bytes())
            }
            Self::X25519 { secret } => {
                PublicKey::X25519(x25519_dalek::x25519(*secret, x25519_dalek::X25519_BASEPOINT_BYTES))
            }
        })
    }

    pub fn to_der(&self, der_type: DerType) -> Result<Vec<u8>> {
        match (der_type, self) {
            (DerType::Pkcs8, Self::Rsa { key, variant }) => Ok(pkcs8(&rsa_algorithm(*variant), &key.pkcs1())),
            (DerType::Pkcs8, Self::Ec { curve, scalar, .. }) => {
                // OpenSSL writes the public key and leaves the curve to the
                // PKCS#8 algorithm identifier.
                let point = self.public()?.raw()?;
                let inner = asn1::seq(&[
                    &asn1::small_uint(1),
                    &asn1::octets(scalar),
                    &asn1::explicit(1, &asn1::bits(&point)),
                ]);
                Ok(pkcs8(&ec_algorithm(*curve), &inner))
            }
            (DerType::Pkcs8, Self::Ed25519 { seed }) => {
                Ok(pkcs8(&asn1::seq(&[&asn1::oid(&OID_ED25519)]), &asn1::octets(seed)))
            }
            (DerType::Pkcs8, Self::X25519 { secret }) => {
                Ok(pkcs8(&asn1::seq(&[&asn1::oid(&OID_X25519)]), &asn1::octets(secret)))
            }
            (
                DerType::Pkcs1,
                Self::Rsa {
                    key,
                    variant: RsaVariant::Plain,
                },
            ) => Ok(key.pkcs1()),
            (DerType::Sec1, Self::Ec { curve, scalar, .. }) => {
                let point = self.public()?.raw()?;
                Ok(asn1::seq(&[
                    &asn1::small_uint(1),
                    &asn1::octets(scalar),
                    &asn1::explicit(0, &asn1::oid(&curve.oid())),
                    &asn1::explicit(1, &asn1::bits(&point)),
                ]))
            }
            (DerType::Pkcs1, _) => Err(incompatible("pkcs1", "RSA")),
            (DerType::Sec1, _) => Err(incompatible("sec1", "EC")),
            (DerType::Spki, _) => Err(CryptoError::new(
                "ERR_INVALID_ARG_VALUE",
                "The property 'options.type' is invalid. Received 'spki'",
            )),
        }
    }

    /// The key as PEM (`cipher` and `passphrase` encrypt it: PKCS#8 the
    /// PKCS#5 v2 way, PKCS#1 and SEC1 the legacy PEM way), or DER.
    pub fn export(
        &self,
        der_type: DerType,
        pem: bool,
        cipher: Option<&str>,
        passphrase: Option<&[u8]>,
    ) -> Result<Vec<u8>> {
        let der = self.to_der(der_type)?;
        let label = match der_type {
            DerType::Pkcs1 => "RSA PRIVATE KEY",
            DerType::Sec1 => "EC PRIVATE KEY",
            _ => "PRIVATE KEY",
        };
        match (cipher, der_type) {
            (None, _) if pem => Ok(pem::encode(label, &[], &der).into_bytes()),
            (None, _) => Ok(der),
            (Some(cipher), DerType::Pkcs8) => {
                let encrypted = encrypt_pkcs8(&der, cipher, passphrase.unwrap_or_default())?;
                Ok(if pem {
                    pem::encode("ENCRYPTED PRIVATE KEY", &[], &encrypted).into_bytes()
                } else {
                    encrypted
                })
            }
            (Some(cipher), _) if pem => {
                Ok(pem::legacy_encrypt(label, &der, cipher, passphrase.unwrap_or_default())?.into_bytes())
            }
            (Some(_), _) => Err(CryptoError::new(
                "ERR_CRYPTO_INCOMPATIBLE_KEY_OPTIONS",
                format!(
                    "The selected key encoding {} does not support encryption.",
                    if der_type == DerType::Pkcs1 { "pkcs1" } else { "sec1" }
                ),
            )),
        }
    }
}

fn incompatible(encoding: &str, keys: &str) -> CryptoError {
    CryptoError::new(
        "ERR_CRYPTO_INCOMPATIBLE_KEY_OPTIONS",
        format!("The selected key encoding {encoding} can only be used for {keys} keys."),
    )
}

/// PKCS#8 encrypted as OpenSSL 3 does for `cipher: 'aes-*-cbc'`: PBES2 with
/// PBKDF2-HMAC-SHA256, 2048 iterations and an 8-byte salt.
fn encrypt_pkcs8(der: &[u8], cipher: &str, passphrase: &[u8]) -> Result<Vec<u8>> {
    use pkcs8::pkcs5::{self, pbes2};
    let salt = super::rng::random_vec(8)?;
    let iv: [u8; 16] = super::rng::random_vec(16)?
        .try_into()
        .map_err(|_| CryptoError::randomness())?;
    let params = match cipher.to_ascii_lowercase().as_str() {
        "aes-128-cbc" | "aes128" => pbes2::Parameters::generate_pbkdf2_sha256_aes128cbc(2048, &salt, iv),
        "aes-256-cbc" | "aes256" => pbes2::Parameters::generate_pbkdf2_sha256_aes256cbc(2048, &salt, iv),
        "aes-192-cbc" | "aes192" => {
            pbes2::Parameters::generate_pbkdf2_sha256_aes256cbc(2048, &salt, iv).map(|mut p| {
                p.encryption = pbes2::EncryptionScheme::Aes192Cbc { iv };
                p
            })
        }
        _ => return Err(CryptoError::new("ERR_CRYPTO_UNKNOWN_CIPHER", "Unknown cipher")),
    }
    .map_err(|e| CryptoError::msg(format!("encrypting the key: {e}")))?;
    let encrypted = params
        .encrypt(passphrase, der)
        .map_err(|e| CryptoError::msg(format!("encrypting the key: {e}")))?;
    let scheme = der::Encode::to_der(&pkcs5::EncryptionScheme::from(params))
        .map_err(|e| CryptoError::msg(format!("encrypting the key: {e}")))?;
    Ok(asn1::seq(&[&scheme, &asn1::octets(&encrypted)]))
}

impl PublicKey {
    pub fn key_type(&self) -> &'static str {
        match self {
            Self::Rsa {
                variant: RsaVariant::Plain,
                ..
            } => "rsa",
            Self::Rsa { .. } => "rsa-pss",
            Self::Ec { .. } => "ec",
            Self::Ed25519(_) => "ed25519",
            Self::X25519(_) => "x25519",
        }
    }

    pub fn to_der(&self, der_type: DerType) -> Result<Vec<u8>> {
        match (der_type, self) {
            (DerType::Spki, Self::Rsa { key, variant }) => Ok(spki(&rsa_algorithm(*variant), &key.pkcs1())),
            (DerType::Spki, Self::Ec { curve, point }) => Ok(spki(&ec_algorithm(*curve), point)),
            (DerType::Spki, Self::Ed25519(k)) => Ok(spki(&asn1::seq(&[&asn1::oid(&OID_ED25519)]), k)),
            (DerType::Spki, Self::X25519(k)) => Ok(spki(&asn1::seq(&[&asn1::oid(&OID_X25519)]), k)),
            (
                DerType::Pkcs1,
                Self::Rsa {
                    key,
                    variant: RsaVariant::Plain,
                },
            ) => Ok(key.pkcs1()),
            (DerType::Pkcs1, _) => Err(incompatible("pkcs1", "RSA")),
            (t, _) => Err(CryptoError::new(
                "ERR_INVALID_ARG_VALUE",
                format!(
                    "The property 'options.type' is invalid. Received '{}'",
                    if t == DerType::Pkcs8 { "pkcs8" } else { "sec1" }
                ),
            )),
        }
    }

    pub fn export(&self, der_type: DerType, pem: bool) -> Result<Vec<u8>> {
        let der = self.to_der(der_type)?;
        if !pem {
            return Ok(der);
        }
        let label = if der_type == DerType::Pkcs1 {
            "RSA PUBLIC KEY"
        } else {
            "PUBLIC KEY"
        };
        Ok(pem::encode(label, &[], &der).into_bytes())
    }

    /// Web Crypto's `raw` form: the uncompressed point or the 32 bytes.
    pub fn raw(&self) -> Result<Vec<u8>> {
        match self {
            Self::Ec { point, .. } => Ok(point.clone()),
            Self::Ed25519(k) | Self::X25519(k) => Ok(k.to_vec()),
            Self::Rsa { .. } => Err(CryptoError::msg("RSA keys have no raw form")),
        }
    }
}

/// A public key from Web Crypto's `raw` form.
pub fn public_from_raw(key_type: &str, curve: Option<Curve>, data: &[u8]) -> Result<PublicKey> {
    let bad = || CryptoError::msg("Invalid keyData");
    match (key_type, curve) {
        ("ec", Some(curve)) => Ok(PublicKey::Ec {
            curve,
            point: ec::validate_point(curve, data)?,
        }),
        ("ed25519", _) => Ok(PublicKey::Ed25519(data.try_into().map_err(|_| bad())?)),
        ("x25519", _) => Ok(PublicKey::X25519(data.try_into().map_err(|_| bad())?)),
        _ => Err(bad()),
    }
}

// ---------------------------------------------------------------- JWK

/// A JWK's members, base64url-decoded (the JavaScript side does the JSON).
#[derive(Default)]
pub struct Jwk {
    pub kty: String,
    pub crv: Option<String>,
    pub n: Option<Vec<u8>>,
    pub e: Option<Vec<u8>>,
    pub d: Option<Vec<u8>>,
    pub p: Option<Vec<u8>>,
    pub q: Option<Vec<u8>>,
    pub dp: Option<Vec<u8>>,
    pub dq: Option<Vec<u8>>,
    pub qi: Option<Vec<u8>>,
    pub x: Option<Vec<u8>>,
    pub y: Option<Vec<u8>>,
}

fn invalid_jwk(what: &str) -> CryptoError {
    CryptoError::new("ERR_CRYPTO_INVALID_JWK", format!("Invalid JWK {what} key"))
}

impl PublicKey {
    pub fn to_jwk(&self) -> Result<Jwk> {
        Ok(match self {
            Self::Rsa {
                key,
                variant: RsaVariant::Plain,
            } => Jwk {
                kty: "RSA".into(),
                n: Some(key.n.clone()),
                e: Some(key.e.clone()),
                ..Jwk::default()
            },
            Self::Rsa { .. } => {
                return Err(CryptoError::new(
                    "ERR_CRYPTO_JWK_UNSUPPORTED_KEY_TYPE",
                    "Unsupported JWK Key Type.",
                ));
            }
            Self::Ec { curve, point } => {
                let len = curve.field_len();
                Jwk {
                    kty: "EC".into(),
                    crv: Some(curve.jwk_name().into()),
                    x: point.get(1..1 + len).map(<[u8]>::to_vec),
                    y: point.get(1 + len..).map(<[u8]>::to_vec),
                    ..Jwk::default()
                }
            }
            Self::Ed25519(k) => Jwk {
                kty: "OKP".into(),
                crv: Some("Ed25519".into()),
                x: Some(k.to_vec()),
                ..Jwk::default()
            },
            Self::X25519(k) => Jwk {
                kty: "OKP".into(),
                crv: Some("X25519".into()),
                x: Some(k.to_vec()),
                ..Jwk::default()
            },
        })
    }
}

impl PrivateKey {
    pub fn to_jwk(&self) -> Result<Jwk> {
        let mut jwk = self.public()?.to_jwk()?;
        match self {
            Self::Rsa { key, .. } => {
                jwk.d = Some(key.d.clone());
                jwk.p = Some(key.p.clone());
                jwk.q = Some(key.q.clone());
                jwk.dp = Some(key.dp.clone());
                jwk.dq = Some(key.dq.clone());
                jwk.qi = Some(key.qi.clone());
            }
            Self::Ec { scalar, .. } => jwk.d = Some(scalar.clone()),
            Self::Ed25519 { seed } => jwk.d = Some(seed.to_vec()),
            Self::X25519 { secret } => jwk.d = Some(secret.to_vec()),
        }
        Ok(jwk)
    }
}

fn okp(jwk: &Jwk) -> Result<(bool, [u8; 32])> {
    let ed = match jwk.crv.as_deref() {
        Some("Ed25519") => true,
        Some("X25519") => false,
        _ => return Err(invalid_jwk("OKP")),
    };
    let x = jwk
        .x
        .as_deref()
        .and_then(|x| <[u8; 32]>::try_from(x).ok())
        .ok_or_else(|| invalid_jwk("OKP"))?;
    Ok((ed, x))
}

fn ec_jwk(jwk: &Jwk) -> Result<(Curve, Vec<u8>)> {
    let curve = jwk
        .crv
        .as_deref()
        .and_then(Curve::from_name)
        .ok_or_else(|| invalid_jwk("EC"))?;
    let len = curve.field_len();
    match (&jwk.x, &jwk.y) {
        (Some(x), Some(y)) if x.len() == len && y.len() == len => {
            let point = [&[0x04][..], x, y].concat();
            Ok((curve, ec::validate_point(curve, &point).map_err(|_| invalid_jwk("EC"))?))
        }
        _ => Err(invalid_jwk("EC")),
    }
}

pub fn public_from_jwk(jwk: &Jwk) -> Result<PublicKey> {
    match jwk.kty.as_str() {
        "RSA" => match (&jwk.n, &jwk.e) {
            (Some(n), Some(e)) if !n.is_empty() && !e.is_empty() => Ok(PublicKey::Rsa {
                key: RsaPublic {
                    n: strip(n),
                    e: strip(e),
                },
                variant: RsaVariant::Plain,
            }),
            _ => Err(invalid_jwk("RSA")),
        },
        "EC" => {
            let (curve, point) = ec_jwk(jwk)?;
            Ok(PublicKey::Ec { curve, point })
        }
        "OKP" => {
            let (ed, x) = okp(jwk)?;
            Ok(if ed {
                PublicKey::Ed25519(x)
            } else {
                PublicKey::X25519(x)
            })
        }
        other => Err(unsupported_kty(other)),
    }
}

/// Node 24's error for a JWK whose `kty` is missing or not one it has.
fn unsupported_kty(kty: &str) -> CryptoError {
    if kty.is_empty() {
        CryptoError::new("ERR_CRYPTO_INVALID_JWK", "Invalid JWK format")
    } else {
        CryptoError::new(
            "ERR_CRYPTO_INVALID_JWK",
            format!("{kty} is not a supported JWK key type"),
        )
    }
}

pub fn private_from_jwk(jwk: &Jwk) -> Result<PrivateKey> {
    match jwk.kty.as_str() {
        "RSA" => {
            let all = [&jwk.n, &jwk.e, &jwk.d, &jwk.p, &jwk.q, &jwk.dp, &jwk.dq, &jwk.qi];
            if all.iter().any(|v| v.as_ref().is_none_or(|v| v.is_empty())) {
                return Err(invalid_jwk("RSA"));
            }
            let get = |v: &Option<Vec<u8>>| strip(v.as_deref().unwrap_or_default());
            Ok(PrivateKey::Rsa {
                key: RsaPrivate {
                    n: get(&jwk.n),
                    e: get(&jwk.e),
                    d: get(&jwk.d),
                    p: get(&jwk.p),
                    q: get(&jwk.q),
                    dp: get(&jwk.dp),
                    dq: get(&jwk.dq),
                    qi: get(&jwk.qi),
                },
                variant: RsaVariant::Plain,
            })
        }
        "EC" => {
            let (curve, point) = ec_jwk(jwk)?;
            let d = jwk
                .d
                .as_deref()
                .filter(|d| d.len() == curve.field_len())
                .ok_or_else(|| invalid_jwk("EC"))?;
            let scalar = ec::validate_scalar(curve, d).map_err(|_| invalid_jwk("EC"))?;
            if ec::public_point(curve, &scalar)? != point {
                return Err(invalid_jwk("EC"));
            }
            Ok(PrivateKey::Ec {
                curve,
                scalar,
                point: Some(point),
            })
        }
        "OKP" => {
            // Like Node, `x` must be there but the key comes from `d` alone.
            let (ed, _) = okp(jwk)?;
            let d: [u8; 32] = jwk
                .d
                .as_deref()
                .and_then(|d| d.try_into().ok())
                .ok_or_else(|| invalid_jwk("OKP"))?;
            Ok(if ed {
                PrivateKey::Ed25519 { seed: d }
            } else {
                PrivateKey::X25519 { secret: d }
            })
        }
        other => Err(unsupported_kty(other)),
    }
}

// ---------------------------------------------------------------- details

/// What Node reports in `asymmetricKeyDetails`.
pub struct Details {
    pub modulus_bits: Option<u32>,
    pub public_exponent: Option<Vec<u8>>,
    pub curve: Option<Curve>,
    pub pss: Option<PssParams>,
}

impl PublicKey {
    pub fn details(&self) -> Details {
        let mut d = Details {
            modulus_bits: None,
            public_exponent: None,
            curve: None,
            pss: None,
        };
        match self {
            Self::Rsa { key, variant } => {
                d.modulus_bits = Some(key.modulus_bits());
                d.public_exponent = Some(key.e.clone());
                if let RsaVariant::Pss(p) = variant {
                    d.pss = *p;
                }
            }
            Self::Ec { curve, .. } => d.curve = Some(*curve),
            Self::Ed25519(_) | Self::X25519(_) => {}
        }
        d
    }
}

/// A private key as the JavaScript side keeps it.
pub fn private_from_der(pkcs8: &[u8]) -> Result<PrivateKey> {
    private_from_pkcs8(pkcs8)
}

/// A public key as the JavaScript side keeps it.
pub fn public_from_der(spki: &[u8]) -> Result<PublicKey> {
    public_from_spki(spki)
}
