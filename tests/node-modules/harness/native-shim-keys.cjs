'use strict';
// The engine's key primitives (crates/shoal-engine/plugin/src/crypto/
// bindings.rs) built from Node's own crypto, for native-shim.cjs. Each takes
// and returns what the engine's does: Uint8Arrays in, ArrayBuffers, arrays
// and plain objects out, and errors carrying Node's code and message.

const crypto = require('node:crypto');

const bytes = (u8) => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
const ab = (buf) => buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);

// The key types the engine has.
const supported = ['rsa', 'rsa-pss', 'ec', 'ed25519', 'x25519'];
const engineCurves = ['prime256v1', 'secp384r1', 'secp521r1'];

function nodeError(err) {
  const e = new Error(err.message);
  if (err.code !== undefined) e.code = err.code;
  return e;
}

function unsupported() {
  const e = new Error('error:1E08010C:DECODER routines::unsupported');
  e.code = 'ERR_OSSL_UNSUPPORTED';
  return e;
}

// Runs `fn` with Node's errors reduced to code and message, as the engine's.
const guarded = (fn) => (...args) => {
  try {
    return fn(...args);
  } catch (err) {
    throw nodeError(err);
  }
};

function checked(key) {
  if (!supported.includes(key.asymmetricKeyType)) throw unsupported();
  if (key.asymmetricKeyType === 'ec' && !engineCurves.includes(key.asymmetricKeyDetails.namedCurve)) {
    const e = new Error(`Keys on the ${key.asymmetricKeyDetails.namedCurve} curve are not available in Shoal's JavaScript engine (P-256, P-384 and P-521 are)`);
    e.code = 'ERR_NOT_AVAILABLE_IN_SHOAL';
    throw e;
  }
  return key;
}

function privateKey(der) {
  return crypto.createPrivateKey({ key: bytes(der), format: 'der', type: 'pkcs8' });
}

function publicKey(kind, der) {
  return kind === 'private' ? crypto.createPublicKey(privateKey(der)) : crypto.createPublicKey({ key: bytes(der), format: 'der', type: 'spki' });
}

function canonical(key) {
  const der = key.type === 'private' ? key.export({ type: 'pkcs8', format: 'der' }) : key.export({ type: 'spki', format: 'der' });
  return [key.asymmetricKeyType, ab(der)];
}

function b64u(v) {
  return bytes(v).toString('base64url');
}

function fromB64u(s) {
  return ab(Buffer.from(s, 'base64url'));
}

function curveName(name) {
  return { 'P-256': 'prime256v1', 'P-384': 'secp384r1', 'P-521': 'secp521r1' }[name] || name;
}

function fieldLength(curve) {
  return { prime256v1: 32, secp256k1: 32, secp384r1: 48, secp521r1: 66 }[curveName(curve)];
}

const jwkCurve = { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521', secp256k1: 'secp256k1' };

// The signature algorithm's OID (Node before 24 does not report it): the
// second element of the Certificate SEQUENCE.
function signatureOid(der) {
  const length = (at) => (der[at + 1] < 0x80 ? [der[at + 1], 2] : [der.readUIntBE(at + 2, der[at + 1] & 0x7f), 2 + (der[at + 1] & 0x7f)]);
  const [, certHeader] = length(0);
  const [tbsLength, tbsHeader] = length(certHeader);
  const algorithm = certHeader + tbsHeader + tbsLength;
  const [, algorithmHeader] = length(algorithm);
  const oid = algorithm + algorithmHeader;
  const [oidLength, oidHeader] = length(oid);
  const body = der.subarray(oid + oidHeader, oid + oidHeader + oidLength);
  const parts = [Math.floor(body[0] / 40), body[0] % 40];
  for (let i = 1, v = 0; i < body.length; i++) {
    v = v * 128 + (body[i] & 0x7f);
    if (!(body[i] & 0x80)) {
      parts.push(v);
      v = 0;
    }
  }
  return parts.join('.');
}

const functions = {
  keyParse(data, kind, derType, passphrase) {
    const options = { key: bytes(data), format: derType ? 'der' : 'pem' };
    if (derType) options.type = derType;
    if (passphrase !== undefined) options.passphrase = bytes(passphrase);
    return canonical(checked(kind === 'private' ? crypto.createPrivateKey(options) : crypto.createPublicKey(options)));
  },
  keyFromJwk(kind, fields) {
    const jwk = {};
    for (const [k, v] of Object.entries(fields)) jwk[k] = typeof v === 'string' ? v : b64u(v);
    const options = { key: jwk, format: 'jwk' };
    return canonical(checked(kind === 'private' ? crypto.createPrivateKey(options) : crypto.createPublicKey(options)));
  },
  keyFromRaw(type, curve, data) {
    let jwk;
    if (type === 'ec') {
      const point = crypto.ECDH.convertKey(bytes(data), curveName(curve), null, null, 'uncompressed');
      const n = fieldLength(curve);
      jwk = { kty: 'EC', crv: jwkCurve[curveName(curve)], x: point.subarray(1, 1 + n).toString('base64url'), y: point.subarray(1 + n).toString('base64url') };
    } else {
      if (data.length !== 32) throw new Error('Invalid keyData');
      jwk = { kty: 'OKP', crv: type === 'ed25519' ? 'Ed25519' : 'X25519', x: b64u(data) };
    }
    return ab(crypto.createPublicKey({ key: jwk, format: 'jwk' }).export({ type: 'spki', format: 'der' }));
  },
  keyExport(kind, der, type, pem, cipher, passphrase) {
    const key = kind === 'private' ? privateKey(der) : publicKey('public', der);
    const options = { type, format: pem ? 'pem' : 'der' };
    if (cipher !== undefined) {
      options.cipher = cipher;
      options.passphrase = passphrase === undefined ? Buffer.alloc(0) : bytes(passphrase);
    }
    const out = key.export(options);
    return ab(typeof out === 'string' ? Buffer.from(out) : out);
  },
  keyToJwk(kind, der) {
    const jwk = (kind === 'private' ? privateKey(der) : publicKey('public', der)).export({ format: 'jwk' });
    const out = {};
    for (const [k, v] of Object.entries(jwk)) out[k] = k === 'kty' || k === 'crv' ? v : fromB64u(v);
    return out;
  },
  keyDetails(kind, der) {
    const d = publicKey(kind, der).asymmetricKeyDetails;
    const out = { ...d };
    if (d.publicExponent !== undefined) {
      const hex = d.publicExponent.toString(16);
      out.publicExponent = ab(Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex'));
    }
    return out;
  },
  keyPublic(der) {
    return ab(publicKey('private', der).export({ type: 'spki', format: 'der' }));
  },
  keyRaw(kind, der) {
    const key = publicKey(kind, der);
    const jwk = key.export({ format: 'jwk' });
    if (jwk.kty === 'EC') return ab(Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x, 'base64url'), Buffer.from(jwk.y, 'base64url')]));
    return fromB64u(jwk.x);
  },
  keyGenerate(type, params) {
    const options = {};
    if (params.modulusLength !== undefined) options.modulusLength = params.modulusLength;
    if (params.publicExponent !== undefined) options.publicExponent = Number(`0x${bytes(params.publicExponent).toString('hex') || '0'}`);
    for (const k of ['namedCurve', 'hashAlgorithm', 'mgf1HashAlgorithm', 'saltLength']) if (params[k] !== undefined) options[k] = params[k];
    return ab(crypto.generateKeyPairSync(type, options).privateKey.export({ type: 'pkcs8', format: 'der' }));
  },
  sign(der, data, { hash, padding, saltLength, p1363 }) {
    return ab(crypto.sign(hash || null, bytes(data), { key: checked(privateKey(der)), padding, saltLength, dsaEncoding: p1363 ? 'ieee-p1363' : 'der' }));
  },
  verify(kind, der, data, signature, { hash, padding, saltLength, p1363 }) {
    const key = checked(publicKey(kind, der));
    return crypto.verify(hash || null, bytes(data), { key, padding, saltLength, dsaEncoding: p1363 ? 'ieee-p1363' : 'der' }, bytes(signature));
  },
  rsaCipher(operation, kind, der, data, { padding, hash, label }) {
    const key = operation.startsWith('private') ? privateKey(der) : publicKey(kind, der);
    return ab(crypto[operation]({ key, padding, oaepHash: hash, oaepLabel: label && bytes(label) }, bytes(data)));
  },
  deriveSecret(pkcs8, publicKind, publicDer) {
    return ab(crypto.diffieHellman({ privateKey: privateKey(pkcs8), publicKey: publicKey(publicKind, publicDer) }));
  },
  ecGenerate(curve) {
    const ecdh = crypto.createECDH(curve);
    ecdh.generateKeys();
    const scalar = Buffer.alloc(fieldLength(curve));
    const raw = ecdh.getPrivateKey();
    raw.copy(scalar, scalar.length - raw.length);
    return [ab(scalar), ab(ecdh.getPublicKey())];
  },
  ecPoint(curve, input, fromScalar, format) {
    if (!fromScalar) return ab(crypto.ECDH.convertKey(bytes(input), curve, null, null, format));
    const ecdh = crypto.createECDH(curve);
    ecdh.setPrivateKey(bytes(input));
    return ab(ecdh.getPublicKey(null, format));
  },
  ecdh(curve, scalar, peer) {
    const ecdh = crypto.createECDH(curve);
    ecdh.setPrivateKey(bytes(scalar));
    return ab(ecdh.computeSecret(bytes(peer)));
  },
  hkdf(hash, ikm, salt, info, length) {
    return crypto.hkdfSync(hash, bytes(ikm), bytes(salt), bytes(info), length);
  },
  x509Parse(data) {
    const c = new crypto.X509Certificate(bytes(data));
    return {
      subject: c.subject, issuer: c.issuer, validFrom: c.validFrom, validTo: c.validTo,
      validFromISO: new Date(c.validFrom).toISOString().replace('.000', ''), validToISO: new Date(c.validTo).toISOString().replace('.000', ''),
      serialNumber: c.serialNumber, spki: ab(c.publicKey.export({ type: 'spki', format: 'der' })), ca: c.ca,
      subjectAltName: c.subjectAltName, keyUsage: c.keyUsage, signatureAlgorithmOid: signatureOid(c.raw), der: ab(c.raw),
    };
  },
  x509Verify(der, kind, keyDer) {
    return new crypto.X509Certificate(bytes(der)).verify(publicKey(kind, keyDer));
  },
  aesKw(key, data, unwrap) {
    const name = `id-aes${key.length * 8}-wrap`;
    const iv = Buffer.from('A6A6A6A6A6A6A6A6', 'hex');
    const c = unwrap ? crypto.createDecipheriv(name, bytes(key), iv) : crypto.createCipheriv(name, bytes(key), iv);
    return ab(Buffer.concat([c.update(bytes(data)), c.final()]));
  },
};

module.exports = Object.fromEntries(Object.entries(functions).map(([name, fn]) => [name, guarded(fn)]));
module.exports.keyFunctionNames = Object.keys(functions);
