// Importing a CSV upload: csv-parse/sync to records, papaparse back to CSV.
const { parse } = require('csv-parse/sync');
const Papa = require('papaparse');

module.exports = {
  main: function (event) {
    const text = typeof event.data === 'string' ? event.data : Buffer.isBuffer(event.data) ? event.data.toString('utf8') : '';
    const records = parse(text, {
      columns: true,
      skip_empty_lines: true,
      trim: true,
      cast: (value, ctx) => (ctx.column === 'qty' || ctx.column === 'price' ? Number(value) : value),
    });
    const totals = {};
    for (const r of records) totals[r.region] = Math.round(((totals[r.region] || 0) + r.qty * r.price) * 100) / 100;
    const papa = Papa.parse(text.trim(), { header: true, dynamicTyping: true, skipEmptyLines: true });
    const summaryCsv = Papa.unparse(Object.entries(totals).map(([region, total]) => ({ region, total })), { delimiter: ';' });
    let parseError;
    try {
      parse('a,b\n1,2,3\n', { columns: true });
    } catch (err) {
      parseError = { code: err.code, message: err.message };
    }
    return { count: records.length, records, totals, papaFields: papa.meta.fields, papaFirst: papa.data[0], summaryCsv, parseError };
  },
};
