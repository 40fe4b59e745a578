'use strict';
// node:fs for Shoal Functions. A Function sees a read-only file system
// (its Kyma secretMounts), reached through the engine's fsRead, fsStat and
// fsReaddir primitives. Reading APIs work as in Node.js (sync, callback and
// promise forms, read streams, read-only file descriptors); every API that
// would change the file system fails with an EROFS error.

const { Buffer } = require('buffer');
const pathModule = require('path');
const { invalidArgType, nodeError, notAvailable } = require('./internal/errors');
const engine = require('./internal/native');

const constants = Object.freeze({
  UV_FS_SYMLINK_DIR: 1, UV_FS_SYMLINK_JUNCTION: 2, O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2,
  UV_DIRENT_UNKNOWN: 0, UV_DIRENT_FILE: 1, UV_DIRENT_DIR: 2, UV_DIRENT_LINK: 3, UV_DIRENT_FIFO: 4,
  UV_DIRENT_SOCKET: 5, UV_DIRENT_CHAR: 6, UV_DIRENT_BLOCK: 7,
  S_IFMT: 61440, S_IFREG: 32768, S_IFDIR: 16384, S_IFCHR: 8192, S_IFBLK: 24576, S_IFIFO: 4096, S_IFLNK: 40960,
  S_IFSOCK: 49152, O_CREAT: 64, O_EXCL: 128, UV_FS_O_FILEMAP: 0, O_NOCTTY: 256, O_TRUNC: 512, O_APPEND: 1024,
  O_DIRECTORY: 65536, O_NOATIME: 262144, O_NOFOLLOW: 131072, O_SYNC: 1052672, O_DSYNC: 4096, O_DIRECT: 16384,
  O_NONBLOCK: 2048, S_IRWXU: 448, S_IRUSR: 256, S_IWUSR: 128, S_IXUSR: 64, S_IRWXG: 56, S_IRGRP: 32, S_IWGRP: 16,
  S_IXGRP: 8, S_IRWXO: 7, S_IROTH: 4, S_IWOTH: 2, S_IXOTH: 1, F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1,
  UV_FS_COPYFILE_EXCL: 1, COPYFILE_EXCL: 1, UV_FS_COPYFILE_FICLONE: 2, COPYFILE_FICLONE: 2,
  UV_FS_COPYFILE_FICLONE_FORCE: 4, COPYFILE_FICLONE_FORCE: 4,
});

const errnos = {
  EPERM: [-1, 'operation not permitted'],
  ENOENT: [-2, 'no such file or directory'],
  EBADF: [-9, 'bad file descriptor'],
  EACCES: [-13, 'permission denied'],
  EEXIST: [-17, 'file already exists'],
  ENOTDIR: [-20, 'not a directory'],
  EISDIR: [-21, 'illegal operation on a directory'],
  EINVAL: [-22, 'invalid argument'],
  EMFILE: [-24, 'too many open files'],
  EROFS: [-30, 'the filesystem is read-only in a Shoal Function'],
  ENOTEMPTY: [-39, 'directory not empty'],
  EIO: [-5, 'i/o error'],
};

// An Error shaped like Node's UVException.
function uvError(code, syscall, path, dest) {
  const [errno, desc] = errnos[code] || [-5, String(code).toLowerCase()];
  let message = `${code}: ${desc}, ${syscall}`;
  if (path !== undefined) message += ` '${path}'`;
  if (dest !== undefined) message += ` -> '${dest}'`;
  const err = new Error(message);
  err.errno = errno;
  err.code = code;
  err.syscall = syscall;
  if (path !== undefined) err.path = path;
  if (dest !== undefined) err.dest = dest;
  return err;
}

// The engine's file functions, behind the Function's own files.
function native() {
  engine.check('fsRead');
  return functionFilesOver(engine);
}

// The Function's own files (handler.js, package.json, a folder's or Git
// source's other files) and its packages' (package.json, data files),
// read-only where Kyma's pod has them, ahead of the engine's view of its
// secretMounts. An entry is the file's text, its bytes ({ b: base64 }), or
// for a package's code that the bundle holds as code, only its size
// (bundle.mjs, bundler/package-files.mjs).
let withFunctionFiles = null;
function functionFilesOver(n) {
  if (withFunctionFiles) return withFunctionFiles;
  const files = require('shoal:function-files');
  if (Object.keys(files).length === 0) return n;
  // Every folder on the way to a file, with its entries.
  const dirs = new Map();
  const enter = (dir, name) => {
    if (!dirs.has(dir)) dirs.set(dir, new Set());
    dirs.get(dir).add(name);
  };
  for (const file of Object.keys(files)) {
    let p = file;
    while (p.lastIndexOf('/') > 0) {
      const parent = p.slice(0, p.lastIndexOf('/'));
      enter(parent, p.slice(parent.length + 1));
      p = parent;
    }
    enter('/', p.slice(1));
  }
  const bytes = (f) => {
    const entry = files[f];
    if (typeof entry === 'string') return new TextEncoder().encode(entry);
    if (typeof entry.b === 'string') return Buffer.from(entry.b, 'base64');
    const { notImplemented } = require('./internal/unsupported.js');
    throw notImplemented(
      `reading ${f}`,
      "a package's JavaScript is bundled as code, not kept as a file (its data files, and code files it names in a string, are readable)",
    );
  };
  const size = (f) => (typeof files[f].size === 'number' ? files[f].size : bytes(f).length);
  withFunctionFiles = {
    fsRead(p) {
      if (Object.prototype.hasOwnProperty.call(files, p)) {
        const b = bytes(p);
        return b.buffer.byteLength === b.length ? b.buffer : b.slice().buffer;
      }
      if (dirs.has(p) && p !== '/') throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
      return n.fsRead(p);
    },
    fsStat(p) {
      if (Object.prototype.hasOwnProperty.call(files, p)) return [true, false, size(p), 0];
      if (dirs.has(p) && p !== '/') return [false, true, 0, 0];
      return n.fsStat(p);
    },
    fsReaddir(p) {
      // The root also holds the secretMounts' folders.
      if (p === '/') {
        let mounted = [];
        try {
          mounted = n.fsReaddir(p);
        } catch {
          // Nothing mounted.
        }
        return [...new Set([...dirs.get('/'), ...mounted])].sort();
      }
      if (dirs.has(p)) return [...dirs.get(p)].sort();
      return n.fsReaddir(p);
    },
  };
  return withFunctionFiles;
}

// Calls an engine primitive and rethrows its error the way Node words it
// for `syscall` and the path as the caller gave it.
function call(fn, syscall, shownPath, resolved) {
  try {
    return native()[fn](resolved);
  } catch (err) {
    if (err && (err.code === 'ERR_NOT_AVAILABLE_IN_SHOAL' || err.code === 'ERR_METHOD_NOT_IMPLEMENTED')) throw err;
    const code = err && typeof err.code === 'string' ? err.code : 'EIO';
    if (code === 'EISDIR' && syscall === 'open') throw uvError('EISDIR', 'read');
    throw uvError(code, syscall, shownPath);
  }
}

function fileURLToPath(url) {
  return require('url').fileURLToPath(url);
}

// Accepts a string, Buffer or file: URL; returns [as given, absolute].
function getPath(path, name = 'path') {
  let p;
  if (typeof path === 'string') p = path;
  else if (path instanceof Uint8Array) p = Buffer.from(path.buffer, path.byteOffset, path.byteLength).toString();
  else if (path !== null && typeof path === 'object' && typeof path.href === 'string' && typeof path.protocol === 'string') {
    p = fileURLToPath(path);
  } else {
    throw invalidArgType(name, ['string', 'Buffer', 'URL'], path);
  }
  if (p.includes('\u0000')) {
    throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument '${name}' must be a string, Uint8Array, or URL without null bytes. Received ${JSON.stringify(p)}`);
  }
  return [p, pathModule.resolve('/', p)];
}

function getOptions(options, defaults) {
  if (options === undefined || options === null || typeof options === 'function') return { ...defaults };
  if (typeof options === 'string') return { ...defaults, encoding: options };
  if (typeof options !== 'object') throw invalidArgType('options', ['string', 'Object'], options);
  return { ...defaults, ...options };
}

function checkEncoding(encoding) {
  if (encoding && encoding !== 'buffer' && !Buffer.isEncoding(encoding)) {
    throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument 'encoding' is invalid encoding. Received '${encoding}'`);
  }
}

function isWriteFlag(flag) {
  return typeof flag === 'string' ? /[wa+]/.test(flag) : typeof flag === 'number' && (flag & 3) !== 0;
}

// ---------------------------------------------------------------- Stats

const kStat = Symbol('stat');

class Stats {
  constructor(isFile, isDirectory, size, mtimeMs) {
    Object.defineProperty(this, kStat, { value: { isFile: !!isFile, isDirectory: !!isDirectory } });
    this.dev = 2049;
    this.mode = isDirectory ? 0o40555 : 0o100444;
    this.nlink = 1;
    this.uid = 0;
    this.gid = 0;
    this.rdev = 0;
    this.blksize = 4096;
    this.ino = 0;
    this.size = size;
    this.blocks = Math.ceil(size / 512);
    this.atimeMs = mtimeMs;
    this.mtimeMs = mtimeMs;
    this.ctimeMs = mtimeMs;
    this.birthtimeMs = mtimeMs;
    this.atime = new Date(mtimeMs);
    this.mtime = new Date(mtimeMs);
    this.ctime = new Date(mtimeMs);
    this.birthtime = new Date(mtimeMs);
  }
  isFile() { return this[kStat].isFile; }
  isDirectory() { return this[kStat].isDirectory; }
  isSymbolicLink() { return false; }
  isBlockDevice() { return false; }
  isCharacterDevice() { return false; }
  isFIFO() { return false; }
  isSocket() { return false; }
}

class Dirent {
  constructor(name, parentPath, isFile, isDirectory) {
    this.name = name;
    this.parentPath = parentPath;
    this.path = parentPath;
    Object.defineProperty(this, kStat, { value: { isFile, isDirectory } });
  }
  isFile() { return this[kStat].isFile; }
  isDirectory() { return this[kStat].isDirectory; }
  isSymbolicLink() { return false; }
  isBlockDevice() { return false; }
  isCharacterDevice() { return false; }
  isFIFO() { return false; }
  isSocket() { return false; }
}

function statRaw(shown, resolved, syscall = 'stat') {
  const [isFile, isDirectory, size, mtimeMs] = call('fsStat', syscall, shown, resolved);
  return new Stats(isFile, isDirectory, size, mtimeMs);
}

// ---------------------------------------------------------------- sync API

function readFileSync(path, options) {
  const opts = getOptions(options, { encoding: null, flag: 'r' });
  checkEncoding(opts.encoding);
  if (typeof path === 'number') return readFdSync(path, opts);
  const [shown, resolved] = getPath(path);
  if (isWriteFlag(opts.flag)) throw uvError('EROFS', 'open', shown);
  const buf = Buffer.from(call('fsRead', 'open', shown, resolved));
  return opts.encoding && opts.encoding !== 'buffer' ? buf.toString(opts.encoding) : buf;
}

function existsSync(path) {
  try {
    const [, resolved] = getPath(path);
    native().fsStat(resolved);
    return true;
  } catch {
    return false;
  }
}

// There are no symlinks in a Function's mounts: lstat is stat.
function statWith(syscall, path, options) {
  const opts = getOptions(options, { throwIfNoEntry: true });
  const [shown, resolved] = getPath(path);
  try {
    return statRaw(shown, resolved, syscall);
  } catch (err) {
    if (err.code === 'ENOENT' && opts.throwIfNoEntry === false) return undefined;
    throw err;
  }
}

function statSync(path, options) {
  return statWith('stat', path, options);
}

function lstatSync(path, options) {
  return statWith('lstat', path, options);
}

function readdirSync(path, options) {
  const opts = getOptions(options, { encoding: 'utf8', withFileTypes: false, recursive: false });
  const [shown, resolved] = getPath(path);
  const out = [];
  const walk = (dir, prefix) => {
    const names = call('fsReaddir', 'scandir', dir === resolved ? shown : dir, dir);
    for (const name of names) {
      const full = pathModule.join(dir, name);
      let st = null;
      if (opts.withFileTypes || opts.recursive) {
        try {
          st = native().fsStat(full);
        } catch {
          st = [0, 0, 0, 0];
        }
      }
      if (opts.withFileTypes) {
        const parent = prefix ? pathModule.join(shown, prefix) : shown;
        out.push(new Dirent(name, parent, !!st[0], !!st[1]));
      } else {
        const rel = prefix ? `${prefix}/${name}` : name;
        out.push(opts.encoding === 'buffer' ? Buffer.from(rel) : rel);
      }
      if (opts.recursive && st[1]) walk(full, prefix ? `${prefix}/${name}` : name);
    }
  };
  walk(resolved, '');
  return out;
}

function accessSync(path, mode = constants.F_OK) {
  const [shown, resolved] = getPath(path);
  if (typeof mode !== 'number') throw invalidArgType('mode', 'integer', mode);
  const st = statRaw(shown, resolved, 'access');
  if (mode & constants.W_OK) throw uvError('EROFS', 'access', shown);
  if (mode & constants.X_OK && !st.isDirectory()) throw uvError('EACCES', 'access', shown);
}

function realpathSync(path, options) {
  const opts = getOptions(options, { encoding: 'utf8' });
  const [shown, resolved] = getPath(path);
  statRaw(shown, resolved, 'lstat');
  return opts.encoding === 'buffer' ? Buffer.from(resolved) : resolved;
}
realpathSync.native = realpathSync;

// Read-only file descriptors: the file's bytes are read once at open time.
const fds = new Map();
let nextFd = 3;

function openSync(path, flags = 'r') {
  const [shown, resolved] = getPath(path);
  if (isWriteFlag(flags)) throw uvError('EROFS', 'open', shown);
  const st = statRaw(shown, resolved, 'open');
  const data = st.isDirectory() ? Buffer.alloc(0) : Buffer.from(call('fsRead', 'open', shown, resolved));
  const fd = nextFd++;
  fds.set(fd, { data, position: 0, stat: st, path: resolved });
  return fd;
}

function getFd(fd, syscall) {
  if (typeof fd !== 'number') throw invalidArgType('fd', 'number', fd);
  const f = fds.get(fd);
  if (!f) throw uvError('EBADF', syscall);
  return f;
}

function closeSync(fd) {
  getFd(fd, 'close');
  fds.delete(fd);
}

function fstatSync(fd) {
  return getFd(fd, 'fstat').stat;
}

function readSync(fd, buffer, offsetOrOptions, length, position) {
  const f = getFd(fd, 'read');
  if (!ArrayBuffer.isView(buffer)) throw invalidArgType('buffer', ['Buffer', 'TypedArray', 'DataView'], buffer);
  let offset = offsetOrOptions;
  if (offset !== null && typeof offset === 'object') ({ offset = 0, length = buffer.byteLength - offset, position = null } = offset);
  if (offset === undefined) offset = 0;
  if (length === undefined) length = buffer.byteLength - offset;
  const target = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const from = typeof position === 'number' && position >= 0 ? position : typeof position === 'bigint' ? Number(position) : f.position;
  const n = Math.max(0, Math.min(length, f.data.length - from, target.length - offset));
  target.set(f.data.subarray(from, from + n), offset);
  if (!(typeof position === 'number' && position >= 0) && typeof position !== 'bigint') f.position += n;
  return n;
}

function readFdSync(fd, opts) {
  const f = getFd(fd, 'read');
  const data = f.data.subarray(f.position);
  f.position = f.data.length;
  const buf = Buffer.from(data);
  return opts.encoding && opts.encoding !== 'buffer' ? buf.toString(opts.encoding) : buf;
}

// ---------------------------------------------------------------- EROFS

const writeApis = {
  writeFile: 'open', appendFile: 'open', mkdir: 'mkdir', mkdtemp: 'mkdtemp', rm: 'rm', rmdir: 'rmdir',
  unlink: 'unlink', rename: 'rename', copyFile: 'copyfile', cp: 'cp', symlink: 'symlink', link: 'link',
  chmod: 'chmod', lchmod: 'lchmod', chown: 'chown', lchown: 'lchown', utimes: 'utime', lutimes: 'lutime',
  truncate: 'open',
};
const fdWriteApis = { write: 'write', writev: 'writev', ftruncate: 'ftruncate', fchmod: 'fchmod', fchown: 'fchown', futimes: 'futime', fsync: 'fsync', fdatasync: 'fdatasync' };

function roError(syscall, path) {
  let shown;
  try {
    shown = path === undefined ? undefined : getPath(path)[0];
  } catch {
    shown = String(path);
  }
  return uvError('EROFS', syscall, shown);
}

// ---------------------------------------------------------------- callbacks

function lastCallback(args) {
  const cb = args[args.length - 1];
  if (typeof cb !== 'function') throw invalidArgType('cb', 'function', cb);
  return cb;
}

// Runs `fn` now and reports through the callback on the next tick, as
// Node's callback APIs never call back synchronously.
function callbackify(fn) {
  return function (...args) {
    const cb = lastCallback(args);
    const rest = args.slice(0, -1);
    let result;
    let error = null;
    try {
      result = fn(...rest);
    } catch (err) {
      if (err && err.code && err.code.startsWith('ERR_INVALID_ARG')) throw err;
      error = err;
    }
    process.nextTick(() => (error ? cb(error) : cb(null, result)));
  };
}

const fs = {
  constants,
  Stats,
  Dirent,
  readFileSync,
  existsSync,
  statSync,
  lstatSync,
  readdirSync,
  accessSync,
  realpathSync,
  openSync,
  closeSync,
  fstatSync,
  readSync,
  readFile: callbackify(readFileSync),
  stat: callbackify(statSync),
  lstat: callbackify(lstatSync),
  readdir: callbackify(readdirSync),
  access: callbackify(accessSync),
  realpath: callbackify(realpathSync),
  open: callbackify(openSync),
  close: callbackify(closeSync),
  fstat: callbackify(fstatSync),
  exists(path, cb) {
    const ok = existsSync(path);
    process.nextTick(() => cb(ok));
  },
  read(fd, buffer, offset, length, position, cb) {
    const args = [fd, buffer, offset, length, position, cb].filter((a) => a !== undefined);
    const callback = lastCallback(args);
    let n;
    let error = null;
    try {
      n = readSync(...args.slice(0, -1));
    } catch (err) {
      error = err;
    }
    process.nextTick(() => (error ? callback(error) : callback(null, n, buffer)));
  },
  createReadStream,
  createWriteStream(path) {
    throw roError('open', path);
  },
  watch() {
    throw notAvailable('fs.watch()', 'the file system of a Function does not change');
  },
  watchFile() {
    throw notAvailable('fs.watchFile()', 'the file system of a Function does not change');
  },
  unwatchFile() {},
};
fs.realpath.native = fs.realpath;

// The Node line of the Function's runtime (process.version), where fs's
// exports differ.
const nodeMajor = () => Number.parseInt(String(process.version).slice(1), 10) || 24;

// fs.F_OK and friends: plain constants in Node 22, deprecated (DEP0176)
// and not enumerable in Node 24, gone in Node 26.
{
  const major = nodeMajor();
  let warned = false;
  for (const [name, value] of [['F_OK', 0], ['R_OK', 4], ['W_OK', 2], ['X_OK', 1]]) {
    if (major < 24) {
      Object.defineProperty(fs, name, { value, writable: false, enumerable: true, configurable: false });
    } else if (major < 26) {
      Object.defineProperty(fs, name, {
        get() {
          if (!warned) {
            warned = true;
            process.emitWarning(`fs.${name} is deprecated, use fs.constants.${name} instead`, 'DeprecationWarning', 'DEP0176');
          }
          return value;
        },
        enumerable: false,
        configurable: false,
      });
    }
  }
}

for (const [name, syscall] of Object.entries(writeApis)) {
  fs[`${name}Sync`] = (path) => {
    throw roError(syscall, path);
  };
  fs[name] = (path, ...rest) => {
    const cb = lastCallback(rest.length ? rest : [undefined]);
    const err = roError(syscall, path);
    process.nextTick(() => cb(err));
  };
}
for (const [name, syscall] of Object.entries(fdWriteApis)) {
  fs[`${name}Sync`] = () => {
    throw uvError('EROFS', syscall);
  };
  fs[name] = (...args) => {
    const cb = lastCallback(args);
    process.nextTick(() => cb(uvError('EROFS', syscall)));
  };
}
// fs.openSync with a write flag fails inside openSync itself.

// ---------------------------------------------------------------- streams

function createReadStream(path, options) {
  const opts = getOptions(options, { encoding: null, start: 0, end: Infinity, highWaterMark: 64 * 1024 });
  const { Readable } = require('stream');
  const shownPath = typeof path === 'string' ? path : undefined;
  let data = null;
  const stream = new Readable({
    highWaterMark: opts.highWaterMark,
    encoding: opts.encoding || undefined,
    read() {
      if (data === null) {
        try {
          data = opts.fd !== undefined ? readFdSync(opts.fd, {}) : readFileSync(path);
          const end = opts.end === Infinity ? data.length : Math.min(data.length, opts.end + 1);
          data = data.subarray(opts.start || 0, end);
        } catch (err) {
          this.destroy(err);
          return;
        }
      }
      if (stream.bytesRead >= data.length) {
        this.push(null);
        return;
      }
      const chunk = data.subarray(stream.bytesRead, stream.bytesRead + opts.highWaterMark);
      stream.bytesRead += chunk.length;
      this.push(chunk);
    },
  });
  stream.path = shownPath !== undefined ? shownPath : path;
  stream.bytesRead = 0;
  stream.pending = false;
  stream.fd = null;
  process.nextTick(() => {
    stream.emit('open', 3);
    stream.emit('ready');
  });
  stream.close = (cb) => {
    stream.destroy();
    if (typeof cb === 'function') process.nextTick(cb);
  };
  return stream;
}

fs.ReadStream = function ReadStream(path, options) {
  return createReadStream(path, options);
};
fs.WriteStream = function WriteStream(path) {
  throw roError('open', path);
};

const extras = require('./internal/fs/extra.js')(fs, { getPath, uvError, roError, getFd, statRaw, nodeMajor });

Object.defineProperty(fs, 'promises', {
  enumerable: true,
  configurable: true,
  get: () => require('fs/promises'),
});

// Shared with fs/promises.
Object.defineProperty(fs, '_internal', {
  value: { getPath, uvError, roError, writeApis, fds, readFdSync, getFd, extras, nodeMajor },
  enumerable: false,
});

module.exports = fs;
