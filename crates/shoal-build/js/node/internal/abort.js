'use strict';
// WHATWG AbortController and AbortSignal.

const { EventTarget, Event } = require('./event-target');
const { DOMException } = require('./dom-exception');

const kToken = Symbol('AbortSignal constructor token');
const kAborted = Symbol('aborted');
const kReason = Symbol('reason');
const kOnAbort = Symbol('onabort');
const kDependents = Symbol('dependents');

class AbortSignal extends EventTarget {
  constructor(token) {
    if (token !== kToken) throw new TypeError('Illegal constructor');
    super();
    Object.defineProperty(this, kAborted, { value: false, writable: true });
    Object.defineProperty(this, kReason, { value: undefined, writable: true });
    Object.defineProperty(this, kOnAbort, { value: null, writable: true });
    Object.defineProperty(this, kDependents, { value: [], writable: true });
  }

  get aborted() { return this[kAborted]; }
  get reason() { return this[kReason]; }

  get onabort() { return this[kOnAbort]; }
  set onabort(fn) {
    if (this[kOnAbort]) this.removeEventListener('abort', this[kOnAbort]);
    this[kOnAbort] = typeof fn === 'function' ? fn : null;
    if (this[kOnAbort]) this.addEventListener('abort', this[kOnAbort]);
  }

  throwIfAborted() {
    if (this[kAborted]) throw this[kReason];
  }

  static abort(reason = undefined) {
    const signal = new AbortSignal(kToken);
    signal[kAborted] = true;
    signal[kReason] = reason === undefined ? abortReason() : reason;
    return signal;
  }

  static timeout(ms) {
    const delay = Number(ms);
    if (!Number.isFinite(delay) || delay < 0 || !Number.isInteger(delay)) {
      const { outOfRange, invalidArgType } = require('./errors');
      if (typeof ms !== 'number') throw invalidArgType('delay', 'number', ms);
      throw outOfRange('delay', '>= 0 && <= 4294967295', ms);
    }
    const signal = new AbortSignal(kToken);
    setTimeout(() => {
      abortSignal(signal, new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    }, delay);
    return signal;
  }

  static any(signals) {
    const list = Array.from(signals);
    const result = new AbortSignal(kToken);
    for (const s of list) {
      if (!(s instanceof AbortSignal)) {
        const { invalidArgType } = require('./errors');
        throw invalidArgType('signals[0]', 'AbortSignal', s);
      }
      if (s.aborted) {
        result[kAborted] = true;
        result[kReason] = s.reason;
        return result;
      }
    }
    for (const s of list) s[kDependents].push(result);
    return result;
  }
}

for (const name of ['aborted', 'reason', 'onabort', 'throwIfAborted']) {
  Object.defineProperty(AbortSignal.prototype, name, { enumerable: true });
}
Object.defineProperty(AbortSignal.prototype, Symbol.toStringTag, { value: 'AbortSignal', configurable: true });
Object.defineProperty(AbortSignal.prototype, Symbol.for('nodejs.util.inspect.custom'), {
  value() {
    return `AbortSignal { aborted: ${this[kAborted]} }`;
  },
});

function abortReason() {
  return new DOMException('This operation was aborted', 'AbortError');
}

function abortSignal(signal, reason) {
  if (signal[kAborted]) return;
  signal[kAborted] = true;
  signal[kReason] = reason;
  const dependents = signal[kDependents];
  signal[kDependents] = [];
  signal.dispatchEvent(new Event('abort'));
  for (const d of dependents) abortSignal(d, reason);
}

class AbortController {
  constructor() {
    Object.defineProperty(this, '_signal', { value: new AbortSignal(kToken), enumerable: false });
  }
  get signal() { return this._signal; }
  abort(reason = undefined) {
    abortSignal(this._signal, reason === undefined ? abortReason() : reason);
  }
}
Object.defineProperty(AbortController.prototype, 'signal', { enumerable: true });
Object.defineProperty(AbortController.prototype, 'abort', { enumerable: true });
Object.defineProperty(AbortController.prototype, Symbol.toStringTag, { value: 'AbortController', configurable: true });
Object.defineProperty(AbortController.prototype, Symbol.for('nodejs.util.inspect.custom'), {
  value() {
    return `AbortController { signal: AbortSignal { aborted: ${this._signal.aborted} } }`;
  },
});

module.exports = { AbortController, AbortSignal };
