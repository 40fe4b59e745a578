const { round2 } = require('./format');

function priceOrder(order, rates) {
  const rate = rates.eurTo[order.currency] || 1;
  const lines = order.lines.map((l) => ({ sku: l.sku, net: round2(l.qty * l.unit * rate) }));
  const net = round2(lines.reduce((s, l) => s + l.net, 0));
  const vat = round2(net * rates.vat);
  return { lines, net, vat, total: round2(net + vat) };
}

module.exports = { priceOrder };
