'use strict';
// The application/x-www-form-urlencoded format (URL Standard): used by
// URLSearchParams and, for decoding, by querystring.

const { encodeUtf8, decodeUtf8 } = require('./text-coding');

// application/x-www-form-urlencoded byte serializer: keep *-._ and
// alphanumerics, space becomes '+', all else is %XX (upper case).
const safe = new Uint8Array(256);
for (const c of '*-._0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz') safe[c.charCodeAt(0)] = 1;
const hex = [];
for (let i = 0; i < 256; i++) hex.push(`%${i < 16 ? '0' : ''}${i.toString(16).toUpperCase()}`);

function formEncode(str) {
  let out = '';
  let plain = true;
  for (let i = 0; i < str.length; i++) {
    const c = str.charCodeAt(i);
    if (c >= 128 || !safe[c]) { plain = false; break; }
  }
  if (plain) return str;
  const bytes = encodeUtf8(str);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (safe[b]) out += String.fromCharCode(b);
    else if (b === 0x20) out += '+';
    else out += hex[b];
  }
  return out;
}

const hexVal = (c) => (c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1);

// Percent-decodes bytes (invalid escapes stay as they are), then UTF-8
// decodes them with replacement characters.
function percentDecode(str) {
  if (!str.includes('%')) return str;
  const bytes = encodeUtf8(str);
  const out = new Uint8Array(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x25 && i + 2 < bytes.length) {
      const h = hexVal(bytes[i + 1]);
      const l = hexVal(bytes[i + 2]);
      if (h >= 0 && l >= 0) {
        out[n++] = (h << 4) | l;
        i += 2;
        continue;
      }
    }
    out[n++] = b;
  }
  return decodeUtf8(out.subarray(0, n));
}

// '+' is a space in form data.
function formDecode(str) {
  return percentDecode(str.includes('+') ? str.replace(/\+/g, ' ') : str);
}

function parseQuery(query) {
  const list = [];
  if (query.startsWith('?')) query = query.slice(1);
  for (const seq of query.split('&')) {
    if (seq === '') continue;
    const eq = seq.indexOf('=');
    const name = eq < 0 ? seq : seq.slice(0, eq);
    const value = eq < 0 ? '' : seq.slice(eq + 1);
    list.push([formDecode(name), formDecode(value)]);
  }
  return list;
}

function serializeQuery(list) {
  return list.map(([k, v]) => `${formEncode(k)}=${formEncode(v)}`).join('&');
}

module.exports = { formEncode, formDecode, parseQuery, serializeQuery, percentDecode };
