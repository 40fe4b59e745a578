'use strict';
// readline's Interface for Shoal Functions: lines read from a Readable
// (a file, a response body, a stream the Function made), as Node's
// Interface reads them when there is no terminal. 'line' events, question()
// and async iteration behave as Node's (line endings \n, \r\n and \r, the
// crlfDelay rule, the last line without an ending given on 'end', 'close'
// when the input ends). A Function has no terminal, so `terminal: true`
// (line editing, history keys, completion) is refused.
const EventEmitter = require('../../events.js');
const { StringDecoder } = require('../../string_decoder.js');
const { invalidArgType, nodeError } = require('../errors.js');
const { invalidArgValue } = require('../validators.js');
const { moveCursor } = require('./callbacks.js');
const { notImplemented } = require('../unsupported.js');

const NO_TERMINAL = 'a Function has no terminal';

// Where Node draws these lines (lib/internal/readline/interface.js).
const lineEnding = /\r?\n|\r(?!\n)/g;
const kHistorySize = 30;
const kMincrlfDelay = 100;
// Lines an async iterator holds before the input is paused, as in Node.
const kIteratorHighWaterMark = 1024;

const kQuestionCallback = Symbol('_questionCallback');
const kOldPrompt = Symbol('_oldPrompt');
const kPrompt = Symbol('_prompt');
const kLineBuffer = Symbol('_line_buffer');
const kDecoder = Symbol('_decoder');
const kSawReturnAt = Symbol('_sawReturnAt');
const kLineIterator = Symbol('lineIterator');

class Interface extends EventEmitter {
  constructor(input, output, completer, terminal) {
    super();
    let history;
    let historySize;
    let removeHistoryDuplicates = false;
    let crlfDelay;
    let prompt = '> ';
    let signal;
    this.isCompletionEnabled = true;
    this.escapeCodeTimeout = 500;
    this.tabSize = 8;
    if (input && input.input) {
      // An options object.
      ({ output, completer, terminal, history, historySize, signal, crlfDelay } = input);
      if (input.tabSize !== undefined) this.tabSize = input.tabSize;
      removeHistoryDuplicates = input.removeHistoryDuplicates;
      if (input.prompt !== undefined) prompt = input.prompt;
      if (input.escapeCodeTimeout !== undefined) {
        if (!Number.isFinite(input.escapeCodeTimeout)) throw invalidArgValue('input.escapeCodeTimeout', this.escapeCodeTimeout);
        this.escapeCodeTimeout = input.escapeCodeTimeout;
      }
      if (signal !== undefined && (signal === null || typeof signal !== 'object' || !('aborted' in signal))) {
        throw invalidArgType('options.signal', 'AbortSignal', signal);
      }
      input = input.input;
    }
    if (completer !== undefined && typeof completer !== 'function') throw invalidArgValue('completer', completer);
    if (history === undefined) history = [];
    else if (!Array.isArray(history)) throw invalidArgType('history', 'Array', history);
    if (historySize === undefined) historySize = kHistorySize;
    if (typeof historySize !== 'number') throw invalidArgType('historySize', 'number', historySize);
    if (terminal === undefined && output != null) terminal = !!output.isTTY;
    if (terminal) throw notImplemented('readline.createInterface({ terminal: true })', NO_TERMINAL);
    if (input == null || typeof input.on !== 'function') throw invalidArgType('input', 'Readable', input);

    this.line = '';
    this.cursor = 0;
    this.output = output;
    this.input = input;
    this.history = history;
    this.historySize = historySize;
    this.removeHistoryDuplicates = !!removeHistoryDuplicates;
    this.crlfDelay = crlfDelay ? Math.max(kMincrlfDelay, crlfDelay) : kMincrlfDelay;
    this.completer = completer;
    this.terminal = false;
    this.closed = false;
    this.paused = false;
    this[kSawReturnAt] = 0;
    this[kLineBuffer] = null;
    this[kQuestionCallback] = null;
    this[kDecoder] = new StringDecoder('utf8');
    this.setPrompt(prompt);

    const onError = (err) => this.emit('error', err);
    const onData = (data) => this._normalWrite(data);
    const onEnd = () => {
      if (typeof this[kLineBuffer] === 'string' && this[kLineBuffer].length > 0) this.emit('line', this[kLineBuffer]);
      this.close();
    };
    input.on('error', onError);
    input.on('data', onData);
    input.on('end', onEnd);
    this.once('close', () => {
      input.removeListener('data', onData);
      input.removeListener('error', onError);
      input.removeListener('end', onEnd);
    });
    if (signal) {
      const onAborted = () => this.close();
      if (signal.aborted) process.nextTick(onAborted);
      else {
        signal.addEventListener('abort', onAborted, { once: true });
        this.once('close', () => signal.removeEventListener('abort', onAborted));
      }
    }
    if (typeof input.resume === 'function') input.resume();
  }

  get columns() {
    return this.output && this.output.columns ? this.output.columns : Infinity;
  }

  setPrompt(prompt) {
    this[kPrompt] = prompt;
  }

  getPrompt() {
    return this[kPrompt];
  }

  prompt() {
    if (this.paused) this.resume();
    this._writeToOutput(this[kPrompt]);
  }

  // Answers with the next line instead of a 'line' event.
  _question(query, cb) {
    if (this.closed) throw nodeError(Error, 'ERR_USE_AFTER_CLOSE', 'readline was closed');
    if (this[kQuestionCallback]) {
      this.prompt();
    } else {
      this[kOldPrompt] = this[kPrompt];
      this.setPrompt(query);
      this[kQuestionCallback] = cb;
      this.prompt();
    }
  }

  _questionCancel() {
    if (this[kQuestionCallback]) {
      this[kQuestionCallback] = null;
      this.setPrompt(this[kOldPrompt]);
      this.clearLine();
    }
  }

  // Ends the line being typed: the cursor to its end, then a new line.
  clearLine() {
    const before = this.getCursorPos();
    this.cursor = this.line.length;
    const after = this.getCursorPos();
    if (before.rows === after.rows && after.cols !== before.cols) moveCursor(this.output, after.cols - before.cols, 0);
    this._writeToOutput('\r\n');
    this.line = '';
    this.cursor = 0;
    this.prevRows = 0;
  }

  _onLine(line) {
    if (this[kQuestionCallback]) {
      const cb = this[kQuestionCallback];
      this[kQuestionCallback] = null;
      this.setPrompt(this[kOldPrompt]);
      cb(line);
    } else {
      this.emit('line', line);
    }
  }

  _writeToOutput(text) {
    if (typeof text !== 'string') throw invalidArgType('stringToWrite', 'string', text);
    if (this.output != null) this.output.write(text);
  }

  _addHistory() {
    if (this.line.length === 0) return '';
    if (this.historySize === 0 || this.line.trim().length === 0) return this.line;
    if (this.history.length === 0 || this.history[0] !== this.line) {
      if (this.removeHistoryDuplicates) {
        const dup = this.history.indexOf(this.line);
        if (dup !== -1) this.history.splice(dup, 1);
      }
      this.history.unshift(this.line);
      if (this.history.length > this.historySize) this.history.pop();
    }
    this.historyIndex = -1;
    this.emit('history', this.history);
    return this.history[0];
  }

  close() {
    if (this.closed) return;
    this.pause();
    this.closed = true;
    this.emit('close');
  }

  pause() {
    if (this.paused) return undefined;
    if (typeof this.input.pause === 'function') this.input.pause();
    this.paused = true;
    this.emit('pause');
    return this;
  }

  resume() {
    if (!this.paused) return undefined;
    if (typeof this.input.resume === 'function') this.input.resume();
    this.paused = false;
    this.emit('resume');
    return this;
  }

  // Without a terminal, written data is input, as in Node.
  write(data) {
    if (this.paused) this.resume();
    this._normalWrite(data);
  }

  _normalWrite(chunk) {
    if (chunk === undefined) return;
    let text = this[kDecoder].write(chunk);
    // A \r ended the last chunk: a \n starting this one belongs to it.
    if (this[kSawReturnAt] && Date.now() - this[kSawReturnAt] <= this.crlfDelay) {
      if (text.codePointAt(0) === 10) text = text.slice(1);
      this[kSawReturnAt] = 0;
    }
    lineEnding.lastIndex = 0;
    if (!lineEnding.test(text)) {
      if (text) this[kLineBuffer] = this[kLineBuffer] ? this[kLineBuffer] + text : text;
      return;
    }
    if (this[kLineBuffer]) {
      text = this[kLineBuffer] + text;
      this[kLineBuffer] = null;
    }
    this[kSawReturnAt] = text.endsWith('\r') ? Date.now() : 0;
    const lines = text.split(lineEnding);
    this[kLineBuffer] = lines.pop();
    for (const line of lines) this._onLine(line);
  }

  getCursorPos() {
    const text = this[kPrompt] + this.line.slice(0, this.cursor);
    const cols = this.columns;
    let offset = 0;
    let rows = 0;
    for (const char of text) {
      if (char === '\n') {
        rows += Math.ceil(offset / cols) || 1;
        offset = 0;
      } else if (char === '\t') {
        offset += this.tabSize - (offset % this.tabSize);
      } else {
        offset += 1;
      }
    }
    const col = offset % cols;
    return { cols: col, rows: rows + (offset - col) / cols };
  }

  // for await (const line of rl): each line, until 'close'.
  [Symbol.asyncIterator]() {
    if (this[kLineIterator] === undefined) this[kLineIterator] = lineIterator(this);
    return this[kLineIterator];
  }
}

// The lines of `rl` as an async iterator, as Node's events.on(rl, 'line',
// { close: ['close'], highWaterMark: 1024 }) gives them.
function lineIterator(rl) {
  const queued = [];
  const waiting = [];
  let error = null;
  let done = false;
  const onLine = (line) => {
    const next = waiting.shift();
    if (next) next.resolve({ value: line, done: false });
    else {
      queued.push(line);
      if (queued.length > kIteratorHighWaterMark) rl.pause();
    }
  };
  const onError = (err) => {
    const next = waiting.shift();
    if (next) next.reject(err);
    else error = err;
    finish();
  };
  const finish = () => {
    done = true;
    rl.removeListener('line', onLine);
    rl.removeListener('error', onError);
    rl.removeListener('close', finish);
    for (const next of waiting.splice(0)) next.resolve({ value: undefined, done: true });
  };
  rl.on('line', onLine);
  rl.on('error', onError);
  rl.on('close', finish);
  return {
    next() {
      if (queued.length) {
        const value = queued.shift();
        if (queued.length <= kIteratorHighWaterMark && !rl.closed) rl.resume();
        return Promise.resolve({ value, done: false });
      }
      if (error) {
        const err = error;
        error = null;
        return Promise.reject(err);
      }
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    return() {
      finish();
      rl.close();
      return Promise.resolve({ value: undefined, done: true });
    },
    throw(err) {
      finish();
      rl.close();
      return Promise.reject(err);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

// The legacy names Node's readline.Interface keeps for what it holds under
// symbols (some packages read rl._prompt or rl._line_buffer).
for (const [name, key] of [
  ['_decoder', kDecoder], ['_line_buffer', kLineBuffer], ['_oldPrompt', kOldPrompt], ['_prompt', kPrompt],
  ['_questionCallback', kQuestionCallback], ['_sawReturnAt', kSawReturnAt],
]) {
  Object.defineProperty(Interface.prototype, name, {
    get() {
      return this[key];
    },
    set(value) {
      this[key] = value;
    },
    configurable: true,
  });
}
Object.defineProperty(Interface.prototype, '_sawKeyPress', { get: () => false, set() {}, configurable: true });
Object.defineProperty(Interface.prototype, '_previousKey', { get: () => null, set() {}, configurable: true });

// Line editing: what a terminal's keys do.
for (const name of [
  '_ttyWrite', '_refreshLine', '_insertString', '_tabComplete', '_wordLeft', '_wordRight', '_deleteLeft', '_deleteRight',
  '_deleteWordLeft', '_deleteWordRight', '_deleteLineLeft', '_deleteLineRight', '_line', '_historyNext', '_historyPrev',
  '_getDisplayPos', '_moveCursor', '_setRawMode',
]) {
  Object.defineProperty(Interface.prototype, name, {
    value() {
      throw notImplemented(`readline.Interface#${name}()`, NO_TERMINAL);
    },
    writable: true,
    configurable: true,
  });
}
Interface.prototype._getCursorPos = Interface.prototype.getCursorPos;

module.exports = { Interface, NO_TERMINAL };
