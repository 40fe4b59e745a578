// Loads Shoal's Node.js modules into a fresh V8 context that looks like
// Shoal's engine (QuickJS via Javy + the prelude): no Intl, URL, Buffer,
// atob, structuredClone, EventTarget, require; UTF-8-only TextEncoder/
// TextDecoder; a prelude-like `process` and numeric timers; and
// __shoal_native backed by native-shim.cjs. The modules are bundled
// with esbuild exactly as a Function's code would be.
import vm from 'node:vm';
import path from 'node:path';
import { createRequire } from 'node:module';
import { shoalBuildOptions, nodeDir } from './bundle-plugin.mjs';
import { jsRequire } from './shoal-js.mjs';

const require = createRequire(import.meta.url);
const { build } = jsRequire('esbuild');
const shim = require('./native-shim.cjs');
const hostShim = require('./host-shim.cjs');

// The modules (M in Shoal's half of a case), each under its own name
// (M['fs/promises'], M['node:sqlite']): these first, then every other
// built-in of Node 22 (builtin-shapes.json).
export const moduleNames = [
  'assert', 'assert/strict', 'async_hooks', 'buffer', 'crypto', 'events', 'fs', 'fs/promises', 'os', 'path',
  'perf_hooks', 'process', 'querystring', 'stream', 'stream/promises', 'string_decoder', 'timers',
  'timers/promises', 'url', 'util', 'util/types', 'zlib',
];

const specifier = (name) => (name.startsWith('node:') ? name : `node:${name}`);

{
  const listed = new Set(moduleNames.map(specifier));
  for (const name of Object.keys(require('../builtin-shapes.json').modules)) {
    if (!listed.has(specifier(name))) moduleNames.push(name);
  }
}

export async function bundleModules() {
  const lines = [];
  moduleNames.forEach((name, i) => lines.push(`import * as m${i} from ${JSON.stringify(specifier(name))};`));
  lines.push(`import * as globals from ${JSON.stringify(path.join(nodeDir, 'globals.js'))};`);
  lines.push(`import * as intl from ${JSON.stringify(path.join(nodeDir, 'intl.js'))};`);
  // A CommonJS module's namespace: `default` is module.exports.
  lines.push(`const pick = (ns) => ns.default !== undefined ? ns.default : ns;`);
  lines.push(`export const modules = { ${moduleNames.map((n, i) => `${JSON.stringify(n)}: pick(m${i})`).join(', ')} };`);
  lines.push('export { globals };');
  lines.push('export const intlModule = pick(intl);');
  const leaks = [];
  const result = await build({
    ...shoalBuildOptions(leaks),
    stdin: { contents: lines.join('\n'), resolveDir: nodeDir, sourcefile: 'test-entry.mjs' },
    format: 'iife',
    globalName: '__shoalTest',
  });
  if (leaks.length) throw new Error(`Node built-ins leaked into the bundle: ${leaks.join(', ')}`);
  return result.outputFiles[0].text;
}

// What Shoal's prelude and Javy provide, written inside the sandbox realm.
const preludeScript = `
(() => {
  const host = globalThis.__host;
  delete globalThis.__host;
  delete globalThis.Intl;
  globalThis.console = host.console;
  globalThis.performance = { now: () => host.now() };
  globalThis.queueMicrotask = (fn) => { Promise.resolve().then(fn); };
  class TextEncoder {
    get encoding() { return 'utf-8'; }
    encode(s = '') { return new Uint8Array(host.encode(String(s))); }
  }
  class TextDecoder {
    constructor(label = 'utf-8') {
      if (!/^utf-?8$/i.test(label)) throw new RangeError('only utf-8 is supported by the engine');
    }
    decode(input) {
      if (input === undefined) return '';
      const u8 = ArrayBuffer.isView(input) ? new Uint8Array(input.buffer, input.byteOffset, input.byteLength) : new Uint8Array(input);
      return host.decode(Array.from(u8));
    }
  }
  globalThis.TextEncoder = TextEncoder;
  globalThis.TextDecoder = TextDecoder;
  // Timers with numeric ids, as the prelude's.
  let nextId = 1;
  const live = new Map();
  globalThis.setTimeout = (fn, ms, ...args) => { const id = nextId++; live.set(id, host.setTimeout(() => { live.delete(id); fn(...args); }, ms)); return id; };
  globalThis.setInterval = (fn, ms, ...args) => { const id = nextId++; live.set(id, host.setInterval(() => fn(...args), ms)); return id; };
  globalThis.setImmediate = (fn, ...args) => globalThis.setTimeout(fn, 0, ...args);
  globalThis.clearTimeout = globalThis.clearInterval = globalThis.clearImmediate = (id) => {
    const key = typeof id === 'object' && id !== null ? id.id : id;
    if (live.has(key)) { host.clearTimer(live.get(key)); live.delete(key); }
  };
  globalThis.process = {
    env: { HOSTNAME: 'fn-1' },
    argv: ['node', 'handler.js'],
    platform: 'wasi',
    version: 'v22.0.0-shoal',
    versions: {},
    nextTick: (fn, ...args) => { Promise.resolve().then(() => fn(...args)); },
    hrtime: (prev) => { const ns = Math.round(host.now() * 1e6); const t = [Math.floor(ns / 1e9), ns % 1e9]; return prev ? [t[0] - prev[0], t[1] - prev[1]] : t; },
    cwd: () => '/',
    exit: (code) => { throw new Error('process.exit(' + code + ') is not supported in a Function'); },
    on: () => globalThis.process,
    emitWarning: (w) => console.warn(String(w)),
  };
  // Engine primitives: results are copied into this realm, errors rethrown
  // as this realm's Errors.
  const copy = (ab) => new Uint8Array(new Uint8Array(ab)).buffer;
  const arr = (u8) => new Uint8Array(u8);
  const wrap = (fn) => (...args) => {
    try { return fn(...args); } catch (e) {
      const err = new Error(e.message);
      for (const k of ['code', 'syscall', 'path']) if (e[k] !== undefined) err[k] = e[k];
      throw err;
    }
  };
  const n = host.native;
  globalThis.__shoal_native = {
    digest: wrap((alg, data) => copy(n.digest(alg, arr(data)))),
    hmac: wrap((alg, key, data) => copy(n.hmac(alg, arr(key), arr(data)))),
    pbkdf2: wrap((alg, p, s, i, l) => copy(n.pbkdf2(alg, arr(p), arr(s), i, l))),
    aesCbc: wrap((k, iv, d, dec) => copy(n.aesCbc(arr(k), arr(iv), arr(d), dec))),
    aesCtr: wrap((k, c, o, d, c32) => copy(n.aesCtr(arr(k), arr(c), o, arr(d), c32))),
    aesGcm: wrap((k, iv, aad, d, tag) => copy(n.aesGcm(arr(k), arr(iv), arr(aad), arr(d), tag === undefined ? undefined : arr(tag)))),
    scrypt: wrap((p, s, N, r, par, l) => copy(n.scrypt(arr(p), arr(s), N, r, par, l))),
    randomBytes: wrap((len) => copy(n.randomBytes(len))),
    zlib: wrap((op, data, level) => copy(n.zlib(op, arr(data), level))),
    urlParse: wrap((input, base) => ({ ...(base === undefined ? n.urlParse(input) : n.urlParse(input, base)) })),
    urlSet: wrap((href, c, v) => ({ ...n.urlSet(href, c, v) })),
    fsRead: wrap((p) => copy(n.fsRead(p))),
    fsStat: wrap((p) => Array.from(n.fsStat(p))),
    fsReaddir: wrap((p) => Array.from(n.fsReaddir(p))),
  };
  // The key primitives (native-shim-keys.cjs): their results (ArrayBuffers,
  // arrays, plain objects) are copied into this realm.
  const intoRealm = (v) => {
    if (v === null || typeof v !== 'object') return v;
    if (Object.prototype.toString.call(v) === '[object ArrayBuffer]') return copy(v);
    if (Array.isArray(v)) return v.map(intoRealm);
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, intoRealm(x)]));
  };
  for (const name of n.keyFunctionNames) globalThis.__shoal_native[name] = wrap((...args) => intoRealm(n[name](...args)));
  // Host operations (host-shim.cjs), answered through __shoal_calls
  // as the prelude's event loop does.
  globalThis.__shoal_calls = new Map();
  globalThis.__shoal_host = { op: (name, head) => host.op(name, head) };
})();
`;

export async function loadSandbox() {
  const code = await bundleModules();
  const timers = new Set();
  let context;
  const hostOps = hostShim.createHost((id, head) => {
    const deliver = context.__shoal_calls.get(id);
    context.__shoal_calls.delete(id);
    if (deliver) deliver({ head, body: vm.runInContext('new ArrayBuffer(0)', context) });
  });
  context = vm.createContext({
    __host: {
      console,
      now: () => performance.now(),
      encode: (s) => Array.from(Buffer.from(s, 'utf8')),
      decode: (bytes) => new globalThis.TextDecoder().decode(Uint8Array.from(bytes)),
      setTimeout: (fn, ms) => { const t = setTimeout(fn, ms); timers.add(t); return t; },
      setInterval: (fn, ms) => { const t = setInterval(fn, ms); timers.add(t); return t; },
      clearTimer: (t) => { clearTimeout(t); clearInterval(t); timers.delete(t); },
      native: shim,
      op: (name, head) => hostOps.op(name, head),
    },
  });
  vm.runInContext(preludeScript, context, { filename: 'prelude-shim.js' });
  vm.runInContext(code, context, { filename: 'shoal-node-modules.js' });
  const exportsObj = vm.runInContext('__shoalTest', context);
  return {
    context,
    run: (src) => vm.runInContext(src, context),
    modules: exportsObj.modules,
    globals: exportsObj.globals,
    intl: exportsObj.intlModule,
    stopTimers: () => { for (const t of timers) { clearTimeout(t); clearInterval(t); } },
  };
}
