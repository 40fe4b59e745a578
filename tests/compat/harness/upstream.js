'use strict';
// A tiny upstream HTTP server for the corpus's outbound-HTTP cases. 127.0.0.1 only.
//
//   node upstream.js [port [https-port]]
//       prints `SHOAL_COMPAT_UPSTREAM http://127.0.0.1:<port> https://127.0.0.1:<https-port>`
//   require('./upstream').start(port?, httpsPort?) -> Promise<{ url, httpsUrl, ca, close() }>
//
// The same endpoints are served over plain HTTP (`url`) and over TLS (`httpsUrl`) with the
// self-signed test-only certificate in tls/ (CN shoal-compat-upstream, SAN IP:127.0.0.1);
// `ca` is that certificate's PEM, handed to Functions as UPSTREAM_CA.
//
// Every answer is deterministic for a fresh server (the /orders counter and the
// /publish log start empty), so a Function's result does not depend on the port.
//
// Endpoints:
//   GET  /carts/:id          a JSON cart (ids 1..99; others 404 JSON)
//   GET  /stock?sku=X        JSON stock level derived from the sku (400 without sku)
//   GET  /slow?ms=N          answers {"sleptMs":N} after N ms (N <= 10000)
//   ANY  /echo               echoes method, path, query, selected headers and the body
//   GET  /gzip               gzip-encoded JSON (Content-Encoding: gzip)
//   GET  /redirect           302 to /carts/1
//   ANY  /status/:code       that status with a JSON body
//   GET  /big?kb=N           N KiB of text/plain (N <= 4096)
//   GET  /bytes              the 256 bytes 0x00..0xff, application/octet-stream
//   GET  /text               text/plain "hello from upstream\n"
//   POST /orders             201 {"orderId":"ORD-1001",...}, counting up per server
//   POST /publish            records a CloudEvent (Kyma's publisher proxy), answers 204
//   GET  /published          the CloudEvents recorded so far
// /echo returns only headers that a Function sets itself: content-type, authorization
// and x-*; client-chosen ones (user-agent, accept, accept-encoding, host) differ by client.

const fs = require('node:fs');
const path = require('node:path');
const http = require('node:http');
const https = require('node:https');
const zlib = require('node:zlib');

const TLS_CERT = fs.readFileSync(path.join(__dirname, 'tls', 'upstream-cert.pem'), 'utf8');
const TLS_KEY = fs.readFileSync(path.join(__dirname, 'tls', 'upstream-key.pem'), 'utf8');

const CATALOG = [
  { sku: 'A-100', name: 'Coffee beans 1kg', price: 12.5 },
  { sku: 'B-200', name: 'Filter papers', price: 3.99 },
  { sku: 'C-300', name: 'Ceramic mug', price: 8.0 },
  { sku: 'D-400', name: 'Milk frother', price: 24.9 },
];

function cart(id) {
  const items = [];
  for (let i = 0; i < 1 + (id % 3) + 1; i++) {
    const product = CATALOG[(id + i) % CATALOG.length];
    items.push({ sku: product.sku, name: product.name, qty: 1 + ((id + i) % 4), price: product.price });
  }
  return { id, customer: { id: `C-${1000 + id}`, name: id === 1 ? 'Ada Lovelace' : `Customer ${id}` }, currency: 'EUR', items };
}

function stock(sku) {
  let sum = 0;
  for (const ch of sku) sum += ch.codePointAt(0);
  return { sku, available: sum % 50, warehouse: sum % 2 === 0 ? 'WDF' : 'FRA' };
}

function sendJson(res, status, value, extraHeaders) {
  const body = Buffer.from(JSON.stringify(value));
  res.writeHead(status, Object.assign({ 'content-type': 'application/json; charset=utf-8', 'content-length': body.length }, extraHeaders || {}));
  res.end(body);
}

function selectedHeaders(headers) {
  const out = {};
  for (const name of Object.keys(headers).sort()) {
    if (name === 'content-type' || name === 'authorization' || name.startsWith('x-')) out[name] = headers[name];
  }
  return out;
}

function start(port = 0, httpsPort = 0) {
  let orderCounter = 1000;
  const published = [];

  const handle = (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url, 'http://upstream.local');
      const p = url.pathname;
      let m;
      if (req.method === 'GET' && (m = /^\/carts\/(\d+)$/.exec(p))) {
        const id = Number(m[1]);
        if (id < 1 || id > 99) return sendJson(res, 404, { error: 'cart not found', id });
        return sendJson(res, 200, cart(id));
      }
      if (req.method === 'GET' && p === '/stock') {
        const sku = url.searchParams.get('sku');
        if (!sku) return sendJson(res, 400, { error: 'sku is required' });
        return sendJson(res, 200, stock(sku));
      }
      if (p === '/slow') {
        const ms = Math.min(Number(url.searchParams.get('ms') || '200'), 10000);
        const timer = setTimeout(() => sendJson(res, 200, { sleptMs: ms }), ms);
        res.on('close', () => clearTimeout(timer));
        return undefined;
      }
      if (p === '/echo') {
        const text = body.toString('utf8');
        let json;
        if ((req.headers['content-type'] || '').includes('json')) {
          try {
            json = JSON.parse(text);
          } catch {
            json = null;
          }
        }
        return sendJson(res, 200, {
          method: req.method,
          path: p,
          query: Object.fromEntries(url.searchParams),
          headers: selectedHeaders(req.headers),
          body: text,
          bodyLength: body.length,
          json,
        });
      }
      if (req.method === 'GET' && p === '/gzip') {
        const payload = zlib.gzipSync(JSON.stringify({ compressed: true, items: [1, 2, 3], note: 'this body was gzip-encoded' }));
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': payload.length });
        return res.end(payload);
      }
      if (req.method === 'GET' && p === '/redirect') {
        res.writeHead(302, { location: '/carts/1', 'content-length': 0 });
        return res.end();
      }
      if ((m = /^\/status\/(\d{3})$/.exec(p))) {
        const code = Number(m[1]);
        return sendJson(res, code, { status: code, message: http.STATUS_CODES[code] || 'Unknown' });
      }
      if (req.method === 'GET' && p === '/big') {
        const kb = Math.min(Number(url.searchParams.get('kb') || '64'), 4096);
        const unit = 'abcdefghijklmnopqrstuvwxyz012345'; // 32 bytes
        const payload = Buffer.from(unit.repeat(kb * 32));
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': payload.length });
        return res.end(payload);
      }
      if (req.method === 'GET' && p === '/bytes') {
        const payload = Buffer.alloc(256);
        for (let i = 0; i < 256; i++) payload[i] = i;
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': 256 });
        return res.end(payload);
      }
      if (req.method === 'GET' && p === '/text') {
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        return res.end('hello from upstream\n');
      }
      if (req.method === 'POST' && p === '/orders') {
        let order;
        try {
          order = JSON.parse(body.toString('utf8'));
        } catch {
          return sendJson(res, 400, { error: 'invalid JSON' });
        }
        orderCounter += 1;
        const orderId = `ORD-${orderCounter}`;
        return sendJson(res, 201, { orderId, status: 'created', received: order }, { location: `/orders/${orderId}` });
      }
      if (req.method === 'POST' && p === '/publish') {
        const headers = {};
        for (const name of Object.keys(req.headers).sort()) {
          if (name === 'content-type' || name.startsWith('ce-')) headers[name] = req.headers[name];
        }
        let parsed = null;
        try {
          parsed = JSON.parse(body.toString('utf8'));
        } catch {
          parsed = body.toString('utf8');
        }
        published.push({ headers, body: parsed });
        res.writeHead(204);
        return res.end();
      }
      if (req.method === 'GET' && p === '/published') {
        return sendJson(res, 200, { count: published.length, events: published });
      }
      return sendJson(res, 404, { error: 'no such endpoint', path: p });
    });
  };

  const server = http.createServer(handle);
  const tlsServer = https.createServer({ cert: TLS_CERT, key: TLS_KEY }, handle);
  // WebSocket echo on /ws/echo (ws and wss): a greeting naming the
  // x-client header and the agreed subprotocol ("chat" when offered), then
  // every message back as it came (text or binary); "close-me" closes with
  // 4001 "asked to close".
  for (const srv of [server, tlsServer]) {
    // Required here, not at the top: run-case.js loads this file before it
    // installs the harness's own dependencies (ws among them) on a fresh clone.
    const { WebSocketServer } = require('ws');
    const wss = new WebSocketServer({
      server: srv,
      path: '/ws/echo',
      handleProtocols: (protocols) => (protocols.has('chat') ? 'chat' : false),
    });
    wss.on('connection', (socket, req) => {
      socket.send(JSON.stringify({ hello: req.headers['x-client'] || null, protocol: socket.protocol }));
      socket.on('message', (data, isBinary) => {
        if (!isBinary && data.toString() === 'close-me') {
          socket.close(4001, 'asked to close');
          return;
        }
        socket.send(data, { binary: isBinary });
      });
    });
  }
  const listen = (srv, p) =>
    new Promise((resolve, reject) => {
      srv.once('error', reject);
      srv.listen(p, '127.0.0.1', () => resolve(srv.address().port));
    });
  const closeOne = (srv) =>
    new Promise((done) => {
      srv.close(() => done());
      srv.closeAllConnections();
    });

  return Promise.all([listen(server, port), listen(tlsServer, httpsPort)]).then(([p1, p2]) => ({
    url: `http://127.0.0.1:${p1}`,
    httpsUrl: `https://127.0.0.1:${p2}`,
    ca: TLS_CERT,
    close: () => Promise.all([closeOne(server), closeOne(tlsServer)]),
  }));
}

module.exports = { start };

if (require.main === module) {
  start(Number(process.argv[2] || 0), Number(process.argv[3] || 0)).then(({ url, httpsUrl }) => {
    process.stdout.write(`SHOAL_COMPAT_UPSTREAM ${url} ${httpsUrl}\n`);
  });
}
