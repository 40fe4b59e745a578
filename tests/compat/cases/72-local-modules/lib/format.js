exports.round2 = (n) => Math.round(n * 100) / 100;
exports.money = (n, currency) => `${n.toFixed(2)} ${currency}`;
