#!/usr/bin/env node
'use strict';
// Runs every case under real Node.js and prints what each request answered.
//
//   node run-all.js [--filter SUBSTRING] [--full] [--check-determinism] [--shoal SHOAL_BINARY [--fresh]]
//
// A case passes when run-case.js exits 0 (it ran without a harness error and every
// request got its "expectStatus"). With --check-determinism each case runs twice and
// the two runs must also agree under the case's compare modes (see compare.js).
// Long lines are cut to 400 characters unless --full. The last line is the summary
// `N passed, N failed`.
//
// With --shoal, each case also runs under Shoal (run-case.js --shoal) and passes when every
// request's answer agrees with Node's under the case's compare modes. Cases listed in
// ../known-differences.json (case -> why, or case -> {requests: {index: why}}) are expected to
// differ: they are reported, not failed, and one that starts agreeing fails until it is taken
// off the list.
//
// With --shoal and --fresh, Shoal serves every request in a fresh sandbox
// (SHOAL_FRESH_SANDBOX_PER_REQUEST), started from the Function's snapshot, and the
// reference is not Node but Shoal evaluating every fresh sandbox anew (snapshots off,
// SHOAL_SNAPSHOT_BUDGET_MB=0): a sandbox started from a snapshot must answer exactly as a
// freshly evaluated one, in every case, including those whose module state Node keeps
// across requests. Known differences with Node do not apply.

const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { compareLines } = require('./compare');

const CASES_DIR = path.join(__dirname, '..', 'cases');

function parseArgs(argv) {
  const opts = { filter: null, full: false, determinism: false, shoal: null, fresh: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--filter') opts.filter = argv[++i];
    else if (argv[i] === '--shoal') opts.shoal = argv[++i];
    else if (argv[i] === '--full') opts.full = true;
    else if (argv[i] === '--check-determinism') opts.determinism = true;
    else if (argv[i] === '--fresh') opts.fresh = true;
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (opts.fresh && !opts.shoal) throw new Error('--fresh needs --shoal');
  return opts;
}

function runCase(caseDir, extra = [], env = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(__dirname, 'run-case.js'), caseDir, ...extra], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    const out = [];
    const err = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

/** Why two runs' answers disagree, or null. */
function disagreement(spec, a, b, skip = {}) {
  const la = a.stdout.trim().split('\n').filter(Boolean);
  const lb = b.stdout.trim().split('\n').filter(Boolean);
  if (la.length !== lb.length) return `answered ${la.length} and ${lb.length} requests`;
  for (let i = 0; i < la.length; i++) {
    if (skip[i] !== undefined) continue;
    const mode = spec.requests[i].compare || spec.compare || 'exact';
    const diff = compareLines(JSON.parse(la[i]), JSON.parse(lb[i]), mode);
    if (diff) return `request ${i} (${mode}): ${diff}`;
  }
  return null;
}

function cut(line, full) {
  return full || line.length <= 400 ? line : `${line.slice(0, 400)}… (${line.length} chars)`;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const cases = fs
    .readdirSync(CASES_DIR)
    .filter((d) => fs.existsSync(path.join(CASES_DIR, d, 'requests.json')))
    .filter((d) => !opts.filter || d.includes(opts.filter))
    .sort();
  const started = Date.now();
  let passed = 0;
  const failed = [];
  const known = opts.shoal && !opts.fresh ? JSON.parse(fs.readFileSync(path.join(CASES_DIR, '..', 'known-differences.json'), 'utf8')) : {};
  const stillDiffer = [];
  for (const name of cases) {
    const dir = path.join(CASES_DIR, name);
    const t0 = Date.now();
    const spec = JSON.parse(fs.readFileSync(path.join(dir, 'requests.json'), 'utf8'));
    // Installing is done once, before the two runs start side by side: two npm installs
    // writing one node_modules at once leave it half-written for both.
    const install = await runCase(dir, ['--install-only']);
    if (install.code !== 0) {
      process.stdout.write(`=== ${name} FAIL (${Date.now() - t0} ms)\n--- ${install.stderr.trim()}\n`);
      failed.push(name);
      continue;
    }
    const fresh = { SHOAL_FRESH_SANDBOX_PER_REQUEST: 'true' };
    // With --fresh the two runs are both Shoal, one after the other: side by side they
    // would share a case's services under one identity (the same database application
    // name, whose connections one run's request terminates under the other).
    const [first, shoal] = opts.fresh
      ? [
          await runCase(dir, ['--shoal', opts.shoal], { ...fresh, SHOAL_SNAPSHOT_BUDGET_MB: '0' }),
          await runCase(dir, ['--shoal', opts.shoal], fresh),
        ]
      : await Promise.all([runCase(dir), opts.shoal ? runCase(dir, ['--shoal', opts.shoal]) : null]);
    let problem = first.code === 0 ? null : `exit code ${first.code}`;
    // With --fresh both sides are Shoal: refusing to build the Function (the same build
    // errors, "✗" lines) is agreeing.
    const refusals = (run) => run.stderr.split('\n').filter((l) => l.startsWith('✗')).join('\n');
    if (problem && opts.fresh && shoal.code !== 0 && refusals(first) && refusals(first) === refusals(shoal)) {
      passed += 1;
      process.stdout.write(`=== ${name} ok, refused alike (${Date.now() - t0} ms): ${refusals(first)}\n`);
      continue;
    }
    if (!problem && shoal) {
      // A known difference is a whole case (a string) or some of its requests
      // ({"requests": {"3": "why"}}), which are then left out of the comparison.
      const skipped = typeof known[name] === 'object' ? known[name].requests : {};
      const diff = shoal.code !== 0 ? `Shoal: ${shoal.stderr.trim().split('\n').slice(-3).join(' | ')}` : disagreement(spec, first, shoal, skipped);
      if (diff && typeof known[name] === 'string') {
        stillDiffer.push(name);
        process.stdout.write(`=== ${name} known difference (${known[name]}): ${cut(diff, opts.full)}\n`);
        continue;
      }
      if (diff) problem = opts.fresh ? `from the snapshot, Shoal differs from Shoal evaluating anew: ${diff}` : `Shoal differs from Node: ${diff}`;
      else if (typeof known[name] === 'string') problem = 'Shoal now agrees with Node: take it off known-differences.json';
      else if (typeof known[name] === 'object') {
        const agreeing = Object.keys(skipped).filter((i) => !disagreement(spec, first, shoal, Object.fromEntries(Object.keys(skipped).filter((j) => j !== i).map((j) => [j, 1]))));
        if (agreeing.length) problem = `Shoal now agrees with Node on request(s) ${agreeing.join(', ')}: take them off known-differences.json`;
      }
    }
    if (!problem && opts.determinism) {
      const second = await runCase(dir);
      if (second.code !== 0) problem = `second run: exit code ${second.code}`;
      else {
        const diff = disagreement(spec, first, second);
        if (diff) problem = `two runs differ: ${diff}`;
      }
    }
    const ms = Date.now() - t0;
    process.stdout.write(`=== ${name} ${problem ? 'FAIL' : 'ok'} (${ms} ms)\n`);
    for (const line of first.stdout.split('\n').filter(Boolean)) process.stdout.write(`${cut(line, opts.full)}\n`);
    if (problem) {
      process.stdout.write(`--- ${cut(problem, opts.full)}\n${first.stderr}\n`);
      if (shoal) process.stdout.write(`--- Shoal answered:\n${shoal.stdout.split('\n').map((l) => cut(l, opts.full)).join('\n')}${shoal.stderr.slice(-2000)}\n`);
      failed.push(name);
    } else {
      passed += 1;
    }
  }
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (failed.length) process.stdout.write(`failed cases: ${failed.join(', ')}\n`);
  if (stillDiffer.length) process.stdout.write(`${stillDiffer.length} known differences: ${stillDiffer.join(', ')}\n`);
  process.stdout.write(`total time ${secs} s\n`);
  process.stdout.write(`${passed} passed, ${failed.length} failed\n`);
  process.exitCode = failed.length ? 1 : 0;
}

main().catch((err) => {
  process.stderr.write(`${err.stack || err}\n`);
  process.exit(1);
});
