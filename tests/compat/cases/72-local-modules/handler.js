// A Function from a git repository with several files: local modules and a JSON data file.
const { priceOrder } = require('./lib/pricing');
const format = require('./lib/format.js');
const rates = require('./data/rates.json');
const fs = require('fs');
const path = require('path');

module.exports = {
  main: function (event) {
    const order = event.data || { currency: 'USD', lines: [{ sku: 'A-100', qty: 2, unit: 12.5 }, { sku: 'B-200', qty: 3, unit: 3.99 }] };
    const priced = priceOrder(order, rates);
    return {
      ...priced,
      display: format.money(priced.total, order.currency),
      ratesVersion: rates.version,
      moduleCached: require('./lib/pricing') === require('./lib/pricing.js'),
      filename: require('path').basename(__filename),
      // The folder's files are on disk where the handler is, as in Kyma's pod.
      ratesFileBytes: fs.readFileSync(path.join(__dirname, 'data', 'rates.json')).length,
      libFiles: fs.readdirSync(path.join(__dirname, 'lib')).sort(),
      dataIsDirectory: fs.statSync(path.join(__dirname, 'data')).isDirectory(),
    };
  },
};
