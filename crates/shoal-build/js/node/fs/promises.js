'use strict';
// node:fs/promises for Shoal Functions: the promise forms of node:fs's
// read-only file system (writes reject with EROFS).

const fs = require('fs');

const { writeApis, roError, uvError, fds, readFdSync, extras, nodeMajor } = fs._internal;

// Runs a sync fs function and settles a Promise with its outcome.
const wrap = (fn) => (...args) => new Promise((resolve) => resolve(fn(...args)));

class FileHandle {
  constructor(fd) {
    this.fd = fd;
  }
  readFile(options) {
    return wrap(() => {
      const opts = typeof options === 'string' ? { encoding: options } : options || {};
      const buf = readFdSync(this.fd, {});
      return opts.encoding ? buf.toString(opts.encoding) : buf;
    })();
  }
  read(buffer, offset, length, position) {
    return wrap(() => {
      if (buffer === undefined || (buffer !== null && !ArrayBuffer.isView(buffer) && typeof buffer === 'object')) {
        const opts = buffer || {};
        buffer = opts.buffer || require('buffer').Buffer.alloc(16384);
        ({ offset = 0, length = buffer.byteLength - offset, position = null } = opts);
      }
      const bytesRead = fs.readSync(this.fd, buffer, offset, length, position);
      return { bytesRead, buffer };
    })();
  }
  stat() {
    return wrap(() => fs.fstatSync(this.fd))();
  }
  close() {
    return wrap(() => {
      if (fds.has(this.fd)) fs.closeSync(this.fd);
    })();
  }
  createReadStream(options) {
    return fs.createReadStream(null, { ...options, fd: this.fd });
  }
  readLines() {
    const { notAvailable } = require('../internal/errors');
    throw notAvailable('filehandle.readLines()', 'read the file with readFile() and split it');
  }
  write() {
    return Promise.reject(uvError('EROFS', 'write'));
  }
  writeFile() {
    return Promise.reject(uvError('EROFS', 'write'));
  }
  appendFile() {
    return Promise.reject(uvError('EROFS', 'write'));
  }
  truncate() {
    return Promise.reject(uvError('EROFS', 'ftruncate'));
  }
  chmod() {
    return Promise.reject(uvError('EROFS', 'fchmod'));
  }
  sync() {
    return Promise.resolve();
  }
  datasync() {
    return Promise.resolve();
  }
}
if (typeof Symbol.asyncDispose === 'symbol') FileHandle.prototype[Symbol.asyncDispose] = FileHandle.prototype.close;

const promises = {
  constants: fs.constants,
  readFile: (path, options) => {
    if (path instanceof FileHandle) return path.readFile(options);
    return wrap(fs.readFileSync)(path, options);
  },
  stat: wrap(fs.statSync),
  lstat: wrap(fs.lstatSync),
  readdir: wrap(fs.readdirSync),
  access: wrap(fs.accessSync),
  realpath: wrap(fs.realpathSync),
  open: (path, flags, mode) => wrap(() => new FileHandle(fs.openSync(path, flags, mode)))(),
  FileHandle,
  opendir: (path, options) => wrap(extras.opendirSync)(path, options),
  readlink: wrap(extras.readlinkSync),
  statfs: wrap(extras.statfsSync),
  glob: extras.globAsync,
  watch: () => {
    const { notAvailable } = require('../internal/errors');
    throw notAvailable('fsPromises.watch()', 'the file system of a Function does not change');
  },
};
for (const [name, syscall] of Object.entries(writeApis)) {
  promises[name] = (path) => Promise.reject(roError(syscall, path));
}
if (nodeMajor() >= 24) promises.mkdtempDisposable = (prefix) => Promise.reject(roError('mkdtemp', `${prefix}XXXXXX`));

module.exports = promises;
