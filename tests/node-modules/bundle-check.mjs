// Checks that every Node.js built-in bundles with esbuild for platform
// "neutral" (as Shoal's bundler builds Functions) without pulling a real
// Node.js built-in or leaving anything unresolved, that one Shoal does not
// know bundles with a warning, and that the injected globals file stays
// tree-shakable (a Function using only atob does not carry Intl, URL or
// Buffer). Run: node tests/node-modules/bundle-check.mjs
import path from 'node:path';
import vm from 'node:vm';
import { shoalBuildOptions, shoalNodePlugin, nodeDir } from './harness/bundle-plugin.mjs';
import { jsRequire } from './harness/shoal-js.mjs';
import { knownBuiltins } from '../../crates/shoal-build/js/node/modules.mjs';
import { ESBUILD_GLOB, withNodeHelpers } from '../../crates/shoal-build/js/bundler/runtime-helpers.mjs';

const { build } = jsRequire('esbuild');

let passed = 0;
let failed = 0;
const fail = (what, why) => {
  failed++;
  console.log(`FAIL ${what}: ${why}`);
};

async function bundle(what, contents, extra = {}) {
  const leaks = [];
  try {
    const result = await build({
      ...shoalBuildOptions(leaks),
      stdin: { contents, resolveDir: nodeDir, sourcefile: `${what}.mjs` },
      format: 'esm',
      ...extra,
    });
    if (leaks.length) {
      fail(what, `Node built-ins leaked: ${leaks.join(', ')}`);
      return null;
    }
    if (result.warnings.length) {
      fail(what, result.warnings.map((w) => w.text).join('; '));
      return null;
    }
    return result.outputFiles[0].text;
  } catch (err) {
    fail(what, (err.errors || [{ text: err.message }]).map((e) => e.text).join('; '));
    return null;
  }
}

// Every built-in of Node 22, by each name a Function may use for it: the
// bare name (not for the node:-only ones) and node:name.
for (const name of knownBuiltins()) {
  const bare = name.replace(/^node:/, '');
  const specifiers = name.startsWith('node:') ? [name] : [bare, `node:${bare}`];
  for (const spec of specifiers) {
    // Both module systems: CommonJS require and ES import of a CommonJS module.
    const cjs = await bundle(`require("${spec}")`, `const m = require(${JSON.stringify(spec)}); export default m;`);
    const esm = await bundle(`import "${spec}"`, `import * as m from ${JSON.stringify(spec)}; export default m;`);
    if (cjs !== null && esm !== null) passed++;
  }
}

// Trailing-slash form used by readable-stream ('string_decoder/', 'process/').
for (const spec of ['string_decoder/', 'process/', 'buffer/', 'events/']) {
  if (await bundle(`require("${spec}")`, `export default require(${JSON.stringify(spec)});`)) passed++;
}

// A path under a built-in's name that is not a built-in is an npm package's
// file, as in Node ('process/browser' is the process package's).
{
  const out = await bundle('require("process/browser")', 'export default require("process/browser");');
  if (out !== null && out.includes('process.binding is not supported')) passed++;
  else if (out !== null) fail('require("process/browser")', 'did not bundle the npm package\'s file');
}

// A built-in Shoal does not know (a newer Node's) bundles, with a warning
// naming it; using it throws ERR_METHOD_NOT_IMPLEMENTED.
for (const spec of ['node:shoal-future-module', 'node:test/not-yet']) {
  try {
    const result = await build({
      stdin: { contents: `const m = require(${JSON.stringify(spec)}); try { m.anything(); } catch (e) { globalThis.result = [e.code, e.message]; }`, resolveDir: nodeDir },
      bundle: true, write: false, format: 'iife', platform: 'neutral', logLevel: 'silent', plugins: [shoalNodePlugin()],
    });
    const name = spec.slice(5);
    const warned = result.warnings.length === 1 && result.warnings[0].text.includes(`built-in module "${name}" is not available in Shoal`);
    const context = { globalThis: {} };
    context.globalThis = context;
    vm.runInNewContext(result.outputFiles[0].text, context);
    const [code, message] = context.result || [];
    if (!warned) fail(`unknown ${spec}`, `warnings: ${JSON.stringify(result.warnings.map((w) => w.text))}`);
    else if (code !== 'ERR_METHOD_NOT_IMPLEMENTED' || !message.includes(`${name}.anything()`)) fail(`unknown ${spec}`, `use gave ${code}: ${message}`);
    else passed++;
  } catch (err) {
    fail(`unknown ${spec}`, `the build failed: ${err.message}`);
  }
}

// globals.js through esbuild's inject: each global alone carries only itself.
const globalsFile = path.join(nodeDir, 'globals.js');
const markers = { Intl: '__shoal_intl', URL: 'URLSearchParams', Buffer: 'base64-js', structuredClone: 'structured-clone' };
for (const [use, code] of Object.entries({
  atob: 'export const r = atob("aGk=");',
  URL: 'export const r = new URL("https://a.b/").href;',
  Buffer: 'export const r = Buffer.from("x").toString("hex");',
  Intl: 'export const r = new Intl.NumberFormat("de").format(1);',
  structuredClone: 'export const r = structuredClone({ a: 1 });',
  AbortController: 'export const r = new AbortController().signal.aborted;',
  global: 'export const r = typeof global.setTimeout;',
  crypto: 'export const r = crypto.randomUUID();',
})) {
  const out = await bundle(`inject ${use}`, code, { inject: [globalsFile] });
  if (out === null) continue;
  // node:crypto returns Buffers, so the crypto global brings Buffer along.
  const allowed = use === 'crypto' ? ['Buffer'] : [use];
  const carried = Object.entries(markers).filter(([name, marker]) => !allowed.includes(name) && out.includes(marker)).map(([name]) => name);
  if (carried.length) fail(`inject ${use}`, `also carries ${carried.join(', ')} (${out.length} bytes)`);
  else passed++;
}

// A Function that uses none of the globals gets none of their code (only
// esbuild's few hundred bytes of module wrapper for the injected file).
const plain = await bundle('inject nothing', 'export const r = 1 + 1;', { inject: [globalsFile] });
if (plain !== null) {
  if (plain.length > 1000 || Object.values(markers).some((m) => plain.includes(m))) fail('inject nothing', `${plain.length} bytes added`);
  else passed++;
}

// The bundler replaces esbuild's __glob helper by one that finds a module
// as Node does (bundler/runtime-helpers.mjs): esbuild must still write it
// as that file says, and the replacement must serve `./lib/a` from
// `./lib/a.js`.
{
  const out = await bundle('glob require', 'export const load = (name) => require(`./internal/${name}`);');
  if (out !== null) {
    if (!out.includes(ESBUILD_GLOB)) fail('glob require', "esbuild's __glob helper is not the one bundler/runtime-helpers.mjs replaces");
    else {
      const context = { result: null };
      vm.runInNewContext(`${withNodeHelpers(out).replace(/^export \{[^}]*\};?\s*$/m, '')}\nresult = [typeof load('errors').nodeError, (() => { try { load('nope'); } catch (e) { return e.code; } })()];`, context);
      if (JSON.stringify(context.result) !== '["function","MODULE_NOT_FOUND"]') fail('glob require', JSON.stringify(context.result));
      else passed++;
    }
  }
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
