'use strict';
// path.win32: Node's Windows flavour of node:path, for Functions that build
// or take apart Windows paths (a Function itself runs on Linux, so `path` is
// the POSIX module and this is only reached as path.win32).
//
// Written here, against Node 20 (test/path-win32.mjs compares every function
// with Node's own path.win32 on some 290,000 inputs), because
// path-browserify has POSIX only. Node's answers are kept where they are odd:
// they are what a Function gets on Node, e.g. relative('/ab', '/abc') is 'c'
// and normalize('CON:') is '.\\CON:.'. The comments say why such a branch
// exists.
//
// Both '\\' and '/' separate; results use '\\'. A path may start with a drive
// ('C:', absolute with a separator after it) or a UNC root: two separators,
// a server name, separators, a share name ('\\\\server\\share').
const { invalidArgType } = require('./errors.js');

const SLASH = 47;
const BACKSLASH = 92;
const COLON = 58;

// Names Windows gives a device in every directory: 'CON:x' names the
// console, not a drive-relative file, so normalize() keeps it relative.
// Matched case-insensitively, without extension or trailing spaces.
const RESERVED = new Set(['CON', 'PRN', 'AUX', 'NUL']);
for (const n of ['1', '2', '3', '4', '5', '6', '7', '8', '9', '\u00b9', '\u00b2', '\u00b3']) {
  RESERVED.add(`COM${n}`);
  RESERVED.add(`LPT${n}`);
}

function isSep(code) {
  return code === SLASH || code === BACKSLASH;
}

function hasDrive(p) {
  if (p.length < 2 || p.charCodeAt(1) !== COLON) return false;
  const c = p.charCodeAt(0) | 0x20;
  return c >= 97 && c <= 122;
}

function checkString(value, name) {
  if (typeof value !== 'string') throw invalidArgType(name, 'string', value);
}

// '\\\\server\\share' at the start of p: the server and share names, where
// the share starts and the index just past it, or null. Either name needs at
// least one character; any number of separators may come between them.
function uncRoot(p) {
  const len = p.length;
  if (len < 5 || !isSep(p.charCodeAt(0)) || !isSep(p.charCodeAt(1))) return null;
  let i = 2;
  while (i < len && !isSep(p.charCodeAt(i))) i++;
  if (i === 2 || i === len) return null;
  const server = p.slice(2, i);
  while (i < len && isSep(p.charCodeAt(i))) i++;
  if (i === len) return null;
  const shareStart = i;
  while (i < len && !isSep(p.charCodeAt(i))) i++;
  return { server, share: p.slice(shareStart, i), shareStart, end: i };
}

// The root of p as resolve() and normalize() read it: the device ('C:' as
// written, a UNC root rewritten with backslashes, or ''), whether p is
// absolute, and where the rest of p starts.
//
// The Win32 namespaces '\\\\.\\' (devices) and '\\\\?\\' (paths passed
// through unparsed) look like a UNC root with the server '.' or '?'. Node
// takes only '\\\\.' as the device there, so what follows is a path below
// it ('\\\\.\\pipe\\..' is '\\\\.\\'); dirname() and parse() still see a
// UNC root.
function splitRoot(p) {
  if (p.length > 0 && isSep(p.charCodeAt(0))) {
    const unc = uncRoot(p);
    if (unc && (unc.server === '.' || unc.server === '?')) {
      return { device: `\\\\${unc.server}`, absolute: true, end: unc.shareStart };
    }
    if (unc) return { device: `\\\\${unc.server}\\${unc.share}`, absolute: true, end: unc.end };
    return { device: '', absolute: true, end: 1 };
  }
  if (hasDrive(p)) {
    if (p.length > 2 && isSep(p.charCodeAt(2))) return { device: p.slice(0, 2), absolute: true, end: 3 };
    return { device: p.slice(0, 2), absolute: false, end: 2 };
  }
  return { device: '', absolute: false, end: 0 };
}

// The end of the characters dirname() and parse() keep as p's root: the UNC
// root with the separator after it, 'C:\\', 'C:' or a leading separator.
function rootLength(p) {
  if (p.length > 0 && isSep(p.charCodeAt(0))) {
    const unc = uncRoot(p);
    if (!unc) return 1;
    return unc.end === p.length ? unc.end : unc.end + 1;
  }
  if (hasDrive(p)) return p.length > 2 && isSep(p.charCodeAt(2)) ? 3 : 2;
  return 0;
}

// The segments of a root-less path with '.' and empty ones dropped and '..'
// taking the previous one away, joined by backslashes. A '..' that climbs
// above the start is kept for a relative path and dropped for an absolute one.
function foldSegments(rest, keepAbove) {
  const out = [];
  for (const seg of rest.split(/[\\/]/)) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (keepAbove) out.push('..');
    } else {
      out.push(seg);
    }
  }
  return out.join('\\');
}

// The last segment of p at or after index `from`, past trailing separators,
// as [start, end].
function lastSegment(p, from) {
  let end = p.length;
  while (end > from && isSep(p.charCodeAt(end - 1))) end--;
  let start = end;
  while (start > from && !isSep(p.charCodeAt(start - 1))) start--;
  return [start, end];
}

// The extension of one segment: from its last dot, unless the dot starts it
// ('.profile') or the segment is '..'.
function extOf(seg) {
  const dot = seg.lastIndexOf('.');
  if (dot <= 0 || seg === '..') return '';
  return seg.slice(dot);
}

// The directory resolve() starts from when the arguments do not make an
// absolute path. Windows keeps a working directory per drive (in the
// environment variable '=C:'), and Node reads it on every platform; Shoal's
// process.cwd() is '/', which has no drive, so 'C:x' resolves to 'C:\\x'.
function startDir(device) {
  const proc = typeof process === 'undefined' ? undefined : process;
  const cwd = proc && typeof proc.cwd === 'function' ? proc.cwd() : '/';
  if (!device) return cwd;
  let dir = (proc && proc.env && proc.env[`=${device}`]) || cwd;
  // A working directory on another drive does not count for this one.
  if (dir === undefined || (dir.slice(0, 2).toLowerCase() !== device.toLowerCase() && dir.charCodeAt(2) === BACKSLASH)) {
    dir = `${device}\\`;
  }
  return dir;
}

function resolve(...paths) {
  let device = '';
  let tail = '';
  let absolute = false;
  // From the last argument back to the first, then the working directory,
  // until both a device and an absolute path are known. An argument on
  // another device than the one found so far is skipped.
  for (let i = paths.length - 1; i >= -1; i--) {
    let p;
    if (i >= 0) {
      p = paths[i];
      checkString(p, `paths[${i}]`);
      if (p.length === 0) continue;
    } else {
      p = startDir(device);
    }
    const root = splitRoot(p);
    if (root.device) {
      if (!device) device = root.device;
      else if (root.device.toLowerCase() !== device.toLowerCase()) continue;
    }
    if (!absolute) {
      tail = `${p.slice(root.end)}\\${tail}`;
      absolute = root.absolute;
    }
    if (absolute && device) break;
  }
  tail = foldSegments(tail, !absolute);
  return absolute ? `${device}\\${tail}` : `${device}${tail}` || '.';
}

function normalize(p) {
  checkString(p, 'path');
  if (p.length === 0) return '.';
  // A single character is returned as it is, only '/' becoming '\\'.
  if (p.length === 1) return p === '/' ? '\\' : p;
  const root = splitRoot(p);
  let device = root.device;
  let start = root.end;
  let reserved = false;
  if (!root.absolute && !device) {
    const colon = p.indexOf(':');
    if (colon > 0 && RESERVED.has(p.slice(0, colon).toUpperCase())) {
      device = p.slice(0, colon + 1);
      start = colon + 1;
      reserved = true;
    }
  }
  let tail = foldSegments(p.slice(start), !root.absolute);
  if (tail === '' && !root.absolute) tail = '.';
  if (tail !== '' && isSep(p.charCodeAt(p.length - 1))) tail += '\\';
  if (reserved) return `.\\${device}${tail}`;
  // Node 20 also puts '.\\' before a path without a colon that is a device
  // name and one more character ('CON\\', 'NULx': it looks for the name in
  // the path up to its colon, and up to its last character if it has none).
  if (!p.includes(':') && RESERVED.has(p.slice(0, -1).toUpperCase())) return `.\\${tail}`;
  // A relative path without a drive must not come out looking like one with
  // a drive or a device ('x/../C:y' -> '.\\C:y', 'a/b:' -> '.\\a\\b:';
  // Node's fix for CVE-2024-36139): it gets a leading '.\\'.
  if (!root.absolute && !device && p.includes(':')) {
    if (hasDrive(tail)) return `.\\${tail}`;
    for (let i = p.indexOf(':'); i !== -1; i = p.indexOf(':', i + 1)) {
      if (i === p.length - 1 || isSep(p.charCodeAt(i + 1))) return `.\\${tail}`;
    }
  }
  return root.absolute ? `${device}\\${tail}` : `${device}${tail}`;
}

function isAbsolute(p) {
  checkString(p, 'path');
  if (p.length === 0) return false;
  return isSep(p.charCodeAt(0)) || (p.length > 2 && hasDrive(p) && isSep(p.charCodeAt(2)));
}

function join(...parts) {
  let joined;
  let first;
  for (const part of parts) {
    checkString(part, 'path');
    if (part.length === 0) continue;
    if (joined === undefined) joined = first = part;
    else joined += `\\${part}`;
  }
  if (joined === undefined) return '.';
  // Only a first argument that itself starts like a UNC path ('\\\\server')
  // may give the result a UNC root. Otherwise a run of leading separators
  // (join('\\', '\\server', 'share')) shrinks to one.
  const uncFirst = first.length > 2 && isSep(first.charCodeAt(0)) && isSep(first.charCodeAt(1)) && !isSep(first.charCodeAt(2));
  if (!uncFirst) {
    let n = 0;
    while (n < joined.length && isSep(joined.charCodeAt(n))) n++;
    if (n >= 2) joined = `\\${joined.slice(n)}`;
  }
  return normalize(joined);
}

// The two resolved paths are compared case-insensitively, as strings, with
// their leading and trailing backslashes set aside; the common part ends at
// the last backslash they share. Node's answer depends on this string
// comparison rather than on whole segments or roots: paths on two UNC shares
// of one server are '..' apart, and relative('/ab', '/abc') is 'c'.
function relative(from, to) {
  checkString(from, 'from');
  checkString(to, 'to');
  if (from === to) return '';
  const fromFull = resolve(from);
  const toFull = resolve(to);
  if (fromFull === toFull) return '';
  const f = fromFull.toLowerCase();
  const t = toFull.toLowerCase();
  if (f === t) return '';
  // Lower-casing 'İ' gives two characters ('i' and a combining dot), and
  // indices into the lower-cased strings would not fit the original ones:
  // Node compares whole segments then.
  if (f.length !== fromFull.length || t.length !== toFull.length) return relativeBySegments(fromFull, toFull);
  const [fs, fe] = innerSpan(f);
  const [ts, te] = innerSpan(t);
  const fLen = fe - fs;
  const tLen = te - ts;
  const n = Math.min(fLen, tLen);
  let lastSep = -1;
  let i = 0;
  for (; i < n; i++) {
    const c = f.charCodeAt(fs + i);
    if (c !== t.charCodeAt(ts + i)) break;
    if (c === BACKSLASH) lastSep = i;
  }
  if (i === n) {
    // One is a prefix of the other.
    if (tLen > n) {
      // `to` is below `from`.
      if (t.charCodeAt(ts + n) === BACKSLASH) return toFull.slice(ts + n + 1);
      // `from` is a drive root ('c:'), or two characters under '\\'.
      if (n === 2) return toFull.slice(ts + n);
    }
    if (fLen > n) {
      // `from` is below `to`.
      if (f.charCodeAt(fs + n) === BACKSLASH) lastSep = n;
      else if (n === 2) lastSep = 3;
    }
    if (lastSep === -1) lastSep = 0;
  } else if (lastSep === -1) {
    // Nothing in common (another drive or server): the resolved `to`.
    return toFull;
  }
  // A '..' for every segment of `from` after the common part.
  let ups = '';
  for (let k = fs + lastSep + 1; k <= fe; k++) {
    if (k === fe || f.charCodeAt(k) === BACKSLASH) ups += ups ? '\\..' : '..';
  }
  let rest = ts + lastSep;
  if (ups) return ups + toFull.slice(rest, te);
  if (toFull.charCodeAt(rest) === BACKSLASH) rest++;
  return toFull.slice(rest, te);
}

// relative() of two resolved paths, comparing their segments (split at each
// backslash, the empty one after a trailing backslash dropped) without case.
function relativeBySegments(fromFull, toFull) {
  const a = fromFull.split('\\');
  const b = toFull.split('\\');
  if (a[a.length - 1] === '') a.pop();
  if (b[b.length - 1] === '') b.pop();
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i].toLowerCase() === b[i].toLowerCase()) i++;
  if (i === 0) return toFull;
  return [...Array(a.length - i).fill('..'), ...b.slice(i)].join('\\');
}

// [start, end] of s without its leading backslashes and its trailing ones
// (at least one character is left after start, if there is one).
function innerSpan(s) {
  let start = 0;
  while (start < s.length && s.charCodeAt(start) === BACKSLASH) start++;
  let end = s.length;
  while (end - 1 > start && s.charCodeAt(end - 1) === BACKSLASH) end--;
  return [start, end];
}

function toNamespacedPath(p) {
  // Anything but a non-empty string comes back unchanged, without an error.
  if (typeof p !== 'string' || p.length === 0) return p;
  const full = resolve(p);
  if (full.length <= 2) return p;
  if (full.charCodeAt(0) === BACKSLASH) {
    if (full.charCodeAt(1) === BACKSLASH) {
      const c = full.charCodeAt(2);
      // '\\\\?\\...' and '\\\\.\\...' already are namespaced.
      if (c !== 63 && c !== 46) return `\\\\?\\UNC\\${full.slice(2)}`;
    }
  } else if (hasDrive(full) && full.charCodeAt(2) === BACKSLASH) {
    return `\\\\?\\${full}`;
  }
  return full;
}

function dirname(p) {
  checkString(p, 'path');
  if (p.length === 0) return '.';
  const rootEnd = rootLength(p);
  const [start] = lastSegment(p, rootEnd);
  // Everything before the separator in front of the last segment (only that
  // one separator goes: dirname('a//b') is 'a/'), or the root if that is
  // all there is (a UNC root is its own directory).
  if (start > rootEnd) return p.slice(0, start - 1);
  return rootEnd === 0 ? '.' : p.slice(0, rootEnd);
}

function basename(p, suffix) {
  checkString(p, 'path');
  if (suffix !== undefined) checkString(suffix, 'suffix');
  const [start, end] = lastSegment(p, hasDrive(p) ? 2 : 0);
  const base = p.slice(start, end);
  if (suffix !== undefined && suffix.length > 0 && suffix.length <= p.length) {
    // Node compares the suffix with the end of the name, character by
    // character from the end, and has odd answers where that runs out:
    // '' when the suffix is the whole path argument,
    if (suffix === p) return '';
    // the name unchanged when the suffix is all of it ('x/a.txt', 'a.txt'),
    if (base === suffix) return base;
    if (base.endsWith(suffix)) return base.slice(0, base.length - suffix.length);
    // and, when the name is only the end of the suffix (or there is no
    // name), the path from the name on, trailing separators included
    // (basename('x\\bc\\', 'abc') is 'bc\\', basename('\\', 'x') is '\\').
    if (suffix.endsWith(base)) return p.slice(start);
  }
  return base;
}

function extname(p) {
  checkString(p, 'path');
  const [start, end] = lastSegment(p, hasDrive(p) ? 2 : 0);
  return extOf(p.slice(start, end));
}

function format(pathObject) {
  if (pathObject === null || typeof pathObject !== 'object' || Array.isArray(pathObject)) {
    throw invalidArgType('pathObject', 'object', pathObject);
  }
  // dir wins over root, base over name + ext; ext gets its dot if it has none.
  const { root, ext } = pathObject;
  const dir = pathObject.dir || root;
  const base = pathObject.base || `${pathObject.name || ''}${ext ? (ext[0] === '.' ? ext : `.${ext}`) : ''}`;
  if (!dir) return base;
  return dir === root ? `${dir}${base}` : `${dir}\\${base}`;
}

function parse(p) {
  checkString(p, 'path');
  const out = { root: '', dir: '', base: '', ext: '', name: '' };
  if (p.length === 0) return out;
  const rootEnd = rootLength(p);
  out.root = p.slice(0, rootEnd);
  const [start, end] = lastSegment(p, rootEnd);
  out.base = p.slice(start, end);
  out.ext = extOf(out.base);
  out.name = out.base.slice(0, out.base.length - out.ext.length);
  out.dir = start > rootEnd ? p.slice(0, start - 1) : out.root;
  return out;
}

// In Node's order of keys. posix is filled in by ../path.js.
const win32 = {
  resolve,
  normalize,
  isAbsolute,
  join,
  relative,
  toNamespacedPath,
  dirname,
  basename,
  extname,
  format,
  parse,
  sep: '\\',
  delimiter: ';',
  win32: null,
  posix: null,
  _makeLong: toNamespacedPath,
};
win32.win32 = win32;

module.exports = win32;
