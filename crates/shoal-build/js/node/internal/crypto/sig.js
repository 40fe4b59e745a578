'use strict';
// Signatures: createSign/createVerify (Sign and Verify) and the one-shot
// crypto.sign/crypto.verify, after lib/internal/crypto/sig.js. The engine
// hashes and signs; this side checks the options as Node does.
//
// Sign and Verify buffer what they are given, like Shoal's Hash. They take
// write()/end() and events, so a stream can be piped into them, but they
// are EventEmitters, not stream.Writable (that would put the whole stream
// module into every Function that signs).

const EventEmitter = require('events');
const { Buffer } = require('buffer');
const { concatBytes } = require('../bytes');
const { nodeError, invalidArgType } = require('../errors');
const {
  callNative, kState, bufferOrView, normalizeHash, validateString, validateFunction, invalidArgValue, runJob,
} = require('./util');
const { preparePrivateKey, preparePublicOrPrivateKey } = require('./keys');

const RSA_PKCS1_PSS_PADDING = 6;
const RSA_PSS_SALTLEN_MAX_SIGN = -2;

function keyRequired() {
  return nodeError(Error, 'ERR_CRYPTO_SIGN_KEY_REQUIRED', 'No key provided to sign');
}

function getIntOption(name, options) {
  const value = options[name];
  if (value !== undefined) {
    if (value === value >> 0) return value;
    throw invalidArgValue(`options.${name}`, value);
  }
  return undefined;
}

// The RSA and (EC)DSA options a key argument may carry.
function signatureOptions(options) {
  const padding = getIntOption('padding', options);
  let saltLength = getIntOption('saltLength', options);
  if (options.padding === RSA_PKCS1_PSS_PADDING && saltLength === undefined) saltLength = RSA_PSS_SALTLEN_MAX_SIGN;
  let p1363 = false;
  if (typeof options === 'object') {
    const { dsaEncoding = 'der' } = options;
    if (dsaEncoding === 'ieee-p1363') p1363 = true;
    else if (dsaEncoding !== 'der') throw invalidArgValue('options.dsaEncoding', dsaEncoding);
  }
  return { padding, saltLength, p1363 };
}

function digestFor(algorithm, oneShot) {
  const hash = normalizeHash(algorithm);
  if (!hash) throw nodeError(TypeError, 'ERR_CRYPTO_INVALID_DIGEST', oneShot ? `Invalid digest: ${algorithm}` : 'Invalid digest');
  return hash;
}

function signBytes(key, data, hash, opts) {
  return callNative('sign', key.der, data, { hash, ...opts });
}

function verifyBytes(key, data, signature, hash, opts) {
  return callNative('verify', key.type, key.der, data, signature, { hash, ...opts });
}

function Sign(algorithm, options) {
  if (!(this instanceof Sign)) return new Sign(algorithm, options);
  validateString(algorithm, 'algorithm');
  const hash = digestFor(algorithm, false);
  EventEmitter.call(this);
  Object.defineProperty(this, kState, { value: { hash, chunks: [] } });
}
Object.setPrototypeOf(Sign.prototype, EventEmitter.prototype);
Object.setPrototypeOf(Sign, EventEmitter);

function update(data, encoding) {
  if (typeof data !== 'string' && !ArrayBuffer.isView(data)) {
    throw invalidArgType('data', ['string', 'Buffer', 'TypedArray', 'DataView'], data);
  }
  // Copied: the caller may reuse its buffer.
  this[kState].chunks.push(Uint8Array.from(bufferOrView(data, 'data', encoding)));
  return this;
}

function write(chunk, encoding, callback) {
  if (typeof encoding === 'function') {
    callback = encoding;
    encoding = undefined;
  }
  this.update(chunk, encoding);
  if (typeof callback === 'function') process.nextTick(callback);
  return true;
}

function end(chunk, encoding, callback) {
  if (typeof chunk === 'function') {
    callback = chunk;
    chunk = undefined;
  } else if (typeof encoding === 'function') {
    callback = encoding;
    encoding = undefined;
  }
  if (chunk !== undefined && chunk !== null) this.update(chunk, encoding);
  process.nextTick(() => {
    this.emit('finish');
    if (typeof callback === 'function') callback();
  });
  return this;
}

Sign.prototype.update = update;
Sign.prototype.write = write;
Sign.prototype.end = end;

Sign.prototype.sign = function sign(options, encoding) {
  if (!options) throw keyRequired();
  const key = preparePrivateKey(options);
  const opts = signatureOptions(options);
  const st = this[kState];
  const signature = Buffer.from(signBytes(key, concatBytes(st.chunks), st.hash, opts));
  return encoding && encoding !== 'buffer' ? signature.toString(encoding) : signature;
};

function Verify(algorithm, options) {
  if (!(this instanceof Verify)) return new Verify(algorithm, options);
  validateString(algorithm, 'algorithm');
  const hash = digestFor(algorithm, false);
  EventEmitter.call(this);
  Object.defineProperty(this, kState, { value: { hash, chunks: [] } });
}
Object.setPrototypeOf(Verify.prototype, EventEmitter.prototype);
Object.setPrototypeOf(Verify, EventEmitter);

Verify.prototype.update = update;
Verify.prototype.write = write;
Verify.prototype.end = end;

Verify.prototype.verify = function verify(options, signature, sigEncoding) {
  const key = preparePublicOrPrivateKey(options);
  const opts = signatureOptions(options);
  const sig = Uint8Array.from(bufferOrView(signature, 'signature', sigEncoding));
  const st = this[kState];
  return verifyBytes(key, concatBytes(st.chunks), sig, st.hash, opts);
};

function createSign(algorithm, options) {
  return new Sign(algorithm, options);
}

function createVerify(algorithm, options) {
  return new Verify(algorithm, options);
}

function signOneShot(algorithm, data, key, callback) {
  if (algorithm != null) validateString(algorithm, 'algorithm');
  if (callback !== undefined) validateFunction(callback, 'callback');
  const bytes = Uint8Array.from(bufferOrView(data, 'data'));
  if (!key) throw keyRequired();
  const opts = signatureOptions(key);
  const hash = algorithm == null ? '' : digestFor(algorithm, true);
  // Node parses the key before its job starts: key errors throw even with
  // a callback.
  const prepared = preparePrivateKey(key);
  return runJob(() => Buffer.from(signBytes(prepared, bytes, hash, opts)), callback);
}

function verifyOneShot(algorithm, data, key, signature, callback) {
  if (algorithm != null) validateString(algorithm, 'algorithm');
  if (callback !== undefined) validateFunction(callback, 'callback');
  const bytes = Uint8Array.from(bufferOrView(data, 'data'));
  const opts = signatureOptions(key);
  const sig = Uint8Array.from(bufferOrView(signature, 'signature'));
  const hash = algorithm == null ? '' : digestFor(algorithm, true);
  const prepared = preparePublicOrPrivateKey(key);
  return runJob(() => verifyBytes(prepared, bytes, sig, hash, opts), callback);
}

module.exports = {
  Sign,
  Verify,
  createSign,
  createVerify,
  signOneShot,
  verifyOneShot,
};
