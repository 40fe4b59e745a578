// Sending mail with nodemailer through an SMTP submission server that
// requires STARTTLS (a self-signed certificate, trusted through its CA) and
// AUTH: verify(), messages with accepted and refused recipients (what the
// server answered is what a Function logs), a pooled transport reused
// across messages, implicit TLS (secure: true), and the failures a user meets: every recipient refused,
// a wrong password, an untrusted certificate, a client that will not
// upgrade, a refused port. The Message-ID and Date are fixed so the answer
// names the same message under Node and Shoal.
const nodemailer = require('nodemailer');

const base = {
  host: process.env.SMTP_HOST,
  port: Number(process.env.SMTP_PORT),
  secure: false,
  requireTLS: true,
  name: 'shoal-function.test',
  auth: { user: process.env.SMTP_USER, pass: process.env.SMTP_PASSWORD },
  tls: { ca: process.env.SERVICE_CA },
};
const transport = nodemailer.createTransport(base);
let sent = 0;

function message(fields) {
  sent += 1;
  return {
    from: '"Shop" <shop@example.test>',
    messageId: `<order-${sent}@shoal.test>`,
    date: new Date('2024-05-06T07:08:09Z'),
    ...fields,
  };
}

function describeInfo(info) {
  return { accepted: info.accepted, rejected: info.rejected, response: info.response, envelope: info.envelope, messageId: info.messageId, rejectedErrors: (info.rejectedErrors || []).map((e) => ({ message: e.message, code: e.code, responseCode: e.responseCode })) };
}

function describeError(err) {
  const out = { message: err.message };
  for (const key of ['code', 'responseCode', 'command', 'response', 'rejected', 'errno', 'syscall', 'address']) if (err[key] !== undefined) out[key] = err[key];
  return out;
}

const attempt = (p) => p.then(describeInfo, describeError);

const steps = {
  verify: () => transport.verify().then((ok) => ({ ok }), describeError),

  send: (event) => attempt(transport.sendMail(message(event.data))),

  async pooled() {
    const pool = nodemailer.createTransport({ ...base, pool: true, maxConnections: 1 });
    const results = await Promise.all(
      ['one', 'two', 'three'].map((n) => attempt(pool.sendMail(message({ to: `${n}@example.test`, subject: `Pooled ${n}`, text: n })))),
    );
    pool.close();
    return results;
  },

  // Port 465 style: TLS from the first byte (secure: true).
  'implicit-tls': () =>
    attempt(nodemailer.createTransport({ ...base, port: Number(process.env.SMTPS_PORT), secure: true, requireTLS: false })
      .sendMail(message({ to: 'dave@example.test', subject: 'Over implicit TLS', text: 'secure from the start' }))),

  'all-rejected': () => attempt(transport.sendMail(message({ to: ['a@invalid.test', 'b@invalid.test'], subject: 'nobody', text: 'x' }))),

  'wrong-password': () =>
    attempt(nodemailer.createTransport({ ...base, auth: { user: 'shoal', pass: 'wrong' } }).sendMail(message({ to: 'ada@example.test', subject: 'x', text: 'x' }))),

  untrusted: () => attempt(nodemailer.createTransport({ ...base, tls: {} }).sendMail(message({ to: 'ada@example.test', subject: 'x', text: 'x' }))),

  'no-starttls': () =>
    attempt(nodemailer.createTransport({ ...base, requireTLS: false, ignoreTLS: true }).sendMail(message({ to: 'ada@example.test', subject: 'x', text: 'x' }))),

  refused: () => attempt(nodemailer.createTransport({ ...base, port: 1 }).sendMail(message({ to: 'ada@example.test', subject: 'x', text: 'x' }))),
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
