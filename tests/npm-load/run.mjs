#!/usr/bin/env node
// The npm load test: every package of packages.json loaded by a generated Function under
// real Node and under Shoal, their export shapes and smoke calls compared.
//
//   node tests/npm-load/run.mjs --shoal target/debug/shoal            the whole set
//   node tests/npm-load/run.mjs --shoal BIN --ci                      the CI subset (ci.json)
//   options: --subset N (the N best-ranked), --filter REGEX (package names), --jobs N
//            (Node runs and installs at once, default 4), --node-only, --logs,
//            --report (rewrite RESULTS.md from results.json, running nothing)
//
// The whole set writes tests/npm-load/results.json and RESULTS.md; a subset writes
// target/npm-load/results-subset.json. --ci exits 1 when the pass rate is below ci.json's
// minPassRate or a package fails under Node (the subset is chosen to pass there).
// Installs and generated Functions live under target/npm-load/run/; Shoal's npm installs
// in $SHOAL_CACHE_DIR (default target/shoal-test-cache).

import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { TEST_DIR, REPO_ROOT, WORK_DIR, REFERENCE_NODE, PACKAGES_JSON } from './lib/paths.mjs';
import { writeFunction } from './lib/functions.mjs';
import { startShoal, callFunction, prepareUpDir } from './lib/shoal.mjs';
import { classify } from './lib/compare.mjs';
import { writeReport } from './lib/report.mjs';
import smokes from './smoke.mjs';

const NODE_RUN_TIMEOUT_MS = 60 * 1000;
const RUN_DIR = path.join(WORK_DIR, 'run');

function parseArgs(argv) {
  const opts = { shoal: null, ci: false, subset: null, filter: null, jobs: 4, nodeOnly: false, logs: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--shoal') opts.shoal = path.resolve(argv[++i]);
    else if (a === '--ci') opts.ci = true;
    else if (a === '--subset') opts.subset = Number(argv[++i]);
    else if (a === '--filter') opts.filter = new RegExp(argv[++i]);
    else if (a === '--jobs') opts.jobs = Math.max(1, Number(argv[++i]));
    else if (a === '--node-only') opts.nodeOnly = true;
    else if (a === '--logs') opts.logs = true;
    else if (a === '--report') opts.reportOnly = true;
    else throw new Error(`unknown argument ${a}`);
  }
  if (!opts.shoal && !opts.nodeOnly && !opts.reportOnly) throw new Error('--shoal BIN is required (or --node-only)');
  return opts;
}

function spawnCollect(cmd, args, { cwd, env, timeoutMs }) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = timeoutMs && setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, timedOut });
    });
  });
}

async function mapLimit(items, limit, fn) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

/** npm install in a Node Function folder with Shoal's flags, once per package.json content. */
async function installForNode(folder) {
  const manifest = fs.readFileSync(path.join(folder, 'package.json'), 'utf8');
  const hash = createHash('sha256').update(manifest).digest('hex');
  const stamp = path.join(folder, 'node_modules', '.npm-load-stamp');
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === hash) return null;
  const r = await spawnCollect('npm', ['install', '--ignore-scripts', '--omit=dev', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error'], {
    cwd: folder,
    env: process.env,
    timeoutMs: 10 * 60 * 1000,
  });
  if (r.status !== 0) return `npm install failed: ${r.stderr.trim().split('\n').slice(0, 5).join(' ')}`;
  fs.writeFileSync(stamp, hash);
  return null;
}

/** One package under real Node: { status: 'ok', body } or { status, error }. */
async function runUnderNode(pkg) {
  const folder = writeFunction(path.join(RUN_DIR, 'node'), pkg, smokes[pkg.name]);
  const installError = await installForNode(folder);
  if (installError) return { status: 'install-error', error: installError };
  // A clean environment, as the Function's pod has: TZ=UTC, as shoal up's default; no
  // NODE_ENV, which neither Kyma nor Shoal sets.
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, TZ: 'UTC', FUNC_NAME: pkg.function, FUNC_RUNTIME: 'nodejs24', SERVICE_NAMESPACE: 'default' };
  const r = await spawnCollect(REFERENCE_NODE, [path.join(TEST_DIR, 'lib', 'node-runner.mjs'), folder], { cwd: folder, env, timeoutMs: NODE_RUN_TIMEOUT_MS });
  if (r.timedOut) return { status: 'error', error: `no answer in ${NODE_RUN_TIMEOUT_MS / 1000} s` };
  const line = r.stdout.trim().split('\n').pop();
  try {
    return JSON.parse(line);
  } catch {
    return { status: 'error', error: `runner printed no result (exit ${r.status}): ${r.stderr.slice(0, 500)}` };
  }
}

/** Every package under Shoal, in one `shoal up`: name → { status, body | http, text }. */
async function runUnderShoal(opts, packages) {
  // The CI subset has its own folder, so a cargo test and a manual run do not clear each other's.
  const upDir = path.join(RUN_DIR, opts.ci ? 'shoal-ci' : 'shoal');
  prepareUpDir(upDir, new Set(packages.map((p) => p.function)));
  for (const pkg of packages) writeFunction(upDir, pkg, smokes[pkg.name]);
  const env = { ...process.env, SHOAL_CACHE_DIR: process.env.SHOAL_CACHE_DIR || path.join(REPO_ROOT, 'target', 'shoal-test-cache') };
  const started = Date.now();
  const shoal = await startShoal(opts.shoal, upDir, {
    env,
    log: opts.logs ? (line) => console.error(`[shoal] ${line}`) : () => {},
    onProgress: (done) => process.stderr.write(`\rshoal up: ${done}/${packages.length} built`),
  });
  process.stderr.write(`\nshoal up: serving after ${Math.round((Date.now() - started) / 1000)} s, ${shoal.failures.size} build failures\n`);
  try {
    const answers = await mapLimit(packages, opts.jobs, async (pkg) => {
      if (shoal.failures.has(pkg.function)) return { status: 'build-failure', text: shoal.failures.get(pkg.function) };
      if (!shoal.built.has(pkg.function)) return { status: 'build-failure', text: 'shoal up reported neither a build nor a failure' };
      const answer = await callFunction(shoal.port, pkg.function);
      // Logged before the answer is sent.
      if (answer.status !== 'ok' && shoal.loadErrors.has(pkg.function)) answer.text = `${answer.text} (${shoal.loadErrors.get(pkg.function)})`;
      return answer;
    });
    return new Map(packages.map((p, i) => [p.name, answers[i]]));
  } finally {
    shoal.child.kill('SIGTERM');
  }
}

function choosePackages(opts, all) {
  if (opts.ci) {
    const ci = JSON.parse(fs.readFileSync(path.join(TEST_DIR, 'ci.json'), 'utf8'));
    const byName = new Map(all.map((p) => [p.name, p]));
    const missing = ci.packages.filter((n) => !byName.has(n));
    if (missing.length) throw new Error(`ci.json names packages not in packages.json: ${missing.join(', ')}`);
    return { packages: ci.packages.map((n) => byName.get(n)), minPassRate: ci.minPassRate };
  }
  let packages = all;
  if (opts.filter) packages = packages.filter((p) => opts.filter.test(p.name));
  if (opts.subset) packages = packages.slice(0, opts.subset);
  return { packages, minPassRate: null };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(REFERENCE_NODE)) throw new Error(`${REFERENCE_NODE} is missing: run .ci/setup`);
  const list = JSON.parse(fs.readFileSync(PACKAGES_JSON, 'utf8'));
  if (opts.reportOnly) {
    // RESULTS.md again from results.json (after a change to the report or the causes).
    const previous = JSON.parse(fs.readFileSync(path.join(TEST_DIR, 'results.json'), 'utf8'));
    console.log(writeReport(previous.results, { whole: true, list, mode: 'whole' }).text);
    return;
  }
  const unknownSmokes = Object.keys(smokes).filter((n) => !list.packages.some((p) => p.name === n));
  if (unknownSmokes.length) console.error(`(smoke.mjs has ${unknownSmokes.length} calls for packages outside this list, unused)`);
  const { packages, minPassRate } = choosePackages(opts, list.packages);
  const whole = !opts.ci && !opts.subset && !opts.filter && !opts.nodeOnly;
  console.error(`npm load test: ${packages.length} packages (${packages.filter((p) => smokes[p.name]).length} with smoke calls)`);

  // Shoal builds while Node runs: the builds are the long part.
  const shoalRun = opts.nodeOnly ? Promise.resolve(null) : runUnderShoal(opts, packages);
  let nodeDone = 0;
  const nodeResults = await mapLimit(packages, opts.jobs, async (pkg) => {
    const r = await runUnderNode(pkg);
    nodeDone++;
    if (opts.nodeOnly) process.stderr.write(`\rnode: ${nodeDone}/${packages.length}`);
    return r;
  });
  console.error(`\nnode: ${packages.length} packages run`);
  const shoalResults = await shoalRun;

  const results = packages.map((pkg, i) => {
    const node = nodeResults[i];
    const base = { name: pkg.name, version: pkg.version, function: pkg.function, esmOnly: pkg.esmOnly, smoke: Boolean(smokes[pkg.name]) };
    if (!shoalResults) return { ...base, status: node.status === 'ok' && !node.body.loadError ? 'node-ok' : 'fail-under-node', node };
    return { ...base, ...classify(pkg, Boolean(smokes[pkg.name]), node, shoalResults.get(pkg.name)) };
  });
  const mode = opts.nodeOnly ? 'node-only' : opts.ci ? 'ci' : whole ? 'whole' : 'subset';
  const summary = writeReport(results, { whole, list, mode });
  console.log(summary.text);
  if (opts.ci) {
    const underNode = results.filter((r) => r.status === 'fail-under-node');
    if (underNode.length) {
      console.log(`CI subset packages failing under Node (the harness or the network is broken): ${underNode.map((r) => r.name).join(', ')}`);
      process.exit(1);
    }
    if (!(summary.rate >= minPassRate)) {
      console.log(`pass rate ${summary.rate} is below ci.json's minPassRate ${minPassRate}`);
      process.exit(1);
    }
  }
}

main().catch((e) => {
  console.error(e.stack || e.message);
  process.exit(1);
});

