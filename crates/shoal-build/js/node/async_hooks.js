'use strict';
// node:async_hooks for Shoal Functions: AsyncLocalStorage and
// AsyncResource without the engine hooks Node uses to follow a context
// through every callback and await.
//
// Limitation: a store set by als.run(store, fn) stays current until the
// Promise that fn returns settles (or, for a synchronous fn, until it
// returns). That is exact while one run is active at a time, which is the
// case in a Function (one request per instance); with several concurrent
// runs, code resumed after an await may see the store of a later run.

let current = new Map(); // AsyncLocalStorage -> store, for the active frame

function enter(frame, fn, args, thisArg) {
  const previous = current;
  current = frame;
  let result;
  try {
    result = fn.apply(thisArg, args);
  } catch (err) {
    current = previous;
    throw err;
  }
  if (result !== null && typeof result === 'object' && typeof result.then === 'function') {
    const restore = () => {
      if (current === frame) current = previous;
    };
    result.then(restore, restore);
  } else {
    current = previous;
  }
  return result;
}

class AsyncLocalStorage {
  constructor() {
    this._enabled = true;
  }

  static bind(fn) {
    return AsyncResource.bind(fn);
  }

  static snapshot() {
    const frame = current;
    return (fn, ...args) => enter(frame, fn, args);
  }

  getStore() {
    return current.get(this);
  }

  run(store, callback, ...args) {
    const frame = new Map(current);
    frame.set(this, store);
    return enter(frame, callback, args);
  }

  exit(callback, ...args) {
    const frame = new Map(current);
    frame.delete(this);
    return enter(frame, callback, args);
  }

  enterWith(store) {
    const frame = new Map(current);
    frame.set(this, store);
    current = frame;
  }

  disable() {
    if (current.has(this)) {
      const frame = new Map(current);
      frame.delete(this);
      current = frame;
    }
  }
}

let nextAsyncId = 2;

class AsyncResource {
  constructor(type, options) {
    this.type = type;
    this._asyncId = nextAsyncId++;
    this._triggerAsyncId = typeof options === 'number' ? options : (options && options.triggerAsyncId) || 1;
    this._frame = current;
  }
  runInAsyncScope(fn, thisArg, ...args) {
    return enter(this._frame, fn, args, thisArg);
  }
  emitDestroy() {
    return this;
  }
  asyncId() {
    return this._asyncId;
  }
  triggerAsyncId() {
    return this._triggerAsyncId;
  }
  bind(fn, thisArg) {
    const bound = (...args) => this.runInAsyncScope(fn, thisArg === undefined ? this : thisArg, ...args);
    Object.defineProperty(bound, 'length', { value: fn.length });
    Object.defineProperty(bound, 'asyncResource', { value: this, enumerable: true });
    return bound;
  }
  static bind(fn, type, thisArg) {
    return new AsyncResource(type || fn.name || 'bound-anonymous-fn').bind(fn, thisArg);
  }
}

function createHook() {
  // No async events are reported; the hook only exists.
  const hook = { enable: () => hook, disable: () => hook };
  return hook;
}

module.exports = {
  AsyncLocalStorage,
  AsyncResource,
  createHook,
  executionAsyncId: () => 1,
  triggerAsyncId: () => 0,
  executionAsyncResource: () => ({}),
  asyncWrapProviders: Object.freeze({ NONE: 0 }),
};
