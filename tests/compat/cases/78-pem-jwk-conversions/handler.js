// Key format conversions a JWKS endpoint or a key-rotation job does: PEM
// public keys published as a JWK Set, JWKs back to PEM (SPKI and PKCS#1),
// an encrypted private key read and re-encoded, the same through
// crypto.subtle's exportKey('jwk'), and the keys' details.
const crypto = require('node:crypto');

// Test-only keys.
const PUBLIC_PEMS = { 'rsa-1': `-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAlUYY1mm8eIc7Oj6cCQyg
u70QQFnk6JLj8gzl24z43hhBko7rRH7AVoCd82MUOLBtBsnxpAWtjIokWPfxQi0Z
+ShFEuuFanFzz9YRnMqaHY+WYgJ4XZ41JISBoh6jkH2F3m56oPK2yqJqNBNGZOtw
eQuMXCNhZEmwQ5vpb6THFENLs/90uc3iiJ7cfY0JCDEYRhF2vMI6Mrbv0+nKp1vZ
THFJRtXyEG2yAFRX7EFy9xbARxEoUaPYlc+bh84VX0Lb+BBtDQmH/Qh5Z5gDfAky
8NH3ZigIsrVm84bpBjfO16dT0KlBZHzzUtxXwvovIrFj/zYxdMDai7Cpf9s/F8Aa
0QIDAQAB
-----END PUBLIC KEY-----
`, 'ec-1': `-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEPHU7exuRjkyfHijzQuEqKwYQKyme
T8HLpdJ4xeupk61KMY0VgTAD6UYd/liy59IsnafYIbmHf1AIA63dIEB11A==
-----END PUBLIC KEY-----
`, 'ec-2': `-----BEGIN PUBLIC KEY-----
MHYwEAYHKoZIzj0CAQYFK4EEACIDYgAEZL9vEGSNSP9eacoISU88+uI7dEW2B4Iz
JHakUvnF/QvrlExUKDhjY808u08WibjEzZFpUXrzynLx5Zpr6rkO45P5sMUbz9hK
oAc1SmQEZBRBAe9N9I+wj6StMc3vlS0X
-----END PUBLIC KEY-----
`, 'ed-1': `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAWPGqo/UpoJgoSJyxlnzoQuj9uzR2iiSHQVzbO61UjQY=
-----END PUBLIC KEY-----
` };
const ENCRYPTED_EC_KEY = `-----BEGIN ENCRYPTED PRIVATE KEY-----
MIIBHDBXBgkqhkiG9w0BBQ0wSjApBgkqhkiG9w0BBQwwHAQIS1rFKVjbZ8MCAggA
MAwGCCqGSIb3DQIJBQAwHQYJYIZIAWUDBAEqBBDswZiE+v77Kj2wfxZbetvLBIHA
MjAU0C4wgFijOnXAG5mIc68jKXDCxkx94pJBjolNacD7ABewHqISF+lO3tQ0c6jx
4AdGqyEti5RgTdMXqaxhVywZLkLahd8zHdD+eydNEUNut76E1MUkI/QeTbHgPemi
BpAjIaHVT25Kdxvn1AvYNTBSR2j8cFzW5LhNJ57MHWGRy69b/JVzckIfbPhPA5i6
fR2t+ukFnWrvHAiFSScweQQ7mqAfh8q8JI3DGLFE8ezijDVEW6VVG+PQQwjmXVGU
-----END ENCRYPTED PRIVATE KEY-----
`;

function details(key) {
  const d = key.asymmetricKeyDetails;
  return { type: key.asymmetricKeyType, ...d, publicExponent: d.publicExponent === undefined ? undefined : String(d.publicExponent) };
}

module.exports = {
  async main(event) {
    const action = event.extensions.request.query.action;
    if (action === 'jwks') {
      const keys = Object.entries(PUBLIC_PEMS).map(([kid, pem]) => {
        const jwk = crypto.createPublicKey(pem).export({ format: 'jwk' });
        return { kid, use: 'sig', ...jwk };
      });
      return { keys };
    }
    if (action === 'to-pem') {
      // JWKs from the request (a JWK Set), each back to PEM.
      return event.data.keys.map((jwk) => {
        const key = crypto.createPublicKey({ key: jwk, format: 'jwk' });
        return {
          kid: jwk.kid,
          spki: key.export({ type: 'spki', format: 'pem' }),
          pkcs1: key.asymmetricKeyType === 'rsa' ? key.export({ type: 'pkcs1', format: 'pem' }) : undefined,
          der: key.export({ type: 'spki', format: 'der' }).toString('base64'),
          details: details(key),
          samePem: key.equals(crypto.createPublicKey(PUBLIC_PEMS[jwk.kid])),
        };
      });
    }
    if (action === 'private') {
      const key = crypto.createPrivateKey({ key: ENCRYPTED_EC_KEY, passphrase: event.data.passphrase });
      const jwk = key.export({ format: 'jwk' });
      const back = crypto.createPrivateKey({ key: jwk, format: 'jwk' });
      return {
        jwk,
        sec1: back.export({ type: 'sec1', format: 'pem' }),
        pkcs8: back.export({ type: 'pkcs8', format: 'pem' }),
        publicFromPrivateJwk: crypto.createPublicKey({ key: jwk, format: 'jwk' }).export({ type: 'spki', format: 'pem' }),
        wrongPassphrase: (() => {
          try {
            crypto.createPrivateKey({ key: ENCRYPTED_EC_KEY, passphrase: 'nope' });
            return 'accepted';
          } catch (e) {
            return e.code;
          }
        })(),
      };
    }
    // crypto.subtle: import each PEM's DER, export as JWK, and a KeyObject back.
    const algorithms = { 'rsa-1': { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, 'ec-1': { name: 'ECDSA', namedCurve: 'P-256' },
      'ec-2': { name: 'ECDSA', namedCurve: 'P-384' }, 'ed-1': { name: 'Ed25519' } };
    const out = {};
    for (const [kid, pem] of Object.entries(PUBLIC_PEMS)) {
      const der = crypto.createPublicKey(pem).export({ type: 'spki', format: 'der' });
      const key = await crypto.subtle.importKey('spki', der, algorithms[kid], true, ['verify']);
      out[kid] = {
        jwk: await crypto.subtle.exportKey('jwk', key),
        algorithm: { ...key.algorithm, publicExponent: key.algorithm.publicExponent && Array.from(key.algorithm.publicExponent) },
        keyObject: crypto.KeyObject.from(key).export({ type: 'spki', format: 'pem' }) === pem,
      };
    }
    return out;
  },
};
