'use strict';
// Intl.Locale: tags are canonicalized natively (UTS #35 with CLDR's
// aliases), likely subtags come from ICU4X's CLDR data, and the locale
// information (calendars, collations, hour cycles, numbering systems,
// time zones, text direction, week) from Node's CLDR data.

const { intlNative } = require('./native');
const { unwrap, toOptionsObject, defineMethods, setToStringTag } = require('./options');
const { localeObjects, canonicalizeTag, resolveLocale, typeRe } = require('./locales');

const slots = new WeakMap();
const incorrect = () => new RangeError('Incorrect locale information provided');

// A canonical tag's parts: base (language-script-region-variants), the -u-
// keywords (in order), and the rest of the extensions.
function splitTag(tag) {
  const parts = tag.split('-');
  let i = 1;
  while (i < parts.length && parts[i].length > 1) i++;
  const base = parts.slice(0, i).join('-');
  const keywords = new Map();
  const attributes = [];
  const rest = [];
  while (i < parts.length) {
    const singleton = parts[i++];
    const body = [];
    while (i < parts.length && (parts[i].length > 1 || singleton === 'x')) body.push(parts[i++]);
    if (singleton === 'u') {
      let k = 0;
      while (k < body.length && body[k].length > 2) attributes.push(body[k++]);
      while (k < body.length) {
        const key = body[k++];
        const value = [];
        while (k < body.length && body[k].length > 2) value.push(body[k++]);
        keywords.set(key, value.join('-'));
      }
    } else {
      rest.push([singleton, ...body].join('-'));
    }
  }
  return { base, keywords, attributes, rest };
}

function joinTag({ base, keywords, attributes, rest }) {
  let tag = base;
  const others = rest.filter((r) => !r.startsWith('x-'));
  const privateUse = rest.filter((r) => r.startsWith('x-'));
  const ordered = [...others];
  if (keywords.size || attributes.length) {
    const u = ['u', ...attributes];
    for (const [k, v] of [...keywords].sort((a, b) => (a[0] < b[0] ? -1 : 1))) u.push(v === '' ? k : `${k}-${v}`);
    ordered.push(u.join('-'));
  }
  ordered.sort();
  for (const e of ordered) tag += `-${e}`;
  for (const p of privateUse) tag += `-${p}`;
  return tag;
}

const weekdays = { 0: 'sun', 1: 'mon', 2: 'tue', 3: 'wed', 4: 'thu', 5: 'fri', 6: 'sat', 7: 'sun' };

function Locale(tag, options) {
  if (new.target === undefined) throw new TypeError("Constructor Intl.Locale requires 'new'");
  if (typeof tag !== 'string' && (typeof tag !== 'object' || tag === null)) {
    throw new TypeError("First argument to Intl.Locale constructor can't be empty or missing");
  }
  let str = localeObjects.has(tag) ? localeObjects.get(tag) : String(tag);
  if (str === '') throw new RangeError("First argument to Intl.Locale constructor can't be empty or missing");
  const opts = toOptionsObject(options, 'Intl.Locale');
  str = canonicalizeTag(str);
  const parts = splitTag(str);
  const base = parts.base.split('-');
  const readSubtag = (name, re) => {
    const v = opts[name];
    if (v === undefined) return undefined;
    const s = String(v);
    if (!re.test(s)) throw incorrect();
    return s;
  };
  const language = readSubtag('language', /^(?:[A-Za-z]{2,3}|[A-Za-z]{5,8})$/);
  const script = readSubtag('script', /^[A-Za-z]{4}$/);
  const region = readSubtag('region', /^(?:[A-Za-z]{2}|\d{3})$/);
  if (language !== undefined || script !== undefined || region !== undefined) {
    let i = 1;
    const oldScript = i < base.length && /^[A-Za-z]{4}$/.test(base[i]) ? base[i++] : undefined;
    const oldRegion = i < base.length && /^(?:[A-Za-z]{2}|\d{3})$/.test(base[i]) ? base[i++] : undefined;
    const variants = base.slice(i);
    const newBase = [language !== undefined ? language : base[0]];
    const s = script !== undefined ? script : oldScript;
    const r = region !== undefined ? region : oldRegion;
    if (s !== undefined) newBase.push(s);
    if (r !== undefined) newBase.push(r);
    parts.base = [...newBase, ...variants].join('-');
  }
  const keyword = (key, name, check) => {
    const v = opts[name];
    if (v === undefined) return;
    const s = check(v);
    parts.keywords.set(key, s);
  };
  const typeValue = (v) => {
    const s = String(v);
    if (!typeRe.test(s)) throw incorrect();
    return s.toLowerCase();
  };
  const oneOf = (values) => (v) => {
    const s = String(v);
    if (!values.includes(s)) throw new RangeError(`Value ${s} out of range for Intl.Locale options property ${Object.keys(opts).find((k) => opts[k] === v)}`);
    return s;
  };
  keyword('ca', 'calendar', typeValue);
  keyword('co', 'collation', typeValue);
  keyword('fw', 'firstDayOfWeek', (v) => {
    const s = String(v);
    if (Object.prototype.hasOwnProperty.call(weekdays, s)) return weekdays[s];
    return typeValue(s);
  });
  keyword('hc', 'hourCycle', oneOf(['h11', 'h12', 'h23', 'h24']));
  keyword('kf', 'caseFirst', oneOf(['upper', 'lower', 'false']));
  if (opts.numeric !== undefined) parts.keywords.set('kn', String(Boolean(opts.numeric)));
  keyword('nu', 'numberingSystem', typeValue);
  const canonical = canonicalizeTag(joinTag(parts));
  const proto = typeof new.target.prototype === 'object' && new.target.prototype !== null ? new.target.prototype : Locale.prototype;
  const loc = Object.create(proto);
  slots.set(loc, { tag: canonical, parts: splitTag(canonical) });
  localeObjects.set(loc, canonical);
  return loc;
}

function baseParts(s) {
  const base = s.parts.base.split('-');
  let i = 1;
  const script = i < base.length && /^[A-Z][a-z]{3}$/.test(base[i]) ? base[i++] : undefined;
  const region = i < base.length && /^(?:[A-Z]{2}|\d{3})$/.test(base[i]) ? base[i++] : undefined;
  return { language: base[0], script, region };
}

function keywordOf(s, key) {
  return s.parts.keywords.get(key);
}

// The locale's region, else its likely region.
function likelyRegion(s) {
  const own = baseParts(s).region;
  if (own !== undefined) return own;
  const max = intlNative().localeOp('maximize', s.parts.base);
  const m = max && /-([A-Z]{2}|\d{3})(?:-|$)/.exec(max);
  return m ? m[1] : '001';
}

// Scripts written right to left (ICU's uloc_isRightToLeft).
const rtlScripts = ['Adlm', 'Arab', 'Armi', 'Avst', 'Chrs', 'Cprt', 'Elym', 'Hatr', 'Hebr', 'Hung', 'Khar', 'Lydi', 'Mand', 'Mani',
  'Mend', 'Merc', 'Mero', 'Narb', 'Nbat', 'Nkoo', 'Orkh', 'Ougr', 'Palm', 'Phli', 'Phlp', 'Phnx', 'Prti', 'Rohg', 'Samr', 'Sarb',
  'Sogd', 'Sogo', 'Syrc', 'Thaa', 'Todr', 'Yezi'];

const icuCalendarNames = { gregorian: 'gregory', 'ethiopic-amete-alem': 'ethioaa' };

const info = {
  getCalendars(s) {
    const ca = keywordOf(s, 'ca');
    if (ca !== undefined) return [ca];
    const data = JSON.parse(intlNative().bundleData('supplementalData', 'calendarPreferenceData'));
    const list = data[likelyRegion(s)] || data['001'] || ['gregorian'];
    return list.map((c) => icuCalendarNames[c] || c);
  },
  getCollations(s) {
    const co = keywordOf(s, 'co');
    if (co !== undefined) return [co];
    const table = JSON.parse(intlNative().bundleData('shoal', 'collations'));
    let tag = s.parts.base;
    for (;;) {
      if (table[tag]) return table[tag].filter((c) => c !== 'standard' && c !== 'search').sort();
      const i = tag.lastIndexOf('-');
      if (i < 0) return ['emoji', 'eor'];
      tag = tag.slice(0, i);
    }
  },
  getHourCycles(s) {
    const hc = keywordOf(s, 'hc');
    if (hc !== undefined) return [hc];
    const r = JSON.parse(intlNative().dateTimeFormat(JSON.stringify({ locales: [s.parts.base], hour: 'numeric', required: 'any', defaults: 'date', defaultTimeZone: 'UTC' })));
    return [r.hourCycle];
  },
  getNumberingSystems(s) {
    const nu = keywordOf(s, 'nu');
    if (nu !== undefined) return [nu];
    return [resolveLocale('NumberFormat', [s.parts.base], ['nu'], {}).numberingSystem];
  },
  getTimeZones(s) {
    const { region } = baseParts(s);
    if (region === undefined) return undefined;
    const zones = JSON.parse(intlNative().bundleData('shoal', 'tz/zones'));
    return Object.keys(zones).filter((id) => zones[id][0] === region).sort();
  },
  getTextInfo(s) {
    let { script } = baseParts(s);
    if (script === undefined) {
      const max = intlNative().localeOp('maximize', s.parts.base);
      const m = max && /-([A-Z][a-z]{3})(?:-|$)/.exec(max);
      script = m ? m[1] : 'Latn';
    }
    return { direction: rtlScripts.includes(script) ? 'rtl' : 'ltr' };
  },
  getWeekInfo(s) {
    const data = JSON.parse(intlNative().bundleData('supplementalData', 'weekData'));
    const week = data[likelyRegion(s)] || data['001'];
    // ICU numbers days from Sunday = 1; ECMA-402 from Monday = 1.
    const fromIcu = (d) => (d === 1 ? 7 : d - 1);
    const fw = keywordOf(s, 'fw');
    const fwDays = { mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6, sun: 7 };
    const firstDay = fw !== undefined && fwDays[fw] ? fwDays[fw] : fromIcu(week[0]);
    const weekend = [];
    for (let d = week[2]; ; d = (d % 7) + 1) {
      weekend.push(fromIcu(d));
      if (d === week[4] || weekend.length >= 7) break;
    }
    return { firstDay, weekend: weekend.sort((a, b) => a - b) };
  },
};

const methods = {
  toString() {
    return unwrap(slots, this, 'Intl.Locale.prototype.toString').tag;
  },
  maximize() {
    const s = unwrap(slots, this, 'Intl.Locale.prototype.maximize');
    return new Locale(intlNative().localeOp('maximize', s.tag) || s.tag);
  },
  minimize() {
    const s = unwrap(slots, this, 'Intl.Locale.prototype.minimize');
    return new Locale(intlNative().localeOp('minimize', s.tag) || s.tag);
  },
  get baseName() { return unwrap(slots, this, 'Intl.Locale.prototype.baseName').parts.base; },
  get calendar() { return keywordOf(unwrap(slots, this, 'Intl.Locale.prototype.calendar'), 'ca'); },
  get caseFirst() { return keywordOf(unwrap(slots, this, 'Intl.Locale.prototype.caseFirst'), 'kf'); },
  get collation() { return keywordOf(unwrap(slots, this, 'Intl.Locale.prototype.collation'), 'co'); },
  get firstDayOfWeek() { return keywordOf(unwrap(slots, this, 'Intl.Locale.prototype.firstDayOfWeek'), 'fw'); },
  get hourCycle() { return keywordOf(unwrap(slots, this, 'Intl.Locale.prototype.hourCycle'), 'hc'); },
  get numeric() {
    const kn = keywordOf(unwrap(slots, this, 'Intl.Locale.prototype.numeric'), 'kn');
    return kn === '' || kn === 'true';
  },
  get numberingSystem() { return keywordOf(unwrap(slots, this, 'Intl.Locale.prototype.numberingSystem'), 'nu'); },
  get language() { return baseParts(unwrap(slots, this, 'Intl.Locale.prototype.language')).language; },
  get script() { return baseParts(unwrap(slots, this, 'Intl.Locale.prototype.script')).script; },
  get region() { return baseParts(unwrap(slots, this, 'Intl.Locale.prototype.region')).region; },
};
// Each piece of locale information as a method (getWeekInfo()) and, as V8
// still has them, as a getter (weekInfo).
for (const name of Object.keys(info)) {
  const getter = name[3].toLowerCase() + name.slice(4);
  Object.defineProperty(methods, getter, {
    get() { return info[name](unwrap(slots, this, `Intl.Locale.prototype.${getter}`)); },
    enumerable: true,
    configurable: true,
  });
  methods[name] = function () { return info[name](unwrap(slots, this, `Intl.Locale.prototype.${name}`)); };
}
defineMethods(Locale.prototype, methods);
setToStringTag(Locale.prototype, 'Intl.Locale');
Object.defineProperty(Locale, 'length', { value: 1 });

module.exports = { Locale };
