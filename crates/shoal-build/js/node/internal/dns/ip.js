'use strict';
// net.isIP as Node's lib/internal/net.js decides it (the same expressions),
// for dns (which names are already addresses), net and tls; and Node's
// canonical form of an address, as tls.checkServerIdentity compares them.
const v4Seg = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])';
const v4Str = `(?:${v4Seg}\\.){3}${v4Seg}`;
const IPv4Reg = new RegExp(`^${v4Str}$`);
const v6Seg = '(?:[0-9a-fA-F]{1,4})';
const IPv6Reg = new RegExp('^(?:' +
  `(?:${v6Seg}:){7}(?:${v6Seg}|:)|` +
  `(?:${v6Seg}:){6}(?:${v4Str}|:${v6Seg}|:)|` +
  `(?:${v6Seg}:){5}(?::${v4Str}|(?::${v6Seg}){1,2}|:)|` +
  `(?:${v6Seg}:){4}(?:(?::${v6Seg}){0,1}:${v4Str}|(?::${v6Seg}){1,3}|:)|` +
  `(?:${v6Seg}:){3}(?:(?::${v6Seg}){0,2}:${v4Str}|(?::${v6Seg}){1,4}|:)|` +
  `(?:${v6Seg}:){2}(?:(?::${v6Seg}){0,3}:${v4Str}|(?::${v6Seg}){1,5}|:)|` +
  `(?:${v6Seg}:){1}(?:(?::${v6Seg}){0,4}:${v4Str}|(?::${v6Seg}){1,6}|:)|` +
  `(?::(?:(?::${v6Seg}){0,5}:${v4Str}|(?::${v6Seg}){1,7}|:))` +
')(?:%[0-9a-zA-Z-.:]{1,})?$');

function isIP(s) {
  if (IPv4Reg.test(s)) return 4;
  if (IPv6Reg.test(s)) return 6;
  return 0;
}

/** The 16-bit words of an IPv6 address (with an embedded IPv4 tail), or null. */
function ipv6Words(text) {
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const parse = (part) => {
    if (part === '') return [];
    const out = [];
    for (const piece of part.split(':')) {
      if (piece.includes('.')) {
        const bytes = piece.split('.').map(Number);
        out.push((bytes[0] << 8) | bytes[1], (bytes[2] << 8) | bytes[3]);
      } else {
        out.push(parseInt(piece, 16));
      }
    }
    return out;
  };
  const left = parse(head);
  if (tail === null) return left.length === 8 ? left : null;
  const right = parse(tail);
  if (left.length + right.length > 7) return null;
  return [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
}

/**
 * An address in the form Node's canonicalizeIP gives it (libuv's
 * inet_pton then inet_ntop): IPv6 in lower case with the longest run of two
 * or more zero words as "::", an IPv4 tail for ::a.b.c.d and
 * ::ffff:a.b.c.d; IPv4 unchanged.
 */
function canonicalizeIP(ip) {
  const text = String(ip).replace(/%.*$/, '');
  if (isIP(text) !== 6) return text;
  const words = ipv6Words(text);
  if (!words) return text;
  let best = { base: -1, len: 0 };
  let cur = { base: -1, len: 0 };
  for (let i = 0; i < 8; i++) {
    if (words[i] === 0) {
      cur = cur.base === -1 ? { base: i, len: 1 } : { base: cur.base, len: cur.len + 1 };
    } else if (cur.base !== -1) {
      if (best.base === -1 || cur.len > best.len) best = cur;
      cur = { base: -1, len: 0 };
    }
  }
  if (cur.base !== -1 && (best.base === -1 || cur.len > best.len)) best = cur;
  if (best.base !== -1 && best.len < 2) best = { base: -1, len: 0 };
  let out = '';
  for (let i = 0; i < 8; i++) {
    if (best.base !== -1 && i >= best.base && i < best.base + best.len) {
      if (i === best.base) out += ':';
      continue;
    }
    if (i !== 0) out += ':';
    if (i === 6 && best.base === 0 && (best.len === 6 || (best.len === 5 && words[5] === 0xffff))) {
      out += `${words[6] >> 8}.${words[6] & 0xff}.${words[7] >> 8}.${words[7] & 0xff}`;
      return out;
    }
    out += words[i].toString(16);
  }
  if (best.base !== -1 && best.base + best.len === 8) out += ':';
  return out;
}

module.exports = { isIP, canonicalizeIP };
