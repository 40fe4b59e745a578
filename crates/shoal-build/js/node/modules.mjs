// Which Node.js built-in modules Shoal implements, and where: the one
// mapping both the bundler (../bundle.mjs) and the module tests
// (test/bundle-plugin.mjs) use. `x`, `node:x` and `x/` (how npm polyfills
// such as readable-stream name built-ins) all resolve to node/<file>.js.
import { builtinModules } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const nodeDir = path.dirname(fileURLToPath(import.meta.url));

const FILES = {
  assert: "assert.js",
  "assert/strict": "assert-strict.js",
  async_hooks: "async_hooks.js",
  buffer: "buffer.js",
  crypto: "crypto.js",
  dns: "dns.js",
  events: "events.js",
  fs: "fs.js",
  http: "http.js",
  http2: "http2.js",
  https: "https.js",
  net: "net.js",
  "fs/promises": "fs-promises.js",
  os: "os.js",
  path: "path.js",
  "path/posix": "path.js",
  perf_hooks: "perf_hooks.js",
  process: "process.js",
  punycode: "punycode.js",
  querystring: "querystring.js",
  stream: "stream.js",
  "stream/promises": "stream-promises.js",
  "stream/web": "internal/stream-web.js",
  string_decoder: "string_decoder.js",
  timers: "timers.js",
  tls: "tls.js",
  tty: "tty.js",
  "timers/promises": "timers-promises.js",
  url: "url.js",
  util: "util.js",
  "util/types": "util-types.js",
  zlib: "zlib.js",
};

const builtins = new Set(builtinModules);

/** The bare name of a specifier: `node:fs/promises` and `fs/promises/` give `fs/promises`. */
export function bareName(specifier) {
  return specifier.replace(/^node:/, "").replace(/\/$/, "");
}

/** Whether a specifier names a Node.js built-in module. */
export function isBuiltin(specifier) {
  const bare = bareName(specifier);
  return specifier.startsWith("node:") || builtins.has(bare) || builtins.has(bare.split("/")[0]);
}

/** Shoal's file for a built-in module, or null when Shoal has none. */
export function moduleFile(specifier) {
  const file = FILES[bareName(specifier)];
  return file ? path.join(nodeDir, file) : null;
}
