'use strict';
// Intl.RelativeTimeFormat as ICU's RelativeDateTimeFormatter does it, over
// the locale's CLDR "fields" data (native lookups) and the native number
// formatter and plural rules.

const { intlNative, partsFromFlat } = require('./native');
const {
  unwrap, toOptionsObject, getStringOption, defineMethods, setToStringTag, partsToString,
} = require('./options');
const { canonicalizeLocaleList, supportedLocalesOf, resolveLocale, typeRe } = require('./locales');
const { createNumberFormat, formatToFlat } = require('./number-format');

const SERVICE = 'Intl.RelativeTimeFormat';
const slots = new WeakMap();
const units = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'];

function RelativeTimeFormat(locales, options) {
  if (new.target === undefined) throw new TypeError("Constructor Intl.RelativeTimeFormat requires 'new'");
  const requested = canonicalizeLocaleList(locales);
  const opts = toOptionsObject(options, SERVICE);
  getStringOption(opts, 'localeMatcher', ['lookup', 'best fit'], 'best fit', SERVICE);
  const numberingSystem = getStringOption(opts, 'numberingSystem', undefined, undefined, SERVICE);
  if (numberingSystem !== undefined && !typeRe.test(numberingSystem)) throw new RangeError(`Invalid numberingSystem : ${numberingSystem}`);
  const r = resolveLocale('RelativeTimeFormat', requested, ['nu'], { nu: numberingSystem });
  const style = getStringOption(opts, 'style', ['long', 'short', 'narrow'], 'long', SERVICE);
  const numeric = getStringOption(opts, 'numeric', ['always', 'auto'], 'always', SERVICE);
  const nf = createNumberFormat(r.dataLocale, { numberingSystem: r.numberingSystem });
  const s = { locale: r.locale, dataLocale: r.dataLocale, numberingSystem: r.numberingSystem, style, numeric, nf, fields: new Map() };
  const proto = typeof new.target.prototype === 'object' && new.target.prototype !== null ? new.target.prototype : RelativeTimeFormat.prototype;
  const rtf = Object.create(proto);
  slots.set(rtf, s);
  return rtf;
}

// The CLDR data of a unit in the style's width.
function fieldData(s, unit) {
  let data = s.fields.get(unit);
  if (data === undefined) {
    const width = s.style === 'long' ? '' : `-${s.style}`;
    data = JSON.parse(intlNative().localeData('', s.dataLocale, `fields/${unit}${width}`)) || {};
    s.fields.set(unit, data);
  }
  return data;
}

function formatToParts(s, value, unit, method) {
  const v = Number(value);
  const u = String(unit);
  if (!Number.isFinite(v)) throw new RangeError(`Value need to be finite number for Intl.RelativeTimeFormat.prototype.${method}()`);
  const singular = u.endsWith('s') ? u.slice(0, -1) : u;
  if (!units.includes(singular)) throw new RangeError(`Invalid unit argument for Intl.RelativeTimeFormat.prototype.${method}() '${u}'`);
  const data = fieldData(s, singular);
  if (s.numeric === 'auto' && v > -2.1 && v < 2.1) {
    // (ICU rounds to hundredths: 1.004 days is "tomorrow".)
    const hundredths = v * 100 < 0 ? Math.trunc(v * 100 - 0.5) : Math.trunc(v * 100 + 0.5);
    if (hundredths % 100 === 0) {
      const text = data.relative && data.relative[String(hundredths / 100)];
      if (typeof text === 'string' && text !== '') return [{ type: 'literal', value: text }];
    }
  }
  const past = v < 0 || Object.is(v, -0);
  const abs = String(Math.abs(v));
  const flat = formatToFlat(s.nf, Math.abs(v));
  const plural = intlNative().pluralSelect(s.dataLocale, 'cardinal', intlNative().roundNumber(s.nf.key, abs));
  const forms = (data.relativeTime && data.relativeTime[past ? 'past' : 'future']) || {};
  const pattern = forms[plural] !== undefined ? forms[plural] : forms.other;
  if (pattern === undefined) throw new RangeError('Internal error. Icu error.');
  const numberParts = partsFromFlat(flat, false).map((p) => ({ type: p.type, value: p.value, unit: singular }));
  const at = pattern.indexOf('{0}');
  const parts = [];
  if (at < 0) return [{ type: 'literal', value: pattern }];
  if (at > 0) parts.push({ type: 'literal', value: pattern.slice(0, at) });
  parts.push(...numberParts);
  if (at + 3 < pattern.length) parts.push({ type: 'literal', value: pattern.slice(at + 3) });
  return parts;
}

defineMethods(RelativeTimeFormat.prototype, {
  format(value, unit) {
    const s = unwrap(slots, this, 'Intl.RelativeTimeFormat.prototype.format');
    return partsToString(formatToParts(s, value, unit, 'format'));
  },
  formatToParts(value, unit) {
    const s = unwrap(slots, this, 'Intl.RelativeTimeFormat.prototype.formatToParts');
    return formatToParts(s, value, unit, 'formatToParts');
  },
  resolvedOptions() {
    const s = unwrap(slots, this, 'Intl.RelativeTimeFormat.prototype.resolvedOptions');
    return { locale: s.locale, style: s.style, numeric: s.numeric, numberingSystem: s.numberingSystem };
  },
});
defineMethods(RelativeTimeFormat, {
  supportedLocalesOf(locales, options) {
    return supportedLocalesOf('RelativeTimeFormat', locales, options);
  },
});
setToStringTag(RelativeTimeFormat.prototype, 'Intl.RelativeTimeFormat');
Object.defineProperty(RelativeTimeFormat, 'length', { value: 0 });

module.exports = { RelativeTimeFormat };
