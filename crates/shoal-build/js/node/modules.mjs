// Where Shoal's module for each Node.js built-in is: the one mapping both
// the bundler (../bundle.mjs) and the module tests (test/bundle-plugin.mjs)
// use. Every built-in of Node 22 has a file (test/builtin-shapes.json lists
// them), so no Function fails to build for requiring one. `x`, `node:x` and
// `x/` (how npm polyfills such as readable-stream name built-ins) all
// resolve to node/<file>.js.
import { builtinModules, createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const nodeDir = path.dirname(fileURLToPath(import.meta.url));

const FILES = {
  assert: "assert.js",
  "assert/strict": "assert-strict.js",
  async_hooks: "async_hooks.js",
  buffer: "buffer.js",
  child_process: "child_process.js",
  cluster: "cluster.js",
  console: "console.js",
  constants: "constants.js",
  crypto: "crypto.js",
  dgram: "dgram.js",
  diagnostics_channel: "diagnostics_channel.js",
  dns: "dns.js",
  "dns/promises": "dns-promises.js",
  domain: "domain.js",
  events: "events.js",
  fs: "fs.js",
  "fs/promises": "fs-promises.js",
  http: "http.js",
  http2: "http2.js",
  https: "https.js",
  inspector: "inspector.js",
  "inspector/promises": "inspector-promises.js",
  module: "module.js",
  net: "net.js",
  os: "os.js",
  path: "path.js",
  "path/posix": "path.js",
  "path/win32": "path-win32.js",
  perf_hooks: "perf_hooks.js",
  process: "process.js",
  punycode: "punycode.js",
  querystring: "querystring.js",
  readline: "readline.js",
  "readline/promises": "readline-promises.js",
  repl: "repl.js",
  sea: "sea.js",
  sqlite: "sqlite.js",
  stream: "stream.js",
  "stream/consumers": "stream-consumers.js",
  "stream/promises": "stream-promises.js",
  "stream/web": "internal/stream-web.js",
  string_decoder: "string_decoder.js",
  sys: "util.js",
  test: "test.js",
  "test/reporters": "test-reporters.js",
  timers: "timers.js",
  "timers/promises": "timers-promises.js",
  tls: "tls.js",
  trace_events: "trace_events.js",
  tty: "tty.js",
  url: "url.js",
  util: "util.js",
  "util/types": "util-types.js",
  v8: "v8.js",
  vm: "vm.js",
  wasi: "wasi.js",
  worker_threads: "worker_threads.js",
  zlib: "zlib.js",
  // The names Node keeps for its own files from before node:stream and
  // node:http were split up; old packages still require them.
  _http_agent: "legacy/_http_agent.js",
  _http_client: "legacy/_http_client.js",
  _http_common: "legacy/_http_common.js",
  _http_incoming: "legacy/_http_incoming.js",
  _http_outgoing: "legacy/_http_outgoing.js",
  _http_server: "legacy/_http_server.js",
  _stream_duplex: "legacy/_stream_duplex.js",
  _stream_passthrough: "legacy/_stream_passthrough.js",
  _stream_readable: "legacy/_stream_readable.js",
  _stream_transform: "legacy/_stream_transform.js",
  _stream_wrap: "legacy/_stream_wrap.js",
  _stream_writable: "legacy/_stream_writable.js",
  _tls_common: "legacy/_tls_common.js",
  _tls_wrap: "legacy/_tls_wrap.js",
};

const hostRequire = createRequire(import.meta.url);

// Built-ins Node loads only by their `node:` name: `require('test')` is
// the npm package of that name, `require('node:test')` Node's runner.
const SCHEME_ONLY = new Set(hostRequire("./internal/builtin-names.js").schemeOnly);

// Built-ins of the node running the build beyond Node 22's (a newer Node
// adds some): they resolve as built-ins too, to a module that loads and
// throws when used. Only bare names count: a newer Node lists its
// `node:`-only modules with the prefix.
const hostBuiltins = new Set(builtinModules.filter((name) => !name.startsWith("node:")));

/** The bare name of a specifier: `node:fs/promises` and `fs/promises/` give `fs/promises`. */
export function bareName(specifier) {
  return specifier.replace(/^node:/, "").replace(/\/$/, "");
}

/** Whether Node resolves a specifier to a built-in module (not an npm package). */
export function isBuiltin(specifier) {
  if (specifier.startsWith("node:")) return true;
  const bare = bareName(specifier);
  if (SCHEME_ONLY.has(bare)) return false;
  return Object.hasOwn(FILES, bare) || hostBuiltins.has(bare);
}

/** Shoal's file for a built-in module, or null when Shoal has none. */
export function moduleFile(specifier) {
  const bare = bareName(specifier);
  return Object.hasOwn(FILES, bare) ? path.join(nodeDir, FILES[bare]) : null;
}

/** Every built-in name Shoal has a file for, as a Function would require it. */
export function knownBuiltins() {
  return Object.keys(FILES).map((name) => (SCHEME_ONLY.has(name) ? `node:${name}` : name));
}

// A built-in Shoal does not know (a newer Node's) resolves into this
// namespace: the module loads, and what it exports throws when used
// (internal/unknown-builtin.js). Its exports are the build host's Node's,
// when that Node has the module.
export const UNKNOWN_BUILTIN_NAMESPACE = "shoal-unknown-builtin";

/** The source of the stand-in for the built-in `name` Shoal does not have. */
export function unknownBuiltinSource(name) {
  let shape = {};
  try {
    const real = hostRequire(`node:${name}`);
    for (const key of Object.getOwnPropertyNames(real)) {
      if (typeof real === "function" && ["length", "name", "prototype", "arguments", "caller"].includes(key)) continue;
      const value = real[key];
      shape[key] = value === null || ["string", "number", "boolean"].includes(typeof value) ? { value } : { type: typeof value };
    }
  } catch {
    shape = null;
  }
  const helper = path.join(nodeDir, "internal/unknown-builtin.js");
  return `module.exports = require(${JSON.stringify(helper)}).unknownBuiltin(${JSON.stringify(name)}, ${JSON.stringify(shape)});\n`;
}

/** The build's warning for a Function that requires an unknown built-in. */
export function unknownBuiltinWarning(name, importer) {
  return `the Node.js built-in module "${name}" is not available in Shoal: it loads, and using it throws ERR_METHOD_NOT_IMPLEMENTED (required by ${importer})`;
}

// node:module's createRequire() gives a require() for built-ins at run time
// (internal/../module.js), which needs the built-ins it can return in the
// bundle: this virtual module maps each name to its exports. The bundler
// fills it with the built-ins the Function's bundle has, and those its code
// names in a require('...') call that esbuild leaves alone (a require made
// by createRequire).
export const BUNDLED_BUILTINS = "shoal:bundled-builtins";
export const BUNDLED_BUILTINS_NAMESPACE = "shoal-bundled-builtins";

/** The built-in names (bare) whose module is `file`. */
export function builtinNamesOfFile(file) {
  return Object.keys(FILES).filter((name) => path.join(nodeDir, FILES[name]) === file);
}

/**
 * Built-in names in `require('x')` calls of a source text (bare, known),
 * and in `__require('x')`, the require of code bundled by esbuild before.
 */
export function requiredBuiltinNames(text) {
  const names = new Set();
  for (const m of text.matchAll(/(?<![\w$])(?:__)?require\s*\(\s*(["'])([^"'\n]+)\1\s*\)/g)) {
    if (isBuiltin(m[2]) && moduleFile(m[2])) names.add(bareName(m[2]));
  }
  return names;
}

/** The source of shoal:bundled-builtins holding `names` (lazily, as require would). */
export function bundledBuiltinsSource(names) {
  const entries = [...names].sort().map((name) => `  get ${JSON.stringify(name)}() { return require(${JSON.stringify(moduleFile(name))}); },`);
  return `module.exports = {\n${entries.join("\n")}\n};\n`;
}
