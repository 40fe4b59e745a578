//! The key primitives on `globalThis.__shoal_native`, for the JavaScript
//! side in `crates/shoal-build/js/node/internal/crypto/`. A key travels as
//! its canonical DER (PKCS#8 for a private key, SPKI for a public one) with
//! its kind (`"private"`/`"public"`); bytes come in as `Uint8Array`s and go
//! out as `ArrayBuffer`s. Errors are JavaScript `Error`s carrying Node's
//! `code` and message.

use javy_plugin_api::javy::quickjs::{
    Array, ArrayBuffer, Ctx, Exception, Function, Object, Result as JsResult, TypedArray,
};

use super::error::{CryptoError, Result};
use super::hash::HashAlg;
use super::keys::{self, Curve, DerType, Jwk, PrivateKey, PssParams, PublicKey};
use super::{ec, kdf, openssl_der, ops, pem, rsa, x509};
use crate::native::{buffer, bytes};

/// A thrown `Error` with Node's message and `code`.
fn js_error(ctx: &Ctx<'_>, e: CryptoError) -> javy_plugin_api::javy::quickjs::Error {
    match Exception::from_message(ctx.clone(), &e.message) {
        Ok(exception) => {
            if !e.code.is_empty() {
                let _ = exception.as_object().set("code", e.code);
            }
            ctx.throw(exception.into_value())
        }
        Err(err) => err,
    }
}

/// Runs a primitive, turning its error into a thrown one.
fn run<T>(ctx: &Ctx<'_>, f: impl FnOnce() -> Result<T>) -> JsResult<T> {
    f().map_err(|e| js_error(ctx, e))
}

fn optional_bytes(ctx: &Ctx<'_>, v: &Option<TypedArray<'_, u8>>, what: &str) -> JsResult<Option<Vec<u8>>> {
    match v {
        Some(v) => Ok(Some(bytes(ctx, v, what)?.to_vec())),
        None => Ok(None),
    }
}

fn public_of(kind: &str, der: &[u8]) -> Result<PublicKey> {
    if kind == "private" {
        keys::private_from_der(der)?.public()
    } else {
        keys::public_from_der(der)
    }
}

fn curve(name: &str) -> Result<Curve> {
    Curve::from_name(name).ok_or_else(|| CryptoError::new("ERR_CRYPTO_INVALID_CURVE", "Invalid EC curve name"))
}

/// `[asymmetricKeyType, der]` of a parsed key.
fn typed_der<'js>(ctx: &Ctx<'js>, key_type: &str, der: Vec<u8>) -> JsResult<Array<'js>> {
    let out = Array::new(ctx.clone())?;
    out.set(0, key_type)?;
    out.set(1, buffer(ctx, der)?)?;
    Ok(out)
}

/// `keyParse(data, kind, derType, passphrase?)`: PEM (`derType` empty) or
/// DER to `[asymmetricKeyType, canonicalDer]`.
fn key_parse<'js>(
    ctx: Ctx<'js>,
    data: TypedArray<'js, u8>,
    kind: String,
    der_type: String,
    passphrase: Option<TypedArray<'js, u8>>,
) -> JsResult<Array<'js>> {
    let data = bytes(&ctx, &data, "key")?;
    let passphrase = optional_bytes(&ctx, &passphrase, "passphrase")?;
    let (key_type, der) = run(&ctx, || {
        let der_type = if der_type.is_empty() {
            None
        } else {
            Some(DerType::parse(&der_type)?)
        };
        if kind == "private" {
            let key = keys::parse_private(data, der_type, passphrase.as_deref())?;
            Ok((key.key_type(), key.to_der(DerType::Pkcs8)?))
        } else {
            let key = keys::parse_public(data, der_type, passphrase.as_deref())?;
            Ok((key.key_type(), key.to_der(DerType::Spki)?))
        }
    })?;
    typed_der(&ctx, key_type, der)
}

const JWK_BYTES: [&str; 10] = ["n", "e", "d", "p", "q", "dp", "dq", "qi", "x", "y"];

/// `keyFromJwk(kind, fields)`: fields are `kty`/`crv` strings and the other
/// members as bytes.
fn key_from_jwk<'js>(ctx: Ctx<'js>, kind: String, fields: Object<'js>) -> JsResult<Array<'js>> {
    let mut jwk = Jwk {
        kty: fields.get::<_, Option<String>>("kty")?.unwrap_or_default(),
        crv: fields.get("crv")?,
        ..Jwk::default()
    };
    for name in JWK_BYTES {
        let value = optional_bytes(&ctx, &fields.get::<_, Option<TypedArray<'js, u8>>>(name)?, name)?;
        let slot = match name {
            "n" => &mut jwk.n,
            "e" => &mut jwk.e,
            "d" => &mut jwk.d,
            "p" => &mut jwk.p,
            "q" => &mut jwk.q,
            "dp" => &mut jwk.dp,
            "dq" => &mut jwk.dq,
            "qi" => &mut jwk.qi,
            "x" => &mut jwk.x,
            _ => &mut jwk.y,
        };
        *slot = value;
    }
    let (key_type, der) = run(&ctx, || {
        if kind == "private" {
            let key = keys::private_from_jwk(&jwk)?;
            Ok((key.key_type(), key.to_der(DerType::Pkcs8)?))
        } else {
            let key = keys::public_from_jwk(&jwk)?;
            Ok((key.key_type(), key.to_der(DerType::Spki)?))
        }
    })?;
    typed_der(&ctx, key_type, der)
}

/// `keyFromRaw(type, curve, data)`: Web Crypto's raw public key to SPKI.
fn key_from_raw<'js>(
    ctx: Ctx<'js>,
    key_type: String,
    curve_name: String,
    data: TypedArray<'js, u8>,
) -> JsResult<ArrayBuffer<'js>> {
    let data = bytes(&ctx, &data, "keyData")?;
    let der = run(&ctx, || {
        let curve = if curve_name.is_empty() {
            None
        } else {
            Some(curve(&curve_name)?)
        };
        keys::public_from_raw(&key_type, curve, data)?.to_der(DerType::Spki)
    })?;
    buffer(&ctx, der)
}

/// `keyExport(kind, der, type, pem, cipher?, passphrase?)`.
fn key_export<'js>(
    ctx: Ctx<'js>,
    kind: String,
    der: TypedArray<'js, u8>,
    der_type: String,
    pem: bool,
    cipher: Option<String>,
    passphrase: Option<TypedArray<'js, u8>>,
) -> JsResult<ArrayBuffer<'js>> {
    let der = bytes(&ctx, &der, "key")?;
    let passphrase = optional_bytes(&ctx, &passphrase, "passphrase")?;
    let out = run(&ctx, || {
        let der_type = DerType::parse(&der_type)?;
        if kind == "private" {
            keys::private_from_der(der)?.export(der_type, pem, cipher.as_deref(), passphrase.as_deref())
        } else {
            keys::public_from_der(der)?.export(der_type, pem)
        }
    })?;
    buffer(&ctx, out)
}

/// `keyToJwk(kind, der)`: `{ kty, crv?, n?, e?, ... }`, members as bytes.
fn key_to_jwk<'js>(ctx: Ctx<'js>, kind: String, der: TypedArray<'js, u8>) -> JsResult<Object<'js>> {
    let der = bytes(&ctx, &der, "key")?;
    let jwk = run(&ctx, || {
        if kind == "private" {
            keys::private_from_der(der)?.to_jwk()
        } else {
            keys::public_from_der(der)?.to_jwk()
        }
    })?;
    let out = Object::new(ctx.clone())?;
    out.set("kty", jwk.kty.as_str())?;
    if let Some(crv) = &jwk.crv {
        out.set("crv", crv.as_str())?;
    }
    let members = [
        ("n", jwk.n),
        ("e", jwk.e),
        ("d", jwk.d),
        ("p", jwk.p),
        ("q", jwk.q),
        ("dp", jwk.dp),
        ("dq", jwk.dq),
        ("qi", jwk.qi),
        ("x", jwk.x),
        ("y", jwk.y),
    ];
    for (name, value) in members {
        if let Some(value) = value {
            out.set(name, buffer(&ctx, value)?)?;
        }
    }
    Ok(out)
}

/// `keyDetails(kind, der)`: what Node reports in `asymmetricKeyDetails`.
fn key_details<'js>(ctx: Ctx<'js>, kind: String, der: TypedArray<'js, u8>) -> JsResult<Object<'js>> {
    let der = bytes(&ctx, &der, "key")?;
    let details = run(&ctx, || Ok(public_of(&kind, der)?.details()))?;
    let out = Object::new(ctx.clone())?;
    if let Some(bits) = details.modulus_bits {
        out.set("modulusLength", bits)?;
    }
    if let Some(e) = details.public_exponent {
        out.set("publicExponent", buffer(&ctx, e)?)?;
    }
    if let Some(curve) = details.curve {
        out.set("namedCurve", curve.node_name())?;
    }
    if let Some(pss) = details.pss {
        out.set("hashAlgorithm", pss.hash.name())?;
        out.set("mgf1HashAlgorithm", pss.mgf1.name())?;
        out.set("saltLength", pss.salt_len)?;
    }
    Ok(out)
}

/// `keyPublic(pkcs8)`: the SPKI of a private key.
fn key_public<'js>(ctx: Ctx<'js>, der: TypedArray<'js, u8>) -> JsResult<ArrayBuffer<'js>> {
    let der = bytes(&ctx, &der, "key")?;
    let spki = run(&ctx, || keys::private_from_der(der)?.public()?.to_der(DerType::Spki))?;
    buffer(&ctx, spki)
}

/// `keyRaw(kind, der)`: Web Crypto's raw public key.
fn key_raw<'js>(ctx: Ctx<'js>, kind: String, der: TypedArray<'js, u8>) -> JsResult<ArrayBuffer<'js>> {
    let der = bytes(&ctx, &der, "key")?;
    let raw = run(&ctx, || public_of(&kind, der)?.raw())?;
    buffer(&ctx, raw)
}

/// `keyGenerate(type, params)`: a new private key as PKCS#8.
fn key_generate<'js>(ctx: Ctx<'js>, key_type: String, params: Object<'js>) -> JsResult<ArrayBuffer<'js>> {
    let modulus_bits: Option<f64> = params.get("modulusLength")?;
    let exponent = optional_bytes(
        &ctx,
        &params.get::<_, Option<TypedArray<'js, u8>>>("publicExponent")?,
        "publicExponent",
    )?;
    let named_curve: Option<String> = params.get("namedCurve")?;
    let hash: Option<String> = params.get("hashAlgorithm")?;
    let mgf1: Option<String> = params.get("mgf1HashAlgorithm")?;
    let salt: Option<f64> = params.get("saltLength")?;
    let der = run(&ctx, || {
        let curve = named_curve.as_deref().map(curve).transpose()?;
        let pss = match hash.as_deref() {
            Some(h) => {
                let hash = HashAlg::parse(h)?;
                Some(PssParams {
                    hash,
                    mgf1: mgf1.as_deref().map(HashAlg::parse).transpose()?.unwrap_or(hash),
                    salt_len: salt
                        .filter(|s| (0.0..=u32::MAX as f64).contains(s))
                        .map_or(hash.output_len() as u32, |s| s as u32),
                })
            }
            None => None,
        };
        let bits = modulus_bits
            .filter(|b| (0.0..=u32::MAX as f64).contains(b))
            .unwrap_or(0.0) as usize;
        let key = ops::generate(&ops::GenerateOptions {
            key_type: &key_type,
            modulus_bits: bits,
            public_exponent: exponent.as_deref().unwrap_or(&[1, 0, 1]),
            curve,
            pss,
        })?;
        key.to_der(DerType::Pkcs8)
    })?;
    buffer(&ctx, der)
}

/// The `{ hash, padding, saltLength, p1363 }` of a signature; `hash` empty
/// or absent: the key type's default.
fn sign_options(options: &Object<'_>) -> JsResult<(String, Option<f64>, Option<f64>, bool)> {
    Ok((
        options.get::<_, Option<String>>("hash")?.unwrap_or_default(),
        options.get("padding")?,
        options.get("saltLength")?,
        options.get::<_, Option<bool>>("p1363")?.unwrap_or(false),
    ))
}

fn parse_sign_options(
    (hash, padding, salt, p1363): (String, Option<f64>, Option<f64>, bool),
) -> Result<ops::SignOptions> {
    let int = |v: Option<f64>| {
        v.filter(|v| v.fract() == 0.0 && (i32::MIN as f64..=i32::MAX as f64).contains(v))
            .map(|v| v as i32)
    };
    Ok(ops::SignOptions {
        hash: if hash.is_empty() {
            None
        } else {
            Some(HashAlg::parse(&hash)?)
        },
        padding: int(padding),
        salt_len: int(salt),
        p1363,
    })
}

/// `sign(pkcs8, data, options)`.
fn sign<'js>(
    ctx: Ctx<'js>,
    der: TypedArray<'js, u8>,
    data: TypedArray<'js, u8>,
    options: Object<'js>,
) -> JsResult<ArrayBuffer<'js>> {
    let der = bytes(&ctx, &der, "key")?;
    let data = bytes(&ctx, &data, "data")?;
    let options = sign_options(&options)?;
    let sig = run(&ctx, || {
        ops::sign(&keys::private_from_der(der)?, data, &parse_sign_options(options)?)
    })?;
    buffer(&ctx, sig)
}

/// `verify(kind, der, data, signature, options)`.
fn verify<'js>(
    ctx: Ctx<'js>,
    kind: String,
    der: TypedArray<'js, u8>,
    data: TypedArray<'js, u8>,
    signature: TypedArray<'js, u8>,
    options: Object<'js>,
) -> JsResult<bool> {
    let der = bytes(&ctx, &der, "key")?;
    let data = bytes(&ctx, &data, "data")?;
    let signature = bytes(&ctx, &signature, "signature")?;
    let options = sign_options(&options)?;
    run(&ctx, || {
        ops::verify(&public_of(&kind, der)?, data, signature, &parse_sign_options(options)?)
    })
}

/// `rsaCipher(operation, kind, der, data, { padding, hash, label })`:
/// publicEncrypt, privateDecrypt, privateEncrypt or publicDecrypt.
fn rsa_cipher<'js>(
    ctx: Ctx<'js>,
    operation: String,
    kind: String,
    der: TypedArray<'js, u8>,
    data: TypedArray<'js, u8>,
    options: Object<'js>,
) -> JsResult<ArrayBuffer<'js>> {
    let der = bytes(&ctx, &der, "key")?;
    let data = bytes(&ctx, &data, "buffer")?;
    let padding: f64 = options.get("padding")?;
    let hash: String = options.get("hash")?;
    let label = optional_bytes(
        &ctx,
        &options.get::<_, Option<TypedArray<'js, u8>>>("label")?,
        "oaepLabel",
    )?
    .unwrap_or_default();
    let out = run(&ctx, || {
        let padding = if padding.fract() == 0.0 && (0.0..=255.0).contains(&padding) {
            padding as i32
        } else {
            -1
        };
        let hash = HashAlg::parse(&hash)?;
        let rsa_public = |key: PublicKey| match key {
            PublicKey::Rsa {
                key,
                variant: keys::RsaVariant::Plain,
            } => Ok(key),
            _ => Err(CryptoError::operation_not_supported()),
        };
        let rsa_private = |key: PrivateKey| match key {
            PrivateKey::Rsa {
                key,
                variant: keys::RsaVariant::Plain,
            } => Ok(key),
            _ => Err(CryptoError::operation_not_supported()),
        };
        match operation.as_str() {
            "publicEncrypt" => rsa::public_encrypt(&rsa_public(public_of(&kind, der)?)?, padding, hash, &label, data),
            "publicDecrypt" => rsa::public_decrypt(&rsa_public(public_of(&kind, der)?)?, padding, data),
            "privateDecrypt" => {
                rsa::private_decrypt(&rsa_private(keys::private_from_der(der)?)?, padding, hash, &label, data)
            }
            "privateEncrypt" => rsa::private_encrypt(&rsa_private(keys::private_from_der(der)?)?, padding, data),
            other => Err(CryptoError::msg(format!("rsaCipher: unknown operation {other}"))),
        }
    })?;
    buffer(&ctx, out)
}

/// `deriveSecret(pkcs8, publicKind, publicDer)`: ECDH or X25519.
fn derive_secret<'js>(
    ctx: Ctx<'js>,
    der: TypedArray<'js, u8>,
    public_kind: String,
    public_der: TypedArray<'js, u8>,
) -> JsResult<ArrayBuffer<'js>> {
    let der = bytes(&ctx, &der, "privateKey")?;
    let public_der = bytes(&ctx, &public_der, "publicKey")?;
    let secret = run(&ctx, || {
        ops::derive(&keys::private_from_der(der)?, &public_of(&public_kind, public_der)?)
    })?;
    buffer(&ctx, secret)
}

/// `ecGenerate(curve)`: `[scalar, uncompressed point]`, for ECDH objects.
fn ec_generate<'js>(ctx: Ctx<'js>, curve_name: String) -> JsResult<Array<'js>> {
    let (scalar, point) = run(&ctx, || ec::generate(curve(&curve_name)?))?;
    let out = Array::new(ctx.clone())?;
    out.set(0, buffer(&ctx, scalar)?)?;
    out.set(1, buffer(&ctx, point)?)?;
    Ok(out)
}

/// `ecPoint(curve, input, fromScalar, format)`: the public point of a
/// scalar, or a point re-encoded, as `uncompressed`, `compressed` or `hybrid`.
fn ec_point<'js>(
    ctx: Ctx<'js>,
    curve_name: String,
    input: TypedArray<'js, u8>,
    from_scalar: bool,
    format: String,
) -> JsResult<ArrayBuffer<'js>> {
    let input = bytes(&ctx, &input, "key")?;
    let point = run(&ctx, || {
        let curve = curve(&curve_name)?;
        let point = if from_scalar {
            ec::public_point(curve, &ec::validate_scalar(curve, input)?)?
        } else {
            ec::validate_point(curve, input)?
        };
        ec::encode_point(curve, &point, &format)
    })?;
    buffer(&ctx, point)
}

/// `ecdh(curve, scalar, peerPoint)`: the shared secret.
fn ecdh<'js>(
    ctx: Ctx<'js>,
    curve_name: String,
    scalar: TypedArray<'js, u8>,
    peer: TypedArray<'js, u8>,
) -> JsResult<ArrayBuffer<'js>> {
    let scalar = bytes(&ctx, &scalar, "privateKey")?;
    let peer = bytes(&ctx, &peer, "key")?;
    let secret = run(&ctx, || {
        let curve = curve(&curve_name)?;
        ec::diffie_hellman(
            curve,
            &ec::validate_scalar(curve, scalar)?,
            &ec::validate_point(curve, peer)?,
        )
    })?;
    buffer(&ctx, secret)
}

/// `hkdf(hash, ikm, salt, info, length)`.
fn hkdf<'js>(
    ctx: Ctx<'js>,
    hash: String,
    ikm: TypedArray<'js, u8>,
    salt: TypedArray<'js, u8>,
    info: TypedArray<'js, u8>,
    length: f64,
) -> JsResult<ArrayBuffer<'js>> {
    let ikm = bytes(&ctx, &ikm, "ikm")?;
    let salt = bytes(&ctx, &salt, "salt")?;
    let info = bytes(&ctx, &info, "info")?;
    let out = run(&ctx, || {
        if !(0.0..=(255.0 * 64.0)).contains(&length) || length.fract() != 0.0 {
            return Err(CryptoError::new("ERR_CRYPTO_INVALID_KEYLEN", "Invalid key length"));
        }
        kdf::hkdf(HashAlg::parse(&hash)?, ikm, salt, info, length as usize)
    })?;
    buffer(&ctx, out)
}

/// `aesKw(key, data, unwrap)`: AES Key Wrap (RFC 3394).
fn aes_kw<'js>(
    ctx: Ctx<'js>,
    key: TypedArray<'js, u8>,
    data: TypedArray<'js, u8>,
    unwrap: bool,
) -> JsResult<ArrayBuffer<'js>> {
    let key = bytes(&ctx, &key, "key")?;
    let data = bytes(&ctx, &data, "data")?;
    let out = run(&ctx, || kdf::aes_kw(key, data, unwrap))?;
    buffer(&ctx, out)
}

/// A certificate's DER: PEM (the first `CERTIFICATE` block) or DER.
fn certificate_der(data: &[u8]) -> Result<Vec<u8>> {
    // OpenSSL reads PEM first, then DER; when neither gives a certificate
    // the PEM reader's error is the one reported.
    let no_start_line = || {
        CryptoError::new(
            "ERR_OSSL_PEM_NO_START_LINE",
            "error:0480006C:PEM routines::no start line",
        )
    };
    let blocks = pem::decode_all(data)?;
    if blocks.is_empty() {
        if openssl_der::check(&openssl_der::CERTIFICATE, data).is_some() {
            return Err(no_start_line());
        }
        return Ok(data.to_vec());
    }
    blocks
        .into_iter()
        .find(|b| b.label == "CERTIFICATE")
        .map(|b| b.der)
        .ok_or_else(no_start_line)
}

/// `x509Parse(data)`: a certificate (PEM or DER) as the fields
/// `X509Certificate` shows.
fn x509_parse<'js>(ctx: Ctx<'js>, data: TypedArray<'js, u8>) -> JsResult<Object<'js>> {
    let data = bytes(&ctx, &data, "buffer")?;
    let der = run(&ctx, || certificate_der(data))?;
    let out = Object::new(ctx.clone())?;
    let (subject, issuer, from, to, serial, spki, ca, san, eku, algorithm, der) = run(&ctx, || {
        let cert = x509::parse(&der)?;
        Ok((
            x509::name(cert.subject)?,
            x509::name(cert.issuer)?,
            x509::time(&cert.not_before)?,
            x509::time(&cert.not_after)?,
            x509::serial(cert.serial),
            cert.spki.to_vec(),
            cert.is_ca(),
            cert.subject_alt_name(),
            cert.ext_key_usage(),
            cert.signature_algorithm_oid()?,
            cert.der.to_vec(),
        ))
    })?;
    out.set("subject", subject)?;
    out.set("issuer", issuer)?;
    out.set("validFrom", from.0)?;
    out.set("validFromISO", from.1)?;
    out.set("validTo", to.0)?;
    out.set("validToISO", to.1)?;
    out.set("serialNumber", serial)?;
    out.set("spki", buffer(&ctx, spki)?)?;
    out.set("ca", ca)?;
    out.set("subjectAltName", san)?;
    out.set("keyUsage", eku)?;
    out.set("signatureAlgorithmOid", algorithm)?;
    out.set("der", buffer(&ctx, der)?)?;
    Ok(out)
}

/// `x509Verify(der, kind, keyDer)`: whether the key signed the certificate.
fn x509_verify<'js>(ctx: Ctx<'js>, der: TypedArray<'js, u8>, kind: String, key: TypedArray<'js, u8>) -> JsResult<bool> {
    let der = bytes(&ctx, &der, "certificate")?;
    let key = bytes(&ctx, &key, "publicKey")?;
    run(&ctx, || x509::parse(der)?.verify(&public_of(&kind, key)?))
}

/// Adds the key primitives to `native`.
pub fn install<'js>(ctx: &Ctx<'js>, native: &Object<'js>) -> JsResult<()> {
    let functions: [(&str, Function<'js>); 20] = [
        ("keyParse", Function::new(ctx.clone(), key_parse)?),
        ("keyFromJwk", Function::new(ctx.clone(), key_from_jwk)?),
        ("keyFromRaw", Function::new(ctx.clone(), key_from_raw)?),
        ("keyExport", Function::new(ctx.clone(), key_export)?),
        ("keyToJwk", Function::new(ctx.clone(), key_to_jwk)?),
        ("keyDetails", Function::new(ctx.clone(), key_details)?),
        ("keyPublic", Function::new(ctx.clone(), key_public)?),
        ("keyRaw", Function::new(ctx.clone(), key_raw)?),
        ("keyGenerate", Function::new(ctx.clone(), key_generate)?),
        ("sign", Function::new(ctx.clone(), sign)?),
        ("verify", Function::new(ctx.clone(), verify)?),
        ("rsaCipher", Function::new(ctx.clone(), rsa_cipher)?),
        ("deriveSecret", Function::new(ctx.clone(), derive_secret)?),
        ("ecGenerate", Function::new(ctx.clone(), ec_generate)?),
        ("ecPoint", Function::new(ctx.clone(), ec_point)?),
        ("ecdh", Function::new(ctx.clone(), ecdh)?),
        ("hkdf", Function::new(ctx.clone(), hkdf)?),
        ("aesKw", Function::new(ctx.clone(), aes_kw)?),
        ("x509Parse", Function::new(ctx.clone(), x509_parse)?),
        ("x509Verify", Function::new(ctx.clone(), x509_verify)?),
    ];
    for (name, function) in functions {
        native.set(name, function)?;
    }
    Ok(())
}
