'use strict';
// node:events for Shoal Functions: the `events` package (Node's
// EventEmitter for all engines), completed with the newer static helpers
// Node.js has: once (with AbortSignal), on (async iterator), errorMonitor,
// getEventListeners, setMaxListeners, addAbortListener.

// By path: the bundler maps the bare name 'events' to this file.
const EventEmitter = require('../node_modules/events/events.js');
const { getListeners } = require('./internal/event-target');
const { invalidArgType, abortError } = require('./internal/errors');

const errorMonitor = Symbol('events.errorMonitor');
const captureRejectionSymbol = Symbol.for('nodejs.rejection');

// Listeners on errorMonitor see 'error' events before the real handlers
// (and without consuming them).
const origEmit = EventEmitter.prototype.emit;
EventEmitter.prototype.emit = function emit(type, ...args) {
  if (type === 'error' && this._events !== undefined && this._events[errorMonitor] !== undefined) {
    origEmit.call(this, errorMonitor, ...args);
  }
  return origEmit.call(this, type, ...args);
};

function validateSignal(signal) {
  if (signal !== undefined && (signal === null || typeof signal !== 'object' || !('aborted' in signal))) {
    throw invalidArgType('options.signal', 'AbortSignal', signal);
  }
}

function once(emitter, name, options = {}) {
  const signal = options ? options.signal : undefined;
  validateSignal(signal);
  if (signal && signal.aborted) return Promise.reject(abortError(signal.reason));
  return new Promise((resolve, reject) => {
    const isEE = typeof emitter.on === 'function';
    const errorListener = (err) => {
      if (isEE) emitter.removeListener(name, resolver);
      if (signal) signal.removeEventListener('abort', abortListener);
      reject(err);
    };
    const resolver = (...args) => {
      if (isEE && name !== 'error') emitter.removeListener('error', errorListener);
      if (signal) signal.removeEventListener('abort', abortListener);
      resolve(args);
    };
    const abortListener = () => {
      if (isEE) {
        emitter.removeListener(name, resolver);
        emitter.removeListener('error', errorListener);
      } else {
        emitter.removeEventListener(name, resolver);
      }
      reject(abortError(signal.reason));
    };
    if (isEE) {
      emitter.once(name, resolver);
      if (name !== 'error') emitter.once('error', errorListener);
    } else if (typeof emitter.addEventListener === 'function') {
      emitter.addEventListener(name, resolver, { once: true });
    } else {
      throw invalidArgType('emitter', 'EventEmitter', emitter);
    }
    if (signal) signal.addEventListener('abort', abortListener, { once: true });
  });
}

// for await (const [value] of on(emitter, 'data')) { ... }
function on(emitter, event, options = {}) {
  const signal = options ? options.signal : undefined;
  validateSignal(signal);
  if (signal && signal.aborted) throw abortError(signal.reason);
  const closeEvents = (options && options.close) || [];
  const unconsumedEvents = [];
  const unconsumedPromises = [];
  let error = null;
  let finished = false;
  const isEE = typeof emitter.on === 'function';

  const add = (name, fn) => (isEE ? emitter.on(name, fn) : emitter.addEventListener(name, fn));
  const remove = (name, fn) => (isEE ? emitter.removeListener(name, fn) : emitter.removeEventListener(name, fn));

  const eventHandler = (...args) => {
    const p = unconsumedPromises.shift();
    if (p) p.resolve({ value: args, done: false });
    else unconsumedEvents.push(args);
  };
  const errorHandler = (err) => {
    finished = true;
    const p = unconsumedPromises.shift();
    if (p) p.reject(err);
    else error = err;
    iterator.return();
  };
  const closeHandler = () => {
    finished = true;
    cleanup();
    for (const p of unconsumedPromises.splice(0)) p.resolve({ value: undefined, done: true });
  };
  const abortListener = () => errorHandler(abortError(signal.reason));
  const cleanup = () => {
    remove(event, eventHandler);
    if (event !== 'error' && isEE) remove('error', errorHandler);
    for (const name of closeEvents) remove(name, closeHandler);
    if (signal) signal.removeEventListener('abort', abortListener);
  };

  const iterator = {
    next() {
      const value = unconsumedEvents.shift();
      if (value) return Promise.resolve({ value, done: false });
      if (error) {
        const p = Promise.reject(error);
        error = null;
        return p;
      }
      if (finished) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => unconsumedPromises.push({ resolve, reject }));
    },
    return() {
      cleanup();
      finished = true;
      for (const p of unconsumedPromises.splice(0)) p.resolve({ value: undefined, done: true });
      return Promise.resolve({ value: undefined, done: true });
    },
    throw(err) {
      error = err;
      cleanup();
      return Promise.reject(err);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };

  add(event, eventHandler);
  if (event !== 'error' && isEE) add('error', errorHandler);
  for (const name of closeEvents) add(name, closeHandler);
  if (signal) signal.addEventListener('abort', abortListener, { once: true });
  return iterator;
}

function getEventListeners(emitterOrTarget, type) {
  if (typeof emitterOrTarget.listeners === 'function') return emitterOrTarget.listeners(type);
  if (typeof emitterOrTarget.addEventListener === 'function') return getListeners(emitterOrTarget, type);
  throw invalidArgType('emitter', ['EventEmitter', 'EventTarget'], emitterOrTarget);
}

function getMaxListeners(emitterOrTarget) {
  if (typeof emitterOrTarget.getMaxListeners === 'function') return emitterOrTarget.getMaxListeners();
  return EventEmitter.defaultMaxListeners;
}

function setMaxListeners(n = EventEmitter.defaultMaxListeners, ...eventTargets) {
  if (eventTargets.length === 0) {
    EventEmitter.defaultMaxListeners = n;
    return;
  }
  for (const target of eventTargets) {
    if (typeof target.setMaxListeners === 'function') target.setMaxListeners(n);
  }
}

// Returns a Disposable that removes the listener again.
function addAbortListener(signal, listener) {
  if (signal === undefined || signal === null || typeof signal !== 'object' || !('aborted' in signal)) {
    throw invalidArgType('signal', 'AbortSignal', signal);
  }
  if (typeof listener !== 'function') throw invalidArgType('listener', 'function', listener);
  let removed = false;
  const remove = () => {
    if (!removed) {
      removed = true;
      signal.removeEventListener('abort', listener);
    }
  };
  if (signal.aborted) {
    Promise.resolve().then(() => listener());
  } else {
    signal.addEventListener('abort', listener, { once: true });
  }
  const disposable = { [Symbol.for('nodejs.dispose')]: remove };
  if (typeof Symbol.dispose === 'symbol') disposable[Symbol.dispose] = remove;
  return disposable;
}

function listenerCount(emitter, type) {
  if (typeof emitter.listenerCount === 'function') return emitter.listenerCount(type);
  return getEventListeners(emitter, type).length;
}

EventEmitter.once = once;
EventEmitter.on = on;
EventEmitter.errorMonitor = errorMonitor;
EventEmitter.captureRejectionSymbol = captureRejectionSymbol;
EventEmitter.captureRejections = false;
EventEmitter.getEventListeners = getEventListeners;
EventEmitter.getMaxListeners = getMaxListeners;
EventEmitter.setMaxListeners = setMaxListeners;
EventEmitter.addAbortListener = addAbortListener;
EventEmitter.listenerCount = listenerCount;
EventEmitter.EventEmitter = EventEmitter;
EventEmitter.usingDomains = false;
EventEmitter.EventEmitterAsyncResource = EventEmitter;

module.exports = EventEmitter;
