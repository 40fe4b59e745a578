// Localised invoices: Intl number/date formatting for en-US and de-DE with a fixed date.
module.exports = {
  main: function (event) {
    const amount = (event.data && event.data.amount) || 1234567.891;
    const at = new Date(Date.UTC(2024, 2, 5, 14, 7, 9));
    const out = {};
    for (const locale of ['en-US', 'de-DE']) {
      out[locale] = {
        number: new Intl.NumberFormat(locale).format(amount),
        eur: new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' }).format(amount),
        usd: new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(-amount),
        percent: new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(0.2567),
        compact: new Intl.NumberFormat(locale, { notation: 'compact' }).format(amount),
        unit: new Intl.NumberFormat(locale, { style: 'unit', unit: 'kilometer-per-hour' }).format(88),
        date: new Intl.DateTimeFormat(locale, { timeZone: 'UTC' }).format(at),
        dateLong: new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'long', timeZone: 'UTC' }).format(at),
        parts: new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' }).formatToParts(at).map((p) => p.type),
        berlin: new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Berlin' }).format(at),
        toLocaleString: at.toLocaleString(locale, { timeZone: 'UTC' }),
        toLocaleDateString: at.toLocaleDateString(locale, { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' }),
        numberToLocale: (9876.5).toLocaleString(locale),
        relative: new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(-1, 'day'),
        list: new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' }).format(['Kyma', 'Shoal', 'QuickJS']),
        plural: [0, 1, 2].map((n) => new Intl.PluralRules(locale).select(n)),
        sorted: ['Zebra', 'Äpfel', 'apple', 'Ölkanne', 'zoo'].sort(new Intl.Collator(locale).compare),
      };
    }
    out.ordinal = [1, 2, 3, 11, 22].map((n) => new Intl.PluralRules('en-US', { type: 'ordinal' }).select(n));
    out.displayName = new Intl.DisplayNames(['en'], { type: 'region' }).of('DE');
    out.segments = [...new Intl.Segmenter('en', { granularity: 'word' }).segment('Hello, Kyma world!')].filter((s) => s.isWordLike).map((s) => s.segment);
    out.resolvedTimeZone = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC' }).resolvedOptions().timeZone;
    out.localeCompare = 'ä'.localeCompare('z', 'de');
    return out;
  },
};
