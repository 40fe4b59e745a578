#!/usr/bin/env node
'use strict';
// Runs every case under real Node.js and prints what each request answered.
//
//   node run-all.js [--filter SUBSTRING] [--full] [--check-determinism]
//
// A case passes when run-case.js exits 0 (it ran without a harness error and every
// request got its "expectStatus"). With --check-determinism each case runs twice and
// the two runs must also agree under the case's compare modes (see compare.js).
// Long lines are cut to 400 characters unless --full. The last line is the summary
// `N passed, N failed`.

const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { compareLines } = require('./compare');

const CASES_DIR = path.join(__dirname, '..', 'cases');

function parseArgs(argv) {
  const opts = { filter: null, full: false, determinism: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--filter') opts.filter = argv[++i];
    else if (argv[i] === '--full') opts.full = true;
    else if (argv[i] === '--check-determinism') opts.determinism = true;
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return opts;
}

function runCase(caseDir) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(__dirname, 'run-case.js'), caseDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
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
  for (const name of cases) {
    const dir = path.join(CASES_DIR, name);
    const t0 = Date.now();
    const first = await runCase(dir);
    let problem = first.code === 0 ? null : `exit code ${first.code}`;
    if (!problem && opts.determinism) {
      const second = await runCase(dir);
      const spec = JSON.parse(fs.readFileSync(path.join(dir, 'requests.json'), 'utf8'));
      const a = first.stdout.trim().split('\n');
      const b = second.stdout.trim().split('\n');
      if (second.code !== 0) problem = `second run: exit code ${second.code}`;
      else if (a.length !== b.length) problem = `runs printed ${a.length} and ${b.length} lines`;
      else {
        for (let i = 0; i < a.length && !problem; i++) {
          const mode = spec.requests[i].compare || spec.compare || 'exact';
          const diff = compareLines(JSON.parse(a[i]), JSON.parse(b[i]), mode);
          if (diff) problem = `request ${i} differs between two runs (${mode}): ${diff}`;
        }
      }
    }
    const ms = Date.now() - t0;
    process.stdout.write(`=== ${name} ${problem ? 'FAIL' : 'ok'} (${ms} ms)\n`);
    for (const line of first.stdout.split('\n').filter(Boolean)) process.stdout.write(`${cut(line, opts.full)}\n`);
    if (problem) {
      process.stdout.write(`--- ${problem}\n${first.stderr}\n`);
      failed.push(name);
    } else {
      passed += 1;
    }
  }
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (failed.length) process.stdout.write(`failed cases: ${failed.join(', ')}\n`);
  process.stdout.write(`total time ${secs} s\n`);
  process.stdout.write(`${passed} passed, ${failed.length} failed\n`);
  process.exitCode = failed.length ? 1 : 0;
}

main().catch((err) => {
  process.stderr.write(`${err.stack || err}\n`);
  process.exit(1);
});
