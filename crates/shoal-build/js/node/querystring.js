'use strict';
// node:querystring for Shoal Functions (Node.js's rules: '+' is a space,
// repeated keys give arrays, the result has a null prototype, malformed
// escapes are kept as they are).

const { percentDecode } = require('./internal/form-urlencoded');

function qsEscape(str) {
  if (typeof str !== 'string') {
    if (typeof str === 'object') str = String(str);
    else str += '';
  }
  try {
    return encodeURIComponent(str);
  } catch {
    const err = new URIError('URI malformed');
    err.code = 'ERR_INVALID_URI';
    throw err;
  }
}

function qsUnescape(s, decodeSpaces) {
  try {
    return decodeURIComponent(s);
  } catch {
    return unescapeBuffer(s, decodeSpaces).toString();
  }
}

function unescapeBuffer(s, decodeSpaces) {
  const { Buffer } = require('buffer');
  const str = decodeSpaces ? String(s).replace(/\+/g, ' ') : String(s);
  // percentDecode keeps invalid escapes and decodes the bytes as UTF-8;
  // the Buffer form needs the raw bytes, so decode them here instead.
  const bytes = [];
  const utf8 = Buffer.from(str);
  const hex = (c) => (c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1);
  for (let i = 0; i < utf8.length; i++) {
    if (utf8[i] === 37 && i + 2 < utf8.length && hex(utf8[i + 1]) >= 0 && hex(utf8[i + 2]) >= 0) {
      bytes.push(hex(utf8[i + 1]) * 16 + hex(utf8[i + 2]));
      i += 2;
    } else {
      bytes.push(utf8[i]);
    }
  }
  return Buffer.from(bytes);
}

function stringifyPrimitive(v) {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return `${v}`;
  if (typeof v === 'bigint') return `${v}`;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return '';
}

function stringify(obj, sep, eq, options) {
  sep = sep || '&';
  eq = eq || '=';
  let encode = qsEscape;
  if (options && typeof options.encodeURIComponent === 'function') encode = options.encodeURIComponent;
  const convert = (v) => encode(stringifyPrimitive(v));
  if (obj !== null && typeof obj === 'object') {
    const keys = Object.keys(obj);
    const fields = [];
    for (const k of keys) {
      const v = obj[k];
      const ks = convert(k) + eq;
      if (Array.isArray(v)) {
        for (const item of v) fields.push(ks + convert(item));
      } else {
        fields.push(ks + convert(v));
      }
    }
    return fields.join(sep);
  }
  return '';
}

function parse(qs, sep, eq, options) {
  const obj = Object.create(null);
  if (typeof qs !== 'string' || qs.length === 0) return obj;
  sep = sep ? String(sep) : '&';
  eq = eq ? String(eq) : '=';
  let maxKeys = 1000;
  if (options && typeof options.maxKeys === 'number') maxKeys = options.maxKeys;
  let decode = null;
  if (options && typeof options.decodeURIComponent === 'function' && options.decodeURIComponent !== qsUnescape) {
    decode = options.decodeURIComponent;
  }
  let pairs = qs.split(sep);
  if (maxKeys > 0) pairs = pairs.slice(0, maxKeys);
  for (const pair of pairs) {
    if (pair.length === 0 && pairs.length > 1) continue;
    const idx = pair.indexOf(eq);
    let k = idx >= 0 ? pair.slice(0, idx) : pair;
    let v = idx >= 0 ? pair.slice(idx + eq.length) : '';
    if (k.length === 0 && v.length === 0 && idx < 0) continue;
    k = k.replace(/\+/g, ' ');
    v = v.replace(/\+/g, ' ');
    k = decodeStr(k, decode);
    v = decodeStr(v, decode);
    if (!(k in obj)) obj[k] = v;
    else if (Array.isArray(obj[k])) obj[k].push(v);
    else obj[k] = [obj[k], v];
  }
  return obj;
}

function decodeStr(s, decoder) {
  if (!s.includes('%')) return s;
  if (decoder) {
    try {
      return decoder(s);
    } catch {
      return module.exports.unescape(s, true);
    }
  }
  try {
    return decodeURIComponent(s);
  } catch {
    return percentDecode(s);
  }
}

module.exports = {
  unescapeBuffer,
  unescape: qsUnescape,
  escape: qsEscape,
  stringify,
  encode: stringify,
  parse,
  decode: parse,
};
