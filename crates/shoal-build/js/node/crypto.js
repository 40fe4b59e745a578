'use strict';
// node:crypto for Shoal Functions: the module's face. Hashes, HMAC,
// random numbers, PBKDF2, HKDF, scrypt and AES (CBC, CTR, GCM through
// createCipheriv/createDecipheriv, update/final, not as streams) are here;
// keys (KeyObject, key generation), signatures, RSA encryption, ECDH,
// X509Certificate and Web Crypto are in internal/crypto/. The work is done in the engine
// (internal/native.js), in Rust.
const { concatBytes } = require('./internal/bytes.js');

const { Buffer } = require('buffer');
const { nodeError, invalidArgType, outOfRange, notAvailable, addUnderscores } = require('./internal/errors');
const { DOMException } = require('./internal/dom-exception');
const native = require('./internal/native');
const {
  kState, isArrayBufferLike, viewBytes, toBytes, encodeOutput, hashNames, digestLengths, normalizeHash,
} = require('./internal/crypto/util');
// The key API and Web Crypto are loaded on first use: most Functions only
// hash or want a UUID, and should not pay for setting up the rest.
const lazily = (load) => {
  let loaded;
  return () => (loaded ??= load());
};
const keysModule = lazily(() => require('./internal/crypto/keys'));
const keygen = lazily(() => require('./internal/crypto/keygen'));
const sig = lazily(() => require('./internal/crypto/sig'));
const asym = lazily(() => require('./internal/crypto/cipher-asym'));
const dh = lazily(() => require('./internal/crypto/diffie-hellman'));
const web = lazily(() => require('./internal/crypto/webcrypto'));
const x509 = lazily(() => require('./internal/crypto/x509'));
const keys = {
  prepareSecretKey: (...args) => keysModule().prepareSecretKey(...args),
  isKeyObject: (v) => keysModule().isKeyObject(v),
  isCryptoKey: (v) => keysModule().isCryptoKey(v),
};

// ---------------------------------------------------------------- Hash

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
    const result = native.digest(st.alg, concatBytes(st.chunks));
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
    const keyBytes = secretKeyBytes(key, options && options.encoding);
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
    const result = native.hmac(st.alg, st.key, concatBytes(st.chunks));
    st.chunks = [];
    return encodeOutput(result, outputEncoding);
  }
}

function secretKeyBytes(key, encoding) {
  return Uint8Array.from(keys.prepareSecretKey(key, encoding));
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
  return encodeOutput(native.digest(alg, toBytes(data)), outputEncoding);
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
  return new Uint8Array(native.randomBytes(n));
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
  return Buffer.from(native.pbkdf2(alg, pw, s, iterations, keylen));
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
  const hashLen = digestLengths[alg];
  const prk = new Uint8Array(native.hmac(alg, salt.length ? salt : new Uint8Array(hashLen), ikm));
  const out = new Uint8Array(length);
  let prev = new Uint8Array(0);
  for (let i = 0, off = 0; off < length; i++) {
    const input = concatBytes([prev, info, Uint8Array.of(i + 1)]);
    prev = new Uint8Array(native.hmac(alg, prk, input));
    out.set(prev.subarray(0, Math.min(prev.length, length - off)), off);
    off += prev.length;
  }
  return out;
}

function hkdfSync(digest, ikm, salt, info, keylen) {
  const alg = normalizeHash(digest, 'digest');
  if (!alg) throw nodeError(TypeError, 'ERR_CRYPTO_INVALID_DIGEST', `Invalid digest: ${digest}`);
  const key = secretKeyBytes(ikm, 'utf8');
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
    return Buffer.from(native.scrypt(pw, s, N, r, p, keylen));
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
  if (keys.isKeyObject(key) || keys.isCryptoKey(key)) return keys.prepareSecretKey(key);
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
        out = new Uint8Array(native.aesCbc(this._key, this._iv, blocks, this._decrypt));
        this._iv = (this._decrypt ? blocks : out).slice(whole - 16, whole);
      }
    } else {
      const counter = this._mode === 'gcm' ? gcmCounterBlock(this._iv) : this._iv;
      out = new Uint8Array(native.aesCtr(this._key, counter, this._offset, input, this._mode === 'gcm'));
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
          out = new Uint8Array(native.aesCbc(this._key, this._iv, block, false));
        } else if (this._pending.length > 0) {
          throw nodeError(Error, 'ERR_OSSL_WRONG_FINAL_BLOCK_LENGTH', 'error:1C80006B:Provider routines::wrong final block length');
        }
      } else if (this._pending.length > 0 || this._autoPadding) {
        if (this._pending.length !== 16) {
          throw nodeError(Error, 'ERR_OSSL_WRONG_FINAL_BLOCK_LENGTH', 'error:1C80006B:Provider routines::wrong final block length');
        }
        const plain = new Uint8Array(native.aesCbc(this._key, this._iv, this._pending, true));
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
        native.aesGcm(this._key, this._iv, this._aad, data, this._tag);
      } else {
        this._tag = new Uint8Array(native.aesGcm(this._key, this._iv, this._aad, data));
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

// ---------------------------------------------------------------- webcrypto

const webcrypto = {
  get subtle() {
    return web().subtle;
  },
  getRandomValues,
  randomUUID: () => randomUUID(),
  get CryptoKey() {
    return web().CryptoKey;
  },
};

// ---------------------------------------------------------------- module

function unavailable(name, why) {
  return function () {
    throw notAvailable(`crypto.${name}()`, why);
  };
}

const noFiniteFieldDH = 'finite-field Diffie-Hellman is not in the engine; use createECDH() or crypto.diffieHellman() with EC or X25519 keys';

// The values Node's crypto.constants has for keys, padding and ECDH
// (its TLS option bits are OpenSSL's; Shoal has no TLS server to set them on).
const constants = Object.freeze({
  __proto__: null,
  RSA_PKCS1_PADDING: 1,
  RSA_NO_PADDING: 3,
  RSA_PKCS1_OAEP_PADDING: 4,
  RSA_X931_PADDING: 5,
  RSA_PKCS1_PSS_PADDING: 6,
  RSA_PSS_SALTLEN_DIGEST: -1,
  RSA_PSS_SALTLEN_MAX_SIGN: -2,
  RSA_PSS_SALTLEN_AUTO: -2,
  POINT_CONVERSION_COMPRESSED: 2,
  POINT_CONVERSION_UNCOMPRESSED: 4,
  POINT_CONVERSION_HYBRID: 6,
});

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
  getHashes: () => hashNames.slice(),
  getCiphers: () => cipherNames.slice(),
  getCipherInfo,
  getFips: () => 0,
  setFips: unavailable('setFips', 'there is no FIPS provider'),
  setEngine: unavailable('setEngine'),
  secureHeapUsed: () => ({ total: 0, min: 0, used: 0, utilization: 0 }),
  webcrypto,
  constants,
  createCipheriv,
  createDecipheriv,
  Cipheriv,
  Decipheriv: Cipheriv,
  createCipher: unavailable('createCipher', 'it was removed in Node.js 22; use crypto.createCipheriv()'),
  createDecipher: unavailable('createDecipher', 'it was removed in Node.js 22; use crypto.createDecipheriv()'),
  createDiffieHellman: unavailable('createDiffieHellman', noFiniteFieldDH),
  createDiffieHellmanGroup: unavailable('createDiffieHellmanGroup', noFiniteFieldDH),
  getDiffieHellman: unavailable('getDiffieHellman', noFiniteFieldDH),
  DiffieHellman: unavailable('DiffieHellman', noFiniteFieldDH),
  scrypt,
  scryptSync,
  checkPrime: unavailable('checkPrime'),
  checkPrimeSync: unavailable('checkPrimeSync'),
  generatePrime: unavailable('generatePrime'),
  generatePrimeSync: unavailable('generatePrimeSync'),
  Certificate: unavailable('Certificate', 'SPKAC certificates are not supported'),
};

for (const [name, get] of Object.entries({
  createSecretKey: () => keysModule().createSecretKey,
  createPublicKey: () => keysModule().createPublicKey,
  createPrivateKey: () => keysModule().createPrivateKey,
  KeyObject: () => keysModule().KeyObject,
  generateKey: () => keygen().generateKey,
  generateKeySync: () => keygen().generateKeySync,
  generateKeyPair: () => keygen().generateKeyPair,
  generateKeyPairSync: () => keygen().generateKeyPairSync,
  createSign: () => sig().createSign,
  createVerify: () => sig().createVerify,
  Sign: () => sig().Sign,
  Verify: () => sig().Verify,
  sign: () => sig().signOneShot,
  verify: () => sig().verifyOneShot,
  publicEncrypt: () => asym().publicEncrypt,
  publicDecrypt: () => asym().publicDecrypt,
  privateEncrypt: () => asym().privateEncrypt,
  privateDecrypt: () => asym().privateDecrypt,
  createECDH: () => dh().createECDH,
  ECDH: () => dh().ECDH,
  diffieHellman: () => dh().diffieHellman,
  getCurves: () => dh().getCurves,
  subtle: () => web().subtle,
  X509Certificate: () => x509().X509Certificate,
})) {
  // Assignable, as Node's exports are (tests replace them with mocks).
  const set = (value) => Object.defineProperty(module.exports, name, { value, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(module.exports, name, { get, set, enumerable: true, configurable: true });
}
