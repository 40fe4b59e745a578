// The `redis` package (node-redis 5): a module-level client connected once
// (its connection serves the later requests), strings, hashes and JSON
// values, MULTI/EXEC and pipelines, pub/sub with a duplicate() subscriber
// receiving what the main client publishes, rediss:// with the server's CA,
// and the errors it reports
// (a reply error, a refused connection without reconnecting).
const { createClient } = require('redis');

const client = createClient({ url: process.env.REDIS_URL, name: 'shoal-compat' });
const events = [];
client.on('error', (err) => events.push(`error: ${err.message}`));
client.on('ready', () => events.push('ready'));
const connected = client.connect();
let firstId = null;

function describeError(err) {
  const out = { name: err.name, message: err.message };
  for (const key of ['code', 'errno', 'syscall', 'address', 'port']) if (err[key] !== undefined) out[key] = err[key];
  return out;
}

const steps = {
  async basics() {
    firstId = await client.clientId();
    return {
      ping: await client.ping(),
      set: await client.set('session:1', JSON.stringify({ user: 'ada', roles: ['admin'] }), { EX: 60 }),
      get: JSON.parse(await client.get('session:1')),
      nx: await client.set('session:1', 'other', { NX: true }),
      hSet: await client.hSet('cart:1', { sku: 'A-100', qty: '2' }),
      hGetAll: await client.hGetAll('cart:1'),
      incr: await client.incrBy('hits', 5),
      expireTime: (await client.ttl('session:1')) > 0,
      mGet: await client.mGet(['hits', 'none']),
      exists: await client.exists(['hits', 'cart:1', 'none']),
    };
  },

  async multi() {
    const exec = await client.multi().set('stock:A', '10').decrBy('stock:A', 3).get('stock:A').rPush('log', ['a', 'b']).exec();
    const pipelined = await Promise.all([client.set('x', '1'), client.incr('x'), client.get('x')]);
    const batch = await client.multi().incr('y').incr('y').execAsPipeline();
    let failed;
    try {
      await client.multi().set('t', 'text').incr('t').exec();
    } catch (err) {
      failed = { name: err.name, message: err.message, replies: err.replies && err.replies.map((r) => (r instanceof Error ? r.message : r)) };
    }
    return { exec, pipelined, batch, failed };
  },

  async pubsub() {
    const subscriber = client.duplicate();
    await subscriber.connect();
    const received = [];
    let done;
    const all = new Promise((r) => (done = r));
    const record = (message, channel) => {
      received.push({ channel, message });
      if (received.length === 3) done();
    };
    await subscriber.subscribe(['orders', 'alerts'], record);
    await subscriber.pSubscribe('audit.*', record);
    const delivered = [];
    delivered.push(await client.publish('orders', JSON.stringify({ id: 7 })));
    delivered.push(await client.publish('alerts', 'cpu high'));
    delivered.push(await client.publish('audit.logout', 'bob'));
    await all;
    await subscriber.unsubscribe(['orders', 'alerts']);
    await subscriber.pUnsubscribe('audit.*');
    await subscriber.close();
    return { delivered, received, subscriberOpen: subscriber.isOpen };
  },

  // rediss:// with the server's CA.
  async tls() {
    const secure = createClient({ url: process.env.REDIS_TLS_URL, socket: { tls: true, ca: process.env.SERVICE_CA } });
    secure.on('error', () => {});
    await secure.connect();
    const result = { ping: await secure.ping(), hits: await secure.get('hits') };
    await secure.close();
    return result;
  },

  async reuse() {
    const id = await client.clientId();
    return { sameConnection: id === firstId, isReady: client.isReady, events };
  },

  async errors() {
    let wrongType;
    try {
      await client.hGet('x', 'field');
    } catch (err) {
      wrongType = describeError(err);
    }
    const refused = createClient({ url: 'redis://127.0.0.1:1', socket: { reconnectStrategy: false } });
    const refusedEvents = [];
    refused.on('error', (err) => refusedEvents.push(err.code || err.message));
    let refusedError;
    try {
      await refused.connect();
    } catch (err) {
      refusedError = describeError(err);
    }
    return { wrongType, refusedError, refusedEvents, refusedOpen: refused.isOpen };
  },
};

module.exports = {
  async main(event) {
    const step = event.extensions.request.query.step;
    try {
      await connected;
      return { step, result: await steps[step]() };
    } catch (err) {
      return { step, crashed: describeError(err) };
    }
  },
};
