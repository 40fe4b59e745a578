'use strict';
// node:os for Shoal Functions. A Function runs in a WebAssembly sandbox,
// not on a host it can inspect: these are the values a small Linux
// container would report where that is harmless (EOL, platform, tmpdir,
// endianness), and honest placeholders elsewhere (arch 'wasm32', one CPU,
// no network interfaces).

const startedAt = Date.now();
const env = () => (typeof process !== 'undefined' && process.env) || {};

const constants = Object.freeze({
  UV_UDP_REUSEADDR: 4,
  dlopen: Object.freeze({ RTLD_LAZY: 1, RTLD_NOW: 2, RTLD_GLOBAL: 256, RTLD_LOCAL: 0, RTLD_DEEPBIND: 8 }),
  errno: Object.freeze({
    E2BIG: 7, EACCES: 13, EADDRINUSE: 98, EADDRNOTAVAIL: 99, EAGAIN: 11, EBADF: 9, EBUSY: 16, ECONNREFUSED: 111,
    ECONNRESET: 104, EEXIST: 17, EINTR: 4, EINVAL: 22, EIO: 5, EISDIR: 21, EMFILE: 24, ENOENT: 2, ENOMEM: 12,
    ENOSPC: 28, ENOSYS: 38, ENOTDIR: 20, ENOTEMPTY: 39, EPERM: 1, EPIPE: 32, EROFS: 30, ETIMEDOUT: 110,
  }),
  signals: Object.freeze({
    SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGILL: 4, SIGTRAP: 5, SIGABRT: 6, SIGIOT: 6, SIGBUS: 7, SIGFPE: 8,
    SIGKILL: 9, SIGUSR1: 10, SIGSEGV: 11, SIGUSR2: 12, SIGPIPE: 13, SIGALRM: 14, SIGTERM: 15, SIGCHLD: 17,
    SIGCONT: 18, SIGSTOP: 19, SIGTSTP: 20, SIGTTIN: 21, SIGTTOU: 22, SIGURG: 23, SIGXCPU: 24, SIGXFSZ: 25,
    SIGVTALRM: 26, SIGPROF: 27, SIGWINCH: 28, SIGIO: 29, SIGPOLL: 29, SIGPWR: 30, SIGSYS: 31,
  }),
  priority: Object.freeze({
    PRIORITY_LOW: 19, PRIORITY_BELOW_NORMAL: 10, PRIORITY_NORMAL: 0, PRIORITY_ABOVE_NORMAL: -7,
    PRIORITY_HIGH: -14, PRIORITY_HIGHEST: -20,
  }),
});

const GiB = 1024 * 1024 * 1024;

module.exports = {
  EOL: '\n',
  devNull: '/dev/null',
  constants,
  arch: () => 'wasm32',
  platform: () => 'linux',
  type: () => 'Linux',
  release: () => '6.1.0-shoal',
  version: () => '#1 SMP Shoal',
  machine: () => 'wasm32',
  endianness: () => 'LE',
  hostname: () => env().HOSTNAME || 'shoal',
  homedir: () => env().HOME || '/',
  tmpdir: () => {
    let path = env().TMPDIR || env().TMP || env().TEMP || '/tmp';
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    return path;
  },
  uptime: () => Math.floor((Date.now() - startedAt) / 1000),
  loadavg: () => [0, 0, 0],
  totalmem: () => 2 * GiB,
  freemem: () => 1 * GiB,
  availableParallelism: () => 1,
  cpus: () => [{ model: 'WebAssembly', speed: 0, times: { user: 0, nice: 0, sys: 0, idle: 0, irq: 0 } }],
  networkInterfaces: () => ({}),
  userInfo: (options) => {
    const asBuffer = options && options.encoding === 'buffer';
    const info = { uid: 1000, gid: 1000, username: env().USER || 'node', homedir: env().HOME || '/', shell: null };
    if (asBuffer) {
      const { Buffer } = require('buffer');
      info.username = Buffer.from(info.username);
      info.homedir = Buffer.from(info.homedir);
    }
    return info;
  },
  getPriority: () => 0,
  setPriority: () => {
    const { notAvailable } = require('./internal/errors');
    throw notAvailable('os.setPriority()');
  },
};
