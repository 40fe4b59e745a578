'use strict';
// node:readline for Shoal Functions: Interface reads lines from a
// Readable (internal/readline/interface.js); question() takes a callback
// (readline/promises has the Promise form); the cursor functions write
// Node's escape sequences. Keypress events come from a terminal, which a
// Function does not have.
const { Interface: BaseInterface, NO_TERMINAL } = require('./internal/readline/interface.js');
const { clearLine, clearScreenDown, cursorTo, moveCursor } = require('./internal/readline/callbacks.js');
const { invalidArgType, abortError } = require('./internal/errors.js');
const { notImplemented } = require('./internal/unsupported.js');
const promises = require('./readline/promises.js');

// Callable without `new`, as Node's is.
function Interface(input, output, completer, terminal) {
  if (!(this instanceof Interface)) return new Interface(input, output, completer, terminal);
  return Reflect.construct(BaseInterface, [input, output, completer, terminal], new.target || Interface);
}
Object.setPrototypeOf(Interface.prototype, BaseInterface.prototype);
Object.setPrototypeOf(Interface, BaseInterface);

Interface.prototype.question = function question(query, options, cb) {
  cb = typeof options === 'function' ? options : cb;
  if (options === null || typeof options !== 'object') options = {};
  if (options.signal) {
    const { signal } = options;
    if (typeof signal !== 'object' || !('aborted' in signal)) throw invalidArgType('options.signal', 'AbortSignal', signal);
    if (signal.aborted) return;
    const onAbort = () => this._questionCancel();
    signal.addEventListener('abort', onAbort, { once: true });
    const original = cb;
    cb = (answer) => {
      signal.removeEventListener('abort', onAbort);
      if (typeof original === 'function') original(answer);
    };
  }
  if (typeof cb === 'function') this._question(query, cb);
};
// util.promisify(rl.question) resolves with the answer.
Interface.prototype.question[Symbol.for('nodejs.util.promisify.custom')] = function question(query, options) {
  if (options === null || typeof options !== 'object') options = {};
  if (options.signal && options.signal.aborted) return Promise.reject(abortError(options.signal.reason));
  return new Promise((resolve, reject) => {
    if (options.signal) options.signal.addEventListener('abort', () => reject(abortError(options.signal.reason)), { once: true });
    this.question(query, options, resolve);
  });
};

function createInterface(input, output, completer, terminal) {
  return new Interface(input, output, completer, terminal);
}

function emitKeypressEvents() {
  throw notImplemented('readline.emitKeypressEvents()', NO_TERMINAL);
}

module.exports = {
  Interface,
  clearLine,
  clearScreenDown,
  createInterface,
  cursorTo,
  emitKeypressEvents,
  moveCursor,
  promises,
};
