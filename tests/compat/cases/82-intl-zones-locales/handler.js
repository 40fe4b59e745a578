// A global event calendar with no date library: Intl.DateTimeFormat in 22
// time zones, each on both sides of its 2025 daylight-saving changes, in 10
// locales and the option bags calendars use (dateStyle/timeStyle, parts,
// time zone names, 12/24-hour clocks, ranges).
const ZONES = [
  'America/New_York', 'America/Los_Angeles', 'America/Mexico_City', 'America/Halifax', 'America/St_Johns',
  'America/Santiago', 'America/Asuncion', 'Europe/London', 'Europe/Paris', 'Europe/Athens', 'Europe/Kyiv',
  'Europe/Lisbon', 'Africa/Casablanca', 'Asia/Beirut', 'Asia/Jerusalem', 'Asia/Kolkata', 'Asia/Tokyo',
  'Asia/Singapore', 'Australia/Adelaide', 'Australia/Brisbane', 'Pacific/Auckland', 'Pacific/Chatham',
];
const LOCALES = ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-MX', 'ja-JP', 'zh-CN', 'ko-KR', 'ar-SA', 'pl-PL'];

function offsetAt(zone, ms) {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(ms);
  return parts.find((p) => p.type === 'timeZoneName').value;
}

// The instants of 2025 where the zone's offset changes, to the minute.
function transitions(zone) {
  const found = [];
  const hour = 3600000;
  let at = Date.UTC(2025, 0, 1);
  const end = Date.UTC(2026, 0, 1);
  let offset = offsetAt(zone, at);
  for (; at < end; at += 6 * hour) {
    const next = offsetAt(zone, at + 6 * hour);
    if (next === offset) continue;
    let lo = at;
    let hi = at + 6 * hour;
    while (hi - lo > 60000) {
      const mid = lo + Math.floor((hi - lo) / 120000) * 60000;
      if (offsetAt(zone, mid) === offset) lo = mid;
      else hi = mid;
    }
    found.push(hi);
    offset = next;
  }
  return found;
}

const BAGS = [
  { dateStyle: 'full', timeStyle: 'long' },
  { dateStyle: 'medium', timeStyle: 'short', hour12: false },
  { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' },
  { weekday: 'long', hour: '2-digit', minute: '2-digit', timeZoneName: 'shortOffset' },
  { month: 'long', day: 'numeric', hour: 'numeric', hourCycle: 'h23', timeZoneName: 'longGeneric' },
];

function zoneReport(zone, locales) {
  const out = { changes: [], resolved: new Intl.DateTimeFormat(locales[0], { timeZone: zone }).resolvedOptions().timeZone };
  for (const change of transitions(zone)) {
    const instants = [change - 1800000, change + 1800000];
    const entry = { utc: new Date(change).toISOString(), printed: {} };
    for (const locale of locales) {
      entry.printed[locale] = instants.map((ms) => BAGS.map((bag) => new Intl.DateTimeFormat(locale, { ...bag, timeZone: zone }).format(ms)));
    }
    const parts = new Intl.DateTimeFormat(locales[0], { timeZone: zone, dateStyle: 'short', timeStyle: 'full' }).formatToParts(instants[1]);
    entry.parts = parts.map((p) => `${p.type}:${p.value}`);
    entry.range = new Intl.DateTimeFormat(locales[0], { timeZone: zone, hour: 'numeric', minute: 'numeric' }).formatRange(instants[0], instants[1]);
    out.changes.push(entry);
  }
  return out;
}

module.exports = {
  main(event) {
    const { half } = event.extensions.request.query;
    const locales = half === '1' ? LOCALES.slice(0, 5) : LOCALES.slice(5);
    const zones = event.extensions.request.query.zones === '1' ? ZONES.slice(0, 11) : ZONES.slice(11);
    return Object.fromEntries(zones.map((z) => [z, zoneReport(z, locales)]));
  },
};
