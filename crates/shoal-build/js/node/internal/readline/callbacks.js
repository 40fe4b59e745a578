'use strict';
// readline's cursor functions: the ANSI escape sequences Node writes to a
// stream (lib/internal/readline/callbacks.js), for code that draws on a
// stream it was given.
const { nodeError, validateFunction } = require('../errors.js');
const { invalidArgValue } = require('../validators.js');

const CSI = (body) => `\x1b[${body}`;
const kClearToLineBeginning = CSI('1K');
const kClearToLineEnd = CSI('0K');
const kClearLine = CSI('2K');
const kClearScreenDown = CSI('0J');

// Nothing to write: the callback still runs, on the next tick.
function nothing(callback) {
  if (typeof callback === 'function') process.nextTick(callback, null);
  return true;
}

function cursorTo(stream, x, y, callback) {
  if (callback !== undefined) validateFunction(callback, 'callback');
  if (typeof y === 'function') {
    callback = y;
    y = undefined;
  }
  if (Number.isNaN(x)) throw invalidArgValue('x', x);
  if (Number.isNaN(y)) throw invalidArgValue('y', y);
  if (stream == null || (typeof x !== 'number' && typeof y !== 'number')) return nothing(callback);
  if (typeof x !== 'number') throw nodeError(TypeError, 'ERR_INVALID_CURSOR_POS', 'Cannot set cursor row without setting its column');
  return stream.write(typeof y !== 'number' ? CSI(`${x + 1}G`) : CSI(`${y + 1};${x + 1}H`), callback);
}

function moveCursorSequence(dx, dy) {
  let data = '';
  if (dx < 0) data += CSI(`${-dx}D`);
  else if (dx > 0) data += CSI(`${dx}C`);
  if (dy < 0) data += CSI(`${-dy}A`);
  else if (dy > 0) data += CSI(`${dy}B`);
  return data;
}

function moveCursor(stream, dx, dy, callback) {
  if (callback !== undefined) validateFunction(callback, 'callback');
  if (stream == null || !(dx || dy)) return nothing(callback);
  return stream.write(moveCursorSequence(dx, dy), callback);
}

function clearLine(stream, dir, callback) {
  if (callback !== undefined) validateFunction(callback, 'callback');
  if (stream == null) return nothing(callback);
  return stream.write(dir < 0 ? kClearToLineBeginning : dir > 0 ? kClearToLineEnd : kClearLine, callback);
}

function clearScreenDown(stream, callback) {
  if (callback !== undefined) validateFunction(callback, 'callback');
  if (stream == null) return nothing(callback);
  return stream.write(kClearScreenDown, callback);
}

module.exports = {
  clearLine,
  clearScreenDown,
  cursorTo,
  moveCursor,
  moveCursorSequence,
  CSI,
  kClearToLineBeginning,
  kClearToLineEnd,
  kClearLine,
  kClearScreenDown,
};
