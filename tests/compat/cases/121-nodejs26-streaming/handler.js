// An export Function (nodejs26) that streams its answer with res.write / res.end, as
// exports, progress feeds and server-sent events do.
const { Readable } = require('node:stream');
const { pipeline } = require('node:stream/promises');
const { setTimeout: sleep } = require('node:timers/promises');

const ORDERS = [
  { id: 17, customer: 'Ada', total: 25.5 },
  { id: 18, customer: 'Grace', total: 99 },
  { id: 19, customer: 'Linus', total: 7.25 },
];

async function* csvRows() {
  yield 'id,customer,total\n';
  for (const o of ORDERS) {
    await sleep(5);
    yield `${o.id},${o.customer},${o.total}\n`;
  }
}

module.exports = {
  main: async function (req, res) {
    switch (req.path) {
      case '/progress': {
        // No content type set: Node sends none.
        res.write('starting\n');
        for (let i = 1; i <= 3; i++) {
          await sleep(20);
          res.write(`batch ${i} done\n`);
        }
        res.end('finished\n');
        return;
      }
      case '/csv': {
        res.set('Content-Type', 'text/csv; charset=utf-8');
        res.set('Content-Disposition', 'attachment; filename="orders.csv"');
        res.write('id,customer,total\n');
        for (const o of ORDERS) res.write(`${o.id},${o.customer},${o.total}\n`);
        res.end();
        return;
      }
      case '/ndjson': {
        res.type('application/x-ndjson');
        for (const o of ORDERS) {
          res.write(JSON.stringify(o) + '\n');
          await sleep(10);
        }
        res.end();
        return;
      }
      case '/events': {
        // Server-sent events: writeHead with the headers in one go.
        res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
        for (const o of ORDERS) {
          res.write(`event: order\nid: ${o.id}\ndata: ${JSON.stringify(o)}\n\n`);
          await sleep(15);
        }
        res.end('event: done\ndata: {}\n\n');
        return;
      }
      case '/created': {
        const body = JSON.stringify({ id: 20, status: 'created' });
        res.writeHead(201, 'Order Created', { 'Content-Type': 'application/json', Location: '/orders/20', 'Content-Length': Buffer.byteLength(body) });
        res.end(body);
        return;
      }
      case '/raw-headers': {
        // writeHead with an array of name/value pairs (a repeated header).
        res.writeHead(200, ['Content-Type', 'text/plain', 'X-Shard', 'eu-1', 'X-Shard', 'eu-2']);
        res.end('raw header pairs');
        return;
      }
      case '/bytes': {
        res.type('application/octet-stream');
        res.write(Buffer.from([0x00, 0x01, 0x02]));
        res.write('aGVsbG8=', 'base64');
        res.end(Buffer.from([0xfe, 0xff]));
        return;
      }
      case '/pipeline': {
        res.type('text/csv');
        await pipeline(Readable.from(csvRows()), res);
        return;
      }
      case '/flush': {
        // Headers first (the client sees the status at once), the body later.
        res.status(200).set('X-Export-Id', 'E-1').type('text');
        res.flushHeaders();
        await sleep(30);
        res.end(`headersSent before the body: ${res.headersSent}\n`);
        return;
      }
      case '/empty': {
        res.writeHead(200);
        res.end();
        return;
      }
      case '/write-empty-string': {
        res.write('');
        await sleep(5);
        res.end();
        return;
      }
      default:
        res.status(404).end();
    }
  },
};
