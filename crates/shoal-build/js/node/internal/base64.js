'use strict';
// atob and btoa (HTML Standard, "forgiving-base64").

const { DOMException } = require('./dom-exception');
const { nodeError } = require('./errors');

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const lookup = new Int16Array(256).fill(-1);
for (let i = 0; i < alphabet.length; i++) lookup[alphabet.charCodeAt(i)] = i;

function missing(name) {
  return nodeError(TypeError, 'ERR_MISSING_ARGS', `The "${name}" argument must be specified`);
}

function btoa(data) {
  if (arguments.length === 0) throw missing('data');
  const s = String(data);
  let out = '';
  for (let i = 0; i < s.length; i += 3) {
    const a = s.charCodeAt(i);
    const b = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
    const c = i + 2 < s.length ? s.charCodeAt(i + 2) : 0;
    if (a > 255 || b > 255 || c > 255) throw new DOMException('Invalid character', 'InvalidCharacterError');
    out += alphabet[a >> 2] + alphabet[((a & 3) << 4) | (b >> 4)];
    out += i + 1 < s.length ? alphabet[((b & 15) << 2) | (c >> 6)] : '=';
    out += i + 2 < s.length ? alphabet[c & 63] : '=';
  }
  return out;
}

// Node's checks, in Node's order (and with its messages).
function atob(data) {
  if (arguments.length === 0) throw missing('data');
  const input = String(data);
  const invalid = () => new DOMException('Invalid character', 'InvalidCharacterError');
  let significant = 0;
  let equals = 0;
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d || c === 0x20) continue;
    significant++;
    if (c === 0x3d) {
      equals++;
      if (equals > 2) throw invalid();
    } else if (c > 255 || lookup[c] < 0) {
      throw invalid();
    } else if (equals) {
      throw invalid(); // '=' only at the end
    }
  }
  let remainder = significant % 4;
  if (!remainder) remainder = (significant - equals) % 4;
  else if (equals) throw invalid();
  if (remainder === 1) {
    throw new DOMException('The string to be decoded is not correctly encoded.', 'InvalidCharacterError');
  }
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (let i = 0; i < input.length; i++) {
    const v = lookup[input.charCodeAt(i) & 0xff];
    if (v < 0 || input.charCodeAt(i) > 255) continue; // whitespace and '='
    buffer = ((buffer << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += String.fromCharCode((buffer >> bits) & 0xff);
    }
  }
  return out;
}

module.exports = { atob, btoa };
