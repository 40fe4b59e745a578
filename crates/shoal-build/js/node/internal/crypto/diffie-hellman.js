'use strict';
// Elliptic-curve Diffie-Hellman: createECDH/ECDH (with raw scalars and
// points, as Node's) and crypto.diffieHellman over KeyObjects, after
// lib/internal/crypto/diffiehellman.js. Finite-field Diffie-Hellman
// (createDiffieHellman) is not in the engine.

const { Buffer } = require('buffer');
const { nodeError } = require('../errors');
const { callNative, kState, bufferOrView, validateString, validateObject, validateFunction, invalidArgValue, runJob } = require('./util');
const { isKeyObject, preparePrivateKey, preparePublicOrPrivateKey } = require('./keys');
const { namedCurves, curveAliases, unsupportedCurve } = require('./keygen');

function encode(bytes, encoding) {
  const buf = Buffer.from(bytes);
  return encoding && encoding !== 'buffer' ? buf.toString(encoding) : buf;
}

function pointFormat(format) {
  if (format) {
    if (format === 'compressed' || format === 'hybrid') return format;
    if (format !== 'uncompressed') throw nodeError(TypeError, 'ERR_CRYPTO_ECDH_INVALID_FORMAT', `Invalid ECDH format: ${format}`);
  }
  return 'uncompressed';
}

function curveName(curve) {
  validateString(curve, 'curve');
  const name = curveAliases[curve] || curve;
  if (!namedCurves.includes(name)) throw unsupportedCurve(curve);
  return name;
}

function operationFailed(what) {
  return nodeError(Error, 'ERR_CRYPTO_OPERATION_FAILED', `Failed to get ECDH ${what} key`);
}

function ECDH(curve) {
  if (!(this instanceof ECDH)) return new ECDH(curve);
  Object.defineProperty(this, kState, { value: { curve: curveName(curve), scalar: null, point: null } });
}

ECDH.prototype.generateKeys = function generateKeys(encoding, format) {
  const st = this[kState];
  const [scalar, point] = callNative('ecGenerate', st.curve);
  st.scalar = new Uint8Array(scalar);
  st.point = new Uint8Array(point);
  return this.getPublicKey(encoding, format);
};

ECDH.prototype.getPublicKey = function getPublicKey(encoding, format) {
  const f = pointFormat(format);
  const st = this[kState];
  if (!st.point) throw operationFailed('public');
  return encode(callNative('ecPoint', st.curve, st.point, false, f), encoding);
};

ECDH.prototype.getPrivateKey = function getPrivateKey(encoding) {
  const st = this[kState];
  if (!st.scalar) throw operationFailed('private');
  // OpenSSL gives the scalar without leading zero bytes.
  let start = 0;
  while (start < st.scalar.length - 1 && st.scalar[start] === 0) start++;
  return encode(st.scalar.subarray(start), encoding);
};

ECDH.prototype.setPrivateKey = function setPrivateKey(key, encoding) {
  const st = this[kState];
  const scalar = Uint8Array.from(bufferOrView(key, 'key', encoding));
  const point = new Uint8Array(callNative('ecPoint', st.curve, scalar, true, 'uncompressed'));
  // The engine checked the scalar; keep it at the curve's full width.
  const width = (point.length - 1) / 2;
  const full = new Uint8Array(width);
  full.set(scalar.subarray(Math.max(0, scalar.length - width)), Math.max(0, width - scalar.length));
  st.scalar = full;
  st.point = point;
  return this;
};

let warnedSetPublicKey = false;
ECDH.prototype.setPublicKey = function setPublicKey(key, encoding) {
  if (!warnedSetPublicKey) {
    warnedSetPublicKey = true;
    process.emitWarning('ecdh.setPublicKey() is deprecated.', 'DeprecationWarning', 'DEP0031');
  }
  const st = this[kState];
  st.point = new Uint8Array(callNative('ecPoint', st.curve, Uint8Array.from(bufferOrView(key, 'key', encoding)), false, 'uncompressed'));
  return this;
};

ECDH.prototype.computeSecret = function computeSecret(key, inEnc, outEnc) {
  const st = this[kState];
  const peer = Uint8Array.from(bufferOrView(key, 'key', inEnc));
  if (!st.scalar) throw operationFailed('private');
  return encode(callNative('ecdh', st.curve, st.scalar, peer), outEnc);
};

ECDH.convertKey = function convertKey(key, curve, inEnc, outEnc, format) {
  const name = curveName(curve);
  const point = Uint8Array.from(bufferOrView(key, 'key', inEnc));
  return encode(callNative('ecPoint', name, point, false, pointFormat(format)), outEnc);
};

function createECDH(curve) {
  return new ECDH(curve);
}

const dhKeyTypes = ['ec', 'x25519'];

function diffieHellman(options, callback) {
  validateObject(options, 'options');
  if (callback !== undefined) validateFunction(callback, 'callback');
  const { privateKey, publicKey } = options;
  if (privateKey === undefined) throw invalidArgValue('options.privateKey', privateKey);
  if (publicKey === undefined) throw invalidArgValue('options.publicKey', publicKey);
  const incompatible = (a, b) => nodeError(Error, 'ERR_CRYPTO_INCOMPATIBLE_KEY', `Incompatible key types for Diffie-Hellman: ${a} and ${b}`);
  if (isKeyObject(privateKey) && privateKey.type === 'private' && isKeyObject(publicKey) && publicKey.type !== 'secret') {
    const a = privateKey.asymmetricKeyType;
    const b = publicKey.asymmetricKeyType;
    if (a !== b || !dhKeyTypes.includes(a)) throw incompatible(a, b);
  }
  const pub = preparePublicOrPrivateKey(publicKey, 'options.publicKey');
  const priv = preparePrivateKey(privateKey, 'options.privateKey');
  if (priv.asymmetricKeyType !== pub.asymmetricKeyType || !dhKeyTypes.includes(priv.asymmetricKeyType)) {
    throw incompatible(priv.asymmetricKeyType, pub.asymmetricKeyType);
  }
  return runJob(() => Buffer.from(callNative('deriveSecret', priv.der, pub.type, pub.der)), callback);
}

// The curves the engine has, by OpenSSL's names (Node's getCurves() lists
// every curve OpenSSL has).
function getCurves() {
  return namedCurves.slice().sort();
}

module.exports = { ECDH, createECDH, diffieHellman, getCurves };
