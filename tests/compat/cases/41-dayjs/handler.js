// Delivery-date arithmetic with dayjs and its utc/timezone-free plugins.
const dayjs = require('dayjs');
const utc = require('dayjs/plugin/utc');
const customParseFormat = require('dayjs/plugin/customParseFormat');
const relativeTime = require('dayjs/plugin/relativeTime');
const isoWeek = require('dayjs/plugin/isoWeek');

dayjs.extend(utc);
dayjs.extend(customParseFormat);
dayjs.extend(relativeTime);
dayjs.extend(isoWeek);

module.exports = {
  main: function (event) {
    const ordered = dayjs.utc((event.data && event.data.orderedAt) || '2024-02-27T16:45:00Z');
    let delivery = ordered.add(3, 'day');
    while (delivery.day() === 0 || delivery.day() === 6) delivery = delivery.add(1, 'day');
    const parsed = dayjs.utc('31.12.2024 23:59', 'DD.MM.YYYY HH:mm');
    return {
      ordered: ordered.format(),
      orderedPretty: ordered.format('dddd, MMMM D, YYYY h:mm A'),
      delivery: delivery.format('YYYY-MM-DD'),
      deliveryWeekday: delivery.format('ddd'),
      isoWeek: ordered.isoWeek(),
      startOfMonth: ordered.startOf('month').toISOString(),
      endOfMonth: ordered.endOf('month').format('YYYY-MM-DD HH:mm:ss.SSS'),
      daysInMonth: ordered.daysInMonth(),
      leapDay: ordered.add(2, 'day').format('MM-DD'),
      diffDays: parsed.diff(ordered, 'day'),
      diffMonthsFloat: Number(parsed.diff(ordered, 'month', true).toFixed(4)),
      parsed: parsed.toISOString(),
      parsedValid: dayjs('not a date').isValid(),
      isBefore: ordered.isBefore(parsed),
      unix: ordered.unix(),
      fromNowFixed: ordered.from(parsed),
      toNowFixed: parsed.to(ordered),
      utcOffset: ordered.utcOffset(),
    };
  },
};
