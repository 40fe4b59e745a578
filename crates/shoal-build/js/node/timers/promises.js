'use strict';
// node:timers/promises for Shoal Functions: promise-returning timers with
// AbortSignal support, on top of the prelude's global timers.

const { abortError, invalidArgType } = require('../internal/errors');

function validateOptions(options) {
  if (options === null || typeof options !== 'object') throw invalidArgType('options', 'Object', options);
  const { signal } = options;
  if (signal !== undefined && (signal === null || typeof signal !== 'object' || !('aborted' in signal))) {
    throw invalidArgType('options.signal', 'AbortSignal', signal);
  }
  if (options.ref !== undefined && typeof options.ref !== 'boolean') throw invalidArgType('options.ref', 'boolean', options.ref);
  return signal;
}

function delayed(schedule, cancel, value, options) {
  let signal;
  try {
    signal = validateOptions(options);
  } catch (err) {
    return Promise.reject(err);
  }
  if (signal && signal.aborted) return Promise.reject(abortError(signal.reason));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      cancel(id);
      reject(abortError(signal.reason));
    };
    const id = schedule(() => {
      if (signal) signal.removeEventListener('abort', onAbort);
      resolve(value);
    });
    if (signal) signal.addEventListener('abort', onAbort, { once: true });
  });
}

function setTimeout(delay = 1, value = undefined, options = {}) {
  return delayed((fn) => globalThis.setTimeout(fn, delay), globalThis.clearTimeout, value, options);
}

function setImmediate(value = undefined, options = {}) {
  return delayed((fn) => globalThis.setImmediate(fn), globalThis.clearImmediate, value, options);
}

// for await (const v of setInterval(100, 'tick')) { ... }
async function* setInterval(delay = 1, value = undefined, options = {}) {
  const signal = validateOptions(options);
  if (signal && signal.aborted) throw abortError(signal.reason);
  let pending = 0;
  let wake = null;
  let aborted = false;
  const id = globalThis.setInterval(() => {
    pending++;
    if (wake) {
      wake();
      wake = null;
    }
  }, delay);
  const onAbort = () => {
    aborted = true;
    if (wake) {
      wake();
      wake = null;
    }
  };
  if (signal) signal.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      if (pending === 0 && !aborted) await new Promise((resolve) => { wake = resolve; });
      if (aborted) throw abortError(signal.reason);
      while (pending > 0) {
        pending--;
        yield value;
      }
    }
  } finally {
    globalThis.clearInterval(id);
    if (signal) signal.removeEventListener('abort', onAbort);
  }
}

const scheduler = {
  wait: (delay, options) => setTimeout(delay, undefined, options),
  yield: () => setImmediate(),
};

module.exports = { setTimeout, setImmediate, setInterval, scheduler };
