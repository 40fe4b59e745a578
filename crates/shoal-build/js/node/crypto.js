'use strict';
// node:crypto for Shoal Functions. The primitives (hashes, HMAC, PBKDF2,
// random bytes) are the engine's, on globalThis.__shoal_native; this module
// gives them Node's API, HKDF and the Web Crypto subset built on them
// (digest, HMAC keys, PBKDF2), scrypt, and AES in CBC, CTR and GCM through
// createCipheriv/createDecipheriv (update/final; not as streams).
// Signatures with key pairs, Diffie-Hellman and the like are not in the
// engine: those functions throw an Error naming themselves.
const { concatBytes } = require('./internal/bytes.js');

const { Buffer } = require('buffer');
const { nodeError, invalidArgType, outOfRange, notAvailable, addUnderscores } = require('./internal/errors');
const { DOMException } = require('./internal/dom-exception');

function native() {
  const n = globalThis.__shoal_native;
  if (!n || typeof n.digest !== 'function') {
    throw notAvailable('node:crypto', 'the engine does not provide __shoal_native');
  }
  return n;
}

const kKeyObject = Symbol.for('shoal.crypto.KeyObject');
const kCryptoKey = Symbol.for('shoal.crypto.CryptoKey');

// ---------------------------------------------------------------- helpers

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


function encodeOutput(arrayBuffer, encoding) {
  const buf = Buffer.from(arrayBuffer);
  if (encoding === undefined || encoding === 'buffer') return buf;
  return buf.toString(encoding);
}

const hashNames = ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512'];
const hashAliases = {
  md5: 'md5', sha1: 'sha1', 'sha-1': 'sha1', sha224: 'sha224', 'sha-224': 'sha224', sha256: 'sha256', 'sha-256': 'sha256',
  sha384: 'sha384', 'sha-384': 'sha384', sha512: 'sha512', 'sha-512': 'sha512',
  'rsa-md5': 'md5', 'rsa-sha1': 'sha1', 'rsa-sha224': 'sha224', 'rsa-sha256': 'sha256', 'rsa-sha384': 'sha384', 'rsa-sha512': 'sha512',
  'sha2-224': 'sha224', 'sha2-256': 'sha256', 'sha2-384': 'sha384', 'sha2-512': 'sha512',
};
const digestLengths = { md5: 16, sha1: 20, sha224: 28, sha256: 32, sha384: 48, sha512: 64 };
const blockSizes = { md5: 64, sha1: 64, sha224: 64, sha256: 64, sha384: 128, sha512: 128 };

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

// ---------------------------------------------------------------- Hash

const kState = Symbol('state');

// Hash and Hmac buffer their input and hash it natively at digest().
function bufferUpdate(st, data, inputEncoding) {
  if (st.finalized) throw nodeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
  // Chunks are copied: the caller may reuse its buffer after update().
  const bytes = toBytes(data, inputEncoding);
  st.chunks.push(typeof data === 'string' ? bytes : bytes.slice());
}

class Hash {
  constructor(algorithm, options) {
    if (!(this instanceof Hash)) return new Hash(algorithm, options);
    const alg = normalizeHash(algorithm);
    if (!alg) throw new Error('Digest method not supported');
    if (options && options.outputLength !== undefined && options.outputLength !== digestLengths[alg]) {
      throw nodeError(Error, 'ERR_OSSL_EVP_NOT_XOF_OR_INVALID_LENGTH', 'error:1C80006C:Provider routines::not XOF or invalid length');
    }
    Object.defineProperty(this, kState, { value: { alg, chunks: [], finalized: false } });
  }

  update(data, inputEncoding) {
    bufferUpdate(this[kState], data, inputEncoding);
    return this;
  }

  digest(outputEncoding) {
    const st = this[kState];
    if (st.finalized) throw nodeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
    st.finalized = true;
    const result = native().digest(st.alg, concatBytes(st.chunks));
    st.chunks = [];
    return encodeOutput(result, outputEncoding);
  }

  copy(options) {
    const st = this[kState];
    if (st.finalized) throw nodeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
    const h = new Hash(st.alg, options);
    h[kState].chunks = st.chunks.slice();
    return h;
  }
}

class Hmac {
  constructor(hmac, key, options) {
    if (!(this instanceof Hmac)) return new Hmac(hmac, key, options);
    const alg = normalizeHash(hmac, 'hmac');
    if (!alg) throw new Error(`Invalid digest: ${hmac}`);
    const keyBytes = secretKeyBytes(key, options && options.encoding, 'key');
    Object.defineProperty(this, kState, { value: { alg, key: keyBytes, chunks: [], finalized: false } });
  }

  update(data, inputEncoding) {
    bufferUpdate(this[kState], data, inputEncoding);
    return this;
  }

  digest(outputEncoding) {
    const st = this[kState];
    // Node returns an empty result (not an error) for a second digest().
    if (st.finalized) return encodeOutput(new ArrayBuffer(0), outputEncoding);
    st.finalized = true;
    const result = native().hmac(st.alg, st.key, concatBytes(st.chunks));
    st.chunks = [];
    return encodeOutput(result, outputEncoding);
  }
}

function secretKeyBytes(key, encoding, name) {
  if (key && key[kKeyObject]) {
    if (key.type !== 'secret') throw nodeError(TypeError, 'ERR_CRYPTO_INVALID_KEY_OBJECT_TYPE', `Invalid key object type ${key.type}, expected secret.`);
    return key[kState].bytes;
  }
  if (key && key[kCryptoKey]) return key[kState].bytes;
  if (typeof key === 'string') return Buffer.from(key, encoding || 'utf8');
  if (ArrayBuffer.isView(key)) return viewBytes(key).slice();
  if (isArrayBufferLike(key)) return new Uint8Array(key.slice(0));
  throw invalidArgType(name, ['string', 'ArrayBuffer', 'Buffer', 'TypedArray', 'DataView', 'KeyObject', 'CryptoKey'], key);
}

function createHash(algorithm, options) {
  return new Hash(algorithm, options);
}

function createHmac(hmac, key, options) {
  return new Hmac(hmac, key, options);
}

// crypto.hash(algorithm, data[, outputEncoding]) - one-shot digest (hex by default).
function hash(algorithm, data, outputEncoding = 'hex') {
  const alg = normalizeHash(algorithm);
  if (!alg) throw new Error('Digest method not supported');
  if (typeof data !== 'string' && !ArrayBuffer.isView(data)) throw invalidArgType('data', ['string', 'Buffer', 'TypedArray', 'DataView'], data);
  return encodeOutput(native().digest(alg, toBytes(data)), outputEncoding);
}

// ---------------------------------------------------------------- random

const kMaxRandomBytes = 2 ** 31 - 1;

function validateSize(size, name = 'size', max = kMaxRandomBytes) {
  if (typeof size !== 'number') throw invalidArgType(name, 'number', size);
  if (!Number.isInteger(size) || size < 0 || size > max) {
    throw outOfRange(name, `>= 0 && <= ${max}`, size);
  }
}

function randomBytesRaw(n) {
  if (n === 0) return new Uint8Array(0);
  return new Uint8Array(native().randomBytes(n));
}

function randomBytes(size, callback) {
  validateSize(size);
  if (callback !== undefined && typeof callback !== 'function') throw invalidArgType('callback', 'function', callback);
  const buf = Buffer.from(randomBytesRaw(size).buffer);
  if (!callback) return buf;
  process.nextTick(callback, null, buf);
  return undefined;
}

function fillTarget(buf) {
  if (ArrayBuffer.isView(buf)) return viewBytes(buf);
  if (isArrayBufferLike(buf)) return new Uint8Array(buf);
  throw invalidArgType('buf', ['ArrayBuffer', 'ArrayBufferView'], buf);
}

function randomFillSync(buf, offset = 0, size = undefined) {
  const bytes = fillTarget(buf);
  const elementSize = ArrayBuffer.isView(buf) && buf.BYTES_PER_ELEMENT ? buf.BYTES_PER_ELEMENT : 1;
  const byteOffset = offset * elementSize;
  if (typeof offset !== 'number') throw invalidArgType('offset', 'number', offset);
  if (!Number.isInteger(offset) || byteOffset < 0 || byteOffset > bytes.length) {
    throw outOfRange('offset', `>= 0 && <= ${bytes.length / elementSize}`, offset);
  }
  const byteSize = size === undefined ? bytes.length - byteOffset : size * elementSize;
  if (size !== undefined && typeof size !== 'number') throw invalidArgType('size', 'number', size);
  if (!Number.isInteger(byteSize / elementSize) || byteSize < 0 || byteOffset + byteSize > bytes.length) {
    throw outOfRange('size', `>= 0 && <= ${(bytes.length - byteOffset) / elementSize}`, size);
  }
  bytes.set(randomBytesRaw(byteSize), byteOffset);
  return buf;
}

function randomFill(buf, offset, size, callback) {
  if (typeof offset === 'function') {
    callback = offset;
    offset = 0;
    size = undefined;
  } else if (typeof size === 'function') {
    callback = size;
    size = undefined;
  }
  if (typeof callback !== 'function') throw invalidArgType('callback', 'function', callback);
  randomFillSync(buf, offset, size);
  process.nextTick(callback, null, buf);
}

const integerArrayTags = new Set(['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array',
  'Int32Array', 'Uint32Array', 'BigInt64Array', 'BigUint64Array']);

function getRandomValues(typedArray) {
  if (arguments.length < 1) throw new TypeError('The "typedArray" argument must be specified');
  const tag = ArrayBuffer.isView(typedArray) ? Object.prototype.toString.call(typedArray).slice(8, -1) : '';
  if (!integerArrayTags.has(tag)) {
    throw new DOMException('The data argument must be an integer-type TypedArray', 'TypeMismatchError');
  }
  if (typedArray.byteLength > 65536) {
    throw new DOMException(`The ArrayBufferView's byte length (${typedArray.byteLength}) exceeds the number of bytes of entropy available via this API (65536)`, 'QuotaExceededError');
  }
  viewBytes(typedArray).set(randomBytesRaw(typedArray.byteLength));
  return typedArray;
}

const hexByte = [];
for (let i = 0; i < 256; i++) hexByte.push((i + 0x100).toString(16).slice(1));

// RFC 4122 version 4 (random) UUID.
function randomUUID(options) {
  if (options !== undefined && (options === null || typeof options !== 'object')) {
    throw invalidArgType('options', 'object', options);
  }
  const b = randomBytesRaw(16);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = (i) => hexByte[b[i]];
  return `${h(0)}${h(1)}${h(2)}${h(3)}-${h(4)}${h(5)}-${h(6)}${h(7)}-${h(8)}${h(9)}-${h(10)}${h(11)}${h(12)}${h(13)}${h(14)}${h(15)}`;
}

const RAND_MAX = 0xffffffffffff; // 2^48 - 1

// randomInt([min, ]max[, callback]): uniform in [min, max), by rejection
// sampling of 48-bit random numbers (no modulo bias).
function randomInt(min, max, callback) {
  const minNotSpecified = typeof max === 'undefined' || typeof max === 'function';
  if (minNotSpecified) {
    callback = max;
    max = min;
    min = 0;
  }
  const isSync = typeof callback === 'undefined';
  if (!isSync && typeof callback !== 'function') throw invalidArgType('callback', 'function', callback);
  if (!Number.isSafeInteger(min)) throw invalidArgType('min', 'a safe integer', min);
  if (!Number.isSafeInteger(max)) throw invalidArgType('max', 'a safe integer', max);
  if (max <= min) {
    throw nodeError(RangeError, 'ERR_OUT_OF_RANGE',
      `The value of "max" is out of range. It must be greater than the value of "min" (${min}). Received ${max}`);
  }
  const range = max - min;
  if (!(range <= RAND_MAX)) {
    throw nodeError(RangeError, 'ERR_OUT_OF_RANGE',
      `The value of "max - min" is out of range. It must be <= ${RAND_MAX}. Received ${addUnderscores(String(range))}`);
  }
  const randLimit = RAND_MAX - (RAND_MAX % range);
  let n;
  for (;;) {
    const b = randomBytesRaw(6);
    const x = ((b[0] * 0x100 + b[1]) * 0x100 + b[2]) * 0x1000000 + ((b[3] << 16) | (b[4] << 8) | b[5]);
    if (x < randLimit) {
      n = (x % range) + min;
      break;
    }
  }
  if (isSync) return n;
  process.nextTick(callback, undefined, n);
  return undefined;
}

function timingSafeEqual(a, b) {
  const isBin = (v) => ArrayBuffer.isView(v) || isArrayBufferLike(v);
  if (!isBin(a)) throw invalidArgType('buf1', ['ArrayBuffer', 'Buffer', 'TypedArray', 'DataView'], a);
  if (!isBin(b)) throw invalidArgType('buf2', ['ArrayBuffer', 'Buffer', 'TypedArray', 'DataView'], b);
  const x = ArrayBuffer.isView(a) ? viewBytes(a) : new Uint8Array(a);
  const y = ArrayBuffer.isView(b) ? viewBytes(b) : new Uint8Array(b);
  if (x.length !== y.length) {
    throw nodeError(RangeError, 'ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH', 'Input buffers must have the same byte length');
  }
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
  return diff === 0;
}

// ---------------------------------------------------------------- KDFs

function pbkdf2Sync(password, salt, iterations, keylen, digest) {
  const pw = toBytes(password, 'utf8', 'password', true);
  const s = toBytes(salt, 'utf8', 'salt', true);
  if (typeof iterations !== 'number') throw invalidArgType('iterations', 'number', iterations);
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > 2147483647) {
    throw outOfRange('iterations', '>= 1 && <= 2147483647', iterations);
  }
  if (typeof keylen !== 'number') throw invalidArgType('keylen', 'number', keylen);
  if (!Number.isInteger(keylen) || keylen < 0 || keylen > 2147483647) {
    throw outOfRange('keylen', '>= 0 && <= 2147483647', keylen);
  }
  if (typeof digest !== 'string') throw invalidArgType('digest', 'string', digest);
  const alg = normalizeHash(digest, 'digest');
  if (!alg) throw nodeError(TypeError, 'ERR_CRYPTO_INVALID_DIGEST', `Invalid digest: ${digest}`);
  if (keylen === 0) return Buffer.alloc(0);
  return Buffer.from(native().pbkdf2(alg, pw, s, iterations, keylen));
}

function pbkdf2(password, salt, iterations, keylen, digest, callback) {
  if (typeof digest === 'function') {
    callback = digest;
    digest = undefined;
  }
  if (typeof callback !== 'function') throw invalidArgType('callback', 'function', callback);
  const key = pbkdf2Sync(password, salt, iterations, keylen, digest);
  process.nextTick(callback, null, key);
}

// HKDF (RFC 5869) from HMAC.
function hkdfBytes(alg, ikm, salt, info, length) {
  const n = native();
  const hashLen = digestLengths[alg];
  const prk = new Uint8Array(n.hmac(alg, salt.length ? salt : new Uint8Array(hashLen), ikm));
  const out = new Uint8Array(length);
  let prev = new Uint8Array(0);
  for (let i = 0, off = 0; off < length; i++) {
    const input = concatBytes([prev, info, Uint8Array.of(i + 1)]);
    prev = new Uint8Array(n.hmac(alg, prk, input));
    out.set(prev.subarray(0, Math.min(prev.length, length - off)), off);
    off += prev.length;
  }
  return out;
}

function hkdfSync(digest, ikm, salt, info, keylen) {
  const alg = normalizeHash(digest, 'digest');
  if (!alg) throw nodeError(TypeError, 'ERR_CRYPTO_INVALID_DIGEST', `Invalid digest: ${digest}`);
  const key = secretKeyBytes(ikm, 'utf8', 'ikm');
  const s = toBytes(salt, 'utf8', 'salt', true);
  const i = toBytes(info, 'utf8', 'info', true);
  if (typeof keylen !== 'number') throw invalidArgType('length', 'number', keylen);
  if (i.length > 1024) {
    throw nodeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "info" is out of range. It must be <= 1024 bytes. Received ${i.length}`);
  }
  if (keylen > 255 * digestLengths[alg]) {
    throw nodeError(RangeError, 'ERR_CRYPTO_INVALID_KEYLEN', 'Invalid key length');
  }
  return hkdfBytes(alg, key, s, i, keylen).buffer;
}

function hkdf(digest, ikm, salt, info, keylen, callback) {
  if (typeof callback !== 'function') throw invalidArgType('callback', 'function', callback);
  const key = hkdfSync(digest, ikm, salt, info, keylen);
  process.nextTick(callback, null, key);
}

// ---------------------------------------------------------------- scrypt

function scryptSync(password, salt, keylen, options) {
  const pw = toBytes(password, 'utf8', 'password', true);
  const s = toBytes(salt, 'utf8', 'salt', true);
  if (typeof keylen !== 'number') throw invalidArgType('keylen', 'number', keylen);
  if (!Number.isInteger(keylen) || keylen < 0 || keylen > 2147483647) {
    throw outOfRange('keylen', '>= 0 && <= 2147483647', keylen);
  }
  const o = options || {};
  const N = o.N ?? o.cost ?? 16384;
  const r = o.r ?? o.blockSize ?? 8;
  const p = o.p ?? o.parallelization ?? 1;
  const maxmem = o.maxmem ?? 32 << 20;
  if (128 * N * r > maxmem) {
    throw nodeError(RangeError, 'ERR_CRYPTO_INVALID_SCRYPT_PARAMS', 'Invalid scrypt params: memory limit exceeded');
  }
  if (keylen === 0) return Buffer.alloc(0);
  try {
    return Buffer.from(native().scrypt(pw, s, N, r, p, keylen));
  } catch (err) {
    throw nodeError(RangeError, 'ERR_CRYPTO_INVALID_SCRYPT_PARAMS', err.message);
  }
}

function scrypt(password, salt, keylen, options, callback) {
  if (typeof options === 'function') {
    callback = options;
    options = undefined;
  }
  if (typeof callback !== 'function') throw invalidArgType('callback', 'function', callback);
  let key;
  try {
    key = scryptSync(password, salt, keylen, options);
  } catch (err) {
    process.nextTick(callback, err);
    return;
  }
  process.nextTick(callback, null, key);
}

// ---------------------------------------------------------------- ciphers
// AES in CBC, CTR and GCM, as OpenSSL names them for Node. The engine's
// functions are stateless; a Cipher keeps the chaining state: CBC's next IV
// and the bytes short of a block, the keystream position for CTR and GCM,
// and for GCM the AAD and every byte, for the tag at final().

const cipherModes = { cbc: 16, ctr: 16, gcm: 12 };
const cipherNames = [];
for (const bits of [128, 192, 256]) for (const mode of Object.keys(cipherModes)) cipherNames.push(`aes-${bits}-${mode}`);

function cipherSpec(name) {
  const m = /^(?:aes-?)(128|192|256)-?(cbc|ctr|gcm)$/.exec(String(name).toLowerCase());
  if (!m) throw nodeError(Error, 'ERR_CRYPTO_UNKNOWN_CIPHER', 'Unknown cipher');
  return { keyLength: Number(m[1]) / 8, mode: m[2] };
}

function cipherKeyBytes(key) {
  if (key && key[kKeyObject]) return key[kState].bytes;
  if (key && key[kCryptoKey]) return key[kState].bytes;
  return toBytes(key, 'utf8', 'key', true);
}

function gcmCounterBlock(iv) {
  // J0 + 1 for a 96-bit IV: IV || 0x00000002.
  const block = new Uint8Array(16);
  block.set(iv);
  block[15] = 2;
  return block;
}

class Cipheriv {
  constructor(name, key, iv, options, decrypt) {
    const spec = cipherSpec(name);
    const k = cipherKeyBytes(key);
    if (k.length !== spec.keyLength) throw nodeError(RangeError, 'ERR_CRYPTO_INVALID_KEYLEN', 'Invalid key length');
    const v = iv === null || iv === undefined ? new Uint8Array(0) : toBytes(iv, 'utf8', 'iv', true);
    if (spec.mode === 'gcm' ? v.length !== 12 : v.length !== 16) {
      throw nodeError(TypeError, 'ERR_CRYPTO_INVALID_IV', 'Invalid initialization vector');
    }
    this._mode = spec.mode;
    this._key = Uint8Array.from(k);
    this._iv = Uint8Array.from(v);
    this._decrypt = decrypt;
    this._pending = new Uint8Array(0);
    this._offset = 0;
    this._aad = new Uint8Array(0);
    this._all = [];
    this._tag = undefined;
    this._autoPadding = true;
    this._tagLength = (options && options.authTagLength) || 16;
    this._done = false;
  }

  setAutoPadding(autoPadding = true) {
    this._autoPadding = Boolean(autoPadding);
    return this;
  }

  setAAD(aad) {
    if (this._mode !== 'gcm') throw nodeError(Error, 'ERR_CRYPTO_INVALID_STATE', 'Invalid state for operation setAAD');
    this._aad = Uint8Array.from(toBytes(aad, 'utf8', 'buffer'));
    return this;
  }

  getAuthTag() {
    if (this._decrypt || this._mode !== 'gcm' || this._tag === undefined) {
      throw nodeError(Error, 'ERR_CRYPTO_INVALID_STATE', 'Invalid state for operation getAuthTag');
    }
    return Buffer.from(this._tag.subarray(0, this._tagLength));
  }

  setAuthTag(tag) {
    if (!this._decrypt || this._mode !== 'gcm') {
      throw nodeError(Error, 'ERR_CRYPTO_INVALID_STATE', 'Invalid state for operation setAuthTag');
    }
    this._tag = Uint8Array.from(toBytes(tag, 'utf8', 'buffer'));
    return this;
  }

  update(data, inputEncoding, outputEncoding) {
    if (this._done) throw nodeError(Error, 'ERR_CRYPTO_INVALID_STATE', 'Invalid state for operation update');
    const input = toBytes(data, inputEncoding, 'data');
    let out;
    if (this._mode === 'cbc') {
      const all = concatBytes([this._pending, input]);
      // Decryption keeps the last whole block back: it may be the padding.
      let whole = all.length - (all.length % 16);
      if (this._decrypt && this._autoPadding && whole === all.length && whole > 0) whole -= 16;
      this._pending = all.slice(whole);
      out = new Uint8Array(0);
      if (whole > 0) {
        const blocks = all.subarray(0, whole);
        out = new Uint8Array(native().aesCbc(this._key, this._iv, blocks, this._decrypt));
        this._iv = (this._decrypt ? blocks : out).slice(whole - 16, whole);
      }
    } else {
      const counter = this._mode === 'gcm' ? gcmCounterBlock(this._iv) : this._iv;
      out = new Uint8Array(native().aesCtr(this._key, counter, this._offset, input, this._mode === 'gcm'));
      this._offset += input.length;
      // The tag covers the ciphertext; the engine recomputes it from the
      // plaintext (encrypting) or the ciphertext (decrypting) at final().
      if (this._mode === 'gcm') this._all.push(Uint8Array.from(input));
    }
    return encodeOutput(out, outputEncoding);
  }

  final(outputEncoding) {
    if (this._done) throw nodeError(Error, 'ERR_CRYPTO_INVALID_STATE', 'Invalid state for operation final');
    this._done = true;
    let out = new Uint8Array(0);
    if (this._mode === 'cbc') {
      if (!this._decrypt) {
        if (this._autoPadding) {
          const pad = 16 - (this._pending.length % 16);
          const block = concatBytes([this._pending, new Uint8Array(pad).fill(pad)]);
          out = new Uint8Array(native().aesCbc(this._key, this._iv, block, false));
        } else if (this._pending.length > 0) {
          throw nodeError(Error, 'ERR_OSSL_WRONG_FINAL_BLOCK_LENGTH', 'error:1C80006B:Provider routines::wrong final block length');
        }
      } else if (this._pending.length > 0 || this._autoPadding) {
        if (this._pending.length !== 16) {
          throw nodeError(Error, 'ERR_OSSL_WRONG_FINAL_BLOCK_LENGTH', 'error:1C80006B:Provider routines::wrong final block length');
        }
        const plain = new Uint8Array(native().aesCbc(this._key, this._iv, this._pending, true));
        if (this._autoPadding) {
          const pad = plain[15];
          if (pad < 1 || pad > 16 || plain.subarray(16 - pad).some((b) => b !== pad)) {
            throw nodeError(Error, 'ERR_OSSL_BAD_DECRYPT', 'error:1C800064:Provider routines::bad decrypt');
          }
          out = plain.subarray(0, 16 - pad);
        } else {
          out = plain;
        }
      }
    } else if (this._mode === 'gcm') {
      const data = concatBytes(this._all);
      this._all = [];
      if (this._decrypt) {
        if (this._tag === undefined) throw new Error('Unsupported state or unable to authenticate data');
        native().aesGcm(this._key, this._iv, this._aad, data, this._tag);
      } else {
        this._tag = new Uint8Array(native().aesGcm(this._key, this._iv, this._aad, data));
      }
    }
    return encodeOutput(out, outputEncoding);
  }
}

function createCipheriv(name, key, iv, options) {
  return new Cipheriv(name, key, iv, options, false);
}

function createDecipheriv(name, key, iv, options) {
  return new Cipheriv(name, key, iv, options, true);
}

// OpenSSL's numeric ids, which Node's getCipherInfo reports.
const cipherNids = {
  'aes-128-cbc': 419, 'aes-128-ctr': 904, 'aes-128-gcm': 895,
  'aes-192-cbc': 423, 'aes-192-ctr': 905, 'aes-192-gcm': 898,
  'aes-256-cbc': 427, 'aes-256-ctr': 906, 'aes-256-gcm': 901,
};

function getCipherInfo(name) {
  let spec;
  try {
    spec = cipherSpec(name);
  } catch {
    return undefined;
  }
  const canonical = `aes-${spec.keyLength * 8}-${spec.mode}`;
  return {
    mode: spec.mode,
    // OpenSSL's long name for GCM.
    name: spec.mode === 'gcm' ? `id-aes${spec.keyLength * 8}-gcm` : canonical,
    nid: cipherNids[canonical],
    blockSize: spec.mode === 'cbc' ? 16 : 1,
    ivLength: cipherModes[spec.mode],
    keyLength: spec.keyLength,
  };
}

// ---------------------------------------------------------------- keys

class KeyObject {
  constructor(type, bytes) {
    if (type !== 'secret') throw notAvailable(`KeyObject of type ${type}`);
    Object.defineProperty(this, kState, { value: { bytes } });
    Object.defineProperty(this, kKeyObject, { value: true });
    Object.defineProperty(this, 'type', { value: type, enumerable: true });
  }
  get symmetricKeySize() {
    return this[kState].bytes.length;
  }
  get asymmetricKeyType() {
    return undefined;
  }
  export(options) {
    if (options && options.format === 'jwk') {
      return { kty: 'oct', k: Buffer.from(this[kState].bytes).toString('base64url') };
    }
    return Buffer.from(this[kState].bytes);
  }
  equals(other) {
    if (!other || !other[kKeyObject]) throw invalidArgType('otherKeyObject', 'KeyObject', other);
    const a = this[kState].bytes;
    const b = other[kState].bytes;
    return a.length === b.length && timingSafeEqual(a, b);
  }
  static from(key) {
    if (!key || !key[kCryptoKey]) throw invalidArgType('key', 'CryptoKey', key);
    return new KeyObject('secret', key[kState].bytes.slice());
  }
}

function createSecretKey(key, encoding) {
  if (typeof key === 'string') return new KeyObject('secret', Buffer.from(key, encoding || 'utf8'));
  if (ArrayBuffer.isView(key)) return new KeyObject('secret', viewBytes(key).slice());
  if (isArrayBufferLike(key)) return new KeyObject('secret', new Uint8Array(key.slice(0)));
  throw invalidArgType('key', ['ArrayBuffer', 'Buffer', 'TypedArray', 'DataView'], key);
}

function generateKeySync(type, options) {
  if (type !== 'hmac' && type !== 'aes') throw notAvailable(`crypto.generateKeySync('${type}')`);
  const length = options && options.length;
  if (!Number.isInteger(length)) throw invalidArgType('options.length', 'number', length);
  if (type === 'aes' && ![128, 192, 256].includes(length)) {
    throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The property 'options.length' must be one of: 128, 192, 256. Received ${length}`);
  }
  return new KeyObject('secret', randomBytesRaw(Math.floor(length / 8)));
}

function generateKey(type, options, callback) {
  if (typeof callback !== 'function') throw invalidArgType('callback', 'function', callback);
  const key = generateKeySync(type, options);
  process.nextTick(callback, null, key);
}

// ---------------------------------------------------------------- webcrypto

const webHashes = { 'SHA-1': 'sha1', 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };

function algorithmName(algorithm) {
  const name = typeof algorithm === 'string' ? algorithm : algorithm && algorithm.name;
  if (typeof name !== 'string') throw new TypeError('Algorithm: Unrecognized name');
  return name;
}

function webHash(algorithm) {
  const name = algorithmName(algorithm).toUpperCase();
  const alg = webHashes[name];
  if (!alg) throw new DOMException('Unrecognized algorithm name', 'NotSupportedError');
  return { name, alg };
}

function bufferSource(data, what = 'data') {
  if (ArrayBuffer.isView(data)) return viewBytes(data).slice();
  if (isArrayBufferLike(data)) return new Uint8Array(data.slice(0));
  throw invalidArgType(what, ['ArrayBuffer', 'Buffer', 'TypedArray', 'DataView'], data);
}

class CryptoKey {
  constructor() {
    throw new TypeError('Illegal constructor');
  }
  get type() { return this[kState].type; }
  get extractable() { return this[kState].extractable; }
  get algorithm() { return this[kState].algorithm; }
  get usages() { return this[kState].usages.slice(); }
}
Object.defineProperty(CryptoKey.prototype, Symbol.toStringTag, { value: 'CryptoKey', configurable: true });

function makeCryptoKey(algorithm, extractable, usages, bytes) {
  const key = Object.create(CryptoKey.prototype);
  Object.defineProperty(key, kState, { value: { type: 'secret', extractable: !!extractable, algorithm, usages: Array.from(usages), bytes } });
  Object.defineProperty(key, kCryptoKey, { value: true });
  return key;
}

function checkUsages(usages, allowed) {
  for (const u of usages) {
    if (!allowed.includes(u)) throw new DOMException('Unsupported key usage for this key', 'SyntaxError');
  }
}

function importKeySync(format, keyData, algorithm, extractable, usages) {
  const name = algorithmName(algorithm).toUpperCase();
  let bytes;
  if (format === 'raw') {
    bytes = bufferSource(keyData, 'keyData');
  } else if (format === 'jwk' && name === 'HMAC') {
    if (!keyData || keyData.kty !== 'oct' || typeof keyData.k !== 'string') {
      throw new DOMException('Invalid keyData', 'DataError');
    }
    bytes = new Uint8Array(Buffer.from(keyData.k, 'base64url'));
  } else {
    throw new DOMException(`Unable to import ${name} key with format ${format}`, 'NotSupportedError');
  }
  if (name === 'HMAC') {
    if (!algorithm.hash) throw new TypeError('Algorithm: hash: Missing or not an AlgorithmIdentifier');
    const h = webHash(algorithm.hash);
    checkUsages(usages, ['sign', 'verify']);
    if (bytes.length === 0) throw new DOMException('Zero-length key is not supported', 'DataError');
    const length = algorithm.length !== undefined ? algorithm.length : bytes.length * 8;
    return makeCryptoKey({ name: 'HMAC', hash: { name: h.name }, length }, extractable, usages, bytes);
  }
  if (name === 'PBKDF2' || name === 'HKDF') {
    if (extractable) throw new DOMException(`${name} keys are not extractable`, 'SyntaxError');
    checkUsages(usages, ['deriveBits', 'deriveKey']);
    return makeCryptoKey({ name }, false, usages, bytes);
  }
  throw new DOMException(`The ${name} algorithm is not available in Shoal's JavaScript engine`, 'NotSupportedError');
}

function deriveBitsSync(algorithm, baseKey, length) {
  const name = algorithmName(algorithm).toUpperCase();
  if (!baseKey || !baseKey[kCryptoKey]) throw invalidArgType('baseKey', 'CryptoKey', baseKey);
  if (baseKey.algorithm.name !== name) throw new DOMException('Key algorithm mismatch', 'InvalidAccessError');
  if (!baseKey.usages.includes('deriveBits') && !baseKey.usages.includes('deriveKey')) {
    throw new DOMException('baseKey does not have deriveBits usage', 'InvalidAccessError');
  }
  if (length === null || length === undefined || length % 8 !== 0) {
    throw new DOMException('length must be a multiple of 8', 'OperationError');
  }
  const h = webHash(algorithm.hash);
  const salt = bufferSource(algorithm.salt, 'algorithm.salt');
  if (name === 'PBKDF2') {
    if (!(algorithm.iterations > 0)) throw new DOMException('iterations cannot be zero', 'OperationError');
    if (length === 0) return new ArrayBuffer(0);
    return native().pbkdf2(h.alg, baseKey[kState].bytes, salt, algorithm.iterations, length / 8);
  }
  if (name === 'HKDF') {
    const info = bufferSource(algorithm.info, 'algorithm.info');
    return hkdfBytes(h.alg, baseKey[kState].bytes, salt, info, length / 8).buffer;
  }
  throw new DOMException(`The ${name} algorithm is not available in Shoal's JavaScript engine`, 'NotSupportedError');
}

function hmacKey(algorithm, key, usage) {
  const name = algorithmName(algorithm).toUpperCase();
  if (!key || !key[kCryptoKey]) throw invalidArgType('key', 'CryptoKey', key);
  if (name !== 'HMAC') {
    throw new DOMException(`The ${name} algorithm is not available in Shoal's JavaScript engine`, 'NotSupportedError');
  }
  if (key.algorithm.name !== 'HMAC') throw new DOMException('Key algorithm mismatch', 'InvalidAccessError');
  if (!key.usages.includes(usage)) throw new DOMException(`Unable to use this key to ${usage}`, 'InvalidAccessError');
  return key;
}

// Every method returns a Promise, and failures are rejections.
const later = (fn) => new Promise((resolve) => resolve(fn()));

const subtle = {
  digest: (algorithm, data) => later(() => native().digest(webHash(algorithm).alg, bufferSource(data))),
  importKey: (format, keyData, algorithm, extractable, keyUsages) =>
    later(() => importKeySync(format, keyData, typeof algorithm === 'string' ? { name: algorithm } : algorithm, extractable, keyUsages)),
  exportKey: (format, key) => later(() => {
    if (!key || !key[kCryptoKey]) throw invalidArgType('key', 'CryptoKey', key);
    if (!key.extractable) throw new DOMException('key is not extractable', 'InvalidAccessException');
    if (format === 'raw') return key[kState].bytes.slice().buffer;
    if (format === 'jwk' && key.algorithm.name === 'HMAC') {
      return {
        key_ops: key.usages,
        ext: true,
        kty: 'oct',
        k: Buffer.from(key[kState].bytes).toString('base64url'),
        alg: `HS${key.algorithm.hash.name.slice(4)}`,
      };
    }
    throw new DOMException(`Unable to export a key with format ${format}`, 'NotSupportedError');
  }),
  generateKey: (algorithm, extractable, keyUsages) => later(() => {
    const name = algorithmName(algorithm).toUpperCase();
    if (name !== 'HMAC') {
      throw new DOMException(`The ${name} algorithm is not available in Shoal's JavaScript engine`, 'NotSupportedError');
    }
    const h = webHash(algorithm.hash);
    const length = algorithm.length !== undefined ? algorithm.length : blockSizes[h.alg] * 8;
    const bytes = randomBytesRaw(Math.ceil(length / 8));
    checkUsages(keyUsages, ['sign', 'verify']);
    return makeCryptoKey({ name: 'HMAC', hash: { name: h.name }, length }, extractable, keyUsages, bytes);
  }),
  sign: (algorithm, key, data) => later(() => {
    const k = hmacKey(algorithm, key, 'sign');
    return native().hmac(webHashes[k.algorithm.hash.name], k[kState].bytes, bufferSource(data));
  }),
  verify: (algorithm, key, signature, data) => later(() => {
    const k = hmacKey(algorithm, key, 'verify');
    const expected = new Uint8Array(native().hmac(webHashes[k.algorithm.hash.name], k[kState].bytes, bufferSource(data)));
    const sig = bufferSource(signature, 'signature');
    return sig.length === expected.length && timingSafeEqual(sig, expected);
  }),
  deriveBits: (algorithm, baseKey, length) => later(() => deriveBitsSync(algorithm, baseKey, length)),
  deriveKey: (algorithm, baseKey, derivedKeyAlgorithm, extractable, keyUsages) => later(() => {
    const derived = typeof derivedKeyAlgorithm === 'string' ? { name: derivedKeyAlgorithm } : derivedKeyAlgorithm;
    let length = derived.length;
    if (length === undefined && algorithmName(derived).toUpperCase() === 'HMAC') {
      length = blockSizes[webHash(derived.hash).alg] * 8;
    }
    const bits = deriveBitsSync(algorithm, baseKey, length);
    return importKeySync('raw', bits, derived, extractable, keyUsages);
  }),
};
for (const name of ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey']) {
  subtle[name] = () => Promise.reject(new DOMException(`crypto.subtle.${name}() is not available in Shoal's JavaScript engine`, 'NotSupportedError'));
}

const webcrypto = {
  subtle,
  getRandomValues,
  randomUUID: () => randomUUID(),
  CryptoKey,
};

// ---------------------------------------------------------------- module

function unavailable(name, why) {
  return function () {
    throw notAvailable(`crypto.${name}()`, why);
  };
}

const noKeys = 'the engine has no public-key cryptography';

module.exports = {
  createHash,
  createHmac,
  hash,
  Hash,
  Hmac,
  randomBytes,
  pseudoRandomBytes: randomBytes,
  prng: randomBytes,
  rng: randomBytes,
  randomFill,
  randomFillSync,
  randomInt,
  randomUUID,
  getRandomValues,
  timingSafeEqual,
  pbkdf2,
  pbkdf2Sync,
  hkdf,
  hkdfSync,
  createSecretKey,
  generateKey,
  generateKeySync,
  KeyObject,
  getHashes: () => hashNames.slice(),
  getCiphers: () => cipherNames.slice(),
  getCipherInfo,
  getCurves: () => [],
  getFips: () => 0,
  setFips: unavailable('setFips', 'there is no FIPS provider'),
  setEngine: unavailable('setEngine'),
  secureHeapUsed: () => ({ total: 0, min: 0, used: 0, utilization: 0 }),
  webcrypto,
  subtle,
  constants: {},
  createCipheriv,
  createDecipheriv,
  Cipheriv,
  Decipheriv: Cipheriv,
  createCipher: unavailable('createCipher', 'it was removed in Node.js 22; use crypto.createCipheriv()'),
  createDecipher: unavailable('createDecipher', 'it was removed in Node.js 22; use crypto.createDecipheriv()'),
  createSign: unavailable('createSign', noKeys),
  createVerify: unavailable('createVerify', noKeys),
  sign: unavailable('sign', noKeys),
  verify: unavailable('verify', noKeys),
  generateKeyPair: unavailable('generateKeyPair', noKeys),
  generateKeyPairSync: unavailable('generateKeyPairSync', noKeys),
  createPrivateKey: unavailable('createPrivateKey', noKeys),
  createPublicKey: unavailable('createPublicKey', noKeys),
  publicEncrypt: unavailable('publicEncrypt', noKeys),
  publicDecrypt: unavailable('publicDecrypt', noKeys),
  privateEncrypt: unavailable('privateEncrypt', noKeys),
  privateDecrypt: unavailable('privateDecrypt', noKeys),
  createECDH: unavailable('createECDH', noKeys),
  createDiffieHellman: unavailable('createDiffieHellman', noKeys),
  createDiffieHellmanGroup: unavailable('createDiffieHellmanGroup', noKeys),
  getDiffieHellman: unavailable('getDiffieHellman', noKeys),
  diffieHellman: unavailable('diffieHellman', noKeys),
  scrypt,
  scryptSync,
  checkPrime: unavailable('checkPrime'),
  checkPrimeSync: unavailable('checkPrimeSync'),
  generatePrime: unavailable('generatePrime'),
  generatePrimeSync: unavailable('generatePrimeSync'),
  Certificate: unavailable('Certificate', noKeys),
  X509Certificate: unavailable('X509Certificate', noKeys),
  Sign: unavailable('Sign', noKeys),
  Verify: unavailable('Verify', noKeys),
  ECDH: unavailable('ECDH', noKeys),
  DiffieHellman: unavailable('DiffieHellman', noKeys),
};
