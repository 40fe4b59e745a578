// tls.connect to an HTTPS server, speaking HTTP/1.1 by hand (as clients of
// bespoke TLS protocols do): the server's private CA, ALPN, two requests on
// one kept-alive connection, an untrusted certificate, rejectUnauthorized:
// false, a name the certificate does not carry, a Function's own
// checkServerIdentity (accepting, or refusing with its own error), TLS
// started on an open net socket (tls.connect({ socket })), and
// tls.checkServerIdentity itself on certificate shapes.
const net = require('node:net');
const tls = require('node:tls');

const url = new URL(process.env.UPSTREAM_HTTPS_URL);
const HOST = url.hostname;
const PORT = Number(url.port);
const CA = process.env.UPSTREAM_CA;

/** Parses one HTTP/1.1 response off the front of `buffer` (Content-Length framed): [response, rest] or null. */
function parseResponse(buffer) {
  const end = buffer.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...headerLines] = buffer.subarray(0, end).toString('latin1').split('\r\n');
  const headers = {};
  for (const line of headerLines) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  const length = Number(headers['content-length'] || 0);
  if (buffer.length < end + 4 + length) return null;
  const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
  delete headers.date;
  return [{ statusLine, headers, body }, buffer.subarray(end + 4 + length)];
}

function session(options) {
  return new Promise((resolve) => {
    const events = [];
    const socket = tls.connect({ host: HOST, port: PORT, ...options });
    socket.on('secureConnect', () => events.push('secureConnect'));
    socket.on('error', (err) => resolve({ error: { message: err.message, code: err.code, reason: err.reason, host: err.host }, events }));
    resolve.socket = socket;
    socket.once('secureConnect', () => resolve({ socket, events }));
  });
}

function describeTls(socket) {
  return {
    authorized: socket.authorized,
    authorizationError: socket.authorizationError,
    encrypted: socket.encrypted,
    alpnProtocol: socket.alpnProtocol,
    protocol: socket.getProtocol(),
    remotePortMatches: socket.remotePort === PORT,
  };
}

/** Sends `paths` as GET requests one after another on `socket`, reads each answer. */
async function exchange(socket, paths, close = true) {
  let buffer = Buffer.alloc(0);
  const waiting = [];
  socket.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    const parsed = parseResponse(buffer);
    if (parsed && waiting.length) {
      buffer = parsed[1];
      waiting.shift()(parsed[0]);
    }
  });
  const answers = [];
  for (const [i, path] of paths.entries()) {
    const last = i === paths.length - 1 && close;
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nX-Client: raw-tls\r\nConnection: ${last ? 'close' : 'keep-alive'}\r\n\r\n`);
    answers.push(await new Promise((r) => waiting.push(r)));
  }
  return answers;
}

const steps = {
  async get() {
    const { socket, events, error } = await session({ ca: CA });
    if (error) return { error };
    const tlsState = describeTls(socket);
    // Read to the end: the answer is chunked, and the server closes after it.
    const chunks = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('end', () => events.push('end'));
    socket.write(`GET /text HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`);
    await new Promise((r) => socket.on('close', r));
    const raw = Buffer.concat(chunks).toString('utf8').replace(/\r\nDate: [^\r]*/i, '');
    return { tls: tlsState, servername: socket.servername, raw, events };
  },

  async 'keep-alive'() {
    const { socket, error } = await session({ ca: CA, ALPNProtocols: ['http/1.1'] });
    if (error) return { error };
    const answers = await exchange(socket, ['/carts/1', '/stock?sku=A-100', '/echo?x=1']);
    return { alpn: socket.alpnProtocol, answers: answers.map((a) => ({ status: a.statusLine, type: a.headers['content-type'], body: JSON.parse(a.body) })) };
  },

  async untrusted() {
    return session({});
  },

  async insecure() {
    const { socket, error } = await session({ rejectUnauthorized: false });
    if (error) return { error };
    const state = describeTls(socket);
    const [answer] = await exchange(socket, ['/text']);
    return { tls: state, status: answer.statusLine };
  },

  async 'wrong-name'() {
    return session({ ca: CA, servername: 'api.example.test' });
  },

  async 'own-identity-check'() {
    const calls = [];
    const accepting = await session({
      ca: CA,
      servername: 'api.example.test',
      checkServerIdentity: (host) => {
        calls.push(host);
        return undefined;
      },
    });
    const accepted = accepting.error ? accepting : { tls: describeTls(accepting.socket), events: accepting.events };
    if (accepting.socket) accepting.socket.destroy();

    const refusing = await session({
      ca: CA,
      checkServerIdentity: (host) => {
        calls.push(host);
        const err = new Error(`pinned certificate mismatch for ${host}`);
        err.code = 'ERR_PINNED';
        return err;
      },
    });
    const refused = refusing.error ? refusing : { unexpected: describeTls(refusing.socket) };

    const lenient = await session({
      rejectUnauthorized: false,
      checkServerIdentity: () => new Error('not the pinned key'),
    });
    const lenientState = lenient.error ? lenient : describeTls(lenient.socket);
    if (lenient.socket) lenient.socket.destroy();

    // The chain is still checked: an untrusted certificate fails whatever the function says.
    const untrusted = await session({ checkServerIdentity: () => undefined });
    return { accepted, refused, lenient: lenientState, untrusted, calls };
  },

  // TLS on a socket that is already connected (what STARTTLS and
  // PostgreSQL's sslmode do), after a byte of plain text.
  async 'upgrade-socket'() {
    const plain = net.connect(PORT, HOST);
    await new Promise((r) => plain.once('connect', r));
    const secure = tls.connect({ socket: plain, ca: CA });
    await new Promise((resolve, reject) => {
      secure.once('secureConnect', resolve);
      secure.once('error', reject);
    });
    const state = describeTls(secure);
    const [answer] = await exchange(secure, ['/carts/2']);
    await new Promise((r) => secure.on('close', r));
    return { tls: state, status: answer.statusLine, cart: JSON.parse(answer.body).id, plainDestroyed: plain.destroyed };
  },

  async 'check-server-identity'() {
    const check = (host, cert) => {
      const err = tls.checkServerIdentity(host, cert);
      return err ? { code: err.code, message: err.message, reason: err.reason, host: err.host } : 'ok';
    };
    const wildcard = { subject: { CN: 'example.test' }, subjectaltname: 'DNS:*.example.test, DNS:example.test' };
    const ipCert = { subject: { CN: 'internal' }, subjectaltname: 'IP Address:10.0.0.1, IP Address:FD00:0:0:0:0:0:0:1, DNS:internal.test' };
    return {
      exact: check('example.test', wildcard),
      wildcard: check('api.example.test', wildcard),
      deep: check('a.b.example.test', wildcard),
      upper: check('API.Example.Test.', wildcard),
      other: check('example.org', wildcard),
      ip: check('10.0.0.1', ipCert),
      ipv6: check('fd00::1', ipCert),
      wrongIp: check('10.0.0.2', ipCert),
      cnOnly: check('legacy.test', { subject: { CN: 'legacy.test' } }),
      cnMismatch: check('new.test', { subject: { CN: 'legacy.test' } }),
      nothing: check('x.test', { subject: {} }),
      quoted: check('a.test', { subject: {}, subjectaltname: 'DNS:"b.test, DNS:a.test"' }),
    };
  },
};

module.exports = {
  async main(event) {
    const step = event.extensions.request.query.step;
    try {
      const result = await steps[step]();
      if (result && result.socket) delete result.socket;
      return { step, result };
    } catch (err) {
      return { step, crashed: { message: err.message, code: err.code } };
    }
  },
};
