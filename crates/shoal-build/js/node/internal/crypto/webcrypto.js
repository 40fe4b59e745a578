'use strict';
// Web Crypto: crypto.subtle and CryptoKey, after Node 24's
// lib/internal/crypto/webcrypto.js (the checks, their order and the
// DOMException names and messages). The algorithms themselves are in
// webcrypto-algorithms.js; the work is the engine's.
//
// Algorithms: digest SHA-1/256/384/512; RSASSA-PKCS1-v1_5, RSA-PSS,
// RSA-OAEP; ECDSA and ECDH on P-256, P-384 and P-521; Ed25519 and X25519;
// HMAC; AES-CTR, AES-CBC, AES-GCM, AES-KW; HKDF and PBKDF2.

const { Buffer } = require('buffer');
const { DOMException } = require('../dom-exception');
const { nodeError } = require('../errors');
const { kCryptoKey, kState, isArrayBufferLike, viewBytes } = require('./util');
const native = require('../native');
const alg = require('./webcrypto-algorithms');

const domError = (message, name) => new DOMException(message, name);

// ---------------------------------------------------------------- CryptoKey

class CryptoKey {
  constructor() {
    throw nodeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
  }

  get type() {
    return this[kState].keyObject.type;
  }

  get extractable() {
    return this[kState].extractable;
  }

  get algorithm() {
    return this[kState].algorithm;
  }

  get usages() {
    return this[kState].usages;
  }

  [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
    if (depth < 0) return this;
    const fields = { type: this.type, extractable: this.extractable, algorithm: this.algorithm, usages: this.usages };
    return `CryptoKey ${(inspect || require('../inspect').inspect)(fields, { ...options, depth: options.depth == null ? null : options.depth - 1 })}`;
  }
}
for (const name of ['type', 'extractable', 'algorithm', 'usages']) {
  Object.defineProperty(CryptoKey.prototype, name, { ...Object.getOwnPropertyDescriptor(CryptoKey.prototype, name), enumerable: true });
}
Object.defineProperty(CryptoKey.prototype, Symbol.toStringTag, { value: 'CryptoKey', configurable: true });

// Usages are kept in Web Crypto's order, without duplicates (as Node 24).
const usageOrder = ['encrypt', 'decrypt', 'sign', 'verify', 'deriveKey', 'deriveBits', 'wrapKey', 'unwrapKey'];

function makeCryptoKey(keyObject, algorithm, usages, extractable) {
  const key = Object.create(CryptoKey.prototype);
  const set = new Set(usages);
  Object.defineProperty(key, kState, {
    value: { keyObject, algorithm, extractable: !!extractable, usages: usageOrder.filter((u) => set.has(u)) },
  });
  Object.defineProperty(key, kCryptoKey, { value: true });
  return key;
}

function isCryptoKey(v) {
  return v !== null && typeof v === 'object' && v[kCryptoKey] === true;
}

// ---------------------------------------------------------------- WebIDL

const ordinals = ['1st', '2nd', '3rd', '4th', '5th', '6th', '7th'];

function argError(prefix, index, what) {
  return nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `${prefix}: ${ordinals[index]} argument ${what}.`);
}

function requireArguments(count, required, prefix) {
  if (count < required) {
    throw nodeError(TypeError, 'ERR_MISSING_ARGS', `${prefix}: ${required} argument${required === 1 ? '' : 's'} required, but only ${count} present.`);
  }
}

function bufferSource(value, prefix, index) {
  if (ArrayBuffer.isView(value)) return viewBytes(value).slice();
  if (isArrayBufferLike(value)) return new Uint8Array(value.slice(0));
  throw argError(prefix, index, 'is not instance of ArrayBuffer, Buffer, TypedArray, or DataView');
}

function cryptoKeyArg(value, prefix, index) {
  if (!isCryptoKey(value)) throw argError(prefix, index, 'is not of type CryptoKey');
  return value;
}

const keyFormats = ['raw', 'pkcs8', 'spki', 'jwk'];

function keyFormat(value, prefix) {
  const format = String(value);
  if (!keyFormats.includes(format)) {
    throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', `${prefix}: 1st argument '${format}' is not a valid enum value of type KeyFormat.`);
  }
  return format;
}

const allUsages = [...usageOrder];

function keyUsages(value, prefix, index) {
  if (value === null || typeof value !== 'object' || typeof value[Symbol.iterator] !== 'function') {
    throw argError(prefix, index, 'can not be converted to sequence');
  }
  const out = [];
  for (const u of value) {
    const s = String(u);
    if (!allUsages.includes(s)) {
      throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', `${prefix}: ${ordinals[index]} argument '${s}' is not a valid enum value of type KeyUsage.`);
    }
    out.push(s);
  }
  return out;
}

function algorithmIdentifier(value, prefix, index) {
  if (typeof value === 'string') return { name: value };
  if (value === null || typeof value !== 'object') throw argError(prefix, index, 'is not of type object');
  return value;
}

// ---------------------------------------------------------------- SubtleCrypto

function prefixFor(method) {
  return `Failed to execute '${method}' on 'SubtleCrypto'`;
}

function usageCheck(key, usage, algorithm) {
  if (algorithm.name !== key.algorithm.name) throw domError('Key algorithm mismatch', 'InvalidAccessError');
  if (!key.usages.includes(usage)) throw domError(`Unable to use this key to ${usage}`, 'InvalidAccessError');
}

class SubtleCrypto {
  constructor() {
    throw nodeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
  }

  async digest(algorithm, data) {
    const prefix = prefixFor('digest');
    requireArguments(arguments.length, 2, prefix);
    algorithm = algorithmIdentifier(algorithm, prefix, 0);
    data = bufferSource(data, prefix, 1);
    const { name } = alg.normalize(algorithm, 'digest');
    return native.digest(alg.engineHash(name), data);
  }

  async generateKey(algorithm, extractable, usages) {
    const prefix = prefixFor('generateKey');
    requireArguments(arguments.length, 3, prefix);
    algorithm = algorithmIdentifier(algorithm, prefix, 0);
    usages = keyUsages(usages, prefix, 2);
    return alg.generateKey(alg.normalize(algorithm, 'generateKey'), !!extractable, usages, makeCryptoKey);
  }

  async importKey(format, keyData, algorithm, extractable, usages) {
    const prefix = prefixFor('importKey');
    requireArguments(arguments.length, 4, prefix);
    format = keyFormat(format, prefix);
    if (format === 'jwk') {
      if (keyData === null || typeof keyData !== 'object') throw argError(prefix, 1, 'is not of type object');
    } else {
      keyData = bufferSource(keyData, prefix, 1);
    }
    algorithm = algorithmIdentifier(algorithm, prefix, 2);
    usages = keyUsages(usages === undefined ? [] : usages, prefix, 4);
    return importKey(format, keyData, alg.normalize(algorithm, 'importKey'), !!extractable, usages);
  }

  async exportKey(format, key) {
    const prefix = prefixFor('exportKey');
    requireArguments(arguments.length, 2, prefix);
    format = keyFormat(format, prefix);
    key = cryptoKeyArg(key, prefix, 1);
    return exportKey(format, key);
  }

  async sign(algorithm, key, data) {
    const prefix = prefixFor('sign');
    requireArguments(arguments.length, 3, prefix);
    algorithm = algorithmIdentifier(algorithm, prefix, 0);
    key = cryptoKeyArg(key, prefix, 1);
    data = bufferSource(data, prefix, 2);
    const normalized = alg.normalize(algorithm, 'sign');
    usageCheck(key, 'sign', normalized);
    return alg.sign(normalized, key, data);
  }

  async verify(algorithm, key, signature, data) {
    const prefix = prefixFor('verify');
    requireArguments(arguments.length, 4, prefix);
    algorithm = algorithmIdentifier(algorithm, prefix, 0);
    key = cryptoKeyArg(key, prefix, 1);
    signature = bufferSource(signature, prefix, 2);
    data = bufferSource(data, prefix, 3);
    const normalized = alg.normalize(algorithm, 'verify');
    usageCheck(key, 'verify', normalized);
    return alg.verify(normalized, key, signature, data);
  }

  async encrypt(algorithm, key, data) {
    const prefix = prefixFor('encrypt');
    requireArguments(arguments.length, 3, prefix);
    algorithm = algorithmIdentifier(algorithm, prefix, 0);
    key = cryptoKeyArg(key, prefix, 1);
    data = bufferSource(data, prefix, 2);
    const normalized = alg.normalize(algorithm, 'encrypt');
    usageCheck(key, 'encrypt', normalized);
    return alg.cipher(normalized, key, data, false);
  }

  async decrypt(algorithm, key, data) {
    const prefix = prefixFor('decrypt');
    requireArguments(arguments.length, 3, prefix);
    algorithm = algorithmIdentifier(algorithm, prefix, 0);
    key = cryptoKeyArg(key, prefix, 1);
    data = bufferSource(data, prefix, 2);
    const normalized = alg.normalize(algorithm, 'decrypt');
    usageCheck(key, 'decrypt', normalized);
    return alg.cipher(normalized, key, data, true);
  }

  async deriveBits(algorithm, baseKey, length = null) {
    const prefix = prefixFor('deriveBits');
    requireArguments(arguments.length, 2, prefix);
    algorithm = algorithmIdentifier(algorithm, prefix, 0);
    baseKey = cryptoKeyArg(baseKey, prefix, 1);
    if (length !== null) length = Number(length) >>> 0;
    const normalized = alg.normalize(algorithm, 'deriveBits');
    if (!baseKey.usages.includes('deriveBits')) throw domError('baseKey does not have deriveBits usage', 'InvalidAccessError');
    if (baseKey.algorithm.name !== normalized.name) throw domError('Key algorithm mismatch', 'InvalidAccessError');
    return alg.deriveBits(normalized, baseKey, length);
  }

  async deriveKey(algorithm, baseKey, derivedKeyAlgorithm, extractable, usages) {
    const prefix = prefixFor('deriveKey');
    requireArguments(arguments.length, 5, prefix);
    algorithm = algorithmIdentifier(algorithm, prefix, 0);
    baseKey = cryptoKeyArg(baseKey, prefix, 1);
    derivedKeyAlgorithm = algorithmIdentifier(derivedKeyAlgorithm, prefix, 2);
    usages = keyUsages(usages, prefix, 4);
    const normalized = alg.normalize(algorithm, 'deriveBits');
    const derived = alg.normalize(derivedKeyAlgorithm, 'importKey');
    if (!baseKey.usages.includes('deriveKey')) throw domError('baseKey does not have deriveKey usage', 'InvalidAccessError');
    if (baseKey.algorithm.name !== normalized.name) throw domError('Key algorithm mismatch', 'InvalidAccessError');
    const length = alg.keyLength(alg.normalize(derivedKeyAlgorithm, 'get key length'));
    const bits = alg.deriveBits(normalized, baseKey, length);
    return importKey('raw', new Uint8Array(bits), derived, !!extractable, usages);
  }

  async wrapKey(format, key, wrappingKey, wrapAlgorithm) {
    const prefix = prefixFor('wrapKey');
    requireArguments(arguments.length, 4, prefix);
    format = keyFormat(format, prefix);
    key = cryptoKeyArg(key, prefix, 1);
    wrappingKey = cryptoKeyArg(wrappingKey, prefix, 2);
    wrapAlgorithm = algorithmIdentifier(wrapAlgorithm, prefix, 3);
    const normalized = alg.normalizeForWrap(wrapAlgorithm, 'wrapKey');
    usageCheck(wrappingKey, 'wrapKey', normalized);
    let data = exportKey(format, key);
    if (format === 'jwk') {
      let text = JSON.stringify(data);
      // AES-KW wraps whole 8-byte blocks: pad the JSON with spaces.
      if (normalized.name === 'AES-KW' && text.length % 8 !== 0) text += ' '.repeat(8 - (text.length % 8));
      data = Uint8Array.from(Buffer.from(text, 'utf8'));
    } else {
      data = new Uint8Array(data);
    }
    return alg.wrapCipher(normalized, wrappingKey, data, 'wrapKey');
  }

  async unwrapKey(format, wrappedKey, unwrappingKey, unwrapAlgorithm, unwrappedKeyAlgorithm, extractable, usages) {
    const prefix = prefixFor('unwrapKey');
    requireArguments(arguments.length, 7, prefix);
    format = keyFormat(format, prefix);
    wrappedKey = bufferSource(wrappedKey, prefix, 1);
    unwrappingKey = cryptoKeyArg(unwrappingKey, prefix, 2);
    unwrapAlgorithm = algorithmIdentifier(unwrapAlgorithm, prefix, 3);
    unwrappedKeyAlgorithm = algorithmIdentifier(unwrappedKeyAlgorithm, prefix, 4);
    usages = keyUsages(usages, prefix, 6);
    const normalized = alg.normalizeForWrap(unwrapAlgorithm, 'unwrapKey');
    usageCheck(unwrappingKey, 'unwrapKey', normalized);
    let keyData = new Uint8Array(alg.wrapCipher(normalized, unwrappingKey, wrappedKey, 'unwrapKey'));
    if (format === 'jwk') {
      const text = Buffer.from(keyData).toString('utf8');
      try {
        // A round trip shows bytes that are not UTF-8 (Node decodes fatally).
        if (!Buffer.from(text, 'utf8').equals(Buffer.from(keyData))) throw new Error('not UTF-8');
        keyData = JSON.parse(text);
      } catch {
        throw domError('Invalid wrapped JWK key', 'DataError');
      }
    }
    return importKey(format, keyData, alg.normalize(unwrappedKeyAlgorithm, 'importKey'), !!extractable, usages);
  }
}
Object.defineProperty(SubtleCrypto.prototype, Symbol.toStringTag, { value: 'SubtleCrypto', configurable: true });

function importKey(format, keyData, algorithm, extractable, usages) {
  const key = alg.importKey(format, keyData, algorithm, extractable, usages, makeCryptoKey);
  if (key === undefined) throw domError(`Unable to import ${algorithm.name} using ${format} format`, 'NotSupportedError');
  if ((key.type === 'secret' || key.type === 'private') && key.usages.length === 0) {
    throw domError(`Usages cannot be empty when importing a ${key.type} key.`, 'SyntaxError');
  }
  return key;
}

function exportKey(format, key) {
  if (!key.extractable) throw domError('key is not extractable', 'InvalidAccessError');
  const result = alg.exportKey(format, key);
  if (result === undefined) {
    throw domError(`Unable to export ${key.algorithm.name} ${key.type} key using ${format} format`, 'NotSupportedError');
  }
  return result;
}

const subtle = Object.create(SubtleCrypto.prototype);

module.exports = { CryptoKey, SubtleCrypto, subtle, makeCryptoKey, isCryptoKey };
