'use strict';
// Intl.DisplayNames as V8 does it with ICU's LocaleDisplayNames: codes are
// checked and canonicalized here (with ICU's aliases, from Node), and the
// names come from the locale's CLDR data (native lookups with ICU's
// fallback).

const { intlNative } = require('./native');
const { unwrap, getOptionsObject, getStringOption, defineMethods, setToStringTag } = require('./options');
const { canonicalizeLocaleList, supportedLocalesOf, resolveLocale } = require('./locales');

const SERVICE = 'Intl.DisplayNames';
const slots = new WeakMap();
const types = ['language', 'region', 'script', 'currency', 'calendar', 'dateTimeField'];
// dateTimeField codes and the CLDR field each names.
const fieldKeys = {
  era: 'era', year: 'year', quarter: 'quarter', month: 'month', weekOfYear: 'week', weekday: 'weekday',
  day: 'day', dayPeriod: 'dayperiod', hour: 'hour', minute: 'minute', second: 'second', timeZoneName: 'zone',
};

let aliasTables;
function aliases() {
  if (!aliasTables) {
    const raw = JSON.parse(intlNative().bundleData('shoal', 'aliases'));
    aliasTables = {};
    for (const kind of Object.keys(raw)) aliasTables[kind] = new Map(Object.entries(raw[kind]));
  }
  return aliasTables;
}

const invalid = () => new RangeError('invalid_argument');

// A language tag as V8 and ICU read it for display: a unicode_language_id
// (no extensions), canonicalized: extlang replaces the language, aliases
// are replaced ("iw" -> "he", "DD" -> "DE", "heploc" -> "alalc97"),
// variants sorted.
function parseLanguage(code) {
  const out = { language: 'und', script: undefined, region: undefined, variants: [] };
  if (code === '') return out;
  const table = aliases();
  let lower = code.toLowerCase();
  for (const [tag, replacement] of table.grandfathered) {
    if (lower === tag) {
      lower = replacement.toLowerCase();
      break;
    }
  }
  const parts = lower.split('-');
  const n = parts.length;
  let i = 0;
  if (!/^[a-z]{2,3}$|^[a-z]{5,8}$/.test(parts[0])) throw invalid();
  out.language = parts[i++];
  if (i < n && /^[a-z]{4}$/.test(parts[i])) {
    out.script = parts[i][0].toUpperCase() + parts[i].slice(1);
    i++;
  }
  if (i < n && /^(?:[a-z]{2}|\d{3})$/.test(parts[i])) out.region = parts[i++].toUpperCase();
  while (i < n && /^(?:[a-z0-9]{5,8}|\d[a-z0-9]{3})$/.test(parts[i])) {
    if (out.variants.includes(parts[i])) throw invalid();
    out.variants.push(parts[i++]);
  }
  if (i !== n) throw invalid();
  const lang = table.language.get(out.language);
  if (lang !== undefined) {
    const [l, ...rest] = lang.split('-');
    out.language = l;
    for (const p of rest) {
      if (p.length === 4 && out.script === undefined) out.script = p;
      else if (p.length !== 4 && out.region === undefined) out.region = p;
    }
  }
  if (out.script !== undefined && table.script.has(out.script)) out.script = table.script.get(out.script);
  if (out.region !== undefined && table.region.has(out.region)) out.region = table.region.get(out.region);
  for (const [key, a] of table.variant) {
    // Aliases of two variants together ("hepburn-heploc" -> "alalc97").
    const pair = key.split('-');
    if (pair.length === 2 && pair.every((v) => out.variants.includes(v))) out.variants = [...out.variants.filter((v) => !pair.includes(v)), a];
  }
  const variants = [];
  for (const v of out.variants) {
    const a = table.variant.get(v);
    if (a === undefined) variants.push(v);
    else if (/^(?:[A-Z]{2}|\d{3})$/.test(a)) out.region = out.region === undefined ? a : out.region;
    else if (a !== '') variants.push(a);
  }
  out.variants = [...new Set(variants)].sort();
  return out;
}

function lookup(tree, s, table, key) {
  const v = intlNative().lookup(tree, s.dataLocale, `${table}/${key}`);
  return v === undefined || v === null || v === '' ? undefined : v;
}

// LocaleDisplayNames' lookups: the short width first where there is one.
function named(tree, s, table, key) {
  if (s.style !== 'long') {
    const short = lookup(tree, s, `${table}%short`, key);
    if (short !== undefined) return short;
  }
  return lookup(tree, s, table, key);
}

// ICU's LocaleDisplayNames: the language (or, for languageDisplay
// "dialect", a name CLDR gives the language with its script or its region:
// "British English"), then the script, region and variants in parentheses.
function languageName(s, code) {
  const t = parseLanguage(code);
  const useCode = s.fallback === 'code';
  let hasScript = t.script !== undefined;
  let hasRegion = t.region !== undefined;
  let name;
  if (s.languageDisplay === 'dialect' && hasScript !== hasRegion) {
    name = named('lang', s, 'Languages', `${t.language}_${hasScript ? t.script : t.region}`);
    if (name !== undefined) {
      if (hasScript) hasScript = false;
      else hasRegion = false;
    }
  }
  if (name === undefined && t.language !== 'und') name = named('lang', s, 'Languages', t.language);
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
  if (hasScript && !add(named('lang', s, 'Scripts', t.script), t.script)) return undefined;
  if (hasRegion && !add(named('region', s, 'Countries', t.region), t.region)) return undefined;
  if (t.variants.length) {
    const v = t.variants.length === 1 ? lookup('lang', s, 'Variants', t.variants[0].toUpperCase()) : undefined;
    if (!add(v, t.variants.join('_').toUpperCase())) return undefined;
  }
  if (!qualifiers.length) return name;
  const pattern = lookup('lang', s, 'localeDisplayPattern', 'pattern') || '{0} ({1})';
  const separator = lookup('lang', s, 'localeDisplayPattern', 'separator') || '{0}, {1}';
  let rest = qualifiers[0];
  for (let k = 1; k < qualifiers.length; k++) rest = separator.replace('{0}', rest).replace('{1}', qualifiers[k]);
  rest = rest.replace(/\(/g, '[').replace(/\)/g, ']');
  return pattern.replace('{0}', name).replace('{1}', rest);
}

function displayName(s, code) {
  const orCode = (name) => (name !== undefined ? name : s.fallback === 'code' ? code : undefined);
  switch (s.type) {
    case 'language':
      return languageName(s, code);
    case 'region':
      // (V8 lets an empty region or script through, and looks codes up as given.)
      if (!/^(?:[A-Za-z]{2}|\d{3}|)$/.test(code)) throw invalid();
      return orCode(code === '' ? undefined : named('region', s, 'Countries', code));
    case 'script':
      if (!/^(?:[A-Za-z]{4}|)$/.test(code)) throw invalid();
      return orCode(code === '' ? undefined : named('lang', s, 'Scripts', code));
    case 'currency': {
      if (!/^[A-Za-z]{3}$/.test(code)) throw invalid();
      // (V8 asks for the long name in every style.)
      const entry = intlNative().localeData('curr', s.dataLocale, `Currencies/${code}`);
      const parsed = JSON.parse(entry);
      return orCode(Array.isArray(parsed) && parsed[1] ? parsed[1] : undefined);
    }
    case 'calendar': {
      if (!/^[A-Za-z0-9]{3,8}(?:-[A-Za-z0-9]{3,8})*$/.test(code)) throw invalid();
      const key = code === 'gregory' ? 'gregorian' : code === 'ethioaa' ? 'ethiopic-amete-alem' : code;
      return orCode(named('lang', s, 'Types', `calendar/${key}`));
    }
    default: {
      if (!Object.prototype.hasOwnProperty.call(fieldKeys, code)) throw invalid();
      // DateTimePatternGenerator's field names: a narrower width falls back to a wider one.
      const widths = s.style === 'narrow' ? ['-narrow', '-short', ''] : s.style === 'short' ? ['-short', ''] : [''];
      for (const w of widths) {
        const name = intlNative().lookup('', s.dataLocale, `fields/${fieldKeys[code]}${w}/dn`);
        if (name) return name;
      }
      return orCode(undefined);
    }
  }
}

function DisplayNames(locales, options) {
  if (new.target === undefined) throw new TypeError("Constructor Intl.DisplayNames requires 'new'");
  const requested = canonicalizeLocaleList(locales);
  const opts = getOptionsObject(options);
  if (options === undefined) throw new TypeError('invalid_argument');
  getStringOption(opts, 'localeMatcher', ['lookup', 'best fit'], 'best fit', SERVICE);
  const r = resolveLocale('DisplayNames', requested, [], {});
  const style = getStringOption(opts, 'style', ['narrow', 'short', 'long'], 'long', SERVICE);
  const type = getStringOption(opts, 'type', types, undefined, SERVICE);
  if (type === undefined) throw new TypeError('invalid_argument');
  const fallback = getStringOption(opts, 'fallback', ['code', 'none'], 'code', SERVICE);
  const languageDisplay = getStringOption(opts, 'languageDisplay', ['dialect', 'standard'], 'dialect', SERVICE);
  const proto = typeof new.target.prototype === 'object' && new.target.prototype !== null ? new.target.prototype : DisplayNames.prototype;
  const dn = Object.create(proto);
  slots.set(dn, { locale: r.locale, dataLocale: r.dataLocale, style, type, fallback, languageDisplay });
  return dn;
}

defineMethods(DisplayNames.prototype, {
  resolvedOptions() {
    const s = unwrap(slots, this, 'Intl.DisplayNames.prototype.resolvedOptions');
    const out = { locale: s.locale, style: s.style, type: s.type, fallback: s.fallback };
    if (s.type === 'language') out.languageDisplay = s.languageDisplay;
    return out;
  },
  of(code) {
    const s = unwrap(slots, this, 'Intl.DisplayNames.prototype.of');
    if (typeof code === 'symbol') throw new TypeError('Cannot convert a Symbol value to a string');
    return displayName(s, String(code));
  },
});
defineMethods(DisplayNames, {
  supportedLocalesOf(locales, options) {
    return supportedLocalesOf('DisplayNames', locales, options);
  },
});
setToStringTag(DisplayNames.prototype, 'Intl.DisplayNames');
Object.defineProperty(DisplayNames, 'length', { value: 2 });

module.exports = { DisplayNames };
