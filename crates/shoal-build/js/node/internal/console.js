'use strict';
// console.Console for Shoal Functions: a console writing to the streams it
// is given (a file-like Writable, a PassThrough a test reads), formatted as
// Node's lib/internal/console/constructor.js formats: util.format's
// placeholders, group indentation, count/time labels, table() boxes.
const { formatWithOptions, inspect } = require('../util.js');
const { getStringWidth } = require('./inspect.js');
const { nodeError, invalidArgType, outOfRange } = require('./errors.js');

const kCounts = Symbol('counts');
const kIndent = Symbol('kGroupIndentationString');
const kIndentWidth = Symbol('kGroupIndentationWidth');
const kColorMode = Symbol('kColorMode');
const kInspectOptions = Symbol('inspectOptions');

function noop() {}

function Console(options /* or: stdout, stderr, ignoreErrors = true */) {
  if (new.target === undefined) return Reflect.construct(Console, arguments);
  if (!options || typeof options.write === 'function') {
    options = { stdout: options, stderr: arguments[1], ignoreErrors: arguments[2] };
  }
  const { stdout, stderr = stdout, ignoreErrors = true, colorMode = 'auto', inspectOptions, groupIndentation } = options;
  for (const [name, stream] of [['stdout', stdout], ['stderr', stderr]]) {
    if (!stream || typeof stream.write !== 'function') {
      throw nodeError(TypeError, 'ERR_CONSOLE_WRITABLE_STREAM', `Console expects a writable stream instance for ${name}`);
    }
  }
  if (!['auto', true, false].includes(colorMode)) {
    throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument 'colorMode' must be one of: 'auto', true, false. Received ${inspect(colorMode)}`);
  }
  if (groupIndentation !== undefined) {
    if (typeof groupIndentation !== 'number') throw invalidArgType('groupIndentation', 'number', groupIndentation);
    if (!Number.isInteger(groupIndentation) || groupIndentation < 0 || groupIndentation > 1000) {
      throw outOfRange('groupIndentation', '>= 0 && <= 1000', groupIndentation);
    }
  }
  if (inspectOptions !== undefined && (inspectOptions === null || typeof inspectOptions !== 'object')) {
    throw invalidArgType('options.inspectOptions', 'object', inspectOptions);
  }
  // Node binds every method, so `const { log } = myConsole` works.
  for (const key of Object.keys(Console.prototype)) {
    this[key] = this[key].bind(this);
    Object.defineProperty(this[key], 'name', { value: key });
  }
  const hidden = (name, value) => Object.defineProperty(this, name, { value, writable: true, configurable: true, enumerable: false });
  hidden('_stdout', stdout);
  hidden('_stderr', stderr);
  hidden('_ignoreErrors', !!ignoreErrors);
  hidden('_times', new Map());
  hidden('_stdoutErrorHandler', noop);
  hidden('_stderrErrorHandler', noop);
  hidden(kCounts, new Map());
  hidden(kColorMode, colorMode);
  hidden(kInspectOptions, inspectOptions);
  hidden(kIndent, '');
  hidden(kIndentWidth, groupIndentation === undefined ? 2 : groupIndentation);
}

function inspectOptionsOf(console, stream) {
  if (console[kInspectOptions]) return console[kInspectOptions];
  const colors = console[kColorMode] === 'auto' ? !!(stream.isTTY && typeof stream.hasColors === 'function' && stream.hasColors()) : console[kColorMode];
  return colors ? { colors: true } : {};
}

function write(console, useStdout, text) {
  const stream = useStdout ? console._stdout : console._stderr;
  const indent = console[kIndent];
  if (indent.length !== 0) text = indent + text.replace(/\n/g, `\n${indent}`);
  text += '\n';
  if (console._ignoreErrors === false) return stream.write(text);
  try {
    // A stream that errors synchronously must not throw out of console.log.
    const listens = typeof stream.listenerCount === 'function' && stream.listenerCount('error') > 0;
    if (!listens && typeof stream.once === 'function') stream.once('error', noop);
    stream.write(text, useStdout ? console._stdoutErrorHandler : console._stderrErrorHandler);
    if (!listens && typeof stream.removeListener === 'function') stream.removeListener('error', noop);
  } catch {
    // Node swallows it too: a console is a debugging aid.
  }
  return undefined;
}

const format = (console, stream, args) => formatWithOptions(inspectOptionsOf(console, stream), ...args);

function timeLabel(ms) {
  if (ms >= 1000) {
    if (ms >= 60000) {
      if (ms >= 3600000) return `${(ms / 3600000).toFixed(3)}h`;
      return `${(ms / 60000).toFixed(3)}min`;
    }
    return `${(ms / 1000).toFixed(3)}s`;
  }
  return `${Number(ms.toFixed(3))}ms`;
}

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

const methods = {
  log(...args) {
    write(this, true, format(this, this._stdout, args));
  },
  warn(...args) {
    write(this, false, format(this, this._stderr, args));
  },
  dir(object, options) {
    write(this, true, inspect(object, { customInspect: false, ...inspectOptionsOf(this, this._stdout), ...options }));
  },
  time(label = 'default') {
    label = `${label}`;
    if (this._times.has(label)) {
      process.emitWarning(`Label '${label}' already exists for console.time()`);
      return;
    }
    this._times.set(label, now());
  },
  timeEnd(label = 'default') {
    label = `${label}`;
    if (this.timeLog(label) !== false) this._times.delete(label);
  },
  timeLog(label = 'default', ...data) {
    label = `${label}`;
    const started = this._times.get(label);
    if (started === undefined) {
      process.emitWarning(`No such label '${label}' for console.timeLog()`);
      return false;
    }
    this.log('%s: %s', label, timeLabel(now() - started), ...data);
    return undefined;
  },
  trace: function trace(...args) {
    const err = { name: 'Trace', message: format(this, this._stderr, args) };
    if (typeof Error.captureStackTrace === 'function') Error.captureStackTrace(err, trace);
    else err.stack = `Trace: ${err.message}\n${(new Error().stack || '').split('\n').slice(2).join('\n')}`;
    this.error(err.stack);
  },
  assert(expression, ...args) {
    if (expression) return;
    if (args.length && typeof args[0] === 'string') args[0] = `Assertion failed: ${args[0]}`;
    else args.unshift('Assertion failed');
    Reflect.apply(this.warn, this, args);
  },
  // Node clears only a terminal.
  clear() {},
  count(label = 'default') {
    label = `${label}`;
    const count = (this[kCounts].get(label) || 0) + 1;
    this[kCounts].set(label, count);
    this.log(`${label}: ${count}`);
  },
  countReset(label = 'default') {
    if (!this[kCounts].has(`${label}`)) {
      process.emitWarning(`Count for '${label}' does not exist`);
      return;
    }
    this[kCounts].delete(`${label}`);
  },
  group(...data) {
    if (data.length > 0) Reflect.apply(this.log, this, data);
    this[kIndent] += ' '.repeat(this[kIndentWidth]);
  },
  groupEnd() {
    this[kIndent] = this[kIndent].slice(0, this[kIndent].length - this[kIndentWidth]);
  },
  table(tabularData, properties) {
    if (properties !== undefined && !Array.isArray(properties)) throw invalidArgType('properties', 'Array', properties);
    if (tabularData === null || typeof tabularData !== 'object') return this.log(tabularData);
    return this.log(renderTable(tabularData, properties, (v) => inspectCell(this, v)));
  },
};
methods.info = methods.log;
methods.debug = methods.log;
methods.error = methods.warn;
for (const [name, fn] of Object.entries(methods)) {
  Object.defineProperty(Console.prototype, name, { value: fn, writable: true, enumerable: true, configurable: true });
}
Console.prototype.dirxml = Console.prototype.log;
Console.prototype.groupCollapsed = Console.prototype.group;

// ---------------------------------------------------------------- table

function inspectCell(console, v) {
  const depth = v !== null && typeof v === 'object' && !isArrayLike(v) && Object.keys(v).length > 2 ? -1 : 0;
  return inspect(v, { depth, maxArrayLength: 3, breakLength: Infinity, ...inspectOptionsOf(console, console._stdout) });
}

function isArrayLike(v) {
  return Array.isArray(v) || ArrayBuffer.isView(v);
}

function renderTable(data, properties, cell) {
  const indexes = (length) => Array.from({ length }, (_, i) => cell(i));
  if (data instanceof Map) {
    const keys = [];
    const values = [];
    for (const [k, v] of data) {
      keys.push(cell(k));
      values.push(cell(v));
    }
    return box(['(iteration index)', 'Key', 'Values'], [indexes(keys.length), keys, values]);
  }
  if (data instanceof Set) {
    const values = [...data].map(cell);
    return box(['(iteration index)', 'Values'], [indexes(values.length), values]);
  }
  const map = Object.create(null);
  let hasPrimitives = false;
  const primitiveValues = [];
  const indexKeys = Object.keys(data);
  indexKeys.forEach((index, i) => {
    const item = data[index];
    const primitive = item === null || (typeof item !== 'function' && typeof item !== 'object');
    if (properties === undefined && primitive) {
      hasPrimitives = true;
      primitiveValues[i] = cell(item);
    } else {
      for (const key of properties || Object.keys(item)) {
        map[key] ??= [];
        map[key][i] = (primitive && properties) || !Object.hasOwn(item, key) ? '' : cell(item[key]);
      }
    }
  });
  const head = Object.keys(map);
  const columns = Object.values(map);
  if (hasPrimitives) {
    head.push('Values');
    columns.push(primitiveValues);
  }
  head.unshift('(index)');
  columns.unshift(indexKeys);
  return box(head, columns);
}

// Node's lib/internal/cli_table.js.
function box(head, columns) {
  const rows = [];
  const widths = head.map((h) => getStringWidth(h));
  const longest = Math.max(...columns.map((c) => c.length));
  for (let i = 0; i < head.length; i++) {
    for (let j = 0; j < longest; j++) {
      if (rows[j] === undefined) rows[j] = [];
      const value = (rows[j][i] = Object.hasOwn(columns[i], j) ? columns[i][j] : '');
      widths[i] = Math.max(widths[i] || 0, getStringWidth(value));
    }
  }
  const row = (cells) => `│ ${cells.map((c, i) => c + ' '.repeat(Math.ceil(widths[i] - getStringWidth(c)))).join(' │ ')} │`;
  const divider = widths.map((w) => '─'.repeat(w + 2));
  let out = `┌${divider.join('┬')}┐\n${row(head)}\n├${divider.join('┼')}┤\n`;
  for (const r of rows) out += `${row(r)}\n`;
  return `${out}└${divider.join('┴')}┘`;
}

module.exports = { Console };
