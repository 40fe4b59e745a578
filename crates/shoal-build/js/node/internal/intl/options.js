'use strict';
// ECMA-402's option reading (GetOption and friends) with V8's error
// messages, and the helpers every Intl constructor shares.

const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

// How V8 shows a receiver in "called on incompatible receiver" errors.
function receiverText(v) {
  if (typeof v === 'object' && v !== null) {
    if (Array.isArray(v)) return '[object Array]';
    const ctor = v.constructor;
    return `#<${ctor && typeof ctor.name === 'string' && ctor.name ? ctor.name : 'Object'}>`;
  }
  if (typeof v === 'function') return String(v);
  if (typeof v === 'symbol') return v.toString();
  return String(v);
}

function incompatibleReceiver(method, receiver) {
  return new TypeError(`Method ${method} called on incompatible receiver ${receiverText(receiver)}`);
}

// The internal slots of `obj` in `slots` (a WeakMap), or a TypeError
// naming the method.
function unwrap(slots, obj, method) {
  const s = (typeof obj === 'object' && obj !== null) || typeof obj === 'function' ? slots.get(obj) : undefined;
  if (s === undefined) throw incompatibleReceiver(method, obj);
  return s;
}

// CoerceOptionsToObject, with V8's message for null.
function toOptionsObject(options, service) {
  if (options === undefined) return Object.create(null);
  if (options === null) throw new TypeError(`${service} called on null or undefined`);
  return Object(options);
}

// GetOptionsObject (ListFormat, Segmenter, DisplayNames): an object or undefined only.
function getOptionsObject(options) {
  if (options === undefined) return Object.create(null);
  if (typeof options === 'object' && options !== null) return options;
  if (typeof options === 'function') return options;
  throw new TypeError('invalid_argument');
}

// GetOption for strings: `values` lists the accepted ones (or undefined
// for any); `service` names the caller in the RangeError as V8 does
// ("Intl.NumberFormat", "Date.prototype.toLocaleString"...).
function getStringOption(options, name, values, fallback, service) {
  const value = options[name];
  if (value === undefined) return fallback;
  const s = String(value);
  if (values !== undefined && !values.includes(s)) {
    throw new RangeError(`Value ${s} out of range for ${service} options property ${name}`);
  }
  return s;
}

function getBooleanOption(options, name, fallback) {
  const value = options[name];
  return value === undefined ? fallback : Boolean(value);
}

// DefaultNumberOption / GetNumberOption.
function defaultNumberOption(value, min, max, fallback, name) {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (Number.isNaN(n) || n < min || n > max) throw new RangeError(`${name} value is out of range.`);
  return Math.floor(n);
}

function getNumberOption(options, name, min, max, fallback) {
  return defaultNumberOption(options[name], min, max, fallback, name);
}

// Methods as classes have them: writable, configurable, not enumerable.
function defineMethods(target, methods) {
  for (const name of Reflect.ownKeys(methods)) {
    const d = Object.getOwnPropertyDescriptor(methods, name);
    if (d.get) Object.defineProperty(target, name, { get: d.get, enumerable: false, configurable: true });
    else Object.defineProperty(target, name, { value: d.value, writable: true, enumerable: false, configurable: true });
  }
}

function setToStringTag(proto, tag) {
  Object.defineProperty(proto, Symbol.toStringTag, { value: tag, configurable: true });
}

function partsToString(parts) {
  let out = '';
  for (const p of parts) out += p.value;
  return out;
}

module.exports = {
  hasOwn,
  receiverText,
  incompatibleReceiver,
  unwrap,
  toOptionsObject,
  getOptionsObject,
  getStringOption,
  getBooleanOption,
  defaultNumberOption,
  getNumberOption,
  defineMethods,
  setToStringTag,
  partsToString,
};
