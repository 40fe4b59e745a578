// Calling an internal HTTPS service signed by a private CA with node:https.
const https = require('node:https');

const agent = new https.Agent({ ca: process.env.UPSTREAM_CA, keepAlive: false });

function getJson(path, options = {}) {
  return new Promise((resolve, reject) => {
    const req = https.get(`${process.env.UPSTREAM_HTTPS_URL}${path}`, { agent, ...options }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode, json: text ? JSON.parse(text) : null, authorized: res.socket.authorized, authorizationError: res.socket.authorizationError ?? null });
      });
    });
    req.on('error', reject);
  });
}

function postJson(path, body) {
  const payload = JSON.stringify(body);
  const u = new URL(process.env.UPSTREAM_HTTPS_URL + path);
  return new Promise((resolve, reject) => {
    const req = https.request(
      { hostname: u.hostname, port: u.port, path: u.pathname, method: 'POST', ca: process.env.UPSTREAM_CA, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), 'x-secure': '1' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode, json: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

module.exports = {
  main: async function () {
    const cart = await getJson('/carts/4');
    const echoed = await postJson('/echo', { secure: true });
    let untrusted;
    try {
      await getJson('/carts/1', { agent: new https.Agent({ keepAlive: false }) });
      untrusted = 'accepted';
    } catch (err) {
      untrusted = err.code;
    }
    const insecure = await getJson('/stock?sku=A-100', { agent: new https.Agent({ rejectUnauthorized: false }) });
    return {
      cart: { status: cart.status, id: cart.json.id, authorized: cart.authorized },
      echoed: { status: echoed.status, method: echoed.json.method, headers: echoed.json.headers, json: echoed.json.json },
      untrusted,
      insecure: { status: insecure.status, body: insecure.json, authorized: insecure.authorized, authorizationError: insecure.authorizationError },
    };
  },
};
