'use strict';
// node:diagnostics_channel for Shoal Functions: named channels that code
// publishes to and observers subscribe to (undici, fastify, pino and the
// OpenTelemetry instrumentations use them), and tracing channels, as Node
// 22's lib/diagnostics_channel.js has them. Stores bound to a channel are
// AsyncLocalStorage instances (async_hooks.js): runStores() runs the
// function inside each store's run(). A subscriber that throws does not
// stop the others; its error is thrown again on the next tick, as Node
// does (there it reaches 'uncaughtException').
const { invalidArgType, validateFunction } = require('./internal/errors.js');

// A channel stays the same object while anything refers to it: the map
// holds it weakly, and strongly while it has subscribers or stores (Node
// counts references the same way). Without WeakRef, strongly.
class ChannelMap {
  #map = new Map();
  #strong = new Map();
  #finalizers = typeof FinalizationRegistry === 'function' ? new FinalizationRegistry((name) => this.#clear(name)) : null;

  #clear(name) {
    const ref = this.#map.get(name);
    if (ref && !ref.deref()) this.#map.delete(name);
  }

  get(name) {
    const ref = this.#map.get(name);
    return ref === undefined ? undefined : ref.deref();
  }

  set(name, channel) {
    if (this.#finalizers && typeof WeakRef === 'function') {
      this.#finalizers.register(channel, name);
      this.#map.set(name, new WeakRef(channel));
    } else {
      this.#map.set(name, { deref: () => channel });
    }
  }

  incRef(name) {
    const entry = this.#strong.get(name);
    if (entry) entry.count++;
    else this.#strong.set(name, { count: 1, channel: this.get(name) });
  }

  decRef(name) {
    const entry = this.#strong.get(name);
    if (entry && --entry.count === 0) this.#strong.delete(name);
  }
}

const channels = new ChannelMap();

function defaultTransform(data) {
  return data;
}

function wrapStoreRun(store, data, next, transform = defaultTransform) {
  return () => {
    let context;
    try {
      context = transform(data);
    } catch (err) {
      process.nextTick(() => {
        throw err;
      });
      return next();
    }
    return store.run(context, next);
  };
}

// A channel with subscribers or stores: Node swaps the prototype so an
// inactive channel's publish() costs nothing.
class ActiveChannel {
  subscribe(subscription) {
    validateFunction(subscription, 'subscription');
    this._subscribers = [...this._subscribers, subscription];
    channels.incRef(this.name);
  }

  unsubscribe(subscription) {
    const index = this._subscribers.indexOf(subscription);
    if (index === -1) return false;
    this._subscribers = [...this._subscribers.slice(0, index), ...this._subscribers.slice(index + 1)];
    channels.decRef(this.name);
    maybeMarkInactive(this);
    return true;
  }

  bindStore(store, transform) {
    const replacing = this._stores.has(store);
    if (!replacing) channels.incRef(this.name);
    this._stores.set(store, transform);
  }

  unbindStore(store) {
    if (!this._stores.has(store)) return false;
    this._stores.delete(store);
    channels.decRef(this.name);
    maybeMarkInactive(this);
    return true;
  }

  get hasSubscribers() {
    return true;
  }

  publish(data) {
    const subscribers = this._subscribers;
    for (let i = 0; i < (subscribers ? subscribers.length : 0); i++) {
      try {
        subscribers[i](data, this.name);
      } catch (err) {
        process.nextTick(() => {
          throw err;
        });
      }
    }
  }

  runStores(data, fn, thisArg, ...args) {
    let run = () => {
      this.publish(data);
      return Reflect.apply(fn, thisArg, args);
    };
    for (const [store, transform] of this._stores.entries()) run = wrapStoreRun(store, data, run, transform);
    return run();
  }
}

class Channel {
  constructor(name) {
    this._subscribers = undefined;
    this._stores = undefined;
    this.name = name;
    channels.set(name, this);
  }

  static [Symbol.hasInstance](instance) {
    const prototype = instance === null || instance === undefined ? null : Object.getPrototypeOf(instance);
    return prototype === Channel.prototype || prototype === ActiveChannel.prototype;
  }

  subscribe(subscription) {
    markActive(this);
    this.subscribe(subscription);
  }

  unsubscribe() {
    return false;
  }

  bindStore(store, transform) {
    markActive(this);
    this.bindStore(store, transform);
  }

  unbindStore() {
    return false;
  }

  get hasSubscribers() {
    return false;
  }

  publish() {}

  runStores(data, fn, thisArg, ...args) {
    return Reflect.apply(fn, thisArg, args);
  }
}

function markActive(channel) {
  Object.setPrototypeOf(channel, ActiveChannel.prototype);
  channel._subscribers = [];
  channel._stores = new Map();
}

function maybeMarkInactive(channel) {
  if (!channel._subscribers.length && !channel._stores.size) {
    Object.setPrototypeOf(channel, Channel.prototype);
    channel._subscribers = undefined;
    channel._stores = undefined;
  }
}

function channel(name) {
  const existing = channels.get(name);
  if (existing) return existing;
  if (typeof name !== 'string' && typeof name !== 'symbol') throw invalidArgType('channel', ['string', 'symbol'], name);
  return new Channel(name);
}

function subscribe(name, subscription) {
  return channel(name).subscribe(subscription);
}

function unsubscribe(name, subscription) {
  return channel(name).unsubscribe(subscription);
}

function hasSubscribers(name) {
  const existing = channels.get(name);
  return existing ? existing.hasSubscribers : false;
}

// ---------------------------------------------------------------- tracing

const traceEvents = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'];

function tracingChannelFrom(nameOrChannels, name) {
  if (typeof nameOrChannels === 'string') return channel(`tracing:${nameOrChannels}:${name}`);
  if (typeof nameOrChannels === 'object' && nameOrChannels !== null) {
    const member = nameOrChannels[name];
    if (!(member instanceof Channel)) throw invalidArgType(`nameOrChannels.${name}`, ['Channel'], member);
    return member;
  }
  // Node lists 'object' as the class Object, after TracingChannel.
  throw invalidArgType('nameOrChannels', ['string', 'TracingChannel', 'Object'], nameOrChannels);
}

class TracingChannel {
  constructor(nameOrChannels) {
    for (const eventName of traceEvents) {
      Object.defineProperty(this, eventName, { value: tracingChannelFrom(nameOrChannels, eventName) });
    }
  }

  get hasSubscribers() {
    return (
      this.start.hasSubscribers ||
      this.end.hasSubscribers ||
      this.asyncStart.hasSubscribers ||
      this.asyncEnd.hasSubscribers ||
      this.error.hasSubscribers
    );
  }

  subscribe(handlers) {
    for (const name of traceEvents) {
      if (handlers[name]) this[name].subscribe(handlers[name]);
    }
  }

  unsubscribe(handlers) {
    let done = true;
    for (const name of traceEvents) {
      if (handlers[name] && !this[name].unsubscribe(handlers[name])) done = false;
    }
    return done;
  }

  traceSync(fn, context = {}, thisArg, ...args) {
    if (!this.hasSubscribers) return Reflect.apply(fn, thisArg, args);
    const { start, end, error } = this;
    return start.runStores(context, () => {
      try {
        const result = Reflect.apply(fn, thisArg, args);
        context.result = result;
        return result;
      } catch (err) {
        context.error = err;
        error.publish(context);
        throw err;
      } finally {
        end.publish(context);
      }
    });
  }

  tracePromise(fn, context = {}, thisArg, ...args) {
    if (!this.hasSubscribers) return Reflect.apply(fn, thisArg, args);
    const { start, end, asyncStart, asyncEnd, error } = this;
    function reject(err) {
      context.error = err;
      error.publish(context);
      asyncStart.publish(context);
      asyncEnd.publish(context);
      return Promise.reject(err);
    }
    function resolve(result) {
      context.result = result;
      asyncStart.publish(context);
      asyncEnd.publish(context);
      return result;
    }
    return start.runStores(context, () => {
      try {
        let promise = Reflect.apply(fn, thisArg, args);
        // A thenable becomes a native promise.
        if (!(promise instanceof Promise)) promise = Promise.resolve(promise);
        return promise.then(resolve, reject);
      } catch (err) {
        context.error = err;
        error.publish(context);
        throw err;
      } finally {
        end.publish(context);
      }
    });
  }

  traceCallback(fn, position = -1, context = {}, thisArg, ...args) {
    if (!this.hasSubscribers) return Reflect.apply(fn, thisArg, args);
    const { start, end, asyncStart, asyncEnd, error } = this;
    const callback = args.at(position);
    validateFunction(callback, 'callback');
    function wrappedCallback(err, res) {
      if (err) {
        context.error = err;
        error.publish(context);
      } else {
        context.result = res;
      }
      // Through runStores, so a store bound to asyncStart is in effect.
      asyncStart.runStores(context, () => {
        try {
          return Reflect.apply(callback, this, arguments);
        } finally {
          asyncEnd.publish(context);
        }
      });
    }
    args.splice(position, 1, wrappedCallback);
    return start.runStores(context, () => {
      try {
        return Reflect.apply(fn, thisArg, args);
      } catch (err) {
        context.error = err;
        error.publish(context);
        throw err;
      } finally {
        end.publish(context);
      }
    });
  }
}

function tracingChannel(nameOrChannels) {
  return new TracingChannel(nameOrChannels);
}

module.exports = {
  channel,
  hasSubscribers,
  subscribe,
  tracingChannel,
  unsubscribe,
  Channel,
};
