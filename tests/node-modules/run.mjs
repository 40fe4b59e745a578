// Differential tests of Shoal's Node.js modules (crates/shoal-build/js/node):
// every case is a snippet of code run twice, once against Node's real
// built-ins and once against Shoal's modules (bundled with esbuild and
// loaded into a realm that looks like Shoal's engine), and the two results
// must be equal. The cases are in one file per module, <module>.test.mjs
// (harness/cases.mjs says how a file registers them).
//
//   node tests/node-modules/run.mjs                    every file, in a V8 context shaped like QuickJS
//   node tests/node-modules/run.mjs --engine=quickjs   the same in QuickJS-NG (WebAssembly)
//   node tests/node-modules/run.mjs crypto zlib        only crypto.test.mjs and zlib.test.mjs
//   node tests/node-modules/run.mjs --grep='^URL '     only the cases whose name matches
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

process.env.TZ = 'UTC';
const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name) => {
  const arg = args.find((a) => a.startsWith(`--${name}=`));
  return arg === undefined ? undefined : arg.slice(name.length + 3);
};
const engine = option('engine') || 'v8';
const grep = option('grep') === undefined ? null : new RegExp(option('grep'));
const unknownOption = args.find((a) => a.startsWith('--') && !/^--(engine|grep)=/.test(a));
if (unknownOption || !['v8', 'quickjs'].includes(engine)) {
  console.error("usage: node tests/node-modules/run.mjs [--engine=v8|quickjs] [--grep=REGEX] [MODULE...]");
  process.exit(2);
}

// The test files: all of them, or those named (`crypto` or `crypto.test.mjs`).
const allFiles = fs.readdirSync(here).filter((f) => f.endsWith('.test.mjs')).sort();
const named = args.filter((a) => !a.startsWith('--')).map((a) => (a.endsWith('.test.mjs') ? a : `${a}.test.mjs`));
const unknownFiles = named.filter((f) => !allFiles.includes(f));
if (unknownFiles.length) {
  console.error(`no such test file: ${unknownFiles.join(', ')} (there are ${allFiles.map((f) => f.replace(/\.test\.mjs$/, '')).join(', ')})`);
  process.exit(2);
}
const files = named.length ? allFiles.filter((f) => named.includes(f)) : allFiles;

const { cases, nodeModules, nodeGlobals, registering, runAfterHooks } = await import('./harness/cases.mjs');

// Shoal's side: QuickJS-NG, or a V8 context.
let runShoal;
let stopShoal;
if (engine === 'quickjs') {
  const { loadQuickJS } = await import('./harness/quickjs-engine.mjs');
  const q = await loadQuickJS();
  runShoal = (code) => q.runCase(code);
  stopShoal = () => q.stop();
} else {
  const { loadSandbox } = await import('./harness/v8-context.mjs');
  const sb = await loadSandbox();
  const shoalRun = sb.run('(function (M, G, code) { return new Function("M", "G", code)(M, G); })');
  runShoal = (code) => outcome(() => shoalRun(sb.modules, sb.globals, code));
  stopShoal = () => sb.stopTimers();
}

// The result of running `code` (a function body) in one realm, as JSON text.
async function outcome(runner) {
  try {
    let v = runner();
    if (v && typeof v.then === 'function') v = await v;
    return JSON.stringify(v === undefined ? '<undefined>' : v);
  } catch (err) {
    return JSON.stringify({ threw: err && err.name, code: err && err.code, message: err && err.message });
  }
}

for (const file of files) {
  registering(file);
  await import(pathToFileURL(path.join(here, file)).href);
}
registering(null);

let passed = 0;
let failed = 0;
const failures = [];
// Node's AbortSignal.timeout() timers do not keep the process alive.
const keepAlive = setInterval(() => {}, 1000);
for (const c of cases) {
  if (grep && !grep.test(c.name)) continue;
  if (process.env.TRACE) console.log('case', c.file, c.name);
  let ours = await runShoal(c.code);
  let theirs = 'expected' in c ? JSON.stringify(c.expected) : await outcome(() => new Function('M', 'G', c.code)(nodeModules, nodeGlobals));
  if (c.post) [ours, theirs] = await Promise.all([ours, theirs].map(async (r) => JSON.stringify(await c.post(JSON.parse(r)))));
  if (ours === theirs) passed++;
  else {
    failed++;
    failures.push(c.name);
    console.log(`FAIL ${c.name} (${c.file})\n  shoal: ${ours}\n  node:  ${theirs}`);
  }
}
clearInterval(keepAlive);
stopShoal();
await runAfterHooks();
if (failures.length) console.log(`\nfailed: ${failures.join(' | ')}`);
console.log(`files: ${files.length}`);
console.log(`engine: ${engine}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
