'use strict';
// WHATWG URL and URLSearchParams. Parsing and the component setters are
// the engine's (native.urlParse/urlSet, the Rust url crate, which
// implements the URL Standard); URLSearchParams and the
// application/x-www-form-urlencoded rules are implemented here.

const { parseQuery, serializeQuery } = require('./form-urlencoded');
const { nodeError, invalidArgType, notAvailable } = require('./errors');
const native = require('./native');

const kParts = Symbol('parts');
const kParams = Symbol('params');
const kList = Symbol('list');
const kUrl = Symbol('url');

function invalidUrl(input, base) {
  const err = nodeError(TypeError, 'ERR_INVALID_URL', 'Invalid URL');
  err.input = input;
  if (base !== undefined) err.base = base;
  return err;
}

function toUSV(v) {
  const s = String(v);
  return typeof s.toWellFormed === 'function' ? s.toWellFormed() : s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\ufffd');
}

function parse(input, base) {
  try {
    return base === undefined ? native.urlParse(input) : native.urlParse(input, base);
  } catch (err) {
    if (err && err.code === 'ERR_NOT_AVAILABLE_IN_SHOAL') throw err;
    return null;
  }
}

class URL {
  constructor(input, base = undefined) {
    if (arguments.length === 0) throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "url" argument must be specified');
    input = toUSV(input);
    if (base !== undefined) base = toUSV(base);
    const parts = parse(input, base);
    if (!parts) throw invalidUrl(input, base);
    Object.defineProperty(this, kParts, { value: parts, writable: true });
    Object.defineProperty(this, kParams, { value: null, writable: true });
  }

  static canParse(input, base = undefined) {
    return parse(toUSV(input), base === undefined ? undefined : toUSV(base)) !== null;
  }

  static parse(input, base = undefined) {
    try {
      return new URL(input, base);
    } catch {
      return null;
    }
  }

  static createObjectURL() {
    throw notAvailable('URL.createObjectURL()');
  }

  static revokeObjectURL() {
    throw notAvailable('URL.revokeObjectURL()');
  }

  get href() { return this[kParts].href; }
  set href(value) {
    const v = toUSV(value);
    const parts = parse(v);
    if (!parts) throw invalidUrl(v);
    this[kParts] = parts;
    if (this[kParams]) this[kParams][kList] = parseQuery(parts.search);
  }

  get origin() { return this[kParts].origin; }
  get protocol() { return this[kParts].protocol; }
  set protocol(v) { this._set('protocol', v); }
  get username() { return this[kParts].username; }
  set username(v) { this._set('username', v); }
  get password() { return this[kParts].password; }
  set password(v) { this._set('password', v); }
  get host() { return this[kParts].host; }
  set host(v) { this._set('host', v); }
  get hostname() { return this[kParts].hostname; }
  set hostname(v) { this._set('hostname', v); }
  get port() { return this[kParts].port; }
  set port(v) { this._set('port', v); }
  get pathname() { return this[kParts].pathname; }
  set pathname(v) { this._set('pathname', v); }
  get search() { return this[kParts].search; }
  set search(v) {
    this._set('search', v);
    if (this[kParams]) this[kParams][kList] = parseQuery(this[kParts].search);
  }
  get searchParams() {
    if (!this[kParams]) {
      const params = new URLSearchParams(this[kParts].search);
      params[kUrl] = this;
      this[kParams] = params;
    }
    return this[kParams];
  }
  get hash() { return this[kParts].hash; }
  set hash(v) { this._set('hash', v); }

  _set(component, value) {
    // Setters never throw: an unacceptable value leaves the URL unchanged.
    try {
      this[kParts] = native.urlSet(this[kParts].href, component, toUSV(value));
    } catch (err) {
      if (err && err.code === 'ERR_NOT_AVAILABLE_IN_SHOAL') throw err;
    }
  }

  toString() { return this[kParts].href; }
  toJSON() { return this[kParts].href; }
}

const urlProps = ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname',
  'search', 'searchParams', 'hash', 'toString', 'toJSON'];
for (const name of urlProps) Object.defineProperty(URL.prototype, name, { enumerable: true });
Object.defineProperty(URL.prototype, '_set', { enumerable: false });
Object.defineProperty(URL.prototype, Symbol.toStringTag, { value: 'URL', configurable: true });
Object.defineProperty(URL.prototype, Symbol.for('nodejs.util.inspect.custom'), {
  value(depth, options, inspect) {
    const obj = {};
    for (const name of ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'searchParams', 'hash']) {
      obj[name] = this[name];
    }
    if (typeof inspect !== 'function') return `URL ${JSON.stringify(obj)}`;
    return `URL ${inspect(obj, { ...options, depth })}`;
  },
});

class URLSearchParams {
  constructor(init = undefined) {
    Object.defineProperty(this, kList, { value: [], writable: true });
    Object.defineProperty(this, kUrl, { value: null, writable: true });
    if (init === undefined || init === null) return;
    if (typeof init === 'object' || typeof init === 'function') {
      if (typeof init[Symbol.iterator] === 'function') {
        for (const pair of init) {
          if (pair === null || (typeof pair !== 'object' && typeof pair !== 'function') || typeof pair[Symbol.iterator] !== 'function') {
            throw nodeError(TypeError, 'ERR_INVALID_TUPLE', 'Each query pair must be an iterable [name, value] tuple');
          }
          const items = Array.from(pair);
          if (items.length !== 2) {
            throw nodeError(TypeError, 'ERR_INVALID_TUPLE', 'Each query pair must be an iterable [name, value] tuple');
          }
          this[kList].push([toUSV(items[0]), toUSV(items[1])]);
        }
      } else {
        for (const key of Reflect.ownKeys(init)) {
          if (typeof key !== 'string') continue;
          const desc = Reflect.getOwnPropertyDescriptor(init, key);
          if (desc && desc.enumerable) this[kList].push([toUSV(key), toUSV(init[key])]);
        }
      }
      return;
    }
    this[kList] = parseQuery(toUSV(init));
  }

  get size() { return this[kList].length; }

  append(name, value) {
    if (arguments.length < 2) throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "name" and "value" arguments must be specified');
    this[kList].push([toUSV(name), toUSV(value)]);
    this._update();
  }

  delete(name, value = undefined) {
    if (arguments.length < 1) throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "name" argument must be specified');
    name = toUSV(name);
    const v = value === undefined ? undefined : toUSV(value);
    this[kList] = this[kList].filter(([k, val]) => !(k === name && (v === undefined || val === v)));
    this._update();
  }

  get(name) {
    if (arguments.length < 1) throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "name" argument must be specified');
    name = toUSV(name);
    const e = this[kList].find(([k]) => k === name);
    return e ? e[1] : null;
  }

  getAll(name) {
    if (arguments.length < 1) throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "name" argument must be specified');
    name = toUSV(name);
    return this[kList].filter(([k]) => k === name).map(([, v]) => v);
  }

  has(name, value = undefined) {
    if (arguments.length < 1) throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "name" argument must be specified');
    name = toUSV(name);
    const v = value === undefined ? undefined : toUSV(value);
    return this[kList].some(([k, val]) => k === name && (v === undefined || val === v));
  }

  set(name, value) {
    if (arguments.length < 2) throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "name" and "value" arguments must be specified');
    name = toUSV(name);
    value = toUSV(value);
    const list = this[kList];
    const first = list.findIndex(([k]) => k === name);
    if (first < 0) list.push([name, value]);
    else {
      list[first] = [name, value];
      this[kList] = list.filter(([k], i) => i <= first || k !== name);
    }
    this._update();
  }

  sort() {
    // Stable sort by UTF-16 code units of the names.
    this[kList] = this[kList]
      .map((e, i) => [e, i])
      .sort((a, b) => (a[0][0] < b[0][0] ? -1 : a[0][0] > b[0][0] ? 1 : a[1] - b[1]))
      .map(([e]) => e);
    this._update();
  }

  forEach(callback, thisArg = undefined) {
    if (typeof callback !== 'function') throw invalidArgType('callback', 'function', callback);
    for (let i = 0; i < this[kList].length; i++) {
      const [k, v] = this[kList][i];
      callback.call(thisArg, v, k, this);
    }
  }

  *entries() {
    for (let i = 0; i < this[kList].length; i++) yield [this[kList][i][0], this[kList][i][1]];
  }
  *keys() { for (let i = 0; i < this[kList].length; i++) yield this[kList][i][0]; }
  *values() { for (let i = 0; i < this[kList].length; i++) yield this[kList][i][1]; }
  [Symbol.iterator]() { return this.entries(); }

  toString() { return serializeQuery(this[kList]); }

  // Keeps an owning URL's query in step ("URLSearchParams update steps").
  _update() {
    const url = this[kUrl];
    if (!url) return;
    const serialized = serializeQuery(this[kList]);
    url._set('search', serialized);
  }
}
for (const name of ['size', 'append', 'delete', 'get', 'getAll', 'has', 'set', 'sort', 'forEach', 'entries', 'keys', 'values', 'toString']) {
  Object.defineProperty(URLSearchParams.prototype, name, { enumerable: true });
}
Object.defineProperty(URLSearchParams.prototype, '_update', { enumerable: false });
Object.defineProperty(URLSearchParams.prototype, Symbol.toStringTag, { value: 'URLSearchParams', configurable: true });
Object.defineProperty(URLSearchParams.prototype, Symbol.for('nodejs.util.inspect.custom'), {
  value(depth, options, inspect) {
    const fmt = typeof inspect === 'function' ? (v) => inspect(v) : (v) => `'${v}'`;
    const parts = this[kList].map(([k, v]) => `${fmt(k)} => ${fmt(v)}`);
    return parts.length ? `URLSearchParams { ${parts.join(', ')} }` : 'URLSearchParams {}';
  },
});

module.exports = { URL, URLSearchParams };
