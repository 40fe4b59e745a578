// Webhooks whose sender signs the raw body with a private key: an RSA
// signature (RSA-SHA256, base64 in x-signature) checked with the sender's
// PEM public key, and an Ed25519 signature over timestamp + body (hex in
// x-signature-ed25519, Discord-style) checked with a raw hex public key;
// each through node:crypto and through crypto.subtle.
const crypto = require('node:crypto');

// The senders' public keys (test-only).
const RSA_SENDER_KEY = `-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAlUYY1mm8eIc7Oj6cCQyg
u70QQFnk6JLj8gzl24z43hhBko7rRH7AVoCd82MUOLBtBsnxpAWtjIokWPfxQi0Z
+ShFEuuFanFzz9YRnMqaHY+WYgJ4XZ41JISBoh6jkH2F3m56oPK2yqJqNBNGZOtw
eQuMXCNhZEmwQ5vpb6THFENLs/90uc3iiJ7cfY0JCDEYRhF2vMI6Mrbv0+nKp1vZ
THFJRtXyEG2yAFRX7EFy9xbARxEoUaPYlc+bh84VX0Lb+BBtDQmH/Qh5Z5gDfAky
8NH3ZigIsrVm84bpBjfO16dT0KlBZHzzUtxXwvovIrFj/zYxdMDai7Cpf9s/F8Aa
0QIDAQAB
-----END PUBLIC KEY-----
`;
const ED25519_SENDER_KEY_HEX = '58f1aaa3f529a09828489cb1967ce842e8fdbb34768a2487415cdb3bad548d06';

const edKey = crypto.createPublicKey({
  key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(ED25519_SENDER_KEY_HEX, 'hex').toString('base64url') },
  format: 'jwk',
});

async function checkRsa(body, signature) {
  const sig = Buffer.from(signature, 'base64');
  const viaVerify = crypto.createVerify('RSA-SHA256').update(body).verify(RSA_SENDER_KEY, sig);
  const viaOneShot = crypto.verify('sha256', Buffer.from(body), RSA_SENDER_KEY, sig);
  const spki = crypto.createPublicKey(RSA_SENDER_KEY).export({ type: 'spki', format: 'der' });
  const key = await crypto.subtle.importKey('spki', spki, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['verify']);
  const viaSubtle = await crypto.subtle.verify('RSASSA-PKCS1-v1_5', key, sig, Buffer.from(body));
  return { viaVerify, viaOneShot, viaSubtle };
}

async function checkEd25519(body, signatureHex, timestamp) {
  const message = Buffer.from(timestamp + body);
  const sig = Buffer.from(signatureHex || '', 'hex');
  const viaVerify = crypto.verify(null, message, edKey, sig);
  const key = await crypto.subtle.importKey('raw', Buffer.from(ED25519_SENDER_KEY_HEX, 'hex'), { name: 'Ed25519' }, false, ['verify']);
  const viaSubtle = await crypto.subtle.verify('Ed25519', key, sig, message);
  return { viaVerify, viaSubtle };
}

module.exports = {
  async main(event) {
    const req = event.extensions.request;
    const body = typeof event.data === 'string' ? event.data : '';
    const result = req.query.sender === 'ed25519'
      ? await checkEd25519(body, req.get('x-signature-ed25519'), req.get('x-signature-timestamp') || '')
      : await checkRsa(body, req.get('x-signature') || '');
    const valid = Object.values(result).every(Boolean);
    if (!valid) event.setResponseStatus(401);
    return { valid, ...result, event: valid ? JSON.parse(body).type : undefined };
  },
};
