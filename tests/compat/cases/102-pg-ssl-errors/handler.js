// pg over TLS and pg's failures as a user meets them. TLS: PostgreSQL's
// SSLRequest on the plain connection, then TLS on that same socket
// (tls.connect({ socket })), verified against the server's private CA;
// without the CA the handshake fails as Node's does, with
// rejectUnauthorized: false it goes through, and a name the certificate does
// not carry is refused. Then a refused port, a wrong password, a missing
// database, a host that does not resolve, a server that never answers
// (connectionTimeoutMillis), pg's client-side query timeout and a query on
// an ended client.
const { Client } = require('pg');

const CA = process.env.SERVICE_CA;

function describeError(err) {
  const out = { message: err.message };
  for (const key of ['code', 'errno', 'syscall', 'address', 'port', 'hostname', 'severity', 'routine']) {
    if (err[key] !== undefined) out[key] = key === 'port' ? (err.port === Number(process.env.PGPORT) ? 'PGPORT' : err.port) : err[key];
  }
  return out;
}

async function attempt(config, work = (client) => client.query('SELECT 1 AS one').then((r) => r.rows)) {
  const client = new Client(config);
  const events = [];
  client.on('error', (err) => events.push({ error: err.message }));
  try {
    await client.connect();
    const result = await work(client);
    await client.end();
    return { ok: result, events };
  } catch (err) {
    return { failed: describeError(err), events };
  }
}

const sslState = (client) =>
  client.query('SELECT ssl, version FROM pg_stat_ssl WHERE pid = pg_backend_pid()').then((r) => ({
    ...r.rows[0],
    encrypted: client.connection.stream.encrypted === true,
    authorized: client.connection.stream.authorized,
  }));

const steps = {
  'ssl-ca': () => attempt({ ssl: { ca: CA } }, sslState),
  'ssl-untrusted': () => attempt({ ssl: true }, sslState),
  'ssl-no-verify': () => attempt({ ssl: { rejectUnauthorized: false } }, async (client) => ({
    ...(await sslState(client)),
    authorizationError: client.connection.stream.authorizationError,
  })),
  'ssl-wrong-name': () => attempt({ ssl: { ca: CA, servername: 'db.example.test' } }, sslState),
  refused: () => attempt({ port: 1 }),
  'wrong-password': () => attempt({ password: 'not-the-password' }),
  'unknown-database': () => attempt({ database: 'no_such_db' }),
  'unknown-host': () => attempt({ host: 'no-such-host.invalid' }),
  // A server that accepts the connection and never answers the startup message.
  'connect-timeout': () => attempt({ port: Number(process.env.LINES_SILENT_PORT), connectionTimeoutMillis: 150 }),
  'query-timeout': () =>
    attempt({ query_timeout: 100 }, async (client) => {
      try {
        await client.query('SELECT pg_sleep(1)');
        return 'no timeout';
      } catch (err) {
        return describeError(err);
      }
    }),
  'closed-client': async () => {
    const client = new Client();
    await client.connect();
    await client.end();
    try {
      await client.query('SELECT 1');
      return 'no error';
    } catch (err) {
      return describeError(err);
    }
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
