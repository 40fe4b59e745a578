// Shoal's runtime prelude: runs a Kyma Node.js handler inside Shoal's
// JavaScript engine (QuickJS via Javy). Bundled in front of every Function.
//
// Contract: a sandbox serves one request or, when the node keeps it warm,
// many requests one after another. The prelude and the Function's module
// top-level run once per sandbox; for each request the host hands over
// (`__shoal_host.nextRequest`: its head as JSON and its body as bytes) it
// builds Express's `req` and `res` (runtime/express.js) and calls the
// handler the way the Function's runtime does: `main(event, context,
// sendResponse)` for the legacy runtimes, with Kyma's `event` and
// `context`, its result mapped to status/headers/body exactly as Kyma's
// Node.js runtime maps it; `main(req, res)` for nodejs26, which answers
// through `res`. The response head and body go back with
// `__shoal_host.respond`. Module-level state therefore lives as long as
// the sandbox, as it lives as long as the pod in Kyma. The host ABI under
// these calls is declared in crates/shoal-engine/src/abi.rs.
//
// Importing this module installs the globals Node.js code expects to exist
// before the handler's own top-level code runs (process.env, timers).

import { BadRequest, Request, Response, declaresBody, mediaType, parseBody } from "./runtime/express.js";
import * as tracing from "./runtime/tracing.js";

const ENVELOPE_VERSION = 1;
const encoder = new globalThis.TextEncoder();
const decoder = new globalThis.TextDecoder();

/** The next request, or null when the host retires this sandbox. */
function nextRequest() {
  const next = __shoal_host.nextRequest();
  if (next === undefined) return null;
  const head = JSON.parse(next[0]);
  if (head.v !== ENVELOPE_VERSION) {
    throw new Error(`Shoal: envelope version ${head.v} is not supported (prelude speaks ${ENVELOPE_VERSION})`);
  }
  return { head, body: next[1] };
}

// The request being served. The first one arrives before the Function's
// module loads: process.env comes from it.
let request = nextRequest();
if (request === null) throw new Error("Shoal: the sandbox got no request");
let head = request.head;

// ---------------------------------------------------------------- globals
// Node's globalThis lists only these among its enumerable keys
// (Object.keys(globalThis); core-js exports globalThis): the engine's
// (console, TextEncoder, Javy, __javy_*) and Shoal's own (__shoal_*,
// process, the classes the bundler puts there) are there but not enumerable.
const NODE_ENUMERABLE_GLOBALS = new Set([
  "global", "clearImmediate", "setImmediate", "clearInterval", "clearTimeout", "setInterval", "setTimeout",
  "queueMicrotask", "structuredClone", "atob", "btoa", "performance", "fetch", "crypto", "navigator",
]);
function hideGlobal(name, value) {
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
}
for (const key of Object.getOwnPropertyNames(globalThis)) {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, key);
  const enumerable = NODE_ENUMERABLE_GLOBALS.has(key);
  if (descriptor.configurable && descriptor.enumerable !== enumerable && (enumerable || descriptor.enumerable)) {
    Object.defineProperty(globalThis, key, { enumerable });
  }
}
// The trace context outbound calls carry (node/http.js, fetch, WebSocket):
// the Function's active span when it has one or the node records the
// request, the caller's trace headers as they came otherwise.
let incomingTraceHeaders = [];
Object.defineProperty(globalThis, "__shoal_trace_headers", {
  get: () => tracing.outboundHeaders(incomingTraceHeaders),
  configurable: true,
  enumerable: false,
});
tracing.registerGlobals();
// Node's `global` and `navigator` (Node 21+), enumerable as there.
if (!("global" in globalThis)) Object.defineProperty(globalThis, "global", { value: globalThis, writable: true, configurable: true, enumerable: true });
if (!("navigator" in globalThis)) {
  let navigator;
  class Navigator {
    get hardwareConcurrency() { return 1; }
    get language() { return "en-US"; }
    get languages() { return ["en-US"]; }
    get userAgent() { return `Node.js/${String(globalThis.process.version).slice(1).split(".")[0]}`; }
    // `${os.type()} ${os.machine()}`, as Node's (node/os.js).
    get platform() { return "Linux wasm32"; }
  }
  Object.defineProperty(globalThis, "navigator", {
    get: () => navigator || (navigator = new Navigator()),
    configurable: true,
    enumerable: true,
  });
}
// The build's probe loads the module without the Function's env (only its
// plain spec.env values, where known). It records the variables read and
// missing, so a load that fails for want of them is not taken for broken code.
const missingEnv = new Set();
function probeEnv(known) {
  return new Proxy(Object.assign({}, known), {
    get(target, key) {
      if (typeof key === "string" && !(key in target)) missingEnv.add(key);
      return target[key];
    },
  });
}
const NODE_VERSIONS = { nodejs20: "20.19.0", nodejs22: "22.12.0", nodejs24: "24.0.0", nodejs26: "26.0.0" };
// nodejs26 calls `main(req, res)` and has the `sdk` module; the others
// call `main(event, context)`.
const requestResponseApi = Boolean(head.function && head.function.runtime === "nodejs26");
// The prelude owns what `process` says about the Function (env, its
// runtime's Node line, nextTick). A module the bundler injects for a global
// (WebSocket, fetch...) may load node/process.js before this code runs and
// create `process` first: then these fields are put on that same object,
// so `require('process') === process` still holds and env is never lost.
const preludeProcess = {
  env: head.probe ? probeEnv(head.env) : Object.assign({}, head.env),
  argv: ["node", "handler.js"],
  // What code checks for feature detection: the Node.js line of the
  // Function's runtime (Shoal implements its APIs), and Linux, where Kyma runs.
  platform: "linux",
  version: `v${NODE_VERSIONS[head.function && head.function.runtime] || NODE_VERSIONS.nodejs24}`,
  versions: { node: NODE_VERSIONS[head.function && head.function.runtime] || NODE_VERSIONS.nodejs24, shoal: "1" },
  nextTick,
  hrtime: Object.assign(
    (prev) => {
      const ns = Math.round((typeof performance !== "undefined" ? performance.now() : Date.now()) * 1e6);
      const t = [Math.floor(ns / 1e9), ns % 1e9];
      if (!prev) return t;
      let s = t[0] - prev[0];
      let n = t[1] - prev[1];
      if (n < 0) { s -= 1; n += 1e9; }
      return [s, n];
    },
    { bigint: () => BigInt(Date.now()) * 1000000n },
  ),
  cwd: () => "/",
  exit: (code) => { throw new Error(`process.exit(${code}) is not supported in a Function`); },
};
if (globalThis.process) {
  Object.assign(globalThis.process, preludeProcess);
} else {
  hideGlobal("process", Object.assign(preludeProcess, {
    on: () => globalThis.process,
    emitWarning: (w) => console.warn(String(w)),
  }));
}
// Node's process says `[object process]`: libraries pick their Node code
// paths by it (axios chooses its http adapter over fetch this way).
if (!Object.prototype.hasOwnProperty.call(globalThis.process, Symbol.toStringTag)) {
  Object.defineProperty(globalThis.process, Symbol.toStringTag, { value: "process", writable: true, enumerable: false, configurable: false });
}

// JSON. The engine's fast JSON (one argument) works on UTF-8, so a lone
// surrogate in a string came out as U+FFFD, and its parse errors name its
// internals. QuickJS's own JSON, reached with a second argument, is the
// standard one: parse always uses it (as fast, measured); stringify keeps
// the fast path and redoes the rare output holding U+FFFD.
{
  const fastStringify = JSON.stringify;
  const standardParse = JSON.parse;
  Object.defineProperty(JSON, "parse", {
    value: function parse(text, reviver) {
      return standardParse(text, reviver);
    },
    writable: true,
    configurable: true,
  });
  Object.defineProperty(JSON, "stringify", {
    value: function stringify(value, replacer, space) {
      if (arguments.length > 1) return fastStringify(value, replacer, space);
      const text = fastStringify(value);
      return typeof text === "string" && text.includes("\uFFFD") ? fastStringify(value, null) : text;
    },
    writable: true,
    configurable: true,
  });
}

// V8's CallSite API (Error.prepareStackTrace's frames). The engine's frames
// have getFileName, getLineNumber, getColumnNumber, getFunction,
// getFunctionName and isNative; depd (in express, body-parser, koa) and
// source-map-support call the rest while loading. The engine does not
// record receivers, eval origins or async frames: those answer as V8 does
// for a frame with none.
{
  const hadOwn = Object.prototype.hasOwnProperty.call(Error, "prepareStackTrace");
  const saved = Error.prepareStackTrace;
  let frame = null;
  try {
    Error.prepareStackTrace = (_, callSites) => callSites;
    const holder = {};
    Error.captureStackTrace(holder);
    if (Array.isArray(holder.stack)) frame = holder.stack[0];
  } finally {
    if (hadOwn) Error.prepareStackTrace = saved;
    else delete Error.prepareStackTrace;
  }
  const proto = frame ? Object.getPrototypeOf(frame) : null;
  const methods = {
    getThis: () => undefined,
    getTypeName: () => null,
    getMethodName: () => null,
    getEvalOrigin: () => undefined,
    getScriptHash: () => "",
    getEnclosingLineNumber: () => null,
    getEnclosingColumnNumber: () => null,
    getPosition: () => null,
    getPromiseIndex: () => null,
    isEval: () => false,
    isToplevel: () => true,
    isConstructor: () => false,
    isAsync: () => false,
    isPromiseAll: () => false,
    getScriptNameOrSourceURL() {
      return this.getFileName();
    },
    toString() {
      let location = "native";
      if (!this.isNative()) {
        location = this.getFileName() || "<anonymous>";
        const line = this.getLineNumber();
        const column = this.getColumnNumber();
        if (line !== null && line !== undefined) location += column !== null && column !== undefined ? `:${line}:${column}` : `:${line}`;
      }
      const name = this.getFunctionName();
      return name ? `${name} (${location})` : location;
    },
  };
  if (proto) {
    for (const [name, fn] of Object.entries(methods)) {
      if (!Object.prototype.hasOwnProperty.call(proto, name)) Object.defineProperty(proto, name, { value: fn, writable: true, configurable: true, enumerable: false });
    }
  }
}

// Turkish and Azeri case mapping (dotted and dotless i), which the engine's
// locale-independent mapping lacks.
{
  const upper = String.prototype.toLocaleUpperCase;
  const lower = String.prototype.toLocaleLowerCase;
  const turkic = (locales) => {
    const tag = Array.isArray(locales) ? locales[0] : locales;
    return typeof tag === "string" && /^(tr|az)(-|_|$)/i.test(tag);
  };
  const own = (self, method) => {
    if (self === null || self === undefined) throw new TypeError(`String.prototype.${method} called on null or undefined`);
    return String(self);
  };
  Object.defineProperty(String.prototype, "toLocaleUpperCase", {
    value: function toLocaleUpperCase(locales) {
      const s = own(this, "toLocaleUpperCase");
      return turkic(locales) ? upper.call(s.replace(/i/g, "\u0130")) : upper.call(s);
    },
    writable: true,
    configurable: true,
  });
  Object.defineProperty(String.prototype, "toLocaleLowerCase", {
    value: function toLocaleLowerCase(locales) {
      const s = own(this, "toLocaleLowerCase");
      return turkic(locales) ? lower.call(s.replace(/\u0130/g, "i").replace(/I\u0307/g, "i").replace(/I/g, "\u0131")) : lower.call(s);
    },
    writable: true,
    configurable: true,
  });
}

// console: the engine has log and error; Node's other methods write to the
// same two streams (the node tags every line with the Function), with
// util.format's placeholders.
function formatLogArgs(args) {
  const show = (v) => {
    if (typeof v === "string") return v;
    if (typeof v === "bigint") return `${v}n`;
    if (typeof v === "symbol" || typeof v === "function" || v === undefined) return String(v);
    if (v instanceof Error) return v.stack ? `${v.name}: ${v.message}\n${v.stack}` : `${v.name}: ${v.message}`;
    try {
      return JSON.stringify(v, (k, x) => (typeof x === "bigint" ? `${x}n` : x)) ?? String(v);
    } catch {
      return String(v);
    }
  };
  let rest = args;
  let out = "";
  if (typeof args[0] === "string" && args[0].includes("%")) {
    let i = 1;
    out = args[0].replace(/%([sdifjoOc%])/g, (m, f) => {
      if (f === "%") return "%";
      if (i >= args.length) return m;
      const v = args[i++];
      if (f === "s") return typeof v === "string" ? v : show(v);
      if (f === "d" || f === "i") return String(f === "i" ? Math.trunc(Number(v)) : Number(v));
      if (f === "f") return String(Number(v));
      if (f === "c") return "";
      return show(v);
    });
    rest = args.slice(i);
  } else if (args.length) {
    out = show(args[0]);
    rest = args.slice(1);
  }
  for (const v of rest) out += ` ${show(v)}`;
  return out;
}
{
  const write = { out: console.log.bind(console), err: console.error.bind(console) };
  let indent = "";
  const counts = new Map();
  const timers = new Map();
  const emit = (stream) => (...args) => write[stream](indent + formatLogArgs(args).split("\n").join(`\n${indent}`));
  Object.assign(console, {
    log: emit("out"),
    info: emit("out"),
    debug: emit("out"),
    dir: (v) => emit("out")(v),
    table: (v) => emit("out")(v),
    error: emit("err"),
    warn: emit("err"),
    trace: (...args) => emit("err")(`Trace: ${formatLogArgs(args)}`),
    assert: (ok, ...args) => {
      if (!ok) emit("err")(args.length ? `Assertion failed: ${formatLogArgs(args)}` : "Assertion failed");
    },
    group: (...args) => {
      if (args.length) emit("out")(...args);
      indent += "  ";
    },
    groupEnd: () => {
      indent = indent.slice(2);
    },
    count: (label = "default") => {
      counts.set(label, (counts.get(label) || 0) + 1);
      emit("out")(`${label}: ${counts.get(label)}`);
    },
    countReset: (label = "default") => counts.delete(label),
    time: (label = "default") => timers.set(label, Date.now()),
    timeLog: (label = "default", ...args) => emit("out")(`${label}: ${Date.now() - (timers.get(label) ?? Date.now())}ms`, ...args),
    timeEnd: (label = "default") => {
      emit("out")(`${label}: ${Date.now() - (timers.get(label) ?? Date.now())}ms`);
      timers.delete(label);
    },
  });
  console.groupCollapsed = console.group;
}

// Node names the zone after the offset; QuickJS stops at it. Shoal runs in
// UTC, as Kyma's pods do.
{
  const dateToString = Date.prototype.toString;
  Date.prototype.toString = function toString() {
    const text = dateToString.call(this);
    return text.endsWith("GMT+0000") ? `${text} (Coordinated Universal Time)` : text;
  };
}

// performance: the engine's clock origin is the build's (the engine is a
// snapshot), so now() counts from when this request's sandbox started,
// like Node's from process start; marks and measures as in perf_hooks.
{
  // The engine's object is read-only: a new one takes its place.
  const enginePerformance = globalThis.performance;
  const engineNow = () => enginePerformance.now();
  const origin = engineNow();
  const entries = [];
  const entry = (entryType, name, startTime, duration, detail) => {
    const e = { entryType, name, startTime, duration, detail: detail ?? null, toJSON() { return { ...this }; } };
    entries.push(e);
    return e;
  };
  globalThis.performance = {
    now: () => engineNow() - origin,
    timeOrigin: Date.now(),
    mark: (name, options) => entry("mark", String(name), options?.startTime ?? performance.now(), 0, options?.detail),
    measure: (name, start, end) => {
      const at = (m) => (typeof m === "string" ? entries.findLast((e) => e.name === m)?.startTime ?? 0 : m ?? performance.now());
      const from = typeof start === "object" && start !== null ? at(start.start) : at(start);
      const to = typeof start === "object" && start !== null ? at(start.end) : end === undefined ? performance.now() : at(end);
      return entry("measure", String(name), from, to - from);
    },
    getEntries: () => [...entries],
    getEntriesByName: (name, type) => entries.filter((e) => e.name === name && (!type || e.entryType === type)),
    getEntriesByType: (type) => entries.filter((e) => e.entryType === type),
    clearMarks: (name) => removeEntries("mark", name),
    clearMeasures: (name) => removeEntries("measure", name),
  };
  function removeEntries(type, name) {
    for (let i = entries.length - 1; i >= 0; i--) {
      if (entries[i].entryType === type && (name === undefined || entries[i].name === name)) entries.splice(i, 1);
    }
  }
}

function queueMicrotaskShim(fn) {
  Promise.resolve().then(fn);
}
if (typeof globalThis.queueMicrotask !== "function") globalThis.queueMicrotask = queueMicrotaskShim;

// process.nextTick has its own queue, as in Node: ticks queued by a
// callback (a timer, an immediate, a host call's completion, main's
// synchronous part) run before the promise callbacks it queued; ticks
// queued by a promise callback run once the microtask queue is empty. The
// event loop (pump) drains the queue at those two points; outside it (a
// module's top level during the build probe, a synchronous handler) a
// microtask drains it, which is the order Node gives there too.
const ticks = [];
let pumping = 0;
let tickDrainQueued = false;
function nextTick(fn, ...args) {
  if (typeof fn !== "function") throw new TypeError(`The "callback" argument must be of type function. Received ${fn === null ? "null" : typeof fn}`);
  ticks.push({ fn, args });
  if (pumping === 0 && !tickDrainQueued) {
    tickDrainQueued = true;
    queueMicrotaskShim(runTicks);
  }
}
function runTicks() {
  tickDrainQueued = false;
  // Ticks queued by these ticks run in this same pass.
  for (let i = 0; i < ticks.length; i++) runCallback("a process.nextTick callback", ticks[i].fn, ticks[i].args);
  ticks.length = 0;
}

// The event loop. The engine has no host timer and no sockets: timers live
// here, outbound calls are run by the node (__shoal_host), and when neither
// microtasks nor due work remain the loop waits in the host
// (`__shoal_host.wait`), which parks the sandbox until a call completes or
// the next timer is due, holding no thread. Like Node inside a request
// callback, immediates run before timers that are already due.
const timers = new Map();
const immediates = [];
let nextTimerId = 1;

// Host calls in flight: id -> callback(result). fetch and http register here.
const hostCalls = new Map();
hideGlobal("__shoal_calls", hostCalls);

class Timeout {
  constructor(id) {
    this.id = id;
  }
  ref() {
    return this;
  }
  unref() {
    return this;
  }
  hasRef() {
    return true;
  }
  refresh() {
    const t = timers.get(this.id);
    if (t) t.at = Date.now() + t.delay;
    return this;
  }
  [Symbol.toPrimitive]() {
    return this.id;
  }
}

function addTimer(fn, ms, args, repeat, weak = false) {
  if (typeof fn !== "function") throw new TypeError("The callback must be a function");
  const delay = Math.max(1, Number(ms) || 0);
  const id = nextTimerId++;
  timers.set(id, { id, fn, args, at: Date.now() + delay, delay, repeat, weak });
  return new Timeout(id);
}

/**
 * A timer of the runtime's own that keeps nothing waiting: when only such
 * timers are left, the loop is idle (a handler with nothing left to do is
 * answered at once rather than when the timer fires).
 */
function addRuntimeTimer(fn, ms) {
  return addTimer(fn, ms, [], false, true);
}
globalThis.setTimeout = (fn, ms, ...args) => addTimer(fn, ms, args, false);
globalThis.setInterval = (fn, ms, ...args) => addTimer(fn, ms, args, true);
globalThis.clearTimeout = globalThis.clearInterval = (timer) => {
  timers.delete(typeof timer === "object" && timer !== null ? timer.id : Number(timer));
};
globalThis.setImmediate = (fn, ...args) => {
  if (typeof fn !== "function") throw new TypeError("The callback must be a function");
  const immediate = { fn, args, cleared: false };
  immediates.push(immediate);
  return immediate;
};
globalThis.clearImmediate = (immediate) => {
  if (immediate) immediate.cleared = true;
};

function runCallback(what, fn, args) {
  try {
    fn(...args);
  } catch (err) {
    console.error(`Uncaught exception in ${what}:`, describeError(err));
  }
}

/**
 * Runs the loop until `isDone()` or nothing is left that could make
 * progress; with `mayWait` false it runs only what is ready now and never
 * waits in the host.
 */
async function pump(isDone, mayWait = true) {
  pumping++;
  try {
    await loop(isDone, mayWait);
  } finally {
    pumping--;
    if (ticks.length > 0 && pumping === 0 && !tickDrainQueued) {
      tickDrainQueued = true;
      queueMicrotaskShim(runTicks);
    }
  }
}

async function loop(isDone, mayWait) {
  for (;;) {
    // Here a callback has just run (or the loop just started after one):
    // its ticks come before its promise callbacks.
    if (ticks.length > 0) runTicks();
    for (;;) {
      if (__shoal_jobsPending()) {
        // Resumes after every job queued so far; those jobs may queue more.
        await null;
        if (isDone()) return;
      } else if (ticks.length > 0) {
        // The microtask queue is empty: ticks queued by promise callbacks.
        runTicks();
      } else {
        break;
      }
    }
    if (isDone()) return;
    if (immediates.length > 0) {
      for (const im of immediates.splice(0)) if (!im.cleared) runCallback("an immediate", im.fn, im.args);
      continue;
    }
    let next = null;
    let waitingFor = hostCalls.size > 0;
    for (const t of timers.values()) {
      if (!next || t.at < next.at || (t.at === next.at && t.id < next.id)) next = t;
      if (!t.weak) waitingFor = true;
    }
    if (!waitingFor) return;
    const wait = next ? Math.max(0, next.at - Date.now()) : -1;
    if (wait !== 0) {
      const id = __shoal_host.wait(mayWait ? wait : 0);
      if (id > 0) {
        const deliver = hostCalls.get(id);
        hostCalls.delete(id);
        const result = __shoal_host.take(id);
        if (deliver) runCallback("a host call's callback", deliver, [result]);
        continue;
      }
      if (!mayWait) return;
    }
    if (!next || next.at > Date.now()) continue;
    if (next.repeat) next.at = Date.now() + next.delay;
    else timers.delete(next.id);
    runCallback("a timer callback", next.fn, next.args);
  }
}

// ---------------------------------------------------------------- request
function headerObject(pairs) {
  const out = {};
  for (const [k, v] of pairs) {
    const name = k.toLowerCase();
    if (name in out) out[name] = name === "set-cookie" ? [].concat(out[name], v) : `${out[name]}, ${v}`;
    else out[name] = name === "set-cookie" ? [v] : v;
  }
  return out;
}

function describeError(err) {
  if (err instanceof Error) {
    const text = err.stack ? `${err.message}\n${err.stack}` : String(err.message);
    // fetch puts the reason in `cause`, as Node's does.
    return err.cause !== undefined ? `${text}\nCaused by: ${describeError(err.cause)}` : text;
  }
  try {
    return typeof err === "string" ? err : JSON.stringify(err);
  } catch {
    return String(err);
  }
}

function writeResponse(res) {
  const headers = res.cors ? [["Access-Control-Allow-Origin", "*"]] : [];
  for (const [name, value] of res.headers.values()) {
    if (res.cors && name.length === 27 && name.toLowerCase() === "access-control-allow-origin") headers[0] = [name, value];
    else if (Array.isArray(value)) for (const v of value) headers.push([name, v]);
    else headers.push([name, value]);
  }
  const status = Number.isInteger(res.statusCode) && res.statusCode >= 100 && res.statusCode <= 999 ? res.statusCode : 500;
  const spans = tracing.takeEndedSpans();
  const responseHead = spans ? { v: ENVELOPE_VERSION, status, headers, spans } : { v: ENVELOPE_VERSION, status, headers };
  __shoal_host.respond(JSON.stringify(responseHead), res.body);
}

// ---------------------------------------------------------------- event
const CE_FIELDS = ["type", "source", "eventtypeversion", "specversion", "id", "time", "datacontenttype"];

function randomUuid() {
  const b = new Uint8Array(__shoal_native.randomBytes(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

// The cloudevents SDK's reading of an event: time as ISO-8601 in UTC with
// milliseconds (now when absent), an id when absent.
function cloudEventAttributes(fields, data) {
  const event = {};
  for (const f of CE_FIELDS) event[`ce-${f}`] = fields[f];
  const time = fields.time === undefined ? new Date() : new Date(fields.time);
  event["ce-time"] = Number.isNaN(time.getTime()) ? fields.time : time.toISOString();
  if (event["ce-id"] === undefined) event["ce-id"] = randomUuid();
  event.data = data;
  return event;
}

/** A body as axios hands it over: parsed when it is JSON, the text otherwise. */
function axiosData(body) {
  const text = body ? decoder.decode(body) : "";
  try {
    return text ? JSON.parse(text) : text;
  } catch {
    return text;
  }
}

/** A request made by the node for the prelude itself (the publisher proxy). */
function hostRequest(method, url, headers, bytes) {
  return new Promise((resolve, reject) => {
    const withTrace = headers.concat((globalThis.__shoal_trace_headers || []).filter(([k]) => !headers.some(([h]) => h.toLowerCase() === k.toLowerCase())));
    const id = __shoal_host.httpStart(JSON.stringify({ method, url, headers: withTrace, redirect: "follow" }), bytes);
    hostCalls.set(id, (result) => {
      const answer = JSON.parse(result.head);
      if (answer.error !== undefined) reject(new Error(`posting the CloudEvent to ${url} failed: ${answer.error}`));
      else if (answer.status < 200 || answer.status > 299) reject(new Error(`Request failed with status code ${answer.status}`));
      else resolve({ status: answer.status, statusText: answer.statusText, headers: Object.fromEntries(answer.headers), data: axiosData(result.body) });
    });
  });
}

/**
 * As Kyma: a structured CloudEvent POSTed to PUBLISHER_PROXY_ADDRESS
 * (through the node's outbound client), resolved once it is accepted.
 */
function emitCloudEvent(cloudEvent) {
  const address = process.env.PUBLISHER_PROXY_ADDRESS || "http://eventing-publisher-proxy.kyma-system.svc.cluster.local/publish";
  return hostRequest("POST", address, [["content-type", "application/cloudevents+json; charset=utf-8"]], encoder.encode(JSON.stringify(cloudEvent)));
}

// What runtime/sdk.js (Kyma's `sdk` module) reads.
hideGlobal("__shoal_kyma", {
  requestResponseApi: () => requestResponseApi,
  env: (name, fallback) => {
    const value = globalThis.process.env[name];
    return value === undefined || value === "" ? fallback : value;
  },
  tracer: tracing.tracer,
  emit: emitCloudEvent,
  uuid: randomUuid,
});

function buildEvent(req, res) {
  let event = {
    extensions: { request: req, response: res },
    setResponseHeader: (name, value) => res.set(name, value),
    setResponseContentType: (t) => res.type(t),
    setResponseStatus: (code) => res.status(code),
    emitCloudEvent: (type, source, data, optionalAttributes) => {
      const attributes = Object.assign({}, optionalAttributes || {});
      if (!attributes.datacontenttype) {
        attributes.datacontenttype = typeof data === "object" ? "application/json" : typeof data === "string" ? "text/plain" : undefined;
      }
      return emitCloudEvent(
        Object.assign({ id: randomUuid(), time: new Date().toISOString(), type, source, specversion: "1.0" }, attributes, { data }),
      );
    },
    tracer: tracing.tracer,
  };
  // Kyma: an event only when there is a body (multipart excepted); a
  // structured or binary CloudEvent gives its attributes, anything else `data`.
  const type = mediaType(req.headers["content-type"]);
  if (req.body && !type.startsWith("multipart/")) {
    if (type === "application/cloudevents+json" && req.body && typeof req.body === "object") {
      event = Object.assign(event, cloudEventAttributes(req.body, req.body.data));
    } else if (req.headers["ce-type"] !== undefined && req.headers["ce-source"] !== undefined) {
      const fields = {};
      for (const f of CE_FIELDS) fields[f] = req.headers[`ce-${f}`];
      if (fields.datacontenttype === undefined) fields.datacontenttype = req.headers["content-type"];
      event = Object.assign(event, cloudEventAttributes(fields, req.body));
    } else {
      event.data = req.body;
    }
  }
  return event;
}

// ---------------------------------------------------------------- run
/**
 * Serves requests until the host retires the sandbox; `load` imports the
 * user module once. Between requests nothing runs: timers and calls a
 * request left behind carry on during the next one (as in a frozen AWS
 * Lambda environment).
 *
 * The event loop runs only while something is awaited: loading the module
 * (its top level may await timers and fetches) and a handler whose result
 * is a Promise. A handler that answers synchronously is served without it,
 * which is most of the cost of a small request.
 */
export async function run(load) {
  const main = await loadMain(load);
  if (main === null) return;
  if (head.load) {
    loaded(main);
    return;
  }
  await serveAll(main);
}

/**
 * A load-only first delivery (`head.load`: the Function's env and identity,
 * no request) asks the prelude to load the module and return, so that the
 * host can keep the sandbox's memory as the Function's snapshot: later
 * sandboxes start from it instead of evaluating the module again. The host
 * then calls `__shoal_resume` (in this sandbox and in each one restored
 * from the snapshot) to serve requests.
 *
 * Left unanswered, the load delivery means "snapshot me". It is answered
 * 204 when the state cannot be carried to another time: a timer, an
 * immediate or a host call is pending, and a restored copy would see it
 * late or not at all. The sandbox still serves, from its own memory only.
 */
function loaded(main) {
  globalThis.__shoal_resume = async () => {
    // The generator's state is in the snapshot: every copy would draw the
    // same numbers.
    reseedMathRandom();
    request = nextRequest();
    if (request === null) return;
    head = request.head;
    await serveAll(main);
  };
  if (timers.size > 0 || immediates.length > 0 || hostCalls.size > 0 || ticks.length > 0) {
    __shoal_host.respond(JSON.stringify({ v: ENVELOPE_VERSION, status: 204, headers: [] }), new Uint8Array(0));
  }
}

/**
 * Math.random as xoshiro128** seeded from the host's CSPRNG: QuickJS's own
 * generator cannot be reseeded from JavaScript. 53 random bits per double,
 * as V8 gives.
 */
function reseedMathRandom() {
  const state = new Uint32Array(__shoal_native.randomBytes(16));
  if ((state[0] | state[1] | state[2] | state[3]) === 0) state[0] = 1;
  let [a, b, c, d] = state;
  const rotl = (x, k) => (x << k) | (x >>> (32 - k));
  const next = () => {
    const result = Math.imul(rotl(Math.imul(b, 5), 7), 9) >>> 0;
    const t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl(d, 11);
    return result;
  };
  const random = function random() {
    return ((next() >>> 5) * 67108864 + (next() >>> 6)) / 9007199254740992;
  };
  Object.defineProperty(Math, "random", { value: random, writable: true, configurable: true, enumerable: false });
}

/** Serves `request`, then every request after it, until the host retires the sandbox. */
async function serveAll(main) {
  for (;;) {
    const pending = serve(main);
    if (pending) await untilSettled(pending.settled, pending.abandon);
    request = nextRequest();
    if (request === null) return;
    head = request.head;
    // Node runs its loop while idle; a sandbox is frozen between requests.
    // What became ready meanwhile (a pooled connection the server closed,
    // a timer now due) runs before the handler sees the new request, as it
    // would have in Node, so a pool never hands out a connection Node has
    // already dropped.
    if (hostCalls.size > 0 || timers.size > 0 || immediates.length > 0) await pump(() => false, false);
  }
}

/**
 * Runs the event loop until `promise` settles, or until nothing is left
 * that could settle it, when `onIdle` is called and the loop stops.
 */
async function untilSettled(promise, onIdle) {
  let settled = false;
  const done = promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await Promise.race([done, pump(() => settled)]);
  if (!settled) onIdle();
}

/**
 * The handler's `main`, loading the module with the event loop running.
 * When the module does not load or exports no main, the current request is
 * answered (500, or the build probe's verdict) and the result is null: the
 * sandbox is not kept, so the next request gets a fresh one and tries again.
 */
async function loadMain(load) {
  let mod;
  let error;
  let loaded = false;
  const loading = load().then(
    (m) => {
      mod = m;
      loaded = true;
    },
    (err) => {
      error = err;
    },
  );
  await untilSettled(loading, () => {
    error = new Error("the module's top-level code awaits something that never settles");
  });
  if (!loaded) {
    console.error("The Function's code failed to load:", describeError(error));
    if (head.probe) {
      if (missingEnv.size > 0) {
        probeAnswer(
          true,
          `not checked: the code reads ${[...missingEnv].sort().join(", ")} from process.env while loading, which the build does not have (${error && error.message ? error.message : error})`,
        );
      } else {
        probeAnswer(false, `the Function's code throws while loading: ${describeError(error)}`);
      }
      return null;
    }
    writeResponse(new Response().status(500).end("User function not loaded"));
    return null;
  }
  const main = mod && (typeof mod.main === "function" ? mod.main : mod.default && mod.default.main);
  if (head.probe) {
    if (typeof main === "function") probeAnswer(true, "main is a function");
    else probeAnswer(false, `the Function does not export a main function (main is ${main === null ? "null" : typeof main})`);
    return null;
  }
  if (typeof main !== "function") {
    console.error("Content loaded is not a function. Make sure your function exports 'main' function");
    writeResponse(new Response().status(500).end("User function not loaded"));
    return null;
  }
  return main;
}

/**
 * Serves the current request with `main`. Answers at once when main
 * returns (or throws) synchronously; otherwise returns what the caller
 * must wait for: `settled` (main's promise, or the handler ending the
 * response, whichever comes first) and `abandon`, for when nothing is
 * left that could settle it.
 */
function serve(main) {
  // AsyncLocalStorage (when loaded) forgets the previous request's store.
  if (globalThis.__shoal_requestStarts) globalThis.__shoal_requestStarts();
  let req;
  let res;
  try {
    const headers = headerObject(head.headers);
    req = new Request(head, headers, parseBody(headers["content-type"], request.body, declaresBody(headers)));
    res = new Response(req);
    req.res = res;
  } catch (err) {
    if (!(err instanceof BadRequest)) throw err;
    const refused = new Response();
    if (requestResponseApi) {
      // As body-parser's error reaches Express's final handler.
      const parseError = new SyntaxError(err.reason);
      parseError.status = 400;
      refused.cors = false;
      refused.sendErrorPage(parseError);
    } else {
      refused.status(400).set("Content-Type", "text/plain; charset=utf-8").end(err.message);
    }
    writeResponse(refused);
    return null;
  }
  // Outbound calls carry the incoming trace context (W3C and B3) unless the
  // Function sets its own.
  incomingTraceHeaders = traceHeaders(head.headers);
  tracing.beginRequest(head.trace, head.headers);
  return requestResponseApi ? serveRequestResponse(main, req, res) : serveEvent(main, req, res);
}

// How much before the node's deadline the runtime answers 408 itself.
const RUNTIME_TIMEOUT_MARGIN_MS = 50;

// The nodejs26 runtime's own routes, ahead of the Function's (Express
// matches them case-insensitively, with or without a trailing slash; GET
// routes take HEAD too).
const HEALTH_ROUTE = /^\/healthz\/?$/i;
const FAVICON_ROUTE = /^\/favicon\.ico\/?$/i;

/** Answers the runtime's own routes; whether it did. */
function servedByRuntime(req, res) {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  if (HEALTH_ROUTE.test(req.path)) {
    res.cors = false;
    res.status(200).send("OK");
  } else if (FAVICON_ROUTE.test(req.path)) {
    res.cors = false;
    res.headers.clear();
    res.status(204).end();
  } else {
    return false;
  }
  writeResponse(res);
  return true;
}

/**
 * nodejs26: `main(req, res)`; its value is ignored and `res` answers. A
 * throw or a rejection answers 500 unless the response has ended, with
 * the error when it is a string and "Internal server error" otherwise. A
 * handler that finishes and leaves nothing running that could still
 * answer gets 408, what Kyma's runtime answers once FUNC_TIMEOUT passes.
 */
function serveRequestResponse(main, req, res) {
  // What Express has set before the route runs, and what Kyma's route sets.
  res.etags = true;
  res.setHeader("X-Powered-By", "Express");
  if (servedByRuntime(req, res)) return null;
  // Kyma's route sets it; the Function may change or remove it.
  res.header("Access-Control-Allow-Origin", "*");
  res.cors = false;
  const fail = (err) => {
    console.error(describeError(err));
    if (res.writableEnded) return;
    const text = typeof err === "string" ? err : "Internal server error";
    try {
      res.status(500).send(text);
    } catch {
      // Headers went out with res.write: what was written ends the answer.
      res.end();
    }
  };
  let result;
  try {
    result = main(req, res);
  } catch (err) {
    fail(err);
  }
  const respond = responderFor(res);
  if (res.writableEnded) {
    respond();
    return null;
  }
  // Kyma's res.setTimeout: 408 at FUNC_TIMEOUT with what the Function has
  // set so far, a little before the node's own deadline ends the sandbox.
  const timeoutMs = Math.max(1, (Number(head.function && head.function.timeout) || 180) * 1000 - RUNTIME_TIMEOUT_MARGIN_MS);
  const timeout = addRuntimeTimer(() => {
    if (res.writableEnded) return;
    if (res.headersSent) res.end();
    else res.sendStatus(408);
  }, timeoutMs);
  const ended = new Promise((resolve) => (res.onEnded = resolve)).then(() => globalThis.clearTimeout(timeout));
  const isPromise = result !== null && (typeof result === "object" || typeof result === "function") && typeof result.then === "function";
  if (isPromise) Promise.resolve(result).catch(fail);
  return {
    settled: ended.then(respond),
    abandon: () => {
      if (!res.writableEnded) {
        console.error("The Function finished without answering: call res.send, res.json or res.end");
        if (res.headersSent) res.end();
        else res.sendStatus(408);
      }
      respond();
    },
  };
}

/** A function handing `res` back to the host once, however often it is called. */
function responderFor(res) {
  let responded = false;
  return () => {
    if (responded) return;
    responded = true;
    writeResponse(res);
  };
}

/** The legacy runtimes: `main(event, context, sendResponse)` and Kyma's mapping of its result. */
function serveEvent(main, req, res) {
  const event = buildEvent(req, res);
  const fn = head.function || {};
  const context = {
    "function-name": fn.name,
    runtime: fn.runtime,
    namespace: fn.namespace,
    timeout: fn.timeout,
    "body-size-limit": fn.bodySizeLimit,
  };
  const sendResponse = (body, status, headers) => {
    if (res.writableEnded) return;
    if (headers) for (const name of Object.keys(headers)) res.set(name, headers[name]);
    if (body) {
      if (status) res.status(status);
      switch (typeof body) {
        case "object":
          if (body instanceof Uint8Array || body instanceof ArrayBuffer) res.end(body);
          else res.json(body);
          break;
        case "string":
          res.end(body);
          break;
        default:
          // What Node's res.end does with a number, boolean or BigInt: the
          // throw makes it Kyma's 500 "Internal server error".
          throw new TypeError(`The "chunk" argument must be of type string or an instance of Buffer or Uint8Array. Received type ${typeof body}`);
      }
    } else if (status) {
      res.sendStatus(status);
    } else {
      res.end();
    }
  };
  const fail = (err) => {
    console.error("The Function failed:", describeError(err));
    if (res.writableEnded) return;
    res.statusCode = 500;
    if (typeof err === "string") res.end(err);
    else res.end("Internal server error");
  };
  const answer = (value) => {
    try {
      sendResponse(value);
    } catch (err) {
      fail(err);
    }
  };

  let result;
  try {
    result = main(event, context, sendResponse);
  } catch (err) {
    fail(err);
    writeResponse(res);
    return null;
  }
  if (result === null || (typeof result !== "object" && typeof result !== "function") || typeof result.then !== "function") {
    answer(result);
    writeResponse(res);
    return null;
  }
  // The response goes when main settles, or as soon as the handler ended
  // it through sendResponse (work it left running is then abandoned), or
  // when nothing is left that could settle main.
  const respond = responderFor(res);
  if (res.writableEnded) {
    respond();
    return null;
  }
  const ended = new Promise((resolve) => (res.onEnded = resolve));
  const settled = Promise.race([
    Promise.resolve(result).then(answer, fail),
    ended,
  ]).then(respond);
  return {
    settled,
    abandon: () => {
      fail(new Error("main returned a Promise that never settled"));
      respond();
    },
  };
}

const TRACE_HEADER = /^(traceparent|tracestate|b3|x-b3-[a-z]+|x-request-id)$/i;
function traceHeaders(headers) {
  let found = null;
  for (const pair of headers) {
    if (TRACE_HEADER.test(pair[0])) (found || (found = [])).push(pair);
  }
  return found || [];
}

function probeAnswer(ok, message) {
  const res = new Response();
  res.status(ok ? 200 : 422).set("Content-Type", "text/plain; charset=utf-8").end(message);
  writeResponse(res);
}
