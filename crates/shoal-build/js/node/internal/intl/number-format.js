'use strict';
// Intl.NumberFormat: options are read and resolved here (ECMA-402 order,
// V8's messages); the formatting itself (every locale's symbols, patterns,
// compact forms, currency and unit names, ranges) is native.

const { intlNative, partsFromFlat, joinFlat } = require('./native');
const {
  unwrap, toOptionsObject, getStringOption, defineMethods, setToStringTag,
} = require('./options');
const { canonicalizeLocaleList, supportedLocalesOf, resolveLocale, typeRe } = require('./locales');
const { setDigitOptions, nativeDigitOptions, resolvedDigitOptions, toDecimalString } = require('./number-options');

const SERVICE = 'Intl.NumberFormat';
const slots = new WeakMap();

// ECMA-402's sanctioned simple units; a unit is one of them or X-per-Y of two.
const sanctionedUnits = ('acre bit byte celsius centimeter day degree fahrenheit fluid-ounce foot gallon gigabit gigabyte gram '
  + 'hectare hour inch kilobit kilobyte kilogram kilometer liter megabit megabyte meter microsecond mile mile-scandinavian '
  + 'milliliter millimeter millisecond minute month nanosecond ounce percent petabyte pound second stone terabit terabyte '
  + 'week yard year').split(' ');

function isWellFormedUnit(unit) {
  if (sanctionedUnits.includes(unit)) return true;
  const i = unit.indexOf('-per-');
  return i > 0 && sanctionedUnits.includes(unit.slice(0, i)) && sanctionedUnits.includes(unit.slice(i + 5));
}

// InitializeNumberFormat. `service` names the caller in errors
// ("Number.prototype.toLocaleString" for that method).
function createNumberFormat(locales, options, service = SERVICE) {
  const requested = canonicalizeLocaleList(locales);
  const opts = toOptionsObject(options, SERVICE);
  getStringOption(opts, 'localeMatcher', ['lookup', 'best fit'], 'best fit', service);
  const numberingSystem = getStringOption(opts, 'numberingSystem', undefined, undefined, service);
  if (numberingSystem !== undefined && !typeRe.test(numberingSystem)) throw new RangeError(`Invalid numberingSystem : ${numberingSystem}`);
  const r = resolveLocale('NumberFormat', requested, ['nu'], { nu: numberingSystem });
  const s = { locale: r.locale, dataLocale: r.dataLocale, numberingSystem: r.numberingSystem };

  const style = getStringOption(opts, 'style', ['decimal', 'percent', 'currency', 'unit'], 'decimal', service);
  s.style = style;
  let currency = getStringOption(opts, 'currency', undefined, undefined, service);
  if (currency === undefined) {
    if (style === 'currency') throw new TypeError('Currency code is required with currency style.');
  } else if (!/^[A-Za-z]{3}$/.test(currency)) {
    throw new RangeError(`Invalid currency code : ${currency}`);
  }
  const currencyDisplay = getStringOption(opts, 'currencyDisplay', ['code', 'symbol', 'narrowSymbol', 'name'], 'symbol', service);
  const currencySign = getStringOption(opts, 'currencySign', ['standard', 'accounting'], 'standard', service);
  const unit = getStringOption(opts, 'unit', undefined, undefined, service);
  if (unit === undefined) {
    if (style === 'unit') throw new TypeError("Invalid unit argument for Intl.NumberFormat() ''");
  } else if (!isWellFormedUnit(unit)) {
    throw new RangeError(`Invalid unit argument for Intl.NumberFormat() '${unit}'`);
  }
  const unitDisplay = getStringOption(opts, 'unitDisplay', ['short', 'narrow', 'long'], 'short', service);
  if (style === 'currency') {
    currency = currency.toUpperCase();
    Object.assign(s, { currency, currencyDisplay, currencySign });
  }
  if (style === 'unit') Object.assign(s, { unit, unitDisplay });

  const notation = getStringOption(opts, 'notation', ['standard', 'scientific', 'engineering', 'compact'], 'standard', service);
  s.notation = notation;
  let mnfdDefault = 0;
  let mxfdDefault = style === 'percent' ? 0 : 3;
  if (style === 'currency' && notation === 'standard') {
    mnfdDefault = intlNative().currencyDigits(currency);
    mxfdDefault = mnfdDefault;
  }
  setDigitOptions(s, opts, mnfdDefault, mxfdDefault, notation, service);
  const compactDisplay = getStringOption(opts, 'compactDisplay', ['short', 'long'], 'short', service);
  if (notation === 'compact') s.compactDisplay = compactDisplay;
  s.useGrouping = getUseGrouping(opts, notation === 'compact' ? 'min2' : 'auto', service);
  s.signDisplay = getStringOption(opts, 'signDisplay', ['auto', 'never', 'always', 'exceptZero', 'negative'], 'auto', service);
  s.key = JSON.stringify({
    dataLocale: s.dataLocale,
    numberingSystem: s.numberingSystem,
    style,
    currency: s.currency,
    currencyDisplay: s.currencyDisplay,
    currencySign: s.currencySign,
    unit: s.unit,
    unitDisplay: s.unitDisplay,
    notation,
    compactDisplay: s.compactDisplay,
    signDisplay: s.signDisplay,
    useGrouping: s.useGrouping,
    ...nativeDigitOptions(s),
  });
  return s;
}

// GetBooleanOrStringNumberFormatOption for useGrouping.
function getUseGrouping(options, fallback, service) {
  const value = options.useGrouping;
  if (value === undefined) return fallback;
  if (value === true) return 'always';
  if (!value) return false;
  const s = String(value);
  if (s === 'true' || s === 'false') return fallback;
  if (!['min2', 'auto', 'always'].includes(s)) throw new RangeError(`Value ${s} out of range for ${service} options property useGrouping`);
  return s;
}

function formatToFlat(s, value) {
  return intlNative().formatNumber(s.key, toDecimalString(value));
}

function formatNumber(s, value) {
  return joinFlat(formatToFlat(s, value), false);
}

function rangeValues(start, end) {
  if (start === undefined) throw new TypeError('Invalid start : undefined');
  if (end === undefined) throw new TypeError('Invalid end : undefined');
  const x = toDecimalString(start);
  const y = toDecimalString(end);
  if (x === 'NaN') throw new RangeError('Invalid start : NaN');
  if (y === 'NaN') throw new RangeError('Invalid end : NaN');
  return [x, y];
}

function NumberFormat(locales, options) {
  const s = createNumberFormat(locales, options);
  const target = new.target === undefined ? NumberFormat : new.target;
  const proto = typeof target.prototype === 'object' && target.prototype !== null ? target.prototype : NumberFormat.prototype;
  const nf = Object.create(proto);
  slots.set(nf, s);
  return nf;
}

defineMethods(NumberFormat.prototype, {
  get format() {
    const s = unwrap(slots, this, 'UnwrapNumberFormat');
    if (!s.boundFormat) {
      const bound = (value) => formatNumber(s, value);
      Object.defineProperty(bound, 'name', { value: '' });
      s.boundFormat = bound;
    }
    return s.boundFormat;
  },
  formatToParts(value) {
    const s = unwrap(slots, this, 'Intl.NumberFormat.prototype.formatToParts');
    return partsFromFlat(formatToFlat(s, value), false);
  },
  formatRange(start, end) {
    const s = unwrap(slots, this, 'Intl.NumberFormat.prototype.formatRange');
    const [x, y] = rangeValues(start, end);
    return joinFlat(intlNative().formatNumberRange(s.key, x, y), true);
  },
  formatRangeToParts(start, end) {
    const s = unwrap(slots, this, 'Intl.NumberFormat.prototype.formatRangeToParts');
    const [x, y] = rangeValues(start, end);
    return partsFromFlat(intlNative().formatNumberRange(s.key, x, y), true);
  },
  resolvedOptions() {
    const s = unwrap(slots, this, 'UnwrapNumberFormat');
    const out = { locale: s.locale, numberingSystem: s.numberingSystem, style: s.style };
    if (s.style === 'currency') Object.assign(out, { currency: s.currency, currencyDisplay: s.currencyDisplay, currencySign: s.currencySign });
    if (s.style === 'unit') Object.assign(out, { unit: s.unit, unitDisplay: s.unitDisplay });
    resolvedDigitOptions(s, out);
    out.useGrouping = s.useGrouping;
    out.notation = s.notation;
    if (s.notation === 'compact') out.compactDisplay = s.compactDisplay;
    Object.assign(out, {
      signDisplay: s.signDisplay,
      roundingIncrement: s.roundingIncrement,
      roundingMode: s.roundingMode,
      roundingPriority: s.roundingPriority,
      trailingZeroDisplay: s.trailingZeroDisplay,
    });
    return out;
  },
});
defineMethods(NumberFormat, {
  supportedLocalesOf(locales, options) {
    return supportedLocalesOf('NumberFormat', locales, options);
  },
});
setToStringTag(NumberFormat.prototype, 'Intl.NumberFormat');
Object.defineProperty(NumberFormat, 'length', { value: 0 });

module.exports = { NumberFormat, createNumberFormat, formatNumber, formatToFlat };
