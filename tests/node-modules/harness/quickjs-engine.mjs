// Runs the bundled modules in QuickJS-NG (the engine family Javy is built
// on, compiled to WebAssembly by the quickjs-emscripten packages), with a
// prelude like Shoal's: console, performance.now, UTF-8 TextEncoder/
// TextDecoder, numeric timers (fired by the host, in real time), a
// `process` and __shoal_native backed by native-shim.cjs.
import { createRequire } from 'node:module';
import { bundleModules } from './v8-context.mjs';
import { jsRequire } from './shoal-js.mjs';

const require = createRequire(import.meta.url);
const { newQuickJSWASMModuleFromVariant } = jsRequire('quickjs-emscripten-core');
const variant = jsRequire('@jitl/quickjs-ng-wasmfile-release-sync').default;
const shim = require('./native-shim.cjs');
const hostShim = require('./host-shim.cjs');

// Inside QuickJS; host functions take and return JSON text (bytes as arrays).
const prelude = `
(() => {
  const host = globalThis.__host;
  const call = (name, ...args) => {
    const r = JSON.parse(host.call(name, JSON.stringify(args)));
    if (r.error) { const e = new Error(r.error.message); for (const k of ["code", "syscall", "path"]) if (r.error[k] !== undefined) e[k] = r.error[k]; throw e; }
    return r.value;
  };
  const fmt = (args) => args.map((a) => typeof a === "string" ? a : (() => { try { return JSON.stringify(a); } catch { return String(a); } })()).join(" ");
  globalThis.console = { log: (...a) => host.log(fmt(a)), error: (...a) => host.log(fmt(a)), warn: (...a) => host.log(fmt(a)), info: (...a) => host.log(fmt(a)) };
  globalThis.performance = { now: () => call("now") };
  globalThis.queueMicrotask = globalThis.queueMicrotask || ((fn) => { Promise.resolve().then(fn); });
  const bytes = (u8) => Array.from(u8);
  globalThis.TextEncoder = class TextEncoder { get encoding() { return "utf-8"; } encode(s = "") { return new Uint8Array(call("encode", String(s))); } };
  globalThis.TextDecoder = class TextDecoder {
    constructor(label = "utf-8") { if (!/^utf-?8$/i.test(label)) throw new RangeError("only utf-8"); }
    decode(input) { if (input === undefined) return ""; const u8 = ArrayBuffer.isView(input) ? new Uint8Array(input.buffer, input.byteOffset, input.byteLength) : new Uint8Array(input); return call("decode", bytes(u8)); }
  };
  const timers = new Map(); let nextId = 1;
  const add = (fn, ms, args, repeat) => { const id = nextId++; const delay = Math.max(0, Number(ms) || 0); timers.set(id, { id, fn, args, at: Date.now() + delay, delay, repeat }); return id; };
  globalThis.setTimeout = (fn, ms, ...args) => add(fn, ms, args, false);
  globalThis.setInterval = (fn, ms, ...args) => add(fn, ms, args, true);
  globalThis.setImmediate = (fn, ...args) => add(fn, 0, args, false);
  globalThis.clearTimeout = globalThis.clearInterval = globalThis.clearImmediate = (id) => { timers.delete(typeof id === "object" && id !== null ? id.id : id); };
  globalThis.__nextTimer = () => { let next = null; for (const t of timers.values()) if (!next || t.at < next.at) next = t; return next ? Math.max(0, next.at - Date.now()) : -1; };
  globalThis.__fireTimer = () => {
    let next = null; for (const t of timers.values()) if (!next || t.at < next.at) next = t;
    if (!next) return;
    if (next.repeat) next.at = Date.now() + Math.max(1, next.delay); else timers.delete(next.id);
    try { next.fn(...next.args); } catch (e) { console.error("timer error", String(e)); }
  };
  globalThis.process = {
    env: { HOSTNAME: "fn-1" }, argv: ["node", "handler.js"], platform: "wasi", version: "v22.0.0-shoal", versions: {},
    nextTick: (fn, ...args) => { Promise.resolve().then(() => fn(...args)); },
    hrtime: (prev) => { const ns = Math.round(performance.now() * 1e6); const t = [Math.floor(ns / 1e9), ns % 1e9]; return prev ? [t[0] - prev[0], t[1] - prev[1]] : t; },
    cwd: () => "/", exit: (code) => { throw new Error("process.exit(" + code + ") is not supported in a Function"); },
    on: () => globalThis.process, emitWarning: (w) => console.warn(String(w)),
  };
  const ab = (arr) => new Uint8Array(arr).buffer;
  globalThis.__shoal_native = {
    digest: (alg, data) => ab(call("digest", alg, bytes(data))),
    hmac: (alg, key, data) => ab(call("hmac", alg, bytes(key), bytes(data))),
    pbkdf2: (alg, p, s, i, l) => ab(call("pbkdf2", alg, bytes(p), bytes(s), i, l)),
    aesCbc: (k, iv, d, dec) => ab(call("aesCbc", bytes(k), bytes(iv), bytes(d), dec)),
    aesCtr: (k, c, o, d, c32) => ab(call("aesCtr", bytes(k), bytes(c), o, bytes(d), c32)),
    aesGcm: (k, iv, aad, d, tag) => ab(call("aesGcm", bytes(k), bytes(iv), bytes(aad), bytes(d), tag === undefined ? null : bytes(tag))),
    scrypt: (p, s, n, r, par, l) => ab(call("scrypt", bytes(p), bytes(s), n, r, par, l)),
    randomBytes: (n) => ab(call("randomBytes", n)),
    zlib: (op, data, level) => ab(call("zlib", op, bytes(data), level)),
    urlParse: (input, base) => call("urlParse", input, base),
    urlSet: (href, c, v) => call("urlSet", href, c, v),
    fsRead: (p) => ab(call("fsRead", p)),
    fsStat: (p) => call("fsStat", p),
    fsReaddir: (p) => call("fsReaddir", p),
  };
  // The key primitives (native-shim-keys.cjs): bytes travel as { __bytes: [...] }.
  const encodeArg = (v) => v === undefined ? null : ArrayBuffer.isView(v) ? { __bytes: Array.from(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)) }
    : Array.isArray(v) ? v.map(encodeArg) : v !== null && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, encodeArg(x)])) : v;
  const decodeResult = (v) => v === null || typeof v !== "object" ? v : Array.isArray(v) ? v.map(decodeResult)
    : "__bytes" in v ? new Uint8Array(v.__bytes).buffer : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, decodeResult(x)]));
  for (const name of ${JSON.stringify(shim.keyFunctionNames)}) globalThis.__shoal_native[name] = (...args) => decodeResult(call("keyFunction", name, encodeArg(args)));
  // Host operations (host-shim.cjs); the runner below delivers their
  // answers through __shoal_calls, as the prelude's event loop does.
  const op = host.op;
  globalThis.__shoal_calls = new Map();
  globalThis.__shoal_host = { op: (name, head) => op(name, head) };
  globalThis.__deliverHostCall = (id, head) => {
    const deliver = globalThis.__shoal_calls.get(id);
    globalThis.__shoal_calls.delete(id);
    if (deliver) deliver({ head, body: new ArrayBuffer(0) });
  };
  delete globalThis.__host;
})();
`;

const hostCalls = {
  now: () => performance.now(),
  encode: (s) => Array.from(Buffer.from(s, 'utf8')),
  decode: (b) => new TextDecoder().decode(Uint8Array.from(b)),
  digest: (alg, data) => Array.from(new Uint8Array(shim.digest(alg, Uint8Array.from(data)))),
  hmac: (alg, key, data) => Array.from(new Uint8Array(shim.hmac(alg, Uint8Array.from(key), Uint8Array.from(data)))),
  pbkdf2: (alg, p, s, i, l) => Array.from(new Uint8Array(shim.pbkdf2(alg, Uint8Array.from(p), Uint8Array.from(s), i, l))),
  aesCbc: (k, iv, d, dec) => Array.from(new Uint8Array(shim.aesCbc(Uint8Array.from(k), Uint8Array.from(iv), Uint8Array.from(d), dec))),
  aesCtr: (k, c, o, d, c32) => Array.from(new Uint8Array(shim.aesCtr(Uint8Array.from(k), Uint8Array.from(c), o, Uint8Array.from(d), c32))),
  aesGcm: (k, iv, aad, d, tag) =>
    Array.from(new Uint8Array(shim.aesGcm(Uint8Array.from(k), Uint8Array.from(iv), Uint8Array.from(aad), Uint8Array.from(d), tag == null ? undefined : Uint8Array.from(tag)))),
  scrypt: (p, s, n, r, par, l) => Array.from(new Uint8Array(shim.scrypt(Uint8Array.from(p), Uint8Array.from(s), n, r, par, l))),
  randomBytes: (n) => Array.from(new Uint8Array(shim.randomBytes(n))),
  zlib: (op, data, level) => Array.from(new Uint8Array(shim.zlib(op, Uint8Array.from(data), level))),
  urlParse: (input, base) => shim.urlParse(input, base === null ? undefined : base),
  urlSet: (href, c, v) => shim.urlSet(href, c, v),
  fsRead: (p) => Array.from(new Uint8Array(shim.fsRead(p))),
  fsStat: (p) => shim.fsStat(p),
  fsReaddir: (p) => shim.fsReaddir(p),
};
// The key primitives: `{ __bytes }` to Uint8Array and back, null to undefined.
const decodeArg = (v) => v === null ? undefined : Array.isArray(v) ? v.map(decodeArg)
  : typeof v === 'object' ? ('__bytes' in v ? Uint8Array.from(v.__bytes) : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, decodeArg(x)]))) : v;
const encodeResult = (v) => v === null || typeof v !== 'object' ? v : v instanceof ArrayBuffer ? { __bytes: Array.from(new Uint8Array(v)) }
  : ArrayBuffer.isView(v) ? { __bytes: Array.from(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)) }
    : Array.isArray(v) ? v.map(encodeResult) : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, encodeResult(x)]));
hostCalls.keyFunction = (name, args) => encodeResult(shim[name](...decodeArg(args)));

export async function loadQuickJS() {
  const code = await bundleModules();
  const QuickJS = await newQuickJSWASMModuleFromVariant(variant);
  const runtime = QuickJS.newRuntime();
  runtime.setMemoryLimit(512 * 1024 * 1024);
  runtime.setMaxStackSize(4 * 1024 * 1024);
  const vm = runtime.newContext();

  const hostObj = vm.newObject();
  const callFn = vm.newFunction('call', (nameH, argsH) => {
    const name = vm.getString(nameH);
    const args = JSON.parse(vm.getString(argsH)).map((a) => (a === null ? undefined : a));
    let out;
    try {
      out = { value: hostCalls[name](...args) };
    } catch (err) {
      out = { error: { message: err.message, code: err.code, syscall: err.syscall, path: err.path } };
    }
    return vm.newString(JSON.stringify(out));
  });
  const logFn = vm.newFunction('log', (h) => {
    console.log(`[quickjs] ${vm.getString(h)}`);
  });
  const answered = [];
  const hostOps = hostShim.createHost((id, head) => answered.push({ id, head }));
  const opFn = vm.newFunction('op', (nameH, headH) => vm.newNumber(hostOps.op(vm.getString(nameH), vm.getString(headH))));
  vm.setProp(hostObj, 'call', callFn);
  vm.setProp(hostObj, 'log', logFn);
  vm.setProp(hostObj, 'op', opFn);
  opFn.dispose();
  vm.setProp(vm.global, '__host', hostObj);
  callFn.dispose();
  logFn.dispose();
  hostObj.dispose();

  const evalOrThrow = (src, filename) => {
    const r = vm.evalCode(src, filename);
    if (r.error) {
      const err = vm.dump(r.error);
      r.error.dispose();
      throw new Error(`QuickJS: ${JSON.stringify(err)}`);
    }
    return r.value;
  };
  evalOrThrow(prelude, 'prelude.js').dispose();
  evalOrThrow(code, 'shoal-node-modules.js').dispose();
  evalOrThrow(`
    globalThis.__runCase = (code) => {
      globalThis.__result = undefined;
      const done = (v) => { globalThis.__result = v; };
      const fail = (err) => done(JSON.stringify({ threw: err && err.name, code: err && err.code, message: err && err.message }));
      const ok = (v) => { try { done(JSON.stringify(v === undefined ? "<undefined>" : v)); } catch (e) { fail(e); } };
      try {
        const v = new Function("M", "G", code)(__shoalTest.modules, __shoalTest.globals);
        if (v && typeof v.then === "function") v.then(ok, fail); else ok(v);
      } catch (err) { fail(err); }
    };`, 'runner.js').dispose();

  const pump = () => {
    for (;;) {
      const r = runtime.executePendingJobs();
      if (r.error) {
        console.log('[quickjs] job error', vm.dump(r.error));
        r.error.dispose();
      }
      const n = r.value === undefined ? 0 : r.value;
      if (!n) break;
    }
  };
  const getResult = () => {
    const h = vm.getProp(vm.global, '__result');
    const v = vm.typeof(h) === 'string' ? vm.getString(h) : undefined;
    h.dispose();
    return v;
  };
  const nextTimer = () => {
    const h = evalOrThrow('__nextTimer()', 'pump.js');
    const v = vm.getNumber(h);
    h.dispose();
    return v;
  };

  return {
    engine: 'quickjs-ng',
    async runCase(code) {
      const fn = vm.getProp(vm.global, '__runCase');
      const arg = vm.newString(code);
      const r = vm.callFunction(fn, vm.undefined, arg);
      arg.dispose();
      fn.dispose();
      if (r.error) {
        const e = vm.dump(r.error);
        r.error.dispose();
        return JSON.stringify({ threw: 'HostError', message: JSON.stringify(e) });
      }
      r.value.dispose();
      const deadline = Date.now() + 10000;
      for (;;) {
        pump();
        const res = getResult();
        if (res !== undefined) return res;
        if (answered.length) {
          const { id, head } = answered.shift();
          evalOrThrow(`__deliverHostCall(${id}, ${JSON.stringify(head)})`, 'host-call.js').dispose();
          continue;
        }
        const wait = nextTimer();
        // A host operation in flight and no timer due soon: look again shortly.
        if (hostOps.pending() > 0 && (wait < 0 || wait > 5) && Date.now() <= deadline) {
          await new Promise((resolve) => setTimeout(resolve, 5));
          continue;
        }
        if (wait < 0 || Date.now() > deadline) return JSON.stringify({ threw: 'Unsettled', message: 'the case never settled' });
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        evalOrThrow('__fireTimer()', 'pump.js').dispose();
      }
    },
    stop() {
      // Cancel what is left; the runtime is dropped with the process.
      evalOrThrow('for (let id = 1; id < 1e5; id++) clearTimeout(id);', 'stop.js').dispose();
    },
  };
}
