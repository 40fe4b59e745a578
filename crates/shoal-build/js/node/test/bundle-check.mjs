// Checks that every module in js/node bundles with esbuild for
// platform "neutral" (as Shoal's bundler builds Functions) without pulling a
// real Node.js built-in or leaving anything unresolved, and that the
// injected globals file stays tree-shakable (a Function using only atob
// does not carry Intl, URL or Buffer). Run: node test/bundle-check.mjs
import { build } from 'esbuild';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { shoalNodePlugin, nodeDir } from './bundle-plugin.mjs';

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
      stdin: { contents, resolveDir: nodeDir, sourcefile: `${what}.mjs` },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'neutral',
      target: 'es2023',
      mainFields: ['module', 'main'],
      conditions: ['import', 'require', 'default'],
      logLevel: 'silent',
      plugins: [shoalNodePlugin(leaks)],
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

// Every module file, by each name a Function may use for it.
const modules = readdirSync(nodeDir).filter((f) => f.endsWith('.js') && f !== 'globals.js' && f !== 'intl.js').map((f) => f.slice(0, -3));
const aliases = {
  'stream-promises': ['stream/promises'], 'timers-promises': ['timers/promises'], 'fs-promises': ['fs/promises'],
  'util-types': ['util/types'], 'assert-strict': ['assert/strict'], path: ['path/posix'],
};
for (const name of modules) {
  const specifiers = [...(aliases[name] || [name]), ...(aliases[name] || [name]).map((s) => `node:${s}`)];
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

// A built-in without an implementation must be refused, not bundled.
for (const spec of ['node:child_process', 'worker_threads', 'cluster', 'node:dgram']) {
  const leaks = [];
  try {
    await build({
      stdin: { contents: `require(${JSON.stringify(spec)})`, resolveDir: nodeDir },
      bundle: true, write: false, platform: 'neutral', logLevel: 'silent', plugins: [shoalNodePlugin(leaks)],
    });
    fail(`refuse ${spec}`, 'bundled without error');
  } catch {
    passed++;
  }
}

// globals.js through esbuild's inject: each global alone carries only itself.
const globalsFile = path.join(nodeDir, 'globals.js');
const markers = { Intl: 'intl-data', URL: 'URLSearchParams', Buffer: 'base64-js', structuredClone: 'structured-clone' };
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

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
