'use strict';
// CompressionStream and DecompressionStream (Compression Standard): gzip,
// deflate and deflate-raw. The engine's codec (native.zlib, as
// node:zlib uses) works on whole buffers, so these TransformStreams
// collect what is written and (de)compress it when the writable side
// closes: the output comes at the end, in chunks of 16 KiB as Node gives
// them, and the input is held in memory until then.

const { TransformStream } = require('./web-streams');
const { defineCommon, invalidThis } = require('./text-streams');
const { encodeUtf8 } = require('./text-coding');
const { concatBytes } = require('./bytes');
const { nodeError, describeReceived } = require('./errors');
const native = require('./native');

const CHUNK = 16384;
const compressOps = { gzip: 'gzip', deflate: 'deflate', 'deflate-raw': 'deflateRaw' };
const decompressOps = { gzip: 'gunzip', deflate: 'inflate', 'deflate-raw': 'inflateRaw' };

function invalidFormat(format) {
  const shown = typeof format === 'string' ? `'${format}'` : String(format);
  return nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument 'format' is invalid. Received ${shown}`);
}

// The engine words its own errors; give them Node's code and errno, as
// node:zlib does.
function zlibError(err) {
  const message = err && err.message ? err.message : String(err);
  const truncated = /unexpected end|end of (file|stream|input)|truncated|premature|eof/i.test(message);
  const e = new Error(truncated ? 'unexpected end of file' : message);
  e.errno = truncated ? -5 : -3;
  e.code = truncated ? 'Z_BUF_ERROR' : 'Z_DATA_ERROR';
  return e;
}

// Node's zlib rejects a wrong header as soon as it sees it, whatever
// follows; the engine's codec may only report running out of input.
function badHeader(op, bytes) {
  if (op === 'gunzip') return (bytes.length > 0 && bytes[0] !== 0x1f) || (bytes.length > 1 && bytes[1] !== 0x8b);
  if (op === 'inflate' && bytes.length > 1) return (bytes[0] & 0x0f) !== 8 || ((bytes[0] << 8) | bytes[1]) % 31 !== 0;
  return false;
}

function chunkBytes(chunk) {
  if (typeof chunk === 'string') return encodeUtf8(chunk);
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength).slice();
  const tag = Object.prototype.toString.call(chunk);
  if (tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]') return new Uint8Array(chunk.slice(0));
  throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE',
    `The "chunk" argument must be of type string or an instance of Buffer, TypedArray, or DataView. ${describeReceived(chunk)}`);
}

function zlibTransform(op) {
  const chunks = [];
  return new TransformStream({
    transform(chunk) {
      chunks.push(chunkBytes(chunk));
    },
    flush(controller) {
      native.check('zlib', 'CompressionStream');
      const input = concatBytes(chunks);
      chunks.length = 0;
      if (badHeader(op, input)) throw zlibError(new Error('incorrect header check'));
      let out;
      try {
        out = new Uint8Array(native.zlib(op, input, -1));
      } catch (err) {
        throw zlibError(err);
      }
      for (let i = 0; i < out.length; i += CHUNK) controller.enqueue(out.subarray(i, i + CHUNK));
    },
  });
}

class CompressionStream {
  #transform;

  constructor(format) {
    if (typeof format !== 'string' || !Object.prototype.hasOwnProperty.call(compressOps, format)) throw invalidFormat(format);
    this.#transform = zlibTransform(compressOps[format]);
  }

  get readable() {
    if (!(#transform in this)) throw invalidThis('CompressionStream');
    return this.#transform.readable;
  }

  get writable() {
    if (!(#transform in this)) throw invalidThis('CompressionStream');
    return this.#transform.writable;
  }
}
defineCommon(CompressionStream, 'CompressionStream', [], true);

class DecompressionStream {
  #transform;

  constructor(format) {
    if (typeof format !== 'string' || !Object.prototype.hasOwnProperty.call(decompressOps, format)) throw invalidFormat(format);
    this.#transform = zlibTransform(decompressOps[format]);
  }

  get readable() {
    if (!(#transform in this)) throw invalidThis('DecompressionStream');
    return this.#transform.readable;
  }

  get writable() {
    if (!(#transform in this)) throw invalidThis('DecompressionStream');
    return this.#transform.writable;
  }
}
defineCommon(DecompressionStream, 'DecompressionStream', [], true);

module.exports = { CompressionStream, DecompressionStream };
