// Reshaping sales data with lodash and ramda.
const _ = require('lodash');
const R = require('ramda');

module.exports = {
  main: function (event) {
    const sales = (event.data && event.data.sales) || [
      { id: 1, region: 'EMEA', rep: 'ada', amount: 120.5, tags: ['new'] },
      { id: 2, region: 'APJ', rep: 'lin', amount: 80, tags: [] },
      { id: 3, region: 'EMEA', rep: 'bob', amount: 42.25, tags: ['vip', 'new'] },
      { id: 4, region: 'NA', rep: 'ada', amount: 300, tags: ['vip'] },
    ];
    const byRegion = _.mapValues(_.groupBy(sales, 'region'), (rows) => _.sumBy(rows, 'amount'));
    const top = _.orderBy(sales, ['amount', 'id'], ['desc', 'asc']).slice(0, 2).map((s) => _.pick(s, ['id', 'rep', 'amount']));
    const config = _.merge({ retry: { count: 3, delay: 100 }, tags: ['a'] }, { retry: { delay: 250 }, tags: ['b'] });
    const totalByRep = R.pipe(R.groupBy(R.prop('rep')), R.map(R.pipe(R.pluck('amount'), R.sum)))(sales);
    const vipIds = R.pipe(R.filter(R.pipe(R.prop('tags'), R.includes('vip'))), R.map(R.prop('id')))(sales);
    return {
      byRegion,
      top,
      reps: _.uniq(_.map(sales, 'rep')).sort(),
      chunks: _.chunk(_.range(1, 8), 3),
      config,
      deep: _.get({ a: [{ b: { c: 'found' } }] }, 'a[0].b.c', 'default'),
      missing: _.get({}, 'x.y.z', 'default'),
      camel: _.camelCase('Order line-item total'),
      kebab: _.kebabCase('OrderLineItem Total'),
      template: _.template('Hello <%= name %>, you owe <%- amount %>')({ name: 'Ada', amount: '<5€>' }),
      isEqual: _.isEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }),
      debounceType: typeof _.debounce(() => {}, 10),
      partition: _.partition([1, 2, 3, 4, 5], (n) => n % 2),
      totalByRep,
      vipIds,
      evolved: R.evolve({ amount: R.multiply(2), rep: R.toUpper }, sales[0]),
      sortedByAmount: R.sortBy(R.prop('amount'), sales).map(R.prop('id')),
    };
  },
};
