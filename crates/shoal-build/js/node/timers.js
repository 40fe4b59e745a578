'use strict';
// node:timers for Shoal Functions. The timers themselves are the globals
// Shoal's prelude installs (run by its timer pump); this module gives them
// Node's Timeout/Immediate objects (ref/unref/hasRef/refresh/close and a
// numeric primitive value), which many libraries expect.

const kId = Symbol('id');

class Timeout {
  constructor(callback, delay, args, repeat) {
    this._onTimeout = callback;
    this._idleTimeout = delay;
    this._repeat = repeat ? delay : null;
    this._args = args;
    this._destroyed = false;
    this[kId] = 0;
    this._start();
  }
  _start() {
    const add = this._repeat !== null ? globalThis.setInterval : globalThis.setTimeout;
    this[kId] = add(() => {
      if (this._repeat === null) this._destroyed = true;
      this._onTimeout(...this._args);
    }, this._idleTimeout);
  }
  ref() { return this; }
  unref() { return this; }
  hasRef() { return !this._destroyed; }
  refresh() {
    if (!this._destroyed) {
      globalThis.clearTimeout(this[kId]);
      this._start();
    }
    return this;
  }
  close() {
    clear(this);
    return this;
  }
  [Symbol.toPrimitive]() {
    const id = this[kId];
    return typeof id === 'object' && id !== null && 'id' in id ? id.id : Number(id);
  }
}
if (typeof Symbol.dispose === 'symbol') Timeout.prototype[Symbol.dispose] = function dispose() { clear(this); };

class Immediate {
  constructor(callback, args) {
    this._onImmediate = callback;
    this[kId] = globalThis.setImmediate(() => callback(...args));
  }
  ref() { return this; }
  unref() { return this; }
  hasRef() { return true; }
}

function validateCallback(callback) {
  if (typeof callback !== 'function') {
    const { invalidArgType } = require('./internal/errors');
    throw invalidArgType('callback', 'function', callback);
  }
}

function delayOf(ms) {
  const d = Number(ms);
  // Node: delays outside 1..2^31-1 (or NaN) become 1 ms.
  return !(d >= 1 && d <= 2147483647) ? 1 : d;
}

function setTimeout(callback, delay, ...args) {
  validateCallback(callback);
  return new Timeout(callback, delayOf(delay), args, false);
}

function setInterval(callback, delay, ...args) {
  validateCallback(callback);
  return new Timeout(callback, delayOf(delay), args, true);
}

function setImmediate(callback, ...args) {
  validateCallback(callback);
  return new Immediate(callback, args);
}

function clear(timer) {
  if (timer === null || timer === undefined) return;
  if (timer instanceof Timeout) {
    timer._destroyed = true;
    globalThis.clearTimeout(timer[kId]);
  } else if (timer instanceof Immediate) {
    globalThis.clearImmediate(timer[kId]);
  } else {
    globalThis.clearTimeout(timer);
  }
}

module.exports = {
  setTimeout,
  clearTimeout: clear,
  setInterval,
  clearInterval: clear,
  setImmediate,
  clearImmediate: clear,
  Timeout,
  Immediate,
};
Object.defineProperty(module.exports, 'promises', {
  enumerable: true,
  configurable: true,
  get: () => require('timers/promises'),
});
