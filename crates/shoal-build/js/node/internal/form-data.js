'use strict';
// WHATWG FormData (XMLHttpRequest Standard) without an HTML form: an
// ordered list of (name, value) entries whose values are strings or Files.

const { Blob, File } = require('./blob');
const { notAvailable } = require('./errors');

const kEntries = Symbol('entries');

function toUSV(v) {
  const s = String(v);
  return typeof s.toWellFormed === 'function' ? s.toWellFormed() : s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\ufffd');
}

function makeEntry(name, value, filename, argCount) {
  name = toUSV(name);
  if (value instanceof Blob) {
    if (!(value instanceof File) || filename !== undefined) {
      const fname = filename !== undefined ? String(filename) : value instanceof File ? value.name : 'blob';
      value = new File([value], fname, {
        type: value.type,
        lastModified: value instanceof File ? value.lastModified : undefined,
      });
    }
    return [name, value];
  }
  if (argCount > 2) {
    throw new TypeError("Failed to execute 'append' on 'FormData': parameter 2 is not of type 'Blob'.");
  }
  return [name, toUSV(value)];
}

class FormData {
  constructor(form = undefined) {
    if (form !== undefined) throw notAvailable('new FormData(form)', 'there is no HTML form element');
    Object.defineProperty(this, kEntries, { value: [] });
  }

  append(name, value, filename = undefined) {
    if (arguments.length < 2) throw new TypeError('The "name" and "value" arguments must be specified');
    this[kEntries].push(makeEntry(name, value, filename, arguments.length));
  }

  delete(name) {
    name = toUSV(name);
    const list = this[kEntries];
    for (let i = list.length - 1; i >= 0; i--) if (list[i][0] === name) list.splice(i, 1);
  }

  get(name) {
    name = toUSV(name);
    const e = this[kEntries].find((x) => x[0] === name);
    return e ? e[1] : null;
  }

  getAll(name) {
    name = toUSV(name);
    return this[kEntries].filter((x) => x[0] === name).map((x) => x[1]);
  }

  has(name) {
    name = toUSV(name);
    return this[kEntries].some((x) => x[0] === name);
  }

  set(name, value, filename = undefined) {
    if (arguments.length < 2) throw new TypeError('The "name" and "value" arguments must be specified');
    const entry = makeEntry(name, value, filename, arguments.length);
    const list = this[kEntries];
    const first = list.findIndex((x) => x[0] === entry[0]);
    if (first < 0) {
      list.push(entry);
      return;
    }
    list[first] = entry;
    for (let i = list.length - 1; i > first; i--) if (list[i][0] === entry[0]) list.splice(i, 1);
  }

  *entries() {
    // Live iteration, as the spec's iterator walks the current list.
    for (let i = 0; i < this[kEntries].length; i++) yield [this[kEntries][i][0], this[kEntries][i][1]];
  }
  *keys() { for (const [k] of this.entries()) yield k; }
  *values() { for (const [, v] of this.entries()) yield v; }
  [Symbol.iterator]() { return this.entries(); }

  forEach(callback, thisArg = undefined) {
    if (typeof callback !== 'function') throw new TypeError('The "callback" argument must be of type function');
    for (const [k, v] of this.entries()) callback.call(thisArg, v, k, this);
  }
}
Object.defineProperty(FormData.prototype, Symbol.toStringTag, { value: 'FormData', configurable: true });
Object.defineProperty(FormData.prototype, Symbol.for('nodejs.util.inspect.custom'), {
  value(depth, options, inspect) {
    // As undici (Node's FormData) shows it: an object of the entries.
    const state = Object.create(null);
    for (const [k, v] of this[kEntries]) {
      if (!(k in state)) state[k] = v;
      else if (Array.isArray(state[k])) state[k].push(v);
      else state[k] = [state[k], v];
    }
    if (typeof inspect !== 'function') return `FormData ${JSON.stringify(state)}`;
    const output = inspect(state, { ...options, depth });
    return `FormData ${output.slice(output.indexOf(']') + 2)}`;
  },
});

module.exports = { FormData };
