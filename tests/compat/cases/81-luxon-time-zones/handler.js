// A meeting planner: luxon in 24 time zones on both sides of each
// daylight-saving change of 2025 (and of zones that changed their rules),
// wall-clock arithmetic across the change, and times printed in 10 locales.
const { DateTime, Interval, IANAZone, Info } = require('luxon');

const ZONES = [
  'America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles', 'America/St_Johns',
  'America/Santiago', 'America/Havana', 'America/Sao_Paulo', 'Atlantic/Azores', 'Europe/London',
  'Europe/Berlin', 'Europe/Moscow', 'Europe/Istanbul', 'Africa/Cairo', 'Asia/Jerusalem', 'Asia/Tehran',
  'Asia/Kolkata', 'Asia/Kathmandu', 'Asia/Tokyo', 'Asia/Shanghai', 'Australia/Sydney',
  'Australia/Lord_Howe', 'Pacific/Auckland', 'Pacific/Chatham',
];
const LOCALES = ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES', 'ja-JP', 'zh-CN', 'pt-BR', 'ru-RU', 'hi-IN'];

// The instants of a year where the zone's UTC offset changes (scanned in
// 3-hour steps, then narrowed to the minute).
function transitions(zone, year) {
  const found = [];
  let at = DateTime.fromObject({ year }, { zone: 'UTC' });
  const end = at.plus({ years: 1 });
  let offset = at.setZone(zone).offset;
  while (at < end) {
    const next = at.plus({ hours: 3 });
    const nextOffset = next.setZone(zone).offset;
    if (nextOffset !== offset) {
      let lo = at.toMillis();
      let hi = next.toMillis();
      while (hi - lo > 60000) {
        const mid = lo + Math.floor((hi - lo) / 120000) * 60000;
        if (DateTime.fromMillis(mid, { zone }).offset === offset) lo = mid;
        else hi = mid;
      }
      found.push(DateTime.fromMillis(hi, { zone: 'UTC' }));
      offset = nextOffset;
    }
    at = next;
  }
  return found;
}

function zoneReport(zone) {
  const changes = transitions(zone, 2025).map((change) => {
    const before = change.minus({ minutes: 30 }).setZone(zone);
    const after = change.plus({ minutes: 30 }).setZone(zone);
    return {
      utc: change.toISO(),
      before: [before.toISO(), before.offsetNameShort, before.isInDST],
      after: [after.toISO(), after.offsetNameShort, after.isInDST],
      // Wall-clock vs absolute arithmetic across the change.
      plusDay: before.plus({ days: 1 }).toISO(),
      plusHours: before.plus({ hours: 24 }).toISO(),
      hoursInDay: Interval.fromDateTimes(before.startOf('day'), before.startOf('day').plus({ days: 1 })).length('hours'),
    };
  });
  // A local time that does not exist (skipped) or exists twice.
  const local = DateTime.fromObject({ year: 2025, month: 3, day: 30, hour: 2, minute: 30 }, { zone });
  return {
    valid: IANAZone.isValidZone(zone),
    offsets: [1, 4, 7, 10].map((month) => DateTime.fromObject({ year: 2025, month, day: 15 }, { zone }).offset),
    names: [DateTime.fromObject({ year: 2025, month: 1, day: 15 }, { zone }).offsetNameLong, DateTime.fromObject({ year: 2025, month: 7, day: 15 }, { zone }).offsetNameLong],
    changes,
    localMarch30: local.toISO(),
    hasDST: Info.hasDST(zone),
    oldRules: DateTime.fromObject({ year: 2010, month: 7, day: 1, hour: 12 }, { zone }).toISO(),
  };
}

function printed(zone) {
  const meeting = DateTime.fromISO('2025-11-03T15:00:00Z').setZone(zone);
  const out = {};
  for (const locale of LOCALES) {
    const dt = meeting.setLocale(locale);
    out[locale] = [
      dt.toLocaleString(DateTime.DATETIME_FULL),
      dt.toLocaleString(DateTime.DATE_HUGE),
      dt.toLocaleString(DateTime.TIME_WITH_SHORT_OFFSET),
      dt.toFormat('cccc d LLLL yyyy HH:mm ZZZZ'),
      dt.toRelative({ base: meeting.minus({ days: 3 }) }),
    ];
  }
  return out;
}

module.exports = {
  main(event) {
    const part = event.extensions.request.query.part;
    if (part === 'zones') return Object.fromEntries(ZONES.map((z) => [z, zoneReport(z)]));
    if (part === 'printed') return Object.fromEntries(ZONES.slice(0, 12).map((z) => [z, printed(z)]));
    if (part === 'printed2') return Object.fromEntries(ZONES.slice(12).map((z) => [z, printed(z)]));
    if (part === 'invalid') {
      const bad = DateTime.now().setZone('Mars/Olympus_Mons');
      return { isValid: bad.isValid, reason: bad.invalidReason, explanation: bad.invalidExplanation };
    }
    return { zones: ZONES.length, locales: LOCALES.length };
  },
};
