// Plain node:http, the way older SDKs talk to services.
const http = require('node:http');

function request(method, url, body, headers) {
  return new Promise((resolve, reject) => {
    const onResponse = (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    };
    const req =
      typeof url === 'string'
        ? http.request(url, { method, headers }, onResponse)
        : http.request({ ...url, method, headers }, onResponse);
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

function getJson(url) {
  return new Promise((resolve, reject) => {
    http.get(url, (res) => {
      let raw = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (raw += d));
      res.on('end', () => resolve({ status: res.statusCode, json: JSON.parse(raw) }));
    }).on('error', reject);
  });
}

module.exports = {
  main: async function (event) {
    const base = process.env.UPSTREAM_URL;
    const cart = await getJson(`${base}/carts/3`);
    const payload = JSON.stringify({ via: 'node:http', n: 3 });
    const echo = await request('POST', `${base}/echo?x=1`, payload, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(payload),
      'X-Custom': 'yes',
    });
    const u = new URL(`${base}/stock?sku=B-200`);
    const stock = await request('GET', { hostname: u.hostname, port: u.port, path: u.pathname + u.search });
    let refused;
    try {
      const closedPort = new URL(base);
      closedPort.port = '1'; // nothing listens there
      await request('GET', closedPort.href);
    } catch (err) {
      refused = { code: err.code, syscall: err.syscall };
    }
    return {
      cart: { status: cart.status, id: cart.json.id, customer: cart.json.customer.id },
      echo: { status: echo.status, contentType: echo.headers['content-type'], body: JSON.parse(echo.body) },
      stock: { status: stock.status, body: JSON.parse(stock.body) },
      refused,
      statusText404: http.STATUS_CODES[404],
      methodsIncludePatch: http.METHODS.includes('PATCH'),
    };
  },
};
