// Where Shoal's module for each Node.js built-in is: the one mapping both
// the bundler (../bundle.mjs) and the module tests
// (tests/node-modules/harness/bundle-plugin.mjs) use. Every built-in of
// Node 22 has a file, so no Function fails to build for requiring one.
// `x`, `node:x` and `x/` (how npm polyfills such as readable-stream name
// built-ins) all resolve to node/x.js, a subpath module `x/y` to
// node/x/y.js (fs/promises.js, dns/promises.js...), the names Node keeps
// from before node:stream and node:http were split up (`_stream_*`,
// `_http_*`, `_tls_*`) to node/legacy/; FILE_EXCEPTIONS lists the rest.
import { builtinModules, createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const nodeDir = path.dirname(fileURLToPath(import.meta.url));

const hostRequire = createRequire(import.meta.url);

// Node 22's built-in names (internal/builtin-names.js, written by
// tests/node-modules/gen-builtin-data.mjs). `schemeOnly` are those Node
// loads only by their `node:` name: `require('test')` is the npm package
// of that name, `require('node:test')` Node's runner.
const builtinNames = hostRequire("./internal/builtin-names.js");
const BUILTINS = new Set([...builtinNames.builtinModules, ...builtinNames.schemeOnly]);
const SCHEME_ONLY = new Set(builtinNames.schemeOnly);

// The built-ins whose file is not named after them.
const FILE_EXCEPTIONS = {
  // path is path.posix.
  "path/posix": "path.js",
  // Also where the web stream globals come from.
  "stream/web": "internal/stream-web.js",
  // Node's old name for util.
  sys: "util.js",
};

/** The file of built-in `bare` (a name of BUILTINS), relative to nodeDir. */
function fileOf(bare) {
  if (Object.hasOwn(FILE_EXCEPTIONS, bare)) return FILE_EXCEPTIONS[bare];
  if (bare.startsWith("_")) return `legacy/${bare}.js`;
  return `${bare}.js`;
}

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
  return BUILTINS.has(bare) || hostBuiltins.has(bare);
}

/** Shoal's file for a built-in module, or null when Shoal has none. */
export function moduleFile(specifier) {
  const bare = bareName(specifier);
  return BUILTINS.has(bare) ? path.join(nodeDir, fileOf(bare)) : null;
}

/** Every built-in name Shoal has a file for, as a Function would require it. */
export function knownBuiltins() {
  return [...BUILTINS].map((name) => (SCHEME_ONLY.has(name) ? `node:${name}` : name));
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
  return [...BUILTINS].filter((name) => path.join(nodeDir, fileOf(name)) === file);
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
