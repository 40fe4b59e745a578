// Generates internal/intl-data.js from Node's own ICU: the CLDR names and
// patterns Shoal's Intl needs for en-US and de-DE, and the Unicode
// properties of Intl.Segmenter. Run with a full-ICU Node (20+), which takes
// a few minutes:  TZ=UTC node test/gen-intl-data.mjs > internal/intl-data.js
import fs from 'node:fs';

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

// Units (style: "unit"). ICU gives a unit its CLDR name: per width, "{0} km"
// ([one, other] when the plural forms differ). Shown as the number's
// suffix, except that "percent" (and "percent-per-X") in the short and
// narrow widths takes the locale's percent pattern ("{0}%", dropping any
// denominator) unless the notation is compact. "X-per-Y" is the
// denominator's "per" pattern ("{0}/h", "{0} per hour") around X's, unless
// CLDR names the compound itself (compound: "{0} mph"; null where the rule
// holds). Every unit and X-per-Y is checked against Node, with and without
// compact notation, before the data is written.
const unitWidths = ['short', 'long', 'narrow'];
const numberTypes = ['integer', 'group', 'decimal', 'fraction'];
function unitPattern(loc, unit, width, v, compact) {
  const parts = new Intl.NumberFormat(loc, { style: 'unit', unit, unitDisplay: width, notation: compact ? 'compact' : 'standard' }).formatToParts(v);
  let out = '';
  let number = false;
  for (const p of parts) {
    if (numberTypes.includes(p.type)) {
      if (!number) out += '{0}';
      number = true;
    } else {
      out += p.value;
    }
  }
  return out;
}
const onePair = (one, other) => (one === other ? one : [one, other]);
const pick = (entry, plural) => (typeof entry === 'string' ? entry : entry[plural === 'one' ? 0 : 1]);

function unitData(loc) {
  const units = Intl.supportedValuesOf('unit');
  const all = [...units];
  for (const n of units) for (const y of units) all.push(`${n}-per-${y}`);
  // actual[compact][unit][width] = [one, other]
  const actual = [false, true].map((compact) => Object.fromEntries(all.map((u) => [u,
    unitWidths.map((w) => [unitPattern(loc, u, w, 1, compact), unitPattern(loc, u, w, 2, compact)])])));
  const simple = {};
  for (const u of units) simple[u] = actual[1][u].map((pair) => onePair(...pair));
  const percent = actual[0].percent[0][1];
  // The denominator's pattern: what most numerators' "other" form sits in.
  const per = {};
  for (const y of units) {
    per[y] = unitWidths.map((w, wi) => {
      const counts = new Map();
      for (const n of units) {
        const num = pick(simple[n][wi], 'other');
        const whole = actual[1][`${n}-per-${y}`][wi][1];
        if (!whole.includes(num)) continue;
        const p = whole.replace(num, '{0}');
        counts.set(p, (counts.get(p) || 0) + 1);
      }
      return [...counts].sort((a, b) => b[1] - a[1])[0][0];
    });
  }
  const compound = {};
  // The same rule as unitPattern in intl.js.
  const model = (unit, wi, plural, compact) => {
    const i = unit.indexOf('-per-');
    const n = i < 0 ? unit : unit.slice(0, i);
    if (n === 'percent' && wi !== 1 && !compact) return percent;
    if (i < 0) return pick(simple[n][wi], plural);
    const own = compound[unit];
    if (own && own[wi] !== null) return pick(own[wi], plural);
    return per[unit.slice(i + 5)][wi].replace('{0}', pick(simple[n][wi], plural));
  };
  const differs = (unit, wi, compact) => ['one', 'other'].some((pl, k) => model(unit, wi, pl, compact) !== actual[compact ? 1 : 0][unit][wi][k]);
  for (const u of all) {
    if (!u.includes('-per-')) continue;
    const row = unitWidths.map((w, wi) => (differs(u, wi, true) ? onePair(...actual[1][u][wi]) : null));
    if (row.some((x) => x !== null)) compound[u] = row;
  }
  for (const u of all) for (let wi = 0; wi < 3; wi++) for (const compact of [false, true]) {
    if (differs(u, wi, compact)) throw new Error(`unit ${loc} ${u} ${unitWidths[wi]}${compact ? ' compact' : ''}: ${JSON.stringify(actual[compact ? 1 : 0][u][wi])}`);
  }
  // Each pattern has one number: intl.js splits it into the number, the
  // spaces next to it ("literal") and the rest ("unit").
  const patterns = JSON.stringify([simple, per, compound, percent]).match(/"[^"]*"/g).filter((p) => p.includes('{'));
  for (const p of patterns) if (p.split('{0}').length !== 2) throw new Error(`unit pattern ${p}`);
  return { simple, per, compound, percent };
}

// ---------------------------------------------------------------- DisplayNames

// Intl.DisplayNames: every code ICU names in en or de, found by asking
// Node about every well-formed code (all two- and three-letter languages,
// regions AA-ZZ and 000-999, scripts Aaaa-Zzzz, currencies AAA-ZZZ).
// Languages are kept when ICU names them in both locales. Names are
// stored in code order, joined by "|", with the short and narrow names
// that differ from the long one beside them.
const letters = (n) => {
  const out = [];
  const rec = (p, k) => {
    if (!k) { out.push(p); return; }
    for (let c = 97; c < 123; c++) rec(p + String.fromCharCode(c), k - 1);
  };
  rec('', n);
  return out;
};
const dnStyles = ['long', 'short', 'narrow'];
const dnCache = new Map();
const dnOf = (loc, type, style, code, extra) => {
  const key = `${loc}|${type}|${style}|${extra ? extra.languageDisplay : ''}`;
  let dn = dnCache.get(key);
  if (!dn) dnCache.set(key, dn = new Intl.DisplayNames(loc, { type, style, fallback: 'none', ...extra }));
  return dn.of(code);
};

// Variant subtags: ICU has no list of them, but their keys are in the ICU
// data built into Node; any 4-8 character key that ICU then names is one.
function variantCandidates() {
  const text = fs.readFileSync(process.execPath).toString('latin1');
  const set = new Set();
  for (const m of text.matchAll(/([A-Za-z0-9]{4,8})\0/g)) {
    const v = m[1].toLowerCase();
    if (/^(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3})$/.test(v)) set.add(v);
  }
  return [...set].sort();
}

const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

function displayNameData() {
  const codes = {};
  const alias = { language: {}, region: {}, script: {}, variant: {} };
  const named = (type, list, extra) => list.filter((c) => locales.some((loc) => dnStyles.some((style) => dnOf(loc, type, style, c, extra) !== undefined)));
  const canon = (tag) => { try { return Intl.getCanonicalLocales(tag)[0]; } catch { return null; } };

  const regionCodes = [...letters(2).map((c) => c.toUpperCase()), ...Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'))];
  codes.region = named('region', regionCodes);
  for (const r of regionCodes) {
    const c = canon(`und-${r}`);
    if (c && c !== `und-${r}`) alias.region[r] = c.slice(4);
  }
  const scriptCodes = letters(4).map((c) => c[0].toUpperCase() + c.slice(1));
  codes.script = named('script', scriptCodes);
  for (const s of scriptCodes) {
    const c = canon(`und-${s}`);
    if (c && c !== `und-${s}`) alias.script[s] = c.slice(4);
  }
  codes.currency = named('currency', letters(3).map((c) => c.toUpperCase()));
  const calendars = new Set(Intl.supportedValuesOf('calendar'));
  for (const v of variantCandidates()) calendars.add(v);
  for (const c of ['gregory', 'ethioaa', 'islamicc', 'islamic-civil', 'islamic-tbla', 'islamic-rgsa', 'islamic-umalqura', 'ethiopic-amete-alem']) calendars.add(c);
  codes.calendar = named('calendar', [...calendars].filter((c) => /^[a-z0-9]{3,8}(-[a-z0-9]{3,8})*$/.test(c)).sort());
  codes.dateTimeField = ['era', 'year', 'quarter', 'month', 'weekOfYear', 'weekday', 'day', 'dayPeriod', 'hour', 'minute', 'second', 'timeZoneName'];

  // Languages: the canonical two- and three-letter codes named in both locales.
  const langCodes = [];
  for (const l of [...letters(2), ...letters(3)]) {
    const c = canon(l);
    if (c !== l) {
      if (c) alias.language[l] = c;
      continue;
    }
    if (locales.every((loc) => dnOf(loc, 'language', 'long', l, { languageDisplay: 'standard' }) !== undefined)) langCodes.push(l);
  }
  codes.language = langCodes;
  // Variants: those ICU names ("en-1996" is more than "English"), and the
  // aliases canonicalization applies ("heploc" -> "alalc97", "aaland" -> AX).
  const variants = [];
  for (const v of variantCandidates()) {
    if (dnOf('en-US', 'language', 'long', `en-${v}`, { languageDisplay: 'standard' }) === undefined) continue;
    const c = canon(`en-${v}`);
    if (c === 'en') alias.variant[v] = '';
    else if (c && c !== `en-${v}` && /^en-(?:[A-Z]{2}|\d{3}|[a-z0-9]{4,8})$/.test(c)) alias.variant[v] = c.slice(3);
    // ("posix" becomes -u-va-posix, which ICU still names; "sara6g" is
    // read as the script "Sara" and something ICU drops: not a variant.)
    else if (c === `en-${v}` || c === `en-u-va-${v}`) variants.push(v);
  }
  codes.variant = variants;
  // Aliases of two variants together ("hepburn-heploc" -> "alalc97").
  const allVariants = [...variants, ...Object.keys(alias.variant)];
  const single = (v) => (hasOwn(alias.variant, v) ? alias.variant[v] : v);
  for (const a of allVariants) for (const b of allVariants) {
    if (a >= b) continue;
    const c = canon(`en-${a}-${b}`);
    const apart = [...new Set([single(a), single(b)])].filter((v) => v !== '').sort().join('-');
    if (c && /^en-[a-z0-9]{4,8}$/.test(c) && c.slice(3) !== apart) alias.variant[`${a}-${b}`] = c.slice(3);
  }
  // Grandfathered tags (RFC 5646), which ICU replaces whole: by the tag
  // getCanonicalLocales gives, else by the one Node names the same.
  const grandfathered = ['art-lojban', 'cel-gaulish', 'en-gb-oed', 'i-ami', 'i-bnn', 'i-default', 'i-enochian', 'i-hak', 'i-klingon', 'i-lux',
    'i-mingo', 'i-navajo', 'i-pwn', 'i-tao', 'i-tay', 'i-tsu', 'no-bok', 'no-nyn', 'sgn-be-fr', 'sgn-be-nl', 'sgn-ch-de', 'zh-guoyu', 'zh-hakka',
    'zh-min', 'zh-min-nan', 'zh-xiang'];
  alias.grandfathered = {};
  const dnCode = new Intl.DisplayNames('en-US', { type: 'language' });
  for (const g of grandfathered) {
    let r = canon(g);
    if (!r) {
      const name = dnCode.of(g);
      const candidates = ['und', ...langCodes, ...variants.map((v) => `en-GB-${v}`)];
      r = name === 'root' ? 'und' : /^[a-z]{2,3}$/.test(name) ? name : candidates.find((c) => dnCode.of(c) === name);
    }
    if (!r || locales.some((loc) => dnOf(loc, 'language', 'long', g) !== dnOf(loc, 'language', 'long', r))) throw new Error(`grandfathered ${g}`);
    alias.grandfathered[g] = r;
  }

  const out = { codes: {}, alias: {} };
  for (const [type, map] of Object.entries(alias)) out.alias[type] = Object.entries(map).map(([k, v]) => `${k}=${v}`).join(' ');
  for (const [type, list] of Object.entries(codes)) out.codes[type] = list.join(' ');
  for (const loc of locales) {
    const names = {};
    const table = (type, list, name) => {
      const long = list.map((c) => name(c, 'long') ?? '');
      const short = {};
      const narrow = {};
      list.forEach((c, i) => {
        const s = name(c, 'short') ?? '';
        const n = name(c, 'narrow') ?? '';
        if (s !== long[i]) short[c] = s;
        if (n !== s) narrow[c] = n;
      });
      for (const n of long) if (n.includes('|')) throw new Error(`"|" in ${type} name ${n}`);
      return [long.join('|'), short, narrow];
    };
    for (const type of ['region', 'script', 'currency', 'calendar', 'dateTimeField']) {
      names[type] = table(type, codes[type], (c, style) => dnOf(loc, type, style, c));
    }
    names.language = table('language', langCodes, (c, style) => dnOf(loc, 'language', style, c, { languageDisplay: 'standard' }));
    // Variant names: "de-1996" is "German (German orthography of 1996)".
    const variantName = (v, style) => {
      const whole = dnOf(loc, 'language', style, `en-${v}`, { languageDisplay: 'standard' });
      const en = dnOf(loc, 'language', style, 'en', { languageDisplay: 'standard' });
      if (whole === undefined) return undefined;
      if (!whole.startsWith(`${en} (`) || !whole.endsWith(')')) throw new Error(`variant ${v}: ${whole}`);
      return whole.slice(en.length + 2, -1).replace(/\[/g, '(').replace(/\]/g, ')');
    };
    names.variant = table('variant', variants, variantName);
    // Dialect names: "en-GB" is "British English", "zh-Hans" "Simplified
    // Chinese" (languageDisplay "dialect"). Found by comparing every
    // language with every region and script against the standard name;
    // ICU looks up language_script_region too, which CLDR does not use.
    const dialect = {};
    const std = (tag, style) => dnOf(loc, 'language', style, tag, { languageDisplay: 'standard' });
    for (const l of langCodes) {
      for (const sub of [...codes.region, ...codes.script]) {
        const tag = `${l}-${sub}`;
        if (canon(tag) !== tag) continue;
        const row = dnStyles.map((style) => {
          const d = dnOf(loc, 'language', style, tag);
          return d === std(tag, style) ? null : d;
        });
        if (row.every((x) => x === null)) continue;
        if (row[2] !== row[1]) throw new Error(`narrow dialect ${tag}`);
        // [long, short]; null where that style has no dialect name.
        dialect[`${l}_${sub}`] = row[0] === row[1] ? row[0] : [row[0], row[1]];
      }
    }
    names.dialect = dialect;
    // "{0} ({1})" and "{0}, {1}", read off a name with two qualifiers.
    const both = dnOf(loc, 'language', 'long', 'en-Latn-DE', { languageDisplay: 'standard' });
    const en = dnOf(loc, 'language', 'long', 'en', { languageDisplay: 'standard' });
    const latn = dnOf(loc, 'script', 'long', 'Latn');
    const de = dnOf(loc, 'region', 'long', 'DE');
    const pattern = both.replace(en, '{0}').replace(`${latn}`, '{1}').replace(de, '');
    names.patterns = [pattern.replace(/\{1\}.*(?=\)$)/, '{1}'), both.slice(both.indexOf(latn), both.indexOf(de) + de.length).replace(latn, '{0}').replace(de, '{1}')];
    out[loc] = names;
  }
  return out;
}

// ---------------------------------------------------------------- Segmenter

// Intl.Segmenter: the Unicode properties UAX #29 segments by, as ICU has
// them (Grapheme_Cluster_Break with Indic_Conjunct_Break and
// Extended_Pictographic; Word_Break; Sentence_Break), read off Node's own
// Intl.Segmenter. Every code point X is put in a few small contexts
// ("aXa", "1X1", "a. X", ...); the boundaries ICU finds there are X's
// signature, and X gets the class of the representative character with
// the same signature. Planes 4-13 and 15-16 (unassigned or private use)
// are checked on a sample and are "Other".
const segClasses = {
  grapheme: [['Other', 0x20], ['CR', 0x0D], ['LF', 0x0A], ['Control', 0x00], ['Extend', 0x301], ['ZWJ', 0x200D], ['RI', 0x1F1E6],
    ['Prepend', 0x600], ['SpacingMark', 0x903], ['L', 0x1100], ['V', 0x1160], ['T', 0x11A8], ['LV', 0xAC00], ['LVT', 0xAC01],
    ['ExtPict', 0xA9], ['Consonant', 0x915], ['Linker', 0x94D], ['ExtendOnly', 0x200C]],
  word: [['Other', 0x00], ['CR', 0x0D], ['LF', 0x0A], ['Newline', 0x0B], ['Extend', 0x301], ['ZWJ', 0x200D], ['RI', 0x1F1E6],
    ['Katakana', 0x30A2], ['Hebrew', 0x5D0], ['ALetter', 0x61], ['SQ', 0x27], ['DQ', 0x22], ['MidNumLet', 0x2E], ['MidLetter', 0x3A],
    ['MidNum', 0x2C], ['Numeric', 0x31], ['ENL', 0x5F], ['WSegSpace', 0x20], ['ExtPict', 0xA9], ['ALetterExtPict', 0x24C2],
    ['Hangul', 0xAC00], ['Ideographic', 0x4E2D], ['Hiragana', 0x3042], ['Han', 0x2E80]],
  sentence: [['Other', 0x00], ['CR', 0x0D], ['LF', 0x0A], ['Sep', 0x2029], ['Extend', 0x301], ['Sp', 0x20], ['Lower', 0x61],
    ['Upper', 0x41], ['OLetter', 0x5D0], ['Numeric', 0x31], ['ATerm', 0x2E], ['SContinue', 0x2C], ['STerm', 0x21], ['Close', 0x29]],
};
const segTemplates = {
  grapheme: ['\u0001', ['aXa', 'X\u0301', '\u{1F600}X\u{1F600}', '\u{1F600}X\u200D\u{1F600}', '\u{1F600}\u200DX', '\u{1F1E6}X\u{1F1E6}', 'XXX',
    '\u1100X', 'X\u1161', 'X\u11A8', '\u1161X', '\u11A8X', 'X\u1100', '\uAC00X', '\uAC01X', '\u0915\u094DX', '\u0915X\u0915', '\u0915X\u094D\u0915',
    '\rX', 'X\n', '\u0600X']],
  word: ['\u000B', ['X', 'aXa', '1X1', 'XX', '\u05D0X\u05D0', "X'", '\u30A2X', 'X\u30A2', 'X\u0301', '\u200DX', ' X', '\u{1F1E6}X', '\rX', 'X\n',
    '_X', 'X_', 'aX', 'Xa', '1X', 'X1', 'XXX', '\u05D0X', 'X.1', 'X.a', 'a.X', '1.X', 'X\u{1F600}', 'X\u2139']],
  sentence: ['\u2029', ['aX a', 'aX A', 'a.X A', 'a. XA', 'a. X', 'a. Xa', 'aX.B', 'a.X', 'a! Xa', 'a.XA', 'aXa', '\rX', 'X\n', 'a.X a', 'X. a']],
};

// For each code point, the boundaries (in code points; "w" marks a
// word-like segment) ICU finds in each context, joined.
function segSignatures(granularity, cps) {
  const [sep, list] = segTemplates[granularity];
  const seg = new Intl.Segmenter('en', { granularity });
  const sigs = cps.map(() => []);
  for (const template of list) {
    for (let b = 0; b < cps.length; b += 4096) {
      const starts = [];
      let s = '';
      for (let i = b; i < Math.min(cps.length, b + 4096); i++) {
        starts.push(s.length);
        s += template.split('X').join(String.fromCodePoint(cps[i])) + sep;
      }
      starts.push(s.length);
      const cpIndex = new Int32Array(s.length + 1);
      for (let k = 0, i = 0, n = 0; i <= s.length; i++) {
        if (i === starts[k + 1]) { k++; n = 0; }
        cpIndex[i] = n;
        const c = s.charCodeAt(i);
        if (!(c >= 0xDC00 && c < 0xE000 && i > 0 && s.charCodeAt(i - 1) >= 0xD800 && s.charCodeAt(i - 1) < 0xDC00)) n++;
      }
      let k = 0;
      const cur = [];
      for (const sg of seg.segment(s)) {
        while (sg.index >= starts[k + 1]) { sigs[b + k].push(cur.join(',')); cur.length = 0; k++; }
        cur.push(cpIndex[sg.index] + (sg.isWordLike ? 'w' : ''));
      }
      while (k < starts.length - 1) { sigs[b + k].push(cur.join(',')); cur.length = 0; k++; }
    }
  }
  return sigs.map((x) => x.join('|'));
}

// Runs of classes, each as the class and the run's length: one character
// of `segAlphabet` for the class, then the length in base 32 (digits
// 32-63 of the alphabet continue the number, 0-31 end it).
const segAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
function encodeRuns(classes) {
  let out = '';
  for (let i = 0; i < classes.length;) {
    let j = i;
    while (j < classes.length && classes[j] === classes[i]) j++;
    let n = j - i;
    const digits = [];
    do { digits.unshift(n & 31); n >>>= 5; } while (n);
    out += segAlphabet[classes[i]] + digits.map((d, k) => segAlphabet[k === digits.length - 1 ? d : d + 32]).join('');
    i = j;
  }
  return out;
}

function segmenterData() {
  const out = { classes: {} };
  const probed = [];
  for (let c = 0; c < 0x110000; c++) if (c < 0x40000 || (c >= 0xE0000 && c < 0xE1000)) probed.push(c);
  for (const [granularity, reps] of Object.entries(segClasses)) {
    const sigs = segSignatures(granularity, probed);
    const bySig = new Map();
    const repSigs = segSignatures(granularity, reps.map((r) => r[1]));
    repSigs.forEach((s, i) => {
      if (bySig.has(s)) throw new Error(`${granularity}: ${reps[i][0]} and ${reps[bySig.get(s)][0]} look alike`);
      bySig.set(s, i);
    });
    const classes = new Uint8Array(0x110000);
    const nearest = new Map();
    probed.forEach((c, i) => {
      let k = bySig.get(sigs[i]);
      if (k === undefined) {
        // ICU's dictionaries (CJK, Thai...) make the signatures of those
        // scripts vary: the nearest representative's class.
        const parts = sigs[i].split('|');
        let best = Infinity;
        repSigs.forEach((s, r) => {
          const d = s.split('|').filter((p, j) => p !== parts[j]).length;
          if (d < best) { best = d; k = r; }
        });
        nearest.set(reps[k][0], (nearest.get(reps[k][0]) || 0) + 1);
      }
      classes[c] = k;
    });
    // The planes not probed: a sample must be "Other".
    const sample = [];
    for (let c = 0x40000; c < 0x110000; c += 0x1001) if (c >= 0xE1000 || c < 0xE0000) sample.push(c);
    if (segSignatures(granularity, sample).some((s) => s !== repSigs[0])) throw new Error(`${granularity}: unprobed planes are not Other`);
    process.stderr.write(`segmenter ${granularity}: by nearest representative: ${JSON.stringify(Object.fromEntries(nearest))}\n`);
    out.classes[granularity] = reps.map((r) => r[0]).join(' ');
    out[granularity] = encodeRuns(classes);
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
    units: unitData(loc),
  };
}
const displayNames = displayNameData();
data.displayNames = { codes: displayNames.codes, alias: displayNames.alias };
for (const loc of locales) data[loc].displayNames = displayNames[loc];
data.segmenter = segmenterData();

console.log(`'use strict';
// CLDR data (via Node.js ${process.versions.node}, ICU ${process.versions.icu}, CLDR ${process.versions.cldr}) for Shoal's Intl:
// en-US and de-DE only. GENERATED by test/gen-intl-data.mjs - do not edit.
// Patterns use {token} fields in the style of CLDR's date symbols.
module.exports = ${JSON.stringify(data)};`);
