'use strict';
// Runs one generated Intl case and returns what it printed: the same file
// runs under Node.js (the reference) and inside a Shoal Function (see
// run.mjs), so both sides execute identical code.
//
// A case is { ctor, locale, options, calls: [[method, ...args]] }; each
// call's result is a string (JSON for objects, "Name: message" for a thrown
// error). Dates travel as epoch milliseconds.

const formatters = new Map();

function make(ctor, locale, options) {
  const key = JSON.stringify([ctor, locale, options]);
  if (formatters.has(key)) return formatters.get(key);
  let made;
  try {
    made = { value: ctor === 'Locale' ? new Intl.Locale(locale, options) : new Intl[ctor](locale, options) };
  } catch (e) {
    made = { error: `${e.name}: ${e.message}` };
  }
  if (formatters.size > 2000) formatters.clear();
  formatters.set(key, made);
  return made;
}

function show(v) {
  if (typeof v === 'string') return v;
  if (v === undefined) return 'undefined';
  return JSON.stringify(v);
}

// Calls on a formatter; Date, Number and String calls go to prototypes.
function call(c, method, args) {
  switch (c.ctor) {
    case 'Date':
      return new Date(args[0])[method](c.locale, c.options);
    case 'Number':
      return Number(args[0])[method](c.locale, c.options);
    case 'String':
      return String(args[0]).localeCompare(args[1], c.locale, c.options);
    case 'Intl':
      return method === 'getCanonicalLocales' ? Intl.getCanonicalLocales(args[0]) : Intl.supportedValuesOf(args[0]);
    default:
      break;
  }
  const f = make(c.ctor, c.locale, c.options);
  if (f.error) return `construct ${f.error}`;
  const o = f.value;
  switch (method) {
    case 'sort':
      return args[0].slice().sort(o.compare);
    case 'segment':
      return [...o.segment(args[0])].map((s) => (s.isWordLike === undefined ? [s.index, s.segment] : [s.index, s.segment, s.isWordLike]));
    case 'format':
      if (c.ctor === 'DateTimeFormat') return o.format(args[0]);
      return o.format(...args);
    case 'info':
      return o[args[0]]();
    case 'self':
      return [o.toString(), o.baseName, o.language, o.script, o.region, o.calendar, o.collation, o.hourCycle, o.numeric, o.numberingSystem];
    case 'maximize':
    case 'minimize':
      return o[method]().toString();
    default:
      return o[method](...args);
  }
}

function runCase(c) {
  return c.calls.map(([method, ...args]) => {
    try {
      return show(call(c, method, args));
    } catch (e) {
      return `${e && e.name}: ${e && e.message}`;
    }
  });
}

module.exports = { runCase };
