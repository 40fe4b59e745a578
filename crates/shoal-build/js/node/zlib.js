'use strict';
// node:zlib for Shoal Functions. Compression is the engine's
// (internal/native.js zlib, whole buffers at a time). The streaming classes
// (createGzip() and friends) are Transform streams that collect their
// input and (de)compress it when the stream ends. Brotli is not available.

const { Buffer } = require('buffer');
const { nodeError, invalidArgType, notAvailable } = require('./internal/errors');
const native = require('./internal/native');

const constants = {
  Z_NO_FLUSH: 0, Z_PARTIAL_FLUSH: 1, Z_SYNC_FLUSH: 2, Z_FULL_FLUSH: 3, Z_FINISH: 4, Z_BLOCK: 5,
  Z_OK: 0, Z_STREAM_END: 1, Z_NEED_DICT: 2, Z_ERRNO: -1, Z_STREAM_ERROR: -2, Z_DATA_ERROR: -3,
  Z_MEM_ERROR: -4, Z_BUF_ERROR: -5, Z_VERSION_ERROR: -6,
  Z_NO_COMPRESSION: 0, Z_BEST_SPEED: 1, Z_BEST_COMPRESSION: 9, Z_DEFAULT_COMPRESSION: -1,
  Z_FILTERED: 1, Z_HUFFMAN_ONLY: 2, Z_RLE: 3, Z_FIXED: 4, Z_DEFAULT_STRATEGY: 0, ZLIB_VERNUM: 4865,
  DEFLATE: 1, INFLATE: 2, GZIP: 3, GUNZIP: 4, DEFLATERAW: 5, INFLATERAW: 6, UNZIP: 7,
  BROTLI_DECODE: 8, BROTLI_ENCODE: 9,
  Z_MIN_WINDOWBITS: 8, Z_MAX_WINDOWBITS: 15, Z_DEFAULT_WINDOWBITS: 15,
  Z_MIN_CHUNK: 64, Z_MAX_CHUNK: Infinity, Z_DEFAULT_CHUNK: 16384,
  Z_MIN_MEMLEVEL: 1, Z_MAX_MEMLEVEL: 9, Z_DEFAULT_MEMLEVEL: 8,
  Z_MIN_LEVEL: -1, Z_MAX_LEVEL: 9, Z_DEFAULT_LEVEL: -1,
  BROTLI_OPERATION_PROCESS: 0, BROTLI_OPERATION_FLUSH: 1, BROTLI_OPERATION_FINISH: 2, BROTLI_OPERATION_EMIT_METADATA: 3,
  BROTLI_PARAM_MODE: 0, BROTLI_MODE_GENERIC: 0, BROTLI_MODE_TEXT: 1, BROTLI_MODE_FONT: 2, BROTLI_DEFAULT_MODE: 0,
  BROTLI_PARAM_QUALITY: 1, BROTLI_MIN_QUALITY: 0, BROTLI_MAX_QUALITY: 11, BROTLI_DEFAULT_QUALITY: 11,
  BROTLI_PARAM_LGWIN: 2, BROTLI_PARAM_SIZE_HINT: 5,
};
Object.freeze(constants);

const codes = {
  Z_OK: 0, Z_STREAM_END: 1, Z_NEED_DICT: 2, Z_ERRNO: -1, Z_STREAM_ERROR: -2, Z_DATA_ERROR: -3,
  Z_MEM_ERROR: -4, Z_BUF_ERROR: -5, Z_VERSION_ERROR: -6,
};
for (const [k, v] of Object.entries(codes)) codes[v] = k;

const kMaxLength = 2 ** 32;

function inputBytes(buffer) {
  if (typeof buffer === 'string') return Buffer.from(buffer);
  if (ArrayBuffer.isView(buffer)) return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const tag = Object.prototype.toString.call(buffer);
  if (tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]') return new Uint8Array(buffer);
  throw invalidArgType('buffer', ['string', 'Buffer', 'TypedArray', 'DataView', 'ArrayBuffer'], buffer);
}

function checkOptions(opts) {
  if (opts === undefined || opts === null) return {};
  if (typeof opts !== 'object') throw invalidArgType('options', 'Object', opts);
  const { level } = opts;
  if (level !== undefined) {
    if (typeof level !== 'number') throw invalidArgType('options.level', 'number', level);
    if (!Number.isInteger(level) || level < -1 || level > 9) {
      throw nodeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "options.level" is out of range. It must be >= -1 and <= 9. Received ${level}`);
    }
  }
  if (opts.dictionary !== undefined) throw notAvailable('zlib with options.dictionary');
  return opts;
}

// The engine reports its own wording; give the error Node's errno/code.
function zlibError(err) {
  const message = err && err.message ? err.message : String(err);
  const truncated = /unexpected end|end of (file|stream|input)|truncated|premature|eof/i.test(message);
  const code = truncated ? 'Z_BUF_ERROR' : 'Z_DATA_ERROR';
  const e = new Error(truncated ? 'unexpected end of file' : message);
  e.errno = codes[code];
  e.code = code;
  return e;
}

function run(op, buffer, opts) {
  const options = checkOptions(opts);
  const bytes = inputBytes(buffer);
  const level = options.level === undefined ? -1 : options.level;
  native.check('zlib');
  let out;
  try {
    out = native.zlib(op, bytes, level);
  } catch (err) {
    throw zlibError(err);
  }
  const maxOutputLength = options.maxOutputLength === undefined ? kMaxLength : options.maxOutputLength;
  if (out.byteLength > maxOutputLength) {
    throw nodeError(RangeError, 'ERR_BUFFER_TOO_LARGE', `Cannot create a Buffer larger than ${maxOutputLength} bytes`);
  }
  const result = Buffer.from(out);
  if (options.info) return { buffer: result, engine: null };
  return result;
}

const ops = {
  deflate: 'deflate', inflate: 'inflate', deflateRaw: 'deflateRaw', inflateRaw: 'inflateRaw',
  gzip: 'gzip', gunzip: 'gunzip', unzip: 'unzip',
};

const zlib = { constants, codes };

for (const [name, op] of Object.entries(ops)) {
  const sync = (buffer, opts) => run(op, buffer, opts);
  Object.defineProperty(sync, 'name', { value: `${name}Sync` });
  zlib[`${name}Sync`] = sync;
  const async = function (buffer, opts, callback) {
    if (typeof opts === 'function') {
      callback = opts;
      opts = {};
    }
    if (typeof callback !== 'function') throw invalidArgType('callback', 'function', callback);
    let result;
    let error = null;
    try {
      result = run(op, buffer, opts);
    } catch (err) {
      error = err;
    }
    process.nextTick(() => (error ? callback(error) : callback(null, result)));
  };
  Object.defineProperty(async, 'name', { value: name });
  zlib[name] = async;
}

// ---------------------------------------------------------------- streams

function makeStreamClass(name, op) {
  const { Transform } = require('stream');
  class ZlibStream extends Transform {
    constructor(opts) {
      super(opts);
      this._opts = checkOptions(opts);
      this._chunks = [];
      this.bytesWritten = 0;
      this._handle = null;
    }
    _transform(chunk, encoding, callback) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
      this._chunks.push(bytes);
      this.bytesWritten += bytes.length;
      callback();
    }
    _flush(callback) {
      let out;
      try {
        out = run(op, Buffer.concat(this._chunks), this._opts);
      } catch (err) {
        callback(err);
        return;
      }
      this._chunks = [];
      const chunkSize = this._opts.chunkSize || constants.Z_DEFAULT_CHUNK;
      for (let i = 0; i < out.length; i += chunkSize) this.push(out.subarray(i, i + chunkSize));
      callback();
    }
    flush(kind, callback) {
      if (typeof kind === 'function') callback = kind;
      if (typeof callback === 'function') process.nextTick(callback);
    }
    params(level, strategy, callback) {
      this._opts = { ...this._opts, level };
      if (typeof callback === 'function') process.nextTick(callback);
    }
    reset() {
      this._chunks = [];
    }
    close(callback) {
      if (callback) process.nextTick(callback);
      this.destroy();
    }
  }
  Object.defineProperty(ZlibStream, 'name', { value: name });
  return ZlibStream;
}

const classes = {
  Deflate: 'deflate', Inflate: 'inflate', DeflateRaw: 'deflateRaw', InflateRaw: 'inflateRaw',
  Gzip: 'gzip', Gunzip: 'gunzip', Unzip: 'unzip',
};
const classCache = {};
for (const [name, op] of Object.entries(classes)) {
  const get = () => classCache[name] || (classCache[name] = makeStreamClass(name, op));
  Object.defineProperty(zlib, name, { enumerable: true, get });
  zlib[`create${name}`] = (opts) => new (get())(opts);
}

// ---------------------------------------------------------------- brotli

const noBrotli = (name) => function () {
  throw notAvailable(`zlib.${name}()`, 'the engine has no Brotli codec; use gzip or deflate');
};
for (const name of ['brotliCompress', 'brotliDecompress', 'brotliCompressSync', 'brotliDecompressSync',
  'createBrotliCompress', 'createBrotliDecompress', 'BrotliCompress', 'BrotliDecompress']) {
  zlib[name] = noBrotli(name);
}

// Zstandard (Node 22.15+): packages bind these while loading (undici's
// decompress interceptor); calling one says the engine has no codec.
const noZstd = (name) => function () {
  throw notAvailable(`zlib.${name}()`, 'the engine has no Zstandard codec; use gzip or deflate');
};
for (const name of ['zstdCompress', 'zstdDecompress', 'zstdCompressSync', 'zstdDecompressSync',
  'createZstdCompress', 'createZstdDecompress', 'ZstdCompress', 'ZstdDecompress']) {
  zlib[name] = noZstd(name);
}

// ---------------------------------------------------------------- crc32

let crcTable = null;
function crc32(data, value = 0) {
  if (typeof data !== 'string' && !ArrayBuffer.isView(data)) throw invalidArgType('data', ['Buffer', 'TypedArray', 'DataView', 'string'], data);
  if (!crcTable) {
    crcTable = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c;
    }
  }
  const bytes = inputBytes(data);
  let crc = ~value;
  for (let i = 0; i < bytes.length; i++) crc = crcTable[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return ~crc >>> 0;
}
zlib.crc32 = crc32;

// The legacy Z_* names on the module itself.
for (const [k, v] of Object.entries(constants)) {
  if (k.startsWith('Z_')) Object.defineProperty(zlib, k, { value: v, enumerable: false });
}

module.exports = zlib;
