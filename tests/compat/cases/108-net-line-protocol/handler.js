// A raw `net` client for a line protocol (the way Functions talk to legacy
// systems, printers, or a bespoke TCP service): connect, read the banner,
// send a command and read its reply, several commands in one write, a
// half-close (end) with the server's last words after it, the server
// closing first, a reply much larger than one read with pause/resume,
// readline over the socket, a connection kept at module level and used by
// the next request, an idle timeout, a reset by the server, backpressure on
// a 2 MB write, a server that never answers, and the errors Node reports
// (refused port, write after end, a bad port).
const net = require('node:net');
const readline = require('node:readline');

const HOST = process.env.LINES_HOST;
const PORT = Number(process.env.LINES_PORT);

/** A connected socket with a line reader: next() resolves with the next line. */
function open(options = {}) {
  const socket = net.connect({ host: HOST, port: PORT, ...options });
  const lines = [];
  const waiting = [];
  let buffered = '';
  const events = [];
  socket.setEncoding('utf8');
  socket.on('data', (chunk) => {
    buffered += chunk;
    let nl;
    while ((nl = buffered.indexOf('\n')) !== -1) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (waiting.length) waiting.shift()(line);
      else lines.push(line);
    }
  });
  for (const name of ['connect', 'ready', 'end', 'finish']) socket.on(name, () => events.push(name));
  socket.on('lookup', (err, address, family, host) => events.push({ lookup: err ? err.code : [address, family, host] }));
  socket.on('close', (hadError) => events.push(`close(${hadError})`));
  socket.on('error', (err) => events.push(`error: ${err.code}`));
  const next = () => (lines.length ? Promise.resolve(lines.shift()) : new Promise((r) => waiting.push(r)));
  const closed = new Promise((r) => socket.once('close', r));
  return { socket, next, events, closed };
}

async function command(conn, text) {
  conn.socket.write(`${text}\r\n`);
  return conn.next();
}

let kept = null;

const steps = {
  async conversation() {
    const conn = open();
    const banner = await conn.next();
    const s = conn.socket;
    const state = { remotePortMatches: s.remotePort === PORT, remoteAddress: s.remoteAddress, remoteFamily: s.remoteFamily, readyState: s.readyState, pending: s.pending, connecting: s.connecting };
    const replies = [];
    for (const c of ['PING', 'ECHO hello world', 'UPPER grüße', 'SUM 1 2 3.5', 'SET colour blue', 'GET colour', 'GET size', 'FROB']) replies.push(await command(conn, c));
    s.end();
    await conn.closed;
    return { banner, state, replies, events: conn.events, bytesWritten: s.bytesWritten, bytesRead: s.bytesRead, destroyed: s.destroyed, readyState: s.readyState };
  },

  async pipelined() {
    const conn = open();
    await conn.next();
    conn.socket.write('PING\nECHO a\nECHO b\r\nSUM 10 20\n');
    const replies = [await conn.next(), await conn.next(), await conn.next(), await conn.next()];
    // One command split over three writes.
    conn.socket.write('UPP');
    conn.socket.write('ER split');
    conn.socket.write(' across writes\n');
    replies.push(await conn.next());
    conn.socket.destroy();
    await conn.closed;
    return { replies, events: conn.events };
  },

  // We end our side; the server still answers, then ends its own.
  async 'half-close'() {
    const conn = open({ allowHalfOpen: true });
    await conn.next();
    conn.socket.write('ECHO one\nECHO two\n');
    const before = [await conn.next(), await conn.next()];
    conn.socket.end('ECHO three\n');
    const after = [await conn.next(), await conn.next()];
    await conn.closed;
    return { before, after, events: conn.events, writableEnded: conn.socket.writableEnded, readableEnded: conn.socket.readableEnded };
  },

  async 'server-closes'() {
    const conn = open();
    await conn.next();
    const bye = await command(conn, 'QUIT');
    await conn.closed;
    return { bye, events: conn.events, readyState: conn.socket.readyState };
  },

  // 20000 lines (~1 MB) in one reply, read with pauses.
  async bulk() {
    const socket = net.connect(PORT, HOST);
    let text = '';
    let pauses = 0;
    socket.setEncoding('utf8');
    socket.write('BIG 20000\n');
    await new Promise((resolve, reject) => {
      socket.on('data', (chunk) => {
        text += chunk;
        if (pauses < 5) {
          pauses += 1;
          socket.pause();
          setTimeout(() => socket.resume(), 5);
        }
        if (text.endsWith(`row 19999 ${'x'.repeat(40)}\n`)) resolve();
      });
      socket.on('error', reject);
    });
    socket.destroy();
    const lines = text.split('\n');
    return { banner: lines[0], rows: lines.length - 2, last: lines[lines.length - 2].slice(0, 10), pauses, bytesRead: socket.bytesRead };
  },

  async readline() {
    const socket = net.createConnection({ port: PORT, host: HOST });
    const rl = readline.createInterface({ input: socket, crlfDelay: Infinity });
    socket.end('ECHO via readline\nSUM 4 5\n');
    const lines = [];
    for await (const line of rl) lines.push(line);
    return { lines };
  },

  // A host name: the 'lookup' event names what it resolved to.
  async localhost() {
    const conn = open({ host: 'localhost', family: 4 });
    const banner = await conn.next();
    conn.socket.destroy();
    await conn.closed;
    return { banner, remoteAddress: conn.socket.remoteAddress, events: conn.events };
  },

  // A connection kept at module level, as a client library keeps one.
  async 'keep-open'() {
    kept = open();
    const banner = await kept.next();
    return { banner, set: await command(kept, 'SET visits 1') };
  },

  async 'reuse-open'() {
    const get = await command(kept, 'GET visits');
    kept.socket.end();
    await kept.closed;
    return { get, events: kept.events };
  },

  async timeout() {
    const conn = open();
    await conn.next();
    const started = Date.now();
    await new Promise((resolve) => {
      conn.socket.setTimeout(150, resolve);
    });
    const waited = Date.now() - started;
    const stillOpen = conn.socket.readyState;
    conn.socket.destroy();
    await conn.closed;
    return { timedOut: waited >= 140, stillOpen, timeoutProperty: conn.socket.timeout, events: conn.events };
  },

  // The server resets the connection (RST): a read error, then a write to
  // the dead socket.
  async reset() {
    const conn = open();
    await conn.next();
    const errors = [];
    conn.socket.on('error', (err) => errors.push({ message: err.message, code: err.code, errno: err.errno, syscall: err.syscall }));
    conn.socket.write('RESET\n');
    await conn.closed;
    const late = await new Promise((resolve) => {
      conn.socket.write('PING\n', (err) => resolve(err ? { message: err.message, code: err.code } : 'written'));
    });
    return { errors, events: conn.events, late, destroyed: conn.socket.destroyed };
  },

  // A 2 MB write, waiting for 'drain' when write() asks to (whether it
  // does depends on how much the kernel takes at once, so only what a
  // careful writer sees is compared).
  async backpressure() {
    const conn = open();
    await conn.next();
    const payload = 'z'.repeat(2 * 1024 * 1024);
    let drains = 0;
    conn.socket.on('drain', () => (drains += 1));
    const accepted = conn.socket.write(`ECHO ${payload}\n`);
    if (!accepted) await new Promise((r) => conn.socket.once('drain', r));
    const consistent = accepted ? drains === 0 : drains === 1;
    const echoed = await conn.next();
    const pong = await command(conn, 'PING');
    conn.socket.destroy();
    return { consistent, echoedLength: echoed.length, same: echoed === payload, pong, bytesWritten: conn.socket.bytesWritten };
  },

  // A server that accepts and never answers: the idle timeout fires, and
  // the Function gives up with destroy().
  async silent() {
    const socket = net.connect(Number(process.env.LINES_SILENT_PORT), HOST);
    const events = [];
    socket.on('connect', () => events.push('connect'));
    socket.on('close', (hadError) => events.push(`close(${hadError})`));
    socket.setTimeout(120, () => {
      events.push('timeout');
      socket.destroy(new Error('gave up waiting'));
    });
    socket.on('error', (err) => events.push(`error: ${err.message}`));
    await new Promise((r) => socket.on('close', r));
    return { events, bytesRead: socket.bytesRead };
  },

  async errors() {
    const refused = await new Promise((resolve) => {
      const s = net.connect(1, HOST);
      const events = [];
      s.on('error', (err) => events.push({ message: err.message, code: err.code, errno: err.errno, syscall: err.syscall, address: err.address, port: err.port }));
      s.on('close', (hadError) => {
        events.push({ close: hadError });
        resolve(events);
      });
    });
    const conn = open();
    await conn.next();
    conn.socket.end();
    const writeAfterEnd = await new Promise((resolve) => {
      conn.socket.write('PING\n', (err) => resolve(err ? { message: err.message, code: err.code } : 'written'));
    });
    await conn.closed;
    let badPort;
    try {
      net.connect({ host: HOST, port: 70000 });
    } catch (err) {
      badPort = { name: err.name, code: err.code, message: err.message };
    }
    let badHost;
    try {
      net.connect({ host: 42, port: PORT });
    } catch (err) {
      badHost = { name: err.name, code: err.code, message: err.message };
    }
    return { refused, writeAfterEnd, badPort, badHost, isIP: [net.isIP('127.0.0.1'), net.isIP('::1'), net.isIP('example.test'), net.isIPv4('1.2.3.256')] };
  },
};

module.exports = {
  async main(event) {
    const step = event.extensions.request.query.step;
    try {
      return { step, result: await steps[step]() };
    } catch (err) {
      return { step, crashed: { message: err.message, code: err.code } };
    }
  },
};
