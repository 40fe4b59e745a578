// A shop backend-for-frontend (nodejs26): async handlers that await fetch calls to the
// shop's services (the corpus's upstream) and answer through res.
const UPSTREAM = process.env.UPSTREAM_URL;

async function getJson(path, init) {
  const r = await fetch(`${UPSTREAM}${path}`, init);
  return { status: r.status, body: await r.json(), headers: r.headers };
}

async function pricedCart(id) {
  const cart = await getJson(`/carts/${id}`);
  if (cart.status !== 200) return cart;
  const stock = await Promise.all(cart.body.items.map((i) => getJson(`/stock?sku=${encodeURIComponent(i.sku)}`)));
  const items = cart.body.items.map((item, n) => ({
    sku: item.sku,
    qty: item.qty,
    lineTotal: Math.round(item.qty * item.price * 100) / 100,
    available: stock[n].body.available >= item.qty,
    warehouse: stock[n].body.warehouse,
  }));
  return {
    status: 200,
    body: {
      cartId: id,
      customer: cart.body.customer.name,
      items,
      total: Math.round(items.reduce((s, i) => s + i.lineTotal, 0) * 100) / 100,
      allAvailable: items.every((i) => i.available),
    },
  };
}

module.exports = {
  main: async function (req, res) {
    const [, resource, id] = req.path.split('/');
    if (req.method === 'GET' && resource === 'carts' && id) {
      const { status, body } = await pricedCart(Number(id));
      return res.status(status).json(body);
    }
    if (req.method === 'POST' && resource === 'checkout') {
      const order = { cartId: req.body.cartId, payment: req.body.payment || 'invoice' };
      const created = await getJson('/orders', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-correlation-id': req.get('x-correlation-id') || 'none' },
        body: JSON.stringify(order),
      });
      res.location(created.headers.get('location'));
      return res.status(created.status).json({ orderId: created.body.orderId, status: created.body.status });
    }
    if (resource === 'forward') {
      // Pass the caller's identity on, and report what the service saw.
      const echoed = await getJson(`/echo?source=bff&id=${encodeURIComponent(req.query.id || '')}`, {
        method: req.method,
        headers: { authorization: req.get('authorization') || '', 'x-tenant': req.get('x-tenant') || 'default', 'content-type': 'application/json' },
        body: req.method === 'GET' ? undefined : JSON.stringify(req.body ?? null),
      });
      return res.json(echoed.body);
    }
    if (resource === 'slow') {
      try {
        const r = await fetch(`${UPSTREAM}/slow?ms=${Number(req.query.ms)}`, { signal: AbortSignal.timeout(200) });
        return res.json(await r.json());
      } catch (err) {
        return res.status(504).json({ error: 'upstream timed out', name: err.name });
      }
    }
    if (resource === 'unreachable') {
      try {
        // A misconfigured service URL; port 1 is also on fetch's list of blocked ports.
        await fetch('http://127.0.0.1:1/');
        return res.send('unexpected');
      } catch (err) {
        return res.status(502).json({ error: err.message, cause: err.cause ? err.cause.message : null });
      }
    }
    if (resource === 'passthrough') {
      // Stream the service's bytes and content type through unchanged.
      const r = await fetch(`${UPSTREAM}/${req.query.what || 'text'}`);
      res.status(r.status).type(r.headers.get('content-type'));
      return res.send(Buffer.from(await r.arrayBuffer()));
    }
    res.status(404).json({ error: 'no route', method: req.method, path: req.path });
  },
};
