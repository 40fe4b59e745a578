// Generates internal/intl-data.js from Node's own ICU: the CLDR names and
// patterns Shoal's Intl needs for en-US and de-DE. Run with a full-ICU
// Node (20+):  TZ=UTC node test/gen-intl-data.mjs > internal/intl-data.js
const locales = ['en-US', 'de-DE'];
// Tue 2 Jan 2024 03:04:05.123: every field's width shows in its digits.
const date = new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 123));
const summer = new Date(Date.UTC(2024, 6, 2, 15, 4, 5));

const fmt = (loc, opts, d = date) => new Intl.DateTimeFormat(loc, { timeZone: 'UTC', ...opts }).formatToParts(d);

function names(loc) {
  const out = { months: {}, weekdays: {} };
  for (const width of ['long', 'short', 'narrow']) {
    const format = [];
    const standalone = [];
    for (let m = 0; m < 12; m++) {
      const d = new Date(Date.UTC(2024, m, 15));
      format.push(fmt(loc, { month: width, day: 'numeric' }, d).find((p) => p.type === 'month').value);
      standalone.push(fmt(loc, { month: width }, d).find((p) => p.type === 'month').value);
    }
    out.months[width] = format;
    out.months[`${width}Standalone`] = standalone;
    const wf = [];
    const ws = [];
    for (let w = 0; w < 7; w++) {
      const d = new Date(Date.UTC(2024, 0, 7 + w)); // 7 Jan 2024 is a Sunday
      wf.push(fmt(loc, { weekday: width, day: 'numeric', month: 'long' }, d).find((p) => p.type === 'weekday').value);
      ws.push(fmt(loc, { weekday: width }, d).find((p) => p.type === 'weekday').value);
    }
    out.weekdays[width] = wf;
    out.weekdays[`${width}Standalone`] = ws;
  }
  out.dayPeriods = [fmt(loc, { hour: 'numeric', hour12: true }, new Date(Date.UTC(2024, 0, 2, 3))).find((p) => p.type === 'dayPeriod').value,
    fmt(loc, { hour: 'numeric', hour12: true }, new Date(Date.UTC(2024, 0, 2, 15))).find((p) => p.type === 'dayPeriod').value];
  return out;
}

// Turns formatToParts output for `date` into a pattern of tokens.
function toPattern(loc, parts, n) {
  const twelve = parts.some((p) => p.type === 'dayPeriod');
  return parts.map((p) => {
    const v = p.value;
    switch (p.type) {
      case 'literal': return v.replace(/[{}]/g, (c) => `'${c}'`);
      case 'year': return v === '2024' ? '{y}' : '{yy}';
      case 'month':
        if (v === '1') return '{M}';
        if (v === '01') return '{MM}';
        if (v === n.months.long[0]) return v === n.months.longStandalone[0] ? '{MMMM}' : '{MMMM}';
        if (v === n.months.short[0]) return '{MMM}';
        if (v === n.months.shortStandalone[0]) return '{LLL}';
        if (v === n.months.narrow[0]) return '{MMMMM}';
        throw new Error(`month ${v}`);
      case 'day': return v === '2' ? '{d}' : '{dd}';
      case 'weekday':
        if (v === n.weekdays.long[2]) return '{EEEE}';
        if (v === n.weekdays.short[2]) return '{EEE}';
        if (v === n.weekdays.shortStandalone[2]) return '{ccc}';
        if (v === n.weekdays.narrow[2]) return '{EEEEE}';
        throw new Error(`weekday ${v}`);
      case 'hour':
        if (v === '3') return twelve ? '{h}' : '{H}';
        if (v === '03') return twelve ? '{hh}' : '{HH}';
        throw new Error(`hour ${v}`);
      case 'minute': return v === '4' ? '{m}' : '{mm}';
      case 'second': return v === '5' ? '{s}' : '{ss}';
      case 'fractionalSecond': return `{${'S'.repeat(v.length)}}`;
      case 'dayPeriod': return '{a}';
      case 'timeZoneName': return '{z}';
      case 'era': return '{G}';
      default: throw new Error(`part ${p.type}`);
    }
  }).join('');
}

const W = { '-': undefined, l: 'long', s: 'short', n: 'narrow' };
const Y = { '-': undefined, n: 'numeric', 2: '2-digit' };
const MO = { '-': undefined, n: 'numeric', 2: '2-digit', l: 'long', s: 'short', r: 'narrow' };
const D = { '-': undefined, n: 'numeric', 2: '2-digit' };
const H = { '-': undefined, n: 'numeric', 2: '2-digit' };
const HC = { d: undefined, 12: true, 24: false };

function datePatterns(loc, n) {
  const out = {};
  for (const [w, wv] of Object.entries(W)) for (const [y, yv] of Object.entries(Y)) for (const [m, mv] of Object.entries(MO)) for (const [d, dv] of Object.entries(D)) {
    const key = w + y + m + d;
    if (key === '----') continue;
    const o = {};
    if (wv) o.weekday = wv;
    if (yv) o.year = yv;
    if (mv) o.month = mv;
    if (dv) o.day = dv;
    out[key] = toPattern(loc, fmt(loc, o), n);
  }
  return out;
}

function timePatterns(loc, n) {
  const out = {};
  for (const [h, hv] of Object.entries(H)) for (const [mi, miv] of Object.entries(H)) for (const [s, sv] of Object.entries(H)) for (const [hc, hcv] of Object.entries(HC)) {
    const key = h + mi + s + hc;
    if (h + mi + s === '---') continue;
    if (hc !== 'd' && h === '-') continue;
    const o = {};
    if (hv) o.hour = hv;
    if (miv) o.minute = miv;
    if (sv) o.second = sv;
    if (hcv !== undefined) o.hour12 = hcv;
    out[key] = toPattern(loc, fmt(loc, o), n);
    out[`${key}z`] = toPattern(loc, fmt(loc, { ...o, timeZoneName: 'short' }), n);
  }
  return out;
}

function stylePatterns(loc, n) {
  const out = { date: {}, time: {}, glue: {} };
  for (const style of ['full', 'long', 'medium', 'short']) {
    out.date[style] = toPattern(loc, fmt(loc, { dateStyle: style }), n);
    out.time[style] = toPattern(loc, fmt(loc, { timeStyle: style }), n);
    // The joiner between a date and a time of this length.
    const both = toPattern(loc, fmt(loc, { dateStyle: style, timeStyle: 'short' }), n);
    const d = out.date[style];
    const t = toPattern(loc, fmt(loc, { timeStyle: 'short' }), n);
    if (!both.startsWith(d) || !both.endsWith(t)) throw new Error(`glue ${loc} ${style}`);
    out.glue[style] = both.slice(d.length, both.length - t.length);
  }
  return out;
}

function timeZoneNames(loc) {
  const out = {};
  for (const tz of ['UTC', 'Europe/Berlin']) {
    for (const style of ['short', 'long', 'shortOffset', 'longOffset', 'shortGeneric', 'longGeneric']) {
      for (const [season, d] of [['winter', date], ['summer', summer]]) {
        const v = new Intl.DateTimeFormat(loc, { timeZone: tz, timeZoneName: style }).formatToParts(d).find((p) => p.type === 'timeZoneName').value;
        out[`${tz}|${style}|${season}`] = v;
      }
    }
  }
  return out;
}

const currencies = ['USD', 'EUR', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'CNY', 'INR', 'KRW', 'BRL', 'MXN', 'SEK', 'NOK', 'DKK',
  'PLN', 'CZK', 'HUF', 'RUB', 'TRY', 'ZAR', 'NZD', 'SGD', 'HKD', 'ILS', 'AED', 'SAR', 'THB', 'BHD', 'KWD', 'ISK', 'CLP', 'UAH', 'RON'];

function currencyData(loc) {
  const out = {};
  for (const c of currencies) {
    const part = (display, v = 1) => new Intl.NumberFormat(loc, { style: 'currency', currency: c, currencyDisplay: display,
      minimumFractionDigits: 0, maximumFractionDigits: 0 }).formatToParts(v).find((p) => p.type === 'currency').value;
    const digits = new Intl.NumberFormat('en', { style: 'currency', currency: c }).resolvedOptions().maximumFractionDigits;
    out[c] = [part('symbol'), part('narrowSymbol'), part('name', 1), part('name', 2), digits];
  }
  return out;
}

// Compact notation: for each power of ten, the short and long pattern of
// the "one" and "other" plural forms (0 = no abbreviation).
function compactData(loc) {
  const out = { short: [], long: [] };
  for (const display of ['short', 'long']) {
    for (let exp = 3; exp <= 14; exp++) {
      const one = new Intl.NumberFormat(loc, { notation: 'compact', compactDisplay: display }).formatToParts(10 ** exp);
      const other = new Intl.NumberFormat(loc, { notation: 'compact', compactDisplay: display }).formatToParts(2 * 10 ** exp);
      const pat = (parts) => {
        if (!parts.some((p) => p.type === 'compact')) return null;
        return parts.map((p) => (p.type === 'integer' ? '0' : p.value)).join('');
      };
      const intDigits = (parts) => parts.filter((p) => p.type === 'integer').map((p) => p.value).join('').length;
      out[display].push([pat(one), pat(other), intDigits(one)]);
    }
  }
  return out;
}

const units = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'];
function relativeData(loc) {
  const out = {};
  for (const style of ['long', 'short', 'narrow']) {
    const always = new Intl.RelativeTimeFormat(loc, { style, numeric: 'always' });
    const auto = new Intl.RelativeTimeFormat(loc, { style, numeric: 'auto' });
    out[style] = {};
    for (const unit of units) {
      const pat = (v) => always.formatToParts(v, unit).map((p) => (p.type === 'integer' ? '{0}' : p.value)).join('').replace(/\{0\}(\{0\})+/g, '{0}');
      const special = {};
      for (const v of [-2, -1, 0, 1, 2]) {
        const s = auto.format(v, unit);
        if (!/\d/.test(s)) special[v] = s;
      }
      out[style][unit] = { future: [pat(1), pat(2)], past: [pat(-1), pat(-2)], auto: special };
    }
  }
  return out;
}

function listData(loc) {
  const out = {};
  for (const type of ['conjunction', 'disjunction', 'unit']) {
    for (const style of ['long', 'short', 'narrow']) {
      const lf = new Intl.ListFormat(loc, { type, style });
      const two = lf.format(['{0}', '{1}']);
      const four = lf.format(['{0}', '{1}', '{2}', '{3}']);
      // "{0}, {1}, {2}, and {3}": start = between 0 and 1, middle = 1..2, end = 2..3.
      const between = (s, a, b) => s.slice(s.indexOf(a) + a.length, s.indexOf(b));
      out[`${type}-${style}`] = [between(two, '{0}', '{1}'), between(four, '{0}', '{1}'), between(four, '{1}', '{2}'), between(four, '{2}', '{3}')];
    }
  }
  return out;
}

const data = {};
for (const loc of locales) {
  const n = names(loc);
  data[loc] = {
    ...n,
    datePatterns: datePatterns(loc, n),
    timePatterns: timePatterns(loc, n),
    styles: stylePatterns(loc, n),
    timeZoneNames: timeZoneNames(loc),
    currencies: currencyData(loc),
    compact: compactData(loc),
    relative: relativeData(loc),
    lists: listData(loc),
  };
}

console.log(`'use strict';
// CLDR data (via Node.js ${process.versions.node}, ICU ${process.versions.icu}, CLDR ${process.versions.cldr}) for Shoal's Intl:
// en-US and de-DE only. GENERATED by test/gen-intl-data.mjs - do not edit.
// Patterns use {token} fields in the style of CLDR's date symbols.
module.exports = ${JSON.stringify(data)};`);
