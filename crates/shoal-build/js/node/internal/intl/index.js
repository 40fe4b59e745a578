'use strict';
// The Intl namespace object, and the locale-sensitive methods of Number,
// BigInt, Date and String that use it.

const { intlNative } = require('./native');
const { canonicalizeLocaleList } = require('./locales');
const { NumberFormat, createNumberFormat, formatNumber } = require('./number-format');
const { DateTimeFormat, toLocaleDateTime } = require('./date-time-format');
const { PluralRules } = require('./plural-rules');
const { Collator, createCollator, compare } = require('./collator');
const { RelativeTimeFormat } = require('./relative-time-format');
const { ListFormat } = require('./list-format');
const { DisplayNames } = require('./display-names');
const { Segmenter } = require('./segmenter');
const { Locale } = require('./locale');

const supportedKeys = ['calendar', 'collation', 'currency', 'numberingSystem', 'timeZone', 'unit'];

const Intl = {};
const value = (v) => ({ value: v, writable: true, configurable: true });
Object.defineProperties(Intl, {
  Collator: value(Collator),
  DateTimeFormat: value(DateTimeFormat),
  DisplayNames: value(DisplayNames),
  ListFormat: value(ListFormat),
  Locale: value(Locale),
  NumberFormat: value(NumberFormat),
  PluralRules: value(PluralRules),
  RelativeTimeFormat: value(RelativeTimeFormat),
  Segmenter: value(Segmenter),
  getCanonicalLocales: value(function getCanonicalLocales(locales) {
    return canonicalizeLocaleList(locales);
  }),
  supportedValuesOf: value(function supportedValuesOf(key) {
    const k = String(key);
    if (!supportedKeys.includes(k)) throw new RangeError(`Invalid key : ${k}`);
    return intlNative().supportedValues(k);
  }),
  [Symbol.toStringTag]: { value: 'Intl', configurable: true },
});

// Formatters for the common calls (no options) are kept, a few per kind.
const cache = new Map();
function cached(kind, locales, options, make) {
  if (options !== undefined || (locales !== undefined && typeof locales !== 'string')) return make();
  const key = `${kind}|${locales}`;
  let f = cache.get(key);
  if (f === undefined) {
    f = make();
    if (cache.size >= 32) cache.clear();
    cache.set(key, f);
  }
  return f;
}

function thisNumber(v, method) {
  if (typeof v === 'number') return v;
  try {
    return Number.prototype.valueOf.call(v);
  } catch {
    throw new TypeError(`${method} requires that 'this' be a Number`);
  }
}

function install() {
  const define = (proto, name, fn) => Object.defineProperty(proto, name, { value: fn, writable: true, configurable: true, enumerable: false });
  define(Number.prototype, 'toLocaleString', function toLocaleString(locales, options) {
    const x = thisNumber(this, 'Number.prototype.toLocaleString');
    return formatNumber(cached('n', locales, options, () => createNumberFormat(locales, options, 'Number.prototype.toLocaleString')), x);
  });
  define(BigInt.prototype, 'toLocaleString', function toLocaleString(locales, options) {
    const x = BigInt.prototype.valueOf.call(this);
    return formatNumber(cached('n', locales, options, () => createNumberFormat(locales, options, 'BigInt.prototype.toLocaleString')), x);
  });
  define(Date.prototype, 'toLocaleString', function toLocaleString(locales, options) {
    return toLocaleDateTime(this, locales, options, 'any', 'all', 'toLocaleString');
  });
  define(Date.prototype, 'toLocaleDateString', function toLocaleDateString(locales, options) {
    return toLocaleDateTime(this, locales, options, 'date', 'date', 'toLocaleDateString');
  });
  define(Date.prototype, 'toLocaleTimeString', function toLocaleTimeString(locales, options) {
    return toLocaleDateTime(this, locales, options, 'time', 'time', 'toLocaleTimeString');
  });
  define(String.prototype, 'localeCompare', function localeCompare(that, locales, options) {
    if (this === null || this === undefined) throw new TypeError('String.prototype.localeCompare called on null or undefined');
    const s = cached('c', locales, options, () => createCollator(locales, options, 'String.prototype.localeCompare'));
    return compare(s, String(this), that);
  });
}

module.exports = { Intl, install };
