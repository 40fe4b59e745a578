'use strict';
// structuredClone (HTML Standard's structured serialize + deserialize in
// one pass): primitives, wrappers, Date, RegExp, ArrayBuffer, views, Map,
// Set, Error types, Blob/File, arrays and plain objects, with cycles and
// shared references kept. Anything else that is a function, a symbol or a
// host object throws a DataCloneError, as in Node.js.

const { DOMException } = require('./dom-exception');
const { Blob, File, blobBytes } = require('./blob');

const toStr = (v) => Object.prototype.toString.call(v);

const errorCtors = {
  Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError,
};

const typedArrays = {
  Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
  Float32Array, Float64Array, BigInt64Array, BigUint64Array,
};

function cannotClone(value) {
  let shown;
  try {
    shown = typeof value === 'symbol' ? value.toString() : typeof value === 'function' ? Function.prototype.toString.call(value) : String(value);
  } catch {
    shown = Object.prototype.toString.call(value);
  }
  return new DOMException(`${shown} could not be cloned.`, 'DataCloneError');
}

function structuredClone(value, options = undefined) {
  if (arguments.length === 0) {
    const { nodeError } = require('./errors');
    throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "value" argument must be specified');
  }
  const memory = new Map();
  const transfer = options && options.transfer ? Array.from(options.transfer) : [];
  for (const t of transfer) {
    if (toStr(t) !== '[object ArrayBuffer]') throw new DOMException('Value not transferable', 'DataCloneError');
  }
  const out = clone(value, memory);
  // Transferred buffers end up detached in the sender where the engine can.
  for (const t of transfer) {
    if (typeof t.transfer === 'function') t.transfer();
  }
  return out;
}

function clone(value, memory) {
  const type = typeof value;
  if (type === 'symbol' || type === 'function') throw cannotClone(value);
  if (value === null || type !== 'object') return value;
  if (memory.has(value)) return memory.get(value);

  const tag = toStr(value);
  let out;
  switch (tag) {
    case '[object Boolean]': out = Object(Boolean.prototype.valueOf.call(value)); break;
    case '[object Number]': out = Object(Number.prototype.valueOf.call(value)); break;
    case '[object String]': out = Object(String.prototype.valueOf.call(value)); break;
    case '[object BigInt]': out = Object(BigInt.prototype.valueOf.call(value)); break;
    case '[object Date]': out = new Date(Date.prototype.getTime.call(value)); break;
    case '[object RegExp]': out = new RegExp(value.source, value.flags); break;
    case '[object ArrayBuffer]': out = value.slice(0); break;
    case '[object SharedArrayBuffer]': out = value; break;
    case '[object Map]': {
      out = new Map();
      memory.set(value, out);
      for (const [k, v] of Array.from(Map.prototype.entries.call(value))) out.set(clone(k, memory), clone(v, memory));
      return out;
    }
    case '[object Set]': {
      out = new Set();
      memory.set(value, out);
      for (const v of Array.from(Set.prototype.values.call(value))) out.add(clone(v, memory));
      return out;
    }
    case '[object Error]': {
      const name = value.name;
      const Ctor = Object.prototype.hasOwnProperty.call(errorCtors, name) ? errorCtors[name] : Error;
      out = Object.create(Ctor.prototype);
      memory.set(value, out);
      const desc = Object.getOwnPropertyDescriptor(value, 'message');
      if (desc && 'value' in desc) {
        Object.defineProperty(out, 'message', { value: String(desc.value), writable: true, configurable: true, enumerable: false });
      }
      if (typeof value.stack === 'string') {
        Object.defineProperty(out, 'stack', { value: value.stack, writable: true, configurable: true, enumerable: false });
      }
      if ('cause' in value) {
        Object.defineProperty(out, 'cause', { value: clone(value.cause, memory), writable: true, configurable: true, enumerable: false });
      }
      return out;
    }
    case '[object DataView]': {
      const buf = clone(value.buffer, memory);
      out = new DataView(buf, value.byteOffset, value.byteLength);
      break;
    }
    default:
      if (ArrayBuffer.isView(value)) {
        const Ctor = typedArrays[tag.slice(8, -1)];
        if (!Ctor) throw cannotClone(value);
        const buf = clone(value.buffer, memory);
        // A Buffer (or any subclass) comes back as a plain Uint8Array.
        out = new Ctor(buf, value.byteOffset, value.length);
        break;
      }
      if (value instanceof File) {
        out = new File([blobBytes(value)], value.name, { type: value.type, lastModified: value.lastModified });
        break;
      }
      if (value instanceof Blob) {
        out = new Blob([blobBytes(value)], { type: value.type });
        break;
      }
      if (Array.isArray(value)) {
        out = new Array(value.length);
        memory.set(value, out);
        for (const key of Object.keys(value)) out[key] = clone(value[key], memory);
        return out;
      }
      if (tag !== '[object Object]' && tag !== '[object Arguments]' && !isPlainish(value)) throw cannotClone(value);
      out = {};
      memory.set(value, out);
      for (const key of Object.keys(value)) out[key] = clone(value[key], memory);
      return out;
  }
  memory.set(value, out);
  return out;
}

// Class instances serialize as plain objects; built-in host-like objects
// (Promise, WeakMap, generators...) cannot be cloned at all.
const uncloneable = new Set(['[object Promise]', '[object WeakMap]', '[object WeakSet]', '[object WeakRef]',
  '[object Generator]', '[object AsyncGenerator]', '[object FinalizationRegistry]']);
function isPlainish(value) {
  return !uncloneable.has(toStr(value)) && !(Symbol.toStringTag in value && uncloneable.has(`[object ${value[Symbol.toStringTag]}]`));
}

module.exports = { structuredClone };
