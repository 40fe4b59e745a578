// ioredis, as Functions use Redis for caches, counters, rate limits and
// fan-out: one module-level client (its connection serves every request),
// rediss:// with the server's CA,
// strings with expiry, hashes, lists, sets and sorted sets, MULTI/EXEC and
// pipelines, a Lua script, pub/sub between a subscriber connection and the
// publishing one, a value larger than one socket read, the errors Redis and
// ioredis give, and a client the server kills (CLIENT KILL) reconnecting.
const crypto = require('node:crypto');
const Redis = require('ioredis');

const redis = new Redis(process.env.REDIS_URL, { connectionName: 'shoal-compat' });
let firstClientId = null;
const lifecycle = [];
for (const event of ['connect', 'ready', 'close', 'reconnecting', 'end']) redis.on(event, () => lifecycle.push(event));
redis.on('error', (err) => lifecycle.push(`error: ${err.message}`));

function describeError(err) {
  const out = { name: err.name, message: err.message };
  for (const key of ['code', 'errno', 'syscall', 'address', 'command']) if (err[key] !== undefined) out[key] = err[key];
  if (out.command) out.command = { name: err.command.name, args: err.command.args };
  return out;
}

const steps = {
  async basics() {
    firstClientId = await redis.client('ID');
    return {
      ping: await redis.ping(),
      set: await redis.set('greeting', 'héllo wörld'),
      get: await redis.get('greeting'),
      missing: await redis.get('nope'),
      nx: [await redis.set('lock', 'a', 'EX', 30, 'NX'), await redis.set('lock', 'b', 'EX', 30, 'NX')],
      ttlSet: (await redis.ttl('lock')) > 0,
      incr: [await redis.incr('counter'), await redis.incrby('counter', 41), await redis.decr('counter')],
      float: await redis.incrbyfloat('float', 1.5),
      mset: await redis.mset({ a: '1', b: '2' }),
      mget: await redis.mget('a', 'b', 'c'),
      buffer: (await redis.getBuffer('greeting')).toString('hex'),
      binary: await redis.set('bytes', Buffer.from([0, 1, 2, 254, 255])).then(() => redis.getBuffer('bytes')).then((b) => [...b]),
      del: await redis.del('a', 'b', 'c'),
      exists: await redis.exists('greeting', 'a'),
      type: await redis.type('counter'),
      name: await redis.client('GETNAME'),
    };
  },

  async structures() {
    await redis.hset('user:1', { name: 'Ada', email: 'ada@example.test', visits: 3 });
    await redis.rpush('queue', 'job-1', 'job-2', 'job-3');
    await redis.sadd('tags', 'b', 'a', 'c', 'a');
    await redis.zadd('scores', 30, 'carol', 10, 'alice', 20, 'bob');
    return {
      hgetall: await redis.hgetall('user:1'),
      hincr: await redis.hincrby('user:1', 'visits', 2),
      hmget: await redis.hmget('user:1', 'name', 'missing'),
      lpop: await redis.lpop('queue'),
      lrange: await redis.lrange('queue', 0, -1),
      llen: await redis.llen('queue'),
      smembers: (await redis.smembers('tags')).sort(),
      sismember: await redis.sismember('tags', 'b'),
      zrange: await redis.zrange('scores', 0, -1, 'WITHSCORES'),
      zrevrank: await redis.zrevrank('scores', 'alice'),
      scan: (await redis.scan(0, 'MATCH', 'user:*', 'COUNT', 100))[1],
    };
  },

  async multi() {
    const exec = await redis.multi().set('m:a', 'x').incr('m:n').incr('m:n').get('m:a').lpush('m:l', 1, 2).exec();
    const failing = await redis.multi().set('m:s', 'text').incr('m:s').get('m:s').exec();
    const pipeline = await redis.pipeline().set('p:1', 'one').get('p:1').hgetall('user:1').del('p:1').exec();
    await redis.watch('m:n');
    await redis.set('m:n', '100');
    const aborted = await redis.multi().incr('m:n').exec();
    redis.defineCommand('bump', {
      numberOfKeys: 1,
      lua: "local v = redis.call('INCRBY', KEYS[1], ARGV[1]); return {v, redis.call('TYPE', KEYS[1])['ok']}",
    });
    return {
      exec,
      failing: failing.map(([err, value]) => [err ? err.message : null, value]),
      pipeline,
      aborted,
      script: await redis.bump('script:counter', 5),
      eval: await redis.eval('return {KEYS[1], ARGV[1], 42}', 1, 'k', 'v'),
    };
  },

  async pubsub() {
    const subscriber = redis.duplicate();
    const received = [];
    let done;
    const all = new Promise((r) => (done = r));
    subscriber.on('message', (channel, message) => {
      received.push({ channel, message });
      if (received.length === 3) done();
    });
    subscriber.on('pmessage', (pattern, channel, message) => {
      received.push({ pattern, channel, message });
      if (received.length === 3) done();
    });
    const subscribed = await subscriber.subscribe('orders', 'alerts');
    await subscriber.psubscribe('audit.*');
    const delivered = [
      await redis.publish('orders', JSON.stringify({ id: 1, status: 'paid' })),
      await redis.publish('nobody-listens', 'x'),
      await redis.publish('alerts', 'disk full'),
      await redis.publish('audit.login', 'ada'),
    ];
    await all;
    const whileSubscribed = await subscriber.get('greeting').then(() => 'allowed', (err) => err.message);
    await subscriber.quit();
    return { subscribed, delivered, received, whileSubscribed };
  },

  // A later request: the module-level client's connection is still the same.
  async reuse() {
    const id = await redis.client('ID');
    const clients = (await redis.client('LIST')).trim().split('\n').filter((l) => / name=shoal-compat /.test(l)).length;
    return { sameConnection: id === firstClientId, namedClients: clients, lifecycle, status: redis.status };
  },

  async large() {
    const value = crypto.createHash('sha256').update('seed').digest('hex').repeat(40000);
    await redis.set('big', value);
    const back = await redis.get('big');
    const many = await redis.pipeline(Array.from({ length: 2000 }, (_, i) => ['set', `k:${i}`, `v${i}`])).exec();
    const values = await redis.mget(Array.from({ length: 2000 }, (_, i) => `k:${i}`));
    return { length: back.length, same: back === value, pipelined: many.length, lastValue: values[1999] };
  },

  async errors() {
    const attempt = (p) => p.then((v) => ({ value: v }), describeError);
    const refused = new Redis({ port: 1, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    const refusedEvents = [];
    refused.on('error', (err) => refusedEvents.push(err.code));
    const refusedConnect = await attempt(refused.connect());
    return {
      wrongType: await attempt(redis.hget('greeting', 'field')),
      unknownCommand: await attempt(redis.call('NOSUCHCOMMAND', 'x')),
      wrongArgs: await attempt(redis.call('GET')),
      notInteger: await attempt(redis.incr('greeting')),
      refusedConnect,
      refusedEvents,
      refusedStatus: refused.status,
    };
  },

  // rediss:// with the server's CA (tls.connect), and without it.
  async tls() {
    const secure = new Redis(process.env.REDIS_TLS_URL, { tls: { ca: process.env.SERVICE_CA }, lazyConnect: true });
    await secure.connect();
    const result = { ping: await secure.ping(), get: await secure.get('greeting'), encrypted: secure.stream.encrypted, authorized: secure.stream.authorized };
    await secure.quit();
    const untrusted = new Redis(process.env.REDIS_TLS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    const untrustedErrors = [];
    untrusted.on('error', (err) => untrustedErrors.push({ message: err.message, code: err.code }));
    result.untrusted = await untrusted.connect().then(() => 'connected', describeError);
    result.untrustedErrors = untrustedErrors;
    return result;
  },

  // The server drops the client's connection (CLIENT KILL, as a failover or
  // the server's idle timeout would): ioredis reconnects and the next
  // command works.
  async 'server-kill'() {
    const admin = redis.duplicate({ connectionName: 'admin' });
    const killed = await admin.client('KILL', 'ID', String(firstClientId));
    await admin.quit();
    const afterKill = await redis.get('greeting');
    return { killed, afterKill, lifecycle, status: redis.status };
  },

  async 'after-kill'() {
    const id = await redis.client('ID');
    return { newConnection: id !== firstClientId, get: await redis.get('counter'), status: redis.status };
  },
};

module.exports = {
  async main(event) {
    const step = event.extensions.request.query.step;
    try {
      return { step, result: await steps[step]() };
    } catch (err) {
      return { step, crashed: describeError(err) };
    }
  },
};
