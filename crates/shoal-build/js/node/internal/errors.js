'use strict';
// Node.js-style errors (with a `code` property) shared by Shoal's
// implementations of the Node.js built-in modules.

// Node prints a code as "TypeError [ERR_X]: message" in stacks and
// toString(); the name itself stays the plain constructor name.
function withCode(err, code) {
  Object.defineProperty(err, 'code', { value: code, enumerable: true, writable: true, configurable: true });
  if (typeof err.stack === 'string') {
    const head = `${err.name}: ${err.message}`;
    if (err.stack.startsWith(head)) {
      err.stack = `${err.name} [${code}]: ${err.message}${err.stack.slice(head.length)}`;
    }
  }
  Object.defineProperty(err, 'toString', {
    value() {
      return `${this.name} [${code}]: ${this.message}`;
    },
    enumerable: false,
    writable: true,
    configurable: true,
  });
  return err;
}

function nodeError(Ctor, code, message) {
  return withCode(new Ctor(message), code);
}

// A short description of a value, as Node's error messages give it
// ("Received type number (1)", "Received an instance of Date").
function describeReceived(value) {
  if (value === null) return 'Received null';
  if (value === undefined) return 'Received undefined';
  if (typeof value === 'function') return `Received function ${value.name || '<anonymous>'}`;
  if (typeof value === 'object') {
    if (value.constructor && value.constructor.name) return `Received an instance of ${value.constructor.name}`;
    return 'Received [Object: null prototype]';
  }
  let shown;
  if (typeof value === 'string') shown = `'${value.length > 28 ? `${value.slice(0, 25)}...` : value}'`;
  else if (typeof value === 'bigint') shown = `${value}n`;
  else if (typeof value === 'symbol') shown = String(value);
  else shown = Object.is(value, -0) ? '-0' : String(value);
  if (typeof value !== 'string' && shown.length > 28) shown = `${shown.slice(0, 25)}...`;
  return `Received type ${typeof value} (${shown})`;
}

const classNames = /^[A-Z]/;

// ERR_INVALID_ARG_TYPE: `The "name" argument must be of type string. Received ...`
function invalidArgType(name, expected, actual) {
  const list = Array.isArray(expected) ? expected : [expected];
  const types = list.filter((t) => !classNames.test(t) && !/^an? /.test(t));
  const instances = list.filter((t) => classNames.test(t));
  const other = list.filter((t) => /^an? /.test(t));
  let msg = name.endsWith(' argument')
    ? `The ${name} must be `
    : `The "${name}" ${name.includes('.') ? 'property' : 'argument'} must be `;
  const parts = [];
  if (types.length) parts.push(`${types.length > 1 ? 'one of type' : 'of type'} ${joinOr(types)}`);
  if (instances.length) parts.push(`an instance of ${joinOr(instances)}`);
  if (other.length) parts.push(joinOr(other));
  msg += parts.join(' or ');
  msg += `. ${describeReceived(actual)}`;
  return nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', msg);
}

function joinOr(list) {
  if (list.length === 1) return list[0];
  if (list.length === 2) return `${list[0]} or ${list[1]}`;
  return `${list.slice(0, -1).join(', ')}, or ${list[list.length - 1]}`;
}

function outOfRange(name, range, value) {
  let shown = typeof value === 'bigint' ? `${value}n` : String(value);
  if (typeof value === 'number' && Math.abs(value) > 2 ** 32) shown = addUnderscores(String(value));
  return nodeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "${name}" is out of range. It must be ${range}. Received ${shown}`);
}

function addUnderscores(s) {
  let res = '';
  let i = s.length;
  const start = s[0] === '-' ? 1 : 0;
  for (; i >= start + 4; i -= 3) res = `_${s.slice(i - 3, i)}${res}`;
  return `${s.slice(0, i)}${res}`;
}

// Thrown by every API that Shoal's engine cannot offer, naming the API.
function notAvailable(what, why) {
  const err = new Error(`${what} is not available in Shoal's JavaScript engine${why ? ` (${why})` : ''}`);
  return withCode(err, 'ERR_NOT_AVAILABLE_IN_SHOAL');
}

function abortError(reason) {
  const err = new Error('The operation was aborted');
  err.name = 'AbortError';
  err.code = 'ABORT_ERR';
  if (reason !== undefined) err.cause = reason;
  return err;
}

function validateFunction(fn, name) {
  if (typeof fn !== 'function') throw invalidArgType(name, 'function', fn);
}

module.exports = {
  withCode,
  nodeError,
  invalidArgType,
  outOfRange,
  addUnderscores,
  notAvailable,
  abortError,
  describeReceived,
  validateFunction,
};
