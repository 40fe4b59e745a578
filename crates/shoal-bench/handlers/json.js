// A realistic JSON handler, served identically by Shoal and by the Node.js
// baseline: parse a ~2 KB order (the runtime's body parser), transform it,
// answer JSON.
module.exports = {
  main(event) {
    const order = event.data;
    const lines = order.items.map((item) => ({
      sku: item.sku.toUpperCase(),
      quantity: item.quantity,
      total: Math.round(item.quantity * item.price * 100) / 100,
    }));
    const total = lines.reduce((sum, line) => sum + line.total, 0);
    return {
      id: order.id,
      customer: `${order.customer.firstName} ${order.customer.lastName}`,
      lines,
      total: Math.round(total * 100) / 100,
      tags: [...new Set(order.tags)].sort(),
    };
  },
};
