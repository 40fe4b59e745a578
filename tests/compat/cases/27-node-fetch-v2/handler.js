// Legacy code that still uses node-fetch v2.
const fetch = require('node-fetch');

module.exports = {
  main: async function (event) {
    const base = process.env.UPSTREAM_URL;
    const res = await fetch(`${base}/carts/2`);
    const cart = await res.json();
    const posted = await fetch(`${base}/echo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-From': 'node-fetch' },
      body: JSON.stringify({ cartId: cart.id }),
    });
    const echo = await posted.json();
    const gz = await fetch(`${base}/gzip`).then((r) => r.json());
    const buf = await fetch(`${base}/bytes`).then((r) => r.buffer());
    const missing = await fetch(`${base}/status/404`);
    return {
      cart: { id: cart.id, items: cart.items.map((i) => i.sku) },
      echo: { method: echo.method, headers: echo.headers, json: echo.json },
      gzip: gz,
      buffer: { isBuffer: Buffer.isBuffer(buf), length: buf.length, hexHead: buf.subarray(0, 4).toString('hex') },
      missing: { ok: missing.ok, status: missing.status, statusText: missing.statusText },
      isNodeFetch: fetch !== globalThis.fetch,
    };
  },
};
