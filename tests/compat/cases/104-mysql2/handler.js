// mysql2's promise API against MariaDB: a connection with query() and
// placeholders, server-side prepared statements (execute()), a module-level
// pool whose connection serves the next request too (the server's
// CONNECTION_ID() says so), a transaction rolled back, the server's errors
// as mysql2 reports them (duplicate key, syntax, a wrong password, a refused
// port), TLS with the server's CA (mysql2 upgrades the open socket), a
// connection the server kills mid-query, and a large result.
const crypto = require('node:crypto');
const mysql = require('mysql2/promise');

const config = {
  host: process.env.MYSQL_HOST,
  port: Number(process.env.MYSQL_PORT),
  user: process.env.MYSQL_USER,
  password: process.env.MYSQL_PASSWORD,
  database: process.env.MYSQL_DATABASE,
  timezone: 'Z',
};
const pool = mysql.createPool({ ...config, connectionLimit: 2 });
let poolConnectionId = null;

function describeError(err) {
  const out = { message: err.message };
  for (const key of ['code', 'errno', 'sqlState', 'sqlMessage', 'fatal', 'syscall', 'address']) {
    if (err[key] !== undefined) out[key] = err[key];
  }
  return out;
}

async function withConnection(extra, work) {
  const conn = await mysql.createConnection({ ...config, ...extra });
  try {
    return await work(conn);
  } finally {
    await conn.end();
  }
}

const steps = {
  connection: () =>
    withConnection({}, async (conn) => {
      await conn.query('CREATE TABLE customers (id INT AUTO_INCREMENT PRIMARY KEY, email VARCHAR(100) UNIQUE NOT NULL, name VARCHAR(100), credit DECIMAL(10,2), joined DATETIME, profile JSON)');
      const [insert] = await conn.query('INSERT INTO customers (email, name, credit, joined, profile) VALUES ?', [[
        ['ada@example.test', 'Ada', 10.5, new Date('2024-01-02T03:04:05Z'), JSON.stringify({ vip: true })],
        ['bob@example.test', 'Bob', 0, new Date('2024-02-03T04:05:06Z'), null],
      ]]);
      const [rows, fields] = await conn.query('SELECT id, email, name, credit, joined, profile FROM customers WHERE credit >= ? ORDER BY id', [0]);
      const [named] = await conn.query({ sql: 'SELECT ?? AS col FROM customers WHERE email = ?', values: ['name', 'ada@example.test'] });
      const [[versionRow]] = await conn.query('SELECT VERSION() LIKE ? AS isMaria, DATABASE() AS db, CURRENT_USER() AS who', ['%MariaDB%']);
      return {
        insert: { affectedRows: insert.affectedRows, insertId: insert.insertId, warningStatus: insert.warningStatus },
        rows: rows.map((r) => ({ ...r, joined: r.joined.toISOString() })),
        fields: fields.map((f) => ({ name: f.name, columnType: f.columnType })),
        named,
        server: versionRow,
        escaped: conn.escape("O'Reilly"),
        formatted: conn.format('SELECT * FROM ?? WHERE id IN (?)', ['customers', [1, 2]]),
      };
    }),

  prepared: () =>
    withConnection({}, async (conn) => {
      const lookups = [];
      for (const email of ['ada@example.test', 'bob@example.test', 'nobody@example.test']) {
        const [rows] = await conn.execute('SELECT name, credit FROM customers WHERE email = ?', [email]);
        lookups.push(rows);
      }
      const [update] = await conn.execute('UPDATE customers SET credit = credit + ? WHERE email = ?', [2.25, 'bob@example.test']);
      const statement = await conn.prepare('SELECT ? + ? AS sum, CONCAT(?, ?) AS text');
      const [sum] = await statement.execute([2, 3, 'a', 'b']);
      await statement.close();
      return { lookups, update: { affectedRows: update.affectedRows, changedRows: update.changedRows }, sum };
    }),

  async 'pool-first'() {
    const [[row]] = await pool.query('SELECT CONNECTION_ID() AS id, 1 + 1 AS two');
    poolConnectionId = row.id;
    return { two: row.two };
  },

  // The next request: the pool's idle connection answers it.
  async 'pool-second'() {
    const [[row]] = await pool.query('SELECT CONNECTION_ID() AS id');
    const [processes] = await pool.query("SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE USER = 'shoal'");
    const parallel = await Promise.all([1, 2, 3, 4].map((n) => pool.execute('SELECT ? * 2 AS n, SLEEP(0.05) AS s', [n])));
    return { sameConnection: row.id === poolConnectionId, serverConnections: processes[0].n, parallel: parallel.map(([rows]) => rows[0].n) };
  },

  async transaction() {
    const conn = await pool.getConnection();
    try {
      await conn.beginTransaction();
      await conn.query('UPDATE customers SET credit = 1000 WHERE email = ?', ['ada@example.test']);
      const [[inside]] = await conn.query('SELECT credit FROM customers WHERE email = ?', ['ada@example.test']);
      await conn.rollback();
      const [[after]] = await conn.query('SELECT credit FROM customers WHERE email = ?', ['ada@example.test']);
      await conn.beginTransaction();
      await conn.query('UPDATE customers SET name = ? WHERE email = ?', ['Ada L.', 'ada@example.test']);
      await conn.commit();
      const [[committed]] = await conn.query('SELECT name FROM customers WHERE email = ?', ['ada@example.test']);
      return { inside, after, committed };
    } finally {
      conn.release();
    }
  },

  async errors() {
    const attempt = (work) => work().then(() => 'no error', describeError);
    return {
      duplicate: await attempt(() => pool.query('INSERT INTO customers (email) VALUES (?)', ['ada@example.test'])),
      syntax: await attempt(() => pool.query('SELEC 1')),
      missingTable: await attempt(() => pool.execute('SELECT * FROM nowhere WHERE id = ?', [1])),
      wrongPassword: await attempt(() => mysql.createConnection({ ...config, password: 'wrong' })),
      unknownDatabase: await attempt(() => mysql.createConnection({ ...config, database: 'nope' })),
      refused: await attempt(() => mysql.createConnection({ ...config, port: 1 })),
    };
  },

  ssl: () =>
    withConnection({ ssl: { ca: process.env.SERVICE_CA } }, async (conn) => {
      const [rows] = await conn.query("SHOW SESSION STATUS WHERE Variable_name IN ('Ssl_version')");
      const [[{ n }]] = await conn.query('SELECT COUNT(*) AS n FROM customers');
      return { status: rows, customers: n };
    }),

  // KILL CONNECTION while a query runs on it.
  killed: () =>
    withConnection({}, async (admin) => {
      const victim = await mysql.createConnection(config);
      const events = [];
      victim.on('error', (err) => events.push({ error: describeError(err) }));
      const [[{ id }]] = await victim.query('SELECT CONNECTION_ID() AS id');
      const slow = victim.query('SELECT SLEEP(5)').then(() => 'finished', describeError);
      await new Promise((r) => setTimeout(r, 100));
      await admin.query('KILL CONNECTION ?', [id]);
      const outcome = await slow;
      await new Promise((r) => setTimeout(r, 50));
      const again = await victim.query('SELECT 1').then(() => 'worked', describeError);
      victim.destroy();
      return { outcome, again, events };
    }),

  async large() {
    const [rows] = await pool.query('SELECT seq AS n, REPEAT(MD5(seq), 2) AS pad FROM seq_1_to_20000');
    const hash = crypto.createHash('sha256');
    for (const r of rows) hash.update(`${r.n}:${r.pad}\n`);
    return { rows: rows.length, last: rows[rows.length - 1], sha256: hash.digest('hex') };
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
