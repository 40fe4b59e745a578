// An API client built with axios (Node http adapter).
const axios = require('axios');

const client = axios.create({
  baseURL: process.env.UPSTREAM_URL,
  timeout: 2000,
  headers: { 'X-Client': 'kyma-fn' },
});

module.exports = {
  main: async function (event) {
    const cart = await client.get('/carts/1');
    const stock = await client.get('/stock', { params: { sku: 'C-300' } });
    const order = await client.post('/orders', { sku: 'C-300', qty: 2 });
    const echoed = await client.put('/echo', 'plain', { headers: { 'Content-Type': 'text/plain' } });
    const gz = await client.get('/gzip');
    const bytes = await client.get('/bytes', { responseType: 'arraybuffer' });

    let notFound;
    try {
      await client.get('/status/404');
    } catch (err) {
      notFound = { isAxiosError: axios.isAxiosError(err), status: err.response.status, data: err.response.data, message: err.message };
    }
    let timedOut;
    try {
      await client.get('/slow', { params: { ms: 500 }, timeout: 50 });
    } catch (err) {
      timedOut = { code: err.code, message: err.message };
    }
    const tolerated = await client.get('/status/409', { validateStatus: () => true });

    return {
      cart: { status: cart.status, id: cart.data.id, items: cart.data.items.length, contentType: cart.headers['content-type'] },
      stock: stock.data,
      order: { status: order.status, data: order.data, location: order.headers.location },
      echoed: { headers: echoed.data.headers, body: echoed.data.body },
      gzip: gz.data,
      bytes: { isBuffer: Buffer.isBuffer(bytes.data), length: bytes.data.length },
      notFound,
      timedOut,
      tolerated: { status: tolerated.status, data: tolerated.data },
    };
  },
};
