// Generates Shoal's Intl data (icu.bin) from the ICU data inside a Node.js
// binary, so that formatting uses exactly the CLDR data Node does.
//
//   .ci/node/24/bin/node gen.mjs > icu.bin
//
// It keeps, for every locale ICU ships, what Intl needs (calendars, number
// symbols and patterns, field and list patterns, time zone, language,
// region, currency and unit names), the supplemental tables behind them,
// and facts only Node itself can tell (which locales each Intl constructor
// resolves to, which time zone names it accepts and how it canonicalizes
// them).
import { loader } from './resb.mjs';
import { serialize } from './write.mjs';

const L = loader(process.execPath);

// ECMA-402's sanctioned single units; NumberFormat accepts these and their X-per-Y compounds only.
const SANCTIONED_UNITS = ('acre bit byte celsius centimeter day degree fahrenheit fluid-ounce foot gallon gigabit gigabyte gram '
  + 'hectare hour inch kilobit kilobyte kilogram kilometer liter megabit megabyte meter microsecond mile mile-scandinavian '
  + 'milliliter millimeter millisecond minute month nanosecond ounce percent petabyte pound second stone terabit terabyte '
  + 'week yard year').split(' ');
const isIntlUnit = (u) => SANCTIONED_UNITS.includes(u)
  || (u.includes('-per-') && u.split('-per-').length === 2 && u.split('-per-').every((x) => SANCTIONED_UNITS.includes(x)));

const pick = (m, keep) => {
  if (!(m instanceof Map)) return m;
  const out = new Map();
  for (const [k, v] of m) if (keep(k, v)) out.set(k, v);
  return out;
};
const CALENDAR_KEYS = new Set(['AmPmMarkers', 'AmPmMarkersAbbr', 'AmPmMarkersNarrow', 'DateTimePatterns', 'DateTimePatterns%atTime',
  'appendItems', 'availableFormats', 'dayNames', 'dayPeriod', 'eras', 'intervalFormats', 'monthNames', 'monthPatterns', 'cyclicNameSets']);
const BUNDLE_KEYS = (k) => k === '%%Parent' || k === '%%ALIAS';
const FILTERS = {
  main: (t) => {
    const out = pick(t, (k) => BUNDLE_KEYS(k) || ['calendar', 'fields', 'NumberElements', 'listPattern'].includes(k));
    const cal = out.get('calendar');
    if (cal instanceof Map) {
      const kept = new Map();
      for (const [name, v] of cal) kept.set(name, pick(v, (k) => CALENDAR_KEYS.has(k)));
      out.set('calendar', kept);
    }
    return out;
  },
  zone: (t) => pick(t, (k) => BUNDLE_KEYS(k) || k === 'zoneStrings'),
  lang: (t) => pick(t, (k) => BUNDLE_KEYS(k) || /^(Languages|Scripts|Variants|Keys|Types|localeDisplayPattern)(%|$)/.test(k)),
  region: (t) => pick(t, (k) => BUNDLE_KEYS(k) || /^Countries(%|$)/.test(k)),
  curr: (t) => t,
  unit: (t) => {
    const out = new Map();
    for (const [k, v] of t) {
      if (BUNDLE_KEYS(k)) out.set(k, v);
      else if (/^units(Short|Narrow)?$/.test(k) && !(v instanceof Map)) out.set(k, v); // root's aliases between widths
      else if (/^units(Short|Narrow)?$/.test(k) && v instanceof Map) {
        const widths = new Map();
        for (const [category, units] of v) {
          if (category === 'compound' || !(units instanceof Map)) widths.set(category, units);
          else {
            const kept = pick(units, (name) => isIntlUnit(name));
            if (kept.size) widths.set(category, kept);
          }
        }
        out.set(k, widths);
      }
    }
    return out;
  },
};
const NOT_LOCALES = new Set(['supplementalData', 'metaZones', 'timezoneTypes', 'zoneinfo64', 'windowsZones', 'dayPeriods', 'plurals',
  'pluralRanges', 'numberingSystems', 'likelySubtags', 'keyTypeData', 'metadata', 'currencyNumericCodes', 'genderList',
  'grammaticalFeatures', 'icuver', 'icustd', 'langInfo', 'unitRanges', 'units', 'res_index', 'pool', 'tzdbNames']);

const bundles = new Map();
for (const entry of L.entries.keys()) {
  const m = /^(?:(zone|lang|region|curr|unit)\/)?([^/]+)\.res$/.exec(entry);
  if (!m || NOT_LOCALES.has(m[2])) continue;
  const dir = m[1] || 'main';
  bundles.set(m[1] ? `${m[1]}/${m[2]}` : m[2], FILTERS[dir](L.bundle(entry.slice(0, -4))));
}
const supplemental = L.bundle('supplementalData');
bundles.set('supplementalData', pick(supplemental, (k) => ['calendarPreferenceData', 'timeData', 'CurrencyMeta', 'weekData', 'weekOfPreference', 'codeMappingsCurrency'].includes(k)));
for (const name of ['metaZones', 'dayPeriods', 'numberingSystems', 'pluralRanges']) bundles.set(name, L.bundle(name));
bundles.set('curr/supplementalData', pick(L.bundle('curr/supplementalData'), (k) => k === 'CurrencyMeta'));

// ---- what only Node can tell

// Time zones: every name ICU knows, case-insensitively, to the ID Node reports.
const zoneNames = L.bundle('zoneinfo64').get('Names');
const canonical = new Map();
for (const name of zoneNames) {
  try {
    canonical.set(name.toUpperCase(), new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone);
  } catch { /* Etc/Unknown, Factory */ }
}
// Each canonical zone's region and whether it is its region's primary zone
// (ZoneMeta::getCanonicalCountry): what the generic location format names.
const zoneinfo = L.bundle('zoneinfo64');
const regionOf = new Map(zoneNames.map((n, i) => [n, zoneinfo.get('Regions')[i]]));
const primaryZones = L.bundle('metaZones').get('primaryZones');
const canonicalIds = [...new Set(canonical.values())].filter((id) => regionOf.has(id));
const locationZones = new Map();
for (const id of canonicalIds) {
  const region = regionOf.get(id);
  if (region === '001') continue;
  locationZones.set(region, (locationZones.get(region) || 0) + 1);
}
const zones = new Map();
for (const id of canonicalIds) {
  const region = regionOf.get(id);
  const primary = region !== '001' && (locationZones.get(region) === 1 || primaryZones.get(region) === id);
  zones.set(id, [region, { int: primary ? 1 : 0 }]);
}
const tz = new Map([
  ['canonical', canonical],
  ['zones', zones],
  ['supported', Intl.supportedValuesOf('timeZone')],
  ['version', process.versions.tz],
]);

// Locales: which tags each constructor resolves to as they are (its available locales).
const toTag = (id) => id.replace(/_/g, '-');
const candidates = new Set();
const index = L.bundle('res_index');
for (const k of index.get('InstalledLocales').keys()) candidates.add(toTag(k));
for (const k of (index.get('AliasLocales') || new Map()).keys()) candidates.add(toTag(k));
for (const dir of ['coll', 'zone', 'lang', 'region', 'curr', 'unit', 'rbnf', 'brkitr']) {
  const ix = L.bundle(`${dir}/res_index`);
  if (ix) for (const k of ix.get('InstalledLocales').keys()) candidates.add(toTag(k));
}
for (const t of [...candidates]) {
  const parts = t.split('-');
  if (parts.length === 3 && /^[A-Z][a-z]{3}$/.test(parts[1])) candidates.add(`${parts[0]}-${parts[2]}`);
}
candidates.delete('root');
const services = {
  DateTimeFormat: (t) => new Intl.DateTimeFormat(t),
  NumberFormat: (t) => new Intl.NumberFormat(t),
  Collator: (t) => new Intl.Collator(t),
  PluralRules: (t) => new Intl.PluralRules(t),
  RelativeTimeFormat: (t) => new Intl.RelativeTimeFormat(t),
  ListFormat: (t) => new Intl.ListFormat(t),
  Segmenter: (t) => new Intl.Segmenter(t),
  DisplayNames: (t) => new Intl.DisplayNames(t, { type: 'region' }),
};
const serviceNames = Object.keys(services);
const available = new Map();
for (const tag of [...candidates].sort()) {
  let canon;
  try { [canon] = Intl.getCanonicalLocales(tag); } catch { continue; }
  let bits = 0;
  serviceNames.forEach((s, i) => {
    try { if (services[s](canon).resolvedOptions().locale === canon) bits |= 1 << i; } catch { /* not a locale */ }
  });
  if (bits) available.set(canon, { int: bits });
}
// Likely subtags of every available locale as Node's ICU computes them
// (the generator's hour cycle and a time zone's region use them).
const likely = new Map();
for (const tag of available.keys()) {
  try { likely.set(tag, new Intl.Locale(tag).maximize().baseName); } catch { /* not a locale */ }
}
// Collations each Collator locale honours in a -u-co- keyword.
const collationValues = Intl.supportedValuesOf('collation');
const collations = new Map();
for (const [tag, bits] of available) {
  if (!(bits.int & (1 << serviceNames.indexOf('Collator')))) continue;
  const list = collationValues.filter((c) => {
    try { return new Intl.Collator(`${tag}-u-co-${c}`).resolvedOptions().collation === c; } catch { return false; }
  });
  if (list.length) collations.set(tag, list);
}
// The aliases ICU's display names apply to a language tag's parts before
// naming them (canonicalization as getCanonicalLocales does it).
const canon = (tag) => { try { return Intl.getCanonicalLocales(tag)[0]; } catch { return null; } };
const letters = (n) => {
  let out = [''];
  for (let i = 0; i < n; i++) out = out.flatMap((p) => [...'abcdefghijklmnopqrstuvwxyz'].map((c) => p + c));
  return out;
};
const aliases = new Map([['language', new Map()], ['region', new Map()], ['script', new Map()], ['variant', new Map()]]);
for (const r of [...letters(2).map((c) => c.toUpperCase()), ...Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'))]) {
  const c = canon(`und-${r}`);
  if (c && c !== `und-${r}` && /^und-(?:[A-Z]{2}|\d{3})$/.test(c)) aliases.get('region').set(r, c.slice(4));
}
for (const sc of letters(4).map((c) => c[0].toUpperCase() + c.slice(1))) {
  const c = canon(`und-${sc}`);
  if (c && c !== `und-${sc}`) aliases.get('script').set(sc, c.slice(4));
}
for (const l of [...letters(2), ...letters(3)]) {
  const c = canon(l);
  if (c && c !== l) aliases.get('language').set(l, c);
}
const nodeText = (await import('node:fs')).readFileSync(process.execPath).toString('latin1');
const variantCandidates = new Set();
for (const m of nodeText.matchAll(/([A-Za-z0-9]{4,8})\0/g)) {
  const v = m[1].toLowerCase();
  if (/^(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3})$/.test(v)) variantCandidates.add(v);
}
const dnEn = new Intl.DisplayNames('en', { type: 'language', fallback: 'none', languageDisplay: 'standard' });
const singleVariants = [];
for (const v of [...variantCandidates].sort()) {
  if (dnEn.of(`en-${v}`) === undefined) continue;
  const c = canon(`en-${v}`);
  if (c === 'en') aliases.get('variant').set(v, '');
  else if (c && c !== `en-${v}` && /^en-(?:[A-Z]{2}|\d{3}|[a-z0-9]{4,8})$/.test(c)) aliases.get('variant').set(v, c.slice(3));
  else if (c === `en-${v}` || c === `en-u-va-${v}`) singleVariants.push(v);
}
{
  const all = [...singleVariants, ...aliases.get('variant').keys()];
  const single = (v) => (aliases.get('variant').has(v) ? aliases.get('variant').get(v) : v);
  for (const a of all) for (const b of all) {
    if (a >= b) continue;
    const c = canon(`en-${a}-${b}`);
    const apart = [...new Set([single(a), single(b)])].filter((v) => v !== '').sort().join('-');
    if (c && /^en-[a-z0-9]{4,8}$/.test(c) && c.slice(3) !== apart) aliases.get('variant').set(`${a}-${b}`, c.slice(3));
  }
}
// Grandfathered tags (RFC 5646), which ICU replaces whole.
const dnCode = new Intl.DisplayNames('en-US', { type: 'language' });
const grandfathered = new Map();
for (const g of ['art-lojban', 'cel-gaulish', 'en-gb-oed', 'i-ami', 'i-bnn', 'i-default', 'i-enochian', 'i-hak', 'i-klingon', 'i-lux',
  'i-mingo', 'i-navajo', 'i-pwn', 'i-tao', 'i-tay', 'i-tsu', 'no-bok', 'no-nyn', 'sgn-be-fr', 'sgn-be-nl', 'sgn-ch-de', 'zh-guoyu', 'zh-hakka',
  'zh-min', 'zh-min-nan', 'zh-xiang']) {
  let r = canon(g);
  if (!r) {
    let name;
    try { name = dnCode.of(g); } catch { continue; }
    r = name === 'root' ? 'und' : /^[a-z]{2,3}$/.test(name) ? name : [...singleVariants.map((v) => `en-GB-${v}`)].find((c) => dnCode.of(c) === name);
  }
  if (r) grandfathered.set(g, r);
}
aliases.set('grandfathered', grandfathered);

const meta = new Map([
  ['tz', tz],
  ['likely', likely],
  ['available', available],
  ['services', serviceNames],
  ['collations', collations],
  ['aliases', aliases],
  ['versions', new Map([['icu', process.versions.icu], ['cldr', process.versions.cldr], ['unicode', process.versions.unicode], ['node', process.versions.node]])],
  ['supportedValues', new Map(['calendar', 'collation', 'currency', 'numberingSystem', 'unit'].map((k) => [k, Intl.supportedValuesOf(k)]))],
]);

const root = new Map([['bundles', bundles], ['shoal', meta]]);
const { buffer, stats } = serialize(root);
process.stderr.write(`icu.bin: ${buffer.length} bytes (${JSON.stringify(stats)}), ${bundles.size} bundles, ${available.size} locales, ${canonical.size} zone names\n`);
process.stdout.write(buffer);
