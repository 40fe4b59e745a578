// Forward an order to a backend with auth headers; echo what the backend saw.
module.exports = {
  main: async function (event) {
    const order = event.data || {};
    const base = process.env.UPSTREAM_URL;
    const created = await fetch(`${base}/orders`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(order),
    });
    const createdBody = await created.json();

    const echoed = await fetch(`${base}/echo?source=kyma&retry=0`, {
      method: 'PUT',
      headers: new Headers({
        'content-type': 'application/json',
        authorization: 'Bearer abc.def',
        'x-api-key': process.env.API_KEY,
        'X-Trace': 'trace-1',
      }),
      body: JSON.stringify({ orderId: createdBody.orderId, items: order.items }),
    }).then((r) => r.json());

    const textReply = await fetch(`${base}/echo`, { method: 'POST', body: 'raw text body' }).then((r) => r.json());

    return {
      created: { status: created.status, location: created.headers.get('location'), body: createdBody },
      echoed,
      textReply: { headers: textReply.headers, body: textReply.body },
    };
  },
};
