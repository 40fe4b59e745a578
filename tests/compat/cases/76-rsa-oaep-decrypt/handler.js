// Decrypting what clients encrypted for this Function's RSA key: a field
// encrypted with RSA-OAEP (SHA-1, Node's default; SHA-256 with a label), and
// a hybrid envelope (an AES-256-GCM key wrapped with RSA-OAEP, then the
// data), through node:crypto and crypto.subtle; and a reply encrypted for
// the client, checked by decrypting it again (OAEP ciphertexts are random).
const crypto = require('node:crypto');

// This Function's key pair (test-only).
const PRIVATE_KEY = `-----BEGIN PRIVATE KEY-----
MIIEvwIBADANBgkqhkiG9w0BAQEFAASCBKkwggSlAgEAAoIBAQCVRhjWabx4hzs6
PpwJDKC7vRBAWeTokuPyDOXbjPjeGEGSjutEfsBWgJ3zYxQ4sG0GyfGkBa2MiiRY
9/FCLRn5KEUS64VqcXPP1hGcypodj5ZiAnhdnjUkhIGiHqOQfYXebnqg8rbKomo0
E0Zk63B5C4xcI2FkSbBDm+lvpMcUQ0uz/3S5zeKIntx9jQkIMRhGEXa8wjoytu/T
6cqnW9lMcUlG1fIQbbIAVFfsQXL3FsBHEShRo9iVz5uHzhVfQtv4EG0NCYf9CHln
mAN8CTLw0fdmKAiytWbzhukGN87Xp1PQqUFkfPNS3FfC+i8isWP/NjF0wNqLsKl/
2z8XwBrRAgMBAAECggEAIjq0r1YHtcustSpuNVUD9ojgFSGH8Bze0D5M5w9oceU2
BBlpsYcvK6bKkWkC1gz+szPTiT0UEsoKk6wnUnltH0kwran8KfBiEiKQX1fGB0lJ
vqe6Wh1RKlKIN1i3QQbHj73duNJvQAAGQnK5DaM/Y0JWqTojtw9+r8IswUETtX1v
T/wiOuqYHia4c5fdGTu9dNTcJ1GgF9ppeyCE6JLbmFHffA8I5y5zKxokswLDZ7uA
TH4NNuSH5GcR9eio/qbnyR7Q3l/Qj6c+vOvKQHr2c6dWbKavqTOC/AmxqViXxJWD
pccxm4A14W+NOUoGexe5bZDHsjmIC/hDQyQ9tbNfUQKBgQDG75anG3MMIS7Us916
5Lmk8ltFf++kKBSvYWm+BOFDBV3qUEESeDxCyn3w3ODY6t1DwalYmsoOMUXR4ipV
sKD6426WGQ/xBNl3O4aL4BjXfClfEvgHyoVYCsh8S94TLnJM8s7K+JAHpiNArGKF
jWpWGKYTfNLphhcWxKV3HDXt/wKBgQDAF69tFMRm6kkCo1Ff69m63RwLR+Ym8vJc
bSa3yEzc0OWVpXPgpaCqiIlXGIRm5o/jAMQcfcnMa8dYc2BPMhM4xpFzyjGeVmx/
aN+r3hTl8E0dz3R6eD+otSaUvf3csEWUrUonVXoDkEjRtTvh6ligGyEHOhJs8Scc
p93vVYiXLwKBgQCb0exZ5ek+Vft9hYj0ipVSurZ9AJGvLenN2Wpe+SmMOnbuYoAl
vGHPGxZ8hDXmEkjPmrBPg6bCaRu8Iv9v8RKWkW/8R5MyAM9pUgm4JAaxOkKZgp0e
VSYO6RtSKIbA1X+YABOz7e+63gn8zUm6PCNPXq0u1HXLjkklf0/vtPwU9wKBgQCv
mLc3auWDAqZNMAhiPBJj/F33fflJH4snrGvZUtPYg2lr27xK3n05huitYm8eNaPQ
qlGbje1b3iZzl7yxiKADpZkvFOU4zd4OtkrJLJFEBOAp4QukLKpcyYQEMo2PIN/q
YmLIBB4uhcXbVeXwxa3QZhxSI+bWCbhsPJPnhfP/5wKBgQCx3U+IOH4yZRALyoJS
E2xBRtr/5QYdnibJ6h2ufbJ5UBlXNXBxaYShWhsYIUoYw3WOhEHy3akUFVAm7ss6
K4bhVNP8vmZnW/8Rirxfif7vZyKqJtJDpZv+/mKvcS8fTbJ86WXSXCmYHQEcGehT
4vA9F4/QUqjEjlXtftsZ0pED4A==
-----END PRIVATE KEY-----
`;
const PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAlUYY1mm8eIc7Oj6cCQyg
u70QQFnk6JLj8gzl24z43hhBko7rRH7AVoCd82MUOLBtBsnxpAWtjIokWPfxQi0Z
+ShFEuuFanFzz9YRnMqaHY+WYgJ4XZ41JISBoh6jkH2F3m56oPK2yqJqNBNGZOtw
eQuMXCNhZEmwQ5vpb6THFENLs/90uc3iiJ7cfY0JCDEYRhF2vMI6Mrbv0+nKp1vZ
THFJRtXyEG2yAFRX7EFy9xbARxEoUaPYlc+bh84VX0Lb+BBtDQmH/Qh5Z5gDfAky
8NH3ZigIsrVm84bpBjfO16dT0KlBZHzzUtxXwvovIrFj/zYxdMDai7Cpf9s/F8Aa
0QIDAQAB
-----END PUBLIC KEY-----
`;

async function subtleKey(usage) {
  const der = usage === 'decrypt'
    ? crypto.createPrivateKey(PRIVATE_KEY).export({ type: 'pkcs8', format: 'der' })
    : crypto.createPublicKey(PUBLIC_KEY).export({ type: 'spki', format: 'der' });
  return crypto.subtle.importKey(usage === 'decrypt' ? 'pkcs8' : 'spki', der, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, [usage]);
}

function attempt(fn) {
  try {
    return fn();
  } catch (e) {
    return { error: e.code || e.name, message: e.message };
  }
}

module.exports = {
  async main(event) {
    const { field, labelled, envelope } = event.data;
    const b = (s) => Buffer.from(s, 'base64');
    const out = {
      field: crypto.privateDecrypt(PRIVATE_KEY, b(field)).toString(),
      labelled: crypto.privateDecrypt({ key: PRIVATE_KEY, oaepHash: 'sha256', oaepLabel: Buffer.from('order-42') }, b(labelled)).toString(),
      wrongLabel: attempt(() => crypto.privateDecrypt({ key: PRIVATE_KEY, oaepHash: 'sha256' }, b(labelled))),
      wrongHash: attempt(() => crypto.privateDecrypt(PRIVATE_KEY, b(labelled))),
    };
    // The envelope: RSA-OAEP(SHA-256) wraps the AES key, AES-GCM the data.
    const rsaKey = await subtleKey('decrypt');
    const aesRaw = await crypto.subtle.decrypt({ name: 'RSA-OAEP' }, rsaKey, b(envelope.key));
    const aesKey = await crypto.subtle.importKey('raw', aesRaw, 'AES-GCM', false, ['decrypt']);
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: b(envelope.iv) }, aesKey, b(envelope.data));
    out.envelope = JSON.parse(Buffer.from(plain).toString());
    out.tamperedEnvelope = await crypto.subtle.decrypt({ name: 'RSA-OAEP' }, rsaKey, b(envelope.key).fill(1, 0, 8)).then(() => 'decrypted', (e) => e.name);
    // A reply for the client, and back.
    const reply = crypto.publicEncrypt({ key: PUBLIC_KEY, oaepHash: 'sha256' }, Buffer.from('receipt #42'));
    const subtleReply = await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, await subtleKey('encrypt'), Buffer.from('receipt #43'));
    out.reply = {
      bytes: reply.length,
      roundTrip: crypto.privateDecrypt({ key: PRIVATE_KEY, oaepHash: 'sha256' }, reply).toString(),
      subtleRoundTrip: Buffer.from(await crypto.subtle.decrypt({ name: 'RSA-OAEP' }, rsaKey, subtleReply)).toString(),
    };
    return out;
  },
};
