'use strict';
// node:readline/promises for Shoal Functions: the Interface of
// internal/readline/interface.js with question() returning a Promise, and
// Readline, which queues cursor moves for a stream until commit().
const { Interface: BaseInterface } = require('../internal/readline/interface.js');
const callbacks = require('../internal/readline/callbacks.js');
const { invalidArgType, outOfRange, abortError } = require('../internal/errors.js');

function validateSignal(signal) {
  if (signal === null || typeof signal !== 'object' || !('aborted' in signal)) {
    throw invalidArgType('options.signal', 'AbortSignal', signal);
  }
}

class Interface extends BaseInterface {
  question(query, options = {}) {
    return new Promise((resolve, reject) => {
      let cb = resolve;
      if (options && options.signal) {
        const { signal } = options;
        validateSignal(signal);
        if (signal.aborted) return reject(abortError(signal.reason));
        const onAbort = () => {
          this._questionCancel();
          reject(abortError(signal.reason));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        cb = (answer) => {
          signal.removeEventListener('abort', onAbort);
          resolve(answer);
        };
      }
      this._question(query, cb);
      return undefined;
    });
  }
}

function createInterface(input, output, completer, terminal) {
  return new Interface(input, output, completer, terminal);
}

function validateInteger(value, name, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER) {
  if (typeof value !== 'number') throw invalidArgType(name, 'number', value);
  if (!Number.isInteger(value)) throw outOfRange(name, 'an integer', value);
  if (value < min || value > max) throw outOfRange(name, `>= ${min} && <= ${max}`, value);
}

class Readline {
  #autoCommit = false;
  #stream;
  #todo = [];

  constructor(stream, options = undefined) {
    if (stream == null || typeof stream.write !== 'function') throw invalidArgType('stream', 'Writable', stream);
    this.#stream = stream;
    if (options && options.autoCommit != null) {
      if (typeof options.autoCommit !== 'boolean') throw invalidArgType('options.autoCommit', 'boolean', options.autoCommit);
      this.#autoCommit = options.autoCommit;
    }
  }

  #queue(data) {
    if (this.#autoCommit) process.nextTick(() => this.#stream.write(data));
    else this.#todo.push(data);
    return this;
  }

  cursorTo(x, y = undefined) {
    validateInteger(x, 'x');
    if (y != null) validateInteger(y, 'y');
    return this.#queue(y == null ? callbacks.CSI(`${x + 1}G`) : callbacks.CSI(`${y + 1};${x + 1}H`));
  }

  moveCursor(dx, dy) {
    if (!(dx || dy)) return this;
    validateInteger(dx, 'dx');
    validateInteger(dy, 'dy');
    return this.#queue(callbacks.moveCursorSequence(dx, dy));
  }

  clearLine(dir) {
    validateInteger(dir, 'dir', -1, 1);
    return this.#queue(dir < 0 ? callbacks.kClearToLineBeginning : dir > 0 ? callbacks.kClearToLineEnd : callbacks.kClearLine);
  }

  clearScreenDown() {
    return this.#queue(callbacks.kClearScreenDown);
  }

  commit() {
    return new Promise((resolve) => {
      this.#stream.write(this.#todo.join(''), resolve);
      this.#todo = [];
    });
  }

  rollback() {
    this.#todo = [];
    return this;
  }
}

module.exports = { Interface, Readline, createInterface };
