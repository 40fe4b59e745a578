// A module-level pg Pool, as Functions keep one: its connections outlive a
// request and serve the next ones. The server's own view (pg_stat_activity)
// shows that the backend that answered the first request answers the
// second; the pool grows under parallel queries up to `max`; a client is
// checked out for a transaction and released. Then the server ends the
// pool's connections (pg_terminate_backend, as a failover or an idle
// timeout on the server does): the pool reports the errors of its idle
// clients, drops them and serves the next request on new connections. A
// connection killed while its query runs fails that query.
const { Pool, Client } = require('pg');

const APP = 'shoal-compat-pool';
const pool = new Pool({ max: 2, application_name: APP });
const poolErrors = [];
pool.on('error', (err) => poolErrors.push({ message: err.message, code: err.code }));
let connects = 0;
pool.on('connect', () => {
  connects += 1;
});

const seen = { firstPid: null, pids: new Set() };

/** The pool's connections as the server sees them. */
async function serverView(client) {
  const { rows } = await client.query(
    'SELECT pid, state FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid() ORDER BY pid',
    [APP],
  );
  return rows;
}

/** A connection of its own, outside the pool, to look at and act on the server. */
async function admin(work) {
  const client = new Client({ application_name: 'shoal-compat-admin' });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const until = async (condition, ms = 3000) => {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  return condition();
};

function counts() {
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, connects };
}

const steps = {
  async first() {
    const { rows } = await pool.query('SELECT pg_backend_pid() AS pid, current_setting($1) AS app', ['application_name']);
    seen.firstPid = rows[0].pid;
    seen.pids.add(rows[0].pid);
    return { app: rows[0].app, pool: counts() };
  },

  // A new request: the same backend (the pool's idle connection) answers.
  async second() {
    const { rows } = await pool.query('SELECT pg_backend_pid() AS pid');
    const view = await admin(serverView);
    return {
      sameBackend: rows[0].pid === seen.firstPid,
      serverSees: view.map((r) => ({ isFirst: r.pid === seen.firstPid, state: r.state })),
      pool: counts(),
    };
  },

  async parallel() {
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => pool.query('SELECT $1::int * 10 AS n, pg_backend_pid() AS pid, pg_sleep(0.05)', [n])),
    );
    for (const r of results) seen.pids.add(r.rows[0].pid);
    const view = await admin(serverView);
    return {
      values: results.map((r) => r.rows[0].n),
      backendsUsed: new Set(results.map((r) => r.rows[0].pid)).size,
      firstStillThere: view.some((r) => r.pid === seen.firstPid),
      serverConnections: view.length,
      pool: counts(),
    };
  },

  async checkout() {
    const client = await pool.connect();
    const during = counts();
    try {
      await client.query('BEGIN');
      await client.query('CREATE TABLE IF NOT EXISTS visits (n int)');
      await client.query('INSERT INTO visits VALUES (1), (2)');
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    const { rows } = await pool.query('SELECT sum(n)::int AS total FROM visits');
    return { during, after: counts(), total: rows[0].total };
  },

  async terminate() {
    const before = counts();
    const terminated = await admin(async (client) => {
      const { rows } = await client.query('SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1', [APP]);
      return rows.map((r) => r.ok);
    });
    const reported = await until(() => poolErrors.length >= terminated.length && pool.totalCount === 0);
    return { before, terminated, reported, poolErrors, after: counts() };
  },

  async recover() {
    const { rows } = await pool.query('SELECT pg_backend_pid() AS pid, sum(n)::int AS total FROM visits');
    const view = await admin(serverView);
    return {
      total: rows[0].total,
      newBackend: !seen.pids.has(rows[0].pid),
      serverConnections: view.length,
      pool: counts(),
    };
  },

  // The server ends a connection while a query runs on it.
  async 'mid-query'() {
    const client = await pool.connect();
    const pid = (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    const events = [];
    client.on('error', (err) => events.push({ error: err.message, code: err.code }));
    client.on('end', () => events.push('end'));
    const slow = client.query('SELECT pg_sleep(5)').then(
      () => 'finished',
      (err) => ({ message: err.message, code: err.code }),
    );
    await new Promise((r) => setTimeout(r, 100));
    const killed = await admin(async (c) => (await c.query('SELECT pg_terminate_backend($1) AS ok', [pid])).rows[0].ok);
    const outcome = await slow;
    await until(() => events.includes('end'));
    client.release(true);
    return { killed, outcome, events, pool: counts() };
  },

  // The server closes a pooled connection that sits idle between requests
  // (idle_session_timeout here; a proxy's or firewall's idle timeout
  // elsewhere). By the next request, which comes later, the pool has
  // dropped it, so that request's first query runs on a new connection.
  async 'idle-timeout'() {
    const client = await pool.connect();
    await client.query("SET idle_session_timeout = '200ms'");
    client.release();
    return { pool: counts() };
  },

  async 'after-idle'() {
    const { rows } = await pool.query('SELECT 2 AS two');
    return { two: rows[0].two, lastPoolError: poolErrors[poolErrors.length - 1], pool: counts() };
  },

  async after() {
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM visits');
    return { rows: rows[0].n, poolErrors: poolErrors.length, pool: counts() };
  },
};

module.exports = {
  async main(event) {
    const step = event.extensions.request.query.step;
    try {
      return { step, result: await steps[step]() };
    } catch (err) {
      return { step, failed: { message: err.message, code: err.code } };
    }
  },
};
