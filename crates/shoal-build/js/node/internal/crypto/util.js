'use strict';
// Pieces every part of node:crypto shares: the engine's primitives
// (internal/native.js) with their errors turned into Node's, byte
// conversions, digest names and the argument validators whose messages
// Node's users see.

const { Buffer } = require('buffer');
const { nodeError, invalidArgType, outOfRange, notAvailable } = require('../errors');
const native = require('../native');

// The codes Node throws as TypeError or RangeError; every other engine
// error is an Error (as OpenSSL's are in Node).
const typeErrorCodes = new Set([
  'ERR_INVALID_ARG_TYPE', 'ERR_INVALID_ARG_VALUE', 'ERR_CRYPTO_INVALID_DIGEST', 'ERR_CRYPTO_INVALID_JWK',
  'ERR_CRYPTO_INVALID_KEY_OBJECT_TYPE', 'ERR_CRYPTO_ECDH_INVALID_FORMAT', 'ERR_CRYPTO_INVALID_CURVE',
]);
const rangeErrorCodes = new Set(['ERR_CRYPTO_INVALID_KEYLEN', 'ERR_OUT_OF_RANGE', 'ERR_CRYPTO_INVALID_KEYTYPE']);

// Calls the engine's `name` primitive; its errors carry Node's code and
// message, and become Node-shaped errors here.
function callNative(name, ...args) {
  try {
    return native[name](...args);
  } catch (err) {
    if (!err || typeof err.code !== 'string' || err.code === '') throw err;
    const Ctor = typeErrorCodes.has(err.code) ? TypeError : rangeErrorCodes.has(err.code) ? RangeError : Error;
    throw nodeError(Ctor, err.code, err.message);
  }
}

const kKeyObject = Symbol.for('shoal.crypto.KeyObject');
const kCryptoKey = Symbol.for('shoal.crypto.CryptoKey');
const kState = Symbol('shoal.crypto.state');

// ---------------------------------------------------------------- bytes

function isArrayBufferLike(v) {
  const tag = Object.prototype.toString.call(v);
  return tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]';
}

function viewBytes(v) {
  return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
}

// data: string (in `encoding`), Buffer, TypedArray or DataView.
function toBytes(data, encoding, name = 'data', allowArrayBuffer = false) {
  if (typeof data === 'string') return Buffer.from(data, encoding || 'utf8');
  if (ArrayBuffer.isView(data)) return viewBytes(data);
  if (allowArrayBuffer && isArrayBufferLike(data)) return new Uint8Array(data);
  throw invalidArgType(name, allowArrayBuffer
    ? ['string', 'ArrayBuffer', 'Buffer', 'TypedArray', 'DataView']
    : ['string', 'Buffer', 'TypedArray', 'DataView'], data);
}

// Node's getArrayBufferOrView: strings, ArrayBuffers and views, as bytes.
function bufferOrView(data, name, encoding) {
  if (typeof data === 'string') return Buffer.from(data, encoding === 'buffer' || !encoding ? 'utf8' : encoding);
  if (ArrayBuffer.isView(data)) return viewBytes(data);
  if (isArrayBufferLike(data)) return new Uint8Array(data);
  throw invalidArgType(name, ['string', 'ArrayBuffer', 'Buffer', 'TypedArray', 'DataView'], data);
}

function isStringOrBuffer(v) {
  return typeof v === 'string' || ArrayBuffer.isView(v) || isArrayBufferLike(v);
}

function encodeOutput(arrayBuffer, encoding) {
  const buf = Buffer.from(arrayBuffer);
  if (encoding === undefined || encoding === 'buffer') return buf;
  return buf.toString(encoding);
}

// ---------------------------------------------------------------- digests

const hashNames = ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512'];
const hashAliases = {
  md5: 'md5', sha1: 'sha1', 'sha-1': 'sha1', sha224: 'sha224', 'sha-224': 'sha224', sha256: 'sha256', 'sha-256': 'sha256',
  sha384: 'sha384', 'sha-384': 'sha384', sha512: 'sha512', 'sha-512': 'sha512',
  'rsa-md5': 'md5', 'rsa-sha1': 'sha1', 'rsa-sha224': 'sha224', 'rsa-sha256': 'sha256', 'rsa-sha384': 'sha384', 'rsa-sha512': 'sha512',
  'sha2-224': 'sha224', 'sha2-256': 'sha256', 'sha2-384': 'sha384', 'sha2-512': 'sha512',
  'rsa-sha1-2': 'sha1', sha1withrsaencryption: 'sha1', sha256withrsaencryption: 'sha256', sha384withrsaencryption: 'sha384',
  sha512withrsaencryption: 'sha512', sha224withrsaencryption: 'sha224', md5withrsaencryption: 'md5',
  'ecdsa-with-sha1': 'sha1', 'ecdsa-with-sha256': 'sha256', 'ecdsa-with-sha384': 'sha384', 'ecdsa-with-sha512': 'sha512',
};
const digestLengths = { md5: 16, sha1: 20, sha224: 28, sha256: 32, sha384: 48, sha512: 64 };
const blockSizes = { md5: 64, sha1: 64, sha224: 64, sha256: 64, sha384: 128, sha512: 128 };

// The engine's name for a digest, or null when Node has no such digest.
function normalizeHash(algorithm, name = 'algorithm') {
  if (typeof algorithm !== 'string') throw invalidArgType(name, 'string', algorithm);
  const alg = hashAliases[algorithm.toLowerCase()];
  if (!alg) {
    if (/^(sha3-|shake|blake2|ripemd|sm3|whirlpool|md4|sha512-2)/i.test(algorithm)) {
      throw notAvailable(`The ${algorithm} digest`, `supported: ${hashNames.join(', ')}`);
    }
    return null;
  }
  return alg;
}

// ---------------------------------------------------------------- validators
// Node's messages (lib/internal/validators.js).

function validateString(value, name) {
  if (typeof value !== 'string') throw invalidArgType(name, 'string', value);
}

function validateObject(value, name) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalidArgType(name, 'object', value);
}

function validateFunction(value, name) {
  if (typeof value !== 'function') throw invalidArgType(name, 'function', value);
}

function validateInteger(value, name, min, max) {
  if (typeof value !== 'number') throw invalidArgType(name, 'number', value);
  if (!Number.isInteger(value)) throw outOfRange(name, 'an integer', value);
  if (value < min || value > max) throw outOfRange(name, `>= ${min} && <= ${max}`, value);
}

function validateUint32(value, name, positive = false) {
  validateInteger(value, name, positive ? 1 : 0, 4294967295);
}

function validateInt32(value, name, min = -2147483648, max = 2147483647) {
  validateInteger(value, name, min, max);
}

// ERR_INVALID_ARG_VALUE: "The property 'options.x' is invalid. Received 'y'".
function invalidArgValue(name, value, reason = 'is invalid') {
  let shown;
  if (typeof value === 'string') shown = `'${value.replace(/'/g, "\\'")}'`;
  else if (typeof value === 'bigint') shown = `${value}n`;
  else if (value === null || typeof value !== 'object') shown = String(value);
  // Objects are rare here; inspect is only loaded for them.
  else shown = require('../inspect').inspect(value);
  if (shown.length > 128) shown = `${shown.slice(0, 128)}...`;
  const kind = name.includes('.') ? 'property' : 'argument';
  return nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The ${kind} '${name}' ${reason}. Received ${shown}`);
}

function validateOneOf(value, name, oneOf) {
  if (!oneOf.includes(value)) {
    const allowed = oneOf.map((v) => (typeof v === 'string' ? `'${v}'` : String(v))).join(', ');
    throw invalidArgValue(name, value, `must be one of: ${allowed}`);
  }
}

// Runs `work` now, or for a callback on the next tick with its error or
// result (Node runs these as jobs: what fails inside one reaches the callback).
function runJob(work, callback) {
  if (!callback) return work();
  let result;
  try {
    result = work();
  } catch (err) {
    process.nextTick(callback, err);
    return undefined;
  }
  process.nextTick(callback, null, result);
  return undefined;
}

module.exports = {
  runJob,
  callNative,
  kKeyObject,
  kCryptoKey,
  kState,
  isArrayBufferLike,
  viewBytes,
  toBytes,
  bufferOrView,
  isStringOrBuffer,
  encodeOutput,
  hashNames,
  digestLengths,
  blockSizes,
  normalizeHash,
  validateString,
  validateObject,
  validateFunction,
  validateInteger,
  validateUint32,
  validateInt32,
  validateOneOf,
  invalidArgValue,
};
