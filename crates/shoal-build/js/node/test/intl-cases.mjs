// Intl cases for run.mjs: Shoal's Intl (en-US, de-DE) against Node's ICU.
// The sandbox has no Intl of its own: G.Intl there is Shoal's.
import { createRequire } from 'node:module';

const intlData = createRequire(import.meta.url)('../internal/intl-data.js');

const locales = ['en-US', 'de-DE'];

export function addCases({ diff, check }) {
  // ------------------------------------------------------------ numbers
  const numbers = [0, -0, 1, -1, 0.5, 1.005, 2.5, -2.5, 12.345, 999.9995, 1234.5678, -1234567.891, 1e21, 123456789012, 0.000123456,
    1 / 3, NaN, Infinity, -Infinity, 99999.5, 0.1 + 0.2];
  const numberOptions = [
    undefined, { maximumFractionDigits: 0 }, { minimumFractionDigits: 2 }, { maximumFractionDigits: 2 }, { minimumFractionDigits: 1, maximumFractionDigits: 1 },
    { minimumIntegerDigits: 3 }, { useGrouping: false }, { maximumSignificantDigits: 3 }, { minimumSignificantDigits: 5 },
    { style: 'percent' }, { style: 'percent', maximumFractionDigits: 1 }, { style: 'currency', currency: 'USD' },
    { style: 'currency', currency: 'EUR' }, { style: 'currency', currency: 'JPY' }, { style: 'currency', currency: 'CHF' },
    { style: 'currency', currency: 'USD', currencyDisplay: 'code' }, { style: 'currency', currency: 'EUR', currencyDisplay: 'name' },
    { style: 'currency', currency: 'CAD', currencyDisplay: 'narrowSymbol' }, { style: 'currency', currency: 'USD', currencySign: 'accounting' },
    { style: 'currency', currency: 'GBP', minimumFractionDigits: 0 }, { signDisplay: 'always' }, { signDisplay: 'exceptZero' },
    { signDisplay: 'never' }, { notation: 'compact' }, { notation: 'compact', compactDisplay: 'long' }, { notation: 'scientific' },
    { notation: 'engineering' }, { style: 'currency', currency: 'USD', notation: 'compact' }, { maximumFractionDigits: 2, roundingPriority: 'morePrecision', maximumSignificantDigits: 2 },
  ];
  for (const loc of locales) {
    for (const opts of numberOptions) {
      diff(`Intl.NumberFormat ${loc} ${JSON.stringify(opts)}`, `
        const nf = new G.Intl.NumberFormat(${JSON.stringify(loc)}, ${JSON.stringify(opts)});
        return [${numbers.map(String).join(', ')}].map((n) => nf.format(n));`);
    }
    diff(`Intl.NumberFormat ${loc} formatToParts`, `
      return [new G.Intl.NumberFormat(${JSON.stringify(loc)}, { style: "currency", currency: "EUR" }).formatToParts(-1234.5),
        new G.Intl.NumberFormat(${JSON.stringify(loc)}, { style: "percent", signDisplay: "always" }).formatToParts(0.256),
        new G.Intl.NumberFormat(${JSON.stringify(loc)}, { notation: "compact" }).formatToParts(1234567),
        new G.Intl.NumberFormat(${JSON.stringify(loc)}).formatToParts(NaN)];`);
    diff(`Intl.NumberFormat ${loc} resolvedOptions`, `
      return [new G.Intl.NumberFormat(${JSON.stringify(loc)}).resolvedOptions(),
        new G.Intl.NumberFormat(${JSON.stringify(loc)}, { style: "currency", currency: "usd", maximumFractionDigits: 1, minimumFractionDigits: 0 }).resolvedOptions(),
        new G.Intl.NumberFormat(${JSON.stringify(loc)}, { notation: "compact", maximumSignificantDigits: 3 }).resolvedOptions()];`);
    diff(`Intl.NumberFormat ${loc} bigint and strings`, `
      const nf = new G.Intl.NumberFormat(${JSON.stringify(loc)});
      return [nf.format(12345678901234567890n), nf.format(-5n), nf.format("1234.5"), nf.format("12345678901234567890.123")];`);
  }
  // Only en-US and de-DE data: other locales fall back (Node would use their own data).
  check('Intl.NumberFormat locale fallback', `
    return ["en", "de", "en-GB", "de-AT", "fr-FR", ["xx", "de-CH"], undefined, "EN-us"].map((l) => new G.Intl.NumberFormat(l).resolvedOptions().locale);`,
  ['en', 'de', 'en', 'de', 'en-US', 'de', 'en-US', 'en-US']);
  diff('Intl.NumberFormat errors', `
    const out = [];
    for (const o of [{ style: "currency" }, { style: "bogus" }, { minimumFractionDigits: 5, maximumFractionDigits: 2 }, { currency: "US" }]) {
      try { new G.Intl.NumberFormat("en", o); out.push("ok"); } catch (e) { out.push(e.name); }
    }
    return out;`);
  diff('Number.prototype.toLocaleString', `
    return [(1234567.891).toLocaleString(), (1234567.891).toLocaleString("de-DE"), (0.5).toLocaleString("en-US", { style: "percent" }),
      (42).toLocaleString("de-DE", { style: "currency", currency: "EUR" }), (1e6).toLocaleString(undefined, { maximumFractionDigits: 0 }),
      (12345678901234567890n).toLocaleString("de-DE")];`);

  // ------------------------------------------------------------ units
  // Every sanctioned simple unit and every X-per-Y, in each width.
  const units = ['acre', 'bit', 'byte', 'celsius', 'centimeter', 'day', 'degree', 'fahrenheit', 'fluid-ounce', 'foot', 'gallon', 'gigabit',
    'gigabyte', 'gram', 'hectare', 'hour', 'inch', 'kilobit', 'kilobyte', 'kilogram', 'kilometer', 'liter', 'megabit', 'megabyte', 'meter',
    'microsecond', 'mile', 'mile-scandinavian', 'milliliter', 'millimeter', 'millisecond', 'minute', 'month', 'nanosecond', 'ounce',
    'percent', 'petabyte', 'pound', 'second', 'stone', 'terabit', 'terabyte', 'week', 'yard', 'year'];
  const unitValues = '[0, 1, 2, -1, 1.5, 1234567.891, -0, NaN, -Infinity]';
  for (const loc of locales) {
    for (const unitDisplay of [undefined, 'short', 'long', 'narrow']) {
      diff(`Intl.NumberFormat ${loc} unit ${unitDisplay}`, `
        return ${JSON.stringify(units)}.map((unit) => {
          const nf = new G.Intl.NumberFormat(${JSON.stringify(loc)}, { style: "unit", unit, unitDisplay: ${JSON.stringify(unitDisplay)} });
          return ${unitValues}.map((n) => nf.format(n)).join(" | ");
        });`);
      if (!unitDisplay) continue;
      diff(`Intl.NumberFormat ${loc} unit X-per-Y ${unitDisplay}`, `
        const units = ${JSON.stringify(units)}; const out = [];
        for (const x of units) out.push(units.map((y) => {
          const nf = new G.Intl.NumberFormat(${JSON.stringify(loc)}, { style: "unit", unit: x + "-per-" + y, unitDisplay: ${JSON.stringify(unitDisplay)} });
          return nf.format(1) + " " + nf.format(2);
        }).join(" | "));
        return out;`);
      diff(`Intl.NumberFormat ${loc} unit formatToParts ${unitDisplay}`, `
        return ["kilometer-per-hour", "percent", "celsius", "fluid-ounce", "foot", "microsecond", "day", "mile-per-gallon", "liter-per-kilometer", "byte-per-week", "percent-per-second"]
          .map((unit) => ${unitValues}.map((n) => new G.Intl.NumberFormat(${JSON.stringify(loc)}, { style: "unit", unit, unitDisplay: ${JSON.stringify(unitDisplay)} }).formatToParts(n)));`);
    }
    for (const opts of [{ signDisplay: 'always' }, { signDisplay: 'exceptZero' }, { signDisplay: 'never' }, { signDisplay: 'negative' },
      { minimumFractionDigits: 2 }, { maximumFractionDigits: 0 }, { maximumSignificantDigits: 2 }, { minimumIntegerDigits: 2 }, { useGrouping: false },
      { notation: 'compact' }, { notation: 'compact', compactDisplay: 'long' }, { notation: 'scientific' }, { notation: 'engineering' },
      { maximumFractionDigits: 2, roundingPriority: 'morePrecision', maximumSignificantDigits: 2 }]) {
      diff(`Intl.NumberFormat ${loc} unit ${JSON.stringify(opts)}`, `
        return ["day", "percent", "percent-per-day", "megabyte-per-second", "mile-per-hour", "celsius", "foot"].map((unit) => ["short", "long", "narrow"].map((unitDisplay) => {
          const nf = new G.Intl.NumberFormat(${JSON.stringify(loc)}, { style: "unit", unit, unitDisplay, ...${JSON.stringify(opts)} });
          return [0, -0, 1, -1, 2, 1.5, 0.999, 1000, 1234567.891, -1234567.891, 1n, "1.0"].map((n) => nf.format(n)).join(" | ");
        }));`);
    }
    diff(`Intl.NumberFormat ${loc} unit resolvedOptions`, `
      return [new G.Intl.NumberFormat(${JSON.stringify(loc)}, { style: "unit", unit: "liter" }).resolvedOptions(),
        new G.Intl.NumberFormat(${JSON.stringify(loc)}, { style: "unit", unit: "kilometer-per-hour", unitDisplay: "narrow", currency: "EUR", currencyDisplay: "name" }).resolvedOptions(),
        new G.Intl.NumberFormat(${JSON.stringify(loc)}, { style: "unit", unit: "byte", unitDisplay: "long", notation: "compact" }).resolvedOptions(),
        new G.Intl.NumberFormat(${JSON.stringify(loc)}, { unit: "meter", unitDisplay: "long" }).resolvedOptions()];`);
    diff(`Intl.NumberFormat ${loc} currency name plural`, `
      return [{ notation: "compact" }, { notation: "compact", compactDisplay: "long" }, { notation: "scientific" }, { notation: "engineering", maximumFractionDigits: 0 }]
        .map((o) => [1, 2, 1000, 1e6].map((n) => new G.Intl.NumberFormat(${JSON.stringify(loc)}, { style: "currency", currency: "EUR", currencyDisplay: "name", ...o }).format(n)));`);
  }
  diff('Intl.NumberFormat unit errors', `
    const out = [];
    for (const o of [{ style: "unit" }, { style: "unit", unit: "foo" }, { unit: "foo" }, { style: "unit", unit: "Meter" }, { style: "unit", unit: "" },
      { style: "unit", unit: "meter-per-foo" }, { style: "unit", unit: "meter-per-second-per-hour" }, { style: "unit", unit: "-per-meter" },
      { style: "unit", unit: "meter-per-" }, { style: "unit", unit: "meter", unitDisplay: "wide" }, { unitDisplay: "wide" }, { style: "unit", unitDisplay: "wide" },
      { style: "currency", unit: "foo" }, { style: "currency", currencyDisplay: "x" }, { style: "unit", currency: "x", unit: "foo" }]) {
      try { new G.Intl.NumberFormat("en", o); out.push("ok"); } catch (e) { out.push([e.name, e.message]); }
    }
    return out;`);
  diff('Number.prototype.toLocaleString unit', `
    return [(88).toLocaleString("de-DE", { style: "unit", unit: "kilometer-per-hour" }), (1.5).toLocaleString("en-US", { style: "unit", unit: "hour", unitDisplay: "long" }),
      (1).toLocaleString("de-DE", { style: "unit", unit: "day", unitDisplay: "long" }), (1024).toLocaleString(undefined, { style: "unit", unit: "megabyte", unitDisplay: "narrow" }),
      (12n).toLocaleString("de", { style: "unit", unit: "liter", unitDisplay: "long" }), (-3.5).toLocaleString("en", { style: "unit", unit: "celsius" }),
      G.Intl.supportedValuesOf("unit")];`);

  // ------------------------------------------------------------ dates
  const dates = ['Date.UTC(2024, 0, 2, 15, 4, 5, 123)', 'Date.UTC(2024, 6, 14, 0, 30, 9)', 'Date.UTC(1999, 11, 31, 23, 59, 59)',
    'Date.UTC(2024, 2, 31, 1, 0, 0)', 'Date.UTC(2024, 9, 27, 0, 59, 59)', 'Date.UTC(2023, 4, 7, 12, 0, 0)'];
  const dateOptions = [
    undefined, { dateStyle: 'full' }, { dateStyle: 'long' }, { dateStyle: 'medium' }, { dateStyle: 'short' },
    { timeStyle: 'full' }, { timeStyle: 'long' }, { timeStyle: 'medium' }, { timeStyle: 'short' },
    { dateStyle: 'full', timeStyle: 'full' }, { dateStyle: 'long', timeStyle: 'short' }, { dateStyle: 'medium', timeStyle: 'medium' },
    { dateStyle: 'short', timeStyle: 'short' }, { dateStyle: 'short', timeStyle: 'short', hour12: false }, { timeStyle: 'short', hour12: true },
    { year: 'numeric', month: 'long', day: 'numeric' }, { year: 'numeric', month: 'short', day: 'numeric' }, { year: 'numeric', month: '2-digit', day: '2-digit' },
    { month: 'short', day: 'numeric' }, { month: 'long', year: 'numeric' }, { weekday: 'long' }, { weekday: 'short', month: 'short', day: 'numeric' },
    { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }, { hour: 'numeric', minute: '2-digit' }, { hour: '2-digit', minute: '2-digit' },
    { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false }, { hour: 'numeric', hour12: true }, { hour: 'numeric', minute: 'numeric', hourCycle: 'h23' },
    { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' },
    { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }, { month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit' },
    { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit' },
    { weekday: 'long', hour: 'numeric', minute: '2-digit' }, { timeZoneName: 'short' }, { hour: 'numeric', minute: '2-digit', timeZoneName: 'short' },
    { hour: 'numeric', minute: '2-digit', timeZoneName: 'long' }, { year: 'numeric', month: 'numeric', day: 'numeric', timeZoneName: 'short' },
    { hour: 'numeric', minute: '2-digit', second: '2-digit', fractionalSecondDigits: 3 }, { minute: '2-digit', second: '2-digit' },
    { month: 'numeric', day: 'numeric', hour: 'numeric' }, { year: '2-digit', month: 'narrow' },
    { timeZone: 'Europe/Berlin' }, { timeZone: 'Europe/Berlin', dateStyle: 'full', timeStyle: 'full' },
    { timeZone: 'Europe/Berlin', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }, { timeZone: 'Europe/Paris', timeStyle: 'long' },
    { timeZone: 'Europe/Berlin', timeZoneName: 'shortOffset', hour: 'numeric' }, { timeZone: 'Europe/Berlin', timeZoneName: 'longOffset', hour: 'numeric' }, { timeZone: 'Europe/Berlin', timeZoneName: 'shortGeneric', hour: 'numeric' },
  ];
  for (const loc of locales) {
    for (const opts of dateOptions) {
      const o = { timeZone: 'UTC', ...opts };
      diff(`Intl.DateTimeFormat ${loc} ${JSON.stringify(opts)}`, `
        const f = new G.Intl.DateTimeFormat(${JSON.stringify(loc)}, ${JSON.stringify(o)});
        return [${dates.join(', ')}].map((d) => f.format(d));`);
    }
    // Every combination of the date fields.
    diff(`Intl.DateTimeFormat ${loc} date field grid`, `
      const out = []; const d = Date.UTC(2024, 8, 5, 7, 8, 9);
      for (const weekday of [undefined, "long", "short", "narrow"]) for (const year of [undefined, "numeric", "2-digit"])
        for (const month of [undefined, "numeric", "2-digit", "long", "short", "narrow"]) for (const day of [undefined, "numeric", "2-digit"]) {
          if (!weekday && !year && !month && !day) continue;
          out.push(new G.Intl.DateTimeFormat(${JSON.stringify(loc)}, { timeZone: "UTC", weekday, year, month, day }).format(d));
        }
      return out;`);
    diff(`Intl.DateTimeFormat ${loc} time field grid`, `
      const out = []; const ds = [Date.UTC(2024, 8, 5, 7, 8, 9), Date.UTC(2024, 8, 5, 0, 0, 0), Date.UTC(2024, 8, 5, 12, 30, 0), Date.UTC(2024, 8, 5, 23, 59, 59)];
      for (const hour of [undefined, "numeric", "2-digit"]) for (const minute of [undefined, "numeric", "2-digit"]) for (const second of [undefined, "numeric", "2-digit"])
        for (const hour12 of [undefined, true, false]) for (const tz of [undefined, "short"]) {
          if (!hour && !minute && !second) continue;
          if (hour12 !== undefined && !hour) continue;
          const f = new G.Intl.DateTimeFormat(${JSON.stringify(loc)}, { timeZone: "UTC", hour, minute, second, hour12, timeZoneName: tz });
          out.push(ds.map((d) => f.format(d)).join(" | "));
        }
      return out;`);
    diff(`Intl.DateTimeFormat ${loc} formatToParts`, `
      return new G.Intl.DateTimeFormat(${JSON.stringify(loc)}, { timeZone: "UTC", dateStyle: "medium", timeStyle: "short" }).formatToParts(Date.UTC(2024, 0, 2, 15, 4));`);
    diff(`Intl.DateTimeFormat ${loc} resolvedOptions`, `
      return [new G.Intl.DateTimeFormat(${JSON.stringify(loc)}).resolvedOptions(),
        new G.Intl.DateTimeFormat(${JSON.stringify(loc)}, { timeZone: "UTC", hour: "numeric", minute: "numeric", month: "short", day: "numeric" }).resolvedOptions(),
        new G.Intl.DateTimeFormat(${JSON.stringify(loc)}, { timeZone: "Europe/Berlin", dateStyle: "short", timeStyle: "long" }).resolvedOptions()];`);
    diff(`Date toLocale* ${loc}`, `
      const d = new Date(Date.UTC(2024, 0, 2, 15, 4, 5));
      return [d.toLocaleString(${JSON.stringify(loc)}, { timeZone: "UTC" }), d.toLocaleDateString(${JSON.stringify(loc)}, { timeZone: "UTC" }),
        d.toLocaleTimeString(${JSON.stringify(loc)}, { timeZone: "UTC" }), d.toLocaleDateString(${JSON.stringify(loc)}, { timeZone: "UTC", month: "long" }),
        d.toLocaleTimeString(${JSON.stringify(loc)}, { timeZone: "UTC", hour: "2-digit", minute: "2-digit" }),
        d.toLocaleString(${JSON.stringify(loc)}, { timeZone: "Europe/Berlin" }), new Date(NaN).toLocaleString(${JSON.stringify(loc)})];`);
  }
  diff('Date.prototype.toLocaleString default', `
    const d = new Date(Date.UTC(2024, 0, 2, 15, 4, 5));
    return [d.toLocaleString(undefined, { timeZone: "UTC" }), d.toLocaleDateString(undefined, { timeZone: "UTC" }), d.toLocaleTimeString(undefined, { timeZone: "UTC" })];`);
  diff('Intl.DateTimeFormat errors', `
    const out = [];
    for (const o of [{ dateStyle: "short", month: "long" }, { timeZone: "Not/AZone" }, { month: "wide" }, { dateStyle: "bogus" }]) {
      try { new G.Intl.DateTimeFormat("en", o); out.push("ok"); } catch (e) { out.push([e.name, e.message.split(" (")[0]]); }
    }
    try { new G.Intl.DateTimeFormat("en").format(NaN); } catch (e) { out.push([e.name, e.message]); }
    return out;`);

  // ------------------------------------------------------------ plural, relative, list, collator
  for (const loc of locales) {
    diff(`Intl.PluralRules ${loc}`, `
      const c = new G.Intl.PluralRules(${JSON.stringify(loc)}); const o = new G.Intl.PluralRules(${JSON.stringify(loc)}, { type: "ordinal" });
      const f = new G.Intl.PluralRules(${JSON.stringify(loc)}, { minimumFractionDigits: 1 });
      const ns = [0, 1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 1.5, -1, 1.0];
      return [ns.map((n) => c.select(n)), ns.map((n) => o.select(n)), ns.map((n) => f.select(n)), c.resolvedOptions(), o.resolvedOptions().pluralCategories];`);
    for (const style of ['long', 'short', 'narrow']) {
      diff(`Intl.RelativeTimeFormat ${loc} ${style}`, `
        const a = new G.Intl.RelativeTimeFormat(${JSON.stringify(loc)}, { style: ${JSON.stringify(style)} });
        const b = new G.Intl.RelativeTimeFormat(${JSON.stringify(loc)}, { style: ${JSON.stringify(style)}, numeric: "auto" });
        const out = [];
        for (const unit of ["second", "minutes", "hour", "day", "days", "week", "month", "quarter", "year"]) for (const v of [-2, -1, -0, 0, 1, 2, 1.5, 1000])
          out.push(a.format(v, unit) + " / " + b.format(v, unit));
        return [out, a.resolvedOptions(), a.formatToParts(-1234.5, "day")];`);
    }
    diff(`Intl.ListFormat ${loc}`, `
      const out = [];
      for (const type of ["conjunction", "disjunction", "unit"]) for (const style of ["long", "short", "narrow"]) {
        const lf = new G.Intl.ListFormat(${JSON.stringify(loc)}, { type, style });
        out.push([[], ["a"], ["a", "b"], ["a", "b", "c"], ["a", "b", "c", "d"]].map((l) => lf.format(l)));
      }
      return [out, new G.Intl.ListFormat(${JSON.stringify(loc)}).formatToParts(["x", "y"])];`);
  }
  diff('Intl.Collator sort', `
    const words = ["b", "a", "B", "A", "ä", "Ä", "z", "Z", "é", "e", "E", "10", "9", "2", "a1", "a10", "a2", "_x", "-y", " sp", "!", "apple", "Apple", "äpfel",
      "Zebra", "zebra", "straße", "strasse", "Strasse", "co-op", "coop", "naïve", "naive", "résumé", "resume", "x.y", "x,y", "", "0", "A_B", "AB"];
    return [[...words].sort(new G.Intl.Collator("en").compare), [...words].sort(new G.Intl.Collator("de").compare),
      [...words].sort(new G.Intl.Collator("en", { numeric: true }).compare), [...words].sort(new G.Intl.Collator("en", { caseFirst: "upper" }).compare),
      [...words].sort((a, b) => a.localeCompare(b)),
      ["a", "á", "A"].map((x) => ["base", "accent", "case", "variant"].map((s) => new G.Intl.Collator("en", { sensitivity: s }).compare("a", x))),
      new G.Intl.Collator("de").resolvedOptions()];`);
  diff('Intl.getCanonicalLocales/supportedLocalesOf', `
    return [G.Intl.getCanonicalLocales(["EN-us", "de-de", "en-US"]), G.Intl.getCanonicalLocales("zh-hant-tw"),
      G.Intl.NumberFormat.supportedLocalesOf(["en-US", "de", "de-AT"]).filter((l) => /^(en|de)/.test(l)),
      (() => { try { G.Intl.getCanonicalLocales("en_US"); } catch (e) { return e.name; } })()];`);

  // ------------------------------------------------------------ DisplayNames
  // Every code in Shoal's tables (and every two-letter and numeric region
  // and every three-letter currency, named or not) in each style, with
  // both fallbacks; results joined by "|", errors as "!Name".
  const dn = intlData.displayNames;
  const letters = (n) => {
    const out = [];
    const rec = (p, k) => {
      if (!k) { out.push(p); return; }
      for (let c = 97; c < 123; c++) rec(p + String.fromCharCode(c), k - 1);
    };
    rec('', n);
    return out;
  };
  const dnCodes = {
    region: [...letters(2).map((c) => c.toUpperCase()), ...Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0')),
      'de', 'De', 'dE', 'uk', 'A', '1234', 'AAA', 'D1', '', 'DE ', '٣٣٣'],
    script: [...dn.codes.script.split(' '), 'Xxxx', 'Aaaa', 'Qaaa', 'Qabx', 'latn', 'LATN', 'lAtn', 'Lat', 'Latnn', 'Qaai', 'Zzzz', 'La1n', ''],
    currency: [...letters(3).map((c) => c.toUpperCase()), 'usd', 'eur', 'Xyz', 'xyz', 'chf', 'US', 'USDD', '12A', 'U$D', ''],
    calendar: [...dn.codes.calendar.split(' '), 'gregorian', 'GREGORY', 'Islamic', 'islamicc', 'foo', 'foo-bar', 'fo', 'foo_bar', 'a-b-c', 'abc-defghijkl',
      '123', 'islamic-', '-islamic', 'ethiopic-amete', ''],
    dateTimeField: [...dn.codes.dateTimeField.split(' '), 'Era', 'week', 'zone', 'YEAR', 'dayperiod', ''],
  };
  const dnOptions = [];
  for (const style of ['long', 'short', 'narrow']) for (const fallback of ['code', 'none']) dnOptions.push({ style, fallback });
  const dnRun = (loc, options, codes) => `
    const codes = ${JSON.stringify(codes)};
    return ${JSON.stringify(options)}.map((o) => {
      const d = new G.Intl.DisplayNames(${JSON.stringify(loc)}, o);
      return codes.map((c) => { try { const v = d.of(c); return v === undefined ? "-" : v; } catch (e) { return "!" + e.name; } }).join("|");
    });`;
  for (const loc of locales) {
    for (const [type, codes] of Object.entries(dnCodes)) {
      diff(`Intl.DisplayNames ${loc} ${type}`, dnRun(loc, dnOptions.map((o) => ({ type, ...o })), codes));
    }
  }
  // Languages: every language, alias and dialect; every region, script and
  // variant in a tag; ill-formed and odd tags.
  const langTags = [...dn.codes.language.split(' '), ...dn.alias.language.split(' ').map((p) => p.split('=')[0])];
  for (const loc of ['en-US', 'de-DE']) for (const k of Object.keys(intlData[loc].displayNames.dialect)) langTags.push(k.replace('_', '-'));
  for (const r of dn.codes.region.split(' ')) langTags.push(`en-${r}`, `de-${r}`, `xx-${r}`);
  for (const r of dn.alias.region.split(' ').map((p) => p.split('=')[0])) langTags.push(`fr-${r}`);
  for (const s of dn.codes.script.split(' ')) langTags.push(`zh-${s}`, `sr-${s}-RS`);
  for (const v of [...dn.codes.variant.split(' '), ...dn.alias.variant.split(' ').map((p) => p.split('=')[0])]) langTags.push(`de-${v}`, `en-GB-${v}`, `en-Latn-US-${v}`);
  for (const g of dn.alias.grandfathered.split(' ').map((p) => p.split('=')[0])) langTags.push(g, g.toUpperCase());
  langTags.push('', 'und', 'und-US', 'und-Latn-DE', 'x-foo', 'x', 'abcd', 'abcdefgh', 'abcdefghi', 'a', 'en-', '-en', 'en--US', 'en_US', 'en US', 'de-1996-1996',
    'de-1996-1901', 'en-scouse-fonipa', 'en-u-ca-gregory', 'en-u', 'en-u-ca', 'en-x-foo', 'en-x', 'en-a-bb-a-cc', 'en-a-bb-b-cc', 'en-t', 'zh-yue', 'zh-yue-HK',
    'en-abc', 'en-abc-def', 'abc-def', 'en-abc-def-ghi', 'en-abc-def-ghi-jkl', 'EN-latn-us', 'en-Latn-Latn', 'en-US-US', 'en-1234', 'en-12345', 'en-US-a1b2c',
    'qaa-Qaaa-QM', 'aa-Zzzz-ZZ', 'sh', 'sh-Cyrl', 'sh-RS', 'cnr', 'cnr-AL', 'mo', 'iw-IL', 'my-BU', 'my-MM', 'de-DD', 'en-UK', 'hy-arevela', 'en-aaland',
    'en-DE-aaland', 'en-polytoni', 'zh-Hans-CN', 'zh-Hant-TW', 'zh-Hant-HK', 'en-Latn-GB', 'sr-Latn', 'de-u-co-phonebk', 'root', 'en-US-posix', 'de-CH-1901',
    'ja-Latn-hepburn-heploc', '123', 'en-GB-oed-x-foo', 'de-AT-u-nu-arab');
  for (const loc of locales) {
    for (const languageDisplay of ['dialect', 'standard']) {
      diff(`Intl.DisplayNames ${loc} language ${languageDisplay}`, dnRun(loc, dnOptions.map((o) => ({ type: 'language', languageDisplay, ...o })), langTags));
    }
  }
  diff('Intl.DisplayNames options and errors', `
    const t = (f) => { try { const v = f(); return v === undefined ? "<undefined>" : v; } catch (e) { return [e.name, e.message]; } };
    const out = [];
    for (const [l, o] of [["en", undefined], ["en", {}], ["en", null], ["en", 5], ["en", "region"], ["en_bad", null], ["en", { type: "regio" }],
      ["en", { type: "region", style: "wide" }], ["en", { type: "region", fallback: "x" }], ["en", { type: "region", languageDisplay: "x" }],
      ["en", { type: "region", localeMatcher: "x" }], [["de-DE", "en"], { type: "script" }], [undefined, { type: "currency", style: "short" }],
      ["de", { type: "language", style: "narrow", fallback: "none", languageDisplay: "standard" }], ["EN-us", { type: "calendar" }], ["de-DE", { type: "dateTimeField" }]]) {
      out.push(t(() => new G.Intl.DisplayNames(l, o).resolvedOptions()));
    }
    const order = [];
    t(() => new G.Intl.DisplayNames("en", new Proxy({ type: "language" }, { get(o, k) { order.push(String(k)); return o[k]; } })));
    out.push(order);
    const d = new G.Intl.DisplayNames("en", { type: "region" });
    out.push(t(() => G.Intl.DisplayNames("en", { type: "region" })), t(() => d.of()), t(() => d.of(Symbol("x"))), t(() => d.of({ toString() { return "DE"; } })),
      t(() => d.of.call({}, "DE")), t(() => d.of.call(undefined, "DE")), t(() => d.resolvedOptions.call(5)), t(() => d.of.call([], "DE")),
      Object.prototype.toString.call(d), G.Intl.DisplayNames.length, G.Intl.DisplayNames.name, d.of.length, Object.getOwnPropertyNames(G.Intl.DisplayNames.prototype),
      G.Intl.DisplayNames.supportedLocalesOf(["de-DE", "en", "fr"]).filter((l) => /^(en|de)/.test(l)), t(() => G.Intl.DisplayNames.supportedLocalesOf("en_US")),
      new G.Intl.DisplayNames(["en"], { type: "region" }).of("DE"), new G.Intl.DisplayNames("de", { type: "language" }).of("en-GB"));
    return out;`);

  // ------------------------------------------------------------ Segmenter
  // Seeded corpora: English and German text (umlauts, ß, apostrophes,
  // numbers, URLs, e-mail addresses, abbreviations, quotes, emoji, flags,
  // combining marks, Hangul, Devanagari); strings of random code points
  // (for word and sentence without the scripts ICU segments by dictionary);
  // and strings of characters of every class.
  let seed = 20240102;
  const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
  const pick = (a) => a[Math.floor(rnd() * a.length)];
  const words = ['Hello', 'world', "don't", 'Straße', 'über', 'Öl', 'Mr', 'Dr', 'e.g', 'U.S.A', 'co-op', 'it’s', 'naïve', 'Ärger', 'a', 'I', 'the', 'ABC',
    'x1', 'v2', '3.14', '1,000.50', '10.000,5', '42', '007', '1st', '_init', 'foo_bar', 'john.doe@example.com', 'https://example.com/path?x=1&y=2#z',
    'www.shoal.io', 'C++', 'C#', '#tag', '@user', '$100', '50%', '€5', '5€', '12:30', '1/2', '2024-01-02', 'a\u0301b', 'e\u0308', '😀', '👍🏽', '👨‍👩‍👧',
    '🏳️‍🌈', '🇩🇪', '🇺🇸🇩🇪', '❤️', '가각', '한국어', 'अनुच्छेद', 'क्षि', 'ﬁ', 'ǅ', 'Ω', 'Ελλάδα', 'Москва', 'שלום', 'العربية', '\u00ad', 'x\u200dy', 'don’t',
    "O'Reilly", "rock'n'roll", '...', '--', '—', '„Hallo“', '«oui»', '(a)', '[b]', '"q"', "'s'", 'etc.', 'Nr.', 'z.B.', 'usw.', '1.', '2)', 'A.', 'b.', 'ß', 'ẞ',
    'Kyma', 'Shoal', 'QuickJS', 'Müller', 'Größe', 'ÄÖÜ', 'äöü', "geht's", 'Fußgänger-Übergang', '3,5', '1.000', '−5', '+49', '0.5%', 'v1.2.3', 'a:b', 'x.1',
    '1.x', 'Mrs.', 'Prof.', 'S.', 'i.e.', 'Jan.', '2.', 'Hr.', 'ca.', 'bzw.'];
  const seps = [' ', ' ', ' ', ' ', '  ', ', ', '. ', '! ', '? ', '; ', ': ', '\n', '\r\n', '\t', '.\n', ' - ', ' – ', '...', '?! ', '." ', '.) ', '\u00a0',
    '\u2029', '. . ', ':', '/', '.', ',', "'", '"', ')', '(', '.  ', '!\n\n', '. „', '“ ', '\u2028'];
  const corpus = [];
  for (let i = 0; i < 3000; i++) {
    let s = '';
    const len = 1 + Math.floor(rnd() * 14);
    for (let k = 0; k < len; k++) {
      let w = pick(words);
      if (rnd() < 0.3) w = w[0].toUpperCase() + w.slice(1);
      else if (rnd() < 0.1) w = w.toLowerCase();
      s += w + (k < len - 1 || rnd() < 0.5 ? pick(seps) : '');
    }
    corpus.push(s);
  }
  const dictionary = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Tai_Le}\p{Script=New_Tai_Lue}\p{Script=Tai_Tham}\p{Script=Tai_Viet}\p{Script=Ahom}\p{Ideographic}\u3000-\u33ff\uff00-\uffef]/u;
  const randomStrings = (n, keep) => Array.from({ length: n }, () => {
    let s = '';
    for (let k = 0, len = 1 + Math.floor(rnd() * 10); k < len;) {
      const r = rnd();
      const cp = r < 0.3 ? Math.floor(rnd() * 0x300) : r < 0.8 ? Math.floor(rnd() * 0x10000) : r < 0.95 ? 0x10000 + Math.floor(rnd() * 0x30000) : 0xE0000 + Math.floor(rnd() * 0x1000);
      if (!keep(cp)) continue;
      s += String.fromCodePoint(cp);
      k++;
    }
    return s;
  });
  const classChars = {
    grapheme: ['a', '\r', '\n', '\u0001', '\u0301', '\u200d', '🇦', '🇧', '\u0600', '\u0903', '\u1100', '\u1160', '\u11a8', '\uac00', '\uac01', '😀', '©',
      '\u0915', '\u094d', '\u200c', '\ud800', '\udc00', '\u{16D63}', '\u{1F3FB}'],
    word: ['a', 'b', '\r', '\n', '\u000b', '\u0301', '\u00ad', '\u200d', '🇦', '\u30a2', '\u05d0', "'", '"', '.', ':', ',', '1', '2', '_', ' ', '😀', '\u24c2',
      '가', '!', '\u0e01', '\u2060', '\u00b7', ';', '\u2019'],
    sentence: ['a', 'b', 'A', 'B', '.', '!', '?', ',', ')', '"', ' ', '\u0301', '\u00ad', '\n', '\r', '\u2029', '1', '\u05d0', '#', '\u00a0', '\u3002', ';',
      '\u2018', '\u00bb'],
  };
  const inputs = {};
  for (const granularity of ['grapheme', 'word', 'sentence']) {
    const keep = granularity === 'grapheme' ? () => true : (cp) => !(cp >= 0xD800 && cp < 0xE000) && !dictionary.test(String.fromCodePoint(cp));
    const fuzz = Array.from({ length: 4000 }, () => Array.from({ length: 1 + Math.floor(rnd() * 9) }, () => pick(classChars[granularity])).join(''));
    inputs[granularity] = [['text', corpus], ['random code points', randomStrings(2000, keep)], ['class fuzz', fuzz]];
  }
  for (const loc of ['en-US', 'de-DE']) {
    for (const granularity of ['grapheme', 'word', 'sentence']) {
      for (const [what, strings] of inputs[granularity]) {
        for (let i = 0; i < strings.length; i += 1000) {
          diff(`Intl.Segmenter ${loc} ${granularity} ${what} ${i / 1000 + 1}`, `
            const seg = new G.Intl.Segmenter(${JSON.stringify(loc)}, { granularity: ${JSON.stringify(granularity)} });
            return ${JSON.stringify(strings.slice(i, i + 1000))}.map((s) => Array.from(seg.segment(s), (x) => x.index + (x.isWordLike ? "w" : x.isWordLike === false ? "n" : "")).join(","));`);
        }
      }
    }
  }
  diff('Intl.Segmenter segments', `
    const out = [];
    for (const granularity of [undefined, "grapheme", "word", "sentence"]) {
      const seg = new G.Intl.Segmenter("en", { granularity });
      const text = "Hello, Kyma world! Das Öl kostet 3,14 €. Don't stop 👨‍👩‍👧🇩🇪 e\\u0301 — ok?";
      const segments = seg.segment(text);
      out.push([...segments], [0, 3, 5, 6, 40, text.length - 1, text.length, -1, -0.5, 2.9, "7", NaN, Infinity, undefined].map((i) => segments.containing(i) || "<undefined>"));
      const it = segments[Symbol.iterator]();
      out.push(it.next(), it.next(), Object.prototype.toString.call(it), typeof it[Symbol.iterator], it[Symbol.iterator]() === it, [...segments].length, seg.resolvedOptions());
    }
    out.push([...new G.Intl.Segmenter().segment("")], new G.Intl.Segmenter().segment("").containing(0) || "<undefined>", [...new G.Intl.Segmenter().segment(12)],
      [...new G.Intl.Segmenter().segment()], [...new G.Intl.Segmenter("de", { granularity: "word" }).segment(null)]);
    return out;`);
  diff('Intl.Segmenter options and errors', `
    const t = (f) => { try { const v = f(); return v === undefined ? "<undefined>" : v; } catch (e) { return [e.name, e.message]; } };
    const out = [];
    for (const [l, o] of [["en", undefined], ["en", {}], ["en", null], ["en", 5], ["en", "x"], ["en", { granularity: "line" }], ["en", { localeMatcher: "x" }],
      ["en_bad", null], [undefined, undefined], [["de-DE"], { granularity: "word" }], ["de", { granularity: "sentence" }]]) {
      out.push(t(() => new G.Intl.Segmenter(l, o).resolvedOptions()));
    }
    const order = [];
    new G.Intl.Segmenter("en", new Proxy({}, { get(o, k) { order.push(String(k)); return undefined; } }));
    const seg = new G.Intl.Segmenter("en", { granularity: "word" });
    const segments = seg.segment("a b");
    const proto = Object.getPrototypeOf(segments);
    const it = segments[Symbol.iterator]();
    const itProto = Object.getPrototypeOf(it);
    out.push(order, t(() => G.Intl.Segmenter()), t(() => seg.segment(Symbol("x"))), t(() => seg.segment.call({}, "x")), t(() => seg.resolvedOptions.call(5)),
      t(() => proto.containing.call({}, 0)), t(() => itProto.next.call({})), Object.prototype.toString.call(seg), Object.prototype.toString.call(segments),
      Object.prototype.toString.call(it), Object.getOwnPropertyNames(proto), Object.getOwnPropertyNames(itProto), Object.getOwnPropertyNames(G.Intl.Segmenter.prototype),
      G.Intl.Segmenter.length, G.Intl.Segmenter.name, seg.segment.length, proto.containing.length, Object.keys(segments.containing(0)),
      Object.getOwnPropertyDescriptor(segments.containing(0), "isWordLike"), G.Intl.Segmenter.supportedLocalesOf(["en-US", "de", "fr"]).filter((l) => /^(en|de)/.test(l)),
      [...new G.Intl.Segmenter("en", { granularity: "word" }).segment("Hello, Kyma world!")].filter((s) => s.isWordLike).map((s) => s.segment));
    return out;`);
}
