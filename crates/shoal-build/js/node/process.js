'use strict';
// node:process for Shoal Functions. Shoal's prelude creates
// globalThis.process (env, argv, nextTick, hrtime, cwd, exit...) before the
// handler loads; this module completes that same object with the rest of
// Node's process API, so `require('process') === globalThis.process`.

const EventEmitter = require('events');

let proc = globalThis.process;
if (!proc) {
  // As in Node, process is not among globalThis's enumerable keys.
  proc = { env: {} };
  Object.defineProperty(globalThis, 'process', { value: proc, writable: true, configurable: true, enumerable: false });
}

const now = () => (typeof performance !== 'undefined' && performance.now ? performance.now() : Date.now() - loadedAt);
const loadedAt = Date.now();

function define(name, value) {
  if (!(name in proc)) proc[name] = value;
}

// process is an EventEmitter in Node.js ('exit', 'warning'... listeners).
// Nothing emits the lifecycle events here: a Function's process does not
// end or crash the way a Node process does.
for (const key of Object.getOwnPropertyNames(EventEmitter.prototype)) {
  if (key === 'constructor') continue;
  proc[key] = EventEmitter.prototype[key];
}
if (!proc._events) {
  Object.defineProperty(proc, '_events', { value: Object.create(null), writable: true, configurable: true });
  Object.defineProperty(proc, '_eventsCount', { value: 0, writable: true, configurable: true });
  Object.defineProperty(proc, '_maxListeners', { value: undefined, writable: true, configurable: true });
}

define('env', {});
define('argv', ['/usr/local/bin/node', '/usr/src/app/handler.js']);
define('argv0', 'node');
define('execArgv', []);
define('execPath', '/usr/local/bin/node');
define('title', 'node');
define('pid', 1);
define('ppid', 0);
define('arch', 'wasm32');
define('platform', 'linux');
define('version', 'v22.0.0');
define('exitCode', undefined);
define('debugPort', 9229);
define('noDeprecation', false);
define('throwDeprecation', false);
define('traceDeprecation', false);
define('release', { name: 'node', lts: 'Jod' });
define('features', { inspector: false, debug: false, uv: false, ipv6: false, tls_alpn: false, tls_sni: false, tls_ocsp: false, tls: false, cached_builtins: true, typescript: false });
define('config', { target_defaults: {}, variables: {} });
define('allowedNodeEnvironmentFlags', new Set());

// versions.node follows process.version ("v22.0.0-shoal" -> "22.0.0-shoal").
if (!proc.versions || !proc.versions.node) {
  proc.versions = Object.assign({}, proc.versions, {
    node: String(proc.version).replace(/^v/, ''),
    modules: '127',
    unicode: '15.1',
  });
}

define('cwd', () => '/');
define('chdir', (dir) => {
  const err = new Error(`process.chdir() is not supported in a Shoal Function (to '${dir}')`);
  err.code = 'ERR_WORKER_UNSUPPORTED_OPERATION';
  throw err;
});
define('umask', () => 0o22);
define('getuid', () => 1000);
define('geteuid', () => 1000);
define('getgid', () => 1000);
define('getegid', () => 1000);
define('getgroups', () => [1000]);
define('nextTick', (fn, ...args) => {
  Promise.resolve().then(() => fn(...args));
});

// hrtime from the engine's monotonic performance.now() (microseconds or
// better), not Date.now().
function hrtime(prev) {
  const ns = Math.round(now() * 1e6);
  const t = [Math.floor(ns / 1e9), ns % 1e9];
  if (!prev) return t;
  let s = t[0] - prev[0];
  let n = t[1] - prev[1];
  if (n < 0) {
    s -= 1;
    n += 1e9;
  }
  return [s, n];
}
hrtime.bigint = () => BigInt(Math.round(now() * 1e6));
if (typeof proc.hrtime !== 'function') proc.hrtime = hrtime;
proc.hrtime.bigint = hrtime.bigint;

define('uptime', () => now() / 1000);
define('cpuUsage', (prev) => {
  const user = Math.round(now() * 1000);
  return prev ? { user: user - prev.user, system: 0 } : { user, system: 0 };
});
define('resourceUsage', () => ({
  userCPUTime: Math.round(now() * 1000), systemCPUTime: 0, maxRSS: 0, sharedMemorySize: 0, unsharedDataSize: 0,
  unsharedStackSize: 0, minorPageFault: 0, majorPageFault: 0, swappedOut: 0, fsRead: 0, fsWrite: 0, ipcSent: 0,
  ipcReceived: 0, signalsCount: 0, voluntaryContextSwitches: 0, involuntaryContextSwitches: 0,
}));
// The engine does not report its heap; these are zeros, not measurements.
function memoryUsage() {
  return { rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 };
}
memoryUsage.rss = () => 0;
define('memoryUsage', memoryUsage);

// Node's format: "(node:1) [CODE] Name: message" on stderr, plus a
// 'warning' event (the prelude's simpler version is replaced).
proc.emitWarning = function emitWarning(warning, type, code) {
  let name = 'Warning';
  let detail;
  if (type !== null && typeof type === 'object') {
    ({ type: name = 'Warning', code, detail } = type);
  } else if (typeof type === 'string') {
    name = type;
  }
  let w = warning;
  if (typeof warning === 'string') {
    w = new Error(warning);
    w.name = name;
    if (code !== undefined) w.code = code;
    if (detail !== undefined) w.detail = detail;
  }
  if (w.name === 'DeprecationWarning' && proc.noDeprecation) return;
  if (w.name === 'DeprecationWarning' && proc.throwDeprecation) throw w;
  proc.emit('warning', w);
  const prefix = `(node:${proc.pid}) ${w.code ? `[${w.code}] ` : ''}${w.name}: ${w.message}`;
  console.error(w.detail ? `${prefix}\n${w.detail}` : prefix);
};

function unsupported(name) {
  return () => {
    const err = new Error(`process.${name}() is not available in Shoal's JavaScript engine`);
    err.code = 'ERR_NOT_AVAILABLE_IN_SHOAL';
    throw err;
  };
}
// process.binding(): Node's internals, deprecated but still read by old
// packages while loading (tmp's constants, safer-buffer's string limit).
// 'constants' is Node 22's (the bundler adds the table when the Function's
// code names process.binding); the rest are not there.
define('binding', function binding(name) {
  const id = `${name}`;
  if (id === 'constants') {
    const constants = require('shoal:process-binding-constants');
    if (constants) return constants;
  }
  if (!NODE_BINDINGS.has(id)) throw new Error(`No such module: ${id}`);
  const { notImplemented } = require('./internal/unsupported.js');
  throw notImplemented(`process.binding('${id}')`, "Shoal's engine has none of Node's internal bindings");
});
// The names Node 22's process.binding() accepts.
const NODE_BINDINGS = new Set(['async_wrap', 'buffer', 'cares_wrap', 'config', 'constants', 'contextify', 'crypto', 'fs',
  'fs_event_wrap', 'http_parser', 'icu', 'inspector', 'js_stream', 'natives', 'os', 'pipe_wrap', 'process_wrap',
  'signal_wrap', 'spawn_sync', 'stream_wrap', 'tcp_wrap', 'tls_wrap', 'tty_wrap', 'udp_wrap', 'url', 'util', 'uv', 'v8', 'zlib']);
for (const name of ['abort', 'dlopen', 'kill', '_linkedBinding', 'setuid', 'setgid', 'seteuid',
  'setegid', 'setgroups', 'initgroups']) {
  define(name, unsupported(name));
}
define('exit', (code) => {
  throw new Error(`process.exit(${code === undefined ? '' : code}) is not supported in a Function`);
});
define('reallyExit', proc.exit);
define('setUncaughtExceptionCaptureCallback', () => {});
define('hasUncaughtExceptionCaptureCallback', () => false);
define('setSourceMapsEnabled', () => {});

// What else Node's process has (Node 22's keys): what has a meaning in a
// Function works, the debugger and profiler hooks do nothing or throw.
define('_exiting', false);
define('_preload_modules', []);
define('moduleLoadList', []);
define('noProcessWarnings', false);
define('sourceMapsEnabled', false);
define('domain', null);
define('_getActiveHandles', () => []);
define('_getActiveRequests', () => []);
define('getActiveResourcesInfo', () => []);
define('_rawDebug', (...args) => console.error(...args));
// The event loop runs ticks itself.
define('_tickCallback', () => {});
define('_startProfilerIdleNotifier', () => {});
define('_stopProfilerIdleNotifier', () => {});
// An uncaught exception is the request's error: nothing handles it here.
define('_fatalException', () => false);
// The engine sets no limit of its own; the sandbox's memory limit is the node's.
define('constrainedMemory', () => 2 ** 64);
define('availableMemory', () => 2 ** 64);
define('threadCpuUsage', (prev) => proc.cpuUsage(prev));
define('assert', (value, message) => {
  if (!value) require('./assert.js')(value, message);
});
// Nothing ends a Function's process: registered callbacks never run, as
// with a process that never exits.
define('finalization', { register() {}, registerBeforeExit() {}, unregister() {} });
define('openStdin', () => proc.stdin);
define('ref', (maybeRefable) => {
  if (maybeRefable && typeof maybeRefable.ref === 'function') maybeRefable.ref();
});
define('unref', (maybeRefable) => {
  if (maybeRefable && typeof maybeRefable.unref === 'function') maybeRefable.unref();
});
define('getBuiltinModule', (id) => {
  if (typeof id !== 'string') throw require('./internal/errors.js').invalidArgType('id', 'string', id);
  try {
    return require('./internal/module-loader.js').loadBuiltin(id);
  } catch {
    return undefined;
  }
});
define('loadEnvFile', (path = '.env') => {
  const fs = require('shoal:bundled-builtins').fs;
  const text = fs ? fs.readFileSync(path, 'utf8') : null;
  if (text === null) {
    const { notImplemented } = require('./internal/unsupported.js');
    throw notImplemented('process.loadEnvFile()', 'it reads the file with fs: require node:fs in the Function');
  }
  for (const [key, value] of Object.entries(require('./internal/dotenv.js').parseEnv(text))) {
    if (!(key in proc.env)) proc.env[key] = value;
  }
});
define('report', {
  writeReport: () => {
    throw notAvailableHere('process.report.writeReport()');
  },
  getReport: () => ({ header: { nodejsVersion: proc.version, arch: proc.arch, platform: proc.platform }, javascriptStack: {}, libuv: [], environmentVariables: { ...proc.env } }),
  directory: '',
  filename: '',
  compact: false,
  excludeNetwork: false,
  signal: 'SIGUSR2',
  reportOnFatalError: false,
  reportOnSignal: false,
  reportOnUncaughtException: false,
  excludeEnv: false,
});
for (const name of ['_debugProcess', '_debugEnd', '_kill', 'execve']) {
  define(name, () => {
    throw notAvailableHere(`process.${name}()`);
  });
}
function notAvailableHere(call) {
  const { notImplemented } = require('./internal/unsupported.js');
  return notImplemented(call, 'a Function cannot debug, signal or replace its process');
}

// stdout/stderr: write() goes to the Function's log (console.log /
// console.error), one log line per text line; a partial line waits for
// the rest until the current job finishes. A Function's output is a pipe
// to the node, as a container's is: no terminal, so no columns or colors.
function makeStream(fd, log) {
  const stream = new EventEmitter();
  let pending = '';
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending !== '') {
      log(pending);
      pending = '';
    }
  };
  Object.assign(stream, {
    fd,
    isTTY: false,
    writable: true,
    _type: 'pipe',
    _isStdio: true,
    write(chunk, encoding, cb) {
      if (typeof encoding === 'function') {
        cb = encoding;
        encoding = undefined;
      }
      let text;
      if (typeof chunk === 'string') text = chunk;
      else if (chunk instanceof Uint8Array) {
        const { Buffer } = require('buffer');
        text = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString(encoding || 'utf8');
      } else {
        const { invalidArgType } = require('./internal/errors');
        throw invalidArgType('chunk', ['string', 'Buffer', 'Uint8Array'], chunk);
      }
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) log(line);
      if (pending !== '' && !scheduled) {
        scheduled = true;
        Promise.resolve().then(flush);
      }
      if (typeof cb === 'function') proc.nextTick(cb);
      return true;
    },
    end(chunk, encoding, cb) {
      if (typeof chunk === 'function') cb = chunk;
      else if (chunk !== undefined && chunk !== null) stream.write(chunk, encoding);
      flush();
      if (typeof cb === 'function') proc.nextTick(cb);
      return stream;
    },
    cork() {},
    uncork() {},
    setDefaultEncoding() {
      return stream;
    },
  });
  return stream;
}
define('stdout', makeStream(1, (line) => console.log(line)));
define('stderr', makeStream(2, (line) => console.error(line)));
if (!('stdin' in proc)) {
  const stdin = new EventEmitter();
  Object.assign(stdin, {
    fd: 0,
    isTTY: false,
    readable: false,
    read: () => null,
    setEncoding: () => stdin,
    resume: () => stdin,
    pause: () => stdin,
    setRawMode: () => stdin,
  });
  proc.stdin = stdin;
}

module.exports = proc;
