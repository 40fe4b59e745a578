'use strict';
// node:assert for Shoal Functions. AssertionError messages follow Node.js
// 20 (the "+ actual - expected" line diff for strictEqual/deepStrictEqual).
// One difference: with no message, a failed assert.ok(value) cannot quote
// the source expression (the engine has no source text); it says
// "<value> == true" instead.

const { inspect } = require('./internal/inspect');
const { isDeepEqual, isDeepStrictEqual } = require('./internal/comparisons');
const { invalidArgType, nodeError } = require('./internal/errors');
const types = require('./util/types');

const kReadableOperator = {
  deepStrictEqual: 'Expected values to be strictly deep-equal:',
  strictEqual: 'Expected values to be strictly equal:',
  strictEqualObject: 'Expected "actual" to be reference-equal to "expected":',
  deepEqual: 'Expected values to be loosely deep-equal:',
  notDeepStrictEqual: 'Expected "actual" not to be strictly deep-equal to:',
  notStrictEqual: 'Expected "actual" to be strictly unequal to:',
  notStrictEqualObject: 'Expected "actual" not to be reference-equal to "expected":',
  notDeepEqual: 'Expected "actual" not to be loosely deep-equal to:',
  notIdentical: 'Values have same structure but are not reference-equal:',
  notDeepEqualUnequal: 'Expected values not to be loosely deep-equal:',
};
const kMaxShortLength = 12;

function inspectValue(val) {
  return inspect(val, {
    compact: false,
    customInspect: false,
    depth: 1000,
    maxArrayLength: Infinity,
    showHidden: false,
    showProxy: false,
    sorted: true,
    getters: true,
  });
}

// The "+ actual - expected" diff of the inspected values.
function createErrDiff(actual, expected, operator, customMessage) {
  let other = '';
  let res = '';
  let end = '';
  let skipped = false;
  const actualInspected = inspectValue(actual);
  const actualLines = actualInspected.split('\n');
  const expectedLines = inspectValue(expected).split('\n');
  let i = 0;
  let indicator = '';

  if (operator === 'strictEqual' &&
      ((typeof actual === 'object' && actual !== null && typeof expected === 'object' && expected !== null) ||
       (typeof actual === 'function' && typeof expected === 'function'))) {
    operator = 'strictEqualObject';
  }

  if (actualLines.length === 1 && expectedLines.length === 1 && actualLines[0] !== expectedLines[0]) {
    const actualRaw = actualLines[0];
    const expectedRaw = expectedLines[0];
    const inputLength = actualRaw.length + expectedRaw.length;
    if (inputLength <= kMaxShortLength) {
      if ((typeof actual !== 'object' || actual === null) && (typeof expected !== 'object' || expected === null) &&
          (actual !== 0 || expected !== 0)) {
        return `${customMessage !== undefined ? customMessage : kReadableOperator[operator]}\n\n${actualLines[0]} !== ${expectedLines[0]}\n`;
      }
    } else if (operator !== 'strictEqualObject') {
      const maxLength = 80; // stderr is not a TTY in a Function
      if (inputLength < maxLength) {
        while (actualRaw[i] === expectedRaw[i]) i++;
        if (i > 2) {
          indicator = `\n  ${' '.repeat(i)}^`;
          i = 0;
        }
      }
    }
  }

  let a = actualLines[actualLines.length - 1];
  let b = expectedLines[expectedLines.length - 1];
  while (a === b) {
    if (i++ < 3) end = `\n  ${a}${end}`;
    else other = a;
    actualLines.pop();
    expectedLines.pop();
    if (actualLines.length === 0 || expectedLines.length === 0) break;
    a = actualLines[actualLines.length - 1];
    b = expectedLines[expectedLines.length - 1];
  }

  const maxLines = Math.max(actualLines.length, expectedLines.length);
  if (maxLines === 0) {
    const lines = actualInspected.split('\n');
    if (lines.length > 50) {
      lines[46] = '...';
      while (lines.length > 47) lines.pop();
    }
    return `${customMessage !== undefined ? customMessage : kReadableOperator.notIdentical}\n\n${lines.join('\n')}\n`;
  }

  if (i >= 5) {
    end = `\n...${end}`;
    skipped = true;
  }
  if (other !== '') {
    end = `\n  ${other}${end}`;
    other = '';
  }

  let printedLines = 0;
  let identical = 0;
  const msg = `${customMessage !== undefined ? customMessage : kReadableOperator[operator]}\n+ actual - expected`;
  const skippedMsg = ' ... Lines skipped';

  let lines = actualLines;
  let plusMinus = '+';
  let maxLength = expectedLines.length;
  if (actualLines.length < maxLines) {
    lines = expectedLines;
    plusMinus = '-';
    maxLength = actualLines.length;
  }

  const printIdentical = (source, at) => {
    if (identical > 2) {
      if (identical > 3) {
        if (identical > 4) {
          if (identical === 5) {
            res += `\n  ${source[at - 3]}`;
            printedLines++;
          } else {
            res += '\n...';
            skipped = true;
          }
        }
        res += `\n  ${source[at - 2]}`;
        printedLines++;
      }
      res += `\n  ${source[at - 1]}`;
      printedLines++;
    }
    identical = 0;
  };

  for (i = 0; i < maxLines; i++) {
    if (maxLength < i + 1) {
      printIdentical(lines, i);
      if (lines === actualLines) res += `\n${plusMinus} ${lines[i]}`;
      else other += `\n${plusMinus} ${lines[i]}`;
      printedLines++;
    } else {
      const expectedLine = expectedLines[i];
      let actualLine = actualLines[i];
      let divergingLines = actualLine !== expectedLine &&
        (!actualLine.endsWith(',') || actualLine.slice(0, -1) !== expectedLine);
      if (divergingLines && expectedLine.endsWith(',') && expectedLine.slice(0, -1) === actualLine) {
        divergingLines = false;
        actualLine += ',';
      }
      if (divergingLines) {
        printIdentical(actualLines, i);
        res += `\n+ ${actualLine}`;
        other += `\n- ${expectedLine}`;
        printedLines += 2;
      } else {
        res += other;
        other = '';
        identical++;
        if (identical <= 2) {
          res += `\n  ${actualLine}`;
          printedLines++;
        }
      }
    }
    if (printedLines > 50 && i < maxLines - 2) {
      return `${msg}${skippedMsg}\n${res}\n...${other}\n...`;
    }
  }
  return `${msg}${skipped ? skippedMsg : ''}\n${res}${other}${end}${indicator}`;
}

class AssertionError extends Error {
  constructor(options) {
    if (options === null || typeof options !== 'object') throw invalidArgType('options', 'Object', options);
    const { message, operator, stackStartFn, details } = options;
    let { actual, expected } = options;
    if (message != null) {
      // Node 20.19+ keeps the diff under a custom message for these two.
      if (operator === 'deepStrictEqual' || operator === 'strictEqual') super(createErrDiff(actual, expected, operator, String(message)));
      else super(String(message));
    } else if (operator === 'deepStrictEqual' || operator === 'strictEqual') {
      super(createErrDiff(actual, expected, operator));
    } else if (operator === 'notDeepStrictEqual' || operator === 'notStrictEqual') {
      let base = kReadableOperator[operator];
      const res = inspectValue(actual).split('\n');
      if (operator === 'notStrictEqual' && ((typeof actual === 'object' && actual !== null) || typeof actual === 'function')) {
        base = kReadableOperator.notStrictEqualObject;
      }
      if (res.length > 50) {
        res[46] = '...';
        while (res.length > 47) res.pop();
      }
      if (res.length === 1) super(`${base}${res[0].length > 5 ? '\n\n' : ' '}${res[0]}`);
      else super(`${base}\n\n${res.join('\n')}\n`);
    } else {
      let res = inspectValue(actual);
      let other = inspectValue(expected);
      const knownOperator = kReadableOperator[operator];
      if (operator === 'notDeepEqual' && res === other) {
        res = `${knownOperator}\n\n${res}`;
        if (res.length > 1024) res = `${res.slice(0, 1021)}...`;
        super(res);
      } else {
        if (res.length > 512) res = `${res.slice(0, 509)}...`;
        if (other.length > 512) other = `${other.slice(0, 509)}...`;
        if (operator === 'deepEqual') {
          res = `${knownOperator}\n\n${res}\n\nshould loosely deep-equal\n\n`;
        } else {
          const newOp = kReadableOperator[`${operator}Unequal`];
          if (newOp) res = `${newOp}\n\n${res}\n\nshould not loosely deep-equal\n\n`;
          else other = ` ${operator} ${other}`;
        }
        super(`${res}${other}`);
      }
    }
    this.generatedMessage = !message;
    Object.defineProperty(this, 'name', { value: 'AssertionError [ERR_ASSERTION]', enumerable: false, writable: true, configurable: true });
    this.code = 'ERR_ASSERTION';
    if (details) {
      this.actual = undefined;
      this.expected = undefined;
      this.operator = undefined;
      for (let i = 0; i < details.length; i++) {
        this[`message ${i}`] = details[i].message;
        this[`actual ${i}`] = details[i].actual;
        this[`expected ${i}`] = details[i].expected;
        this[`operator ${i}`] = details[i].operator;
        this[`stack trace ${i}`] = details[i].stack;
      }
    } else {
      this.actual = actual;
      this.expected = expected;
      this.operator = operator;
    }
    if (typeof Error.captureStackTrace === 'function') Error.captureStackTrace(this, stackStartFn || AssertionError);
    // eslint-disable-next-line no-unused-expressions
    this.stack;
    this.name = 'AssertionError';
  }

  toString() {
    return `${this.name} [${this.code}]: ${this.message}`;
  }
}

function innerFail(obj) {
  if (obj.message instanceof Error) throw obj.message;
  throw new AssertionError(obj);
}

function innerOk(fn, argLen, value, message) {
  if (!value) {
    let generatedMessage = false;
    if (argLen === 0) {
      generatedMessage = true;
      message = 'No value argument passed to `assert.ok()`';
    } else if (message == null) {
      generatedMessage = true;
    } else if (message instanceof Error) {
      throw message;
    }
    const err = new AssertionError({ actual: value, expected: true, message, operator: '==', stackStartFn: fn });
    err.generatedMessage = generatedMessage;
    throw err;
  }
}

function ok(...args) {
  innerOk(ok, args.length, ...args);
}

const assert = ok;

assert.fail = function fail(actual, expected, message, operator, stackStartFn) {
  const argsLen = arguments.length;
  let internalMessage = false;
  if (actual == null && argsLen <= 1) {
    internalMessage = true;
    message = 'Failed';
  } else if (argsLen === 1) {
    message = actual;
    actual = undefined;
  } else {
    if (argsLen === 2) operator = '!=';
  }
  if (message instanceof Error) throw message;
  const errArgs = { actual, expected, operator: operator === undefined ? 'fail' : operator, stackStartFn: stackStartFn || fail, message };
  const err = new AssertionError(errArgs);
  if (internalMessage) err.generatedMessage = true;
  throw err;
};

assert.AssertionError = AssertionError;
assert.ok = ok;

function checkArgs(n, names) {
  if (n < 2) {
    throw nodeError(TypeError, 'ERR_MISSING_ARGS', `The "${names[0]}" and "${names[1]}" arguments must be specified`);
  }
}

assert.equal = function equal(actual, expected, message) {
  checkArgs(arguments.length, ['actual', 'expected']);
  // eslint-disable-next-line eqeqeq
  if (actual != expected && (!Number.isNaN(actual) || !Number.isNaN(expected))) {
    innerFail({ actual, expected, message, operator: '==', stackStartFn: equal });
  }
};

assert.notEqual = function notEqual(actual, expected, message) {
  checkArgs(arguments.length, ['actual', 'expected']);
  // eslint-disable-next-line eqeqeq
  if (actual == expected || (Number.isNaN(actual) && Number.isNaN(expected))) {
    innerFail({ actual, expected, message, operator: '!=', stackStartFn: notEqual });
  }
};

assert.deepEqual = function deepEqual(actual, expected, message) {
  checkArgs(arguments.length, ['actual', 'expected']);
  if (!isDeepEqual(actual, expected)) innerFail({ actual, expected, message, operator: 'deepEqual', stackStartFn: deepEqual });
};

assert.notDeepEqual = function notDeepEqual(actual, expected, message) {
  checkArgs(arguments.length, ['actual', 'expected']);
  if (isDeepEqual(actual, expected)) innerFail({ actual, expected, message, operator: 'notDeepEqual', stackStartFn: notDeepEqual });
};

assert.deepStrictEqual = function deepStrictEqual(actual, expected, message) {
  checkArgs(arguments.length, ['actual', 'expected']);
  if (!isDeepStrictEqual(actual, expected)) {
    innerFail({ actual, expected, message, operator: 'deepStrictEqual', stackStartFn: deepStrictEqual });
  }
};

assert.notDeepStrictEqual = function notDeepStrictEqual(actual, expected, message) {
  checkArgs(arguments.length, ['actual', 'expected']);
  if (isDeepStrictEqual(actual, expected)) {
    innerFail({ actual, expected, message, operator: 'notDeepStrictEqual', stackStartFn: notDeepStrictEqual });
  }
};

assert.strictEqual = function strictEqual(actual, expected, message) {
  checkArgs(arguments.length, ['actual', 'expected']);
  if (!Object.is(actual, expected)) innerFail({ actual, expected, message, operator: 'strictEqual', stackStartFn: strictEqual });
};

assert.notStrictEqual = function notStrictEqual(actual, expected, message) {
  checkArgs(arguments.length, ['actual', 'expected']);
  if (Object.is(actual, expected)) innerFail({ actual, expected, message, operator: 'notStrictEqual', stackStartFn: notStrictEqual });
};

// ---------------------------------------------------------------- throws

const NO_EXCEPTION_SENTINEL = {};

class Comparison {
  constructor(obj, keys, actual) {
    for (const key of keys) {
      if (key in obj) {
        if (actual !== undefined && typeof actual[key] === 'string' && types.isRegExp(obj[key]) && obj[key].test(actual[key])) {
          this[key] = actual[key];
        } else {
          this[key] = obj[key];
        }
      }
    }
  }
}

function compareExceptionKey(actual, expected, key, message, keys, fn) {
  if (!(key in actual) || !isDeepStrictEqual(actual[key], expected[key])) {
    if (!message) {
      const a = new Comparison(actual, keys);
      const b = new Comparison(expected, keys, actual);
      const err = new AssertionError({ actual: a, expected: b, operator: 'deepStrictEqual', stackStartFn: fn });
      err.actual = actual;
      err.expected = expected;
      err.operator = fn.name;
      throw err;
    }
    innerFail({ actual, expected, message, operator: fn.name, stackStartFn: fn });
  }
}

function expectedException(actual, expected, message, fn) {
  let generatedMessage = false;
  let throwError = false;
  if (typeof expected !== 'function') {
    if (types.isRegExp(expected)) {
      const str = String(actual);
      if (expected.test(str)) return;
      if (!message) {
        generatedMessage = true;
        message = `The input did not match the regular expression ${inspect(expected)}. Input:\n\n${inspect(str)}\n`;
      }
      throwError = true;
    } else if (typeof actual !== 'object' || actual === null) {
      const err = new AssertionError({ actual, expected, message, operator: 'deepStrictEqual', stackStartFn: fn });
      err.operator = fn.name;
      throw err;
    } else {
      const keys = Object.keys(expected);
      if (expected instanceof Error) keys.push('name', 'message');
      else if (keys.length === 0) {
        throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument 'error' may not be an empty object. Received {}`);
      }
      for (const key of keys) {
        if (typeof actual[key] === 'string' && types.isRegExp(expected[key]) && expected[key].test(actual[key])) continue;
        compareExceptionKey(actual, expected, key, message, keys, fn);
      }
      return;
    }
  } else if (expected.prototype !== undefined && actual instanceof expected) {
    return;
  } else if (Error.isPrototypeOf(expected)) {
    if (!message) {
      generatedMessage = true;
      message = 'The error is expected to be an instance of ' +
        `"${expected.name}". Received `;
      if (actual instanceof Error) message += `"${actual.name}"`;
      else message += `"${inspect(actual, { depth: -1 })}"`;
      if (actual && actual.message) message += `\n\nError message:\n\n${actual.message}`;
    }
    throwError = true;
  } else {
    const res = Reflect.apply(expected, {}, [actual]);
    if (res !== true) {
      if (!message) {
        generatedMessage = true;
        const name = expected.name ? `"${expected.name}" ` : '';
        message = `The ${name}validation function is expected to return "true". Received ${inspect(res)}`;
        if (actual instanceof Error) message += `\n\nCaught error:\n\n${actual}`;
      }
      throwError = true;
    }
  }
  if (throwError) {
    const err = new AssertionError({ actual, expected, message, operator: fn.name, stackStartFn: fn });
    err.generatedMessage = generatedMessage;
    throw err;
  }
}

function getActual(fn) {
  if (typeof fn !== 'function') throw invalidArgType('fn', 'function', fn);
  try {
    fn();
  } catch (e) {
    return e;
  }
  return NO_EXCEPTION_SENTINEL;
}

function checkIsPromise(obj) {
  return types.isPromise(obj) || (obj !== null && typeof obj === 'object' && typeof obj.then === 'function' && typeof obj.catch === 'function');
}

async function waitForActual(promiseFn) {
  let resultPromise;
  if (typeof promiseFn === 'function') {
    resultPromise = promiseFn();
    if (!checkIsPromise(resultPromise)) {
      throw nodeError(TypeError, 'ERR_INVALID_RETURN_VALUE',
        `Expected instance of Promise to be returned from the "promiseFn" function but got ${resultPromise === undefined ? 'undefined' : `type ${typeof resultPromise}`}.`);
    }
  } else if (checkIsPromise(promiseFn)) {
    resultPromise = promiseFn;
  } else {
    throw invalidArgType('promiseFn', ['function', 'Promise'], promiseFn);
  }
  try {
    await resultPromise;
  } catch (e) {
    return e;
  }
  return NO_EXCEPTION_SENTINEL;
}

function expectsError(stackStartFn, actual, error, message) {
  if (typeof error === 'string') {
    if (arguments.length === 4) {
      throw invalidArgType('error', ['Object', 'Error', 'Function', 'RegExp'], error);
    }
    message = error;
    error = undefined;
  } else if (error != null && typeof error !== 'object' && typeof error !== 'function') {
    throw invalidArgType('error', ['Object', 'Error', 'Function', 'RegExp'], error);
  }
  if (actual === NO_EXCEPTION_SENTINEL) {
    let details = '';
    if (error && error.name) details += ` (${error.name})`;
    details += message ? `: ${message}` : '.';
    const fnType = stackStartFn === assert.rejects ? 'rejection' : 'exception';
    innerFail({ actual: undefined, expected: error, operator: stackStartFn.name, message: `Missing expected ${fnType}${details}`, stackStartFn });
  }
  if (!error) return;
  expectedException(actual, error, message, stackStartFn);
}

function hasMatchingError(actual, expected) {
  if (typeof expected !== 'function') {
    if (types.isRegExp(expected)) return expected.test(String(actual));
    throw invalidArgType('expected', ['Function', 'RegExp'], expected);
  }
  if (expected.prototype !== undefined && actual instanceof expected) return true;
  if (Error.isPrototypeOf(expected)) return false;
  return Reflect.apply(expected, {}, [actual]) === true;
}

function expectsNoError(stackStartFn, actual, error, message) {
  if (actual === NO_EXCEPTION_SENTINEL) return;
  if (typeof error === 'string') {
    message = error;
    error = undefined;
  }
  if (!error || hasMatchingError(actual, error)) {
    const details = message ? `: ${message}` : '.';
    const fnType = stackStartFn === assert.doesNotReject ? 'rejection' : 'exception';
    innerFail({
      actual,
      expected: error,
      operator: stackStartFn.name,
      message: `Got unwanted ${fnType}${details}\nActual message: "${actual && actual.message}"`,
      stackStartFn,
    });
  }
  throw actual;
}

assert.throws = function throws(promiseFn, ...args) {
  expectsError(throws, getActual(promiseFn), ...args);
};

assert.rejects = async function rejects(promiseFn, ...args) {
  expectsError(rejects, await waitForActual(promiseFn), ...args);
};

assert.doesNotThrow = function doesNotThrow(fn, ...args) {
  expectsNoError(doesNotThrow, getActual(fn), ...args);
};

assert.doesNotReject = async function doesNotReject(fn, ...args) {
  expectsNoError(doesNotReject, await waitForActual(fn), ...args);
};

assert.ifError = function ifError(err) {
  if (err !== null && err !== undefined) {
    let message = 'ifError got unwanted exception: ';
    if (typeof err === 'object' && typeof err.message === 'string') {
      if (err.message.length === 0 && err.constructor) message += err.constructor.name;
      else message += err.message;
    } else {
      message += inspect(err);
    }
    const newErr = new AssertionError({ actual: err, expected: null, operator: 'ifError', message, stackStartFn: ifError });
    throw newErr;
  }
};

function internalMatch(string, regexp, message, fn) {
  if (!types.isRegExp(regexp)) throw invalidArgType('regexp', 'RegExp', regexp);
  const match = fn === assert.match;
  if (typeof string !== 'string' || (regexp.test(string) !== match)) {
    if (message instanceof Error) throw message;
    const generatedMessage = !message;
    message = message || (typeof string !== 'string'
      ? `The "string" argument must be of type string. Received type ${typeof string} (${inspect(string)})`
      : (match
        ? 'The input did not match the regular expression '
        : 'The input was expected to not match the regular expression ') +
          `${inspect(regexp)}. Input:\n\n${inspect(string)}\n`);
    const err = new AssertionError({ actual: string, expected: regexp, message, operator: fn.name, stackStartFn: fn });
    err.generatedMessage = generatedMessage;
    throw err;
  }
}

assert.match = function match(string, regexp, message) {
  internalMatch(string, regexp, message, match);
};

assert.doesNotMatch = function doesNotMatch(string, regexp, message) {
  internalMatch(string, regexp, message, doesNotMatch);
};

assert.CallTracker = class CallTracker {
  constructor() {
    const { notAvailable } = require('./internal/errors');
    throw notAvailable('assert.CallTracker');
  }
};

function strict(...args) {
  innerOk(strict, args.length, ...args);
}

assert.strict = Object.assign(strict, assert, {
  equal: assert.strictEqual,
  deepEqual: assert.deepStrictEqual,
  notEqual: assert.notStrictEqual,
  notDeepEqual: assert.notDeepStrictEqual,
});
assert.strict.strict = assert.strict;

module.exports = assert;
