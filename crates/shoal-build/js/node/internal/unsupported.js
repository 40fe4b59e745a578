'use strict';
// What a Function cannot do (start processes or threads, open sockets of
// its own, debug or snapshot the engine...). The modules for it load with
// Node's exports, because packages require them on paths a Function never
// takes; a call throws Node's ERR_METHOD_NOT_IMPLEMENTED, naming the call
// and saying why, so the author sees what to change.
const { withCode } = require('./errors.js');

/** The error for `call` (as a user writes it: `child_process.spawn()`). */
function notImplemented(call, why) {
  return withCode(new Error(`${call} is not available in Shoal: ${why}`), 'ERR_METHOD_NOT_IMPLEMENTED');
}

/** A function named `name` that throws notImplemented(`${owner}.${name}()`). */
function unsupportedFunction(owner, name, why) {
  const fn = function () {
    throw notImplemented(`${owner}.${name}()`, why);
  };
  Object.defineProperty(fn, 'name', { value: name });
  return fn;
}

/** An object with one throwing function for each name, plus `extra`. */
function unsupportedFunctions(owner, names, why, extra = {}) {
  const out = { ...extra };
  for (const name of names) out[name] = unsupportedFunction(owner, name, why);
  return out;
}

/**
 * Puts on `Class.prototype` a method for each name that throws, naming
 * `${label}#${name}()`. For classes a Function can refer to (extend, test
 * with instanceof) but whose instances need what Shoal does not have.
 */
function unsupportedMethods(Class, label, names, why) {
  for (const name of names) {
    const method = function () {
      throw notImplemented(`${label}#${name}()`, why);
    };
    Object.defineProperty(method, 'name', { value: name });
    Object.defineProperty(Class.prototype, name, { value: method, writable: true, configurable: true, enumerable: false });
  }
  return Class;
}

module.exports = { notImplemented, unsupportedFunction, unsupportedFunctions, unsupportedMethods };
