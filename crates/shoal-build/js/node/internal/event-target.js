'use strict';
// WHATWG Event, CustomEvent and EventTarget (the DOM Standard's dispatch
// algorithm without a tree: there is only the target itself).

const kState = Symbol('state');
const kListeners = Symbol('listeners');

// Node's timeStamp is relative to the process start (performance.now()).
const now = () => (typeof performance !== 'undefined' && performance.now ? performance.now() : Date.now());

class Event {
  constructor(type, options = undefined) {
    if (arguments.length === 0) throw new TypeError('The "type" argument must be specified');
    const opts = options == null ? {} : options;
    Object.defineProperty(this, kState, { value: {
      type: String(type),
      bubbles: !!opts.bubbles,
      cancelable: !!opts.cancelable,
      composed: !!opts.composed,
      timeStamp: now(),
      target: null,
      currentTarget: null,
      phase: 0,
      dispatching: false,
      stop: false,
      stopImmediate: false,
      canceled: false,
      inPassive: false,
    } });
    // isTrusted is an own, unforgeable attribute in the DOM.
    Object.defineProperty(this, 'isTrusted', { get: isTrustedGetter, enumerable: true, configurable: false });
  }

  get type() { return this[kState].type; }
  get bubbles() { return this[kState].bubbles; }
  get cancelable() { return this[kState].cancelable; }
  get composed() { return this[kState].composed; }
  get timeStamp() { return this[kState].timeStamp; }
  get target() { return this[kState].target; }
  get currentTarget() { return this[kState].currentTarget; }
  get srcElement() { return this[kState].target; }
  get eventPhase() { return this[kState].phase; }
  get defaultPrevented() { return this[kState].cancelable && this[kState].canceled; }
  get returnValue() { return !this.defaultPrevented; }
  set returnValue(v) { if (!v) this.preventDefault(); }
  get cancelBubble() { return this[kState].stop; }
  set cancelBubble(v) { if (v) this[kState].stop = true; }

  preventDefault() {
    if (this[kState].cancelable && !this[kState].inPassive) this[kState].canceled = true;
  }
  stopPropagation() { this[kState].stop = true; }
  stopImmediatePropagation() { this[kState].stop = true; this[kState].stopImmediate = true; }
  composedPath() { return this[kState].dispatching ? [this[kState].currentTarget] : []; }
  initEvent(type, bubbles = false, cancelable = false) {
    if (this[kState].dispatching) return;
    Object.assign(this[kState], { type: String(type), bubbles: !!bubbles, cancelable: !!cancelable });
    Object.assign(this[kState], { stop: false, stopImmediate: false, canceled: false });
  }
}
function isTrustedGetter() { return false; }

const phases = { NONE: 0, CAPTURING_PHASE: 1, AT_TARGET: 2, BUBBLING_PHASE: 3 };
for (const [k, v] of Object.entries(phases)) {
  Object.defineProperty(Event, k, { value: v, enumerable: true });
  Object.defineProperty(Event.prototype, k, { value: v, enumerable: true });
}
Object.defineProperty(Event.prototype, Symbol.toStringTag, { value: 'Event', configurable: true });
for (const name of ['type', 'bubbles', 'cancelable', 'composed', 'timeStamp', 'target', 'currentTarget', 'srcElement',
  'eventPhase', 'defaultPrevented', 'returnValue', 'cancelBubble']) {
  Object.defineProperty(Event.prototype, name, { enumerable: true });
}

class CustomEvent extends Event {
  constructor(type, options = undefined) {
    if (arguments.length === 0) throw new TypeError('The "type" argument must be specified');
    super(type, options);
    this[kState].detail = options != null && options.detail !== undefined ? options.detail : null;
  }
  get detail() { return this[kState].detail; }
}
Object.defineProperty(CustomEvent.prototype, Symbol.toStringTag, { value: 'CustomEvent', configurable: true });

function flattenOptions(options) {
  if (typeof options === 'boolean') return { capture: options };
  if (options == null) return {};
  return options;
}

class EventTarget {
  constructor() {
    Object.defineProperty(this, kListeners, { value: new Map(), enumerable: false });
  }

  addEventListener(type, listener, options = undefined) {
    if (arguments.length < 2) throw new TypeError('The "type" and "listener" arguments must be specified');
    if (listener == null) return;
    const opts = flattenOptions(options);
    const capture = !!opts.capture;
    const signal = opts.signal;
    if (signal && signal.aborted) return;
    type = String(type);
    const list = listenersOf(this).get(type) || [];
    if (list.some((l) => l.callback === listener && l.capture === capture)) return;
    const entry = { callback: listener, capture, once: !!opts.once, passive: !!opts.passive, removed: false };
    list.push(entry);
    listenersOf(this).set(type, list);
    if (signal && typeof signal.addEventListener === 'function') {
      signal.addEventListener('abort', () => this.removeEventListener(type, listener, { capture }), { once: true });
    }
  }

  removeEventListener(type, listener, options = undefined) {
    const capture = !!flattenOptions(options).capture;
    type = String(type);
    const list = listenersOf(this).get(type);
    if (!list) return;
    const i = list.findIndex((l) => l.callback === listener && l.capture === capture);
    if (i < 0) return;
    list[i].removed = true;
    list.splice(i, 1);
    if (list.length === 0) listenersOf(this).delete(type);
  }

  dispatchEvent(event) {
    if (!(event instanceof Event)) {
      const { invalidArgType } = require('./errors');
      throw invalidArgType('event', 'Event', event);
    }
    const state = event[kState];
    if (state.dispatching) {
      throw new (require('./dom-exception').DOMException)('The event is already being dispatched', 'InvalidStateError');
    }
    state.dispatching = true;
    state.target = this;
    state.currentTarget = this;
    state.phase = 2;
    const list = listenersOf(this).get(state.type);
    if (list) {
      // Listeners added during dispatch are not called; removed ones are not either.
      for (const l of list.slice()) {
        if (l.removed) continue;
        if (l.once) this.removeEventListener(state.type, l.callback, { capture: l.capture });
        state.inPassive = l.passive;
        try {
          const cb = l.callback;
          if (typeof cb === 'function') cb.call(this, event);
          else if (cb && typeof cb.handleEvent === 'function') cb.handleEvent(event);
          // A returned Promise that rejects is reported like a thrown error.
        } catch (err) {
          reportError(err);
        }
        state.inPassive = false;
        if (state.stopImmediate) break;
      }
    }
    state.phase = 0;
    state.currentTarget = null;
    state.dispatching = false;
    return !event.defaultPrevented;
  }
}
Object.defineProperty(EventTarget.prototype, Symbol.toStringTag, { value: 'EventTarget', configurable: true });

function listenersOf(target) {
  let map = target[kListeners];
  if (!map) {
    // A subclass that did not call super(), or a prototype: give it a map.
    map = new Map();
    Object.defineProperty(target, kListeners, { value: map, enumerable: false });
  }
  return map;
}

// Node turns an exception thrown by an EventTarget listener into an
// uncaught exception; a Function has no process to crash, so Shoal logs it
// (as browsers do) and carries on dispatching.
function reportError(err) {
  const detail = err && err.stack ? `${err.name || 'Error'}: ${err.message}\n${err.stack}` : String(err);
  console.error(`Uncaught exception in an event listener: ${detail}`);
}

// Used by util/events helpers (getEventListeners).
function getListeners(target, type) {
  const list = listenersOf(target).get(String(type));
  return list ? list.map((l) => l.callback) : [];
}

module.exports = { Event, CustomEvent, EventTarget, getListeners, kState };
