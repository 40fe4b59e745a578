'use strict';
// node:async_hooks for Shoal Functions: AsyncLocalStorage and
// AsyncResource without the engine hooks Node uses to follow a context
// through every callback and await.
//
// The context is a frame (the store of every AsyncLocalStorage), held in
// `current`. run(), exit() and AsyncResource scopes set it for the
// synchronous call only and restore it when the call returns or throws, as
// Node does (before, run() kept its store until its promise settled, so a
// sibling started next to a nested run() saw the nested store). A callback
// that runs later gets back the frame that was current when it was
// registered:
//
// - `await p` of a native promise: the engine reads `p.constructor` as it
//   registers the continuation (the spec's PromiseResolve; V8 and QuickJS
//   both do), so Promise.prototype.constructor becomes a getter that
//   registers, just before the continuation, a reaction of its own that sets
//   the frame. The reactions of a promise are queued together, in the order
//   they were registered, so it runs immediately before the continuation.
// - then/catch/finally callbacks (and so Promise.all and friends): `then` is
//   wrapped and binds them.
// - timers, immediates, queueMicrotask, process.nextTick and the prelude's
//   host-call callbacks (fetch, http): the callback is bound.
//
// Installed with the first AsyncLocalStorage; code that runs before it
// (or uses none) pays nothing.
//
// Limitation: an `await` of something that is not a native promise (a
// plain value, a thenable, a Promise subclass) is invisible to JavaScript:
// the engine queues its continuation without a lookup or call that can be
// hooked. Such a continuation sees the frame the previous job left. To make
// that the right one as often as possible, a scope (and a macrotask
// callback) queues a job that sets its frame again, so a job queued by code
// in the scope finds it, and the frame set for an await's continuation is
// left in place after it. With runs in flight concurrently, such a
// continuation can still see another run's store.

// Frames are never changed once made.
class Frame {
  constructor(stores) {
    this.stores = stores; // AsyncLocalStorage -> store
    this.enterFn = null;
    this.markFn = null;
  }
  with(storage, store) {
    const stores = new Map(this.stores);
    stores.set(storage, store);
    return new Frame(stores);
  }
  without(storage) {
    if (!this.stores.has(storage)) return this;
    const stores = new Map(this.stores);
    stores.delete(storage);
    return new Frame(stores);
  }
}

let current = new Frame(new Map());

// Storages disable()d since they were last enabled. As in Node 20, work
// started while one is disabled does not carry its store.
const disabled = new Set();

// The frame that work started now carries.
function captured() {
  if (disabled.size === 0) return current;
  let frame = current;
  for (const storage of disabled) frame = frame.without(storage);
  return frame;
}

// ---------------------------------------------------------------- propagation
let installed = false;
let NativePromise = null;
let nativeThen = null;
let settledPromise = null; // a fulfilled promise for queueing marker jobs
let queueJob = null; // the engine's own queueMicrotask, cheaper when there is one
let registering = false;
let lookupFromWrapper = null; // the promise whose constructor lookup comes from then/finally/resolve below

// A job that makes `frame` current.
function markFn(frame) {
  return frame.markFn || (frame.markFn = () => {
    current = frame;
  });
}

// A promise reaction that runs just before an await's continuation
// registered in `frame`: makes it current, for the continuation, and leaves
// it in place (nothing tells where the continuation ends).
function enterFn(frame) {
  return frame.enterFn || (frame.enterFn = () => {
    current = frame;
  });
}

function queueMark(frame) {
  if (queueJob !== null) queueJob(markFn(frame));
  else if (settledPromise !== null) nativeThen.call(settledPromise, markFn(frame));
}

// Promise.prototype.constructor: a lookup not made by the wrappers below is
// an await (or another engine-internal PromiseResolve) about to register a
// reaction on this promise.
function constructorGetter() {
  if (this === lookupFromWrapper) {
    lookupFromWrapper = null;
  } else if (!registering && this !== NativePromise.prototype && this !== settledPromise) {
    registering = true;
    try {
      const fn = enterFn(captured());
      nativeThen.call(this, fn, fn);
    } catch {
      // not a promise (an object inheriting from Promise.prototype)
    } finally {
      registering = false;
    }
  }
  return NativePromise;
}

// Assigning `x.constructor` to a promise (or Promise.prototype) gives it an
// own data property, as it did when Promise.prototype.constructor was one.
function constructorSetter(value) {
  Object.defineProperty(this, 'constructor', { value, writable: true, enumerable: this !== NativePromise.prototype, configurable: true });
}

// A then/catch/finally callback runs in the frame of the then() call; the
// frame is restored after it.
function wrapReaction(fn, frame) {
  if (typeof fn !== 'function') return fn;
  return function reaction(value) {
    const previous = current;
    current = frame;
    try {
      return fn(value);
    } finally {
      current = previous;
    }
  };
}

// Calls a native Promise method that looks up `promise.constructor`, so
// that the lookup is not taken for an await.
function callNative(method, thisArg, promise, args) {
  const saved = lookupFromWrapper;
  lookupFromWrapper = promise;
  try {
    return method.apply(thisArg, args);
  } finally {
    lookupFromWrapper = saved;
  }
}

function wrapPromise() {
  const proto = NativePromise.prototype;
  const nativeFinally = proto.finally;
  const nativeResolve = NativePromise.resolve;
  const wrappers = {
    then(onFulfilled, onRejected) {
      const frame = captured();
      return callNative(nativeThen, this, this, [wrapReaction(onFulfilled, frame), wrapReaction(onRejected, frame)]);
    },
    finally(onFinally) {
      // Calls this.then, which binds onFinally.
      return callNative(nativeFinally, this, this, [onFinally]);
    },
    resolve(value) {
      // Registers no reaction: Promise.all, race, any and allSettled call it.
      return callNative(nativeResolve, this, value, [value]);
    },
  };
  for (const [owner, name] of [[proto, 'then'], [proto, 'finally'], [NativePromise, 'resolve']]) {
    const desc = Object.getOwnPropertyDescriptor(owner, name);
    if (desc && desc.configurable && typeof desc.value === 'function') {
      Object.defineProperty(owner, name, { ...desc, value: wrappers[name] });
    }
  }
}

// `fn` bound to the current frame: it runs in it and the frame is restored
// after it. A macrotask callback queues a marker as a scope does (runIn); a
// microtask callback does not: queued while the microtask queue is not empty,
// the marker would land behind jobs already queued and in front of the jobs
// those queue in turn.
function bindCurrent(fn, macrotask) {
  const frame = captured();
  if (macrotask) {
    return function bound(...args) {
      return runIn(frame, fn, this, args);
    };
  }
  return function bound(...args) {
    const previous = current;
    current = frame;
    try {
      return fn.apply(this, args);
    } finally {
      current = previous;
    }
  };
}

// Runs `fn` in `frame` and restores the frame after it. The marker queued
// first makes the frame current again for the jobs `fn` queues, which covers
// an await of a plain value in `fn` (e.g. at the start of an async callback
// of run()).
function runIn(frame, fn, thisArg, args) {
  const previous = current;
  current = frame;
  queueMark(frame);
  try {
    return fn.apply(thisArg, args);
  } finally {
    current = previous;
  }
}

function wrapScheduler(owner, name, macrotask) {
  const original = owner && owner[name];
  if (typeof original !== 'function') return;
  owner[name] = function (fn, ...rest) {
    // A non-function is passed on as is, for the scheduler's own error.
    return original.call(this, typeof fn === 'function' ? bindCurrent(fn, macrotask) : fn, ...rest);
  };
}

function install() {
  if (installed) return;
  installed = true;
  // A warm sandbox serves many requests: each starts with no store, as each
  // request starts in a fresh async context in Node (the prelude calls this).
  // Not enumerable: Shoal's internals are not among Node's globals.
  Object.defineProperty(globalThis, '__shoal_requestStarts', {
    value: () => {
      current = new Frame(new Map());
    },
    writable: true,
    configurable: true,
    enumerable: false,
  });
  NativePromise = Promise;
  const proto = NativePromise.prototype;
  const desc = Object.getOwnPropertyDescriptor(proto, 'constructor');
  if (desc && desc.configurable && desc.value === NativePromise && typeof proto.then === 'function') {
    nativeThen = proto.then;
    settledPromise = NativePromise.resolve();
    Object.defineProperty(proto, 'constructor', {
      get: constructorGetter,
      set: constructorSetter,
      enumerable: false,
      configurable: true,
    });
    wrapPromise();
  }
  const engineQueue = globalThis.queueMicrotask;
  if (typeof engineQueue === 'function' && /\{\s*\[native code\]\s*\}$/.test(Function.prototype.toString.call(engineQueue))) {
    queueJob = engineQueue;
  }
  // The prelude runs timers, immediates and host-call callbacks once the
  // microtask queue is empty.
  for (const name of ['setTimeout', 'setInterval', 'setImmediate']) wrapScheduler(globalThis, name, true);
  wrapScheduler(globalThis, 'queueMicrotask', false);
  wrapScheduler(globalThis.process, 'nextTick', false);
  // The prelude's host calls in flight (id -> callback), delivered by its
  // event loop: fetch, http.request.
  const calls = globalThis.__shoal_calls;
  if (calls && typeof calls.set === 'function') {
    const set = calls.set;
    calls.set = function (id, callback) {
      return set.call(this, id, typeof callback === 'function' ? bindCurrent(callback, true) : callback);
    };
  }
}

// ---------------------------------------------------------------- API
class AsyncLocalStorage {
  constructor() {
    this._enabled = false;
    install();
  }

  static bind(fn) {
    return AsyncResource.bind(fn);
  }

  static snapshot() {
    const frame = captured();
    return function runInAsyncScope(fn, ...args) {
      return runIn(frame, fn, this, args);
    };
  }

  getStore() {
    if (this._enabled) return current.stores.get(this);
    return undefined;
  }

  run(store, callback, ...args) {
    if (Object.is(store, this.getStore())) return callback.apply(undefined, args);
    this._enable();
    return runIn(current.with(this, store), callback, undefined, args);
  }

  exit(callback, ...args) {
    if (!this._enabled) return callback.apply(undefined, args);
    return runIn(current.without(this), callback, undefined, args);
  }

  enterWith(store) {
    this._enable();
    current = current.with(this, store);
    queueMark(current);
  }

  // As Node 20: getStore() gives undefined until run() or enterWith()
  // enables the storage again.
  disable() {
    if (this._enabled) {
      this._enabled = false;
      disabled.add(this);
    }
  }

  _enable() {
    if (!this._enabled) {
      this._enabled = true;
      disabled.delete(this);
    }
  }
}

let nextAsyncId = 2;

class AsyncResource {
  constructor(type, options) {
    this.type = type;
    this._asyncId = nextAsyncId++;
    this._triggerAsyncId = typeof options === 'number' ? options : (options && options.triggerAsyncId) || 1;
    this._frame = captured();
  }
  runInAsyncScope(fn, thisArg, ...args) {
    return runIn(this._frame, fn, thisArg, args);
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
