'use strict';
// node:tty for Shoal Functions: a Function's output is a log, never a
// terminal (debug and chalk ask). isatty() is false for every descriptor,
// and making a ReadStream or WriteStream fails as Node's does on a
// descriptor that is not a terminal. What a WriteStream answers from the
// environment alone (getColorDepth, hasColors: color libraries ask its
// prototype while loading) is Node's answer.
const net = require('./net.js');
const { withCode } = require('./internal/errors.js');
const { notImplemented } = require('./internal/unsupported.js');
const { getColorDepth, hasColors } = require('./internal/tty/color-depth.js');

function ttyInitFailed() {
  const err = new Error('TTY initialization failed: uv_tty_init returned EINVAL (invalid argument)');
  err.name = 'SystemError';
  err.errno = -22;
  err.syscall = 'uv_tty_init';
  return withCode(err, 'ERR_TTY_INIT_FAILED');
}

function terminalOnly(Class, label, names) {
  for (const name of names) {
    Object.defineProperty(Class.prototype, name, {
      value() {
        throw notImplemented(`tty.${label}#${name}()`, 'a Function has no terminal');
      },
      writable: true,
      configurable: true,
    });
  }
}

class ReadStream extends net.Socket {
  constructor() {
    throw ttyInitFailed();
  }
}
terminalOnly(ReadStream, 'ReadStream', ['setRawMode']);

class WriteStream extends net.Socket {
  constructor() {
    throw ttyInitFailed();
  }
}
terminalOnly(WriteStream, 'WriteStream', ['_refreshSize', 'clearLine', 'clearScreenDown', 'cursorTo', 'getWindowSize', 'moveCursor']);
for (const [name, fn] of [['getColorDepth', getColorDepth], ['hasColors', hasColors]]) {
  Object.defineProperty(WriteStream.prototype, name, { value: fn, writable: true, configurable: true });
}
WriteStream.prototype.isTTY = true;

module.exports = {
  isatty: () => false,
  ReadStream,
  WriteStream,
};
