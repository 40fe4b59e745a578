'use strict';
// KeyObject and the key inputs node:crypto takes everywhere (PEM or DER
// strings and buffers, `{ key, format, type, passphrase }`, JWK, KeyObject,
// CryptoKey), after lib/internal/crypto/keys.js. The engine parses and
// encodes the keys (PKCS#8, SPKI, PKCS#1, SEC1, JWK); a KeyObject holds a
// secret key's bytes, or an asymmetric key as canonical DER (PKCS#8 for
// private keys, SPKI for public ones), which the engine takes back for
// every operation.

const { Buffer } = require('buffer');
const { nodeError, invalidArgType } = require('../errors');
const {
  callNative, kKeyObject, kCryptoKey, kState, isArrayBufferLike, bufferOrView, isStringOrBuffer,
  validateObject, validateOneOf, invalidArgValue,
} = require('./util');

// Where a key input is used (Node's contexts): consuming a public or a
// private key, or creating one.
const kConsumePublic = 0;
const kConsumePrivate = 1;
const kCreatePublic = 2;
const kCreatePrivate = 3;

const kInternal = Symbol('shoal.crypto.internal');

function invalidKeyObjectType(actual, expected) {
  return nodeError(TypeError, 'ERR_CRYPTO_INVALID_KEY_OBJECT_TYPE', `Invalid key object type ${actual}, expected ${expected}.`);
}

function incompatibleKeyOptions(encoding, reason) {
  return nodeError(Error, 'ERR_CRYPTO_INCOMPATIBLE_KEY_OPTIONS', `The selected key encoding ${encoding} ${reason}.`);
}

// A key as the engine knows it: `{ type, bytes }` for secret keys,
// `{ type, asymmetricKeyType, der }` for the others.
function handle(type, fields) {
  return { type, ...fields };
}

function asymmetricHandle(kind, result) {
  return handle(kind, { asymmetricKeyType: result[0], der: new Uint8Array(result[1]) });
}

// ---------------------------------------------------------------- KeyObject

class KeyObject {
  constructor(type, keyHandle) {
    if (type !== 'secret' && type !== 'public' && type !== 'private') throw invalidArgValue('type', type);
    if (keyHandle === null || typeof keyHandle !== 'object' || keyHandle[kInternal] !== true) {
      throw invalidArgType('handle', 'object', keyHandle);
    }
    Object.defineProperty(this, kState, { value: keyHandle });
    Object.defineProperty(this, kKeyObject, { value: true });
  }

  get type() {
    return this[kState].type;
  }

  static from(key) {
    if (!key || !key[kCryptoKey]) throw invalidArgType('key', 'CryptoKey', key);
    return key[kState].keyObject;
  }

  equals(otherKeyObject) {
    if (!isKeyObject(otherKeyObject)) throw invalidArgType('otherKeyObject', 'KeyObject', otherKeyObject);
    const a = this[kState];
    const b = otherKeyObject[kState];
    if (a.type !== b.type) return false;
    const x = a.type === 'secret' ? a.bytes : a.der;
    const y = b.type === 'secret' ? b.bytes : b.der;
    if (x.length !== y.length) return false;
    let diff = 0;
    for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
    return diff === 0;
  }
}
Object.defineProperty(KeyObject.prototype, Symbol.toStringTag, { value: 'KeyObject', configurable: true });

function makeHandle(fields) {
  Object.defineProperty(fields, kInternal, { value: true });
  return fields;
}

class SecretKeyObject extends KeyObject {
  constructor(keyHandle) {
    super('secret', keyHandle);
  }

  get symmetricKeySize() {
    return this[kState].bytes.length;
  }

  get asymmetricKeyType() {
    return undefined;
  }

  export(options) {
    if (options !== undefined) {
      validateObject(options, 'options');
      validateOneOf(options.format, 'options.format', [undefined, 'buffer', 'jwk']);
      if (options.format === 'jwk') return { kty: 'oct', k: Buffer.from(this[kState].bytes).toString('base64url') };
    }
    return Buffer.from(this[kState].bytes);
  }
}

class AsymmetricKeyObject extends KeyObject {
  get asymmetricKeyType() {
    return this[kState].asymmetricKeyType;
  }

  get asymmetricKeyDetails() {
    const st = this[kState];
    if (!['rsa', 'rsa-pss', 'ec'].includes(st.asymmetricKeyType)) return {};
    if (!st.details) st.details = keyDetails(st);
    return st.details;
  }

  get symmetricKeySize() {
    return undefined;
  }
}

class PublicKeyObject extends AsymmetricKeyObject {
  constructor(keyHandle) {
    super('public', keyHandle);
  }

  export(options) {
    if (options && options.format === 'jwk') return exportJwk(this[kState]);
    const { format, type } = parseKeyEncoding(options, this.asymmetricKeyType, true);
    return exportDer(this[kState], format, type);
  }
}

class PrivateKeyObject extends AsymmetricKeyObject {
  constructor(keyHandle) {
    super('private', keyHandle);
  }

  export(options) {
    if (options && options.format === 'jwk') {
      if (options.passphrase !== undefined) throw incompatibleKeyOptions('jwk', 'does not support encryption');
      return exportJwk(this[kState]);
    }
    const { format, type, cipher, passphrase } = parseKeyEncoding(options, this.asymmetricKeyType, false);
    return exportDer(this[kState], format, type, cipher, passphrase);
  }
}

function keyObjectFor(h) {
  makeHandle(h);
  if (h.type === 'secret') return new SecretKeyObject(h);
  return h.type === 'public' ? new PublicKeyObject(h) : new PrivateKeyObject(h);
}

function isKeyObject(v) {
  return v !== null && typeof v === 'object' && v[kKeyObject] === true;
}

function isCryptoKey(v) {
  return v !== null && typeof v === 'object' && v[kCryptoKey] === true;
}

// ---------------------------------------------------------------- details and export

function keyDetails(st) {
  const d = callNative('keyDetails', st.type, st.der);
  const out = {};
  if (d.modulusLength !== undefined) out.modulusLength = d.modulusLength;
  if (d.publicExponent !== undefined) {
    let e = 0n;
    for (const b of new Uint8Array(d.publicExponent)) e = (e << 8n) | BigInt(b);
    out.publicExponent = e;
  }
  for (const k of ['hashAlgorithm', 'mgf1HashAlgorithm', 'saltLength', 'namedCurve']) if (d[k] !== undefined) out[k] = d[k];
  return out;
}

const jwkOrder = {
  RSA: ['kty', 'n', 'e', 'd', 'p', 'q', 'dp', 'dq', 'qi'],
  EC: ['kty', 'x', 'y', 'crv', 'd'],
  OKP: ['crv', 'd', 'x', 'kty'],
};

function exportJwk(st) {
  const fields = callNative('keyToJwk', st.type, st.der);
  const out = {};
  for (const k of jwkOrder[fields.kty]) {
    const v = fields[k];
    if (v === undefined) continue;
    out[k] = typeof v === 'string' ? v : Buffer.from(v).toString('base64url');
  }
  return out;
}

// The ciphers OpenSSL encrypts keys with that Shoal's engine does not.
const otherCiphers = /^(des|bf|cast|camellia|aria|sm4|idea|seed|rc2|rc4|chacha|aes-?(128|192|256)-(ecb|cfb|ofb|ctr|gcm|ccm|ocb|xts|wrap))/i;

function exportDer(st, format, type, cipher, passphrase) {
  if (cipher != null && !/^aes-?(128|192|256)(-cbc)?$/i.test(cipher)) {
    if (otherCiphers.test(cipher)) {
      throw nodeError(Error, 'ERR_NOT_AVAILABLE_IN_SHOAL', `Encrypting keys with ${cipher} is not available in Shoal's JavaScript engine (use aes-128-cbc, aes-192-cbc or aes-256-cbc)`);
    }
    throw nodeError(Error, 'ERR_CRYPTO_UNKNOWN_CIPHER', 'Unknown cipher');
  }
  const canonicalCipher = cipher == null ? undefined : cipher.toLowerCase().replace(/^aes-?(\d+)(-cbc)?$/, 'aes-$1-cbc');
  const out = callNative('keyExport', st.type, st.der, type, format === 'pem', canonicalCipher, passphrase);
  return format === 'pem' ? Buffer.from(out).toString('utf8') : Buffer.from(out);
}

// ---------------------------------------------------------------- encodings
// Node's parseKeyEncoding: `{ format, type, cipher, passphrase }` checked
// against the key type (export) or defaulted (import).

function option(name, prefix) {
  return prefix === undefined ? `options.${name}` : `${prefix}.${name}`;
}

function parseKeyFormat(format, defaultFormat, optionName) {
  if (format === undefined && defaultFormat !== undefined) return defaultFormat;
  if (format === 'pem' || format === 'der' || format === 'jwk') return format;
  throw invalidArgValue(optionName, format);
}

function parseKeyType(type, required, keyType, isPublic, optionName) {
  if (type === undefined && !required) return undefined;
  if (type === 'pkcs1') {
    if (keyType !== undefined && keyType !== 'rsa') throw incompatibleKeyOptions(type, 'can only be used for RSA keys');
    return type;
  }
  if (type === 'spki' && isPublic !== false) return type;
  if (type === 'pkcs8' && isPublic !== true) return type;
  if (type === 'sec1' && isPublic !== true) {
    if (keyType !== undefined && keyType !== 'ec') throw incompatibleKeyOptions(type, 'can only be used for EC keys');
    return type;
  }
  throw invalidArgValue(optionName, type);
}

// keyType undefined: an input encoding; else the type of the key exported.
function parseKeyEncoding(enc, keyType, isPublic, objName) {
  validateObject(enc, 'options');
  const isInput = keyType === undefined;
  const format = parseKeyFormat(enc.format, isInput ? 'pem' : undefined, option('format', objName));
  const required = (!isInput || format === 'der') && format !== 'jwk';
  const type = parseKeyType(enc.type, required, keyType, isPublic, option('type', objName));
  let cipher;
  let passphrase;
  if (isPublic !== true) {
    ({ cipher, passphrase } = enc);
    if (!isInput) {
      if (cipher != null) {
        if (typeof cipher !== 'string') throw invalidArgValue(option('cipher', objName), cipher);
        if (format === 'der' && (type === 'pkcs1' || type === 'sec1')) throw incompatibleKeyOptions(type, 'does not support encryption');
      } else if (passphrase !== undefined) {
        throw invalidArgValue(option('cipher', objName), cipher, 'is required when a passphrase is specified');
      }
    }
    if ((isInput && passphrase !== undefined && !isStringOrBuffer(passphrase)) ||
        (!isInput && cipher != null && !isStringOrBuffer(passphrase))) {
      throw invalidArgValue(option('passphrase', objName), passphrase);
    }
  }
  if (passphrase !== undefined) passphrase = Uint8Array.from(bufferOrView(passphrase, 'key.passphrase', enc.encoding));
  return { format, type, cipher, passphrase };
}

// ---------------------------------------------------------------- key inputs

// What a key argument may be, for ERR_INVALID_ARG_TYPE (Node 24 also
// takes a URL naming a private key in an OpenSSL store; Shoal lists it but
// has no store).
function keyTypes({ allowKeyObject, allowURL = false, bufferOnly = false }) {
  const types = ['ArrayBuffer', 'Buffer', 'TypedArray', 'DataView'];
  if (bufferOnly) return types;
  return [...types, 'string', ...(allowKeyObject ? ['KeyObject', 'CryptoKey'] : []), ...(allowURL ? ['URL'] : [])];
}

function handleOfKeyObject(key, ctx) {
  if (ctx === kCreatePrivate) throw invalidArgType('key', keyTypes({ allowKeyObject: false, allowURL: true }), key);
  const st = key[kState];
  if (st.type !== 'private') {
    if (ctx === kConsumePrivate || ctx === kCreatePublic) throw invalidKeyObjectType(st.type, 'private');
    if (st.type !== 'public') throw invalidKeyObjectType(st.type, 'private or public');
  }
  return st;
}

const b64 = (v) => Uint8Array.from(Buffer.from(v, 'base64'));

// A JWK input to the engine's key; the engine checks it as Node 24 does
// (ERR_CRYPTO_INVALID_JWK "Invalid JWK EC key" and the like).
function handleFromJwk(jwk, ctx) {
  const isPublic = ctx === kConsumePublic || ctx === kCreatePublic;
  const kind = isPublic ? 'public' : 'private';
  const fields = { kty: typeof jwk.kty === 'string' ? jwk.kty : '' };
  if (typeof jwk.crv === 'string') fields.crv = jwk.crv;
  if ((jwk.crv === 'Ed448' || jwk.crv === 'X448') && jwk.kty === 'OKP') {
    throw nodeError(Error, 'ERR_NOT_AVAILABLE_IN_SHOAL', `${jwk.crv} keys are not available in Shoal's JavaScript engine`);
  }
  const members = isPublic ? ['n', 'e', 'x', 'y'] : ['n', 'e', 'd', 'p', 'q', 'dp', 'dq', 'qi', 'x', 'y'];
  for (const m of members) if (typeof jwk[m] === 'string') fields[m] = b64(jwk[m]);
  return asymmetricHandle(kind, callNative('keyFromJwk', kind, fields));
}

// Node's prepareAsymmetricKey: what a key input is, without parsing it yet.
// Returns `{ handle }` for key objects and JWK, or `{ data, format, type,
// passphrase }` for PEM and DER.
function prepareAsymmetricKey(key, ctx, name = 'key') {
  const isPrivateInput = ctx === kConsumePrivate || ctx === kCreatePrivate;
  const types = () => keyTypes({ allowKeyObject: ctx !== kCreatePrivate, allowURL: isPrivateInput });
  if (isKeyObject(key)) return { handle: handleOfKeyObject(key, ctx) };
  if (isCryptoKey(key)) return { handle: handleOfKeyObject(key[kState].keyObject, ctx) };
  if (isStringOrBuffer(key)) return { format: 'pem', data: bufferOrView(key, name) };
  if (key !== null && typeof key === 'object') {
    const { key: data, encoding, format } = key;
    if (isKeyObject(data)) return { handle: handleOfKeyObject(data, ctx) };
    if (isCryptoKey(data)) return { handle: handleOfKeyObject(data[kState].keyObject, ctx) };
    if (format === 'jwk') {
      validateObject(data, `${name}.key`);
      return { jwk: data };
    }
    if (!isStringOrBuffer(data)) throw invalidArgType(`${name}.key`, types(), data);
    return { data: bufferOrView(data, `${name}.key`, encoding), ...parseKeyEncoding(key, undefined, isPrivateInput ? false : undefined, name) };
  }
  throw invalidArgType(name, types(), key);
}

// The engine's key of `kind` for a prepared input: parses PEM, DER or JWK
// (Node does this in its job, after the checks above).
function resolveKey(prepared, ctx) {
  if (prepared.handle) return prepared.handle;
  if (prepared.jwk) return handleFromJwk(prepared.jwk, ctx);
  const kind = ctx === kConsumePrivate || ctx === kCreatePrivate ? 'private' : 'public';
  const derType = prepared.format === 'der' ? prepared.type : '';
  return asymmetricHandle(kind, callNative('keyParse', Uint8Array.from(prepared.data), kind, derType, prepared.passphrase));
}

function publicOf(h) {
  if (h.type === 'public') return h;
  return handle('public', { asymmetricKeyType: h.asymmetricKeyType, der: new Uint8Array(callNative('keyPublic', h.der)) });
}

// The private key a signing or decrypting call was given (`name`: the
// argument's name in errors).
function preparePrivateKey(key, name) {
  return resolveKey(prepareAsymmetricKey(key, kConsumePrivate, name), kConsumePrivate);
}

// The key a verifying or encrypting call was given: a public key, or a
// private key (whose public half is used, as in Node).
function preparePublicOrPrivateKey(key, name) {
  return resolveKey(prepareAsymmetricKey(key, kConsumePublic, name), kConsumePublic);
}

function createPublicKey(key) {
  const p = prepareAsymmetricKey(key, kCreatePublic);
  const h = resolveKey(p, kCreatePublic);
  return keyObjectFor({ ...publicOf(h) });
}

function createPrivateKey(key) {
  const h = resolveKey(prepareAsymmetricKey(key, kCreatePrivate), kCreatePrivate);
  return keyObjectFor({ ...h });
}

// Node's prepareSecretKey: the bytes of an HMAC or cipher key.
function prepareSecretKey(key, encoding, bufferOnly = false) {
  if (!bufferOnly) {
    if (isKeyObject(key) || isCryptoKey(key)) {
      const st = isKeyObject(key) ? key[kState] : key[kState].keyObject[kState];
      if (st.type !== 'secret') throw invalidKeyObjectType(st.type, 'secret');
      return st.bytes;
    }
  }
  if (typeof key !== 'string' && !ArrayBuffer.isView(key) && !isArrayBufferLike(key)) {
    throw invalidArgType('key', keyTypes({ allowKeyObject: !bufferOnly, bufferOnly }), key);
  }
  return bufferOrView(key, 'key', encoding);
}

function createSecretKey(key, encoding) {
  const bytes = Uint8Array.from(prepareSecretKey(key, encoding, true));
  return keyObjectFor(handle('secret', { bytes }));
}

// A KeyObject from the engine's results (key generation, Web Crypto).
function privateKeyObject(asymmetricKeyType, pkcs8) {
  return keyObjectFor(handle('private', { asymmetricKeyType, der: new Uint8Array(pkcs8) }));
}

function publicKeyObject(asymmetricKeyType, spki) {
  return keyObjectFor(handle('public', { asymmetricKeyType, der: new Uint8Array(spki) }));
}

function secretKeyObject(bytes) {
  return keyObjectFor(handle('secret', { bytes: Uint8Array.from(bytes) }));
}

module.exports = {
  KeyObject,
  SecretKeyObject,
  PublicKeyObject,
  PrivateKeyObject,
  createPublicKey,
  createPrivateKey,
  createSecretKey,
  isKeyObject,
  isCryptoKey,
  parseKeyEncoding,
  preparePrivateKey,
  preparePublicOrPrivateKey,
  prepareSecretKey,
  publicOf,
  privateKeyObject,
  publicKeyObject,
  secretKeyObject,
  keyDetails,
  exportJwk,
  exportDer,
};
