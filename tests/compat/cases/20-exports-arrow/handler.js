// `exports.main = async (event, context) => ...` with helpers required the classic way.
const util = require('util');

const formatOrder = (o) => util.format('%s x%d @ %s EUR', o.sku, o.qty, o.price.toFixed(2));

exports.main = async (event, context) => {
  const orders = (event.data && event.data.orders) || [];
  return {
    lines: orders.map(formatOrder),
    count: orders.length,
    runtime: context.runtime,
  };
};
