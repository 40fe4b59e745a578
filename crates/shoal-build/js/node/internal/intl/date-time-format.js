'use strict';
// Intl.DateTimeFormat and Date.prototype.toLocale{,Date,Time}String.
// Options are read here in ECMA-402's order (so errors and getters happen
// as in Node); locale resolution, the pattern (ICU's
// DateTimePatternGenerator over Node's CLDR data), every IANA time zone
// and the formatting are native.

const { intlNative, partsFromFlat, joinFlat } = require('./native');
const {
  unwrap, toOptionsObject, getStringOption, getNumberOption, defineMethods, setToStringTag,
} = require('./options');
const { canonicalizeLocaleList, supportedLocalesOf, typeRe } = require('./locales');

const SERVICE = 'Intl.DateTimeFormat';
const slots = new WeakMap();

// ECMA-402's table of date and time components, in reading order.
const components = [
  ['weekday', ['narrow', 'short', 'long']],
  ['era', ['narrow', 'short', 'long']],
  ['year', ['2-digit', 'numeric']],
  ['month', ['2-digit', 'numeric', 'narrow', 'short', 'long']],
  ['day', ['2-digit', 'numeric']],
  ['dayPeriod', ['narrow', 'short', 'long']],
  ['hour', ['2-digit', 'numeric']],
  ['minute', ['2-digit', 'numeric']],
  ['second', ['2-digit', 'numeric']],
  ['fractionalSecondDigits', null],
  ['timeZoneName', ['short', 'long', 'shortOffset', 'longOffset', 'shortGeneric', 'longGeneric']],
];
const styles = ['full', 'long', 'medium', 'short'];

// The time zone a Function runs in: Shoal's nodes run in UTC, and so does
// Node there.
const DEFAULT_TIME_ZONE = 'UTC';

// CreateDateTimeFormat: reads the options, then lets the native side
// resolve and build the format. `required`/`defaults` are ECMA-402's
// (toLocaleDateString asks for a date...).
function createDateTimeFormat(locales, options, required, defaults, service) {
  const requested = canonicalizeLocaleList(locales);
  const opts = toOptionsObject(options, SERVICE);
  const request = { locales: requested, required, defaults, defaultTimeZone: DEFAULT_TIME_ZONE };
  getStringOption(opts, 'localeMatcher', ['lookup', 'best fit'], 'best fit', service);
  const calendar = getStringOption(opts, 'calendar', undefined, undefined, service);
  if (calendar !== undefined && !typeRe.test(calendar)) throw new RangeError(`Invalid calendar : ${calendar}`);
  const numberingSystem = getStringOption(opts, 'numberingSystem', undefined, undefined, service);
  if (numberingSystem !== undefined && !typeRe.test(numberingSystem)) throw new RangeError(`Invalid numberingSystem : ${numberingSystem}`);
  const hour12 = opts.hour12;
  const hourCycle = getStringOption(opts, 'hourCycle', ['h11', 'h12', 'h23', 'h24'], undefined, service);
  request.calendar = calendar;
  request.numberingSystem = numberingSystem;
  if (hour12 !== undefined) request.hour12 = Boolean(hour12);
  else request.hourCycle = hourCycle;
  const timeZone = opts.timeZone;
  if (timeZone !== undefined) request.timeZone = String(timeZone);
  for (const [name, values] of components) {
    request[name] = values === null
      ? getNumberOption(opts, name, 1, 3, undefined)
      : getStringOption(opts, name, values, undefined, service);
  }
  getStringOption(opts, 'formatMatcher', ['basic', 'best fit'], 'best fit', service);
  request.dateStyle = getStringOption(opts, 'dateStyle', styles, undefined, service);
  request.timeStyle = getStringOption(opts, 'timeStyle', styles, undefined, service);
  const key = JSON.stringify(request);
  const resolved = JSON.parse(intlNative().dateTimeFormat(key));
  resolved.key = key;
  return resolved;
}

// The time value of a Date argument (undefined: now).
function timeValue(date) {
  const t = date === undefined ? Date.now() : Number(date);
  if (!Number.isFinite(t) || Math.abs(t) > 8.64e15) throw new RangeError('Invalid time value');
  return Math.trunc(t) + 0;
}

function rangeTimes(startDate, endDate) {
  if (startDate === undefined || endDate === undefined) throw new TypeError('Invalid time value');
  return [timeValue(startDate), timeValue(endDate)];
}

// V8 reverts ICU 72's U+202F (before AM/PM) to a plain space in format()
// and toLocaleString() (crbug.com/1414292); formatToParts keeps it.
const webSpaces = (text) => text.replace(/\u202f/g, ' ');

function format(s, date) {
  return webSpaces(joinFlat(intlNative().formatDateTime(s.key, timeValue(date)), false));
}

function DateTimeFormat(locales, options) {
  const s = createDateTimeFormat(locales, options, 'any', 'date', SERVICE);
  const target = new.target === undefined ? DateTimeFormat : new.target;
  const proto = typeof target.prototype === 'object' && target.prototype !== null ? target.prototype : DateTimeFormat.prototype;
  const dtf = Object.create(proto);
  slots.set(dtf, s);
  return dtf;
}

defineMethods(DateTimeFormat.prototype, {
  get format() {
    const s = unwrap(slots, this, 'UnwrapDateTimeFormat');
    if (!s.boundFormat) {
      const bound = (date) => format(s, date);
      Object.defineProperty(bound, 'name', { value: '' });
      s.boundFormat = bound;
    }
    return s.boundFormat;
  },
  formatToParts(date) {
    const s = unwrap(slots, this, 'Intl.DateTimeFormat.prototype.formatToParts');
    return partsFromFlat(intlNative().formatDateTime(s.key, timeValue(date)), false);
  },
  formatRange(startDate, endDate) {
    const s = unwrap(slots, this, 'Intl.DateTimeFormat.prototype.formatRange');
    const [x, y] = rangeTimes(startDate, endDate);
    const flat = intlNative().formatDateTimeRange(s.key, x, y);
    // A range that collapses to one date (every part shared) is V8's
    // format() of the start, spaces included; formatRangeToParts keeps U+202F.
    let collapsed = true;
    for (let i = 2; i < flat.length; i += 3) if (flat[i] !== 'shared') collapsed = false;
    return collapsed ? webSpaces(joinFlat(flat, true)) : joinFlat(flat, true);
  },
  formatRangeToParts(startDate, endDate) {
    const s = unwrap(slots, this, 'Intl.DateTimeFormat.prototype.formatRangeToParts');
    const [x, y] = rangeTimes(startDate, endDate);
    return partsFromFlat(intlNative().formatDateTimeRange(s.key, x, y), true);
  },
  resolvedOptions() {
    const s = unwrap(slots, this, 'UnwrapDateTimeFormat');
    const out = { locale: s.locale, calendar: s.calendar, numberingSystem: s.numberingSystem, timeZone: s.timeZone };
    if (s.hourCycle !== undefined) {
      out.hourCycle = s.hourCycle;
      out.hour12 = s.hour12;
    }
    for (const [name, value] of s.components) out[name] = name === 'fractionalSecondDigits' ? Number(value) : value;
    if (s.dateStyle !== undefined) out.dateStyle = s.dateStyle;
    if (s.timeStyle !== undefined) out.timeStyle = s.timeStyle;
    return out;
  },
});
defineMethods(DateTimeFormat, {
  supportedLocalesOf(locales, options) {
    return supportedLocalesOf('DateTimeFormat', locales, options);
  },
});
setToStringTag(DateTimeFormat.prototype, 'Intl.DateTimeFormat');
Object.defineProperty(DateTimeFormat, 'length', { value: 0 });

// Date.prototype.toLocaleString and friends: formatters for the common
// calls (no options) are kept, a few per method.
const dateCache = new Map();
function toLocaleDateTime(date, locales, options, required, defaults, method) {
  const t = Date.prototype.getTime.call(date);
  if (Number.isNaN(t)) return 'Invalid Date';
  let s;
  const cacheable = options === undefined && (locales === undefined || typeof locales === 'string');
  const key = `${method}|${locales}`;
  if (cacheable) s = dateCache.get(key);
  if (s === undefined) {
    s = createDateTimeFormat(locales, options, required, defaults, `Date.prototype.${method}`);
    if (cacheable) {
      if (dateCache.size >= 32) dateCache.clear();
      dateCache.set(key, s);
    }
  }
  return webSpaces(joinFlat(intlNative().formatDateTime(s.key, t), false));
}

module.exports = { DateTimeFormat, toLocaleDateTime };
