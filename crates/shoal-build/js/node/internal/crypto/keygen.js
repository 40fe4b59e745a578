'use strict';
// generateKeyPair(Sync) and generateKey(Sync), after
// lib/internal/crypto/keygen.js. The engine generates RSA (and RSA-PSS), EC
// (P-256, P-384, P-521), Ed25519 and X25519 keys.

const { nodeError } = require('../errors');
const {
  callNative, kState, validateString, validateObject, validateFunction, validateUint32, validateInt32, validateInteger,
  validateOneOf, invalidArgValue, normalizeHash, digestLengths, runJob,
} = require('./util');
const native = require('../native');
const { parseKeyEncoding, privateKeyObject, publicKeyObject, publicOf, secretKeyObject, exportDer, exportJwk } = require('./keys');

const curveAliases = { 'P-256': 'prime256v1', 'P-384': 'secp384r1', 'P-521': 'secp521r1', secp256r1: 'prime256v1' };
const curves = ['prime256v1', 'secp384r1', 'secp521r1'];

// A curve OpenSSL has (Node's getCurves()) but the engine does not, or no
// curve at all.
function unsupportedCurve(name) {
  if (/^(prime|secp|sect|brainpool|c2|wap-|Oakley|SM2|P-)/.test(name)) {
    return nodeError(Error, 'ERR_NOT_AVAILABLE_IN_SHOAL', `The ${name} curve is not available in Shoal's JavaScript engine (P-256, P-384 and P-521 are)`);
  }
  return nodeError(TypeError, 'ERR_CRYPTO_INVALID_CURVE', 'Invalid EC curve name');
}

function encodingFor(keyType, options, name, isPublic) {
  const enc = options && options[name];
  if (enc == null) return undefined;
  if (typeof enc !== 'object') throw invalidArgValue(`options.${name}`, enc);
  return parseKeyEncoding(enc, keyType, isPublic, `options.${name}`);
}

function unsigned(n) {
  const bytes = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return Uint8Array.from(bytes);
}

function hashOption(options, name, legacy) {
  const value = options[name];
  const old = options[legacy];
  if (value !== undefined) validateString(value, `options.${name}`);
  if (old !== undefined) {
    process.emitWarning(`"options.${legacy}" is deprecated, use "options.${name}" instead.`, 'DeprecationWarning', 'DEP0154');
    validateString(old, `options.${legacy}`);
    if (value && old !== value) throw invalidArgValue(`options.${legacy}`, old);
  }
  const chosen = value || old;
  if (chosen === undefined) return undefined;
  const hash = normalizeHash(chosen, `options.${name}`);
  if (!hash) {
    throw nodeError(TypeError, 'ERR_CRYPTO_INVALID_DIGEST', `${name === 'hashAlgorithm' ? 'Invalid digest' : 'Invalid MGF1 digest'}: ${chosen}`);
  }
  return hash;
}

// The engine's generation options, checked as Node checks them.
function generationOptions(type, options) {
  validateString(type, 'type');
  switch (type) {
    case 'rsa':
    case 'rsa-pss': {
      validateObject(options, 'options');
      const { modulusLength } = options;
      validateUint32(modulusLength, 'options.modulusLength');
      let { publicExponent } = options;
      if (publicExponent == null) publicExponent = 0x10001;
      else validateUint32(publicExponent, 'options.publicExponent');
      const out = { modulusLength, publicExponent: unsigned(publicExponent) };
      if (type === 'rsa-pss') {
        if (options.saltLength !== undefined) validateInt32(options.saltLength, 'options.saltLength', 0);
        const hash = hashOption(options, 'hashAlgorithm', 'hash');
        const mgf1 = hashOption(options, 'mgf1HashAlgorithm', 'mgf1Hash');
        // Once any restriction is asked for, OpenSSL fills in the rest: MGF1
        // with the hash, a salt as long as the hash (SHA-1 and 20 bytes
        // without a hash).
        if (hash !== undefined || mgf1 !== undefined || options.saltLength !== undefined) {
          out.hashAlgorithm = hash || 'sha1';
          out.mgf1HashAlgorithm = mgf1 || out.hashAlgorithm;
          out.saltLength = options.saltLength !== undefined ? options.saltLength : digestLengths[out.hashAlgorithm];
        }
      }
      return out;
    }
    case 'ec': {
      validateObject(options, 'options');
      validateString(options.namedCurve, 'options.namedCurve');
      const { paramEncoding } = options;
      if (paramEncoding === 'explicit') {
        throw nodeError(Error, 'ERR_NOT_AVAILABLE_IN_SHOAL', "EC keys with explicit curve parameters are not available in Shoal's JavaScript engine");
      }
      if (paramEncoding != null && paramEncoding !== 'named') throw invalidArgValue('options.paramEncoding', paramEncoding);
      const namedCurve = curveAliases[options.namedCurve] || options.namedCurve;
      if (!curves.includes(namedCurve)) throw unsupportedCurve(options.namedCurve);
      return { namedCurve };
    }
    case 'ed25519':
    case 'x25519':
      return {};
    case 'ed448':
    case 'x448':
    case 'dsa':
    case 'dh':
      throw nodeError(Error, 'ERR_NOT_AVAILABLE_IN_SHOAL', `Generating ${type} keys is not available in Shoal's JavaScript engine`);
    default:
      throw invalidArgValue('type', type, 'must be a supported key type');
  }
}

function encode(keyObject, encoding) {
  if (encoding === undefined) return keyObject;
  if (encoding.format === 'jwk') return exportJwk(keyObject[kState]);
  return exportDer(keyObject[kState], encoding.format, encoding.type, encoding.cipher, encoding.passphrase);
}

function generatePair(type, options) {
  const publicEncoding = encodingFor(type, options, 'publicKeyEncoding', true);
  const privateEncoding = encodingFor(type, options, 'privateKeyEncoding', false);
  if (options !== undefined) validateObject(options, 'options');
  const params = generationOptions(type, options);
  return () => {
    const privateKey = privateKeyObject(type, callNative('keyGenerate', type, params));
    const pub = publicOf(privateKey[kState]);
    const publicKey = publicKeyObject(pub.asymmetricKeyType, pub.der);
    return { publicKey: encode(publicKey, publicEncoding), privateKey: encode(privateKey, privateEncoding) };
  };
}

function generateKeyPairSync(type, options) {
  return generatePair(type, options)();
}

function generateKeyPair(type, options, callback) {
  if (typeof options === 'function') {
    callback = options;
    options = undefined;
  }
  validateFunction(callback, 'callback');
  const work = generatePair(type, options);
  runJob(work, (err, pair) => (err ? callback(err) : callback(null, pair.publicKey, pair.privateKey)));
}
// util.promisify(generateKeyPair) resolves to { publicKey, privateKey }.
Object.defineProperty(generateKeyPair, Symbol.for('nodejs.util.promisify.custom'), {
  value: (type, options) => new Promise((resolve, reject) => {
    generateKeyPair(type, options, (err, publicKey, privateKey) => (err ? reject(err) : resolve({ publicKey, privateKey })));
  }),
});

function secretKeyJob(type, options) {
  validateString(type, 'type');
  validateObject(options, 'options');
  const { length } = options;
  if (type === 'hmac') validateInteger(length, 'options.length', 8, 2 ** 31 - 1);
  else if (type === 'aes') validateOneOf(length, 'options.length', [128, 192, 256]);
  else throw invalidArgValue('type', type, 'must be a supported key type');
  return () => secretKeyObject(new Uint8Array(native.randomBytes(Math.floor(length / 8))));
}

function generateKeySync(type, options) {
  return secretKeyJob(type, options)();
}

function generateKey(type, options, callback) {
  if (typeof options === 'function') {
    callback = options;
    options = undefined;
  }
  validateFunction(callback, 'callback');
  runJob(secretKeyJob(type, options), callback);
}

module.exports = {
  generateKeyPair,
  generateKeyPairSync,
  generateKey,
  generateKeySync,
  namedCurves: curves,
  curveAliases,
  unsupportedCurve,
};
