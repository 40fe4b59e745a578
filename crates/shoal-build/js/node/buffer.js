'use strict';
// node:buffer for Shoal Functions: feross's `buffer` package (the Buffer
// every browser bundler ships), completed where Node.js has more:
// 'base64url', WHATWG UTF-8 decoding (replacement of maximal subparts, and
// the engine's native decoder for speed), Node's inspect output, Blob/File,
// atob/btoa, isUtf8/isAscii/transcode and constants.

// Required by path so that the bundler's mapping of the bare name 'buffer'
// to this very file does not make the package require itself.
const base = require('../node_modules/buffer/index.js');
const { decodeUtf8, encodeUtf8 } = require('./internal/text-coding');
const { Blob, File } = require('./internal/blob');
const { atob, btoa } = require('./internal/base64');
const { nodeError, invalidArgType } = require('./internal/errors');

const { Buffer } = base;
// Bundlers may rename the function (Buffer2...); Node's name shows in inspect.
Object.defineProperty(Buffer, 'name', { value: 'Buffer' });
// The package's marker of itself: code that refuses polyfills (jsdom's
// @exodus/bytes) tests it, and Node's Buffer has none.
delete Buffer.TYPED_ARRAY_SUPPORT;
const kMaxLength = base.kMaxLength;
const kStringMaxLength = 2 ** 29 - 24;

function normalizeEncoding(enc) {
  if (enc === undefined || enc === null || enc === '') return 'utf8';
  const e = String(enc).toLowerCase();
  switch (e) {
    case 'utf8':
    case 'utf-8':
      return 'utf8';
    case 'base64url':
      return 'base64url';
    default:
      return e;
  }
}

// UTF-8 strings are encoded by the engine's TextEncoder (the package
// builds an array of numbers in JavaScript, slow for large request bodies).
const origFrom = Buffer.from;
Buffer.from = function from(value, encodingOrOffset, length) {
  if (typeof value === 'string' && (encodingOrOffset === undefined || normalizeEncoding(encodingOrOffset) === 'utf8')) {
    const bytes = encodeUtf8(value);
    return origFrom.call(Buffer, bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  return origFrom.call(Buffer, value, encodingOrOffset, length);
};

const origIsEncoding = Buffer.isEncoding;
Buffer.isEncoding = function isEncoding(encoding) {
  return typeof encoding === 'string' && encoding !== '' &&
    (String(encoding).toLowerCase() === 'base64url' || origIsEncoding(encoding));
};

function toBase64Url(b64) {
  return b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const origToString = Buffer.prototype.toString;
Buffer.prototype.toString = function toString(encoding, start, end) {
  if (arguments.length === 0) return decodeUtf8(this);
  const len = this.length;
  if (start === undefined || start < 0) start = 0;
  else if (start >= len) return '';
  else start = Math.trunc(start) || 0;
  if (end === undefined || end > len) end = len;
  else end = Math.trunc(end) || 0;
  if (end <= start) return '';
  const enc = normalizeEncoding(encoding);
  if (enc === 'utf8') return decodeUtf8(this.subarray(start, end));
  if (enc === 'base64url') return toBase64Url(origToString.call(this, 'base64', start, end));
  if (!origIsEncoding(enc)) throw nodeError(TypeError, 'ERR_UNKNOWN_ENCODING', `Unknown encoding: ${encoding}`);
  return origToString.call(this, enc, start, end);
};
Buffer.prototype.toLocaleString = Buffer.prototype.toString;

const origWrite = Buffer.prototype.write;
Buffer.prototype.write = function write(string, offset, length, encoding) {
  if (typeof string !== 'string') throw invalidArgType('argument', 'string', string);
  // Find the encoding argument wherever it was given, as the original does.
  if (typeof offset === 'string' && normalizeEncoding(offset) === 'base64url') {
    return origWrite.call(this, string, 'base64');
  }
  if (typeof length === 'string' && normalizeEncoding(length) === 'base64url') {
    return origWrite.call(this, string, offset, 'base64');
  }
  if (typeof encoding === 'string' && normalizeEncoding(encoding) === 'base64url') {
    return origWrite.call(this, string, offset, length, 'base64');
  }
  return origWrite.apply(this, arguments);
};

const origByteLength = Buffer.byteLength;
Buffer.byteLength = function byteLength(string, encoding) {
  if (typeof string === 'string' && normalizeEncoding(encoding) === 'base64url') {
    return origByteLength(string, 'base64');
  }
  if (typeof string === 'string' && normalizeEncoding(encoding) === 'utf8') return encodeUtf8(string).length;
  if (typeof string !== 'string' && !ArrayBuffer.isView(string) &&
      Object.prototype.toString.call(string) !== '[object ArrayBuffer]' &&
      Object.prototype.toString.call(string) !== '[object SharedArrayBuffer]') {
    throw invalidArgType('string', ['string', 'Buffer', 'ArrayBuffer'], string);
  }
  return origByteLength(string, encoding);
};

// Node's inspect: <Buffer 68 69 ... 12 more bytes>
const customInspect = Symbol.for('nodejs.util.inspect.custom');
function inspectBuffer() {
  const max = module.exports.INSPECT_MAX_BYTES;
  const actualMax = Math.min(max, this.length);
  const remaining = this.length - max;
  let str = '';
  for (let i = 0; i < actualMax; i++) str += `${i ? ' ' : ''}${this[i] < 16 ? '0' : ''}${this[i].toString(16)}`;
  if (remaining > 0) str += ` ... ${remaining} more byte${remaining > 1 ? 's' : ''}`;
  return `<${this.constructor.name} ${str}>`;
}
Buffer.prototype.inspect = inspectBuffer;
Buffer.prototype[customInspect] = inspectBuffer;

if (typeof Buffer.copyBytesFrom !== 'function') {
  Buffer.copyBytesFrom = function copyBytesFrom(view, offset = 0, length = undefined) {
    if (!ArrayBuffer.isView(view) || Object.prototype.toString.call(view) === '[object DataView]') {
      throw invalidArgType('view', ['TypedArray'], view);
    }
    const end = length === undefined ? view.length : Math.min(view.length, offset + length);
    const part = view.subarray(Math.min(offset, view.length), end);
    const bytes = new Uint8Array(part.buffer, part.byteOffset, part.byteLength);
    return Buffer.from(bytes);
  };
}

function bytesOf(input, name) {
  if (input instanceof Uint8Array) return input;
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  const tag = Object.prototype.toString.call(input);
  if (tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]') return new Uint8Array(input);
  throw invalidArgType(name, ['ArrayBuffer', 'Buffer', 'TypedArray'], input);
}

function isUtf8(input) {
  const b = bytesOf(input, 'input');
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    if (c < 0x80) { i++; continue; }
    let n;
    let lower = 0x80;
    let upper = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) n = 1;
    else if (c >= 0xe0 && c <= 0xef) { n = 2; if (c === 0xe0) lower = 0xa0; if (c === 0xed) upper = 0x9f; }
    else if (c >= 0xf0 && c <= 0xf4) { n = 3; if (c === 0xf0) lower = 0x90; if (c === 0xf4) upper = 0x8f; }
    else return false;
    for (let k = 1; k <= n; k++) {
      const d = b[i + k];
      if (d === undefined || d < (k === 1 ? lower : 0x80) || d > (k === 1 ? upper : 0xbf)) return false;
    }
    i += n + 1;
  }
  return true;
}

function isAscii(input) {
  const b = bytesOf(input, 'input');
  for (let i = 0; i < b.length; i++) if (b[i] > 0x7f) return false;
  return true;
}

// transcode between the encodings Buffer itself knows (utf8, ucs2, latin1, ascii).
function transcode(source, fromEnc, toEnc) {
  if (!(source instanceof Uint8Array)) throw invalidArgType('source', ['Buffer', 'Uint8Array'], source);
  const from = normalizeEncoding(fromEnc);
  const to = normalizeEncoding(toEnc);
  const known = ['utf8', 'ucs2', 'ucs-2', 'utf16le', 'utf-16le', 'latin1', 'binary', 'ascii'];
  if (!known.includes(from) || !known.includes(to)) {
    throw nodeError(Error, 'U_ILLEGAL_ARGUMENT_ERROR', `Unable to transcode Buffer [U_ILLEGAL_ARGUMENT_ERROR]`);
  }
  let text = Buffer.from(source.buffer, source.byteOffset, source.byteLength).toString(from);
  // Characters the target cannot hold become '?', as ICU does.
  if (to === 'latin1' || to === 'binary') text = text.replace(/[^\x00-\xff]/g, '?');
  if (to === 'ascii') text = text.replace(/[^\x00-\x7f]/g, '?');
  return Buffer.from(text, to);
}

function resolveObjectURL() {
  return undefined;
}

const constants = Object.freeze({ MAX_LENGTH: kMaxLength, MAX_STRING_LENGTH: kStringMaxLength });

// Reads and writes past the end fail as Node's do: a RangeError with code
// ERR_OUT_OF_RANGE naming the offset and its bounds (the package throws a
// RangeError without a code).
const INT_WIDTH = { Int8: 1, UInt8: 1, Int16: 2, UInt16: 2, Int32: 4, UInt32: 4, Float: 4, Double: 8, BigInt64: 8, BigUInt64: 8 };
for (const name of Object.getOwnPropertyNames(Buffer.prototype)) {
  const m = /^(read|write)(BigInt64|BigU[Ii]nt64|Int8|U[Ii]nt8|Int16|U[Ii]nt16|Int32|U[Ii]nt32|Float|Double)(LE|BE)?$/.exec(name);
  if (!m) continue;
  const original = Buffer.prototype[name];
  const width = INT_WIDTH[m[2].replace('Uint', 'UInt')];
  const offsetArg = m[1] === 'read' ? 0 : 1;
  Buffer.prototype[name] = function checkedAccess(...args) {
    const offset = args[offsetArg] === undefined ? 0 : args[offsetArg];
    if (typeof offset === 'number' && Number.isInteger(offset) && (offset < 0 || offset + width > this.length)) {
      const max = this.length - width;
      const err = new RangeError(
        max < 0
          ? 'Attempt to access memory outside buffer bounds'
          : `The value of "offset" is out of range. It must be >= 0 and <= ${max}. Received ${offset}`,
      );
      err.code = max < 0 ? 'ERR_BUFFER_OUT_OF_BOUNDS' : 'ERR_OUT_OF_RANGE';
      throw err;
    }
    return original.apply(this, args);
  };
  Object.defineProperty(Buffer.prototype[name], 'name', { value: name });
}

// The prelude hands raw request bodies over as Buffers when a Function has
// Buffer loaded (Kyma's body-parser gives Buffers); without it, Uint8Arrays.
// Not enumerable: Shoal's internals are not among Node's globals.
Object.defineProperty(globalThis, '__shoal_Buffer', { value: Buffer, writable: true, configurable: true, enumerable: false });

module.exports = {
  Buffer,
  SlowBuffer: base.SlowBuffer,
  INSPECT_MAX_BYTES: 50,
  kMaxLength,
  kStringMaxLength,
  constants,
  Blob,
  File,
  atob,
  btoa,
  isUtf8,
  isAscii,
  transcode,
  resolveObjectURL,
};
