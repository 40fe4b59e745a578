'use strict';
// Intl.ListFormat as ICU's ListFormatter: the locale's CLDR list patterns
// (native lookups), with ICU's contextual forms (Spanish "y"/"e" and
// "o"/"u", Hebrew "ו"/"ו-").

const { intlNative } = require('./native');
const {
  unwrap, getOptionsObject, getStringOption, defineMethods, setToStringTag, partsToString,
} = require('./options');
const { canonicalizeLocaleList, supportedLocalesOf, resolveLocale } = require('./locales');

const SERVICE = 'Intl.ListFormat';
const slots = new WeakMap();
const dataType = { conjunction: 'standard', disjunction: 'or', unit: 'unit' };

function ListFormat(locales, options) {
  if (new.target === undefined) throw new TypeError("Constructor Intl.ListFormat requires 'new'");
  const requested = canonicalizeLocaleList(locales);
  const opts = getOptionsObject(options);
  getStringOption(opts, 'localeMatcher', ['lookup', 'best fit'], 'best fit', SERVICE);
  const r = resolveLocale('ListFormat', requested, [], {});
  const type = getStringOption(opts, 'type', ['conjunction', 'disjunction', 'unit'], 'conjunction', SERVICE);
  const style = getStringOption(opts, 'style', ['long', 'short', 'narrow'], 'long', SERVICE);
  const path = `listPattern/${dataType[type]}${style === 'long' ? '' : `-${style}`}`;
  const patterns = JSON.parse(intlNative().localeData('', r.dataLocale, path)) || {};
  const language = r.dataLocale.split('-')[0];
  const s = { locale: r.locale, type, style, patterns, language };
  const proto = typeof new.target.prototype === 'object' && new.target.prototype !== null ? new.target.prototype : ListFormat.prototype;
  const lf = Object.create(proto);
  slots.set(lf, s);
  return lf;
}

function stringList(list) {
  if (list === undefined) return [];
  const items = [];
  for (const item of list) {
    if (typeof item !== 'string') {
      throw new TypeError(`Iterable yielded ${typeof item === 'symbol' ? item.toString() : String(item)} which is not a string`);
    }
    items.push(item);
  }
  return items;
}

// ICU's contextual forms of a pattern joining `next`.
function contextual(pattern, language, next) {
  if (language === 'es') {
    const lower = next.toLowerCase();
    if (pattern === '{0} y {1}' && (lower.startsWith('i') || (lower.startsWith('hi') && !/^hi[ae]/.test(lower)))) return '{0} e {1}';
    if (pattern === '{0} o {1}' && (/^(?:o|8|ho)/.test(lower) || /^11(?: |$)/.test(next))) return '{0} u {1}';
  }
  if (language === 'he' && pattern.endsWith('ו{1}')) {
    const cp = next.codePointAt(0);
    const hebrew = cp !== undefined && ((cp >= 0x591 && cp <= 0x5ff) || (cp >= 0xfb1d && cp <= 0xfb4f));
    if (next !== '' && !hebrew) return `${pattern.slice(0, -3)}ו-{1}`;
  }
  return pattern;
}

// The pattern's text around {0} and {1}.
function splitPattern(pattern) {
  const a = pattern.indexOf('{0}');
  const b = pattern.indexOf('{1}');
  return [pattern.slice(0, a), pattern.slice(a + 3, b), pattern.slice(b + 3)];
}

function formatToParts(s, items) {
  const n = items.length;
  if (n === 0) return [];
  const element = (value) => ({ type: 'element', value });
  if (n === 1) return [element(items[0])];
  const { patterns, language } = s;
  let parts = [element(items[0])];
  const join = (name, next) => {
    const [before, between, after] = splitPattern(contextual(patterns[name] || '{0}, {1}', language, next));
    const out = [];
    if (before) out.push({ type: 'literal', value: before });
    out.push(...parts);
    if (between) out.push({ type: 'literal', value: between });
    out.push(element(next));
    if (after) out.push({ type: 'literal', value: after });
    parts = out;
  };
  if (n === 2) {
    join('2', items[1]);
    return parts;
  }
  join('start', items[1]);
  for (let i = 2; i < n - 1; i++) join('middle', items[i]);
  join('end', items[n - 1]);
  return parts;
}

defineMethods(ListFormat.prototype, {
  format(list) {
    const s = unwrap(slots, this, 'Intl.ListFormat.prototype.format');
    return partsToString(formatToParts(s, stringList(list)));
  },
  formatToParts(list) {
    const s = unwrap(slots, this, 'Intl.ListFormat.prototype.formatToParts');
    return formatToParts(s, stringList(list));
  },
  resolvedOptions() {
    const s = unwrap(slots, this, 'Intl.ListFormat.prototype.resolvedOptions');
    return { locale: s.locale, type: s.type, style: s.style };
  },
});
defineMethods(ListFormat, {
  supportedLocalesOf(locales, options) {
    return supportedLocalesOf('ListFormat', locales, options);
  },
});
setToStringTag(ListFormat.prototype, 'Intl.ListFormat');
Object.defineProperty(ListFormat, 'length', { value: 0 });

module.exports = { ListFormat };
