// What a generated Function reports about the package it loaded. This text is pasted
// into every generated handler.js (CommonJS and ESM alike, so only declarations here),
// and the same code runs under Node and under Shoal: what differs is the runtime.

// A smoke call that never settles is reported, not waited on for FUNC_TIMEOUT.
const PROBE_SMOKE_TIMEOUT_MS = 10000;
const PROBE_MAX_DEPTH = 6;
const PROBE_MAX_ITEMS = 200;

function probeTypeOf(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** keys → typeof of a value's own enumerable keys (sorted); arrays by length only. */
function probeKeys(value) {
  const keys = {};
  for (const key of Object.keys(value).sort()) {
    try {
      keys[key] = probeTypeOf(value[key]);
    } catch (error) {
      keys[key] = 'throws on read';
    }
  }
  return keys;
}

/** The export shape: its type and keys, and one level into `default` (CJS/ESM interop). */
function probeShape(exported) {
  const type = probeTypeOf(exported);
  const shape = { type };
  if (type === 'array') shape.length = exported.length;
  else if (type === 'object' || type === 'function') {
    shape.keys = probeKeys(exported);
    let inner;
    try {
      inner = exported.default;
    } catch (error) {
      inner = undefined;
    }
    const innerType = probeTypeOf(inner);
    if (inner !== exported && (innerType === 'object' || innerType === 'function')) {
      shape.default = { type: innerType, keys: probeKeys(inner) };
    } else if (innerType === 'array') {
      shape.default = { type: innerType, length: inner.length };
    }
  }
  return shape;
}

function probeErrorText(error) {
  if (error && typeof error === 'object') return `${error.name || 'Error'}: ${error.message}`;
  return `thrown ${typeof error}: ${String(error)}`;
}

/**
 * A smoke call's result as JSON that says what JSON alone would lose: undefined, NaN,
 * bigint, dates, bytes, maps, sets, regexps, errors and functions are tagged; depth and
 * size are bounded; cycles are marked.
 */
function probeNormalize(value, depth = 0, seen = []) {
  if (value === undefined) return { $undefined: true };
  if (typeof value === 'number' && !Number.isFinite(value)) return { $number: String(value) };
  if (typeof value === 'bigint') return { $bigint: value.toString() };
  if (typeof value === 'symbol') return { $symbol: value.description };
  if (typeof value === 'function') return { $function: true };
  if (value === null || typeof value !== 'object') return value;
  if (seen.includes(value)) return { $cycle: true };
  if (depth >= PROBE_MAX_DEPTH) return { $deep: probeTypeOf(value) };
  const next = (v) => probeNormalize(v, depth + 1, [...seen, value]);
  if (value instanceof Date) return { $date: Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString() };
  if (value instanceof RegExp) return { $regexp: String(value) };
  if (value instanceof Error) return { $error: probeErrorText(value) };
  if (ArrayBuffer.isView(value)) {
    const bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    return { $bytes: Array.from(bytes.slice(0, 1024), (b) => b.toString(16).padStart(2, '0')).join(''), length: bytes.length };
  }
  if (value instanceof ArrayBuffer) return next(new Uint8Array(value));
  if (value instanceof Map) return { $map: Array.from(value).slice(0, PROBE_MAX_ITEMS).map(([k, v]) => [next(k), next(v)]) };
  if (value instanceof Set) return { $set: Array.from(value).slice(0, PROBE_MAX_ITEMS).map(next) };
  if (typeof value.then === 'function') return { $promise: true };
  if (Array.isArray(value)) return value.slice(0, PROBE_MAX_ITEMS).map(next);
  const out = {};
  for (const key of Object.keys(value).slice(0, PROBE_MAX_ITEMS)) {
    let item;
    try {
      item = next(value[key]);
    } catch (error) {
      item = { $threwOnRead: probeErrorText(error) };
    }
    out[key] = item;
  }
  return out;
}

function probeWithTimeout(promise) {
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve({ $timeout: PROBE_SMOKE_TIMEOUT_MS }), PROBE_SMOKE_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** { shape, smoke } for a loaded package, or { loadError } when loading it threw. */
async function probeReport(loaded, smoke) {
  if (loaded.error) {
    // The first frames say where it threw: for diagnosis, not compared.
    const stack = loaded.error && typeof loaded.error.stack === 'string' ? loaded.error.stack.split('\n').slice(0, 8).join('\n') : '';
    return { loadError: probeErrorText(loaded.error), loadStack: stack };
  }
  const report = { shape: probeShape(loaded.module) };
  if (smoke) {
    try {
      report.smoke = probeNormalize(await probeWithTimeout(Promise.resolve().then(() => smoke(loaded.module))));
    } catch (error) {
      report.smoke = { $threw: probeErrorText(error) };
      report.smokeStack = error && typeof error.stack === 'string' ? error.stack.split('\n').slice(0, 8).join('\n') : '';
    }
  }
  return report;
}
