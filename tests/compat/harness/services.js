'use strict';
// Throwaway servers for the compat cases of database and mail drivers:
// requests.json's `"services": ["postgres", "mariadb", "redis", "smtp", "lines"]`.
//
//   const running = await start(names, logSink)  -> { env, timings, stop() }
//
// Each run of a case (the Node run and the Shoal run separately) gets its own
// instances on free 127.0.0.1 ports, so no state leaks from one run into the
// other, and `env` tells the Function where they are (the same names for both
// runs). Servers run as child processes under `setpriv --pdeathsig KILL`: they
// are stopped by pid in stop(), and die with the harness if it is killed.
//
// - postgres: the Debian package's server. It refuses to run as root, so as
//   root it runs as the `postgres` user, in temp dirs that user owns. initdb
//   runs once into a template (cached under target/compat-services/), which
//   each instance copies (~0.1 s) instead of running initdb (~2 s). SSL is on,
//   with the harness's test certificate (tls/, SAN IP:127.0.0.1 and
//   DNS:localhost).
//   PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE (pg and postgres read them).
// - mariadb: likewise, from a template made once by mariadb-install-db;
//   mariadbd may run as root (--user=root). SSL with the same certificate.
//   MYSQL_HOST, MYSQL_PORT, MYSQL_USER, MYSQL_PASSWORD, MYSQL_DATABASE.
// - redis: redis-server without persistence, plain and TLS. REDIS_URL,
//   REDIS_HOST, REDIS_PORT, REDIS_TLS_URL (rediss://).
// - smtp: aiosmtpd (.ci/smtp-venv) through smtp-server.py: STARTTLS required,
//   AUTH user/password, and implicit TLS on a second port. SMTP_HOST,
//   SMTP_PORT, SMTPS_PORT, SMTP_USER, SMTP_PASSWORD.
// - lines: a line-based TCP protocol served from this process (below), for
//   raw `net` clients, and a port that never answers. LINES_HOST, LINES_PORT,
//   LINES_SILENT_PORT.
// With any of them, SERVICE_CA is the PEM of the test certificate the TLS
// servers present (the same as the upstream's UPSTREAM_CA).

const fs = require('node:fs');
const os = require('node:os');
const net = require('node:net');
const path = require('node:path');
const { spawn, spawnSync, execFileSync } = require('node:child_process');

const ROOT = path.join(__dirname, '..', '..', '..');
const CACHE = path.join(ROOT, 'target', 'compat-services');
const TLS_DIR = path.join(__dirname, 'tls');
const CERT = path.join(TLS_DIR, 'upstream-cert.pem');
const KEY = path.join(TLS_DIR, 'upstream-key.pem');
const SMTP_PYTHON = path.join(ROOT, '.ci', 'smtp-venv', 'bin', 'python');

// Test-only credentials, the same for every instance.
const DB_USER = 'shoal';
const DB_PASSWORD = 'shoal-pass';
const DB_NAME = 'shoal';

const READY_TIMEOUT_MS = 30000;
// Bumped when the way a template is made changes, so an old cache is not reused.
const TEMPLATE_REVISION = 3;

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Children still running, killed if this process exits without stop(). */
const running = new Set();
process.on('exit', () => {
  for (const child of running) {
    try {
      process.kill(child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** The uid/gid of a system user (for chown and setpriv). */
function userIds(name) {
  const line = fs.readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith(`${name}:`));
  if (!line) throw new Error(`no user ${name} on this machine: run .ci/setup`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** The command that runs `argv` as `user` (when root) and dies with this process. */
function confined(argv, user) {
  const wrap = ['setpriv', '--pdeathsig', 'KILL'];
  if (user && isRoot) wrap.push(`--reuid=${user}`, `--regid=${user}`, '--init-groups');
  return [...wrap, '--', ...argv];
}

function chownTree(dir, ids) {
  if (!isRoot) return;
  execFileSync('chown', ['-R', `${ids.uid}:${ids.gid}`, dir]);
}

/**
 * Starts `argv`; resolves with the child once a line of its output matches
 * `ready` (the match is handed to `onReady`), rejects if it exits first.
 */
function launch(name, argv, { user, ready, logSink, cwd }) {
  const [cmd, ...args] = confined(argv, user);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    let settled = false;
    let seen = '';
    const output = [];
    const timer = setTimeout(() => fail(new Error(`${name} did not start within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
    function fail(err) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      err.output = output.join('');
      reject(err);
    }
    const onData = (chunk) => {
      const text = chunk.toString('utf8');
      output.push(text);
      if (settled) return logSink(text.replace(/^/gm, `[${name}] `));
      seen += text;
      const m = ready.exec(seen);
      if (m) {
        settled = true;
        clearTimeout(timer);
        resolve({ child, match: m });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', fail);
    child.on('exit', (code, signal) => {
      running.delete(child);
      fail(new Error(`${name} exited before it was ready (code ${code}, signal ${signal}):\n${output.join('')}`));
    });
  });
}

/** Stops a child by pid and waits for it (at most 5 s). */
function stopChild(child, signal) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const hard = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(hard);
      running.delete(child);
      resolve();
    });
    child.kill(signal);
  });
}

/**
 * The cached template `name` of a `kind` of server (a directory), made by `make(dir)` the first
 * time. Two runs may make it at once: each makes its own and the first
 * rename wins.
 */
function template(kind, name, make) {
  const dest = path.join(CACHE, name);
  if (fs.existsSync(path.join(dest, '.complete'))) return dest;
  fs.mkdirSync(CACHE, { recursive: true });
  // Templates of an older server version or revision are of no further use.
  for (const old of fs.readdirSync(CACHE)) {
    if (old.startsWith(`${kind}-`) && old !== name) fs.rmSync(path.join(CACHE, old), { recursive: true, force: true });
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `shoal-compat-${name}-`));
  try {
    make(work);
    fs.writeFileSync(path.join(work, '.complete'), '');
    if (isRoot) fs.chmodSync(work, 0o755);
    try {
      fs.renameSync(work, dest);
    } catch (err) {
      if (err.code === 'EXDEV') execFileSync('cp', ['-a', work, dest]);
      else if (!['EEXIST', 'ENOTEMPTY'].includes(err.code)) throw err;
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return dest;
}

/** A fresh instance directory holding a copy of `templateDir`'s `data`. */
function instanceDir(prefix, templateDir, ids) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `shoal-compat-${prefix}-`));
  execFileSync('cp', ['-a', path.join(templateDir, 'data'), path.join(dir, 'data')]);
  // The server's own copy of the certificate and key: PostgreSQL insists
  // the key be its own and private.
  fs.copyFileSync(CERT, path.join(dir, 'cert.pem'));
  fs.copyFileSync(KEY, path.join(dir, 'key.pem'));
  fs.chmodSync(path.join(dir, 'key.pem'), 0o600);
  if (ids) chownTree(dir, ids);
  return dir;
}

/** Retries `attempt(port)` on a new port when the server could not bind. */
async function onFreePort(attempt) {
  let lastError;
  for (let i = 0; i < 3; i++) {
    try {
      return await attempt(await freePort());
    } catch (err) {
      lastError = err;
      if (!/in use|bind|Could not create server TCP listening socket/i.test(err.message)) throw err;
    }
  }
  throw lastError;
}

// ---------------------------------------------------------------- PostgreSQL

function postgresBin() {
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base) ? fs.readdirSync(base).filter((v) => fs.existsSync(path.join(base, v, 'bin', 'postgres'))) : [];
  if (versions.length === 0) throw new Error('PostgreSQL is not installed (/usr/lib/postgresql/*/bin/postgres): run .ci/setup');
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  return { version: newest, bin: path.join(base, newest, 'bin') };
}

async function startPostgres(logSink) {
  const { version, bin } = postgresBin();
  const ids = isRoot ? userIds('postgres') : null;
  const user = isRoot ? 'postgres' : null;
  const tpl = template('postgres', `postgres-${version}-r${TEMPLATE_REVISION}`, (work) => {
    if (ids) fs.chownSync(work, ids.uid, ids.gid);
    const pwfile = path.join(work, 'pwfile');
    fs.writeFileSync(pwfile, `${DB_PASSWORD}\n`);
    if (ids) fs.chownSync(pwfile, ids.uid, ids.gid);
    const data = path.join(work, 'data');
    // Password (SCRAM) authentication over TCP, so a wrong password fails
    // as it would against a real server.
    const [cmd, ...args] = confined([path.join(bin, 'initdb'), '-D', data, '-U', DB_USER, `--pwfile=${pwfile}`,
      '--auth-local=trust', '--auth-host=scram-sha-256', '--no-sync', '-E', 'UTF8', '--locale=C.UTF-8',
      // 1 MB WAL segments instead of 16: every instance copies the template.
      '--wal-segsize=1'], user);
    const init = spawnSync(cmd, args, { encoding: 'utf8' });
    if (init.status !== 0) throw new Error(`initdb failed:\n${init.stdout}\n${init.stderr}`);
    const [scmd, ...sargs] = confined([path.join(bin, 'postgres'), '--single', '-D', data, '-c', 'fsync=off', 'template1'], user);
    // The database the cases use replaces initdb's `postgres`, which would only be copied around.
    const single = spawnSync(scmd, sargs, { input: `CREATE DATABASE ${DB_NAME};\nDROP DATABASE postgres;\n`, encoding: 'utf8' });
    if (single.status !== 0 || /ERROR/.test(single.stderr)) throw new Error(`creating the database failed:\n${single.stderr}`);
    fs.rmSync(pwfile);
  });
  const dir = instanceDir('postgres', tpl, ids);
  const { child, port } = await onFreePort(async (port) => {
    const { child: c } = await launch('postgres', [path.join(bin, 'postgres'), '-D', path.join(dir, 'data'), '-p', String(port),
      '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off',
      '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=50',
      '-c', 'ssl=on', '-c', `ssl_cert_file=${path.join(dir, 'cert.pem')}`, '-c', `ssl_key_file=${path.join(dir, 'key.pem')}`],
    { user, ready: /database system is ready to accept connections/, logSink });
    return { child: c, port };
  });
  return {
    env: { PGHOST: '127.0.0.1', PGPORT: String(port), PGUSER: DB_USER, PGPASSWORD: DB_PASSWORD, PGDATABASE: DB_NAME },
    // SIGQUIT: immediate shutdown, the backends with it (the data is thrown away).
    stop: () => stopChild(child, 'SIGQUIT'),
    dir,
  };
}

// ------------------------------------------------------------------- MariaDB

function mariadbVersion() {
  const r = spawnSync('mariadbd', ['--version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) throw new Error('MariaDB is not installed (mariadbd): run .ci/setup');
  const m = /Ver (\S+)/.exec(r.stdout);
  return m ? m[1].replace(/[^\w.-]/g, '_') : 'unknown';
}

// Small buffers and no durability: a test server that starts in ~0.3 s.
const MARIADB_OPTIONS = ['--innodb-log-file-size=8M', '--innodb-buffer-pool-size=32M', '--skip-log-bin'];

async function startMariadb(logSink) {
  const asRoot = isRoot ? ['--user=root'] : [];
  const tpl = template('mariadb', `mariadb-${mariadbVersion()}-r${TEMPLATE_REVISION}`, (work) => {
    const data = path.join(work, 'data');
    // Its own temporary folder: the bootstrap's internal temporary tables
    // in a shared /tmp have collided with another server's (seen once, as
    // "Could not remove temporary table ... Aborting").
    const tmp = path.join(work, 'tmp');
    fs.mkdirSync(tmp);
    const install = spawnSync('mariadb-install-db', ['--no-defaults', `--datadir=${data}`, `--tmpdir=${tmp}`, ...asRoot,
      '--auth-root-authentication-method=normal', '--skip-test-db', '--skip-name-resolve', ...MARIADB_OPTIONS], { encoding: 'utf8' });
    if (install.status !== 0) throw new Error(`mariadb-install-db failed:\n${install.stdout}\n${install.stderr}`);
    // --bootstrap starts without the grant tables: FLUSH PRIVILEGES loads them.
    const sql = `FLUSH PRIVILEGES;\nCREATE DATABASE IF NOT EXISTS ${DB_NAME};\n` +
      `CREATE USER '${DB_USER}'@'%' IDENTIFIED BY '${DB_PASSWORD}';\nGRANT ALL PRIVILEGES ON *.* TO '${DB_USER}'@'%';\n`;
    const boot = spawnSync('mariadbd', ['--no-defaults', '--bootstrap', `--datadir=${data}`, `--tmpdir=${tmp}`, ...asRoot, ...MARIADB_OPTIONS], { input: sql, encoding: 'utf8' });
    fs.rmSync(tmp, { recursive: true, force: true });
    if (boot.status !== 0 || /\bERROR\b/.test(boot.stderr)) throw new Error(`creating the user failed:\n${boot.stderr}`);
  });
  const dir = instanceDir('mariadb', tpl, null);
  const { child, port } = await onFreePort(async (port) => {
    const { child: c } = await launch('mariadb', ['mariadbd', '--no-defaults', `--datadir=${path.join(dir, 'data')}`, ...asRoot,
      `--port=${port}`, '--bind-address=127.0.0.1', `--socket=${path.join(dir, 'mysqld.sock')}`, `--pid-file=${path.join(dir, 'mysqld.pid')}`,
      `--tmpdir=${dir}`, '--skip-name-resolve', ...MARIADB_OPTIONS, '--innodb-flush-log-at-trx-commit=0', '--skip-innodb-doublewrite',
      `--ssl-cert=${path.join(dir, 'cert.pem')}`, `--ssl-key=${path.join(dir, 'key.pem')}`],
    { ready: /ready for connections/, logSink });
    return { child: c, port };
  });
  return {
    env: { MYSQL_HOST: '127.0.0.1', MYSQL_PORT: String(port), MYSQL_USER: DB_USER, MYSQL_PASSWORD: DB_PASSWORD, MYSQL_DATABASE: DB_NAME },
    stop: () => stopChild(child, 'SIGKILL'),
    dir,
  };
}

// --------------------------------------------------------------------- Redis

async function startRedis(logSink) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shoal-compat-redis-'));
  // A plain port and a TLS port (rediss://, as managed Redis offers it).
  const { child, port, tlsPort } = await onFreePort(async (port) => {
    const tlsPort = await freePort();
    const { child: c } = await launch('redis', ['redis-server', '--port', String(port), '--bind', '127.0.0.1',
      '--tls-port', String(tlsPort), '--tls-cert-file', CERT, '--tls-key-file', KEY, '--tls-auth-clients', 'no',
      '--save', '', '--appendonly', 'no', '--dir', dir, '--loglevel', 'notice'],
    { ready: /Ready to accept connections/, logSink });
    return { child: c, port, tlsPort };
  });
  return {
    env: {
      REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_HOST: '127.0.0.1', REDIS_PORT: String(port),
      REDIS_TLS_URL: `rediss://127.0.0.1:${tlsPort}`,
    },
    stop: () => stopChild(child, 'SIGKILL'),
    dir,
  };
}

// ---------------------------------------------------------------------- SMTP

async function startSmtp(logSink) {
  if (!fs.existsSync(SMTP_PYTHON)) throw new Error('aiosmtpd is not installed (.ci/smtp-venv): run .ci/setup');
  const { child, match } = await launch('smtp', [SMTP_PYTHON, path.join(__dirname, 'smtp-server.py'), CERT, KEY],
    { ready: /SMTP_READY (\d+) (\d+)\n/, logSink });
  return {
    env: { SMTP_HOST: '127.0.0.1', SMTP_PORT: match[1], SMTPS_PORT: match[2], SMTP_USER: 'shoal', SMTP_PASSWORD: 'smtp-pass' },
    stop: () => stopChild(child, 'SIGKILL'),
  };
}

// --------------------------------------------------------------------- lines

/**
 * A line protocol over TCP ("\n"-terminated, "\r\n" accepted), the kind of
 * thing a Function speaks with `net` to a legacy system:
 *   on connect        -> "WELCOME shoal-lines 1"
 *   PING              -> "PONG"
 *   ECHO <text>       -> "<text>"
 *   UPPER <text>      -> "<TEXT>"
 *   SUM <n> <n> ...   -> "<sum>"
 *   SET <key> <value> -> "OK", GET <key> -> "VALUE <value>" or "NIL" (per connection)
 *   BIG <n>           -> n lines "row <i> <40 x's>" written at once (n <= 20000)
 *   QUIT              -> "BYE <lines received>", then the server closes
 *   RESET             -> the server resets the connection (RST)
 *   anything else     -> "ERR unknown command <CMD>"
 * When the client ends its side (half-close), the server answers
 * "RECEIVED <lines> lines, <bytes> bytes" and then ends its own.
 * A second port (LINES_SILENT_PORT) accepts connections and never answers,
 * for a client's connect and idle timeouts.
 */
function startLines() {
  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    const store = new Map();
    let buffered = '';
    let lines = 0;
    let bytes = 0;
    socket.setEncoding('utf8');
    socket.write('WELCOME shoal-lines 1\n');
    socket.on('data', (text) => {
      bytes += Buffer.byteLength(text);
      buffered += text;
      let nl;
      while ((nl = buffered.indexOf('\n')) !== -1) {
        const line = buffered.slice(0, nl).replace(/\r$/, '');
        buffered = buffered.slice(nl + 1);
        lines += 1;
        const [command, ...rest] = line.split(' ');
        const arg = rest.join(' ');
        switch (command.toUpperCase()) {
          case 'PING': socket.write('PONG\n'); break;
          case 'ECHO': socket.write(`${arg}\n`); break;
          case 'UPPER': socket.write(`${arg.toUpperCase()}\n`); break;
          case 'SUM': socket.write(`${rest.reduce((s, n) => s + Number(n), 0)}\n`); break;
          case 'SET': store.set(rest[0], rest.slice(1).join(' ')); socket.write('OK\n'); break;
          case 'GET': socket.write(store.has(rest[0]) ? `VALUE ${store.get(rest[0])}\n` : 'NIL\n'); break;
          case 'BIG': {
            const n = Math.min(Number(rest[0]) || 0, 20000);
            const out = [];
            for (let i = 0; i < n; i++) out.push(`row ${i} ${'x'.repeat(40)}\n`);
            socket.write(out.join(''));
            break;
          }
          case 'QUIT': socket.end(`BYE ${lines}\n`); return;
          // A TCP reset (RST) instead of an orderly close, as a crashed or
          // overloaded server gives.
          case 'RESET': socket.resetAndDestroy(); return;
          default: socket.write(`ERR unknown command ${command.toUpperCase()}\n`);
        }
      }
    });
    socket.on('end', () => {
      if (!socket.writableEnded) socket.end(`RECEIVED ${lines} lines, ${bytes} bytes\n`);
    });
    socket.on('error', () => {});
  });
  const sockets = new Set();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const silent = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  const listen = (srv) => new Promise((resolve, reject) => {
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => resolve(srv.address().port));
  });
  return Promise.all([listen(server), listen(silent)]).then(([port, silentPort]) => ({
    env: { LINES_HOST: '127.0.0.1', LINES_PORT: String(port), LINES_SILENT_PORT: String(silentPort) },
    stop: () => new Promise((done) => {
      for (const s of sockets) s.destroy();
      silent.close();
      server.close(() => done());
    }),
  }));
}

const STARTERS = { postgres: startPostgres, mariadb: startMariadb, redis: startRedis, smtp: startSmtp, lines: startLines };

/**
 * Starts the named services side by side. Resolves with their env, the
 * milliseconds each took to be ready, and stop(); if one fails, those
 * already started are stopped and the error is thrown.
 */
async function start(names, logSink = () => {}) {
  for (const name of names) {
    if (!STARTERS[name]) throw new Error(`unknown service ${JSON.stringify(name)} (known: ${Object.keys(STARTERS).join(', ')})`);
  }
  const started = [];
  const timings = {};
  const results = await Promise.allSettled(names.map(async (name) => {
    const t0 = Date.now();
    const service = await STARTERS[name](logSink);
    timings[name] = Date.now() - t0;
    started.push(service);
    return service;
  }));
  const stop = async () => {
    await Promise.all(started.map((s) => s.stop()));
    for (const s of started) if (s.dir) fs.rmSync(s.dir, { recursive: true, force: true });
  };
  const failure = results.find((r) => r.status === 'rejected');
  if (failure) {
    await stop();
    throw failure.reason;
  }
  const env = { SERVICE_CA: fs.readFileSync(CERT, 'utf8') };
  for (const r of results) Object.assign(env, r.value.env);
  return { env, timings, stop };
}

module.exports = { start, SERVICE_NAMES: Object.keys(STARTERS) };

if (require.main === module) {
  // `node services.js postgres redis ...`: start them, print the env and the
  // timings, and keep them running until Ctrl-C (for trying a driver by hand).
  start(process.argv.slice(2), (t) => process.stderr.write(t)).then((s) => {
    process.stdout.write(`${JSON.stringify({ timings: s.timings, env: { ...s.env, SERVICE_CA: '(pem)' } }, null, 2)}\n`);
    const bye = () => s.stop().then(() => process.exit(0));
    process.on('SIGINT', bye);
    process.on('SIGTERM', bye);
  }, (err) => {
    process.stderr.write(`${err.stack || err}\n`);
    process.exit(1);
  });
}
