#!/usr/bin/env node
'use strict';
// Runs one compat case under real Node.js through the Kyma-like server.
//
//   node run-case.js <case-dir> [--port P] [--logs] [--shoal SHOAL_BINARY] [--install-only]
//
// 1. installs the harness's dependencies (npm ci, once) and the case's npm dependencies
//    into <case-dir>/node_modules (gitignored), once per package.json content (a stamp
//    file records its hash);
// 2. starts upstream.js when requests.json says "upstream": true, and the throwaway servers
//    requests.json's "services" names (services.js), for this run alone;
// 3. writes requests.json "files" into a temp dir exported as SECRET_DIR;
// 4. starts server.js (server26.mjs for a nodejs26 case) on 127.0.0.1 (a free port unless
//    --port), with a clean env;
// 5. sends each request in order and prints one JSON line per request:
//      {"status":200,"headers":{...},"body":"..."}          (+ "bodyBase64" if not UTF-8)
// Exits 1 on a harness error: install failure, server not starting, a request that gets
// no answer, or a status other than the request's "expectStatus".
// --logs copies the Function's console output to stderr (otherwise it is shown only on errors).
// --shoal runs the same Function under Shoal instead: the case becomes a Kyma Function YAML
// (inline source, package.json as dependencies, the env as spec.env, "files" as a Secret
// mounted through secretMounts) served by `shoal up`, and the same requests go to it. Its
// statuses are not checked against "expectStatus": they are compared with Node's.
// --install-only does step 1 and exits: run-all.js installs first and only then starts the
// Node and Shoal runs side by side, so two npm installs never write one node_modules at once.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const http = require('node:http');
const crypto = require('node:crypto');
const { spawn, spawnSync } = require('node:child_process');
const upstream = require('./upstream');
const services = require('./services');
const { startFakeDnsServer } = require('../../node-modules/harness/fake-dns-server.cjs');

// Response headers left out of the printed line: framing and per-run values, and the two
// Express adds on its own (X-Powered-By, ETag), which say nothing about the Function.
const UNSELECTED_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'etag', 'x-powered-by']);

const REQUEST_TIMEOUT_MS = 30000;
const START_TIMEOUT_MS = 30000;

function parseArgs(argv) {
  const opts = { caseDir: null, port: 0, logs: false, shoal: null, installOnly: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--port') opts.port = Number(argv[++i]);
    else if (a === '--shoal') opts.shoal = argv[++i];
    else if (a === '--logs') opts.logs = true;
    else if (a === '--install-only') opts.installOnly = true;
    else if (!opts.caseDir) opts.caseDir = a;
    else throw new Error(`unexpected argument ${a}`);
  }
  if (!opts.caseDir) throw new Error('usage: node run-case.js <case-dir> [--port P] [--logs]');
  return opts;
}

/** FUNC_NAME for a case directory: the name without its "NN-" prefix (a DNS-1035 label). */
function functionName(caseDir) {
  return path.basename(path.resolve(caseDir)).replace(/^\d+-/, '');
}

/**
 * The harness's own dependencies (express, body-parser, cloudevents, axios, OpenTelemetry),
 * from its lock file; again when the lock file changed after the last install.
 */
function installHarness() {
  const stamp = path.join(__dirname, 'node_modules', '.package-lock.json');
  const lock = path.join(__dirname, 'package-lock.json');
  if (fs.existsSync(stamp) && fs.statSync(stamp).mtimeMs >= fs.statSync(lock).mtimeMs) return;
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: __dirname, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm ci failed in ${__dirname}:\n${r.stdout}\n${r.stderr}`);
}

function installDependencies(caseDir) {
  const pkgPath = path.join(caseDir, 'package.json');
  if (!fs.existsSync(pkgPath)) return;
  const text = fs.readFileSync(pkgPath, 'utf8');
  const pkg = JSON.parse(text);
  if (!pkg.dependencies || Object.keys(pkg.dependencies).length === 0) return;
  const hash = crypto.createHash('sha256').update(text).digest('hex');
  const stamp = path.join(caseDir, 'node_modules', '.compat-stamp');
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === hash) return;
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(
    npm,
    ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock', '--omit=dev', '--loglevel=error'],
    { cwd: caseDir, encoding: 'utf8' },
  );
  if (r.status !== 0) {
    throw new Error(`npm install failed in ${caseDir}:\n${r.stdout}\n${r.stderr}`);
  }
  fs.writeFileSync(stamp, hash);
}

/**
 * The Node.js binary a case runs on: the machine's, or with `"node": "24"` in
 * requests.json the official build of that line that `.ci/setup` installs
 * (.ci/node/<major>), for behaviour that differs between Node lines.
 */
function nodeBinary(spec) {
  if (!spec.node) return process.execPath;
  const bin = path.join(__dirname, '..', '..', '..', '.ci', 'node', String(spec.node), 'bin', 'node');
  if (!fs.existsSync(bin)) throw new Error(`Node.js ${spec.node} is not installed at ${bin}: run .ci/setup`);
  return bin;
}

/** Kyma's runtime name for a case: nodejs<major> of its Node line, nodejs24 by default. */
function runtimeName(spec) {
  return `nodejs${spec.node || 24}`;
}

/**
 * The runtime server for a case: server26.mjs (the new API, `main(req, res)` and the `sdk`
 * module) for nodejs26, server.js (`main(event, context)`) for the legacy runtimes.
 */
function serverScript(runtime) {
  return path.join(__dirname, runtime === 'nodejs26' ? 'server26.mjs' : 'server.js');
}

function startServer(nodeBin, script, caseDir, port, env, logSink) {
  return new Promise((resolve, reject) => {
    const child = spawn(nodeBin, [script, caseDir, String(port)], {
      cwd: path.dirname(path.resolve(caseDir)),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let settled = false;
    let buffered = '';
    const timer = setTimeout(() => {
      if (!settled) {
        settled = true;
        child.kill('SIGKILL');
        reject(new Error('server did not start in time'));
      }
    }, START_TIMEOUT_MS);
    child.stdout.on('data', (chunk) => {
      const text = chunk.toString('utf8');
      if (settled) return logSink(text);
      buffered += text;
      const m = /SHOAL_COMPAT_LISTENING (\d+)\n/.exec(buffered);
      if (m) {
        settled = true;
        clearTimeout(timer);
        logSink(buffered.replace(m[0], ''));
        resolve({ child, port: Number(m[1]) });
      }
    });
    child.stderr.on('data', (chunk) => logSink(chunk.toString('utf8')));
    child.on('exit', (code, signal) => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        logSink(buffered);
        reject(new Error(`server exited before listening (code ${code}, signal ${signal})`));
      }
    });
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = require('node:net').createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

// Names the node sets for every Function; spec.env may not carry them.
const NODE_SET_ENV = new Set(['PATH', 'FUNC_NAME', 'FUNC_RUNTIME', 'SERVICE_NAMESPACE']);
const SECRET_MOUNT = '/var/run/secrets/compat';

/** The case as the Kyma Function YAML a user would apply (JSON is YAML). */
function functionYaml(caseDir, name, env, withSecret, runtime) {
  const read = (f) => fs.readFileSync(path.join(caseDir, f), 'utf8');
  const inline = { source: read('handler.js') };
  if (fs.existsSync(path.join(caseDir, 'package.json'))) inline.dependencies = read('package.json');
  const spec = {
    runtime,
    source: { inline },
    env: Object.entries(env)
      .filter(([k]) => !NODE_SET_ENV.has(k))
      .map(([k, v]) => ({ name: k, value: String(v) })),
  };
  if (withSecret) spec.secretMounts = [{ secretName: 'compat', mountPath: SECRET_MOUNT }];
  const fn = { apiVersion: 'serverless.kyma-project.io/v1alpha2', kind: 'Function', metadata: { name, namespace: 'default' }, spec };
  return JSON.stringify(fn, null, 2);
}

// What a Function folder gets without spec.env, equal to the harness's env for Node.
const FOLDER_DEFAULT_ENV = { TZ: 'UTC', FUNC_TIMEOUT: '180', FUNC_BODY_MB_LIMIT: '1' };

/** The case's files besides handler.js, package.json and requests.json (relative paths). */
function localFiles(caseDir, rel = '') {
  const out = [];
  for (const ent of fs.readdirSync(path.join(caseDir, rel), { withFileTypes: true })) {
    const name = path.join(rel, ent.name);
    if (!rel && ['handler.js', 'package.json', 'package-lock.json', 'requests.json', 'node_modules'].includes(ent.name)) continue;
    if (ent.isDirectory()) out.push(...localFiles(caseDir, name));
    else if (ent.isFile()) out.push(name);
  }
  return out;
}

/** Starts `shoal up` serving the case; resolves once it serves, rejects with the build error. */
async function startShoal(bin, caseDir, env, files, runtime, flags, logSink) {
  const name = functionName(caseDir);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shoal-compat-up-'));
  if (files) {
    const secret = path.join(dir, '.secrets', 'compat');
    fs.mkdirSync(secret, { recursive: true });
    for (const [file, content] of Object.entries(files)) fs.writeFileSync(path.join(secret, file), content);
    env = { ...env, SECRET_DIR: SECRET_MOUNT };
  }
  const local = localFiles(caseDir);
  if (local.length > 0) {
    // Kyma's inline source is one file: a case with local modules is served
    // the way `shoal up` takes a Git checkout, as a Function folder. That
    // form has no spec.env, so such a case may only use the defaults.
    const extra = Object.keys(env).filter((k) => !NODE_SET_ENV.has(k) && FOLDER_DEFAULT_ENV[k] !== env[k]);
    if (extra.length > 0 || files) throw new Error(`a case with local files cannot also set env or files (${extra.join(', ')})`);
    const folder = path.join(dir, name);
    for (const f of ['handler.js', 'package.json', ...local]) {
      if (!fs.existsSync(path.join(caseDir, f))) continue;
      fs.mkdirSync(path.dirname(path.join(folder, f)), { recursive: true });
      fs.copyFileSync(path.join(caseDir, f), path.join(folder, f));
    }
  } else {
    fs.writeFileSync(path.join(dir, `${name}.yaml`), functionYaml(caseDir, name, env, Boolean(files), runtime));
  }
  const port = await freePort();
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['up', dir, '--listen', `127.0.0.1:${port}`, ...flags], { env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let settled = false;
    const failures = [];
    const done = (err) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        child.kill('SIGKILL');
        fs.rmSync(dir, { recursive: true, force: true });
        reject(err);
      } else {
        resolve({ child, port, prefix: `/default/${name}`, dir });
      }
    };
    const timer = setTimeout(() => done(new Error('shoal up did not serve in time')), 180000);
    child.stdout.on('data', (chunk) => {
      const text = chunk.toString('utf8');
      logSink(text);
      if (/Shoal is serving 1 Functions/.test(text)) done();
      else if (/Shoal is serving 0 Functions|no Functions in/.test(text)) done(new Error(`shoal could not build the Function: ${failures.join('\n')}`));
    });
    child.stderr.on('data', (chunk) => {
      const text = chunk.toString('utf8');
      logSink(text);
      for (const line of text.split('\n')) if (line.startsWith('✗')) failures.push(line);
    });
    child.on('exit', (code) => done(new Error(`shoal up exited (code ${code}): ${failures.join('\n')}`)));
  });
}

/** A large body kept small in requests.json: prefix + unit x count + suffix. */
function repeatedBody({ prefix = '', unit, count, suffix = '' }) {
  return prefix + unit.repeat(count) + suffix;
}

function sendRequest(port, spec, prefix = '') {
  return new Promise((resolve, reject) => {
    let target = prefix + (spec.path || '/');
    if (spec.query) target += (target.includes('?') ? '&' : '?') + spec.query;
    let body = null;
    if (spec.bodyBase64 !== undefined) body = Buffer.from(spec.bodyBase64, 'base64');
    else if (spec.body !== undefined) body = Buffer.from(spec.body, 'utf8');
    else if (spec.bodyRepeat !== undefined) body = Buffer.from(repeatedBody(spec.bodyRepeat), 'utf8');
    const headers = Object.assign({}, spec.headers || {});
    if (body !== null && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')) {
      headers['content-length'] = String(body.length);
    }
    const req = http.request(
      { host: '127.0.0.1', port, method: spec.method || 'GET', path: target, headers, agent: false, timeout: REQUEST_TIMEOUT_MS },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(body === null ? undefined : body);
  });
}

function describe(response) {
  const headers = {};
  for (const name of Object.keys(response.headers).sort()) {
    if (!UNSELECTED_HEADERS.has(name)) headers[name] = response.headers[name];
  }
  const line = { status: response.status, headers, body: response.body.toString('utf8') };
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(response.body);
  } catch {
    line.bodyBase64 = response.body.toString('base64');
  }
  return line;
}

async function runCase(caseDirArg, opts) {
  const caseDir = path.resolve(caseDirArg);
  const spec = JSON.parse(fs.readFileSync(path.join(caseDir, 'requests.json'), 'utf8'));
  for (const [i, r] of (spec.requests || []).entries()) {
    const mode = r.compare || spec.compare || 'exact';
    if (!['exact', 'shape', 'status'].includes(mode)) throw new Error(`request ${i}: unknown compare mode ${mode}`);
    if ([r.body, r.bodyBase64, r.bodyRepeat].filter((b) => b !== undefined).length > 1) throw new Error(`request ${i}: more than one body`);
  }
  installHarness();
  installDependencies(caseDir);

  const logs = [];
  const logSink = (text) => {
    if (!text) return;
    if (opts.logs) process.stderr.write(text);
    else logs.push(text);
  };

  const env = {
    PATH: process.env.PATH,
    TZ: 'UTC',
    FUNC_NAME: functionName(caseDir),
    FUNC_RUNTIME: runtimeName(spec),
    SERVICE_NAMESPACE: 'default',
    FUNC_TIMEOUT: '180',
  };
  // nodejs26 reads its body size limit from FUNC_BODY_MB_LIMIT (server.js: REQ_MB_LIMIT, default 1).
  if (runtimeName(spec) === 'nodejs26') env.FUNC_BODY_MB_LIMIT = '1';
  let up = null;
  let dns = null;
  let servers = null;
  const shoalFlags = [];
  let secretDir = null;
  let server = null;
  const errors = [];
  try {
    if (spec.upstream) {
      up = await upstream.start(0);
      env.UPSTREAM_URL = up.url;
      env.UPSTREAM_HTTPS_URL = up.httpsUrl;
      env.UPSTREAM_CA = up.ca;
      env.PUBLISHER_PROXY_ADDRESS = `${up.url}/publish`;
    }
    if (spec.dns) {
      // The node's DNS server, as the cluster's would be: the handler points
      // Node's resolver at it with dns.setServers, the Shoal node is
      // started with it (a Function cannot pick the node's resolver).
      dns = await startFakeDnsServer();
      env.DNS_SERVER = dns.address;
      shoalFlags.push('--dns-server', dns.address);
    }
    if (spec.services) {
      servers = await services.start(spec.services, logSink);
      Object.assign(env, servers.env);
      logSink(`services ready: ${JSON.stringify(servers.timings)} (ms)\n`);
    }
    if (spec.files && !opts.shoal) {
      secretDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shoal-compat-secret-'));
      for (const [name, content] of Object.entries(spec.files)) fs.writeFileSync(path.join(secretDir, name), content);
      env.SECRET_DIR = secretDir;
    }
    Object.assign(env, spec.env || {});

    server = opts.shoal
      ? await startShoal(opts.shoal, caseDir, env, spec.files, runtimeName(spec), shoalFlags, logSink)
      : await startServer(nodeBinary(spec), serverScript(runtimeName(spec)), caseDir, opts.port, env, logSink);
    for (const [i, request] of (spec.requests || []).entries()) {
      let response;
      // A pause before the request, for what happens between requests
      // (a server closing a pooled connection that sits idle).
      if (request.delayMs) await new Promise((resolve) => setTimeout(resolve, request.delayMs));
      try {
        response = await sendRequest(server.port, request, server.prefix);
      } catch (err) {
        errors.push(`request ${i}: ${err.message}`);
        continue;
      }
      process.stdout.write(`${JSON.stringify(describe(response))}\n`);
      if (!opts.shoal && request.expectStatus !== undefined && request.expectStatus !== response.status) {
        errors.push(`request ${i}: status ${response.status}, expected ${request.expectStatus}`);
      }
    }
  } catch (err) {
    errors.push(err.message);
  } finally {
    if (server) {
      await new Promise((resolve) => {
        const t = setTimeout(() => {
          server.child.kill('SIGKILL');
        }, 2000);
        server.child.on('exit', () => {
          clearTimeout(t);
          resolve();
        });
        server.child.kill('SIGTERM');
      });
      if (server.dir) fs.rmSync(server.dir, { recursive: true, force: true });
    }
    if (up) await up.close();
    if (dns) dns.close();
    if (servers) await servers.stop();
    if (secretDir) fs.rmSync(secretDir, { recursive: true, force: true });
  }
  if (errors.length > 0) {
    if (!opts.logs && logs.length) process.stderr.write(`--- Function log (${caseDir}) ---\n${logs.join('')}\n`);
    for (const e of errors) process.stderr.write(`harness error: ${e}\n`);
    return false;
  }
  return true;
}

if (require.main === module) {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  if (opts.installOnly) {
    try {
      installHarness();
      installDependencies(path.resolve(opts.caseDir));
    } catch (err) {
      process.stderr.write(`harness error: ${err.message}\n`);
      process.exit(1);
    }
    process.exit(0);
  }
  runCase(opts.caseDir, opts).then(
    (ok) => process.exit(ok ? 0 : 1),
    (err) => {
      process.stderr.write(`harness error: ${err.stack || err}\n`);
      process.exit(1);
    },
  );
}

module.exports = { runCase, functionName };
