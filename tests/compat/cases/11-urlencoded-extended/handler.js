// An HTML form post: body-parser's extended urlencoded parser (qs) builds nested data.
module.exports = {
  main: function (event) {
    const form = event.data || {};
    const items = Array.isArray(form.items) ? form.items : Object.values(form.items || {});
    const lines = items.map((it) => ({ sku: it.sku, qty: Number(it.qty) }));
    return {
      form,
      customer: form.customer || null,
      lines,
      totalQty: lines.reduce((s, l) => s + l.qty, 0),
      newsletter: form.newsletter === 'on',
    };
  },
};
