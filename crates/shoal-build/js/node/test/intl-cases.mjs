// Intl cases for run.mjs: Shoal's Intl (en-US, de-DE) against Node's ICU.
// The sandbox has no Intl of its own: G.Intl there is Shoal's.

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
}
