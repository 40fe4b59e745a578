'use strict';
// Intl for Shoal Functions. QuickJS has no Intl; this is the subset
// Functions use, giving the same text as Node.js 20 (full ICU) for the
// locales en-US and de-DE. Other locales fall back: "en-*" and "de-*" to
// "en"/"de" (US/German formats), anything else to "en-US";
// resolvedOptions().locale says which was used. Time zones: UTC (the
// default: Shoal's nodes run in UTC) and the Central European zones
// (Europe/Berlin and its neighbours, with daylight saving time).
//
// Intl.DisplayNames and Intl.Segmenter (UAX #29 with ICU's character
// properties) are here too; see their sections.
//
// Requiring this module also installs the locale-sensitive methods of
// Number, BigInt, Date and String (toLocaleString, toLocaleDateString,
// toLocaleTimeString, localeCompare) on top of it.
//
// The CLDR names and patterns are generated from Node's ICU into
// internal/intl-data.js by test/gen-intl-data.mjs.

const DATA = require('./internal/intl-data');

// ---------------------------------------------------------------- locales

const localeRe = /^[a-z]{2,3}(?:-[a-z]{4})?(?:-(?:[a-z]{2}|\d{3}))?(?:-(?:[a-z\d]{5,8}|\d[a-z\d]{3}))*(?:-[a-wyz\d](?:-[a-z\d]{2,8})+)*(?:-x(?:-[a-z\d]{1,8})+)?$/i;

function canonicalizeTag(tag) {
  if (typeof tag !== 'string' && (typeof tag !== 'object' || tag === null)) {
    throw new TypeError('Language ID should be string or object.');
  }
  const s = String(tag);
  if (!localeRe.test(s)) throw new RangeError(`Incorrect locale information provided`);
  const parts = s.split('-');
  let out = parts[0].toLowerCase();
  let i = 1;
  if (parts[i] && /^[a-z]{4}$/i.test(parts[i])) {
    out += `-${parts[i][0].toUpperCase()}${parts[i].slice(1).toLowerCase()}`;
    i++;
  }
  if (parts[i] && /^([a-z]{2}|\d{3})$/i.test(parts[i])) {
    out += `-${parts[i].toUpperCase()}`;
    i++;
  }
  for (; i < parts.length; i++) out += `-${parts[i].toLowerCase()}`;
  return out;
}

function getCanonicalLocales(locales) {
  if (locales === undefined) return [];
  const list = typeof locales === 'string' || (typeof locales === 'object' && locales !== null && !(Symbol.iterator in Object(locales)) && !('length' in Object(locales)))
    ? [locales]
    : Array.from(Object(locales));
  const seen = [];
  for (const l of list) {
    const c = canonicalizeTag(l && typeof l === 'object' && typeof l.baseName === 'string' ? l.toString() : l);
    if (!seen.includes(c)) seen.push(c);
  }
  return seen;
}

const defaultLocale = 'en-US';

// The locale used for `locales`: exact en-US/de-DE/en/de, else the
// language, else en-US.
function resolveLocale(locales) {
  for (const tag of getCanonicalLocales(locales)) {
    const base = tag.replace(/-u(?:-[a-z\d]{2,8})+/i, '').replace(/-x(?:-[a-z\d]{1,8})+$/i, '');
    const lang = base.split('-')[0];
    if (lang !== 'en' && lang !== 'de') continue;
    const data = DATA[lang === 'en' ? 'en-US' : 'de-DE'];
    if (base === 'en-US' || base === 'de-DE' || base === lang) return { locale: base, lang, data };
    return { locale: lang, lang, data };
  }
  return { locale: defaultLocale, lang: 'en', data: DATA['en-US'] };
}

function supportedLocalesOf(locales, options) {
  if (options !== undefined) getOption(Object(options), 'localeMatcher', ['lookup', 'best fit'], 'best fit');
  return getCanonicalLocales(locales).filter((tag) => /^(en|de)(-|$)/.test(tag));
}

function getOption(options, name, allowed, fallback) {
  let value = options[name];
  if (value === undefined) return fallback;
  if (typeof allowed === 'string' && allowed === 'boolean') return Boolean(value);
  value = String(value);
  if (allowed && !allowed.includes(value)) {
    throw new RangeError(`Value ${value} out of range for Intl.${getOption.ctor || 'NumberFormat'} options property ${name}`);
  }
  return value;
}

function getNumberOption(options, name, min, max, fallback) {
  let value = options[name];
  if (value === undefined) return fallback;
  value = Number(value);
  if (Number.isNaN(value) || value < min || value > max) throw new RangeError(`${name} value is out of range.`);
  return Math.floor(value);
}

function toOptions(options) {
  if (options === undefined) return Object.create(null);
  if (options === null) throw new TypeError('Cannot convert undefined or null to object');
  return Object(options);
}

// ---------------------------------------------------------------- decimals

// A finite number as exact decimal digits: { neg, digits, exp } meaning
// 0.digits × 10^exp (digits without leading/trailing zeros, '' for zero).
function toDecimal(x) {
  if (typeof x === 'bigint') {
    const neg = x < 0n;
    let s = (neg ? -x : x).toString();
    const exp = s.length;
    s = s.replace(/0+$/, '');
    return { neg, digits: s === '0' ? '' : s, exp: s === '' ? 0 : exp };
  }
  if (typeof x === 'string') return parseDecimalString(x);
  const neg = x < 0 || Object.is(x, -0);
  const s = Math.abs(x).toString(); // shortest round-trip digits
  return parseDecimalString(s, neg);
}

function parseDecimalString(str, neg = false) {
  let s = str.trim();
  if (s[0] === '-') {
    neg = !neg;
    s = s.slice(1);
  } else if (s[0] === '+') {
    s = s.slice(1);
  }
  let e = 0;
  const m = /^([0-9]*)\.?([0-9]*)(?:e([+-]?\d+))?$/i.exec(s);
  if (!m) return null;
  const intPart = m[1];
  const frac = m[2];
  if (m[3]) e = Number(m[3]);
  let digits = (intPart + frac).replace(/^0+/, '');
  const lead = (intPart + frac).length - digits.length;
  let exp = intPart.length - lead + e;
  digits = digits.replace(/0+$/, '');
  if (digits === '') exp = 0;
  return { neg, digits, exp };
}

// Rounds |d| half away from zero ("halfExpand") to `pos` digits after the
// decimal point (pos may be negative).
function roundAt(d, pos) {
  const keep = d.exp + pos; // number of digits kept
  if (keep >= d.digits.length) return d;
  if (keep < 0) return { neg: d.neg, digits: '', exp: 0 };
  let digits = d.digits.slice(0, keep);
  let exp = d.exp;
  if (d.digits.charCodeAt(keep) >= 53) { // '5'..'9': round up
    let i = digits.length - 1;
    const arr = digits.split('');
    while (i >= 0 && arr[i] === '9') {
      arr[i] = '0';
      i--;
    }
    if (i < 0) {
      arr.unshift('1');
      exp++;
    } else {
      arr[i] = String(Number(arr[i]) + 1);
    }
    digits = arr.join('');
  }
  digits = digits.replace(/0+$/, '');
  if (digits === '') exp = 0;
  return { neg: d.neg, digits, exp };
}

function roundSignificant(d, sig) {
  if (d.digits === '') return d;
  return roundAt(d, sig - d.exp);
}

function shift(d, n) {
  return d.digits === '' ? d : { neg: d.neg, digits: d.digits, exp: d.exp + n };
}

// Integer and fraction digit strings of a decimal.
function splitDecimal(d) {
  if (d.digits === '') return ['0', ''];
  if (d.exp <= 0) return ['0', '0'.repeat(-d.exp) + d.digits];
  if (d.exp >= d.digits.length) return [d.digits + '0'.repeat(d.exp - d.digits.length), ''];
  return [d.digits.slice(0, d.exp), d.digits.slice(d.exp)];
}

// ---------------------------------------------------------------- plural rules

function pluralCardinal(intStr, fracStr) {
  // en, de: "one" for the integer 1 without visible fraction digits.
  return intStr === '1' && fracStr === '' ? 'one' : 'other';
}

function pluralOrdinal(lang, intStr) {
  if (lang !== 'en') return 'other';
  const n10 = Number(intStr.slice(-1));
  const n100 = Number(intStr.slice(-2));
  if (n10 === 1 && n100 !== 11) return 'one';
  if (n10 === 2 && n100 !== 12) return 'two';
  if (n10 === 3 && n100 !== 13) return 'few';
  return 'other';
}

// ---------------------------------------------------------------- NumberFormat

const symbols = {
  en: { decimal: '.', group: ',', percent: '%', minus: '-', plus: '+', exp: 'E' },
  de: { decimal: ',', group: '.', percent: '%', minus: '-', plus: '+', exp: 'E' },
};

const kNF = Symbol('NumberFormat');

function digitOptions(opts, mnfdDefault, mxfdDefault, notation) {
  const mnid = getNumberOption(opts, 'minimumIntegerDigits', 1, 21, 1);
  const mnfd = opts.minimumFractionDigits;
  const mxfd = opts.maximumFractionDigits;
  const mnsd = opts.minimumSignificantDigits;
  const mxsd = opts.maximumSignificantDigits;
  const roundingPriority = getOption(opts, 'roundingPriority', ['auto', 'morePrecision', 'lessPrecision'], 'auto');
  const out = { minimumIntegerDigits: mnid, roundingPriority };
  const hasSd = mnsd !== undefined || mxsd !== undefined;
  const hasFd = mnfd !== undefined || mxfd !== undefined;
  let needSd = true;
  let needFd = true;
  if (roundingPriority === 'auto') {
    needSd = hasSd;
    if (needSd || (!hasFd && notation === 'compact')) needFd = false;
  }
  if (needSd) {
    if (hasSd) {
      out.minimumSignificantDigits = getNumberOption(opts, 'minimumSignificantDigits', 1, 21, 1);
      out.maximumSignificantDigits = getNumberOption(opts, 'maximumSignificantDigits', out.minimumSignificantDigits, 21, 21);
    } else {
      out.minimumSignificantDigits = 1;
      out.maximumSignificantDigits = 21;
    }
  }
  if (needFd) {
    if (hasFd) {
      let mn = getNumberOption(opts, 'minimumFractionDigits', 0, 100, undefined);
      let mx = getNumberOption(opts, 'maximumFractionDigits', 0, 100, undefined);
      if (mn === undefined) mn = Math.min(mnfdDefault, mx);
      else if (mx === undefined) mx = Math.max(mxfdDefault, mn);
      else if (mn > mx) throw new RangeError('maximumFractionDigits value is out of range.');
      out.minimumFractionDigits = mn;
      out.maximumFractionDigits = mx;
    } else {
      out.minimumFractionDigits = mnfdDefault;
      out.maximumFractionDigits = mxfdDefault;
    }
  }
  if (!needSd && !needFd) {
    // compact notation default: 2 significant digits or whole numbers,
    // whichever is more precise.
    out.minimumFractionDigits = 0;
    out.maximumFractionDigits = 0;
    out.minimumSignificantDigits = 1;
    out.maximumSignificantDigits = 2;
    out.roundingPriority = 'morePrecision';
    out.compactDefault = true;
  }
  return out;
}

// Units: ECMA-402's sanctioned simple units and their "X-per-Y" compounds.
// A unit's CLDR pattern ("{0} km", "{0} kilometers") depends on the width
// and the plural form. "percent" (and "percent-per-X") in the short and
// narrow widths takes the locale's percent pattern instead, without the
// denominator, unless the notation is compact (as ICU does). A compound is
// the denominator's "per" pattern ("{0}/h", "{0} per hour") around the
// numerator's, unless CLDR names it itself ("{0} mph").
const unitWidths = { short: 0, long: 1, narrow: 2 };
const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

function isWellFormedUnit(unit) {
  const simple = DATA['en-US'].units.simple;
  if (hasOwn(simple, unit)) return true;
  const i = unit.indexOf('-per-');
  return i > 0 && hasOwn(simple, unit.slice(0, i)) && hasOwn(simple, unit.slice(i + 5));
}

function unitPattern(s, plural) {
  const u = s.data.units;
  const w = unitWidths[s.unitDisplay];
  const pick = (entry) => (typeof entry === 'string' ? entry : entry[plural === 'one' ? 0 : 1]);
  const i = s.unit.indexOf('-per-');
  const numerator = i < 0 ? s.unit : s.unit.slice(0, i);
  if (numerator === 'percent' && s.unitDisplay !== 'long' && s.notation !== 'compact') return u.percent;
  if (i < 0) return pick(u.simple[s.unit][w]);
  const own = u.compound[s.unit];
  if (own && own[w] !== null) return pick(own[w]);
  return u.per[s.unit.slice(i + 5)][w].split('{0}').join(pick(u.simple[numerator][w]));
}

// The text around the number: the spaces next to it are "literal" parts,
// the rest a "unit" part.
function unitAffixParts(text, before) {
  const m = before ? /^(.*?)(\s*)$/.exec(text) : /^(\s*)(.*)$/.exec(text);
  const [space, unit] = before ? [m[2], m[1]] : [m[1], m[2]];
  const parts = [];
  if (unit) parts.push({ type: 'unit', value: unit });
  if (space) parts[before ? 'push' : 'unshift']({ type: 'literal', value: space });
  return parts;
}

class NumberFormat {
  constructor(locales, options) {
    const { locale, lang, data } = resolveLocale(locales);
    const opts = toOptions(options);
    getOption.ctor = 'NumberFormat';
    getOption(opts, 'localeMatcher', ['lookup', 'best fit'], 'best fit');
    const style = getOption(opts, 'style', ['decimal', 'percent', 'currency', 'unit'], 'decimal');
    let currency = opts.currency;
    if (currency !== undefined) {
      currency = String(currency);
      if (!/^[A-Za-z]{3}$/.test(currency)) throw new RangeError(`Invalid currency code : ${currency}`);
      currency = currency.toUpperCase();
    }
    if (style === 'currency' && currency === undefined) throw new TypeError('Currency code is required with currency style.');
    const currencyDisplay = getOption(opts, 'currencyDisplay', ['code', 'symbol', 'narrowSymbol', 'name'], 'symbol');
    const currencySign = getOption(opts, 'currencySign', ['standard', 'accounting'], 'standard');
    let unit = opts.unit;
    if (unit !== undefined) {
      unit = String(unit);
      if (!isWellFormedUnit(unit)) throw new RangeError(`Invalid unit argument for Intl.NumberFormat() '${unit}'`);
    }
    if (style === 'unit' && unit === undefined) throw new TypeError('Invalid unit argument for Intl.NumberFormat() \'\'');
    const unitDisplay = getOption(opts, 'unitDisplay', ['short', 'narrow', 'long'], 'short');
    const notation = getOption(opts, 'notation', ['standard', 'scientific', 'engineering', 'compact'], 'standard');
    const cDigits = currency && data.currencies[currency] ? data.currencies[currency][4] : 2;
    const mnfdDefault = style === 'currency' && notation !== 'compact' ? cDigits : 0;
    const mxfdDefault = style === 'currency' && notation !== 'compact' ? cDigits : style === 'percent' ? 0 : 3;
    const digits = digitOptions(opts, mnfdDefault, mxfdDefault, notation);
    const compactDisplay = getOption(opts, 'compactDisplay', ['short', 'long'], 'short');
    let useGrouping = opts.useGrouping;
    const groupingDefault = notation === 'compact' ? 'min2' : 'auto';
    if (useGrouping === undefined) useGrouping = groupingDefault;
    else if (useGrouping === true || useGrouping === 'true' || useGrouping === 'always') useGrouping = 'always';
    else if (useGrouping === false || useGrouping === 'false' || useGrouping === null || useGrouping === '' || useGrouping === 0) useGrouping = false;
    else if (useGrouping === 'auto' || useGrouping === 'min2') useGrouping = String(useGrouping);
    else throw new RangeError(`Value ${useGrouping} out of range for Intl.NumberFormat options property useGrouping`);
    const signDisplay = getOption(opts, 'signDisplay', ['auto', 'never', 'always', 'exceptZero', 'negative'], 'auto');
    Object.defineProperty(this, kNF, {
      value: { locale, lang, data, style, currency, currencyDisplay, currencySign, unit, unitDisplay, notation, compactDisplay, useGrouping, signDisplay, ...digits },
    });
  }

  get format() {
    const fn = (value) => partsToString(formatNumberParts(this[kNF], value));
    Object.defineProperty(this, 'format', { value: fn, configurable: true });
    return fn;
  }

  formatToParts(value) {
    return formatNumberParts(this[kNF], value);
  }

  formatRange(start, end) {
    const a = this.format(start);
    const b = this.format(end);
    return a === b ? `~${a}` : `${a}–${b}`;
  }

  resolvedOptions() {
    const s = this[kNF];
    const out = { locale: s.locale, numberingSystem: 'latn', style: s.style };
    if (s.style === 'currency') {
      out.currency = s.currency;
      out.currencyDisplay = s.currencyDisplay;
      out.currencySign = s.currencySign;
    }
    if (s.style === 'unit') {
      out.unit = s.unit;
      out.unitDisplay = s.unitDisplay;
    }
    out.minimumIntegerDigits = s.minimumIntegerDigits;
    // Node lists the significant digits first when both kinds are in use.
    if (s.minimumSignificantDigits !== undefined) {
      out.minimumSignificantDigits = s.minimumSignificantDigits;
      out.maximumSignificantDigits = s.maximumSignificantDigits;
    }
    if (s.minimumFractionDigits !== undefined) {
      out.minimumFractionDigits = s.minimumFractionDigits;
      out.maximumFractionDigits = s.maximumFractionDigits;
    }
    out.useGrouping = s.useGrouping;
    out.notation = s.notation;
    if (s.notation === 'compact') out.compactDisplay = s.compactDisplay;
    out.signDisplay = s.signDisplay;
    out.roundingMode = 'halfExpand';
    out.roundingIncrement = 1;
    out.trailingZeroDisplay = 'auto';
    out.roundingPriority = s.roundingPriority;
    return out;
  }

  static supportedLocalesOf(locales, options) {
    return supportedLocalesOf(locales, options);
  }
}
Object.defineProperty(NumberFormat.prototype, Symbol.toStringTag, { value: 'Intl.NumberFormat', configurable: true });

function partsToString(parts) {
  let s = '';
  for (const p of parts) s += p.value;
  return s;
}

function toNumeric(value) {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'string') {
    const t = value.trim();
    if (t === '') return 0;
    if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return t;
    return Number(t);
  }
  return Number(value);
}

// Rounds per the digit options; returns the decimal.
function roundNumber(s, d) {
  const byFraction = () => roundAt(d, s.maximumFractionDigits);
  const bySignificant = () => roundSignificant(d, s.maximumSignificantDigits);
  if (s.minimumSignificantDigits !== undefined && s.minimumFractionDigits !== undefined) {
    const a = bySignificant();
    const b = byFraction();
    // morePrecision keeps the result with more fraction digits.
    const fa = a.digits.length - a.exp;
    const fb = b.digits.length - b.exp;
    const pickSig = s.roundingPriority === 'lessPrecision' ? fa <= fb : fa >= fb;
    return { value: pickSig ? a : b, sig: pickSig };
  }
  if (s.minimumSignificantDigits !== undefined) return { value: bySignificant(), sig: true };
  return { value: byFraction(), sig: false };
}

function digitStrings(s, d, sig) {
  let [intStr, fracStr] = splitDecimal(d);
  if (sig) {
    // Show at least minimumSignificantDigits digits (trailing zeros).
    const min = s.minimumSignificantDigits;
    const shown = d.digits === '' ? 1 : d.digits.length + Math.max(0, d.exp - d.digits.length);
    if (shown < min) fracStr += '0'.repeat(min - shown);
  } else if (fracStr.length < s.minimumFractionDigits) {
    fracStr = fracStr.padEnd(s.minimumFractionDigits, '0');
  }
  if (intStr.length < s.minimumIntegerDigits) intStr = intStr.padStart(s.minimumIntegerDigits, '0');
  return [intStr, fracStr];
}

function groupInteger(intStr, s, sym, parts) {
  const grouping = s.useGrouping;
  const min2 = grouping === 'min2';
  const doGroup = grouping !== false && intStr.length > 3 && (!min2 || intStr.length >= 5);
  if (!doGroup) {
    parts.push({ type: 'integer', value: intStr });
    return;
  }
  const first = intStr.length % 3 || 3;
  parts.push({ type: 'integer', value: intStr.slice(0, first) });
  for (let i = first; i < intStr.length; i += 3) {
    parts.push({ type: 'group', value: sym.group });
    parts.push({ type: 'integer', value: intStr.slice(i, i + 3) });
  }
}

function formatNumberParts(s, value) {
  const x = toNumeric(value);
  const sym = symbols[s.lang];
  const parts = [];
  let d;
  let isNaNValue = false;
  let isInf = false;
  if (typeof x === 'number' && Number.isNaN(x)) isNaNValue = true;
  else if (typeof x === 'number' && !Number.isFinite(x)) isInf = true;
  else d = toDecimal(x);
  let neg = isNaNValue ? false : isInf ? x < 0 : d.neg;

  let compactPattern = null;
  let exponent = 0;
  const numberParts = [];
  let plural = 'other';
  if (!isNaNValue && !isInf) {
    if (s.style === 'percent') d = shift(d, 2);
    if (s.notation === 'compact') {
      const table = s.data.compact[s.compactDisplay];
      const pick = (magnitude) => {
        const idx = Math.min(magnitude, 14) - 3;
        if (idx < 0) return null;
        return table[idx];
      };
      let magnitude = d.digits === '' ? 0 : d.exp - 1;
      let entry = pick(magnitude);
      let scaled = entry && entry[0] !== null ? shift(d, -(Math.min(magnitude, 14) - entry[2] + 1)) : d;
      let r = roundNumber(s, scaled);
      // Rounding up may reach the next power of ten (999.95K -> 1M).
      if (r.value.digits !== '' && r.value.exp > (scaled.digits === '' ? 0 : scaled.exp)) {
        magnitude += 1;
        entry = pick(magnitude);
        scaled = entry && entry[0] !== null ? shift(d, -(Math.min(magnitude, 14) - entry[2] + 1)) : d;
        r = roundNumber(s, scaled);
      }
      d = r.value;
      if (entry && entry[0] !== null) {
        const [intStr] = splitDecimal(d);
        compactPattern = pluralCardinal(intStr, splitDecimal(d)[1]) === 'one' ? entry[0] : entry[1];
      }
      const [intStr, fracStr] = digitStrings(s, d, r.sig);
      buildNumber(intStr, fracStr, s, sym, numberParts);
      // The plural form of the whole number: 1K is "other".
      plural = compactPattern ? 'other' : pluralCardinal(intStr.replace(/^0+(?=\d)/, ''), fracStr);
    } else if (s.notation === 'scientific' || s.notation === 'engineering') {
      const exponentOf = (v) => {
        if (v.digits === '') return 0;
        const e = v.exp - 1;
        return s.notation === 'engineering' ? Math.floor(e / 3) * 3 : e;
      };
      exponent = exponentOf(d);
      let r = roundNumber(s, shift(d, -exponent));
      // Rounding may carry into the next power (9.9996 -> 10): renormalize.
      const rounded = shift(r.value, exponent);
      if (exponentOf(rounded) !== exponent) {
        exponent = exponentOf(rounded);
        r = roundNumber(s, shift(d, -exponent));
      }
      d = r.value;
      const [intStr, fracStr] = digitStrings(s, d, r.sig);
      buildNumber(intStr, fracStr, s, sym, numberParts);
      plural = exponent === 0 ? pluralCardinal(intStr.replace(/^0+(?=\d)/, ''), fracStr) : 'other';
    } else {
      const r = roundNumber(s, d);
      d = r.value;
      const [intStr, fracStr] = digitStrings(s, d, r.sig);
      buildNumber(intStr, fracStr, s, sym, numberParts);
      plural = pluralCardinal(intStr.replace(/^0+(?=\d)/, ''), fracStr);
    }
  } else if (isNaNValue) {
    numberParts.push({ type: 'nan', value: 'NaN' });
  } else {
    numberParts.push({ type: 'infinity', value: '∞' });
  }

  const isZero = !isNaNValue && !isInf && d.digits === '';
  // Sign
  let sign = null;
  switch (s.signDisplay) {
    case 'auto': if (neg) sign = 'minus'; break;
    case 'always': sign = neg ? 'minus' : 'plus'; break;
    case 'exceptZero': if (isZero || isNaNValue) sign = null; else sign = neg ? 'minus' : 'plus'; break;
    case 'negative': if (neg && !isZero) sign = 'minus'; break;
    default: break;
  }
  const accounting = s.style === 'currency' && s.currencySign === 'accounting' && sign === 'minus' && s.lang === 'en';
  const signPart = sign === 'minus' ? { type: 'minusSign', value: sym.minus } : sign === 'plus' ? { type: 'plusSign', value: sym.plus } : null;

  if (!isNaNValue && !isInf && (s.notation === 'scientific' || s.notation === 'engineering')) {
    numberParts.push({ type: 'exponentSeparator', value: sym.exp });
    if (exponent < 0) numberParts.push({ type: 'exponentMinusSign', value: sym.minus });
    numberParts.push({ type: 'exponentInteger', value: String(Math.abs(exponent)) });
  }

  if (compactPattern) {
    // "0K", "0 Mio.", "0 thousand": the digits replace the 0.
    const [before, after] = compactPattern.split('0');
    const withCompact = [];
    if (before) withCompact.push({ type: 'literal', value: before });
    withCompact.push(...numberParts);
    if (after) {
      const m = /^(\s*)(.*)$/.exec(after);
      if (m[1]) withCompact.push({ type: 'literal', value: m[1] });
      withCompact.push({ type: 'compact', value: m[2] });
    }
    numberParts.length = 0;
    numberParts.push(...withCompact);
  }

  if (s.style === 'percent') {
    if (s.lang === 'de') numberParts.push({ type: 'literal', value: '\u00a0' });
    numberParts.push({ type: 'percentSign', value: sym.percent });
  }

  if (s.style === 'unit') {
    const [before, after] = unitPattern(s, plural).split('{0}');
    parts.push(...unitAffixParts(before, true));
    if (signPart) parts.push(signPart);
    parts.push(...numberParts, ...unitAffixParts(after, false));
    return parts;
  }

  if (s.style === 'currency') {
    const c = s.data.currencies[s.currency];
    let text;
    if (s.currencyDisplay === 'code') text = s.currency;
    else if (s.currencyDisplay === 'name') text = c ? (plural === 'one' ? c[2] : c[3]) : s.currency;
    else if (s.currencyDisplay === 'narrowSymbol') text = c ? c[1] : s.currency;
    else text = c ? c[0] : s.currency;
    const cur = { type: 'currency', value: text };
    if (s.currencyDisplay === 'name') {
      parts.push(...(signPart ? [signPart] : []), ...numberParts, { type: 'literal', value: ' ' }, cur);
      return parts;
    }
    if (s.lang === 'de') {
      if (signPart) parts.push(signPart);
      parts.push(...numberParts, { type: 'literal', value: '\u00a0' }, cur);
      return parts;
    }
    // en: symbol first; a symbol ending in a letter is set off by a space.
    if (accounting) parts.push({ type: 'literal', value: '(' });
    else if (signPart) parts.push(signPart);
    parts.push(cur);
    if (/\p{L}$/u.test(text) && !isNaNValue && !isInf) parts.push({ type: 'literal', value: '\u00a0' });
    parts.push(...numberParts);
    if (accounting) parts.push({ type: 'literal', value: ')' });
    return parts;
  }

  if (signPart) parts.push(signPart);
  parts.push(...numberParts);
  return parts;
}

function buildNumber(intStr, fracStr, s, sym, parts) {
  groupInteger(intStr, s, sym, parts);
  if (fracStr !== '') {
    parts.push({ type: 'decimal', value: sym.decimal });
    parts.push({ type: 'fraction', value: fracStr });
  }
}

// ---------------------------------------------------------------- PluralRules

const kPR = Symbol('PluralRules');

class PluralRules {
  constructor(locales, options) {
    // Plural rules are per language: Node reports "en" for "en-US".
    const { lang } = resolveLocale(locales);
    const locale = lang;
    const opts = toOptions(options);
    getOption.ctor = 'PluralRules';
    const type = getOption(opts, 'type', ['cardinal', 'ordinal'], 'cardinal');
    const digits = digitOptions(opts, 0, 3, 'standard');
    Object.defineProperty(this, kPR, { value: { locale, lang, type, ...digits, useGrouping: false } });
  }

  select(n) {
    const s = this[kPR];
    const x = Number(n);
    if (!Number.isFinite(x)) return 'other';
    const d = roundNumber(s, toDecimal(Math.abs(x)));
    const [intStr, fracStr] = digitStrings(s, d.value, d.sig);
    const i = intStr.replace(/^0+(?=\d)/, '');
    if (s.type === 'ordinal') return fracStr === '' ? pluralOrdinal(s.lang, i) : 'other';
    return pluralCardinal(i, fracStr);
  }

  selectRange(start, end) {
    return this.select(end);
  }

  resolvedOptions() {
    const s = this[kPR];
    const out = { locale: s.locale, type: s.type, minimumIntegerDigits: s.minimumIntegerDigits };
    if (s.minimumFractionDigits !== undefined) {
      out.minimumFractionDigits = s.minimumFractionDigits;
      out.maximumFractionDigits = s.maximumFractionDigits;
    }
    if (s.minimumSignificantDigits !== undefined) {
      out.minimumSignificantDigits = s.minimumSignificantDigits;
      out.maximumSignificantDigits = s.maximumSignificantDigits;
    }
    out.pluralCategories = s.type === 'ordinal' && s.lang === 'en' ? ['few', 'one', 'two', 'other'] : s.type === 'ordinal' ? ['other'] : ['one', 'other'];
    return out;
  }

  static supportedLocalesOf(locales, options) {
    return supportedLocalesOf(locales, options);
  }
}
Object.defineProperty(PluralRules.prototype, Symbol.toStringTag, { value: 'Intl.PluralRules', configurable: true });

// ---------------------------------------------------------------- time zones

// Central European zones: UTC+1, UTC+2 from the last Sunday of March 01:00
// UTC to the last Sunday of October 01:00 UTC (EU rules, since 1996).
const cetZones = ['Europe/Berlin', 'Europe/Amsterdam', 'Europe/Andorra', 'Europe/Belgrade', 'Europe/Bratislava',
  'Europe/Brussels', 'Europe/Budapest', 'Europe/Busingen', 'Europe/Copenhagen', 'Europe/Gibraltar', 'Europe/Ljubljana',
  'Europe/Luxembourg', 'Europe/Madrid', 'Europe/Malta', 'Europe/Monaco', 'Europe/Oslo', 'Europe/Paris', 'Europe/Podgorica',
  'Europe/Prague', 'Europe/Rome', 'Europe/San_Marino', 'Europe/Sarajevo', 'Europe/Skopje', 'Europe/Stockholm',
  'Europe/Tirane', 'Europe/Vaduz', 'Europe/Vatican', 'Europe/Vienna', 'Europe/Warsaw', 'Europe/Zagreb', 'Europe/Zurich', 'CET'];
const utcZones = { utc: 'UTC', 'etc/utc': 'UTC', 'etc/gmt': 'UTC', gmt: 'UTC', 'etc/uct': 'UTC', uct: 'UTC', 'etc/universal': 'UTC',
  universal: 'UTC', 'etc/zulu': 'UTC', zulu: 'UTC', 'etc/gmt0': 'UTC', 'etc/gmt+0': 'UTC', 'etc/gmt-0': 'UTC', gmt0: 'UTC',
  'etc/greenwich': 'UTC', greenwich: 'UTC' };

function canonicalTimeZone(tz) {
  const s = String(tz);
  const lower = s.toLowerCase();
  if (utcZones[lower]) return 'UTC';
  const cet = cetZones.find((z) => z.toLowerCase() === lower);
  if (cet) return cet;
  if (!/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(s) && !/^[+-]\d{2}(:?\d{2})?$/.test(s)) {
    throw new RangeError(`Invalid time zone specified: ${s}`);
  }
  throw new RangeError(`Invalid time zone specified: ${s} (Shoal's Intl knows UTC and the Central European zones such as Europe/Berlin)`);
}

function lastSundayUTC(year, month) {
  const d = new Date(Date.UTC(year, month + 1, 0, 1)); // last day of month, 01:00 UTC
  d.setUTCDate(d.getUTCDate() - d.getUTCDay());
  return d.getTime();
}

function isCetSummer(t) {
  const year = new Date(t).getUTCFullYear();
  return t >= lastSundayUTC(year, 2) && t < lastSundayUTC(year, 9);
}

function zoneOffsetMinutes(tz, t) {
  if (tz === 'UTC') return 0;
  return isCetSummer(t) ? 120 : 60;
}

function timeZoneName(data, tz, style, t) {
  const zoneKey = tz === 'UTC' ? 'UTC' : 'Europe/Berlin';
  const season = tz !== 'UTC' && isCetSummer(t) ? 'summer' : 'winter';
  let name = data.timeZoneNames[`${zoneKey}|${style}|${season}`];
  // Berlin's "Germany Time" is Germany's own generic name; neighbours use the offset.
  if (tz !== 'Europe/Berlin' && tz !== 'UTC' && style === 'shortGeneric' && data === DATA['en-US']) {
    name = data.timeZoneNames[`Europe/Berlin|shortOffset|${season}`];
  }
  return name;
}

// ---------------------------------------------------------------- DateTimeFormat

const kDTF = Symbol('DateTimeFormat');
const dateFields = ['weekday', 'era', 'year', 'month', 'day'];
const timeFields = ['dayPeriod', 'hour', 'minute', 'second', 'fractionalSecondDigits'];
const widthCode = { long: 'l', short: 's', narrow: 'n', numeric: 'n', '2-digit': '2' };
const monthCode = { numeric: 'n', '2-digit': '2', long: 'l', short: 's', narrow: 'r' };

function toDateTimeOptions(options, required, defaults) {
  const opts = toOptions(options);
  const o = Object.create(null);
  for (const k of Object.keys(opts)) o[k] = opts[k];
  for (const k of ['weekday', 'era', 'year', 'month', 'day', 'dayPeriod', 'hour', 'minute', 'second', 'fractionalSecondDigits',
    'timeZoneName', 'hour12', 'hourCycle', 'timeZone', 'dateStyle', 'timeStyle', 'localeMatcher', 'formatMatcher', 'calendar', 'numberingSystem']) {
    if (opts[k] !== undefined) o[k] = opts[k];
  }
  let needDefaults = true;
  if (required === 'date' || required === 'any') {
    for (const f of ['weekday', 'year', 'month', 'day']) if (o[f] !== undefined) needDefaults = false;
  }
  if (required === 'time' || required === 'any') {
    for (const f of ['dayPeriod', 'hour', 'minute', 'second', 'fractionalSecondDigits']) if (o[f] !== undefined) needDefaults = false;
  }
  if (o.dateStyle !== undefined || o.timeStyle !== undefined) needDefaults = false;
  if (required === 'date' && o.timeStyle !== undefined) throw new TypeError('Invalid option : timeStyle');
  if (required === 'time' && o.dateStyle !== undefined) throw new TypeError('Invalid option : dateStyle');
  if (needDefaults && (defaults === 'date' || defaults === 'all')) {
    o.year = 'numeric';
    o.month = 'numeric';
    o.day = 'numeric';
  }
  if (needDefaults && (defaults === 'time' || defaults === 'all')) {
    o.hour = 'numeric';
    o.minute = 'numeric';
    o.second = 'numeric';
  }
  return o;
}

function dateLength(pattern) {
  if (pattern.includes('{MMMM}') && pattern.includes('{EEEE}')) return 'full';
  if (pattern.includes('{MMMM}')) return 'long';
  if (pattern.includes('{MMM}') || pattern.includes('{LLL}')) return 'medium';
  return 'short';
}

class DateTimeFormat {
  constructor(locales, options) {
    const o = toDateTimeOptions(options, 'any', 'date');
    createDateTimeFormat(this, locales, o);
  }

  get format() {
    // V8 joins the parts with U+0020 where ICU has U+202F (web compatibility);
    // formatToParts() keeps ICU's characters.
    const fn = (date) => partsToString(formatDateParts(this[kDTF], date)).replace(/\u202f/g, ' ');
    Object.defineProperty(this, 'format', { value: fn, configurable: true });
    return fn;
  }

  formatToParts(date) {
    return formatDateParts(this[kDTF], date);
  }

  formatRange(start, end) {
    const a = this.format(start);
    const b = this.format(end);
    return a === b ? a : `${a} – ${b}`;
  }

  resolvedOptions() {
    const s = this[kDTF];
    const out = { locale: s.locale, calendar: 'gregory', numberingSystem: 'latn', timeZone: s.timeZone };
    if (s.hasHour) {
      out.hourCycle = s.hourCycle;
      out.hour12 = s.hourCycle === 'h11' || s.hourCycle === 'h12';
    }
    if (s.dateStyle || s.timeStyle) {
      if (s.dateStyle) out.dateStyle = s.dateStyle;
      if (s.timeStyle) out.timeStyle = s.timeStyle;
      return out;
    }
    Object.assign(out, s.resolvedFields);
    return out;
  }

  static supportedLocalesOf(locales, options) {
    return supportedLocalesOf(locales, options);
  }
}
Object.defineProperty(DateTimeFormat.prototype, Symbol.toStringTag, { value: 'Intl.DateTimeFormat', configurable: true });

function createDateTimeFormat(target, locales, o) {
  const { locale, lang, data } = resolveLocale(locales);
  getOption.ctor = 'DateTimeFormat';
  const get = (name, allowed) => getOption(o, name, allowed, undefined);
  const weekday = get('weekday', ['narrow', 'short', 'long']);
  get('era', ['narrow', 'short', 'long']);
  const year = get('year', ['2-digit', 'numeric']);
  const month = get('month', ['2-digit', 'numeric', 'narrow', 'short', 'long']);
  const day = get('day', ['2-digit', 'numeric']);
  get('dayPeriod', ['narrow', 'short', 'long']);
  const hour = get('hour', ['2-digit', 'numeric']);
  const minute = get('minute', ['2-digit', 'numeric']);
  const second = get('second', ['2-digit', 'numeric']);
  const fsd = o.fractionalSecondDigits === undefined ? undefined : getNumberOption(o, 'fractionalSecondDigits', 1, 3, undefined);
  const tzName = get('timeZoneName', ['short', 'long', 'shortOffset', 'longOffset', 'shortGeneric', 'longGeneric']);
  const dateStyle = get('dateStyle', ['full', 'long', 'medium', 'short']);
  const timeStyle = get('timeStyle', ['full', 'long', 'medium', 'short']);
  const hour12 = o.hour12 === undefined ? undefined : Boolean(o.hour12);
  const hourCycleOpt = get('hourCycle', ['h11', 'h12', 'h23', 'h24']);
  const timeZone = o.timeZone === undefined ? 'UTC' : canonicalTimeZone(o.timeZone);
  if (dateStyle !== undefined || timeStyle !== undefined) {
    for (const f of [...dateFields, ...timeFields, 'timeZoneName']) {
      if (o[f] !== undefined) {
        throw new TypeError(`Can't set option ${f} when ${dateStyle !== undefined ? 'dateStyle' : 'timeStyle'} is used`);
      }
    }
  }
  // 12- or 24-hour clock: hour12 wins over hourCycle, then the locale's.
  // As in Node 20 (ECMA-402 before 2023): hour12 picks the 12- or 24-hour
  // cycle matching the locale's, so en + hour12:false is h24 (1-24) and
  // de + hour12:true is h11 (0-11).
  const hcDefault = lang === 'en' ? 'h12' : 'h23';
  let hourCycle = hcDefault;
  if (hourCycleOpt) hourCycle = hourCycleOpt;
  if (hour12 !== undefined) {
    const defaultIs11or23 = hcDefault === 'h11' || hcDefault === 'h23';
    hourCycle = hour12 ? (defaultIs11or23 ? 'h11' : 'h12') : (defaultIs11or23 ? 'h23' : 'h24');
  }
  const hcKey = hour12 === undefined && !hourCycleOpt ? 'd' : hourCycle === 'h11' || hourCycle === 'h12' ? '12' : '24';

  let pattern;
  if (dateStyle !== undefined || timeStyle !== undefined) {
    const datePart = dateStyle ? data.styles.date[dateStyle] : '';
    let timePart = '';
    if (timeStyle) {
      const wantTwelve = hourCycle === 'h11' || hourCycle === 'h12';
      if (hcKey === 'd') {
        timePart = data.styles.time[timeStyle];
      } else if (wantTwelve === (lang === 'en')) {
        // The locale's own kind of clock: only the hour letter changes.
        timePart = applyHourCycle(data.styles.time[timeStyle], hourCycle);
      } else {
        // The other kind: ICU falls back to CLDR's two-digit-hour pattern.
        const key = `22${timeStyle === 'short' ? '-' : '2'}${wantTwelve ? '12' : '24'}`;
        timePart = data.timePatterns[key] + (timeStyle === 'full' || timeStyle === 'long' ? ' {z}' : '');
        timePart = applyHourCycle(timePart, hourCycle);
      }
      timePart = timePart.replace('{z}', timeStyle === 'full' ? '{zzzz}' : '{z}');
    }
    pattern = datePart && timePart ? datePart + data.styles.glue[dateStyle] + timePart : datePart || timePart;
  } else {
    const dateKey = (weekday ? widthCode[weekday] : '-') + (year ? widthCode[year] : '-') + (month ? monthCode[month] : '-') + (day ? widthCode[day] : '-');
    const datePart = dateKey === '----' ? '' : data.datePatterns[dateKey];
    let timePart = '';
    if (hour || minute || second) {
      const key = (hour ? widthCode[hour] : '-') + (minute ? widthCode[minute] : '-') + (second ? widthCode[second] : '-') + (hour ? hcKey : 'd');
      timePart = data.timePatterns[key + (tzName && !datePart ? 'z' : '')] || data.timePatterns[key];
      if (hour && (hourCycle === 'h11' || hourCycle === 'h24')) timePart = applyHourCycle(timePart, hourCycle);
      if (fsd && timePart.includes('{ss}')) {
        timePart = timePart.replace('{ss}', `{ss}${symbols[lang].decimal}{${'S'.repeat(fsd)}}`);
      } else if (fsd && timePart.includes('{s}')) {
        timePart = timePart.replace('{s}', `{s}${symbols[lang].decimal}{${'S'.repeat(fsd)}}`);
      }
    } else if (fsd) {
      timePart = `{${'S'.repeat(fsd)}}`;
    }
    const tzStyle = tzName === 'long' ? '{zzzz}' : '{z}';
    if (tzName && timePart && !timePart.includes('{z}')) timePart += ` {z}`;
    timePart = timePart.replace('{z}', tzStyle);
    if (datePart && timePart) {
      let glue = data.styles.glue[dateLength(datePart)];
      // A weekday alone joins the time directly (CLDR's "E h:mm a" forms).
      let time = timePart;
      if (dateKey[0] !== '-' && dateKey.slice(1) === '---') {
        glue = lang === 'en' ? ' ' : ', ';
        if (lang === 'de') time = time.replace('{H}', '{HH}');
      }
      pattern = datePart + glue + time;
    } else if (datePart && tzName) {
      pattern = `${datePart}, ${tzStyle}`;
    } else {
      pattern = datePart || timePart;
    }
  }
  const tokens = parsePattern(pattern);
  const resolvedFields = {};
  const has = (re) => tokens.find((t) => t.field && re.test(t.field));
  const wd = has(/^(EEEE|EEE|ccc|EEEEE)$/);
  if (wd) resolvedFields.weekday = { EEEE: 'long', EEE: 'short', ccc: 'short', EEEEE: 'narrow' }[wd.field];
  const yr = has(/^y+$/);
  if (yr) resolvedFields.year = yr.field === 'yy' ? '2-digit' : 'numeric';
  const mo = has(/^(M+|LLL)$/);
  if (mo) resolvedFields.month = { M: 'numeric', MM: '2-digit', MMM: 'short', LLL: 'short', MMMM: 'long', MMMMM: 'narrow' }[mo.field];
  const dy = has(/^d+$/);
  if (dy) resolvedFields.day = dy.field === 'dd' ? '2-digit' : 'numeric';
  const hr = has(/^[hHkK]+$/);
  if (hr) resolvedFields.hour = hr.field.length === 2 ? '2-digit' : 'numeric';
  const mi = has(/^m+$/);
  if (mi) resolvedFields.minute = mi.field === 'mm' ? '2-digit' : 'numeric';
  const se = has(/^s+$/);
  if (se) resolvedFields.second = se.field === 'ss' ? '2-digit' : 'numeric';
  const fs = has(/^S+$/);
  if (fs) resolvedFields.fractionalSecondDigits = fs.field.length;
  if (tzName) resolvedFields.timeZoneName = tzName;
  const hasHour = !!hr;
  Object.defineProperty(target, kDTF, {
    value: {
      locale, lang, data, timeZone, tokens, dateStyle, timeStyle, hourCycle, hasHour, tzName, resolvedFields,
    },
  });
}

// h11 (0-11) and h24 (1-24) clocks use other hour fields.
function applyHourCycle(pattern, hourCycle) {
  const letter = { h11: 'K', h12: 'h', h23: 'H', h24: 'k' }[hourCycle];
  const twelve = hourCycle === 'h11' || hourCycle === 'h12';
  let out = pattern.replace(/\{([hHkK])(\1?)\}/g, (m, a, b) => `{${letter}${b ? letter : ''}}`);
  if (!twelve) out = out.replace(/[ \u202f]?\{a\}/, '');
  return out;
}

function parsePattern(pattern) {
  const tokens = [];
  const re = /\{([A-Za-z]+)\}|'([{}])'|([^{']+|')/g;
  let m;
  while ((m = re.exec(pattern))) {
    if (m[1]) tokens.push({ field: m[1] });
    else {
      const text = m[2] || m[3];
      const last = tokens[tokens.length - 1];
      if (last && last.literal !== undefined) last.literal += text;
      else tokens.push({ literal: text });
    }
  }
  return tokens;
}

const pad2 = (n) => (n < 10 ? `0${n}` : String(n));

function toTime(date) {
  if (date === undefined) return Date.now();
  const t = typeof date === 'object' && date !== null && typeof date.getTime === 'function' && Object.prototype.toString.call(date) === '[object Date]'
    ? date.getTime()
    : Number(date);
  if (!Number.isFinite(t) || Math.abs(t) > 8.64e15) throw new RangeError('Invalid time value');
  return t;
}

function formatDateParts(s, date) {
  const t = toTime(date);
  const offset = zoneOffsetMinutes(s.timeZone, t);
  const local = new Date(t + offset * 60000);
  const Y = local.getUTCFullYear();
  const Mo = local.getUTCMonth();
  const D = local.getUTCDate();
  const W = local.getUTCDay();
  const H = local.getUTCHours();
  const Mi = local.getUTCMinutes();
  const S = local.getUTCSeconds();
  const ms = local.getUTCMilliseconds();
  const d = s.data;
  const parts = [];
  for (const tok of s.tokens) {
    if (tok.literal !== undefined) {
      parts.push({ type: 'literal', value: tok.literal });
      continue;
    }
    const f = tok.field;
    let type;
    let value;
    switch (f) {
      case 'y': type = 'year'; value = Y < 0 ? String(1 - Y) : String(Y); break;
      case 'yy': type = 'year'; value = pad2(Math.abs(Y) % 100); break;
      case 'M': type = 'month'; value = String(Mo + 1); break;
      case 'MM': type = 'month'; value = pad2(Mo + 1); break;
      case 'MMM': type = 'month'; value = d.months.short[Mo]; break;
      case 'LLL': type = 'month'; value = d.months.shortStandalone[Mo]; break;
      case 'MMMM': type = 'month'; value = d.months.long[Mo]; break;
      case 'MMMMM': type = 'month'; value = d.months.narrow[Mo]; break;
      case 'd': type = 'day'; value = String(D); break;
      case 'dd': type = 'day'; value = pad2(D); break;
      case 'EEEE': type = 'weekday'; value = d.weekdays.long[W]; break;
      case 'EEE': type = 'weekday'; value = d.weekdays.short[W]; break;
      case 'ccc': type = 'weekday'; value = d.weekdays.shortStandalone[W]; break;
      case 'EEEEE': type = 'weekday'; value = d.weekdays.narrow[W]; break;
      case 'h': case 'hh': { type = 'hour'; const h = H % 12 || 12; value = f === 'hh' ? pad2(h) : String(h); break; }
      case 'K': case 'KK': { type = 'hour'; const h = H % 12; value = f === 'KK' ? pad2(h) : String(h); break; }
      case 'H': type = 'hour'; value = String(H); break;
      case 'HH': type = 'hour'; value = pad2(H); break;
      case 'k': case 'kk': { type = 'hour'; const h = H || 24; value = f === 'kk' ? pad2(h) : String(h); break; }
      case 'm': type = 'minute'; value = String(Mi); break;
      case 'mm': type = 'minute'; value = pad2(Mi); break;
      case 's': type = 'second'; value = String(S); break;
      case 'ss': type = 'second'; value = pad2(S); break;
      case 'S': case 'SS': case 'SSS': type = 'fractionalSecond'; value = String(ms).padStart(3, '0').slice(0, f.length); break;
      case 'a': type = 'dayPeriod'; value = d.dayPeriods[H < 12 ? 0 : 1]; break;
      case 'z': case 'zzzz': {
        type = 'timeZoneName';
        const style = f === 'zzzz' ? 'long' : s.tzName && s.tzName !== 'long' ? s.tzName : 'short';
        value = timeZoneName(d, s.timeZone, style, t);
        break;
      }
      default: type = 'literal'; value = f;
    }
    parts.push({ type, value });
  }
  return parts;
}

// ---------------------------------------------------------------- RelativeTimeFormat

const kRTF = Symbol('RelativeTimeFormat');
const rtfUnits = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'];

class RelativeTimeFormat {
  constructor(locales, options) {
    const { locale, lang, data } = resolveLocale(locales);
    const opts = toOptions(options);
    getOption.ctor = 'RelativeTimeFormat';
    const style = getOption(opts, 'style', ['long', 'short', 'narrow'], 'long');
    const numeric = getOption(opts, 'numeric', ['always', 'auto'], 'always');
    Object.defineProperty(this, kRTF, { value: { locale, lang, data, style, numeric, nf: new NumberFormat(locale) } });
  }

  format(value, unit) {
    return partsToString(this.formatToParts(value, unit));
  }

  formatToParts(value, unit) {
    const s = this[kRTF];
    const v = Number(value);
    if (!Number.isFinite(v)) throw new RangeError('Invalid number value');
    let u = String(unit);
    if (u.endsWith('s')) u = u.slice(0, -1);
    if (!rtfUnits.includes(u)) throw new RangeError(`Invalid unit argument for format() '${unit}'`);
    const table = s.data.relative[s.style][u];
    if (s.numeric === 'auto') {
      const special = table.auto[String(Object.is(v, -0) ? 0 : v)];
      if (special !== undefined) return [{ type: 'literal', value: special }];
    }
    const past = v < 0 || Object.is(v, -0);
    const numberParts = s.nf.formatToParts(Math.abs(v)).map((p) => ({ ...p, unit: u }));
    const [intStr, fracStr] = [numberParts.filter((p) => p.type === 'integer').map((p) => p.value).join(''),
      numberParts.filter((p) => p.type === 'fraction').map((p) => p.value).join('')];
    const pattern = (past ? table.past : table.future)[pluralCardinal(intStr, fracStr) === 'one' ? 0 : 1];
    const [before, after] = pattern.split('{0}');
    const parts = [];
    if (before) parts.push({ type: 'literal', value: before });
    parts.push(...numberParts);
    if (after) parts.push({ type: 'literal', value: after });
    return parts;
  }

  resolvedOptions() {
    const s = this[kRTF];
    return { locale: s.locale, style: s.style, numeric: s.numeric, numberingSystem: 'latn' };
  }

  static supportedLocalesOf(locales, options) {
    return supportedLocalesOf(locales, options);
  }
}
Object.defineProperty(RelativeTimeFormat.prototype, Symbol.toStringTag, { value: 'Intl.RelativeTimeFormat', configurable: true });

// ---------------------------------------------------------------- ListFormat

const kLF = Symbol('ListFormat');

class ListFormat {
  constructor(locales, options) {
    const { locale, data } = resolveLocale(locales);
    const opts = toOptions(options);
    getOption.ctor = 'ListFormat';
    const type = getOption(opts, 'type', ['conjunction', 'disjunction', 'unit'], 'conjunction');
    const style = getOption(opts, 'style', ['long', 'short', 'narrow'], 'long');
    Object.defineProperty(this, kLF, { value: { locale, type, style, patterns: data.lists[`${type}-${style}`] } });
  }

  format(list) {
    return partsToString(this.formatToParts(list));
  }

  formatToParts(list) {
    const items = [];
    for (const item of list === undefined ? [] : list) {
      if (typeof item !== 'string') throw new TypeError(`Iterable yielded ${typeof item === 'symbol' ? 'Symbol()' : String(item)} which is not a string`);
      items.push(item);
    }
    const [pair, start, middle, end] = this[kLF].patterns;
    const parts = [];
    items.forEach((item, i) => {
      if (i > 0) {
        const sep = items.length === 2 ? pair : i === 1 ? start : i === items.length - 1 ? end : middle;
        parts.push({ type: 'literal', value: sep });
      }
      parts.push({ type: 'element', value: item });
    });
    return parts;
  }

  resolvedOptions() {
    const s = this[kLF];
    return { locale: s.locale, type: s.type, style: s.style };
  }

  static supportedLocalesOf(locales, options) {
    return supportedLocalesOf(locales, options);
  }
}
Object.defineProperty(ListFormat.prototype, Symbol.toStringTag, { value: 'Intl.ListFormat', configurable: true });

// ---------------------------------------------------------------- Collator

// Root collation (which en and de use) for the characters Functions sort:
// whitespace < punctuation < symbols < digits < letters; letters compare by
// base letter first, then accents, then case (lower before upper).
const punctuationOrder = '\t\n\v\f\r _-,;:!?.\'"()[]{}@*/\\&#%`^+<=>|~$';
const kCol = Symbol('Collator');

function primaryKey(ch) {
  const p = punctuationOrder.indexOf(ch);
  if (p >= 0) return [0, p];
  if (ch >= '0' && ch <= '9') return [2, ch.charCodeAt(0)];
  const base = ch.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  if (/\p{L}/u.test(base)) {
    // Expansions as CLDR has them: ß = ss, æ = ae, œ = oe.
    return [3, base === 'ß' ? 'ss' : base === 'æ' ? 'ae' : base === 'œ' ? 'oe' : base];
  }
  return [1, ch.codePointAt(0)];
}

function collationElements(str, ignorePunctuation) {
  const out = [];
  for (const ch of str) {
    const [cls, w] = primaryKey(ch);
    if (ignorePunctuation && cls <= 1) continue;
    const decomposed = ch.normalize('NFD');
    const accents = decomposed.replace(/[^\p{M}]/gu, '');
    // Tertiary weight: lower case, upper case, then expansions (ß after SS).
    const tertiary = cls === 3 && w.length > 1 ? 2 : ch !== ch.toLowerCase() ? 1 : 0;
    if (cls === 3 && w.length > 1) {
      // An expansion also differs at the secondary level (ß after ss and SS).
      [...w].forEach((c, k) => out.push({ cls, w: c, accents: k === 1 ? '\uffff' : accents, tertiary, ch }));
    } else {
      out.push({ cls, w, accents, tertiary, ch });
    }
  }
  return out;
}

function compareStrings(s, a, b) {
  const x = collationElements(a, s.ignorePunctuation);
  const y = collationElements(b, s.ignorePunctuation);
  // Primary: base characters (digit runs by value when numeric).
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    if (s.numeric && x[i].cls === 2 && y[j].cls === 2) {
      let ni = i;
      let nj = j;
      while (ni < x.length && x[ni].cls === 2) ni++;
      while (nj < y.length && y[nj].cls === 2) nj++;
      const na = x.slice(i, ni).map((e) => e.ch).join('').replace(/^0+(?=\d)/, '');
      const nb = y.slice(j, nj).map((e) => e.ch).join('').replace(/^0+(?=\d)/, '');
      if (na.length !== nb.length) return na.length < nb.length ? -1 : 1;
      if (na !== nb) return na < nb ? -1 : 1;
      i = ni;
      j = nj;
      continue;
    }
    const ea = x[i];
    const eb = y[j];
    if (ea.cls !== eb.cls) return ea.cls < eb.cls ? -1 : 1;
    if (ea.w !== eb.w) return ea.w < eb.w ? -1 : 1;
    i++;
    j++;
  }
  if (i < x.length || j < y.length) return i < x.length ? 1 : -1;
  if (s.sensitivity === 'base') return 0;
  // Secondary: accents.
  for (let k = 0; k < Math.min(x.length, y.length); k++) {
    if (x[k].accents !== y[k].accents) {
      if (s.sensitivity === 'case') break;
      if (x[k].accents === '') return -1;
      if (y[k].accents === '') return 1;
      return x[k].accents < y[k].accents ? -1 : 1;
    }
  }
  if (s.sensitivity === 'accent') return 0;
  // Tertiary: case (lower first unless caseFirst: upper).
  for (let k = 0; k < Math.min(x.length, y.length); k++) {
    const a3 = x[k].tertiary;
    const b3 = y[k].tertiary;
    if (a3 !== b3) {
      if (s.caseFirst === 'upper' && a3 < 2 && b3 < 2) return a3 === 1 ? -1 : 1;
      return a3 < b3 ? -1 : 1;
    }
  }
  if (s.sensitivity === 'case') return 0;
  // Identical level: full strings.
  if (x.length !== y.length) return x.length < y.length ? -1 : 1;
  if (s.ignorePunctuation) return 0;
  const na = a.normalize('NFD');
  const nb = b.normalize('NFD');
  return na === nb ? 0 : na < nb ? -1 : 1;
}

class Collator {
  constructor(locales, options) {
    const { locale } = resolveLocale(locales);
    const opts = toOptions(options);
    getOption.ctor = 'Collator';
    const usage = getOption(opts, 'usage', ['sort', 'search'], 'sort');
    const sensitivity = getOption(opts, 'sensitivity', ['base', 'accent', 'case', 'variant'], 'variant');
    const ignorePunctuation = opts.ignorePunctuation === undefined ? false : Boolean(opts.ignorePunctuation);
    const numeric = opts.numeric === undefined ? false : Boolean(opts.numeric);
    const caseFirst = getOption(opts, 'caseFirst', ['upper', 'lower', 'false'], 'false');
    Object.defineProperty(this, kCol, { value: { locale, usage, sensitivity, ignorePunctuation, numeric, caseFirst } });
  }

  get compare() {
    const fn = (a, b) => compareStrings(this[kCol], String(a), String(b));
    Object.defineProperty(this, 'compare', { value: fn, configurable: true });
    return fn;
  }

  resolvedOptions() {
    const s = this[kCol];
    return {
      locale: s.locale, usage: s.usage, sensitivity: s.sensitivity, ignorePunctuation: s.ignorePunctuation,
      collation: 'default', numeric: s.numeric, caseFirst: s.caseFirst,
    };
  }

  static supportedLocalesOf(locales, options) {
    return supportedLocalesOf(locales, options);
  }
}
Object.defineProperty(Collator.prototype, Symbol.toStringTag, { value: 'Intl.Collator', configurable: true });

// ---------------------------------------------------------------- Locale

class Locale {
  constructor(tag, options) {
    const canonical = canonicalizeTag(typeof tag === 'object' && tag !== null && tag.baseName ? tag.toString() : tag);
    const parts = canonical.replace(/-u-.*$/, '').split('-');
    const info = { language: parts[0], script: undefined, region: undefined };
    for (const p of parts.slice(1)) {
      if (/^[A-Z][a-z]{3}$/.test(p)) info.script = p;
      else if (/^([A-Z]{2}|\d{3})$/.test(p)) info.region = p;
    }
    const opts = options || {};
    if (opts.language) info.language = String(opts.language).toLowerCase();
    if (opts.script) info.script = String(opts.script);
    if (opts.region) info.region = String(opts.region).toUpperCase();
    Object.defineProperty(this, kCol, { value: info });
  }
  get language() { return this[kCol].language; }
  get script() { return this[kCol].script; }
  get region() { return this[kCol].region; }
  get baseName() {
    const i = this[kCol];
    return [i.language, i.script, i.region].filter(Boolean).join('-');
  }
  toString() { return this.baseName; }
  maximize() {
    const i = this[kCol];
    const likely = { en: ['Latn', 'US'], de: ['Latn', 'DE'] }[i.language] || ['Latn', undefined];
    return new Locale(i.language, { script: i.script || likely[0], region: i.region || likely[1] });
  }
  minimize() {
    return new Locale(this[kCol].language);
  }
}
Object.defineProperty(Locale.prototype, Symbol.toStringTag, { value: 'Intl.Locale', configurable: true });

// ---------------------------------------------------------------- DisplayNames

// Names of languages, regions, scripts, currencies, calendars and date
// fields, as ICU gives them (the tables hold every code ICU names in en or
// de; languages only where it names them in both). Options are read and
// codes checked as V8 does; a well-formed code without a name is the code
// itself (fallback "code") or undefined (fallback "none").
const kDN = Symbol('DisplayNames');
const dnTypes = ['language', 'region', 'script', 'currency', 'calendar', 'dateTimeField'];
let dnTables = null;

function displayNameTables() {
  if (dnTables) return dnTables;
  const D = DATA.displayNames;
  const codes = {};
  for (const type of Object.keys(D.codes)) codes[type] = D.codes[type].split(' ');
  const alias = {};
  for (const type of Object.keys(D.alias)) {
    alias[type] = new Map(D.alias[type] ? D.alias[type].split(' ').map((p) => p.split('=')) : []);
  }
  const byLocale = {};
  for (const loc of ['en-US', 'de-DE']) {
    const L = DATA[loc].displayNames;
    const t = { dialect: L.dialect, patterns: L.patterns };
    for (const type of Object.keys(D.codes)) {
      const [long, short, narrow] = L[type];
      const names = long.split('|');
      const map = new Map();
      codes[type].forEach((c, i) => map.set(c, names[i]));
      t[type] = { map, short, narrow };
    }
    byLocale[loc] = t;
  }
  dnTables = { alias, byLocale };
  return dnTables;
}

// The name of `code` in a table, or undefined.
function tableName(table, style, code) {
  if (!table.map.has(code)) return undefined;
  let name = table.map.get(code);
  if (style !== 'long' && hasOwn(table.short, code)) name = table.short[code];
  if (style === 'narrow' && hasOwn(table.narrow, code)) name = table.narrow[code];
  return name === '' ? undefined : name;
}

function getOptionsObject(options) {
  if (options === undefined) return Object.create(null);
  if ((typeof options !== 'object' && typeof options !== 'function') || options === null) throw new TypeError('invalid_argument');
  return options;
}

function toCodeString(code) {
  if (typeof code === 'symbol') throw new TypeError('Cannot convert a Symbol value to a string');
  return String(code);
}

// How V8 shows a receiver in "called on incompatible receiver" errors.
function receiverText(v) {
  if (typeof v === 'object' && v !== null) {
    if (Array.isArray(v)) return '[object Array]';
    const ctor = v.constructor;
    return `#<${ctor && typeof ctor.name === 'string' && ctor.name ? ctor.name : 'Object'}>`;
  }
  if (typeof v === 'function') return String(v);
  if (typeof v === 'symbol') return v.toString();
  if (typeof v === 'string') return v;
  return String(v);
}

function checkReceiver(obj, key, method) {
  if ((typeof obj !== 'object' && typeof obj !== 'function') || obj === null || !hasOwn(obj, key)) {
    throw new TypeError(`Method ${method} called on incompatible receiver ${receiverText(obj)}`);
  }
  return obj[key];
}

// A language tag as ICU reads it (BCP 47, well-formed), canonicalized:
// extlang replaces the language, aliases are replaced ("iw" -> "he",
// "DD" -> "DE", "heploc" -> "alalc97"), variants are sorted; extensions
// and private use are dropped. Throws a RangeError otherwise.
function parseDisplayLanguage(code) {
  const invalid = () => new RangeError('invalid_argument');
  const out = { language: 'und', script: undefined, region: undefined, variants: [] };
  if (code === '') return out;
  const { alias } = displayNameTables();
  let lower = code.toLowerCase();
  for (const [tag, replacement] of alias.grandfathered) {
    if (lower === tag || lower.startsWith(`${tag}-`)) {
      lower = replacement.toLowerCase() + lower.slice(tag.length);
      break;
    }
  }
  const parts = lower.split('-');
  const n = parts.length;
  let i = 0;
  const alnum = (p, min, max) => p.length >= min && p.length <= max && /^[a-z0-9]+$/.test(p);
  if (parts[0] !== 'x') {
    if (!/^[a-z]{2,8}$/.test(parts[0])) throw invalid();
    out.language = parts[i++];
    if (out.language.length <= 3) {
      const ext = [];
      while (i < n && ext.length < 3 && /^[a-z]{3}$/.test(parts[i])) ext.push(parts[i++]);
      if (ext.length) out.language = ext[0];
    }
    if (i < n && /^[a-z]{4}$/.test(parts[i])) {
      out.script = parts[i][0].toUpperCase() + parts[i].slice(1);
      i++;
    }
    if (i < n && /^(?:[a-z]{2}|\d{3})$/.test(parts[i])) out.region = parts[i++].toUpperCase();
    while (i < n && (alnum(parts[i], 5, 8) || /^\d[a-z0-9]{3}$/.test(parts[i]))) {
      if (out.variants.includes(parts[i])) throw invalid();
      out.variants.push(parts[i++]);
    }
    const singletons = [];
    while (i < n && /^[0-9a-wyz]$/.test(parts[i])) {
      if (singletons.includes(parts[i])) throw invalid();
      singletons.push(parts[i++]);
      const start = i;
      while (i < n && alnum(parts[i], 2, 8)) i++;
      if (i === start) throw invalid();
    }
  }
  if (i < n && parts[i] === 'x') {
    const start = ++i;
    while (i < n && alnum(parts[i], 1, 8)) i++;
    if (i === start) throw invalid();
  }
  if (i !== n) throw invalid();
  const lang = alias.language.get(out.language);
  if (lang !== undefined) {
    const [l, ...rest] = lang.split('-');
    out.language = l;
    for (const p of rest) {
      if (p.length === 4 && out.script === undefined) out.script = p;
      else if (p.length !== 4 && out.region === undefined) out.region = p;
    }
  }
  if (out.script !== undefined && alias.script.has(out.script)) out.script = alias.script.get(out.script);
  if (out.region !== undefined && alias.region.has(out.region)) out.region = alias.region.get(out.region);
  const variants = [];
  for (const [key, a] of alias.variant) {
    // Aliases of two variants together ("hepburn-heploc" -> "alalc97").
    const pair = key.split('-');
    if (pair.length === 2 && pair.every((v) => out.variants.includes(v))) out.variants = [...out.variants.filter((v) => !pair.includes(v)), a];
  }
  for (const v of out.variants) {
    const a = alias.variant.get(v);
    if (a === undefined) variants.push(v);
    else if (/^(?:[A-Z]{2}|\d{3})$/.test(a)) out.region = out.region === undefined ? a : out.region;
    else if (a !== '') variants.push(a);
  }
  out.variants = [...new Set(variants)].sort();
  return out;
}

// ICU's LocaleDisplayNames: the language (or, for languageDisplay
// "dialect", a name CLDR gives the language with its script or its region:
// "British English"), then the script, region and variants in parentheses.
function languageDisplayName(s, code) {
  const t = parseDisplayLanguage(code);
  const tables = displayNameTables().byLocale[s.dataLocale];
  const useCode = s.fallback === 'code';
  let hasScript = t.script !== undefined;
  let hasRegion = t.region !== undefined;
  let name;
  if (s.languageDisplay === 'dialect' && hasScript !== hasRegion) {
    // (ICU looks up language_script_region when both are there, and then
    // nothing else, so "zh-Hans-CN" is not "Simplified Chinese (China)".)
    const entry = tables.dialect[`${t.language}_${hasScript ? t.script : t.region}`];
    name = typeof entry === 'string' ? entry : entry ? entry[s.style === 'long' ? 0 : 1] || undefined : undefined;
    if (name !== undefined) {
      if (hasScript) hasScript = false;
      else hasRegion = false;
    }
  }
  if (name === undefined) name = t.language === 'und' ? undefined : tableName(tables.language, s.style, t.language);
  if (name === undefined) {
    if (!useCode) return undefined;
    name = t.language === 'und' ? 'root' : t.language;
  }
  const qualifiers = [];
  const add = (value, substitute) => {
    if (value === undefined && !useCode) return false;
    qualifiers.push(value === undefined ? substitute : value);
    return true;
  };
  if (hasScript && !add(tableName(tables.script, s.style, t.script), t.script)) return undefined;
  if (hasRegion && !add(tableName(tables.region, s.style, t.region), t.region)) return undefined;
  if (t.variants.length) {
    const v = t.variants.length === 1 ? tableName(tables.variant, s.style, t.variants[0]) : undefined;
    if (!add(v, t.variants.join('_').toUpperCase())) return undefined;
  }
  if (!qualifiers.length) return name;
  const [pattern, separator] = tables.patterns;
  let rest = qualifiers[0];
  for (let k = 1; k < qualifiers.length; k++) rest = separator.replace('{0}', rest).replace('{1}', qualifiers[k]);
  rest = rest.replace(/\(/g, '[').replace(/\)/g, ']');
  return pattern.replace('{0}', name).replace('{1}', rest);
}

const dateTimeFields = ['era', 'year', 'quarter', 'month', 'weekOfYear', 'weekday', 'day', 'dayPeriod', 'hour', 'minute', 'second', 'timeZoneName'];

function displayName(s, code) {
  if (s.type === 'language') return languageDisplayName(s, code);
  const tables = displayNameTables().byLocale[s.dataLocale];
  let key = code;
  switch (s.type) {
    // (V8 lets an empty region or script through.)
    case 'region': if (!/^(?:[A-Za-z]{2}|\d{3}|)$/.test(code)) throw new RangeError('invalid_argument'); break;
    case 'script': if (!/^(?:[A-Za-z]{4}|)$/.test(code)) throw new RangeError('invalid_argument'); break;
    case 'currency':
      if (!/^[A-Za-z]{3}$/.test(code)) throw new RangeError('invalid_argument');
      key = code.toUpperCase();
      break;
    case 'calendar': if (!/^[A-Za-z0-9]{3,8}(?:-[A-Za-z0-9]{3,8})*$/.test(code)) throw new RangeError('invalid_argument'); break;
    default: if (!dateTimeFields.includes(code)) throw new RangeError('invalid_argument');
  }
  const name = tableName(tables[s.type], s.style, key);
  if (name !== undefined) return name;
  return s.fallback === 'code' ? code : undefined;
}

function DisplayNames(locales, options) {
  if (new.target === undefined) throw new TypeError("Constructor Intl.DisplayNames requires 'new'");
  const { locale, lang } = resolveLocale(locales);
  const opts = getOptionsObject(options);
  if (options === undefined) throw new TypeError('invalid_argument');
  getOption.ctor = 'DisplayNames';
  getOption(opts, 'localeMatcher', ['lookup', 'best fit'], 'best fit');
  const style = getOption(opts, 'style', ['narrow', 'short', 'long'], 'long');
  const type = getOption(opts, 'type', dnTypes, undefined);
  if (type === undefined) throw new TypeError('invalid_argument');
  const fallback = getOption(opts, 'fallback', ['code', 'none'], 'code');
  const languageDisplay = getOption(opts, 'languageDisplay', ['dialect', 'standard'], 'dialect');
  Object.defineProperty(this, kDN, { value: { locale, dataLocale: lang === 'en' ? 'en-US' : 'de-DE', style, type, fallback, languageDisplay } });
}

defineMethods(DisplayNames.prototype, {
  resolvedOptions() {
    const s = checkReceiver(this, kDN, 'Intl.DisplayNames.prototype.resolvedOptions');
    const out = { locale: s.locale, style: s.style, type: s.type, fallback: s.fallback };
    if (s.type === 'language') out.languageDisplay = s.languageDisplay;
    return out;
  },
  of(code) {
    const s = checkReceiver(this, kDN, 'Intl.DisplayNames.prototype.of');
    return displayName(s, toCodeString(code));
  },
});
defineMethods(DisplayNames, {
  supportedLocalesOf(locales) {
    return supportedLocalesOf(locales, arguments[1]);
  },
});
Object.defineProperty(DisplayNames.prototype, Symbol.toStringTag, { value: 'Intl.DisplayNames', configurable: true });

// Methods as a class has them: writable, configurable, not enumerable.
function defineMethods(target, methods) {
  for (const name of Reflect.ownKeys(methods)) {
    Object.defineProperty(target, name, { value: methods[name], writable: true, configurable: true, enumerable: false });
  }
}

// ---------------------------------------------------------------- Segmenter

// UAX #29 segmentation with ICU's character properties (generated from
// Node's ICU into internal/intl-data.js): extended grapheme clusters
// (GB9c Indic conjuncts, GB11 emoji ZWJ sequences, GB12/13 flags), words
// (with ICU's word-like status) and sentences. ICU breaks Chinese,
// Japanese and South East Asian scripts into words with dictionaries; here
// a Han or Hiragana character is a word of its own and Katakana, Hangul,
// Thai... runs stay whole.
const kSeg = Symbol('Segmenter');
const segTables = {};

// The class of every code point, from runs stored as a class character and
// a base-32 length (see test/gen-intl-data.mjs).
function segTable(granularity) {
  let t = segTables[granularity];
  if (t) return t;
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const digit = new Int8Array(128);
  for (let k = 0; k < 64; k++) digit[alphabet.charCodeAt(k)] = k;
  const enc = DATA.segmenter[granularity];
  const starts = [];
  const classes = [];
  const bmp = new Uint8Array(0x10000);
  let cp = 0;
  for (let i = 0; i < enc.length;) {
    const cls = digit[enc.charCodeAt(i++)];
    let n = 0;
    let d;
    do {
      d = digit[enc.charCodeAt(i++)];
      n = n * 32 + (d & 31);
    } while (d >= 32);
    starts.push(cp);
    classes.push(cls);
    if (cp < 0x10000) bmp.fill(cls, cp, Math.min(cp + n, 0x10000));
    cp += n;
  }
  const names = {};
  DATA.segmenter.classes[granularity].split(' ').forEach((name, k) => { names[name] = k; });
  t = { starts: Int32Array.from(starts), classes: Uint8Array.from(classes), bmp, names };
  segTables[granularity] = t;
  return t;
}

function classOf(t, cp) {
  if (cp < 0x10000) return t.bmp[cp];
  let lo = 0;
  let hi = t.starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (t.starts[mid] <= cp) lo = mid;
    else hi = mid - 1;
  }
  return t.classes[lo];
}

// The code points of `s` (lone surrogates as themselves): their classes
// and UTF-16 offsets (offsets has one more entry, the length).
function classify(s, t) {
  const cls = [];
  const offsets = [];
  for (let i = 0; i < s.length;) {
    let cp = s.charCodeAt(i);
    offsets.push(i);
    if (cp >= 0xD800 && cp < 0xDC00 && i + 1 < s.length) {
      const lo = s.charCodeAt(i + 1);
      if (lo >= 0xDC00 && lo < 0xE000) {
        cp = (cp - 0xD800) * 0x400 + (lo - 0xDC00) + 0x10000;
        i++;
      }
    }
    i++;
    cls.push(classOf(t, cp));
  }
  offsets.push(s.length);
  return { cls, offsets };
}

function graphemeBreaks(s) {
  const t = segTable('grapheme');
  const { CR, LF, Control, Extend, ZWJ, RI, Prepend, SpacingMark, L, V, T, LV, LVT, ExtPict, Consonant, Linker, ExtendOnly } = t.names;
  const { cls, offsets } = classify(s, t);
  const breaks = [0];
  let ri = 0; // regional indicators just before
  let emoji = 0; // 1: after ExtPict Extend*, 2: after ExtPict Extend* ZWJ
  let conjunct = 0; // 1: after Consonant [Extend ZWJ Linker]*, 2: with a Linker among them
  for (let i = 0; i < cls.length; i++) {
    const c = cls[i];
    if (i > 0) {
      const p = cls[i - 1];
      let brk;
      if (p === CR && c === LF) brk = false;
      else if (p === CR || p === LF || p === Control || c === CR || c === LF || c === Control) brk = true;
      else if (p === L && (c === L || c === V || c === LV || c === LVT)) brk = false;
      else if ((p === LV || p === V) && (c === V || c === T)) brk = false;
      else if ((p === LVT || p === T) && c === T) brk = false;
      else if (c === Extend || c === ZWJ || c === Linker || c === ExtendOnly || c === SpacingMark || p === Prepend) brk = false;
      else if (c === Consonant && conjunct === 2) brk = false;
      else if (c === ExtPict && emoji === 2) brk = false;
      else brk = !(p === RI && c === RI && ri % 2 === 1);
      if (brk) breaks.push(offsets[i]);
    }
    ri = c === RI ? ri + 1 : 0;
    if (c === ExtPict) emoji = 1;
    else if (emoji === 1 && (c === Extend || c === Linker || c === ExtendOnly)) emoji = 1;
    else emoji = emoji === 1 && c === ZWJ ? 2 : 0;
    if (c === Consonant) conjunct = 1;
    else if (conjunct && c === Linker) conjunct = 2;
    else if (!conjunct || (c !== Extend && c !== ZWJ)) conjunct = 0;
  }
  if (s.length) breaks.push(s.length);
  return { breaks };
}

function wordBreaks(s) {
  const t = segTable('word');
  const W = t.names;
  const { cls, offsets } = classify(s, t);
  const n = cls.length;
  const newline = (c) => c === W.CR || c === W.LF || c === W.Newline;
  const ignorable = (c) => c === W.Extend || c === W.ZWJ;
  const letter = (c) => c === W.ALetter || c === W.Hebrew || c === W.ALetterExtPict;
  const midLetter = (c) => c === W.MidLetter || c === W.MidNumLet || c === W.SQ;
  const midNum = (c) => c === W.MidNum || c === W.MidNumLet || c === W.SQ;
  const kanaKanji = (c) => c === W.Katakana || c === W.Hiragana || c === W.Ideographic || c === W.Han;
  // WB4: Extend, Format and ZWJ belong to the character before them.
  const base = new Int32Array(n);
  for (let i = 0; i < n; i++) base[i] = i > 0 && ignorable(cls[i]) && !newline(cls[i - 1]) ? base[i - 1] : i;
  const prevBase = (i) => (i > 0 ? base[i - 1] : -1);
  const nextBase = (i) => {
    let j = i + 1;
    while (j < n && base[j] !== j) j++;
    return j;
  };
  const at = (i) => (i >= 0 && i < n ? cls[i] : -1);
  const breaks = [0];
  for (let i = 1; i < n; i++) {
    const a = cls[i - 1];
    const b = cls[i];
    let brk;
    if (a === W.CR && b === W.LF) brk = false;
    else if (newline(a) || newline(b)) brk = true;
    else if (a === W.ZWJ && (b === W.ExtPict || b === W.ALetterExtPict)) brk = false;
    else if (a === W.WSegSpace && b === W.WSegSpace) brk = false;
    else if (ignorable(b)) brk = false;
    else {
      const ai = base[i - 1];
      const A = cls[ai];
      const A2 = at(prevBase(ai));
      const B = b;
      const B2 = at(nextBase(i));
      if (letter(A) && letter(B)) brk = false;
      else if (letter(A) && midLetter(B) && letter(B2)) brk = false;
      else if (letter(A2) && midLetter(A) && letter(B)) brk = false;
      else if (A === W.Hebrew && B === W.SQ) brk = false;
      else if (A === W.Hebrew && B === W.DQ && B2 === W.Hebrew) brk = false;
      else if (A2 === W.Hebrew && A === W.DQ && B === W.Hebrew) brk = false;
      else if ((A === W.Numeric || letter(A)) && B === W.Numeric) brk = false;
      else if (A === W.Numeric && letter(B)) brk = false;
      else if (A2 === W.Numeric && midNum(A) && B === W.Numeric) brk = false;
      else if (A === W.Numeric && midNum(B) && B2 === W.Numeric) brk = false;
      else if (A === W.Katakana && B === W.Katakana) brk = false;
      else if ((letter(A) || A === W.Numeric || A === W.Katakana || A === W.ENL) && B === W.ENL) brk = false;
      else if (A === W.ENL && (letter(B) || B === W.Numeric || B === W.Katakana)) brk = false;
      else if (A === W.Hangul && B === W.Hangul) brk = false;
      else if (A === W.RI && B === W.RI) {
        let count = 0;
        for (let k = ai; k >= 0 && cls[k] === W.RI; k = prevBase(k)) count++;
        brk = count % 2 === 0;
      } else brk = true;
    }
    if (brk) breaks.push(offsets[i]);
  }
  if (n) breaks.push(s.length);
  // ICU's rule status, from the segment's last character: a letter,
  // number, kana or ideograph makes a word; a connector ("a_", "__") or a
  // Hebrew letter's quote ends one, and a Hangul syllable is one, unless
  // Extend or Format characters follow them.
  const wordLike = [];
  for (let k = 0, i = 0; k + 1 < breaks.length; k++) {
    let last = -1;
    let bases = 0;
    let end = i;
    for (; end < n && offsets[end] < breaks[k + 1]; end++) {
      if (base[end] === end) {
        last = end;
        bases++;
      }
    }
    const c = cls[last];
    const trailing = last !== end - 1;
    let like = false;
    if (c === W.Numeric || letter(c) || c === W.Katakana || c === W.Hiragana || c === W.Ideographic) like = true;
    else if (c === W.ENL || c === W.SQ) like = !trailing && bases > 1;
    else if (c === W.Hangul) like = !trailing;
    else if (c === W.Han) like = kanaKanji(at(prevBase(last))) || kanaKanji(at(nextBase(last)));
    wordLike.push(like);
    i = end;
  }
  return { breaks, wordLike };
}

function sentenceBreaks(s) {
  const t = segTable('sentence');
  const S = t.names;
  const { cls, offsets } = classify(s, t);
  const n = cls.length;
  const paraSep = (c) => c === S.Sep || c === S.CR || c === S.LF;
  const term = (c) => c === S.ATerm || c === S.STerm;
  // SB5: Extend and Format belong to the character before them.
  const base = new Int32Array(n);
  for (let i = 0; i < n; i++) base[i] = i > 0 && cls[i] === S.Extend && !paraSep(cls[i - 1]) ? base[i - 1] : i;
  const prevBase = (i) => (i > 0 ? base[i - 1] : -1);
  const breaks = [0];
  for (let i = 1; i < n; i++) {
    const a = cls[i - 1];
    const b = cls[i];
    let brk = false;
    if (a === S.CR && b === S.LF) brk = false;
    else if (paraSep(a)) brk = true;
    else if (b === S.Extend) brk = false;
    else {
      const ai = base[i - 1];
      const A = cls[ai];
      const A2i = prevBase(ai);
      const A2 = A2i >= 0 ? cls[A2i] : -1;
      if (A === S.ATerm && b === S.Numeric) brk = false;
      else if ((A2 === S.Upper || A2 === S.Lower) && A === S.ATerm && b === S.Upper) brk = false;
      else {
        // SATerm Close* Sp* before the position?
        let k = ai;
        let spaces = false;
        while (k >= 0 && cls[k] === S.Sp) { spaces = true; k = prevBase(k); }
        while (k >= 0 && cls[k] === S.Close) k = prevBase(k);
        if (k >= 0 && term(cls[k])) {
          let lowerFollows = false;
          if (cls[k] === S.ATerm) {
            // SB8: ATerm Close* Sp* × (not a letter, separator or terminator)* Lower
            for (let j = i; j < n; j++) {
              if (base[j] !== j) continue;
              const c = cls[j];
              if (c === S.OLetter || c === S.Upper || c === S.Lower || paraSep(c) || term(c)) {
                lowerFollows = c === S.Lower;
                break;
              }
            }
          }
          if (lowerFollows) brk = false;
          else if (b === S.SContinue || term(b)) brk = false;
          else if (!spaces && (b === S.Close || b === S.Sp || paraSep(b))) brk = false;
          else brk = !(b === S.Sp || paraSep(b));
        }
      }
    }
    if (brk) breaks.push(offsets[i]);
  }
  if (n) breaks.push(s.length);
  return { breaks };
}

const segmentFns = { grapheme: graphemeBreaks, word: wordBreaks, sentence: sentenceBreaks };

function Segmenter() {
  if (new.target === undefined) throw new TypeError("Constructor Intl.Segmenter requires 'new'");
  const { locale } = resolveLocale(arguments[0]);
  const opts = getOptionsObject(arguments[1]);
  getOption.ctor = 'Segmenter';
  getOption(opts, 'localeMatcher', ['lookup', 'best fit'], 'best fit');
  const granularity = getOption(opts, 'granularity', ['grapheme', 'word', 'sentence'], 'grapheme');
  Object.defineProperty(this, kSeg, { value: { locale, granularity } });
}

defineMethods(Segmenter.prototype, {
  resolvedOptions() {
    const s = checkReceiver(this, kSeg, 'Intl.Segmenter.prototype.resolvedOptions');
    return { locale: s.locale, granularity: s.granularity };
  },
  segment(string) {
    const s = checkReceiver(this, kSeg, 'Intl.Segmenter.prototype.segment');
    const segments = Object.create(SegmentsPrototype);
    segmentsState.set(segments, { granularity: s.granularity, input: toCodeString(string), result: null });
    return segments;
  },
});
defineMethods(Segmenter, {
  supportedLocalesOf(locales) {
    return supportedLocalesOf(locales, arguments[1]);
  },
});
Object.defineProperty(Segmenter.prototype, Symbol.toStringTag, { value: 'Intl.Segmenter', configurable: true });

const segmentsState = new WeakMap();
const segmentIteratorState = new WeakMap();

function segmentsOf(state) {
  if (!state.result) state.result = segmentFns[state.granularity](state.input);
  return state.result;
}

function segmentData(state, k) {
  const { breaks, wordLike } = segmentsOf(state);
  const out = { segment: state.input.slice(breaks[k], breaks[k + 1]), index: breaks[k], input: state.input };
  if (wordLike) out.isWordLike = wordLike[k];
  return out;
}

const SegmentsPrototype = {};
defineMethods(SegmentsPrototype, {
  containing(index) {
    const state = segmentsState.get(this);
    if (!state) throw new TypeError(`Method %Segments.prototype%.containing called on incompatible receiver ${receiverText(this)}`);
    let n = Number(index);
    n = Number.isNaN(n) ? 0 : Math.trunc(n);
    if (n < 0 || n >= state.input.length) return undefined;
    const { breaks } = segmentsOf(state);
    let lo = 0;
    let hi = breaks.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (breaks[mid] <= n) lo = mid;
      else hi = mid - 1;
    }
    return segmentData(state, lo);
  },
  [Symbol.iterator]() {
    const state = segmentsState.get(this);
    if (!state) throw new TypeError(`Method %Segments.prototype%[@@iterator] called on incompatible receiver ${receiverText(this)}`);
    const it = Object.create(SegmentIteratorPrototype);
    segmentIteratorState.set(it, { state, k: 0 });
    return it;
  },
});

const SegmentIteratorPrototype = Object.create(Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())));
defineMethods(SegmentIteratorPrototype, {
  next() {
    const it = segmentIteratorState.get(this);
    if (!it) throw new TypeError(`Method %SegmentIterator.prototype%.next called on incompatible receiver ${receiverText(this)}`);
    const { breaks } = segmentsOf(it.state);
    if (it.k + 1 >= breaks.length) return { value: undefined, done: true };
    return { value: segmentData(it.state, it.k++), done: false };
  },
});
Object.defineProperty(SegmentIteratorPrototype, Symbol.toStringTag, { value: 'Segmenter String Iterator', configurable: true });

// ---------------------------------------------------------------- Intl

const Intl = {};
Object.defineProperties(Intl, {
  NumberFormat: { value: NumberFormat, writable: true, configurable: true },
  DateTimeFormat: { value: DateTimeFormat, writable: true, configurable: true },
  PluralRules: { value: PluralRules, writable: true, configurable: true },
  RelativeTimeFormat: { value: RelativeTimeFormat, writable: true, configurable: true },
  ListFormat: { value: ListFormat, writable: true, configurable: true },
  Collator: { value: Collator, writable: true, configurable: true },
  Locale: { value: Locale, writable: true, configurable: true },
  DisplayNames: { value: DisplayNames, writable: true, configurable: true },
  Segmenter: { value: Segmenter, writable: true, configurable: true },
  getCanonicalLocales: { value: (locales) => getCanonicalLocales(locales), writable: true, configurable: true },
  supportedValuesOf: {
    value: (key) => ({
      calendar: ['gregory'], collation: ['default'], currency: Object.keys(DATA['en-US'].currencies).sort(),
      numberingSystem: ['latn'], timeZone: ['UTC', ...cetZones.filter((z) => z.includes('/'))].sort(), unit: Object.keys(DATA['en-US'].units.simple),
    })[key] || (() => { throw new RangeError(`Invalid key : ${key}`); })(),
    writable: true,
    configurable: true,
  },
  [Symbol.toStringTag]: { value: 'Intl', configurable: true },
});

// ---------------------------------------------------------------- prototypes

// Formatters are cached per (locales, options) for the common no-argument
// calls, which are most of them.
const cache = new Map();
function cached(kind, locales, options, make) {
  if (options !== undefined || (locales !== undefined && typeof locales !== 'string')) return make();
  const key = `${kind}|${locales}`;
  let f = cache.get(key);
  if (!f) {
    f = make();
    cache.set(key, f);
  }
  return f;
}

function thisNumber(v) {
  if (typeof v === 'number') return v;
  return Number.prototype.valueOf.call(v);
}

function install() {
  const define = (proto, name, fn) => Object.defineProperty(proto, name, { value: fn, writable: true, configurable: true, enumerable: false });
  define(Number.prototype, 'toLocaleString', function toLocaleString(locales, options) {
    return cached('n', locales, options, () => new NumberFormat(locales, options)).format(thisNumber(this));
  });
  define(BigInt.prototype, 'toLocaleString', function toLocaleString(locales, options) {
    return cached('n', locales, options, () => new NumberFormat(locales, options)).format(BigInt.prototype.valueOf.call(this));
  });
  const dateMethod = (name, required, defaults) => function (locales, options) {
    const t = Date.prototype.getTime.call(this);
    if (Number.isNaN(t)) return 'Invalid Date';
    const f = cached(name, locales, options, () => {
      const dtf = Object.create(DateTimeFormat.prototype);
      createDateTimeFormat(dtf, locales, toDateTimeOptions(options, required, defaults));
      return dtf;
    });
    return f.format(t);
  };
  define(Date.prototype, 'toLocaleString', dateMethod('toLocaleString', 'any', 'all'));
  define(Date.prototype, 'toLocaleDateString', dateMethod('toLocaleDateString', 'date', 'date'));
  define(Date.prototype, 'toLocaleTimeString', dateMethod('toLocaleTimeString', 'time', 'time'));
  define(String.prototype, 'localeCompare', function localeCompare(that, locales, options) {
    if (this === null || this === undefined) throw new TypeError('String.prototype.localeCompare called on null or undefined');
    return cached('c', locales, options, () => new Collator(locales, options)).compare(String(this), String(that));
  });
}

install();

module.exports = { Intl };
