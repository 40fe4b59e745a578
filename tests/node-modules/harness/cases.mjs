// What a test file (*.test.mjs) registers its cases with, and what the
// cases see. A case is a snippet of code (a function body) using M.<module>
// and G.<global> that returns a JSON-able value or a Promise of one; the
// runner (../run.mjs) runs it once against Node's real built-ins (M and G
// below) and once against Shoal's (bundled into a realm shaped like Shoal's
// engine: v8-context.mjs, or quickjs-engine.mjs with --engine=quickjs),
// and the two results must be equal.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { repoRoot } from './shoal-js.mjs';

export { repoRoot };
const require = createRequire(import.meta.url);

// Node's modules (M in the Node half of a case), by the names the cases
// use: a built-in's own name (M['fs/promises'], as in v8-context.mjs).
export const nodeModules = {};
for (const name of [
  'assert', 'assert/strict', 'async_hooks', 'buffer', 'crypto', 'events', 'fs', 'fs/promises', 'os', 'path', 'perf_hooks',
  'process', 'querystring', 'stream', 'stream/promises', 'string_decoder', 'timers', 'timers/promises', 'url', 'util',
  'util/types', 'zlib', 'diagnostics_channel', 'stream/consumers', 'stream/web', 'readline', 'readline/promises', 'module',
  'constants', 'dns', 'dns/promises', 'v8', 'vm', 'worker_threads', 'domain', 'console', 'http2', 'trace_events', 'cluster',
  'child_process', 'tty', 'repl', 'inspector', 'net', 'http', 'tls',
]) nodeModules[name] = require(`node:${name}`);

// Node's globals (G in the Node half of a case).
export const nodeGlobals = {};
for (const name of ['URL', 'URLSearchParams', 'Buffer', 'atob', 'btoa', 'structuredClone', 'EventTarget', 'Event',
  'CustomEvent', 'AbortController', 'AbortSignal', 'DOMException', 'Blob', 'File', 'FormData', 'TextEncoder',
  'TextDecoder', 'Intl', 'crypto', 'CryptoKey', 'SubtleCrypto',
  // Node 20 has these as globals; the realm gets them from globals.js.
  'ReadableStream', 'ReadableStreamDefaultReader', 'ReadableStreamBYOBReader', 'ReadableStreamBYOBRequest',
  'ReadableByteStreamController', 'ReadableStreamDefaultController', 'TransformStream', 'TransformStreamDefaultController',
  'WritableStream', 'WritableStreamDefaultWriter', 'WritableStreamDefaultController', 'ByteLengthQueuingStrategy',
  'CountQueuingStrategy', 'TextEncoderStream', 'TextDecoderStream', 'CompressionStream', 'DecompressionStream',
  'MessageChannel', 'MessagePort', 'MessageEvent', 'BroadcastChannel', 'Response']) nodeGlobals[name] = globalThis[name];
nodeGlobals.File = nodeGlobals.File || require('node:buffer').File;

/** The cases registered so far, in order: { name, code, file, expected?, post? }. */
export const cases = [];
const afterHooks = [];
let currentFile = null;

/** The runner: the file whose cases are being registered. */
export function registering(file) {
  currentFile = file;
}

/** The runner: what the test files asked to run when all cases are done. */
export async function runAfterHooks() {
  for (const fn of afterHooks.splice(0)) await fn();
}

/** diff(name, code): Shoal's result must be Node's. */
export function diff(name, code) {
  cases.push({ name, code, file: currentFile });
}

/**
 * check(name, code, expected): for behaviour Node cannot be asked about
 * (EROFS, unavailable APIs, another Node line's answer) or that is random.
 */
export function check(name, code, expected) {
  cases.push({ name, code, expected, file: currentFile });
}

/**
 * post(name, code, fn): a diff whose two results are first each passed
 * through fn in Node (to verify with Node a signature the realm made).
 */
export function post(name, code, fn) {
  cases.push({ name, code, post: fn, file: currentFile });
}

/** after(fn): runs fn (clean-up) once every case has run. */
export function after(fn) {
  afterHooks.push(fn);
}

/**
 * A call a Function cannot make throws Node's ERR_METHOD_NOT_IMPLEMENTED
 * (or the code Node itself gives), naming the call.
 */
export function refusal(module, call, code, message) {
  check(`${module}: ${call} throws`, `try { ${call}; return 'no error'; } catch (e) { return [e.name, e.code, e.message]; }`,
    [code === 'ERR_ILLEGAL_CONSTRUCTOR' ? 'TypeError' : 'Error', code, message]);
}

// The web stream, compression and messaging cases are the body of an async
// function, starting with helpers: read a stream whole, an error's shape.
const WS = `
  const collect = async (rs) => { const out = []; for await (const c of rs) out.push(c); return out; };
  const bytesOf = (chunks) => chunks.flatMap((c) => Array.from(c));
  const err = (e) => [e && e.name, e && e.code, e instanceof TypeError];
  const from = (...chunks) => new G.ReadableStream({ start(c) { for (const x of chunks) c.enqueue(x); c.close(); } });
`;
export const webDiff = (name, code) => diff(name, `return (async () => {${WS}${code}\n})();`);

/**
 * What `code` (a function body using M.<module>) returns under the
 * official Node `major` (.ci/node/<major>, installed by .ci/setup): for
 * behaviour that changed since the Node running these tests.
 */
export function underNode(major, modules, code) {
  const node = path.join(repoRoot, '.ci/node', String(major), 'bin/node');
  const program = `const M = {${modules.map((m) => `${JSON.stringify(m)}: require(${JSON.stringify(`node:${m}`)})`).join(', ')}};
    process.stdout.write(JSON.stringify((() => { ${code} })()));`;
  return JSON.parse(execFileSync(node, ['-e', program], { encoding: 'utf8', env: { PATH: process.env.PATH } }));
}
