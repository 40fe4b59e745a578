'use strict';
// WHATWG TextEncoder and TextDecoder (Encoding Standard) for the encodings
// Functions meet in practice: utf-8, utf-16le, utf-16be and windows-1252
// (which the labels latin1, iso-8859-1 and ascii name). Plain UTF-8 work is
// handed to the engine's built-in codec (Javy's) where one exists; BOM
// handling, streaming and fatal mode are done here so behaviour is the
// same with or without it.

const { nodeError } = require('./errors');

const NativeEncoder = typeof globalThis.TextEncoder === 'function' ? globalThis.TextEncoder : null;
const NativeDecoder = typeof globalThis.TextDecoder === 'function' ? globalThis.TextDecoder : null;
const nativeEncoder = NativeEncoder ? new NativeEncoder() : null;
const nativeDecoder = NativeDecoder ? new NativeDecoder() : null;

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
function isWellFormed(s) {
  return typeof s.isWellFormed === 'function' ? s.isWellFormed() : !loneSurrogate.test(s);
}

// UTF-8 encoding of a string; lone surrogates become U+FFFD (EF BF BD).
function encodeUtf8(str) {
  if (nativeEncoder && isWellFormed(str)) return nativeEncoder.encode(str);
  const out = new Uint8Array(str.length * 3);
  const { written } = encodeUtf8Into(str, out);
  return out.slice(0, written);
}

function encodeUtf8Into(str, dest) {
  let read = 0;
  let written = 0;
  const len = str.length;
  const cap = dest.length;
  while (read < len) {
    let cp = str.charCodeAt(read);
    let units = 1;
    if (cp >= 0xd800 && cp <= 0xdfff) {
      const next = read + 1 < len ? str.charCodeAt(read + 1) : 0;
      if (cp <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (next - 0xdc00);
        units = 2;
      } else {
        cp = 0xfffd;
      }
    }
    if (cp < 0x80) {
      if (written + 1 > cap) break;
      dest[written++] = cp;
    } else if (cp < 0x800) {
      if (written + 2 > cap) break;
      dest[written++] = 0xc0 | (cp >> 6);
      dest[written++] = 0x80 | (cp & 0x3f);
    } else if (cp < 0x10000) {
      if (written + 3 > cap) break;
      dest[written++] = 0xe0 | (cp >> 12);
      dest[written++] = 0x80 | ((cp >> 6) & 0x3f);
      dest[written++] = 0x80 | (cp & 0x3f);
    } else {
      if (written + 4 > cap) break;
      dest[written++] = 0xf0 | (cp >> 18);
      dest[written++] = 0x80 | ((cp >> 12) & 0x3f);
      dest[written++] = 0x80 | ((cp >> 6) & 0x3f);
      dest[written++] = 0x80 | (cp & 0x3f);
    }
    read += units;
  }
  return { read, written };
}

class TextEncoder {
  get encoding() {
    return 'utf-8';
  }
  encode(input = '') {
    return encodeUtf8(String(input));
  }
  encodeInto(src, dest) {
    if (!(dest instanceof Uint8Array)) {
      const { invalidArgType } = require('./errors');
      throw invalidArgType('dest', 'Uint8Array', dest);
    }
    return encodeUtf8Into(String(src), dest);
  }
}
Object.defineProperty(TextEncoder.prototype, Symbol.toStringTag, { value: 'TextEncoder', configurable: true });
Object.defineProperty(TextEncoder.prototype, 'encoding', { enumerable: true });

// Labels of the Encoding Standard for the supported encodings.
const labels = {};
for (const l of ['unicode-1-1-utf-8', 'unicode11utf8', 'unicode20utf8', 'utf-8', 'utf8', 'x-unicode20utf8']) labels[l] = 'utf-8';
for (const l of ['csunicode', 'iso-10646-ucs-2', 'ucs-2', 'unicode', 'unicodefeff', 'utf-16', 'utf-16le']) labels[l] = 'utf-16le';
for (const l of ['unicodefffe', 'utf-16be']) labels[l] = 'utf-16be';
for (const l of ['ansi_x3.4-1968', 'ascii', 'cp1252', 'cp819', 'csisolatin1', 'ibm819', 'iso-8859-1', 'iso-ir-100',
  'iso8859-1', 'iso88591', 'iso_8859-1', 'iso_8859-1:1987', 'l1', 'latin1', 'us-ascii', 'windows-1252', 'x-cp1252']) {
  labels[l] = 'windows-1252';
}

function getEncoding(label) {
  return labels[String(label).trim().toLowerCase()];
}

// windows-1252 bytes 0x80-0x9F (the rest is ISO-8859-1).
const cp1252 = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

function toBytes(input) {
  if (input === undefined) return new Uint8Array(0);
  if (input instanceof Uint8Array) return input;
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (input instanceof ArrayBuffer || Object.prototype.toString.call(input) === '[object ArrayBuffer]' ||
      Object.prototype.toString.call(input) === '[object SharedArrayBuffer]') {
    return new Uint8Array(input);
  }
  const { invalidArgType } = require('./errors');
  throw invalidArgType('input', ['ArrayBuffer', 'ArrayBufferView'], input);
}

function codeUnitsToString(units, length) {
  let s = '';
  for (let i = 0; i < length; i += 8192) {
    s += String.fromCharCode.apply(null, units.subarray(i, Math.min(i + 8192, length)));
  }
  return s;
}

// The WHATWG UTF-8 decoder (replacement of maximal subparts), streaming.
// `st` carries an incomplete sequence between calls.
function utf8DecodeJs(bytes, st, fatal, flush) {
  const out = new Uint16Array(bytes.length * 2 + 2);
  let n = 0;
  let { needed, seen, cp, lower, upper } = st;
  const fail = () => {
    if (fatal) throw invalidData('utf-8');
    out[n++] = 0xfffd;
  };
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (needed === 0) {
      if (b < 0x80) { out[n++] = b; continue; }
      if (b >= 0xc2 && b <= 0xdf) { needed = 1; cp = b & 0x1f; }
      else if (b >= 0xe0 && b <= 0xef) {
        if (b === 0xe0) lower = 0xa0;
        if (b === 0xed) upper = 0x9f;
        needed = 2; cp = b & 0xf;
      } else if (b >= 0xf0 && b <= 0xf4) {
        if (b === 0xf0) lower = 0x90;
        if (b === 0xf4) upper = 0x8f;
        needed = 3; cp = b & 0x7;
      } else { fail(); }
      continue;
    }
    if (b < lower || b > upper) {
      cp = needed = seen = 0; lower = 0x80; upper = 0xbf;
      fail();
      i--; // reprocess this byte
      continue;
    }
    lower = 0x80; upper = 0xbf;
    cp = (cp << 6) | (b & 0x3f);
    if (++seen !== needed) continue;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out[n++] = 0xd800 + (cp >> 10);
      out[n++] = 0xdc00 + (cp & 0x3ff);
    } else {
      out[n++] = cp;
    }
    cp = needed = seen = 0;
  }
  if (flush && needed !== 0) {
    cp = needed = seen = 0; lower = 0x80; upper = 0xbf;
    fail();
  }
  Object.assign(st, { needed, seen, cp, lower, upper });
  return codeUnitsToString(out, n);
}

// Length of the longest prefix of `bytes` that ends on a sequence boundary
// (used to hand only complete sequences to the native decoder).
function completePrefix(bytes) {
  const len = bytes.length;
  for (let back = 1; back <= 3 && back <= len; back++) {
    const b = bytes[len - back];
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking
    const need = b >= 0xf0 && b <= 0xf4 ? 4 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xc2 && b <= 0xdf ? 2 : 1;
    return need > back ? len - back : len;
  }
  return len;
}

function invalidData(encoding) {
  return nodeError(TypeError, 'ERR_ENCODING_INVALID_ENCODED_DATA', `The encoded data was not valid for encoding ${encoding}`);
}

const kState = Symbol('state');

class TextDecoder {
  constructor(label = 'utf-8', options = undefined) {
    const encoding = getEncoding(label);
    if (!encoding) {
      throw nodeError(RangeError, 'ERR_ENCODING_NOT_SUPPORTED', `The "${label}" encoding is not supported`);
    }
    const opts = options == null ? {} : options;
    Object.defineProperty(this, kState, {
      value: {
        encoding,
        fatal: !!opts.fatal,
        ignoreBOM: !!opts.ignoreBOM,
        bomSeen: false,
        pending: null, // bytes held back between stream calls (utf-16)
        utf8: { needed: 0, seen: 0, cp: 0, lower: 0x80, upper: 0xbf },
      },
    });
  }

  get encoding() { return this[kState].encoding; }
  get fatal() { return this[kState].fatal; }
  get ignoreBOM() { return this[kState].ignoreBOM; }

  decode(input = undefined, options = undefined) {
    const st = this[kState];
    let bytes = toBytes(input);
    const stream = !!(options && options.stream);
    let out;
    if (st.encoding === 'utf-8') out = this._utf8(bytes, stream);
    else if (st.encoding === 'windows-1252') out = decode1252(bytes);
    else out = this._utf16(bytes, stream, st.encoding === 'utf-16be');
    // Strip a leading BOM once per stream.
    if (!st.ignoreBOM && !st.bomSeen && out.length > 0) {
      st.bomSeen = true;
      if (out.charCodeAt(0) === 0xfeff && st.encoding !== 'windows-1252') out = out.slice(1);
    }
    if (!stream) {
      st.bomSeen = false;
      st.pending = null;
      st.utf8 = { needed: 0, seen: 0, cp: 0, lower: 0x80, upper: 0xbf };
    }
    return out;
  }

  _utf8(bytes, stream) {
    const st = this[kState];
    const u = st.utf8;
    // Fast path: nothing pending, not fatal, and the engine has a decoder.
    if (nativeDecoder && u.needed === 0 && !st.fatal) {
      const end = stream ? completePrefix(bytes) : bytes.length;
      let head = bytes.subarray(0, end);
      // The native decoder would eat a BOM on its own; keep that decision here.
      if (!(head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf)) {
        const text = nativeDecoder.decode(head);
        return end === bytes.length ? text : text + utf8DecodeJs(bytes.subarray(end), u, false, false);
      }
    }
    return utf8DecodeJs(bytes, u, st.fatal, !stream);
  }

  _utf16(bytes, stream, bigEndian) {
    const st = this[kState];
    if (st.pending) {
      const joined = new Uint8Array(st.pending.length + bytes.length);
      joined.set(st.pending);
      joined.set(bytes, st.pending.length);
      bytes = joined;
      st.pending = null;
    }
    let even = bytes.length & ~1;
    // Hold back an odd byte, and a trailing high surrogate when streaming.
    if (stream && even >= 2) {
      const last = bigEndian ? (bytes[even - 2] << 8) | bytes[even - 1] : bytes[even - 2] | (bytes[even - 1] << 8);
      if (last >= 0xd800 && last <= 0xdbff) even -= 2;
    }
    const units = new Uint16Array(even / 2);
    for (let i = 0, j = 0; i < even; i += 2, j++) {
      units[j] = bigEndian ? (bytes[i] << 8) | bytes[i + 1] : bytes[i] | (bytes[i + 1] << 8);
    }
    // Replace unpaired surrogates.
    for (let i = 0; i < units.length; i++) {
      const c = units[i];
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < units.length && units[i + 1] >= 0xdc00 && units[i + 1] <= 0xdfff) { i++; continue; }
      if (c >= 0xd800 && c <= 0xdfff) {
        if (st.fatal) throw invalidData(st.encoding);
        units[i] = 0xfffd;
      }
    }
    let out = codeUnitsToString(units, units.length);
    if (even < bytes.length) {
      if (stream) st.pending = bytes.slice(even);
      else {
        if (st.fatal) throw invalidData(st.encoding);
        out += '\ufffd';
      }
    }
    return out;
  }
}
for (const name of ['encoding', 'fatal', 'ignoreBOM', 'decode']) {
  Object.defineProperty(TextDecoder.prototype, name, { enumerable: true });
}
Object.defineProperty(TextDecoder.prototype, Symbol.toStringTag, { value: 'TextDecoder', configurable: true });

function decode1252(bytes) {
  const units = new Uint16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    units[i] = b >= 0x80 && b <= 0x9f ? cp1252[b - 0x80] : b;
  }
  return codeUnitsToString(units, units.length);
}

// Plain UTF-8 decode of a whole byte range (used by Buffer and friends).
function decodeUtf8(bytes) {
  if (nativeDecoder && !(bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)) {
    return nativeDecoder.decode(bytes);
  }
  return utf8DecodeJs(bytes, { needed: 0, seen: 0, cp: 0, lower: 0x80, upper: 0xbf }, false, true);
}

module.exports = { TextEncoder, TextDecoder, encodeUtf8, encodeUtf8Into, decodeUtf8, isWellFormed };
