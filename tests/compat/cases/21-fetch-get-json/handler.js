// Look up a cart in a backend and compute its total.
module.exports = {
  main: async function (event) {
    const id = event.extensions.request.query.cart || '1';
    const res = await fetch(`${process.env.UPSTREAM_URL}/carts/${id}`, {
      headers: { Accept: 'application/json', 'X-Correlation-Id': 'corr-' + id },
    });
    if (!res.ok) {
      event.setResponseStatus(res.status);
      return { error: `cart ${id} not found`, upstreamStatus: res.status, upstreamBody: await res.json() };
    }
    const cart = await res.json();
    const total = cart.items.reduce((sum, it) => sum + it.qty * it.price, 0);
    return {
      cartId: cart.id,
      customer: cart.customer.name,
      lines: cart.items.length,
      total: Math.round(total * 100) / 100,
      currency: cart.currency,
      status: res.status,
      statusText: res.statusText,
      contentType: res.headers.get('content-type'),
    };
  },
};
