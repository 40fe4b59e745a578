// Fan out: check stock for every sku in parallel, then aggregate.
module.exports = {
  main: async function (event) {
    const skus = (event.data && event.data.skus) || ['A-100', 'B-200', 'C-300'];
    const base = process.env.UPSTREAM_URL;
    const results = await Promise.all(
      skus.map(async (sku) => {
        const res = await fetch(`${base}/stock?sku=${encodeURIComponent(sku)}`);
        return res.json();
      }),
    );
    const [cart1, cart2] = await Promise.all([1, 2].map((id) => fetch(`${base}/carts/${id}`).then((r) => r.json())));
    const settled = await Promise.allSettled([
      fetch(`${base}/stock`).then((r) => (r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`)))),
      fetch(`${base}/stock?sku=Z`).then((r) => r.json()),
    ]);
    return {
      stock: results,
      available: results.filter((r) => r.available > 0).map((r) => r.sku),
      totalUnits: results.reduce((s, r) => s + r.available, 0),
      carts: [cart1.id, cart2.id],
      settled: settled.map((s) => (s.status === 'fulfilled' ? s.value : s.reason.message)),
    };
  },
};
