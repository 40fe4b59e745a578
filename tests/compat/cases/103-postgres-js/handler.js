// porsager's `postgres` driver: tagged-template queries (parameters, never
// string concatenation), dynamic identifiers and value lists, inserts from
// objects, sql.begin transactions with savepoints, the server's errors,
// a module-level connection pool whose connection serves every request, a
// TLS connection with the server's CA, and LISTEN/NOTIFY.
const postgres = require('postgres');

// Reads PGHOST, PGPORT, PGUSER, PGPASSWORD and PGDATABASE, as the driver does.
const sql = postgres({ max: 2, onnotice: () => {} });
let firstPid = null;

function describeError(err) {
  const out = { message: err.message, name: err.name };
  for (const key of ['code', 'severity', 'detail', 'constraint_name', 'table_name', 'column_name', 'routine', 'errno', 'syscall', 'address']) {
    if (err[key] !== undefined) out[key] = err[key];
  }
  return out;
}

const steps = {
  async schema() {
    await sql`CREATE TABLE products (id serial PRIMARY KEY, sku text UNIQUE NOT NULL, name text, price numeric(8,2), tags text[], added date DEFAULT '2024-01-01')`;
    const [{ pid }] = await sql`SELECT pg_backend_pid() AS pid`;
    firstPid = pid;
    const columns = await sql`SELECT column_name, data_type FROM information_schema.columns WHERE table_name = ${'products'} ORDER BY ordinal_position`;
    return { columns: columns.map((c) => ({ ...c })), count: columns.count, command: columns.command };
  },

  async insert(event) {
    const products = event.data.products;
    const rows = await sql`INSERT INTO products ${sql(products, 'sku', 'name', 'price', 'tags')} RETURNING id, sku, price, tags`;
    const one = await sql`INSERT INTO products ${sql({ sku: 'D-400', name: 'Frother', price: 24.9, tags: ['milk'] })} RETURNING *`;
    return { inserted: rows.map((r) => ({ ...r })), one: one.map((r) => ({ ...r, added: r.added.toISOString() })), count: rows.count };
  },

  async select() {
    const column = 'price';
    const cheap = await sql`SELECT sku, ${sql(column)} FROM products WHERE ${sql(column)} < ${10} ORDER BY sku`;
    const some = await sql`SELECT sku FROM products WHERE sku IN ${sql(['A-100', 'C-300', 'Z-999'])} ORDER BY sku`;
    const tagged = await sql`SELECT sku FROM products WHERE ${'gift'} = ANY(tags)`;
    const json = await sql`SELECT json_build_object('n', count(*), 'skus', json_agg(sku ORDER BY sku)) AS doc FROM products`;
    const values = await sql`SELECT ${1}::int AS int, ${'2'}::bigint AS big, ${true} AS bool, ${null}::text AS nothing, ${new Date('2024-03-04T05:06:07Z')}::timestamptz AS at, ${sql.json({ a: [1, 'b'] })} AS j`;
    const rows = [];
    await sql`SELECT generate_series(1, 5) AS n`.forEach((row) => rows.push(row.n));
    const cursor = [];
    for await (const batch of sql`SELECT generate_series(1, 7) AS n`.cursor(3)) cursor.push(batch.map((r) => r.n));
    const v = values[0];
    return {
      cheap: cheap.map((r) => ({ ...r })),
      some: some.map((r) => r.sku),
      tagged: tagged.map((r) => r.sku),
      doc: json[0].doc,
      values: { ...v, at: v.at.toISOString(), types: Object.fromEntries(Object.entries(v).map(([k, x]) => [k, x === null ? 'null' : typeof x])) },
      forEach: rows,
      cursor,
      unsafe: (await sql.unsafe('SELECT $1::text || $2::text AS s', ['a', 'b']))[0].s,
    };
  },

  async transaction() {
    const committed = await sql.begin(async (tx) => {
      await tx`UPDATE products SET price = price + 1 WHERE sku = ${'A-100'}`;
      await tx.savepoint(async (sp) => {
        await sp`UPDATE products SET price = 0 WHERE sku = ${'B-200'}`;
      });
      const failed = await tx
        .savepoint(async (sp) => {
          await sp`UPDATE products SET price = 999 WHERE sku = ${'C-300'}`;
          throw new Error('undo this savepoint');
        })
        .catch((err) => err.message);
      const [row] = await tx`SELECT price FROM products WHERE sku = ${'C-300'}`;
      return { failed, c300: row.price };
    });
    let rolledBack;
    try {
      await sql.begin(async (tx) => {
        await tx`DELETE FROM products`;
        await tx`INSERT INTO products (sku) VALUES (${'A-100'}), (${'A-100'})`;
      });
    } catch (err) {
      rolledBack = describeError(err);
    }
    const prices = await sql`SELECT sku, price FROM products ORDER BY sku`;
    return { committed, rolledBack, prices: prices.map((r) => ({ ...r })) };
  },

  async errors() {
    const attempt = (query) => query.then(() => 'no error', describeError);
    return {
      syntax: await attempt(sql`SELEC 1`),
      missing: await attempt(sql`SELECT * FROM nowhere`),
      notNull: await attempt(sql`INSERT INTO products (sku) VALUES (${null})`),
      badType: await attempt(sql`SELECT ${'x'}::int`),
      refused: await attempt(postgres({ port: 1, max: 1, connect_timeout: 5 })`SELECT 1`),
      wrongPassword: await attempt(postgres({ password: 'nope', max: 1 })`SELECT 1`),
    };
  },

  // Another request: the pool's connection from the first request serves it.
  async reuse() {
    const [{ pid }] = await sql`SELECT pg_backend_pid() AS pid`;
    const activity = await sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() AND datname = current_database()`;
    return { sameBackend: pid === firstPid, otherConnections: activity[0].n };
  },

  async ssl() {
    const secure = postgres({ ssl: { ca: process.env.SERVICE_CA }, max: 1 });
    try {
      const [row] = await secure`SELECT ssl, version FROM pg_stat_ssl WHERE pid = pg_backend_pid()`;
      return { ...row };
    } finally {
      await secure.end();
    }
  },

  async listen() {
    const received = [];
    let done;
    const all = new Promise((r) => (done = r));
    const { unlisten } = await sql.listen('jobs', (payload) => {
      received.push(payload);
      if (received.length === 2) done();
    });
    await sql.notify('jobs', 'first');
    await sql`SELECT pg_notify('jobs', ${JSON.stringify({ id: 7 })})`;
    await all;
    await unlisten();
    return { received };
  },
};

module.exports = {
  async main(event) {
    const step = event.extensions.request.query.step;
    try {
      return { step, result: await steps[step](event) };
    } catch (err) {
      return { step, crashed: describeError(err) };
    }
  },
};
