'use strict';
// Node's argument checks whose messages show the value as util.inspect
// does (ERR_INVALID_ARG_VALUE: "The argument 'x' is invalid. Received NaN"),
// for the modules added with issue 18 (dns, readline...).
const { inspect } = require('./inspect.js');
const { nodeError } = require('./errors.js');

function invalidArgValue(name, value, reason = 'is invalid') {
  let shown = inspect(value);
  if (shown.length > 128) shown = `${shown.slice(0, 128)}...`;
  const type = name.includes('.') ? 'property' : 'argument';
  return nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The ${type} '${name}' ${reason}. Received ${shown}`);
}

function validateOneOf(value, name, allowed) {
  if (!allowed.includes(value)) {
    const list = allowed.map((v) => (typeof v === 'string' ? `'${v}'` : String(v))).join(', ');
    throw invalidArgValue(name, value, `must be one of: ${list}`);
  }
}

module.exports = { invalidArgValue, validateOneOf };
