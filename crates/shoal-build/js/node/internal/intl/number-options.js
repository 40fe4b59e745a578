'use strict';
// What NumberFormat and PluralRules share: SetNumberFormatDigitOptions
// (ECMA-402 2024, with V8's messages) and ToIntlMathematicalValue (numbers
// as exact decimal strings for the native formatter).

const { getStringOption, getNumberOption, defaultNumberOption } = require('./options');

const roundingIncrements = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000];
const roundingModes = ['ceil', 'floor', 'expand', 'trunc', 'halfCeil', 'halfFloor', 'halfExpand', 'halfTrunc', 'halfEven'];

// Reads the digit options into `target` (minimumIntegerDigits,
// minimum/maximumFractionDigits, minimum/maximumSignificantDigits,
// roundingIncrement, roundingMode, roundingPriority, trailingZeroDisplay,
// roundingType).
function setDigitOptions(target, options, mnfdDefault, mxfdDefault, notation, service) {
  const mnid = getNumberOption(options, 'minimumIntegerDigits', 1, 21, 1);
  let mnfd = options.minimumFractionDigits;
  let mxfd = options.maximumFractionDigits;
  const mnsd = options.minimumSignificantDigits;
  const mxsd = options.maximumSignificantDigits;
  target.minimumIntegerDigits = mnid;
  const roundingIncrement = getNumberOption(options, 'roundingIncrement', 1, 5000, 1);
  if (!roundingIncrements.includes(roundingIncrement)) throw new RangeError('roundingIncrement value is out of range.');
  const roundingMode = getStringOption(options, 'roundingMode', roundingModes, 'halfExpand', service);
  const roundingPriority = getStringOption(options, 'roundingPriority', ['auto', 'morePrecision', 'lessPrecision'], 'auto', service);
  const trailingZeroDisplay = getStringOption(options, 'trailingZeroDisplay', ['auto', 'stripIfInteger'], 'auto', service);
  if (roundingIncrement !== 1) mxfdDefault = mnfdDefault;
  target.roundingIncrement = roundingIncrement;
  target.roundingMode = roundingMode;
  target.trailingZeroDisplay = trailingZeroDisplay;
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
      target.minimumSignificantDigits = defaultNumberOption(mnsd, 1, 21, 1, 'minimumSignificantDigits');
      target.maximumSignificantDigits = defaultNumberOption(mxsd, target.minimumSignificantDigits, 21, 21, 'maximumSignificantDigits');
    } else {
      target.minimumSignificantDigits = 1;
      target.maximumSignificantDigits = 21;
    }
  }
  if (needFd) {
    if (hasFd) {
      mnfd = defaultNumberOption(mnfd, 0, 100, undefined, 'minimumFractionDigits');
      mxfd = defaultNumberOption(mxfd, 0, 100, undefined, 'maximumFractionDigits');
      if (mnfd === undefined) mnfd = Math.min(mnfdDefault, mxfd);
      else if (mxfd === undefined) mxfd = Math.max(mxfdDefault, mnfd);
      else if (mnfd > mxfd) throw new RangeError('maximumFractionDigits value is out of range.');
      target.minimumFractionDigits = mnfd;
      target.maximumFractionDigits = mxfd;
    } else {
      target.minimumFractionDigits = mnfdDefault;
      target.maximumFractionDigits = mxfdDefault;
    }
  }
  if (!needSd && !needFd) {
    target.minimumFractionDigits = 0;
    target.maximumFractionDigits = 0;
    target.minimumSignificantDigits = 1;
    target.maximumSignificantDigits = 2;
    target.roundingType = 'morePrecision';
    target.roundingPriority = 'morePrecision';
  } else if (roundingPriority === 'auto') {
    target.roundingType = needSd ? 'significantDigits' : 'fractionDigits';
    target.roundingPriority = 'auto';
  } else {
    target.roundingType = roundingPriority;
    target.roundingPriority = roundingPriority;
  }
  if (roundingIncrement !== 1) {
    if (target.roundingType !== 'fractionDigits') throw new TypeError('RoundingType is not fractionDigits');
    if (target.maximumFractionDigits !== target.minimumFractionDigits) throw new RangeError('maximumFractionDigits value is out of range.');
  }
}

// The digit options as the native formatter takes them.
function nativeDigitOptions(s) {
  const out = {
    minimumIntegerDigits: s.minimumIntegerDigits,
    roundingIncrement: s.roundingIncrement,
    roundingMode: s.roundingMode,
    trailingZeroDisplay: s.trailingZeroDisplay,
    roundingType: s.roundingType === 'morePrecision' || s.roundingType === 'lessPrecision' ? s.roundingType : 'auto',
  };
  if (s.roundingType !== 'significantDigits') {
    out.minimumFractionDigits = s.minimumFractionDigits;
    out.maximumFractionDigits = s.maximumFractionDigits;
  }
  if (s.roundingType !== 'fractionDigits') {
    out.minimumSignificantDigits = s.minimumSignificantDigits;
    out.maximumSignificantDigits = s.maximumSignificantDigits;
  }
  return out;
}

// resolvedOptions()'s digit fields, in V8's order.
function resolvedDigitOptions(s, out) {
  out.minimumIntegerDigits = s.minimumIntegerDigits;
  if (s.roundingType !== 'significantDigits') {
    out.minimumFractionDigits = s.minimumFractionDigits;
    out.maximumFractionDigits = s.maximumFractionDigits;
  }
  if (s.roundingType !== 'fractionDigits') {
    out.minimumSignificantDigits = s.minimumSignificantDigits;
    out.maximumSignificantDigits = s.maximumSignificantDigits;
  }
  return out;
}

// ECMAScript's StringNumericLiteral, exactly: a decimal string, "NaN",
// "Infinity" or "-Infinity".
const whitespace = /^[\s\uFEFF\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+|[\s\uFEFF\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+$/g;
function decimalOfString(str) {
  const s = str.replace(whitespace, '');
  if (s === '') return '0';
  if (/^[+-]?Infinity$/.test(s)) return s[0] === '-' ? '-Infinity' : 'Infinity';
  if (/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(s)) return s;
  const radix = /^0[xX][0-9a-fA-F]+$|^0[oO][0-7]+$|^0[bB][01]+$/.test(s);
  if (radix) return BigInt(s).toString();
  return 'NaN';
}

// ToIntlMathematicalValue: the value as a decimal string the native side
// reads exactly (Numbers as their shortest round-trip digits).
function toDecimalString(value) {
  let v = value;
  if (typeof v === 'object' && v !== null) v = primitive(v);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'string') return decimalOfString(v);
  if (typeof v === 'symbol') throw new TypeError('Cannot convert a Symbol value to a number');
  const n = Number(v);
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'Infinity';
  if (n === -Infinity) return '-Infinity';
  if (Object.is(n, -0)) return '-0';
  return String(n);
}

function primitive(o) {
  const toPrimitive = o[Symbol.toPrimitive];
  if (toPrimitive !== undefined && toPrimitive !== null) {
    const r = toPrimitive.call(o, 'number');
    if (typeof r !== 'object' || r === null) return r;
    throw new TypeError('Cannot convert object to primitive value');
  }
  for (const name of ['valueOf', 'toString']) {
    const fn = o[name];
    if (typeof fn === 'function') {
      const r = fn.call(o);
      if (typeof r !== 'object' || r === null) return r;
    }
  }
  throw new TypeError('Cannot convert object to primitive value');
}

module.exports = { setDigitOptions, nativeDigitOptions, resolvedDigitOptions, toDecimalString };
