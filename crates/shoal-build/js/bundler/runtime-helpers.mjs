// esbuild's runtime helpers, where Node behaves otherwise. `__glob` serves
// a require() of a template literal (`require(\`./lib/${name}\`)`) from the
// files the pattern matches; esbuild's own looks the request up as written,
// so `./lib/env` misses `./lib/env.js`, which Node finds by adding ".js".
// The replacement tries Node's extensions and index files, and fails with
// Node's MODULE_NOT_FOUND. tests/node-modules/bundle-check.mjs checks that
// esbuild still writes the helper this way.
export const ESBUILD_GLOB = `var __glob = (map) => (path) => {
  var fn = map[path];
  if (fn) return fn();
  throw new Error("Module not found in bundle: " + path);
};`;

const NODE_GLOB = `var __glob = (map) => (path) => {
  var fn = map[path] || map[path + ".js"] || map[path + ".json"] || map[path + "/index.js"] || map[path + "/index.json"];
  if (fn) return fn();
  var error = new Error("Cannot find module '" + path + "'");
  error.code = "MODULE_NOT_FOUND";
  throw error;
};`;

/** The bundle with esbuild's helpers made Node's. */
export function withNodeHelpers(text) {
  return text.includes(ESBUILD_GLOB) ? text.replace(ESBUILD_GLOB, NODE_GLOB) : text;
}
