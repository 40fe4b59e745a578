// A Function that updates a database with `pg` (node-postgres), the driver
// most Functions use: a Client per request, connection details from the
// PG* environment variables as pg reads them. Types coming back, a
// parameterised insert with RETURNING, a transaction rolled back and one
// committed, the server's errors as pg reports them, a result larger than
// one socket read, LISTEN/NOTIFY between two connections, and a host name
// (localhost) instead of an address.
const crypto = require('node:crypto');
const { Client } = require('pg');

async function withClient(config, work) {
  const client = new Client(config);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function describeError(err) {
  const out = { message: err.message, name: err.name };
  for (const key of ['code', 'severity', 'detail', 'hint', 'position', 'schema', 'table', 'column', 'constraint', 'routine']) {
    if (err[key] !== undefined) out[key] = err[key];
  }
  return out;
}

const steps = {
  types: () =>
    withClient({}, async (client) => {
      const result = await client.query(`
        SELECT 1 + 1 AS two, 'héllo wörld ✓'::text AS greeting, 12345678901234::bigint AS big,
               3.14159::numeric(10,5) AS pi, 2.5::float8 AS ratio, true AS yes, NULL::int AS nothing,
               '{"a":[1,2,{"b":null}]}'::jsonb AS doc, ARRAY[1,2,3]::int[] AS ints, ARRAY['x','y']::text[] AS words,
               '\\xdeadbeef'::bytea AS bytes, '2024-02-29 12:34:56.789+00'::timestamptz AS at,
               '2024-02-29'::date::text AS day, interval '1 day 2 hours' AS span, current_user AS who,
               current_database() AS db, 'e5c1f1b2-3c4d-4e5f-8a9b-0c1d2e3f4a5b'::uuid AS id`);
      const row = result.rows[0];
      return {
        command: result.command,
        rowCount: result.rowCount,
        fields: result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
        row: { ...row, bytes: row.bytes.toString('hex'), at: row.at.toISOString(), span: row.span.toPostgres() },
        types: Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v === null ? 'null' : Array.isArray(v) ? 'array' : Buffer.isBuffer(v) ? 'buffer' : v instanceof Date ? 'date' : typeof v])),
        rowMode: (await client.query({ text: 'SELECT $1::int AS a, $2::text AS b', values: [7, 'seven'], rowMode: 'array' })).rows,
      };
    }),

  insert: () =>
    withClient({}, async (client) => {
      await client.query('CREATE TABLE orders (id serial PRIMARY KEY, sku text NOT NULL UNIQUE, qty int NOT NULL CHECK (qty > 0), tags text[], meta jsonb, created date)');
      const one = await client.query(
        'INSERT INTO orders (sku, qty, tags, meta, created) VALUES ($1, $2, $3, $4, $5) RETURNING id, sku, qty, tags, meta',
        ['A-100', 2, ['coffee', 'beans'], { source: 'webhook', retries: 0 }, '2024-05-06'],
      );
      const many = await client.query(
        'INSERT INTO orders (sku, qty) SELECT * FROM unnest($1::text[], $2::int[]) RETURNING id',
        [['B-200', 'C-300', 'D-400'], [1, 5, 3]],
      );
      const update = await client.query('UPDATE orders SET qty = qty * 10 WHERE qty >= $1', [3]);
      const select = await client.query('SELECT sku, qty FROM orders WHERE sku = ANY($1) ORDER BY id', [['A-100', 'C-300', 'Z-999']]);
      const named = await client.query({ name: 'by-sku', text: 'SELECT id, qty FROM orders WHERE sku = $1', values: ['D-400'] });
      const namedAgain = await client.query({ name: 'by-sku', text: 'SELECT id, qty FROM orders WHERE sku = $1', values: ['B-200'] });
      const del = await client.query('DELETE FROM orders WHERE qty > $1 RETURNING sku', [20]);
      return {
        inserted: one.rows,
        many: { command: many.command, rowCount: many.rowCount, ids: many.rows.map((r) => r.id) },
        update: { command: update.command, rowCount: update.rowCount },
        select: select.rows,
        prepared: [named.rows, namedAgain.rows],
        deleted: { rowCount: del.rowCount, rows: del.rows },
        remaining: (await client.query('SELECT count(*)::int AS n FROM orders')).rows[0].n,
      };
    }),

  transaction: () =>
    withClient({}, async (client) => {
      await client.query('CREATE TABLE accounts (name text PRIMARY KEY, balance int NOT NULL CHECK (balance >= 0))');
      await client.query("INSERT INTO accounts VALUES ('alice', 100), ('bob', 20)");
      const balances = async () => (await client.query('SELECT name, balance FROM accounts ORDER BY name')).rows;

      await client.query('BEGIN');
      await client.query("UPDATE accounts SET balance = balance - 30 WHERE name = 'alice'");
      await client.query("UPDATE accounts SET balance = balance + 30 WHERE name = 'bob'");
      const inside = await balances();
      await client.query('ROLLBACK');
      const afterRollback = await balances();

      // A transfer that breaks the CHECK: the error aborts the transaction.
      let failed = null;
      let afterError = null;
      await client.query('BEGIN');
      try {
        await client.query("UPDATE accounts SET balance = balance + 500 WHERE name = 'alice'");
        await client.query("UPDATE accounts SET balance = balance - 500 WHERE name = 'bob'");
      } catch (err) {
        failed = describeError(err);
        try {
          await client.query('SELECT 1');
        } catch (inner) {
          afterError = describeError(inner);
        }
        await client.query('ROLLBACK');
      }

      await client.query('BEGIN');
      await client.query("UPDATE accounts SET balance = balance - 15 WHERE name = 'alice'");
      await client.query('SAVEPOINT before_bonus');
      await client.query("UPDATE accounts SET balance = balance + 1000 WHERE name = 'bob'");
      await client.query('ROLLBACK TO SAVEPOINT before_bonus');
      await client.query("UPDATE accounts SET balance = balance + 15 WHERE name = 'bob'");
      await client.query('COMMIT');
      return { inside, afterRollback, failed, afterError, committed: await balances() };
    }),

  errors: () =>
    withClient({}, async (client) => {
      const attempt = async (sql, values) => {
        try {
          await client.query(sql, values);
          return 'no error';
        } catch (err) {
          return describeError(err);
        }
      };
      await client.query('CREATE TABLE users (email text PRIMARY KEY, age int)');
      await client.query("INSERT INTO users VALUES ('a@example.test', 30)");
      return {
        syntax: await attempt('SELEC 1'),
        missingTable: await attempt('SELECT * FROM no_such_table'),
        duplicate: await attempt('INSERT INTO users VALUES ($1, $2)', ['a@example.test', 31]),
        badInput: await attempt('SELECT $1::int', ['not a number']),
        divide: await attempt('SELECT 1 / 0'),
        notNull: await attempt('INSERT INTO users (email) VALUES (NULL)'),
        tooFewParams: await attempt('SELECT $1::int + $2::int', [1]),
        statementTimeout: await attempt("SET LOCAL statement_timeout = '50ms'; SELECT pg_sleep(2)"),
        raised: await attempt("DO $$ BEGIN RAISE EXCEPTION 'custom failure %', 42 USING HINT = 'try again', ERRCODE = 'P0001'; END $$"),
        stillUsable: (await client.query('SELECT count(*)::int AS n FROM users')).rows[0].n,
      };
    }),

  // About 1.6 MB of rows: many socket reads, and rows split across them.
  large: () =>
    withClient({}, async (client) => {
      const result = await client.query("SELECT i, repeat(md5(i::text), 2) AS pad FROM generate_series(1, 20000) AS i");
      const hash = crypto.createHash('sha256');
      for (const row of result.rows) hash.update(`${row.i}:${row.pad}\n`);
      const echo = 'ü'.repeat(300000);
      const back = (await client.query('SELECT $1::text AS t, length($1::text) AS n', [echo])).rows[0];
      return { rows: result.rowCount, first: result.rows[0], last: result.rows[19999], sha256: hash.digest('hex'), echoLength: back.n, echoSame: back.t === echo };
    }),

  notify: async () => {
    const listener = new Client();
    const notifier = new Client();
    await Promise.all([listener.connect(), notifier.connect()]);
    const received = [];
    const all = new Promise((resolve) => {
      listener.on('notification', (msg) => {
        received.push({ channel: msg.channel, payload: msg.payload, fromNotifier: msg.processId === notifierPid });
        if (received.length === 3) resolve();
      });
    });
    const notifierPid = (await notifier.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    await listener.query('LISTEN order_events');
    await listener.query('LISTEN "Mixed Case"');
    await notifier.query("NOTIFY order_events, 'created:1'");
    await notifier.query("SELECT pg_notify('order_events', $1)", [JSON.stringify({ id: 2, status: 'paid' })]);
    await notifier.query('NOTIFY "Mixed Case"');
    await all;
    await Promise.all([listener.end(), notifier.end()]);
    return { received };
  },

  // DATABASE_URL with a host name: the driver resolves `localhost` as Node does.
  localhost: () =>
    withClient(
      { connectionString: `postgres://${process.env.PGUSER}:${process.env.PGPASSWORD}@localhost:${process.env.PGPORT}/${process.env.PGDATABASE}` },
      async (client) => {
        const row = (await client.query('SELECT inet_client_addr()::text AS addr, current_user AS who')).rows[0];
        return { who: row.who, addr: row.addr };
      },
    ),
};

module.exports = {
  async main(event) {
    const step = event.extensions.request.query.step;
    try {
      return { step, result: await steps[step]() };
    } catch (err) {
      return { step, failed: describeError(err) };
    }
  },
};
