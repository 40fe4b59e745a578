// Generates the differential Intl cases (see run.mjs): for every Intl
// constructor, locales × option bags × inputs, from a seeded generator and
// from Node's own lists (time zones, their DST transitions, currencies,
// units, locales). Run with the Node.js being compared against.
//
//   node gen.mjs [--fast] > cases.json

const fast = process.argv.includes('--fast');

let seed = 0x5eed;
function rnd() {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (a) => a[Math.floor(rnd() * a.length)];
const maybe = (p) => rnd() < p;
// Every n-th item in fast mode (a spread-out subset).
const thin = (list, n) => (fast ? list.filter((_, i) => i % n === 0) : list);

const cases = [];
const add = (ctor, locale, options, calls) => cases.push({ ctor, locale, options, calls });

// ---------------------------------------------------------------- DateTimeFormat

const dtfLocales = ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES', 'it-IT', 'ja-JP', 'zh-CN', 'ko-KR', 'pt-BR', 'ru-RU', 'ar-EG', 'hi-IN',
  'th-TH', 'tr-TR', 'pl-PL', 'nl-NL', 'sv-SE', 'he-IL', 'fa-IR', 'zh-TW', 'en-IN', 'es-MX', 'fr-CA', 'uk-UA', 'vi-VN', 'id-ID', 'bn-BD'];
// Americas, Europe, Asia (half-hour and 45-minute offsets), the southern
// hemisphere, and zones whose rules changed (Moscow 2011/2014, Tehran 2022,
// Mexico 2022, Cairo 2023, Sao Paulo 2019, Samoa 2011, Lord Howe's 30-minute DST).
const zones = ['America/New_York', 'America/Los_Angeles', 'America/Chicago', 'America/Denver', 'America/Phoenix', 'America/St_Johns',
  'America/Halifax', 'America/Sao_Paulo', 'America/Santiago', 'America/Mexico_City', 'America/Argentina/Buenos_Aires', 'Europe/London',
  'Europe/Berlin', 'Europe/Paris', 'Europe/Moscow', 'Europe/Istanbul', 'Europe/Kyiv', 'Europe/Dublin', 'Asia/Tokyo', 'Asia/Shanghai',
  'Asia/Kolkata', 'Asia/Kathmandu', 'Asia/Tehran', 'Asia/Jerusalem', 'Asia/Dubai', 'Asia/Singapore', 'Asia/Calcutta', 'Australia/Sydney',
  'Australia/Adelaide', 'Australia/Lord_Howe', 'Australia/Perth', 'Pacific/Auckland', 'Pacific/Chatham', 'Pacific/Apia', 'Africa/Cairo',
  'Africa/Casablanca', 'Africa/Johannesburg', 'UTC', 'Etc/GMT+5', 'America/Indiana/Knox', 'US/Eastern', '+05:30', '-08:00'];

// The instants where a zone's offset changes in a year, found through Node.
const offsetFormats = new Map();
function offsetAt(zone, t) {
  if (!offsetFormats.has(zone)) offsetFormats.set(zone, new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }));
  return offsetFormats.get(zone).formatToParts(t).find((p) => p.type === 'timeZoneName').value;
}
function transitions(zone, year) {
  const out = [];
  const start = Date.UTC(year, 0, 1);
  const end = Date.UTC(year + 1, 0, 1);
  let prev = offsetAt(zone, start);
  for (let t = start + 3600e3; t <= end; t += 3600e3) {
    const cur = offsetAt(zone, t);
    if (cur !== prev) {
      let lo = t - 3600e3;
      let hi = t;
      while (hi - lo > 60e3) {
        const mid = lo + Math.floor((hi - lo) / 120e3) * 60e3;
        if (offsetAt(zone, mid) === prev) lo = mid;
        else hi = mid;
      }
      out.push(hi);
      prev = cur;
    }
  }
  return out;
}
// The hour before and after each transition (and its edges) in 2026 and a past year.
const zoneInstants = new Map();
for (const zone of zones) {
  const list = [Date.UTC(2026, 0, 15, 12, 0, 0, 123), Date.UTC(2026, 6, 4, 23, 59, 59, 999)];
  for (const year of [2026, 2011]) {
    for (const t of transitions(zone, year)) list.push(t - 3600e3, t - 1, t, t + 3600e3);
  }
  zoneInstants.set(zone, list);
}
const misc = [0, -1, 951782400000, -62135596800000, 253402300799000, -2208988800000, 1e12 + 0.5, 8.64e15, NaN];

const components = {
  weekday: ['narrow', 'short', 'long'], era: ['narrow', 'short', 'long'], year: ['2-digit', 'numeric'],
  month: ['2-digit', 'numeric', 'narrow', 'short', 'long'], day: ['2-digit', 'numeric'], dayPeriod: ['narrow', 'short', 'long'],
  hour: ['2-digit', 'numeric'], minute: ['2-digit', 'numeric'], second: ['2-digit', 'numeric'], fractionalSecondDigits: [1, 2, 3],
  timeZoneName: ['short', 'long', 'shortOffset', 'longOffset', 'shortGeneric', 'longGeneric'],
};
const typicalBags = [
  {}, { dateStyle: 'full' }, { dateStyle: 'long', timeStyle: 'long' }, { dateStyle: 'medium', timeStyle: 'medium' },
  { dateStyle: 'short', timeStyle: 'short' }, { timeStyle: 'full' }, { year: 'numeric', month: 'long', day: 'numeric' },
  { hour: 'numeric', minute: '2-digit' }, { hour: '2-digit', minute: '2-digit', hour12: false }, { hour: 'numeric', hour12: true },
  { hour: 'numeric', hourCycle: 'h11' }, { hour: 'numeric', minute: 'numeric', hourCycle: 'h24' }, { weekday: 'long', hour: 'numeric', timeZoneName: 'short' },
  { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'long' }, { timeZoneName: 'shortOffset' },
  { timeZoneName: 'longGeneric' }, { timeZoneName: 'shortGeneric', hour: 'numeric' }, { timeZoneName: 'longOffset', minute: 'numeric' },
  { era: 'long', year: 'numeric' }, { era: 'short', year: 'numeric', month: 'short', day: 'numeric' }, { dayPeriod: 'long', hour: 'numeric' },
  { dayPeriod: 'narrow' }, { hour: 'numeric', minute: 'numeric', second: 'numeric', fractionalSecondDigits: 3 },
  { year: '2-digit', month: '2-digit', day: '2-digit' }, { month: 'long' }, { weekday: 'short' }, { year: 'numeric', month: 'narrow' },
  { dateStyle: 'long', calendar: 'islamic' }, { dateStyle: 'medium', calendar: 'hebrew' }, { dateStyle: 'full', calendar: 'japanese' },
  { dateStyle: 'short', calendar: 'buddhist' }, { dateStyle: 'long', calendar: 'chinese' }, { dateStyle: 'medium', calendar: 'persian' },
  { dateStyle: 'medium', numberingSystem: 'arab' }, { timeStyle: 'short', numberingSystem: 'deva' }, { year: 'numeric', calendar: 'gregory' },
  { hour: 'numeric', minute: 'numeric', hour12: false, hourCycle: 'h12' }, { dateStyle: 'short', timeStyle: 'short', hour12: true },
];
function randomBag() {
  const bag = {};
  if (maybe(0.15)) {
    if (maybe(0.7)) bag.dateStyle = pick(['full', 'long', 'medium', 'short']);
    if (maybe(0.7)) bag.timeStyle = pick(['full', 'long', 'medium', 'short']);
  } else {
    for (const [name, values] of Object.entries(components)) if (maybe(0.3)) bag[name] = pick(values);
  }
  if (maybe(0.15)) bag.hour12 = maybe(0.5);
  else if (maybe(0.1)) bag.hourCycle = pick(['h11', 'h12', 'h23', 'h24']);
  return bag;
}
const bags = [...typicalBags, ...Array.from({ length: 60 }, randomBag)];

// Every zone in every locale with a few bags across its transitions.
for (const locale of thin(dtfLocales, 3)) {
  for (const zone of zones) {
    for (const bag of [{ dateStyle: 'medium', timeStyle: 'long' }, { hour: 'numeric', minute: '2-digit', timeZoneName: 'short' },
      { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: pick(components.timeZoneName) }]) {
      add('DateTimeFormat', locale, { ...bag, timeZone: zone }, zoneInstants.get(zone).map((t) => ['format', t]));
    }
  }
}
// Option bags × locales, each in a few zones; parts, resolvedOptions, ranges.
let z = 0;
for (const locale of thin(dtfLocales, 2)) {
  for (const bag of thin(bags, 3)) {
    for (let k = 0; k < 3; k++) {
      const zone = zones[z++ % zones.length];
      const ts = zoneInstants.get(zone);
      const calls = [['resolvedOptions'], ...ts.slice(0, 6).map((t) => ['formatToParts', t])];
      calls.push(['format', pick(misc)]);
      calls.push(['formatRange', ts[0], ts[1]], ['formatRange', ts[0], ts[0] + 3600e3 * 3], ['formatRange', ts[0], ts[0] + 86400e3 * 40]);
      calls.push(['formatRangeToParts', ts[0], ts[0] + 60e3 * 7]);
      add('DateTimeFormat', locale, { ...bag, timeZone: zone }, calls);
    }
  }
}
// Time zone names: canonicalization (case, links, offsets), invalid names.
const zoneNames = ['utc', 'Etc/UTC', 'GMT', 'etc/gmt+5', 'ETC/GMT-14', 'Asia/Calcutta', 'asia/kolkata', 'America/Buenos_Aires', 'Europe/Kiev',
  'US/Pacific', 'Canada/Newfoundland', 'Antarctica/South_Pole', 'EST', 'EST5EDT', 'Europe/Belfast', '+01', '+0130', '-13:59', '+24:00',
  'Mars/Olympus', 'America/Nuuk', 'America/Godthab', 'Pacific/Kanton', 'Asia/Rangoon', 'Africa/Asmera', 'Etc/GMT+13', 'Z', 'Factory'];
for (const name of zoneNames) add('DateTimeFormat', 'en-US', { timeZone: name, timeZoneName: 'long' }, [['resolvedOptions'], ['format', 1e12]]);
// Date.prototype.toLocale*String in every locale and zone.
for (const locale of dtfLocales) {
  for (const zone of thin(zones, 4)) {
    const t = zoneInstants.get(zone)[2] || 1e12;
    add('Date', locale, { timeZone: zone }, [['toLocaleString', t], ['toLocaleDateString', t], ['toLocaleTimeString', t]]);
  }
  add('Date', locale, undefined, [['toLocaleString', 1e12], ['toLocaleDateString', 1e12], ['toLocaleTimeString', 1e12]]);
}

// ---------------------------------------------------------------- NumberFormat

const nfLocales = ['en-US', 'en-GB', 'en-IN', 'de-DE', 'de-CH', 'fr-FR', 'fr-CH', 'es-ES', 'es-MX', 'it-IT', 'ja-JP', 'zh-CN', 'zh-TW', 'ko-KR',
  'pt-BR', 'pt-PT', 'ru-RU', 'ar-EG', 'ar-SA', 'ar-MA', 'hi-IN', 'th-TH', 'tr-TR', 'pl-PL', 'nl-NL', 'sv-SE', 'he-IL', 'fa-IR', 'bn-BD',
  'mr-IN', 'da-DK', 'fi-FI', 'nb-NO', 'cs-CZ', 'uk-UA', 'el-GR', 'id-ID', 'vi-VN', 'sw-KE', 'ro-RO', 'hu-HU', 'en', 'de', 'fr', 'es', 'ar', 'my-MM', 'ne-NP'];
const currencies = Intl.supportedValuesOf('currency');
const units = Intl.supportedValuesOf('unit');
function nfBag() {
  const o = {};
  const style = pick(['decimal', 'decimal', 'percent', 'currency', 'currency', 'unit', 'unit']);
  o.style = style;
  if (style === 'currency') {
    o.currency = maybe(0.7) ? pick(['USD', 'EUR', 'JPY', 'GBP', 'CHF', 'INR', 'BHD', 'KRW', 'BRL', 'CNY']) : pick(currencies);
    o.currencyDisplay = pick(['symbol', 'symbol', 'narrowSymbol', 'code', 'name']);
    o.currencySign = pick(['standard', 'standard', 'accounting']);
  }
  if (style === 'unit') {
    o.unit = maybe(0.3) ? `${pick(units)}-per-${pick(units)}` : pick(units);
    o.unitDisplay = pick(['short', 'long', 'narrow']);
  }
  const notation = pick(['standard', 'standard', 'standard', 'compact', 'scientific', 'engineering']);
  o.notation = notation;
  if (notation === 'compact') o.compactDisplay = pick(['short', 'long']);
  o.signDisplay = pick(['auto', 'auto', 'always', 'exceptZero', 'negative', 'never']);
  if (maybe(0.3)) o.useGrouping = pick(['always', 'min2', false, true, 'auto']);
  const r = rnd();
  if (r < 0.2) o.maximumFractionDigits = pick([0, 1, 2, 3]);
  else if (r < 0.3) o.minimumFractionDigits = pick([0, 2, 3]);
  else if (r < 0.4) o.maximumSignificantDigits = pick([1, 2, 3, 5]);
  else if (r < 0.45) o.minimumIntegerDigits = pick([2, 3, 5]);
  else if (r < 0.5) { o.roundingMode = pick(['ceil', 'floor', 'expand', 'trunc', 'halfCeil', 'halfFloor', 'halfTrunc', 'halfEven']); o.maximumFractionDigits = pick([0, 1]); }
  else if (r < 0.55) { o.roundingIncrement = pick([5, 10, 25, 50]); o.maximumFractionDigits = 2; o.minimumFractionDigits = 2; }
  else if (r < 0.6) { o.trailingZeroDisplay = 'stripIfInteger'; o.minimumFractionDigits = 2; }
  else if (r < 0.65) { o.roundingPriority = pick(['morePrecision', 'lessPrecision']); o.maximumSignificantDigits = 2; o.maximumFractionDigits = 1; }
  if (maybe(0.05)) o.numberingSystem = pick(['arab', 'deva', 'thai', 'hanidec', 'fullwide', 'beng']);
  return o;
}
const values = [0, -0, 1, -1, 1.5, 2, 0.005, 1234.5678, -1234.5678, 999999, 1000000, '12345678901234567890', 0.000123456, 1e21, -9.995,
  2.5, 3.5, 100, 15000, 0.25, NaN, Infinity, -Infinity, 999.95, 1.005, '1234.5000', '-0.0', '0x1F', ' 42 ', 'abc'];
const ranges = [[1, 5], [-5, 3], [-5, -3], [1, 1], [1.001, 1.002], [0, 0], [1000, 5000], [3, 1], [0.5, 1], [99999, 100001], [2, Infinity]];
for (const locale of nfLocales) {
  for (let i = 0; i < (fast ? 6 : 40); i++) {
    const bag = nfBag();
    const calls = [['resolvedOptions'], ...values.map((v) => ['format', v]), ...values.slice(0, 8).map((v) => ['formatToParts', v])];
    if (i % 2 === 0) calls.push(...ranges.map(([a, b]) => ['formatRangeToParts', a, b]));
    add('NumberFormat', locale, bag, calls);
  }
  add('Number', locale, undefined, [['toLocaleString', 1234567.891], ['toLocaleString', -0.5]]);
}
for (const bad of [{ style: 'currency' }, { currency: 'US' }, { style: 'unit' }, { style: 'unit', unit: 'furlong' }, { maximumFractionDigits: 101 },
  { minimumFractionDigits: 3, maximumFractionDigits: 1 }, { roundingIncrement: 3 }, { roundingIncrement: 5, maximumSignificantDigits: 2 },
  { notation: 'compact', compactDisplay: 'x' }, { useGrouping: 'x' }, { numberingSystem: '!!' }, { style: 'currency', currency: 'usd' }]) {
  add('NumberFormat', 'en-US', bad, [['resolvedOptions'], ['format', 12.5]]);
}

// ---------------------------------------------------------------- PluralRules, RelativeTimeFormat, ListFormat

const manyLocales = ['af', 'am', 'ar', 'az', 'be', 'bg', 'bn', 'br', 'bs', 'ca', 'cs', 'cy', 'da', 'de', 'el', 'en', 'es', 'et', 'eu', 'fa', 'fi', 'fil',
  'fr', 'ga', 'gd', 'gl', 'gu', 'he', 'hi', 'hr', 'hu', 'hy', 'id', 'is', 'it', 'ja', 'ka', 'kk', 'km', 'kn', 'ko', 'ky', 'lo', 'lt', 'lv', 'mk',
  'ml', 'mn', 'mr', 'ms', 'mt', 'my', 'nb', 'ne', 'nl', 'pa', 'pl', 'ps', 'pt', 'pt-PT', 'ro', 'ru', 'si', 'sk', 'sl', 'sq', 'sr', 'sr-Latn',
  'sv', 'sw', 'ta', 'te', 'th', 'tr', 'uk', 'ur', 'uz', 'vi', 'zh', 'zh-Hant', 'zu', 'en-GB', 'de-AT', 'es-419', 'fr-CA', 'xx', 'en-ZZ'];
const pluralValues = [0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 14, 19, 20, 21, 22, 25, 100, 101, 102, 111, 1000, 1000000, 0.5, 1.5, 2.25, 1.0, -1, -2, '1.0', 0.1, 1e21];
for (const locale of thin(manyLocales, 4)) {
  for (const type of ['cardinal', 'ordinal']) {
    for (const bag of [{}, { minimumFractionDigits: 1 }, { maximumSignificantDigits: 1 }]) {
      add('PluralRules', locale, { type, ...bag }, [['resolvedOptions'], ...pluralValues.map((v) => ['select', v]),
        ['selectRange', 1, 2], ['selectRange', 0, 1], ['selectRange', 2, 5], ['selectRange', 1, 1], ['selectRange', 0.5, 1.5]]);
    }
  }
}
const rtfUnits = ['second', 'minutes', 'hour', 'day', 'days', 'week', 'month', 'quarter', 'year', 'years', 'decade'];
const rtfValues = [-2, -1, -0, 0, 1, 2, 3, 1.5, -10, 100, 1234.5678, 1.004, Infinity];
for (const locale of thin(manyLocales, 3)) {
  for (const style of ['long', 'short', 'narrow']) {
    for (const numeric of ['always', 'auto']) {
      const calls = [['resolvedOptions']];
      for (const unit of rtfUnits) for (const v of rtfValues) if (maybe(0.25)) calls.push([maybe(0.8) ? 'format' : 'formatToParts', v, unit]);
      add('RelativeTimeFormat', locale, { style, numeric }, calls);
    }
  }
}
const listItems = [[], ['a'], ['Kyma', 'Shoal'], ['uno', 'dos', 'tres'], ['a', 'b', 'c', 'd', 'e'], ['agua', 'hielo'], ['siete', 'ocho'],
  ['plata', 'oro'], ['x', 'once'], ['אבא', 'אמא'], ['אבא', 'Mom'], ['1', '11'], ['b', 'Iglesia'], ['b', 'hierro'], ['b', 'hielo']];
for (const locale of thin([...manyLocales, 'es-ES', 'he-IL'], 2)) {
  for (const type of ['conjunction', 'disjunction', 'unit']) {
    for (const style of ['long', 'short', 'narrow']) {
      add('ListFormat', locale, { type, style }, [['resolvedOptions'], ...listItems.map((l) => ['format', l]), ['formatToParts', listItems[4]]]);
    }
  }
}

// ---------------------------------------------------------------- Collator

const words = ['a', 'A', 'á', 'Á', 'ä', 'b', 'z', 'Z', 'ö', 'o', 'ø', 'å', 'æ', 'ß', 'ss', 'ch', 'c', 'd', 'll', 'ñ', 'n', 'ç', 'ı', 'i', 'İ',
  'item 2', 'item 10', 'item-1', 'item_1', 'file10.txt', 'file9.txt', '', ' ', '-', '_', '1', '10', '9', '①', 'Ⅻ', 'é', 'e', 'E', 'ё', 'е', 'я',
  'ж', 'α', 'ά', 'あ', 'ア', 'か', 'が', '日本', '中国', '한국', 'ก', 'ข', 'ا', 'ب', 'א', 'ב', 'Æble', 'Ångström', 'Zürich', 'Zurich', 'résumé',
  'resume', 'Résumé', 'coop', 'co-op', 'co op', 'đ', 'ð', 'þ', 'ŋ', '😀', '🙂', 'a\u0301', 'cote', 'côte', 'coté', 'côté'];
const colLocales = ['en', 'de', 'de-u-co-phonebk', 'sv', 'fi', 'da', 'nb', 'es', 'es-u-co-trad', 'fr', 'fr-CA', 'tr', 'pl', 'cs', 'sk', 'hu', 'ja',
  'zh', 'zh-u-co-stroke', 'zh-TW', 'ko', 'th', 'ar', 'he', 'ru', 'uk', 'el', 'is', 'lt', 'vi', 'hr', 'ro', 'et', 'lv', 'ln'];
for (const locale of thin(colLocales, 2)) {
  for (const bag of [{}, { sensitivity: 'base' }, { sensitivity: 'accent' }, { sensitivity: 'case' }, { numeric: true }, { caseFirst: 'upper' },
    { caseFirst: 'lower' }, { ignorePunctuation: true }, { usage: 'search', sensitivity: 'base' }, { collation: 'phonebk' }]) {
    const calls = [['resolvedOptions'], ['sort', words]];
    for (let i = 0; i < 30; i++) calls.push(['compare', pick(words), pick(words)]);
    add('Collator', locale, bag, calls);
  }
}
add('String', 'de', undefined, [['localeCompare', 'ä', 'z'], ['localeCompare', 'a', 'B']]);
add('String', 'sv', undefined, [['localeCompare', 'ä', 'z']]);

// ---------------------------------------------------------------- DisplayNames, Segmenter, Locale, others

const dnCodes = {
  language: ['en', 'en-GB', 'en-US', 'de-AT', 'zh-Hans', 'zh-Hant-TW', 'sr-Latn-RS', 'pt-BR', 'fr-CA', 'es-419', 'iw', 'in', 'ja-Kana', 'und',
    'xx', 'en-1996', 'de-1901', 'sgn-be-fr', 'zh-min-nan', 'en-u-ca-gregory', 'EN-us', 'nan', 'yue', 'haw', 'ar-001', 'nl-BE', 'ro-MD', 'sw-CD'],
  region: ['US', 'DE', 'JP', 'GB', 'HK', 'MO', 'PS', '001', '150', '419', 'ZZ', 'XK', 'EU', 'UN', 'xk', 'us', 'AQ', 'CN', 'TW', 'A1', ''],
  script: ['Latn', 'Cyrl', 'Arab', 'Hans', 'Hant', 'Jpan', 'Kore', 'Zzzz', 'Qaaa', 'latn', 'Adlm', 'Zsye', ''],
  currency: ['USD', 'EUR', 'JPY', 'XXX', 'XYZ', 'usd', 'CHF', 'BTC', 'CNH', 'US'],
  calendar: ['gregory', 'buddhist', 'chinese', 'islamic-civil', 'japanese', 'ethioaa', 'roc', 'iso8601', 'islamicc', 'xx', 'gregorian'],
  dateTimeField: ['era', 'year', 'quarter', 'month', 'weekOfYear', 'weekday', 'day', 'dayPeriod', 'hour', 'minute', 'second', 'timeZoneName', 'week'],
};
for (const locale of thin(['en', 'en-GB', 'de', 'fr', 'es', 'it', 'ja', 'zh', 'zh-Hant', 'ko', 'ru', 'ar', 'hi', 'pt', 'nl', 'sv', 'pl', 'tr', 'he', 'th'], 2)) {
  for (const type of Object.keys(dnCodes)) {
    for (const style of ['long', 'short', 'narrow']) {
      for (const more of type === 'language' ? [{}, { languageDisplay: 'standard' }, { fallback: 'none' }] : [{}, { fallback: 'none' }]) {
        add('DisplayNames', locale, { type, style, ...more }, [['resolvedOptions'], ...dnCodes[type].map((c) => ['of', c])]);
      }
    }
  }
}
const texts = ['Hello, world! How are you? I\'m fine.', 'Mr. Smith went to Washington. He arrived at 3 p.m. today.', '今日は良い天気ですね。明日も晴れるでしょう。',
  '我们在北京学习中文。你呢？', 'ภาษาไทยไม่มีช่องว่างระหว่างคำ', 'ລາວ ພາສາ', '👨‍👩‍👧‍👦🇩🇪🏳️‍🌈 e\u0301 नमस्ते', 'Straße 12.5%, co-op; don\'t e-mail a@b.c',
  'Γειά σου κόσμε. Καλημέρα!', 'مرحبا بالعالم. كيف حالك؟', '한국어 문장입니다. 좋아요!', 'ខ្ញុំស្រលាញ់អ្នក', 'မြန်မာဘာသာ', '', '  ', 'a\r\nb\n\nc'];
for (const locale of ['en', 'ja', 'zh', 'th', 'de', 'ar']) {
  for (const granularity of ['grapheme', 'word', 'sentence']) {
    add('Segmenter', locale, { granularity }, [['resolvedOptions'], ...texts.map((t) => ['segment', t])]);
  }
}
const tags = ['en', 'en-US', 'EN-latn-us', 'zh-TW', 'zh-Hant-TW', 'sr-RS', 'sr-Latn', 'und', 'und-US', 'und-Arab', 'iw-IL', 'in', 'ja-JP-u-ca-japanese',
  'de-DE-u-co-phonebk-kn', 'en-u-hc-h23-nu-thai', 'es-419', 'pt', 'ar', 'hi-IN', 'th-TH-u-nu-thai', 'fa-IR', 'he', 'ko', 'ru-RU', 'en-GB-oxendict',
  'zh-cmn-Hans-CN', 'sgn-GR', 'art-lojban', 'mo', 'sh', 'cmn', 'no', 'tl', 'en-US-u-va-posix', 'de-1901', 'x-private', 'en-x-private', 'root',
  'en-u-ca-islamicc', 'en-u-tz-usnyc', 'en-t-ja', 'en-US-u-fw-mon'];
for (const tag of tags) {
  add('Locale', tag, undefined, [['self'], ['maximize'], ['minimize'], ['info', 'getCalendars'], ['info', 'getCollations'], ['info', 'getHourCycles'],
    ['info', 'getNumberingSystems'], ['info', 'getTimeZones'], ['info', 'getTextInfo'], ['info', 'getWeekInfo']]);
}
add('Locale', 'en', { region: 'gb', script: 'latn', calendar: 'buddhist', numeric: true, hourCycle: 'h23', caseFirst: 'upper' }, [['self']]);
add('Intl', 'und', undefined, [...tags.map((t) => ['getCanonicalLocales', t]), ['getCanonicalLocales', ['en-us', 'EN-US', 'de']]]);
add('Intl', 'und', undefined, ['calendar', 'collation', 'currency', 'numberingSystem', 'timeZone', 'unit', 'x'].map((k) => ['supportedValuesOf', k]));
for (const ctor of ['DateTimeFormat', 'NumberFormat', 'Collator', 'PluralRules', 'RelativeTimeFormat', 'ListFormat', 'Segmenter', 'DisplayNames']) {
  for (const locale of ['en', 'de-AT', 'de-XX', 'en-ZZ', 'xx', 'zh-TW', 'zh-Hant-HK', 'sr-Latn', 'es-419', 'pt-AO', 'ar-SA-u-nu-latn', 'ja-u-ca-japanese']) {
    add(ctor, locale, ctor === 'DisplayNames' ? { type: 'region' } : undefined, [['resolvedOptions']]);
  }
}

process.stdout.write(JSON.stringify(cases));
process.stderr.write(`${cases.length} cases, ${cases.reduce((n, c) => n + c.calls.length, 0)} calls\n`);
