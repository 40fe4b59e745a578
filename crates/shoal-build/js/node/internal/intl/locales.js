'use strict';
// Locale lists (CanonicalizeLocaleList), supportedLocalesOf and
// ResolveLocale. Canonicalization (UTS #35, with CLDR's aliases) and the
// lookup over the locales each constructor has in Node are native.

const { intlNative } = require('./native');
const { toOptionsObject, getStringOption } = require('./options');

// The [[Locale]] of Intl.Locale objects (set by locale.js), so that a
// locale list may hold them.
const localeObjects = new WeakMap();

function canonicalizeTag(tag) {
  const canonical = intlNative().canonicalizeLocale(tag);
  if (canonical === null || canonical === undefined) throw new RangeError('Incorrect locale information provided');
  return canonical;
}

function canonicalizeLocaleList(locales) {
  if (locales === undefined) return [];
  let list;
  if (typeof locales === 'string' || localeObjects.has(locales)) list = [locales];
  else {
    if (locales === null) throw new TypeError('Cannot convert undefined or null to object');
    list = Object(locales);
  }
  const len = Math.min(Math.max(Math.trunc(Number(list.length)) || 0, 0), Number.MAX_SAFE_INTEGER);
  const seen = [];
  for (let k = 0; k < len; k++) {
    if (!(k in list)) continue;
    const value = list[k];
    if (typeof value !== 'string' && (typeof value !== 'object' || value === null)) {
      throw new TypeError('Language ID should be string or object.');
    }
    const tag = localeObjects.has(value) ? localeObjects.get(value) : canonicalizeTag(String(value));
    if (!seen.includes(tag)) seen.push(tag);
  }
  return seen;
}

function supportedLocalesOf(service, locales, options) {
  const requested = canonicalizeLocaleList(locales);
  const opts = toOptionsObject(options, `Intl.${service}.supportedLocalesOf`);
  getStringOption(opts, 'localeMatcher', ['lookup', 'best fit'], 'best fit', `Intl.${service}`);
  return intlNative().supportedLocales(service, requested);
}

// ResolveLocale: `relevant` lists the -u- keys the service uses; `options`
// maps a key to the value an option gave it (which wins over the tag's).
// Returns { locale, dataLocale, keywords, numberingSystem }.
function resolveLocale(service, requested, relevant, options) {
  const chosen = {};
  for (const key of Object.keys(options || {})) if (options[key] !== undefined) chosen[key] = options[key];
  return JSON.parse(intlNative().resolveLocale(JSON.stringify({ service, locales: requested, relevant, options: chosen })));
}

// `type` production of UTS #35 (calendar, numberingSystem, collation option values).
const typeRe = /^[a-z0-9]{3,8}(?:-[a-z0-9]{3,8})*$/i;

module.exports = { localeObjects, canonicalizeTag, canonicalizeLocaleList, supportedLocalesOf, resolveLocale, typeRe };
