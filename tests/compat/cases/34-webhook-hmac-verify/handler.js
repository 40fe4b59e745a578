// Verifying a GitHub-style webhook signature over the raw body.
const crypto = require('node:crypto');

module.exports = {
  main: function (event) {
    const req = event.extensions.request;
    const secret = process.env.WEBHOOK_SECRET;
    const raw = Buffer.isBuffer(event.data) ? event.data : Buffer.from(typeof event.data === 'string' ? event.data : JSON.stringify(event.data));
    const expected = 'sha256=' + crypto.createHmac('sha256', secret).update(raw).digest('hex');
    const received = req.get('x-hub-signature-256') || '';
    const a = Buffer.from(expected);
    const b = Buffer.from(received);
    const valid = a.length === b.length && crypto.timingSafeEqual(a, b);
    if (!valid) {
      event.setResponseStatus(401);
      return { valid, reason: received ? 'signature mismatch' : 'missing signature' };
    }
    const payload = JSON.parse(raw.toString('utf8'));
    let lengthError;
    try {
      crypto.timingSafeEqual(Buffer.from('ab'), Buffer.from('abc'));
    } catch (err) {
      lengthError = err.code;
    }
    return { valid, action: payload.action, repo: payload.repository, expected, lengthError };
  },
};
