'use strict';
// MessageChannel, MessagePort, MessageEvent and BroadcastChannel, within
// one Function (there are no workers to talk to). As in Node.js, a message
// is structured-cloned when it is posted and delivered later, as a task of
// its own (a timer): after the current code and its microtasks, in the
// order messages were posted. A port queues what it receives until it is
// started: by start(), by setting onmessage, or by adding a 'message'
// listener (addEventListener or the Node-style on()). MessagePort has
// Node's EventEmitter-style methods (on, once, off, emit...), whose
// 'message' listeners get the message itself rather than the event.
//
// Transfer lists may hold ArrayBuffers (detached in the sender where the
// engine can) and MessagePorts; a transferred port arrives in event.ports,
// not inside the message.

const { Event, EventTarget, getListeners } = require('./event-target');
const { structuredClone } = require('./structured-clone');
const { DOMException } = require('./dom-exception');
const { nodeError } = require('./errors');

const kConstruct = Symbol('kConstruct');
// The value a Node-style listener receives instead of the event.
const kNodeValue = Symbol('kNodeValue');
const kNewListener = Symbol('kNewListener');

const later = (fn) => setTimeout(fn, 0);

class MessageEvent extends Event {
  #data;
  #origin;
  #lastEventId;
  #source;
  #ports;

  constructor(type, options = undefined) {
    // As Node's (undici's): no argument check, the type becomes "undefined".
    super(type, options);
    const opts = options == null ? {} : options;
    this.#data = opts.data === undefined ? null : opts.data;
    this.#origin = opts.origin === undefined ? '' : `${opts.origin}`;
    this.#lastEventId = opts.lastEventId === undefined ? '' : `${opts.lastEventId}`;
    this.#source = opts.source === undefined ? null : opts.source;
    this.#ports = opts.ports === undefined ? [] : [...opts.ports];
  }

  get data() { return this.#data; }
  get origin() { return this.#origin; }
  get lastEventId() { return this.#lastEventId; }
  get source() { return this.#source; }
  get ports() { return this.#ports; }
}
for (const name of ['data', 'origin', 'lastEventId', 'source', 'ports']) {
  Object.defineProperty(MessageEvent.prototype, name, { enumerable: true });
}

// The event handler attributes (onmessage, onmessageerror): one listener,
// added when a handler is first set, calling whatever handler is set now.
function setHandler(target, handlers, listeners, type, fn) {
  const had = handlers[type] !== null;
  handlers[type] = typeof fn === 'function' ? fn : null;
  if (!had && handlers[type] !== null) {
    listeners[type] = (event) => {
      const h = handlers[type];
      if (typeof h === 'function') h.call(target, event);
    };
    target.addEventListener(type, listeners[type]);
  } else if (had && handlers[type] === null) {
    target.removeEventListener(type, listeners[type]);
  }
}

/** Clones a message; transferred ports are returned apart. */
function serialize(message, transfer, sourcePorts) {
  let list = transfer;
  if (list != null && typeof list === 'object' && !(Symbol.iterator in list)) list = list.transfer;
  const buffers = [];
  const ports = [];
  if (list != null) {
    if (typeof list !== 'object' || typeof list[Symbol.iterator] !== 'function') {
      throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'Optional transferList argument must be an iterable');
    }
    for (const item of list) {
      if (item instanceof MessagePort) {
        if (sourcePorts.includes(item)) throw new DOMException('Transfer list contains source port', 'DataCloneError');
        ports.push(item);
      } else {
        buffers.push(item);
      }
    }
  }
  return { data: structuredClone(message, { transfer: buffers }), ports };
}

// ---------------------------------------------------------------- NodeEventTarget

// Node's EventEmitter-style methods on an EventTarget (a prototype of its
// own, as in Node). Node-style listeners get kNodeValue (a message's data)
// when the event carries one, the event otherwise.
class NodeEventTarget extends EventTarget {
  #nodeListeners = new Map(); // type -> [{ listener, wrapper }]

  addEventListener(type, listener, options = undefined) {
    super.addEventListener(...arguments);
    if (listener != null && typeof this[kNewListener] === 'function') this[kNewListener](`${type}`);
  }

  on(type, listener) {
    return this.#addNode(type, listener, false);
  }

  addListener(type, listener) {
    return this.#addNode(type, listener, false);
  }

  once(type, listener) {
    return this.#addNode(type, listener, true);
  }

  #addNode(type, listener, once) {
    const key = `${type}`;
    const self = this;
    const entry = { listener, wrapper: null };
    entry.wrapper = function (event) {
      if (once) self.removeListener(key, listener);
      return listener.call(this, kNodeValue in event ? event[kNodeValue] : event);
    };
    const list = this.#nodeListeners.get(key) || [];
    list.push(entry);
    this.#nodeListeners.set(key, list);
    this.addEventListener(key, entry.wrapper);
    return this;
  }

  #forget(type, listener) {
    const list = this.#nodeListeners.get(type);
    if (!list) return null;
    const i = list.findIndex((l) => l.listener === listener);
    if (i < 0) return null;
    const [entry] = list.splice(i, 1);
    if (list.length === 0) this.#nodeListeners.delete(type);
    return entry.wrapper;
  }

  off(type, listener) {
    return this.removeListener(type, listener);
  }

  removeListener(type, listener) {
    const wrapper = this.#forget(`${type}`, listener);
    if (wrapper) this.removeEventListener(`${type}`, wrapper);
    return this;
  }

  removeAllListeners(type = undefined) {
    const types = type === undefined ? [...this.#nodeListeners.keys()] : [`${type}`];
    for (const t of types) {
      for (const { listener } of [...(this.#nodeListeners.get(t) || [])]) this.removeListener(t, listener);
    }
    return this;
  }

  emit(type, arg = undefined) {
    const key = `${type}`;
    const had = this.listenerCount(key) > 0;
    const event = new Event(key);
    Object.defineProperty(event, kNodeValue, { value: arg });
    this.dispatchEvent(event);
    return had;
  }

  listenerCount(type) {
    return getListeners(this, `${type}`).length;
  }

  setMaxListeners() {
    return this;
  }

  getMaxListeners() {
    return 10;
  }
}

// ---------------------------------------------------------------- MessagePort

// Set by MessagePort's static block, which can read its private queue.
let receiveMessage;

class MessagePort extends NodeEventTarget {
  #peer = null;
  #queue = [];
  #started = false;
  #closed = false;
  #refed = false;
  #handlers = { message: null, messageerror: null };
  #handlerListeners = {};

  constructor(token = undefined, peer = undefined) {
    if (token !== kConstruct) throw nodeError(TypeError, 'ERR_CONSTRUCT_CALL_INVALID', 'Constructor cannot be called');
    super();
    if (peer) {
      this.#peer = peer;
      peer.#peer = this;
    }
  }

  postMessage(message, transfer = undefined) {
    if (arguments.length === 0) {
      throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'Not enough arguments to MessagePort.postMessage');
    }
    const { data, ports } = serialize(message, transfer, [this]);
    const peer = this.#peer;
    if (this.#closed || peer === null) return;
    peer.#receive(data, ports);
  }

  #receive(data, ports) {
    if (this.#closed) return;
    this.#queue.push({ data, ports });
    if (this.#started) this.#flush();
  }

  #flush() {
    for (const { data, ports } of this.#queue.splice(0)) {
      later(() => {
        if (this.#closed) return;
        const event = new MessageEvent('message', { data, ports });
        Object.defineProperty(event, kNodeValue, { value: data });
        this.dispatchEvent(event);
      });
    }
  }

  start() {
    if (this.#started) return;
    this.#started = true;
    this.#flush();
  }

  close() {
    if (this.#closed) return;
    const peer = this.#peer;
    this.#closed = true;
    this.#peer = null;
    later(() => this.dispatchEvent(new Event('close')));
    if (peer !== null && !peer.#closed) {
      peer.#peer = null;
      // The peer gets what is already on its way, then 'close'.
      later(() => {
        peer.#closed = true;
        peer.dispatchEvent(new Event('close'));
      });
    }
  }

  // Node's return nothing (BroadcastChannel's return the channel).
  ref() {
    this.#refed = true;
  }

  unref() {
    this.#refed = false;
  }

  hasRef() {
    return this.#refed && !this.#closed;
  }

  // A 'message' listener starts the port (and refs it), as in Node.
  [kNewListener](type) {
    if (type === 'message') {
      this.#refed = true;
      this.start();
    }
  }

  get onmessage() { return this.#handlers.message; }
  set onmessage(fn) { setHandler(this, this.#handlers, this.#handlerListeners, 'message', fn); }
  get onmessageerror() { return this.#handlers.messageerror; }
  set onmessageerror(fn) { setHandler(this, this.#handlers, this.#handlerListeners, 'messageerror', fn); }

  static {
    // worker_threads.receiveMessageOnPort(): the oldest message a port holds
    // and has not started delivering, taken without an event.
    receiveMessage = (port) => {
      if (!(port instanceof MessagePort)) return null;
      const next = port.#queue.shift();
      return next === undefined ? undefined : { message: next.data };
    };
  }
}

// ---------------------------------------------------------------- MessageChannel

class MessageChannel {
  constructor() {
    this.port1 = new MessagePort(kConstruct);
    this.port2 = new MessagePort(kConstruct, this.port1);
  }
}

// ---------------------------------------------------------------- BroadcastChannel

const channels = new Map(); // name -> Set of open BroadcastChannels, in creation order

class BroadcastChannel extends EventTarget {
  #name;
  #closed = false;
  #handlers = { message: null, messageerror: null };
  #handlerListeners = {};

  constructor(name) {
    if (arguments.length === 0) throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "name" argument must be specified');
    super();
    this.#name = `${name}`;
    let set = channels.get(this.#name);
    if (!set) channels.set(this.#name, (set = new Set()));
    set.add(this);
  }

  get name() {
    return this.#name;
  }

  postMessage(message) {
    if (arguments.length === 0) throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "message" argument must be specified');
    if (this.#closed) throw new DOMException('BroadcastChannel is closed.', 'InvalidStateError');
    // Cloned even with no one listening, so an uncloneable value throws;
    // each receiver gets a copy of its own.
    const first = structuredClone(message);
    let used = false;
    for (const other of channels.get(this.#name) || []) {
      if (other === this) continue;
      const copy = used ? structuredClone(message) : first;
      used = true;
      later(() => {
        if (!other.#closed) other.dispatchEvent(new MessageEvent('message', { data: copy }));
      });
    }
  }

  close() {
    if (this.#closed) return;
    this.#closed = true;
    const set = channels.get(this.#name);
    if (set) {
      set.delete(this);
      if (set.size === 0) channels.delete(this.#name);
    }
  }

  ref() {
    return this;
  }

  unref() {
    return this;
  }

  get onmessage() { return this.#handlers.message; }
  set onmessage(fn) { setHandler(this, this.#handlers, this.#handlerListeners, 'message', fn); }
  get onmessageerror() { return this.#handlers.messageerror; }
  set onmessageerror(fn) { setHandler(this, this.#handlers, this.#handlerListeners, 'messageerror', fn); }

  [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
    if (depth < 0) return 'BroadcastChannel';
    const opts = { ...options, depth: options.depth == null ? null : options.depth - 1 };
    return `BroadcastChannel ${inspect({ name: this.#name, active: !this.#closed }, opts)}`;
  }
}
for (const name of ['name', 'close', 'postMessage', 'ref', 'unref', 'onmessage', 'onmessageerror']) {
  Object.defineProperty(BroadcastChannel.prototype, name, { enumerable: true });
}

// esbuild renames a class whose name a Function also uses as a global.
for (const [name, Class] of Object.entries({ MessageChannel, MessagePort, MessageEvent, BroadcastChannel })) {
  Object.defineProperty(Class, 'name', { value: name, configurable: true });
}

module.exports = { MessageChannel, MessagePort, MessageEvent, BroadcastChannel, receiveMessage: (port) => receiveMessage(port) };
