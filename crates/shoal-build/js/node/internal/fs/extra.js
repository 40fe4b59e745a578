'use strict';
// The rest of node:fs's reading API over a Function's read-only files:
// directories as Dir streams (opendir), glob, readlink (there are no
// links), statfs, openAsBlob, readv, and the Node 24 additions (Utf8Stream,
// mkdtempDisposable). fs.js hands in its primitives.
const pathModule = require('../../path.js');
const { invalidArgType } = require('../errors.js');

module.exports = function addExtras(fs, { getPath, uvError, roError, getFd, statRaw, nodeMajor }) {
  const { Buffer } = require('../../buffer.js');
  const lastCallback = (args) => {
    const cb = args[args.length - 1];
    if (typeof cb !== 'function') throw invalidArgType('cb', 'function', cb);
    return cb;
  };
  const later = (cb, fn) => {
    let result;
    let error = null;
    try {
      result = fn();
    } catch (err) {
      if (err && typeof err.code === 'string' && err.code.startsWith('ERR_INVALID_ARG')) throw err;
      error = err;
    }
    process.nextTick(() => (error ? cb(error) : cb(null, result)));
  };

  // ---------------------------------------------------------------- Dir

  const kEntries = Symbol('kDirEntries');
  const kClosed = Symbol('kDirClosed');
  class Dir {
    constructor(path, entries) {
      Object.defineProperty(this, kEntries, { value: entries, writable: true });
      Object.defineProperty(this, kClosed, { value: false, writable: true });
      Object.defineProperty(this, '_path', { value: path, writable: true });
    }
    get path() {
      return this._path;
    }
    #check() {
      if (this[kClosed]) {
        const err = new Error('Directory handle was closed');
        err.code = 'ERR_DIR_CLOSED';
        throw err;
      }
    }
    readSync() {
      this.#check();
      return this[kEntries].shift() || null;
    }
    read(cb) {
      if (cb === undefined) return new Promise((resolve, reject) => this.read((err, entry) => (err ? reject(err) : resolve(entry))));
      if (typeof cb !== 'function') throw invalidArgType('callback', 'function', cb);
      later(cb, () => this.readSync());
      return undefined;
    }
    closeSync() {
      this.#check();
      this[kClosed] = true;
    }
    close(cb) {
      if (cb === undefined) return new Promise((resolve, reject) => this.close((err) => (err ? reject(err) : resolve())));
      if (typeof cb !== 'function') throw invalidArgType('callback', 'function', cb);
      later(cb, () => this.closeSync());
      return undefined;
    }
    async *entries() {
      try {
        for (;;) {
          const entry = this.readSync();
          if (entry === null) break;
          yield entry;
        }
      } finally {
        if (!this[kClosed]) this.closeSync();
      }
    }
    [Symbol.asyncIterator]() {
      return this.entries();
    }
  }
  if (typeof Symbol.dispose === 'symbol') {
    Dir.prototype[Symbol.dispose] = function dispose() {
      if (!this[kClosed]) this.closeSync();
    };
  }
  if (typeof Symbol.asyncDispose === 'symbol') {
    Dir.prototype[Symbol.asyncDispose] = async function asyncDispose() {
      if (!this[kClosed]) this.closeSync();
    };
  }

  function opendirSync(path, options) {
    const [shown] = getPath(path);
    const recursive = Boolean(options && typeof options === 'object' && options.recursive);
    const entries = fs.readdirSync(path, { withFileTypes: true, recursive });
    return new Dir(shown, entries);
  }
  function opendir(path, options, cb) {
    if (typeof options === 'function') {
      cb = options;
      options = undefined;
    }
    later(lastCallback([cb]), () => opendirSync(path, options));
  }

  // ---------------------------------------------------------------- glob

  // {a,b} alternatives, expanded first (as minimatch does).
  function expandBraces(pattern) {
    const open = pattern.indexOf('{');
    if (open < 0) return [pattern];
    let depth = 0;
    const commas = [];
    for (let i = open; i < pattern.length; i++) {
      const c = pattern[i];
      if (c === '\\') i++;
      else if (c === '{') depth++;
      else if (c === ',' && depth === 1) commas.push(i);
      else if (c === '}' && --depth === 0) {
        if (commas.length === 0) return expandBraces(pattern.slice(0, open) + '\\{' + pattern.slice(open + 1)).map((p) => p.replace('\\{', '{'));
        const parts = [];
        let from = open + 1;
        for (const comma of [...commas, i]) {
          parts.push(pattern.slice(from, comma));
          from = comma + 1;
        }
        const rest = pattern.slice(i + 1);
        return parts.flatMap((part) => expandBraces(pattern.slice(0, open) + part + rest));
      }
    }
    return [pattern];
  }

  // One path segment's pattern (*, ?, [...]); dotfiles match only a leading dot.
  function segmentMatcher(segment) {
    if (!/[*?[\\]/.test(segment)) return (name) => name === segment;
    let source = '';
    for (let i = 0; i < segment.length; i++) {
      const c = segment[i];
      if (c === '\\' && i + 1 < segment.length) source += `\\${segment[++i]}`;
      else if (c === '*') source += '[^/]*';
      else if (c === '?') source += '[^/]';
      else if (c === '[') {
        const close = segment.indexOf(']', i + 2);
        if (close < 0) source += '\\[';
        else {
          let body = segment.slice(i + 1, close);
          if (body[0] === '!') body = `^${body.slice(1)}`;
          source += `[${body.replace(/\\/g, '\\\\')}]`;
          i = close;
        }
      } else source += c.replace(/[.+^${}()|\]\\/]/g, '\\$&');
    }
    const re = new RegExp(`^${source}$`);
    return (name) => (name[0] !== '.' || segment[0] === '.') && re.test(name);
  }

  // `excludeDir(name)`: a directory not to go into (options.exclude as a
  // function, which Node asks about directories only); `exclude(name)`: a
  // result to leave out (options.exclude as patterns).
  function globOne(pattern, cwd, exclude, seen, out, excludeDir = () => false) {
    const absolute = pattern.startsWith('/');
    const segments = pattern.split('/').filter((s, i) => s !== '' || i === 0).filter((s) => s !== '');
    const base = absolute ? '/' : cwd;
    const shown = (rel) => (absolute ? `/${rel}` : rel === '' ? '.' : rel);
    const isDir = (p) => {
      try {
        return statRaw(p, p).isDirectory();
      } catch {
        return false;
      }
    };
    const list = (p) => {
      try {
        return fs.readdirSync(p);
      } catch {
        return [];
      }
    };
    const emit = (rel) => {
      const name = shown(rel);
      if (seen.has(name) || exclude(name)) return;
      seen.add(name);
      out.push(name);
    };
    const walk = (rel, index) => {
      const dir = pathModule.join(base, rel);
      if (index === segments.length) {
        emit(rel);
        return;
      }
      const segment = segments[index];
      if (segment === '**') {
        walk(rel, index + 1);
        for (const name of list(dir)) {
          if (name[0] === '.') continue;
          const child = rel ? `${rel}/${name}` : name;
          if (isDir(pathModule.join(base, child))) {
            if (!excludeDir(shown(child))) walk(child, index);
          } else if (index + 1 === segments.length) emit(child);
        }
        return;
      }
      if (segment === '.' || segment === '..') {
        walk(rel ? `${rel}/${segment}` : segment, index + 1);
        return;
      }
      const match = segmentMatcher(segment);
      for (const name of list(dir)) {
        if (!match(name)) continue;
        const child = rel ? `${rel}/${name}` : name;
        if (index + 1 < segments.length && (!isDir(pathModule.join(base, child)) || excludeDir(shown(child)))) continue;
        walk(child, index + 1);
      }
    };
    walk('', 0);
  }

  function globSync(pattern, options = {}) {
    const patterns = Array.isArray(pattern) ? pattern : [pattern];
    for (const p of patterns) if (typeof p !== 'string') throw invalidArgType('pattern', ['string', 'string[]'], pattern);
    if (options === null || typeof options !== 'object') throw invalidArgType('options', 'Object', options);
    const cwd = options.cwd === undefined ? process.cwd() : getPath(options.cwd, 'options.cwd')[1];
    let exclude = () => false;
    let excludeDir = () => false;
    if (typeof options.exclude === 'function') excludeDir = (name) => Boolean(options.exclude(name));
    else if (Array.isArray(options.exclude)) {
      const excluded = new Set();
      for (const p of options.exclude) for (const x of expandBraces(p)) globOne(x, cwd, () => false, excluded, []);
      exclude = (name) => excluded.has(name);
    }
    const seen = new Set();
    const out = [];
    for (const p of patterns) for (const expanded of expandBraces(p)) globOne(expanded, cwd, exclude, seen, out, excludeDir);
    if (!options.withFileTypes) return out;
    return out.map((name) => {
      const full = pathModule.resolve(cwd, name);
      const st = statRaw(full, full);
      return new fs.Dirent(pathModule.basename(full), pathModule.dirname(full), st.isFile(), st.isDirectory());
    });
  }
  function glob(pattern, options, cb) {
    if (typeof options === 'function') {
      cb = options;
      options = undefined;
    }
    later(lastCallback([cb]), () => globSync(pattern, options));
  }
  async function* globAsync(pattern, options) {
    for (const entry of globSync(pattern, options)) yield entry;
  }

  // ---------------------------------------------------------------- links, statfs

  // A Function's files are never symbolic links: EINVAL, as on a file.
  function readlinkSync(path) {
    const [shown, resolved] = getPath(path);
    statRaw(shown, resolved, 'readlink');
    throw uvError('EINVAL', 'readlink', shown);
  }

  class StatFs {
    constructor(type, bsize, blocks, bfree, bavail, files, ffree) {
      Object.assign(this, { type, bsize, blocks, bfree, bavail, files, ffree });
    }
  }
  // A read-only file system with no free space (tmpfs's magic number).
  function statfsSync(path, options) {
    const [shown, resolved] = getPath(path);
    statRaw(shown, resolved, 'statfs');
    const big = options && options.bigint;
    const n = (v) => (big ? BigInt(v) : v);
    return new StatFs(n(0x01021994), n(4096), n(0), n(0), n(0), n(0), n(0));
  }

  // ---------------------------------------------------------------- blobs, readv, times

  function openAsBlob(path, options = {}) {
    if (options === null || typeof options !== 'object') throw invalidArgType('options', 'Object', options);
    const { Blob } = require('../blob.js');
    const bytes = fs.readFileSync(path);
    return Promise.resolve(new Blob([bytes], { type: options.type === undefined ? '' : String(options.type) }));
  }

  function readvSync(fd, buffers, position) {
    getFd(fd, 'read');
    if (!Array.isArray(buffers)) throw invalidArgType('buffers', 'ArrayBufferView[]', buffers);
    let total = 0;
    let at = typeof position === 'number' && position >= 0 ? position : null;
    for (const buffer of buffers) {
      const n = fs.readSync(fd, buffer, 0, buffer.byteLength, at);
      total += n;
      if (at !== null) at += n;
      if (n < buffer.byteLength) break;
    }
    return total;
  }
  function readv(fd, buffers, position, cb) {
    if (typeof position === 'function') {
      cb = position;
      position = null;
    }
    const callback = lastCallback([cb]);
    let n;
    let error = null;
    try {
      n = readvSync(fd, buffers, position);
    } catch (err) {
      error = err;
    }
    process.nextTick(() => (error ? callback(error) : callback(null, n, buffers)));
  }

  function toUnixTimestamp(time, name = 'time') {
    // eslint-disable-next-line eqeqeq
    if (typeof time === 'string' && +time == time) return +time;
    if (Number.isFinite(time)) return time < 0 ? Date.now() / 1000 : time;
    if (time instanceof Date) return time.getTime() / 1000;
    throw invalidArgType(name, ['Date', 'Time in seconds'], time);
  }

  Object.assign(fs, {
    Dir,
    opendir,
    opendirSync,
    glob,
    globSync,
    readlink: (path, options, cb) => later(lastCallback([options, cb].filter((a) => a !== undefined)), () => readlinkSync(path)),
    readlinkSync,
    statfs: (path, options, cb) => {
      if (typeof options === 'function') {
        cb = options;
        options = undefined;
      }
      later(lastCallback([cb]), () => statfsSync(path, options));
    },
    statfsSync,
    openAsBlob,
    readv,
    readvSync,
    _toUnixTimestamp: toUnixTimestamp,
    FileReadStream: fs.ReadStream,
    FileWriteStream: fs.WriteStream,
  });

  // Node 24's additions.
  if (nodeMajor() >= 24) {
    fs.mkdtempDisposableSync = (prefix) => {
      throw roError('mkdtemp', `${prefix}XXXXXX`);
    };
    fs.Utf8Stream = class Utf8Stream extends require('../../events.js') {
      constructor(options = {}) {
        super();
        if (options.dest !== undefined && options.fd === undefined) throw roError('open', options.dest);
        const stream = options.fd === 2 || options.fd === '2' ? process.stderr : options.fd === 1 || options.fd === '1' ? process.stdout : null;
        if (!stream) throw uvError('EBADF', 'write');
        this.fd = Number(options.fd);
        this.file = null;
        this.append = true;
        this.mode = undefined;
        this.sync = Boolean(options.sync);
        this.minLength = options.minLength || 0;
        this.maxLength = options.maxLength || 0;
        this.contentMode = options.contentMode || 'utf8';
        this.mkdir = false;
        this.periodicFlush = options.periodicFlush || 0;
        this.writing = false;
        this.fsync = false;
        Object.defineProperty(this, '_stream', { value: stream });
        process.nextTick(() => this.emit('ready'));
      }
      write(data) {
        this._stream.write(typeof data === 'string' ? data : Buffer.from(data));
        return true;
      }
      flush(cb) {
        if (typeof cb === 'function') process.nextTick(cb);
      }
      flushSync() {}
      fsyncSync() {}
      reopen() {}
      end() {
        process.nextTick(() => {
          this.emit('finish');
          this.emit('close');
        });
      }
      destroy() {
        process.nextTick(() => this.emit('close'));
      }
    };
  }

  return { Dir, opendirSync, globSync, globAsync, readlinkSync, statfsSync };
};
