// Subscription billing periods with date-fns (the runtime runs in UTC).
const { addDays, addMonths, differenceInCalendarDays, endOfMonth, format, formatISO, isWeekend, parseISO, startOfWeek, eachDayOfInterval, formatDistanceStrict, isValid, parse } = require('date-fns');

module.exports = {
  main: function (event) {
    const start = parseISO((event.data && event.data.start) || '2024-01-31T10:00:00Z');
    const next = addMonths(start, 1);
    const trialEnd = addDays(start, 14);
    const days = eachDayOfInterval({ start, end: addDays(start, 6) });
    return {
      start: formatISO(start),
      nextBilling: format(next, 'yyyy-MM-dd'),
      trialEnd: format(trialEnd, "EEEE, do MMMM yyyy 'at' HH:mm"),
      daysUntilNext: differenceInCalendarDays(next, start),
      endOfMonth: format(endOfMonth(start), 'yyyy-MM-dd HH:mm:ss'),
      weekStartsMonday: format(startOfWeek(start, { weekStartsOn: 1 }), 'yyyy-MM-dd'),
      weekendDays: days.filter(isWeekend).map((d) => format(d, 'EEE dd')),
      quarter: format(start, 'QQQ yyyy'),
      distance: formatDistanceStrict(start, trialEnd),
      parsedCustom: formatISO(parse('05/03/2024', 'dd/MM/yyyy', new Date(0))),
      invalid: isValid(parseISO('2024-13-45')),
    };
  },
};
