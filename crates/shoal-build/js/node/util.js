'use strict';
// node:util for Shoal Functions.

const { inspect, format, formatWithOptions, stripVTControlCharacters } = require('./internal/inspect');
const { isDeepStrictEqual } = require('./internal/comparisons');
const { TextEncoder, TextDecoder, isWellFormed } = require('./internal/text-coding');
const { invalidArgType, nodeError, validateFunction, abortError } = require('./internal/errors');
const types = require('./util/types');
const { parseEnv } = require('./internal/dotenv.js');

const kCustomPromisifiedSymbol = Symbol.for('nodejs.util.promisify.custom');
const kCustomPromisifyArgsSymbol = Symbol('customPromisifyArgs');

function promisify(original) {
  validateFunction(original, 'original');
  if (original[kCustomPromisifiedSymbol]) {
    const fn = original[kCustomPromisifiedSymbol];
    validateFunction(fn, 'util.promisify.custom');
    return Object.defineProperty(fn, kCustomPromisifiedSymbol, { value: fn, enumerable: false, writable: false, configurable: true });
  }
  // Functions whose callback gets several values name them here.
  const argumentNames = original[kCustomPromisifyArgsSymbol];
  function fn(...args) {
    return new Promise((resolve, reject) => {
      args.push((err, ...values) => {
        if (err) return reject(err);
        if (argumentNames !== undefined && values.length > 1) {
          const obj = {};
          for (let i = 0; i < argumentNames.length; i++) obj[argumentNames[i]] = values[i];
          resolve(obj);
        } else {
          resolve(values[0]);
        }
      });
      Reflect.apply(original, this, args);
    });
  }
  Object.setPrototypeOf(fn, Object.getPrototypeOf(original));
  Object.defineProperty(fn, kCustomPromisifiedSymbol, { value: fn, enumerable: false, writable: false, configurable: true });
  const descriptors = Object.getOwnPropertyDescriptors(original);
  for (const k of Reflect.ownKeys(descriptors)) {
    if (k === 'length' || k === 'name' || k === 'prototype' || k === kCustomPromisifiedSymbol) continue;
    try {
      Object.defineProperty(fn, k, descriptors[k]);
    } catch {
      // non-configurable: leave it
    }
  }
  return fn;
}
promisify.custom = kCustomPromisifiedSymbol;

function callbackifyOnRejected(reason, cb) {
  // A falsy rejection reason would look like success to the callback.
  if (!reason) {
    const newReason = nodeError(Error, 'ERR_FALSY_VALUE_REJECTION', 'Promise was rejected with falsy value');
    newReason.reason = reason;
    reason = newReason;
  }
  return cb(reason);
}

function callbackify(original) {
  validateFunction(original, 'original');
  function callbackified(...args) {
    const maybeCb = args.pop();
    validateFunction(maybeCb, 'last argument');
    const cb = maybeCb.bind(this);
    Reflect.apply(original, this, args).then(
      (ret) => process.nextTick(cb, null, ret),
      (rej) => process.nextTick(callbackifyOnRejected, rej, cb),
    );
  }
  const descriptors = Object.getOwnPropertyDescriptors(original);
  if (typeof descriptors.length.value === 'number') descriptors.length.value++;
  if (typeof descriptors.name.value === 'string') descriptors.name.value += 'Callbackified';
  const propertiesValues = Object.values(descriptors);
  for (let i = 0; i < propertiesValues.length; i++) Object.setPrototypeOf(propertiesValues[i], null);
  Object.defineProperties(callbackified, descriptors);
  return callbackified;
}

function inherits(ctor, superCtor) {
  if (ctor === undefined || ctor === null) throw invalidArgType('ctor', 'Function', ctor);
  if (superCtor === undefined || superCtor === null) throw invalidArgType('superCtor', 'Function', superCtor);
  if (superCtor.prototype === undefined) throw invalidArgType('superCtor.prototype', 'Object', superCtor.prototype);
  Object.defineProperty(ctor, 'super_', { value: superCtor, writable: true, configurable: true });
  Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
}

const codesWarned = new Set();
function deprecate(fn, msg, code) {
  validateFunction(fn, 'fn');
  if (typeof process !== 'undefined' && process.noDeprecation === true) return fn;
  let warned = false;
  function deprecated(...args) {
    if (!warned) {
      warned = true;
      if (code !== undefined) {
        if (!codesWarned.has(code)) {
          emitWarning(msg, 'DeprecationWarning', code);
          codesWarned.add(code);
        }
      } else {
        emitWarning(msg, 'DeprecationWarning');
      }
    }
    if (new.target) return Reflect.construct(fn, args, new.target);
    return Reflect.apply(fn, this, args);
  }
  Object.setPrototypeOf(deprecated, fn);
  if (fn.prototype) deprecated.prototype = fn.prototype;
  return deprecated;
}

function emitWarning(msg, type, code) {
  if (typeof process !== 'undefined' && typeof process.emitWarning === 'function') {
    process.emitWarning(msg, type, code);
  } else {
    console.error(`(node) ${code ? `[${code}] ` : ''}${type}: ${msg}`);
  }
}

// debuglog: enabled by NODE_DEBUG=section[,section...] (with * wildcards).
function debuglog(section, cb) {
  let enabled;
  const test = () => {
    if (enabled === undefined) {
      const env = (typeof process !== 'undefined' && process.env && process.env.NODE_DEBUG) || '';
      const upper = String(section).toUpperCase();
      enabled = env.split(/[\s,]+/).filter(Boolean).some((p) => {
        const re = new RegExp(`^${p.replace(/[|\\{}()[\]^$+?.]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i');
        return re.test(upper);
      });
      if (typeof cb === 'function') cb(logger);
    }
    return enabled;
  };
  function logger(...args) {
    if (!test()) return;
    const pid = typeof process !== 'undefined' && process.pid ? process.pid : 1;
    console.error('%s %d: %s', String(section).toUpperCase(), pid, format(...args));
  }
  Object.defineProperty(logger, 'enabled', { get: test, configurable: true, enumerable: true });
  return logger;
}

function toUSVString(input) {
  const s = `${input}`;
  if (isWellFormed(s)) return s;
  return typeof s.toWellFormed === 'function'
    ? s.toWellFormed()
    : s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\ufffd');
}

function aborted(signal, resource) {
  if (signal === null || typeof signal !== 'object' || !('aborted' in signal)) {
    throw invalidArgType('signal', 'AbortSignal', signal);
  }
  if (resource === null || (typeof resource !== 'object' && typeof resource !== 'function')) {
    throw invalidArgType('resource', 'object', resource);
  }
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

function getSystemErrorName(err) {
  const names = { '-2': 'ENOENT', '-13': 'EACCES', '-21': 'EISDIR', '-20': 'ENOTDIR', '-30': 'EROFS', '-17': 'EEXIST', '-22': 'EINVAL', '-1': 'EPERM' };
  if (typeof err !== 'number') throw invalidArgType('err', 'number', err);
  return names[String(err)] || `Unknown system error ${err}`;
}

const styleCodes = inspect.colors;
function styleText(format, text) {
  const formats = Array.isArray(format) ? format : [format];
  let left = '';
  let right = '';
  for (const key of formats) {
    const code = styleCodes[key];
    if (code === undefined) {
      throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument 'format' must be one of: ${Object.keys(styleCodes).join(', ')}. Received ${inspect(key)}`);
    }
    left += `\u001b[${code[0]}m`;
    right = `\u001b[${code[1]}m${right}`;
  }
  return `${left}${text}${right}`;
}

function isError(e) {
  return types.isNativeError(e) || e instanceof Error;
}

function parseArgs() {
  const { notAvailable } = require('./internal/errors');
  throw notAvailable('util.parseArgs()', 'a Function has no command line');
}

module.exports = {
  format,
  parseEnv,
  formatWithOptions,
  inspect,
  promisify,
  callbackify,
  inherits,
  deprecate,
  debuglog,
  debug: debuglog,
  isDeepStrictEqual,
  types,
  TextEncoder,
  TextDecoder,
  toUSVString,
  stripVTControlCharacters,
  aborted,
  getSystemErrorName,
  styleText,
  parseArgs,
  // Deprecated type checks that Node.js 20 still exports.
  isArray: Array.isArray,
  isBoolean: (v) => typeof v === 'boolean',
  isBuffer: (v) => v != null && v.constructor != null && typeof v.constructor.isBuffer === 'function' && v.constructor.isBuffer(v),
  isDate: types.isDate,
  isError,
  isFunction: (v) => typeof v === 'function',
  isNull: (v) => v === null,
  isNullOrUndefined: (v) => v === null || v === undefined,
  isNumber: (v) => typeof v === 'number',
  isObject: (v) => v !== null && typeof v === 'object',
  isPrimitive: (v) => v === null || (typeof v !== 'object' && typeof v !== 'function'),
  isRegExp: types.isRegExp,
  isString: (v) => typeof v === 'string',
  isSymbol: (v) => typeof v === 'symbol',
  isUndefined: (v) => v === undefined,
  _extend(target, source) {
    if (source === null || typeof source !== 'object') return target;
    for (const k of Object.keys(source)) target[k] = source[k];
    return target;
  },
};

// Used by other modules (fs, dns...) for callback APIs that resolve with
// several values; kept off the public surface.
Object.defineProperty(module.exports, '_customPromisifyArgs', { value: kCustomPromisifyArgsSymbol, enumerable: false });
Object.defineProperty(module.exports, '_abortError', { value: abortError, enumerable: false });
