'use strict';
// Intl.PluralRules: the number is rounded as NumberFormat would show it,
// then CLDR's rules for the locale pick the category (ICU4X's plural
// rules, CLDR's plural ranges as Node's ICU has them).

const { intlNative } = require('./native');
const { unwrap, toOptionsObject, getStringOption, defineMethods, setToStringTag } = require('./options');
const { canonicalizeLocaleList, supportedLocalesOf, resolveLocale } = require('./locales');
const { setDigitOptions, nativeDigitOptions, resolvedDigitOptions, toDecimalString } = require('./number-options');

const SERVICE = 'Intl.PluralRules';
const slots = new WeakMap();
const categoryOrder = ['zero', 'one', 'two', 'few', 'many', 'other'];

function PluralRules(locales, options) {
  if (new.target === undefined) throw new TypeError("Constructor Intl.PluralRules requires 'new'");
  const requested = canonicalizeLocaleList(locales);
  const opts = toOptionsObject(options, SERVICE);
  getStringOption(opts, 'localeMatcher', ['lookup', 'best fit'], 'best fit', SERVICE);
  const type = getStringOption(opts, 'type', ['cardinal', 'ordinal'], 'cardinal', SERVICE);
  const s = { type };
  setDigitOptions(s, opts, 0, 3, 'standard', SERVICE);
  const r = resolveLocale('PluralRules', requested, [], {});
  s.locale = r.locale;
  s.dataLocale = r.dataLocale;
  s.key = JSON.stringify({ dataLocale: r.dataLocale, numberingSystem: 'latn', style: 'decimal', ...nativeDigitOptions(s) });
  const proto = typeof new.target.prototype === 'object' && new.target.prototype !== null ? new.target.prototype : PluralRules.prototype;
  const pr = Object.create(proto);
  slots.set(pr, s);
  return pr;
}

function rounded(s, n) {
  const d = toDecimalString(n);
  if (d === 'NaN' || d.endsWith('Infinity')) return d;
  return intlNative().roundNumber(s.key, d);
}

function select(s, n) {
  const d = rounded(s, n);
  if (d === 'NaN' || d.endsWith('Infinity')) return 'other';
  return intlNative().pluralSelect(s.dataLocale, s.type, d);
}

defineMethods(PluralRules.prototype, {
  select(value) {
    const s = unwrap(slots, this, 'Intl.PluralRules.prototype.select');
    return select(s, Number(value));
  },
  selectRange(start, end) {
    const s = unwrap(slots, this, 'Intl.PluralRules.prototype.selectRange');
    if (start === undefined) throw new TypeError('Invalid startRange : undefined');
    if (end === undefined) throw new TypeError('Invalid endRange : undefined');
    const x = Number(start);
    const y = Number(end);
    if (Number.isNaN(x)) throw new RangeError('Invalid startRange : NaN');
    if (Number.isNaN(y)) throw new RangeError('Invalid endRange : NaN');
    const a = rounded(s, x);
    const b = rounded(s, y);
    if (a.endsWith('Infinity') || b.endsWith('Infinity')) return 'other';
    return intlNative().pluralSelectRange(s.dataLocale, s.type, a, b);
  },
  resolvedOptions() {
    const s = unwrap(slots, this, 'Intl.PluralRules.prototype.resolvedOptions');
    const out = resolvedDigitOptions(s, { locale: s.locale, type: s.type });
    const categories = intlNative().pluralCategories(s.dataLocale, s.type);
    out.pluralCategories = categoryOrder.filter((c) => categories.includes(c));
    Object.assign(out, {
      roundingIncrement: s.roundingIncrement,
      roundingMode: s.roundingMode,
      roundingPriority: s.roundingPriority,
      trailingZeroDisplay: s.trailingZeroDisplay,
    });
    return out;
  },
});
defineMethods(PluralRules, {
  supportedLocalesOf(locales, options) {
    return supportedLocalesOf('PluralRules', locales, options);
  },
});
setToStringTag(PluralRules.prototype, 'Intl.PluralRules');
Object.defineProperty(PluralRules, 'length', { value: 0 });

module.exports = { PluralRules };
