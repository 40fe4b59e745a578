// Differential test of Shoal's path.win32 (node/internal/path-win32.js,
// reached through node/path.js as a Function gets it) against Node's own
// path.win32: every function on hand-picked edge cases and on generated
// combinations of roots (drives, UNC shares, namespaces, device names),
// segments, dots and separators. A result, or a thrown error's name, code
// and message, must be the same. Run:
//   node tests/node-modules/path-win32.mjs [--verbose]
import { createRequire } from 'node:module';
import nodePath from 'node:path';

// Shoal's process.cwd() is '/'; resolve() starts from it in both.
process.chdir('/');
const require = createRequire(import.meta.url);
const shoalPath = require('../../crates/shoal-build/js/node/path.js');
const ours = shoalPath.win32;
const theirs = nodePath.win32;
const verbose = process.argv.includes('--verbose');

const counts = {};
let mismatches = 0;
const shown = [];

// A comparable text for a result or a thrown error (with its message
// unless `withMessage` is false).
function outcome(fn, withMessage) {
  try {
    return show(fn());
  } catch (err) {
    return `threw ${err && err.name} [${err && err.code}]${withMessage ? ` ${err && err.message}` : ''}`;
  }
}
function show(v) {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype) {
    return JSON.stringify(v);
  }
  return `${typeof v} ${String(v)}`;
}
function argText(args) {
  return args.map((a) => (typeof a === 'string' ? JSON.stringify(a) : show(a))).join(', ');
}

// compare('basename', [path, suffix]): calls the function on both sides.
function compare(name, args, call = (w) => w[name](...args), withMessage = true) {
  counts[name] = (counts[name] || 0) + 1;
  const a = outcome(() => call(ours), withMessage);
  const b = outcome(() => call(theirs), withMessage);
  if (a !== b) {
    mismatches++;
    if (shown.length < 60 || verbose) shown.push(`MISMATCH ${name}(${argText(args)})\n  shoal: ${a}\n  node:  ${b}`);
  } else if (verbose) {
    console.log(`ok ${name}(${argText(args)}) -> ${a}`);
  }
}

// ---------------------------------------------------------------- corpus
const handPicked = [
  '', '.', '..', '...', '/', '\\', '//', '\\\\', '///', '\\\\\\', ':', 'C', 'C:', 'c:', 'C:\\', 'c:/', 'C:\\\\', 'C:/\\',
  'C:.', 'C:..', 'C:\\.', 'C:\\..', 'C:foo', 'C:foo\\', 'C:\\foo', 'C:\\foo\\', 'C:\\foo\\..\\..', 'C:\\foo\\bar.baz',
  'C:/foo/bar.baz/', 'C:..\\x', 'C:x:y', '1:', '1:\\', '@:\\', '[:\\', '`:\\', '{:\\', 'Ā:\\', 'ab:', 'ab:\\', 'a:b:c',
  '\\\\server', '\\\\server\\', '\\\\server\\\\', '\\\\server\\share', '\\\\server\\share\\', '\\\\server\\\\share',
  '\\\\server\\share\\\\', '\\\\server\\share\\a\\..\\..', '\\\\server\\share\\a\\b.c', '//server/share/x', '/\\server\\share',
  '\\/server/share', '\\\\\\server\\share', '\\\\s\\h', '\\\\s\\h\\', '\\\\s\\h\\.', '\\\\s\\h\\..', '\\\\a\\b\\c\\d',
  '\\\\?\\C:\\x', '\\\\?\\C:', '\\\\?\\C:\\', '\\\\?\\UNC\\server\\share\\x', '\\\\.\\pipe\\x', '\\\\.\\C:', '\\\\.\\',
  '\\\\.', '\\\\?', '\\\\?\\', 'CON', 'CON:', 'con:', 'CON:x', 'CON:\\x', 'CON:/x', 'CON:.', 'CON:..', 'CON::', 'CON:a:b',
  'CON:\\..\\..', 'CON:..\\x', 'CON:.\\', 'a\\CON:', './CON:', './CON:x', 'x:CON:', 'C:CON:', '\\CON:', 'COM1:', 'COM0:',
  'COM\u00b9:', 'COM\u2074:', 'LPT9:', 'lpt\u00b2:x', 'NUL:', 'nul:\\a', 'AUX:', 'PRN:', 'CONIN$:', 'CLOCK$:', 'CON.txt:',
  'CON :', 'COM10:', 'foo:', 'foo:\\', 'foo:/bar', 'foo:bar', 'x/../C:y', 'x\\..\\c:', 'a/b:', 'a/b:/c', './C:x', 'C:x/../D:',
  'a\\..\\..', '/a/b/', 'a//b', '/a//b', 'a///b//', 'a\\b\\\\', 'file.txt', '.hidden', '.hidden.txt', '..hidden', 'a.',
  'a..', '.a.', 'a.b.c', 'x\\..', 'x\\...', 'dir.d\\file', 'dir.d\\', 'C:\\temp\\file.txt', 'C:\\temp\\file.txt\\',
  '\\\\srv\\sh\\dir\\file.tar.gz', 'İ\\x', 'Straße\\Ä.TXT', 'sp ace\\x y.z', 'tab\there', 'nul\u0000byte', '\u2028',
  '😀\\😀.😀', '.\\', '..\\', '.\\.\\', '..\\..', '../../..', 'a/./b/../../c/', '/..', '/../..', 'C:\\..\\..\\x',
];

const prefixes = [
  '', 'C:', 'c:', 'C:\\', 'c:/', 'Z:\\\\', '\\', '/', '\\\\', '//', '\\\\\\', '\\\\server', '\\\\server\\share',
  '//server/share', '\\/srv\\\\sh', '\\\\server\\share\\', '\\\\?\\C:\\', '\\\\.\\pipe\\', 'CON:', 'nul:', 'COM1:',
  'C:CON:', '1:', 'ab:', ':', '.\\', '..\\',
];
const bodies = [
  '', 'a', 'a\\b', 'a/b', 'a\\\\b', '.', '..', '.\\a', 'a\\.', 'a\\..', 'a\\..\\..', '..\\..\\x', '...', 'a\\.\\b\\..\\c',
  'file.txt', '.hidden', '.hidden.txt', 'a.b.c', 'x.', 'x..', '..x', 'dir\\file.tar.gz', 'D:x', 'a:b', 'b:\\c', 'CON',
  'con:x', 'İ', 'ÄBC\\ß.Txt',
];
const tails = ['', '\\', '/', '\\\\', '\\.', '\\..', '/./'];

const generated = [];
for (const p of prefixes) for (const b of bodies) for (const t of tails) generated.push(p + b + t);
const paths = [...new Set([...handPicked, ...generated])];

// A seeded generator, so that a failure can be run again.
let seed = 0x5eed;
function rand(n) {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
}
const pick = (list) => list[rand(list.length)];

// Paths built from a few roots and segments that often share a beginning,
// in different cases: the inputs relative() is interesting on.
const relRoots = ['C:\\', 'c:\\', 'D:\\', 'C:', 'd:', '\\', '/', '', '\\\\srv\\sh\\', '\\\\SRV\\Sh\\', '//srv/sh/', '\\\\srv\\other\\', '\\\\srv2\\sh\\',
  '\\\\İ\\sh\\', '\\\\.\\pipe\\', '\\\\?\\C:\\'];
const relRests = ['', 'a', 'A', 'ab', 'abc', 'a\\b', 'A\\B', 'a\\bc', 'a\\b\\c', 'a\\B\\c\\', 'ab\\c', 'x\\y', '..\\a', 'a/b/../c', 'İ', 'i̇x', 'İ\\a', 'i̇\\A\\b', 'a\\İ', 'A\\i̇\\c', '.', 'a\\..\\..\\..'];
const relPaths = [];
for (const r of relRoots) for (const s of relRests) relPaths.push(r + s);

const badValues = [undefined, null, 0, 1.5, -0, NaN, true, false, 1n, Symbol('s'), {}, [], ['a'], new String('x'),
  new Date(0), function named() {}, /re/, new Map()];

// ---------------------------------------------------------------- the module's shape
const shape = [
  ['sep', ours.sep === theirs.sep],
  ['delimiter', ours.delimiter === theirs.delimiter],
  ['win32.win32 === win32', ours.win32 === ours],
  ['win32.posix === posix', ours.posix === shoalPath && ours.posix === shoalPath.posix],
  ['posix.win32 === win32', shoalPath.posix.win32 === ours && shoalPath.win32 === ours],
  ['_makeLong', ours._makeLong === ours.toNamespacedPath],
];
// Node 20's matchesGlob (experimental) is not offered.
for (const key of Object.keys(theirs)) {
  if (key === 'matchesGlob') continue;
  shape.push([`has ${key}`, key in ours && typeof ours[key] === typeof theirs[key]]);
  if (typeof theirs[key] === 'function') shape.push([`${key}.length`, ours[key].length === theirs[key].length]);
}
for (const [what, ok] of shape) {
  counts.shape = (counts.shape || 0) + 1;
  if (!ok) {
    mismatches++;
    shown.push(`MISMATCH shape: ${what}`);
  }
}

// ---------------------------------------------------------------- one-argument functions
for (const name of ['normalize', 'dirname', 'basename', 'extname', 'isAbsolute', 'parse', 'toNamespacedPath', 'resolve', 'join']) {
  for (const p of paths) compare(name, [p]);
  for (const v of badValues) compare(name, [v]);
}
compare('resolve', []);
compare('join', []);
// toNamespacedPath gives back what it cannot use, the same value.
for (const v of badValues) compare('toNamespacedPath', [v], (w) => w.toNamespacedPath(v) === v);
// Values that internal/errors.js describes in other words than Node
// ('Received function <anonymous>' for Node's 'Received function ', no '{}'
// after an empty null-prototype object): the error's name and code only.
for (const v of [() => {}, Object.create(null)]) {
  for (const name of ['normalize', 'dirname', 'basename', 'extname', 'isAbsolute', 'parse', 'resolve', 'join', 'format']) {
    compare(name, [v], undefined, false);
  }
  compare('relative', ['a', v], undefined, false);
  compare('basename', ['a', v], undefined, false);
}

// ---------------------------------------------------------------- basename with a suffix
const suffixes = ['', '.txt', 'txt', '.TXT', 'e.txt', 'file.txt', '.gz', '.tar.gz', 'b', 'a\\b', 'b\\', '\\', '/', '.', '..', 'x',
  'C:', 'c', 'hidden', '.hidden', 'share', 'CON:', ':', 'a', 'a.b.c', 'İ', '.c'];
const someFiles = [...handPicked, ...generated.filter((_, i) => i % 7 === 0)];
for (const p of someFiles) {
  for (const s of suffixes) compare('basename', [p, s]);
  compare('basename', [p, p]);
  compare('basename', [p, `x${p}`]);
  if (p.length > 1) compare('basename', [p, p.slice(1)]);
}
for (const v of badValues) {
  compare('basename', ['a.txt', v]);
  compare('basename', [v, '.txt']);
}

// ---------------------------------------------------------------- join and resolve with several arguments
const parts = [...handPicked, ...prefixes, ...bodies, ...relPaths];
for (let i = 0; i < 4000; i++) {
  const n = 2 + rand(4);
  const args = Array.from({ length: n }, () => (rand(8) === 0 ? '' : pick(parts)));
  compare('join', args);
  compare('resolve', args);
}
for (const a of prefixes) {
  for (const b of ['', '\\', '/', '\\\\', 'server', '\\server', '//server', 'share', '\\share\\', 'x', '..', 'CON:', 'C:', 'D:x']) {
    compare('join', [a, b]);
    compare('join', [a, b, 'share', 'x']);
    compare('join', ['', a, '', b]);
    compare('resolve', [a, b]);
    compare('resolve', [b, a]);
    compare('resolve', ['D:\\base', a, b]);
    compare('resolve', ['d:rel', b, a]);
  }
}
for (const v of badValues) {
  compare('join', ['a', v]);
  compare('join', [v, 'a']);
  compare('resolve', ['a', 'b', v]);
  compare('resolve', [v, 'a']);
}

// ---------------------------------------------------------------- relative
for (const from of relPaths) for (const to of relPaths) compare('relative', [from, to]);
for (let i = 0; i < 3000; i++) compare('relative', [pick(paths), pick(paths)]);
for (const v of badValues) {
  compare('relative', ['a', v]);
  compare('relative', [v, 'a']);
}

// ---------------------------------------------------------------- format
// What parse() gives (Node's, so both sides get the same object), then
// the same with parts taken away or changed.
for (const p of paths.filter((_, i) => i % 3 === 0)) {
  const o = theirs.parse(p);
  compare('format', [o]);
  compare('format', [{ ...o, base: undefined }]);
  compare('format', [{ ...o, dir: '' }]);
  compare('format', [{ root: o.root, name: o.name, ext: o.ext.slice(1) }]);
}
const formatObjects = [
  {}, { root: 'C:\\' }, { dir: 'C:\\' }, { root: 'C:\\', dir: 'C:\\' }, { root: 'C:\\', dir: 'C:\\x' }, { root: 'C:\\', base: 'f.txt' },
  { dir: 'C:\\x', base: 'f.txt' }, { dir: 'C:\\x\\', base: 'f.txt' }, { root: '\\\\s\\h\\', name: 'n', ext: 'e' },
  { dir: 'a', name: 'n', ext: '.e' }, { dir: 'a', name: 'n', ext: 'e' }, { dir: 'a', name: 'n', ext: '..e' }, { name: 'n', ext: '.' },
  { name: 'n', ext: '' }, { base: 'b', name: 'n', ext: '.e' }, { base: '', name: 'n', ext: '.e' }, { root: '/', dir: '/' },
  { root: 'x', dir: 'y', base: 'z' }, { root: 'x', base: 'z' }, { name: 5, ext: 6 }, { dir: 0, root: 0, base: 0 },
  { dir: 1, base: 2 }, { ext: ['.x'] }, { ext: ['x'] }, { name: null, ext: null }, { dir: true, name: false },
  { root: 'C:', name: 'file', ext: 'txt' }, { dir: '/tmp/out', name: 'report', ext: '.csv' }, new Date(0),
  Object.create({ dir: 'inherited', base: 'b' }), { toString() { return 'x'; } }, new String('s'),
];
for (const o of formatObjects) compare('format', [o]);
for (const v of [undefined, null, 0, 'C:\\x', true, 1n, Symbol('s'), [], ['a'], function named() {}]) compare('format', [v]);

// ---------------------------------------------------------------- isAbsolute and friends on odd strings
for (let c = 0; c < 256; c++) {
  const ch = String.fromCharCode(c);
  for (const p of [`${ch}:`, `${ch}:\\x`, `${ch}:/`, `\\\\${ch}\\${ch}`]) {
    for (const name of ['isAbsolute', 'normalize', 'resolve', 'dirname', 'basename', 'extname', 'parse', 'toNamespacedPath']) compare(name, [p]);
  }
}

// ---------------------------------------------------------------- random strings
// Short strings of the characters (and device names) that matter to win32
// paths, for combinations nobody thought of.
const alphabet = ['a', 'B', 'c', '.', '.', '..', '\\', '\\', '/', ':', 'C:', 'c', '?', ' ', 'İ', 'CON', 'nul', 'COM1', 'x.y'];
const randomPaths = [];
for (let i = 0; i < 4000; i++) {
  let p = '';
  for (let n = rand(9); n > 0; n--) p += pick(alphabet);
  randomPaths.push(p);
}
for (const p of randomPaths) {
  for (const name of ['normalize', 'dirname', 'basename', 'extname', 'isAbsolute', 'parse', 'toNamespacedPath', 'resolve']) compare(name, [p]);
  compare('basename', [p, pick(randomPaths)]);
  compare('basename', [p, p.slice(rand(p.length + 1))]);
  compare('join', [p, pick(randomPaths)]);
  compare('resolve', [pick(randomPaths), p]);
  compare('relative', [p, pick(randomPaths)]);
  compare('format', [theirs.parse(p)]);
}

// ---------------------------------------------------------------- summary
for (const s of shown) console.log(s);
if (mismatches > shown.length) console.log(`... and ${mismatches - shown.length} more (--verbose shows all)`);
const total = Object.values(counts).reduce((a, b) => a + b, 0);
const perFunction = Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(', ');
console.log(`per function: ${perFunction}`);
console.log(`path.win32: ${total} inputs compared with Node ${process.version}, ${mismatches} mismatches`);
process.exit(mismatches ? 1 : 0);
