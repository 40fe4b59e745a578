#!/usr/bin/env node
// Chooses the packages of the npm load test and writes packages.json.
//
//   node tests/npm-load/select.mjs [--count 330] [--as-of 2026-11-25T00:00:00Z] [--jobs 4]
//
// Ranking: npm-high-impact (pinned below), whose `npmTopDependents` is npm's own list of
// the packages most other packages depend on, most dependents first. The search and
// download APIs are not reachable from here; this dataset is built from them and is
// published on npm, so the ranking is npm's, not ours. Its `npmTopDownloads` rank is
// recorded beside each entry as more evidence.
//
// Walking that list in order, a package is taken when it is pure JavaScript with a
// loadable entry:
//   - not `@types/*` (type declarations only);
//   - its version (the newest stable one published on or before --as-of, so a re-run
//     with the same inputs picks the same versions) has no native build or platform
//     binary (lib/native.mjs), judged from its registry manifest and then from every
//     package.json in its installed tree (`npm install --ignore-scripts --omit=dev`);
//   - `require` or `import` of its name resolves to a JavaScript file (a CLI-only
//     package, or one shipping only CSS/JSON/types, has none).
// Every package passed over is listed under "excluded" with the reason.
//
// Installs and registry documents are cached under target/npm-load/select/.

import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { WORK_DIR, PACKAGES_JSON, REFERENCE_NODE } from './lib/paths.mjs';
import { nativeReason } from './lib/native.mjs';
import { inspectEntry } from './lib/entry.mjs';
import { uniqueLabels, labelFor } from './lib/names.mjs';

const DATASET = { name: 'npm-high-impact', version: '1.13.0' };
const DEFAULTS = { count: 330, asOf: '2026-11-25T00:00:00Z', jobs: 4 };
const REGISTRY = 'https://registry.npmjs.org/';
const SELECT_DIR = path.join(WORK_DIR, 'select');

function parseArgs(argv) {
  const opts = { ...DEFAULTS };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--count') opts.count = Number(argv[++i]);
    else if (a === '--as-of') opts.asOf = new Date(argv[++i]).toISOString();
    else if (a === '--jobs') opts.jobs = Number(argv[++i]);
    else throw new Error(`unknown argument ${a}`);
  }
  return opts;
}

function run(cmd, args, cwd) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The pinned ranking dataset, installed once. */
async function loadDataset() {
  const dir = path.join(SELECT_DIR, 'dataset');
  const pkgDir = path.join(dir, 'node_modules', DATASET.name);
  const installed = fs.existsSync(path.join(pkgDir, 'package.json')) && JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version;
  if (installed !== DATASET.version) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ private: true }));
    const r = await run('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', `${DATASET.name}@${DATASET.version}`], dir);
    if (r.status !== 0) throw new Error(`installing ${DATASET.name}: ${r.stderr}`);
  }
  const mod = await import(pathToFileURL(path.join(pkgDir, 'index.js')).href);
  return { topDependents: mod.npmTopDependents, topDownloads: mod.npmTopDownloads };
}

/** A package's registry document (all versions), cached on disk. */
async function packument(name) {
  const file = path.join(SELECT_DIR, 'registry', `${name.replace('/', '%2f')}.json`);
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8'));
  let lastError;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const res = await fetch(REGISTRY + name.replace('/', '%2f'));
      if (res.status === 404) return null;
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const doc = await res.json();
      // Only what selection reads: the rest (readmes, every version's full manifest
      // but the chosen one's) is large.
      const kept = { name: doc.name, 'dist-tags': doc['dist-tags'], time: doc.time, versions: doc.versions };
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(kept));
      return kept;
    } catch (e) {
      lastError = e;
    }
  }
  throw new Error(`fetching ${name}: ${lastError.message}`);
}

function compareVersions(a, b) {
  const parse = (v) => v.split(/[-+]/)[0].split('.').map(Number);
  const [x, y] = [parse(a), parse(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

/** The version that was latest at `asOf`: the dist-tag if published by then, else the newest stable one. */
function versionAsOf(doc, asOf) {
  const publishedBy = (v) => doc.time && doc.time[v] && doc.time[v] <= asOf;
  const latest = doc['dist-tags'] && doc['dist-tags'].latest;
  if (latest && publishedBy(latest) && doc.versions[latest]) return latest;
  const stable = Object.keys(doc.versions).filter((v) => /^\d+\.\d+\.\d+$/.test(v) && publishedBy(v));
  stable.sort(compareVersions);
  return stable.at(-1) || null;
}

/** Every package.json under a node_modules tree (nested and scoped ones included). */
function installedManifests(modulesDir) {
  const out = [];
  const visit = (dir) => {
    if (!fs.existsSync(dir)) return;
    for (const ent of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!ent.isDirectory() || ent.name === '.bin' || ent.name.startsWith('.')) continue;
      const sub = path.join(dir, ent.name);
      if (ent.name.startsWith('@')) {
        visit(sub);
        continue;
      }
      const pkg = path.join(sub, 'package.json');
      if (fs.existsSync(pkg)) {
        try {
          out.push(JSON.parse(fs.readFileSync(pkg, 'utf8')));
        } catch {
          // A package.json npm could install but not parse would fail elsewhere too.
        }
      }
      visit(path.join(sub, 'node_modules'));
    }
  };
  visit(modulesDir);
  return out;
}

function isElfExecutable(file) {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(4);
    fs.readSync(fd, head, 0, 4, 0);
    return head.toString('hex') === '7f454c46';
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A `.node` addon or binding.gyp anywhere in the tree (which a manifest may not declare),
 * or, in the package's own files (`ownDir`), a Linux executable: a package that ships
 * one (flow-bin) exists for it. An executable deep in a dependency (a clipboard helper)
 * is incidental and left to the run to show.
 */
function nativeFile(dir, ownDir) {
  for (const ent of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, ent.name);
    if (ent.isDirectory()) {
      if (ent.name === '.bin') continue;
      const found = nativeFile(p, ownDir);
      if (found) return found;
    } else if (ent.name.endsWith('.node') || ent.name === 'binding.gyp') {
      return p;
    } else if (ent.isFile() && !path.extname(ent.name) && p.startsWith(ownDir + path.sep) && isElfExecutable(p)) {
      return p;
    }
  }
  return null;
}

/** Installs name@version alone and judges its tree and entry. */
async function installAndInspect(name, version) {
  const dir = path.join(SELECT_DIR, 'installs', labelFor(name));
  const stamp = path.join(dir, '.installed');
  const want = `${name}@${version}`;
  if (!fs.existsSync(stamp) || fs.readFileSync(stamp, 'utf8') !== want) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ private: true, dependencies: { [name]: version } }));
    const r = await run('npm', ['install', '--ignore-scripts', '--omit=dev', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error'], dir);
    if (r.status !== 0) return { excluded: `npm install failed: ${r.stderr.trim().split('\n').slice(0, 3).join(' ')}` };
    fs.writeFileSync(stamp, want);
  }
  const modules = path.join(dir, 'node_modules');
  const manifests = installedManifests(modules);
  for (const m of manifests) {
    const reason = nativeReason(m);
    if (reason) return { excluded: m.name === name ? reason : `installs ${m.name}: ${reason}` };
  }
  const file = nativeFile(modules, path.join(modules, name));
  if (file) return { excluded: `ships native code: ${path.relative(modules, file)}` };
  const entry = inspectEntry(dir, name);
  if (entry.builtin) return { excluded: `its name is a Node built-in: require('${name}') gives the built-in, never this package` };
  if (!entry.require && !entry.import) {
    const own = manifests.find((m) => m.name === name) || {};
    return { excluded: own.bin ? 'CLI only (no require/import entry)' : 'no JavaScript entry' };
  }
  for (const e of [entry.require, entry.import]) {
    if (e && !['cjs', 'esm', 'json'].includes(e.format)) return { excluded: `entry is ${e.format}: ${e.file}` };
  }
  return { entry, installedPackages: manifests.length };
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

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(REFERENCE_NODE)) throw new Error(`${REFERENCE_NODE} is missing: run .ci/setup`);
  const { topDependents, topDownloads } = await loadDataset();
  const downloadRank = new Map(topDownloads.map((n, i) => [n, i + 1]));
  const selected = [];
  const excluded = [];
  // Judged a window at a time, in rank order, until enough are taken: the result does
  // not depend on --jobs.
  let rank = 0;
  while (selected.length < opts.count && rank < topDependents.length) {
    const window = topDependents.slice(rank, rank + opts.jobs * 4).map((name, i) => ({ name, rank: rank + i + 1 }));
    rank += window.length;
    const verdicts = await mapLimit(window, opts.jobs, async ({ name }) => {
      if (name.startsWith('@types/')) return { excluded: 'type declarations only (@types)' };
      const doc = await packument(name);
      if (!doc) return { excluded: 'not in the registry' };
      const version = versionAsOf(doc, opts.asOf);
      if (!version) return { excluded: `no stable version published by ${opts.asOf}` };
      const manifest = doc.versions[version];
      const reason = nativeReason(manifest);
      if (reason) return { version, excluded: reason };
      // Deprecated packages stay: Functions still depend on them (request, uuid@3, ...).
      return { version, deprecated: Boolean(manifest.deprecated), ...(await installAndInspect(name, version)) };
    });
    for (const [i, v] of verdicts.entries()) {
      const { name, rank: dependentsRank } = window[i];
      const evidence = { dependentsRank, downloadsRank: downloadRank.get(name) || null };
      if (v.excluded) {
        excluded.push({ name, version: v.version || null, ...evidence, reason: v.excluded });
      } else if (selected.length < opts.count) {
        selected.push({
          name,
          version: v.version,
          esmOnly: v.entry.esmOnly,
          ...(v.deprecated ? { deprecated: true } : {}),
          entry: { require: v.entry.require, import: v.entry.import },
          installedPackages: v.installedPackages,
          ...evidence,
        });
      }
    }
    process.stderr.write(`\rjudged ${rank} of the ranking, selected ${selected.length}, excluded ${excluded.length}`);
  }
  process.stderr.write('\n');
  const labels = uniqueLabels(selected.map((p) => p.name));
  for (const p of selected) p.function = labels.get(p.name);
  const lastRank = selected.at(-1).dependentsRank;
  const doc = {
    generatedBy: 'node tests/npm-load/select.mjs',
    ranking: {
      source: `${DATASET.name}@${DATASET.version} npmTopDependents (npm's packages with the most dependents, most first); downloadsRank is the same package's place in npmTopDownloads`,
      dataset: DATASET,
      asOf: opts.asOf,
      judgedRanks: lastRank,
    },
    count: selected.length,
    packages: selected,
    excluded: excluded.filter((e) => e.dependentsRank <= lastRank),
  };
  fs.writeFileSync(PACKAGES_JSON, `${JSON.stringify(doc, null, 1)}\n`);
  console.log(`wrote ${PACKAGES_JSON}: ${selected.length} packages (${selected.filter((p) => p.esmOnly).length} ESM-only), ${doc.excluded.length} excluded, ranks 1-${lastRank}`);
}

main().catch((e) => {
  console.error(e.stack || e.message);
  process.exit(1);
});
