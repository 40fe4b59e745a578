'use strict';
// Intl.Collator and String.prototype.localeCompare on ICU4X's collator
// (the UCA with CLDR's tailorings for every locale, -u-co- collations,
// numeric ordering and case first), options read as V8 reads them.

const { intlNative } = require('./native');
const { unwrap, toOptionsObject, getStringOption, defineMethods, setToStringTag } = require('./options');
const { canonicalizeLocaleList, supportedLocalesOf, resolveLocale, typeRe } = require('./locales');

const SERVICE = 'Intl.Collator';
const slots = new WeakMap();

function createCollator(locales, options, service = SERVICE) {
  const requested = canonicalizeLocaleList(locales);
  const opts = toOptionsObject(options, SERVICE);
  const usage = getStringOption(opts, 'usage', ['sort', 'search'], 'sort', service);
  getStringOption(opts, 'localeMatcher', ['lookup', 'best fit'], 'best fit', service);
  const collation = getStringOption(opts, 'collation', undefined, undefined, service);
  if (collation !== undefined && !typeRe.test(collation)) throw new RangeError(`Invalid collation : ${collation}`);
  const numericOption = opts.numeric === undefined ? undefined : String(Boolean(opts.numeric));
  const caseFirstOption = getStringOption(opts, 'caseFirst', ['upper', 'lower', 'false'], undefined, service);
  const r = resolveLocale('Collator', requested, ['co', 'kn', 'kf'], { co: collation, kn: numericOption, kf: caseFirstOption });
  const sensitivity = getStringOption(opts, 'sensitivity', ['base', 'accent', 'case', 'variant'], 'variant', service);
  const language = r.dataLocale.split('-')[0];
  let ignorePunctuation = opts.ignorePunctuation;
  // (ICU's Thai collation ignores punctuation by default; V8 reports it.)
  ignorePunctuation = ignorePunctuation === undefined ? language === 'th' : Boolean(ignorePunctuation);
  const k = r.keywords;
  const numeric = k.kn === '' || k.kn === 'true';
  const caseFirst = k.kf === undefined ? 'false' : k.kf;
  const co = usage === 'search' ? 'search' : k.co;
  let collatorLocale = r.dataLocale;
  const ext = [];
  if (co !== undefined && co !== 'standard') ext.push(`co-${co}`);
  if (caseFirst !== 'false') ext.push(`kf-${caseFirst}`);
  if (numeric) ext.push('kn');
  if (ext.length) collatorLocale += `-u-${ext.join('-')}`;
  return {
    locale: r.locale,
    usage,
    sensitivity,
    ignorePunctuation,
    collation: k.co === undefined ? 'default' : k.co,
    numeric,
    caseFirst,
    key: JSON.stringify({ collatorLocale, sensitivity, ignorePunctuation }),
  };
}

function compare(s, x, y) {
  return intlNative().compare(s.key, String(x), String(y));
}

function Collator(locales, options) {
  const s = createCollator(locales, options);
  const target = new.target === undefined ? Collator : new.target;
  const proto = typeof target.prototype === 'object' && target.prototype !== null ? target.prototype : Collator.prototype;
  const c = Object.create(proto);
  slots.set(c, s);
  return c;
}

defineMethods(Collator.prototype, {
  get compare() {
    const s = unwrap(slots, this, 'Intl.Collator.prototype.compare');
    if (!s.boundCompare) {
      const bound = (x, y) => compare(s, x, y);
      Object.defineProperty(bound, 'name', { value: '' });
      s.boundCompare = bound;
    }
    return s.boundCompare;
  },
  resolvedOptions() {
    const s = unwrap(slots, this, 'Intl.Collator.prototype.resolvedOptions');
    return {
      locale: s.locale,
      usage: s.usage,
      sensitivity: s.sensitivity,
      ignorePunctuation: s.ignorePunctuation,
      collation: s.collation,
      numeric: s.numeric,
      caseFirst: s.caseFirst,
    };
  },
});
defineMethods(Collator, {
  supportedLocalesOf(locales, options) {
    return supportedLocalesOf('Collator', locales, options);
  },
});
setToStringTag(Collator.prototype, 'Intl.Collator');
Object.defineProperty(Collator, 'length', { value: 0 });

module.exports = { Collator, createCollator, compare };
