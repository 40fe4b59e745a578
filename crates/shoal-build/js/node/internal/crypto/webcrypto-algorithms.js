'use strict';
// The Web Crypto algorithms: normalizing their parameters, and generating,
// importing, exporting and using their keys, after Node 24's
// lib/internal/crypto/{util,rsa,ec,cfrg,mac,aes,hkdf,pbkdf2}.js. A
// CryptoKey wraps a KeyObject (keys.js); the engine does the work.

const { Buffer } = require('buffer');
const { DOMException } = require('../dom-exception');
const { nodeError } = require('../errors');
const { concatBytes } = require('../bytes');
const { callNative, kState, kCryptoKey, isArrayBufferLike, viewBytes, blockSizes } = require('./util');
const native = require('../native');
const { privateKeyObject, publicKeyObject, secretKeyObject, publicOf, exportJwk } = require('./keys');

const domError = (message, name) => new DOMException(message, name);
const operationError = () => domError('The operation failed for an operation-specific reason', 'OperationError');

// ---------------------------------------------------------------- normalizing

const algorithmNames = [
  'SHA-1', 'SHA-256', 'SHA-384', 'SHA-512', 'RSASSA-PKCS1-v1_5', 'RSA-PSS', 'RSA-OAEP', 'ECDSA', 'ECDH', 'Ed25519',
  'X25519', 'HMAC', 'AES-CTR', 'AES-CBC', 'AES-GCM', 'AES-KW', 'HKDF', 'PBKDF2',
];
const canonicalNames = {};
for (const n of algorithmNames) canonicalNames[n.toUpperCase()] = n;

const rsa = ['RSASSA-PKCS1-v1_5', 'RSA-PSS', 'RSA-OAEP'];
const aes = ['AES-CTR', 'AES-CBC', 'AES-GCM', 'AES-KW'];
const each = (names, dict) => Object.fromEntries(names.map((n) => [n, dict]));

// For each operation, the algorithms it takes and their parameter dictionary.
const operations = {
  digest: each(['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512'], null),
  generateKey: {
    ...each(rsa, 'RsaHashedKeyGenParams'), ECDSA: 'EcKeyGenParams', ECDH: 'EcKeyGenParams', Ed25519: null, X25519: null,
    HMAC: 'HmacKeyGenParams', ...each(aes, 'AesKeyGenParams'),
  },
  importKey: {
    ...each(rsa, 'RsaHashedImportParams'), ECDSA: 'EcKeyImportParams', ECDH: 'EcKeyImportParams', Ed25519: null, X25519: null,
    HMAC: 'HmacImportParams', ...each(aes, null), HKDF: null, PBKDF2: null,
  },
  sign: { 'RSASSA-PKCS1-v1_5': null, 'RSA-PSS': 'RsaPssParams', ECDSA: 'EcdsaParams', Ed25519: null, HMAC: null },
  encrypt: { 'RSA-OAEP': 'RsaOaepParams', 'AES-CTR': 'AesCtrParams', 'AES-CBC': 'AesCbcParams', 'AES-GCM': 'AesGcmParams' },
  deriveBits: { ECDH: 'EcdhKeyDeriveParams', X25519: 'EcdhKeyDeriveParams', HKDF: 'HkdfParams', PBKDF2: 'Pbkdf2Params' },
  wrapKey: { 'AES-KW': null },
  'get key length': { ...each(aes, 'AesDerivedKeyParams'), HMAC: 'HmacImportParams', HKDF: null, PBKDF2: null },
};
operations.verify = operations.sign;
operations.decrypt = operations.encrypt;
operations.unwrapKey = operations.wrapKey;

// [member, type, required]
const dictionaries = {
  RsaHashedKeyGenParams: [['modulusLength', 'number', true], ['publicExponent', 'bytes', true], ['hash', 'hash', true]],
  RsaHashedImportParams: [['hash', 'hash', true]],
  EcKeyGenParams: [['namedCurve', 'string', true]],
  EcKeyImportParams: [['namedCurve', 'string', true]],
  HmacKeyGenParams: [['hash', 'hash', true], ['length', 'number', false]],
  HmacImportParams: [['hash', 'hash', true], ['length', 'number', false]],
  AesKeyGenParams: [['length', 'number', true]],
  AesDerivedKeyParams: [['length', 'number', true]],
  RsaPssParams: [['saltLength', 'number', true]],
  EcdsaParams: [['hash', 'hash', true]],
  RsaOaepParams: [['label', 'bytes', false]],
  AesCtrParams: [['counter', 'bytes', true], ['length', 'number', true]],
  AesCbcParams: [['iv', 'bytes', true]],
  AesGcmParams: [['iv', 'bytes', true], ['additionalData', 'bytes', false], ['tagLength', 'number', false]],
  EcdhKeyDeriveParams: [['public', 'key', true]],
  HkdfParams: [['hash', 'hash', true], ['salt', 'bytes', true], ['info', 'bytes', true]],
  Pbkdf2Params: [['hash', 'hash', true], ['salt', 'bytes', true], ['iterations', 'number', true]],
};

function convertMember(value, type, dict, member) {
  switch (type) {
    case 'number':
      return Number(value);
    case 'string':
      return String(value);
    case 'hash':
      return { name: normalize(value, 'digest').name };
    case 'key':
      if (value === null || typeof value !== 'object' || value[kCryptoKey] !== true) {
        throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `Failed to normalize algorithm: '${member}' of '${dict}' is not of type CryptoKey.`);
      }
      return value;
    default:
      if (ArrayBuffer.isView(value)) return viewBytes(value).slice();
      if (isArrayBufferLike(value)) return new Uint8Array(value.slice(0));
      throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE',
        `Failed to normalize algorithm: '${member}' of '${dict}' is not instance of ArrayBuffer, Buffer, TypedArray, or DataView.`);
  }
}

// Web Crypto's "normalize an algorithm" for `operation`.
function normalize(algorithm, operation) {
  if (typeof algorithm === 'string') algorithm = { name: algorithm };
  if (algorithm === null || typeof algorithm !== 'object') {
    throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'Failed to normalize algorithm: algorithm is not of type object.');
  }
  if (algorithm.name === undefined) {
    throw nodeError(TypeError, 'ERR_MISSING_OPTION', "Failed to normalize algorithm: 'name' is required in 'Algorithm'.");
  }
  const table = operations[operation];
  const name = canonicalNames[String(algorithm.name).toUpperCase()];
  if (!name || !Object.prototype.hasOwnProperty.call(table, name)) throw domError('Unrecognized algorithm name', 'NotSupportedError');
  const dict = table[name];
  const out = { name };
  for (const [member, type, required] of dict ? dictionaries[dict] : []) {
    const value = algorithm[member];
    if (value === undefined) {
      if (required) {
        throw nodeError(TypeError, 'ERR_MISSING_OPTION',
          `Failed to normalize algorithm: passed algorithm cannot be converted to '${dict}' because '${member}' is required in '${dict}'.`);
      }
      continue;
    }
    out[member] = convertMember(value, type, dict, member);
  }
  if (dict === 'EcdhKeyDeriveParams') {
    if (out.public.type !== 'public') throw domError('algorithm.public must be a public key', 'InvalidAccessError');
    if (out.public.algorithm.name.toLowerCase() !== name.toLowerCase()) throw domError('key algorithm mismatch', 'InvalidAccessError');
  }
  return out;
}

// Web Crypto's wrapKey/unwrapKey take the key-wrapping algorithms and the
// ciphers.
function normalizeForWrap(algorithm, operation) {
  try {
    return normalize(algorithm, operation);
  } catch {
    return normalize(algorithm, operation === 'wrapKey' ? 'encrypt' : 'decrypt');
  }
}

function engineHash(name) {
  return { 'SHA-1': 'sha1', 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' }[name];
}

// ---------------------------------------------------------------- usages

// Which usages each key type of an algorithm takes.
const usageSets = {
  'RSASSA-PKCS1-v1_5': { public: ['verify'], private: ['sign'] },
  'RSA-PSS': { public: ['verify'], private: ['sign'] },
  'RSA-OAEP': { public: ['encrypt', 'wrapKey'], private: ['decrypt', 'unwrapKey'] },
  ECDSA: { public: ['verify'], private: ['sign'] },
  Ed25519: { public: ['verify'], private: ['sign'] },
  ECDH: { public: [], private: ['deriveKey', 'deriveBits'] },
  X25519: { public: [], private: ['deriveKey', 'deriveBits'] },
  HMAC: { secret: ['sign', 'verify'] },
  'AES-CTR': { secret: ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey'] },
  'AES-CBC': { secret: ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey'] },
  'AES-GCM': { secret: ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey'] },
  'AES-KW': { secret: ['wrapKey', 'unwrapKey'] },
  HKDF: { secret: ['deriveKey', 'deriveBits'] },
  PBKDF2: { secret: ['deriveKey', 'deriveBits'] },
};

function checkUsages(name, usages, allowed) {
  for (const u of usages) {
    if (!allowed.includes(u)) throw domError(`Unsupported key usage for ${name} key`, 'SyntaxError');
  }
}

// ---------------------------------------------------------------- keys

const namedCurves = { 'P-256': 'prime256v1', 'P-384': 'secp384r1', 'P-521': 'secp521r1' };

function stateOf(key) {
  return key[kState].keyObject[kState];
}

function asymmetricPair(type, pkcs8, algorithm, extractable, usages, makeKey) {
  const sets = usageSets[algorithm.name];
  checkUsages(algorithm.name, usages, [...sets.public, ...sets.private]);
  const privateUsages = usages.filter((u) => sets.private.includes(u));
  if (privateUsages.length === 0) throw domError('Usages cannot be empty when creating a key.', 'SyntaxError');
  const privateKey = privateKeyObject(type, pkcs8);
  const pub = publicOf(privateKey[kState]);
  return {
    // A public key is always extractable.
    publicKey: makeKey(publicKeyObject(type, pub.der), algorithm, usages.filter((u) => sets.public.includes(u)), true),
    privateKey: makeKey(privateKey, algorithm, privateUsages, extractable),
  };
}

function generate(type, params) {
  try {
    return callNative('keyGenerate', type, params);
  } catch (err) {
    throw new DOMException('The operation failed for an operation-specific reason', { name: 'OperationError', cause: err });
  }
}

function generateKey(algorithm, extractable, usages, makeKey) {
  const { name } = algorithm;
  switch (name) {
    case 'RSASSA-PKCS1-v1_5':
    case 'RSA-PSS':
    case 'RSA-OAEP': {
      checkUsages(name, usages, [...usageSets[name].public, ...usageSets[name].private]);
      const exponent = algorithm.publicExponent;
      let e = 0;
      for (const b of exponent) e = e * 256 + b;
      if (e > 0xffffffff) throw domError('The publicExponent must be equivalent to an unsigned 32-bit value', 'OperationError');
      const pkcs8 = generate('rsa', { modulusLength: algorithm.modulusLength, publicExponent: exponent });
      const keyAlgorithm = { name, modulusLength: algorithm.modulusLength, publicExponent: Uint8Array.from(exponent), hash: algorithm.hash };
      return asymmetricPair('rsa', pkcs8, keyAlgorithm, extractable, usages, makeKey);
    }
    case 'ECDSA':
    case 'ECDH': {
      checkUsages(name, usages, [...usageSets[name].public, ...usageSets[name].private]);
      const curve = namedCurves[algorithm.namedCurve];
      if (!curve) throw domError('Unrecognized namedCurve', 'NotSupportedError');
      const pkcs8 = generate('ec', { namedCurve: curve });
      return asymmetricPair('ec', pkcs8, { name, namedCurve: algorithm.namedCurve }, extractable, usages, makeKey);
    }
    case 'Ed25519':
    case 'X25519': {
      checkUsages(name, usages, [...usageSets[name].public, ...usageSets[name].private]);
      const type = name.toLowerCase();
      return asymmetricPair(type, generate(type, {}), { name }, extractable, usages, makeKey);
    }
    case 'HMAC': {
      checkUsages(name, usages, usageSets.HMAC.secret);
      if (usages.length === 0) throw domError('Usages cannot be empty when creating a key.', 'SyntaxError');
      const length = algorithm.length === undefined ? blockSizes[engineHash(algorithm.hash.name)] * 8 : algorithm.length;
      if (length === 0) throw domError('HmacKeyGenParams.length cannot be 0', 'OperationError');
      const bytes = new Uint8Array(native.randomBytes(Math.ceil(length / 8)));
      return makeKey(secretKeyObject(bytes), { name, length, hash: algorithm.hash }, usages, extractable);
    }
    default: {
      checkUsages(name, usages, usageSets[name].secret);
      if (usages.length === 0) throw domError('Usages cannot be empty when creating a key.', 'SyntaxError');
      const { length } = algorithm;
      if (length !== 128 && length !== 192 && length !== 256) throw domError('Invalid key length', 'OperationError');
      const bytes = new Uint8Array(native.randomBytes(length / 8));
      return makeKey(secretKeyObject(bytes), { name, length }, usages, extractable);
    }
  }
}

const jwkHashSuffix = { 'SHA-1': '1', 'SHA-256': '256', 'SHA-384': '384', 'SHA-512': '512' };

function jwkAlg(algorithm) {
  const suffix = algorithm.hash && jwkHashSuffix[algorithm.hash.name];
  switch (algorithm.name) {
    case 'RSASSA-PKCS1-v1_5': return `RS${suffix}`;
    case 'RSA-PSS': return `PS${suffix}`;
    case 'RSA-OAEP': return suffix === '1' ? 'RSA-OAEP' : `RSA-OAEP-${suffix}`;
    case 'HMAC': return `HS${suffix}`;
    case 'Ed25519': return 'Ed25519';
    case 'AES-CTR':
    case 'AES-CBC':
    case 'AES-GCM':
    case 'AES-KW':
      return `A${algorithm.length}${algorithm.name.slice(4)}`;
    default: return undefined;
  }
}

// Node's validateJwk: the JWK members every import checks.
function validateJwk(jwk, kty, extractable, usages, expectedUse) {
  if (typeof jwk.kty !== 'string') throw domError('Invalid keyData', 'DataError');
  if (jwk.kty !== kty) throw domError('Invalid JWK "kty" Parameter', 'DataError');
  const strings = { RSA: ['n', 'e'], EC: ['crv', 'x', 'y'], OKP: ['crv', 'x'], oct: ['k'] }[kty];
  if (strings.some((m) => typeof jwk[m] !== 'string') || (jwk.d !== undefined && typeof jwk.d !== 'string')) {
    throw domError('Invalid keyData', 'DataError');
  }
  if (kty === 'RSA' && typeof jwk.d === 'string' && ['p', 'q', 'dp', 'dq', 'qi'].some((m) => typeof jwk[m] !== 'string')) {
    throw domError('Invalid keyData', 'DataError');
  }
  if (usages.length > 0 && jwk.use !== undefined && jwk.use !== expectedUse) {
    throw domError('Invalid JWK "use" Parameter', 'DataError');
  }
  if (jwk.key_ops !== undefined) {
    if (!Array.isArray(jwk.key_ops)) {
      throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "keyData.key_ops" property must be an instance of Array.');
    }
    if (new Set(jwk.key_ops).size !== jwk.key_ops.length) throw domError('Duplicate key operation', 'DataError');
    if (usages.some((u) => !jwk.key_ops.includes(u))) throw domError('Key operations and usage mismatch', 'DataError');
  }
  if (jwk.ext === false && extractable === true) throw domError('JWK "ext" Parameter and extractable mismatch', 'DataError');
}

const b64 = (v) => Uint8Array.from(Buffer.from(v, 'base64'));

// A private or public key from spki, pkcs8, jwk or raw data, as the engine
// parses it; any failure is a DataError.
function parseAsymmetric(format, keyData, isPublic, rawType, rawCurve) {
  const kind = isPublic ? 'public' : 'private';
  try {
    if (format === 'raw') {
      const spki = callNative('keyFromRaw', rawType, rawCurve || '', keyData);
      return publicKeyObject(rawType, spki);
    }
    if (format === 'jwk') {
      const fields = {};
      for (const [k, v] of Object.entries(keyData)) {
        if (k === 'kty' || k === 'crv') fields[k] = v;
        else if (['n', 'e', 'd', 'p', 'q', 'dp', 'dq', 'qi', 'x', 'y'].includes(k) && typeof v === 'string') fields[k] = b64(v);
      }
      if (isPublic) for (const k of ['d', 'p', 'q', 'dp', 'dq', 'qi']) delete fields[k];
      const [type, der] = callNative('keyFromJwk', kind, fields);
      return isPublic ? publicKeyObject(type, der) : privateKeyObject(type, der);
    }
    const [type, der] = callNative('keyParse', keyData, kind, format, undefined);
    return isPublic ? publicKeyObject(type, der) : privateKeyObject(type, der);
  } catch (err) {
    throw new DOMException('Invalid keyData', { name: 'DataError', cause: err });
  }
}

function importKey(format, keyData, algorithm, extractable, usages, makeKey) {
  const { name } = algorithm;
  const sets = usageSets[name];
  switch (name) {
    case 'RSASSA-PKCS1-v1_5':
    case 'RSA-PSS':
    case 'RSA-OAEP': {
      let isPublic;
      if (format === 'spki') isPublic = true;
      else if (format === 'pkcs8') isPublic = false;
      else if (format === 'jwk') {
        validateJwk(keyData, 'RSA', extractable, usages, name === 'RSA-OAEP' ? 'enc' : 'sig');
        isPublic = keyData.d === undefined;
        if (keyData.alg !== undefined && keyData.alg !== jwkAlg(algorithm)) {
          throw domError('JWK "alg" does not match the requested algorithm', 'DataError');
        }
      } else {
        return undefined;
      }
      checkUsages(name, usages, isPublic ? sets.public : sets.private);
      const keyObject = parseAsymmetric(format, keyData, isPublic);
      if (keyObject.asymmetricKeyType !== 'rsa') throw domError('Invalid key type', 'DataError');
      const { modulusLength, publicExponent } = keyObject.asymmetricKeyDetails;
      const exponent = [];
      for (let e = publicExponent; e > 0n; e >>= 8n) exponent.unshift(Number(e & 0xffn));
      return makeKey(keyObject, { name, modulusLength, publicExponent: Uint8Array.from(exponent), hash: algorithm.hash }, usages, extractable);
    }
    case 'ECDSA':
    case 'ECDH': {
      const { namedCurve } = algorithm;
      if (!namedCurves[namedCurve]) throw domError('Unrecognized namedCurve', 'NotSupportedError');
      let isPublic;
      if (format === 'spki' || format === 'raw') isPublic = true;
      else if (format === 'pkcs8') isPublic = false;
      else if (format === 'jwk') {
        validateJwk(keyData, 'EC', extractable, usages, name === 'ECDH' ? 'enc' : 'sig');
        if (keyData.crv !== namedCurve) throw domError('JWK "crv" does not match the requested algorithm', 'DataError');
        if (name === 'ECDSA' && keyData.alg !== undefined &&
            { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' }[keyData.alg] !== namedCurve) {
          throw domError('JWK "alg" does not match the requested algorithm', 'DataError');
        }
        isPublic = keyData.d === undefined;
      } else {
        return undefined;
      }
      checkUsages(name, usages, isPublic ? sets.public : sets.private);
      const keyObject = parseAsymmetric(format, keyData, isPublic, 'ec', namedCurves[namedCurve]);
      if (keyObject.asymmetricKeyType !== 'ec') throw domError('Invalid key type', 'DataError');
      if (keyObject.asymmetricKeyDetails.namedCurve !== namedCurves[namedCurve]) throw domError('Named curve mismatch', 'DataError');
      return makeKey(keyObject, { name, namedCurve }, usages, extractable);
    }
    case 'Ed25519':
    case 'X25519': {
      let isPublic;
      if (format === 'spki' || format === 'raw') isPublic = true;
      else if (format === 'pkcs8') isPublic = false;
      else if (format === 'jwk') {
        validateJwk(keyData, 'OKP', extractable, usages, name === 'X25519' ? 'enc' : 'sig');
        if (keyData.crv !== name) throw domError('JWK "crv" Parameter and algorithm name mismatch', 'DataError');
        if (name === 'Ed25519' && keyData.alg !== undefined && keyData.alg !== 'Ed25519' && keyData.alg !== 'EdDSA') {
          throw domError('JWK "alg" does not match the requested algorithm', 'DataError');
        }
        isPublic = keyData.d === undefined;
      } else {
        return undefined;
      }
      checkUsages(name, usages, isPublic ? sets.public : sets.private);
      const keyObject = parseAsymmetric(format, keyData, isPublic, name.toLowerCase());
      if (keyObject.asymmetricKeyType !== name.toLowerCase()) throw domError('Invalid key type', 'DataError');
      return makeKey(keyObject, { name }, usages, extractable);
    }
    case 'HMAC': {
      checkUsages(name, usages, sets.secret);
      let bytes;
      if (format === 'raw') bytes = keyData;
      else if (format === 'jwk') {
        validateJwk(keyData, 'oct', extractable, usages, 'sig');
        if (keyData.alg !== undefined && keyData.alg !== jwkAlg(algorithm)) {
          throw domError('JWK "alg" does not match the requested algorithm', 'DataError');
        }
        bytes = b64(keyData.k);
      } else {
        return undefined;
      }
      if (bytes.length === 0) throw domError('Zero-length key is not supported', 'DataError');
      let length = bytes.length * 8;
      if (algorithm.length !== undefined) {
        if (Math.ceil(algorithm.length / 8) !== bytes.length) throw domError('Invalid key length', 'DataError');
        length = algorithm.length;
      }
      return makeKey(secretKeyObject(bytes), { name, length, hash: algorithm.hash }, usages, extractable);
    }
    case 'HKDF':
    case 'PBKDF2': {
      if (format !== 'raw') return undefined;
      if (extractable) throw domError(`${name} keys are not extractable`, 'SyntaxError');
      if (usages.some((u) => !sets.secret.includes(u))) throw domError(`Unsupported key usage for a ${name} key`, 'SyntaxError');
      return makeKey(secretKeyObject(keyData), { name }, usages, false);
    }
    default: {
      // AES
      checkUsages(name, usages, sets.secret);
      let bytes;
      if (format === 'raw') bytes = keyData;
      else if (format === 'jwk') {
        validateJwk(keyData, 'oct', extractable, usages, 'enc');
        bytes = b64(keyData.k);
      } else {
        return undefined;
      }
      const length = bytes.length * 8;
      if (length !== 128 && length !== 192 && length !== 256) throw domError('Invalid key length', 'DataError');
      if (format === 'jwk' && keyData.alg !== undefined && keyData.alg !== jwkAlg({ name, length })) {
        throw domError('JWK "alg" does not match the requested algorithm', 'DataError');
      }
      return makeKey(secretKeyObject(bytes), { name, length }, usages, extractable);
    }
  }
}

function exportKey(format, key) {
  const st = stateOf(key);
  const { name } = key.algorithm;
  switch (format) {
    case 'spki':
      if (key.type !== 'public' || st.type !== 'public') return undefined;
      return st.der.slice().buffer;
    case 'pkcs8':
      if (key.type !== 'private') return undefined;
      return st.der.slice().buffer;
    case 'raw':
      if (key.type === 'secret') return ['HKDF', 'PBKDF2'].includes(name) ? undefined : st.bytes.slice().buffer;
      if (key.type === 'public' && !rsa.includes(name)) return callNative('keyRaw', st.type, st.der);
      return undefined;
    default: {
      const jwk = { key_ops: key.usages, ext: key.extractable };
      const alg = name === 'ECDSA' || name === 'ECDH' || name === 'X25519' ? undefined : jwkAlg(key.algorithm);
      if (alg !== undefined) jwk.alg = alg;
      if (key.type === 'secret') {
        if (name === 'HKDF' || name === 'PBKDF2') return undefined;
        return { ...jwk, kty: 'oct', k: Buffer.from(st.bytes).toString('base64url') };
      }
      return { ...jwk, ...exportJwk(st) };
    }
  }
}

// ---------------------------------------------------------------- operations

function keyOfType(key, type) {
  if (key.type !== type) throw domError(`Key must be a ${type} key`, 'InvalidAccessError');
  return stateOf(key);
}

// The engine's signature options for an algorithm.
function signatureOptions(algorithm, key) {
  switch (algorithm.name) {
    case 'RSASSA-PKCS1-v1_5':
      return { hash: engineHash(key.algorithm.hash.name), padding: 1 };
    case 'RSA-PSS':
      return { hash: engineHash(key.algorithm.hash.name), padding: 6, saltLength: algorithm.saltLength };
    case 'ECDSA':
      return { hash: engineHash(algorithm.hash.name), p1363: true };
    default:
      return { hash: '' };
  }
}

function hmac(key, data) {
  return new Uint8Array(native.hmac(engineHash(key.algorithm.hash.name), stateOf(key).bytes, data));
}

function sign(algorithm, key, data) {
  if (algorithm.name === 'HMAC') return hmac(key, data).buffer;
  const st = keyOfType(key, 'private');
  try {
    return callNative('sign', st.der, data, signatureOptions(algorithm, key));
  } catch (err) {
    throw new DOMException('The operation failed for an operation-specific reason', { name: 'OperationError', cause: err });
  }
}

function verify(algorithm, key, signature, data) {
  if (algorithm.name === 'HMAC') {
    const expected = hmac(key, data);
    let diff = expected.length ^ signature.length;
    for (let i = 0; i < expected.length; i++) diff |= expected[i] ^ (signature[i] | 0);
    return diff === 0;
  }
  const st = keyOfType(key, 'public');
  try {
    return callNative('verify', st.type, st.der, data, signature, signatureOptions(algorithm, key));
  } catch (err) {
    throw new DOMException('The operation failed for an operation-specific reason', { name: 'OperationError', cause: err });
  }
}

const gcmTagLengths = [32, 64, 96, 104, 112, 120, 128];

// GCM's first counter block for a 96-bit IV: IV || 00000002.
function gcmCounter(iv) {
  const block = new Uint8Array(16);
  block.set(iv);
  block[15] = 2;
  return block;
}

function aesGcm(algorithm, keyBytes, data, decrypt) {
  const { iv, additionalData = new Uint8Array(0), tagLength = 128 } = algorithm;
  if (!gcmTagLengths.includes(tagLength)) throw domError(`${tagLength} is not a valid AES-GCM tag length`, 'OperationError');
  if (iv.length !== 12) {
    throw domError("Shoal's AES-GCM takes 12-byte IVs (as the GCM specification recommends)", 'OperationError');
  }
  const tagBytes = tagLength / 8;
  native.check('aesGcm');
  if (!decrypt) {
    const tag = new Uint8Array(native.aesGcm(keyBytes, iv, additionalData, data)).subarray(0, tagBytes);
    const ct = new Uint8Array(native.aesCtr(keyBytes, gcmCounter(iv), 0, data, true));
    return concatBytes([ct, tag]).slice().buffer;
  }
  if (data.length < tagBytes) throw operationError();
  const ct = data.subarray(0, data.length - tagBytes);
  const tag = data.subarray(data.length - tagBytes);
  if (tagBytes === 16) {
    try {
      return native.aesGcm(keyBytes, iv, additionalData, ct, tag);
    } catch {
      throw operationError();
    }
  }
  // A short tag: decrypt, then recompute the full tag from the plaintext
  // and compare its prefix.
  const plain = new Uint8Array(native.aesCtr(keyBytes, gcmCounter(iv), 0, ct, true));
  const full = new Uint8Array(native.aesGcm(keyBytes, iv, additionalData, plain));
  let diff = 0;
  for (let i = 0; i < tagBytes; i++) diff |= full[i] ^ tag[i];
  if (diff !== 0) throw operationError();
  return plain.buffer;
}

function aesCbc(algorithm, keyBytes, data, decrypt) {
  if (algorithm.iv.length !== 16) throw domError('algorithm.iv must contain exactly 16 bytes', 'OperationError');
  native.check('aesCbc');
  if (!decrypt) {
    const pad = 16 - (data.length % 16);
    const padded = concatBytes([data, new Uint8Array(pad).fill(pad)]);
    return native.aesCbc(keyBytes, algorithm.iv, padded, false);
  }
  if (data.length === 0 || data.length % 16 !== 0) throw operationError();
  const plain = new Uint8Array(native.aesCbc(keyBytes, algorithm.iv, data, true));
  const pad = plain[plain.length - 1];
  if (pad < 1 || pad > 16 || plain.subarray(plain.length - pad).some((b) => b !== pad)) throw operationError();
  return plain.slice(0, plain.length - pad).buffer;
}

// AES-CTR where only the low `length` bits of the counter block count: the
// counter wraps to zero within those bits (two engine calls when it does).
function aesCtr(algorithm, keyBytes, data) {
  const { counter, length } = algorithm;
  if (counter.length !== 16) throw domError('algorithm.counter must contain exactly 16 bytes', 'OperationError');
  if (!(length >= 1 && length <= 128)) throw domError('AES-CTR algorithm.length must be between 1 and 128', 'OperationError');
  let value = 0n;
  for (const b of counter) value = (value << 8n) | BigInt(b);
  const mask = (1n << BigInt(length)) - 1n;
  const blocks = BigInt(Math.ceil(data.length / 16));
  if (blocks > mask + 1n) throw operationError();
  native.check('aesCtr');
  const remaining = mask + 1n - (value & mask);
  if (blocks <= remaining) return native.aesCtr(keyBytes, counter, 0, data, false);
  const split = Number(remaining) * 16;
  const wrapped = value & ~mask;
  const wrappedBlock = new Uint8Array(16);
  for (let i = 15, v = wrapped; i >= 0; i--, v >>= 8n) wrappedBlock[i] = Number(v & 0xffn);
  const first = new Uint8Array(native.aesCtr(keyBytes, counter, 0, data.subarray(0, split), false));
  const second = new Uint8Array(native.aesCtr(keyBytes, wrappedBlock, 0, data.subarray(split), false));
  return concatBytes([first, second]).slice().buffer;
}

function cipher(algorithm, key, data, decrypt) {
  if (algorithm.name === 'RSA-OAEP') {
    const st = keyOfType(key, decrypt ? 'private' : 'public');
    const label = algorithm.label || new Uint8Array(0);
    try {
      return callNative('rsaCipher', decrypt ? 'privateDecrypt' : 'publicEncrypt', st.type, st.der, data,
        { padding: 4, hash: engineHash(key.algorithm.hash.name), label });
    } catch (err) {
      throw new DOMException('The operation failed for an operation-specific reason', { name: 'OperationError', cause: err });
    }
  }
  const keyBytes = stateOf(key).bytes;
  if (algorithm.name === 'AES-GCM') return aesGcm(algorithm, keyBytes, data, decrypt);
  if (algorithm.name === 'AES-CBC') return aesCbc(algorithm, keyBytes, data, decrypt);
  return aesCtr(algorithm, keyBytes, data);
}

// wrapKey/unwrapKey's cipher step (the key was checked).
function wrapCipher(algorithm, key, data, operation) {
  if (algorithm.name === 'AES-KW') {
    try {
      return callNative('aesKw', stateOf(key).bytes, data, operation === 'unwrapKey');
    } catch {
      throw operationError();
    }
  }
  return cipher(algorithm, key, data, operation === 'unwrapKey');
}

function truncateBits(bytes, length) {
  const out = bytes.slice(0, Math.ceil(length / 8));
  if (length % 8) out[out.length - 1] &= 0xff << (8 - (length % 8));
  return out.buffer;
}

function deriveBits(algorithm, baseKey, length) {
  switch (algorithm.name) {
    case 'ECDH':
    case 'X25519': {
      const peer = algorithm.public;
      if (baseKey.type !== 'private') throw domError('baseKey must be a private key', 'InvalidAccessError');
      if (peer.type !== 'public') throw domError('algorithm.public must be a public key', 'InvalidAccessError');
      if (peer.algorithm.name !== baseKey.algorithm.name) {
        throw domError('The public and private keys must be of the same type', 'InvalidAccessError');
      }
      if (algorithm.name === 'ECDH' && peer.algorithm.namedCurve !== baseKey.algorithm.namedCurve) {
        throw domError('Named curve mismatch', 'InvalidAccessError');
      }
      const pub = stateOf(peer);
      let secret;
      try {
        secret = new Uint8Array(callNative('deriveSecret', stateOf(baseKey).der, pub.type, pub.der));
      } catch (err) {
        throw new DOMException('The operation failed for an operation-specific reason', { name: 'OperationError', cause: err });
      }
      if (length === null) return secret.buffer;
      if (secret.length < Math.ceil(length / 8)) throw domError('derived bit length is too small', 'OperationError');
      return truncateBits(secret, length);
    }
    case 'HKDF':
    case 'PBKDF2': {
      if (length === null) throw domError('length cannot be null', 'OperationError');
      if (length % 8) throw domError('length must be a multiple of 8', 'OperationError');
      const secret = stateOf(baseKey).bytes;
      const hash = engineHash(algorithm.hash.name);
      if (algorithm.name === 'PBKDF2') {
        if (algorithm.iterations === 0) throw domError('iterations cannot be zero', 'OperationError');
        if (length === 0) return new ArrayBuffer(0);
        return native.pbkdf2(hash, secret, algorithm.salt, algorithm.iterations, length / 8);
      }
      if (length === 0) return new ArrayBuffer(0);
      try {
        return callNative('hkdf', hash, secret, algorithm.salt, algorithm.info, length / 8);
      } catch (err) {
        throw new DOMException('The operation failed for an operation-specific reason', { name: 'OperationError', cause: err });
      }
    }
    default:
      throw domError('Unrecognized algorithm name', 'NotSupportedError');
  }
}

// The length of the key deriveKey makes for an algorithm.
function keyLength({ name, length, hash }) {
  if (aes.includes(name)) {
    if (length !== 128 && length !== 192 && length !== 256) throw domError('Invalid key length', 'OperationError');
    return length;
  }
  if (name === 'HMAC') {
    if (length === undefined) return blockSizes[engineHash(hash.name)] * 8;
    if (typeof length === 'number' && length !== 0) return length;
    throw domError('Invalid key length', 'OperationError');
  }
  return null;
}

module.exports = {
  normalize,
  normalizeForWrap,
  engineHash,
  generateKey,
  importKey,
  exportKey,
  sign,
  verify,
  cipher,
  wrapCipher,
  deriveBits,
  keyLength,
};
