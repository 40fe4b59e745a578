// jsonwebtoken 9 with key pairs (node:crypto's createSign/createVerify,
// sign/verify and KeyObjects underneath): RS256, PS256 and ES256 with fixed
// keys and a fixed issue time, verification with PEM strings, KeyObjects
// and a JWK (as from a JWKS endpoint), and the errors for the wrong key.
// ECDSA and RSA-PSS signatures are random: those tokens are verified, not
// compared.
const crypto = require('node:crypto');
const jwt = require('jsonwebtoken');

// Test-only keys, made for this case.
const RSA_PRIVATE = `-----BEGIN PRIVATE KEY-----
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
const RSA_PUBLIC = `-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAlUYY1mm8eIc7Oj6cCQyg
u70QQFnk6JLj8gzl24z43hhBko7rRH7AVoCd82MUOLBtBsnxpAWtjIokWPfxQi0Z
+ShFEuuFanFzz9YRnMqaHY+WYgJ4XZ41JISBoh6jkH2F3m56oPK2yqJqNBNGZOtw
eQuMXCNhZEmwQ5vpb6THFENLs/90uc3iiJ7cfY0JCDEYRhF2vMI6Mrbv0+nKp1vZ
THFJRtXyEG2yAFRX7EFy9xbARxEoUaPYlc+bh84VX0Lb+BBtDQmH/Qh5Z5gDfAky
8NH3ZigIsrVm84bpBjfO16dT0KlBZHzzUtxXwvovIrFj/zYxdMDai7Cpf9s/F8Aa
0QIDAQAB
-----END PUBLIC KEY-----
`;
const EC_PRIVATE = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgVrAm5Xs58BMn6r/d
54EyyoTz4yYJ9cjAcFlo12TR5wKhRANCAAQ8dTt7G5GOTJ8eKPNC4SorBhArKZ5P
wcul0njF66mTrUoxjRWBMAPpRh3+WLLn0iydp9ghuYd/UAgDrd0gQHXU
-----END PRIVATE KEY-----
`;
const EC_PUBLIC = `-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEPHU7exuRjkyfHijzQuEqKwYQKyme
T8HLpdJ4xeupk61KMY0VgTAD6UYd/liy59IsnafYIbmHf1AIA63dIEB11A==
-----END PUBLIC KEY-----
`;
const OTHER_EC_PUBLIC = `-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAED4GfenoblF0KHSE7p+F/XfhCMklm
X9XNj77e0CMBMhH5yfbNxQ7xjBP7wOU7EKYM/O0vRGek9hDvMPDbZ3l98Q==
-----END PUBLIC KEY-----
`;

const IAT = 1700000000;
const keys = {
  RS256: [RSA_PRIVATE, RSA_PUBLIC],
  PS256: [RSA_PRIVATE, RSA_PUBLIC],
  ES256: [EC_PRIVATE, EC_PUBLIC],
};

function verify(token, key, options = {}) {
  try {
    const claims = jwt.verify(token, key, { audience: 'billing', clockTimestamp: IAT + 30, ...options });
    return { ok: true, claims };
  } catch (e) {
    return { ok: false, name: e.name, message: e.message };
  }
}

module.exports = {
  main(event) {
    const action = event.extensions.request.query.action;
    if (action === 'sign') {
      const out = {};
      for (const [alg, [priv, pub]] of Object.entries(keys)) {
        const token = jwt.sign({ sub: 'svc-7', iat: IAT, roles: ['reader'] }, priv, { algorithm: alg, expiresIn: '10m', audience: 'billing', keyid: alg });
        const decoded = jwt.decode(token, { complete: true });
        out[alg] = {
          // RS256 is deterministic: the same token as Node's.
          token: alg === 'RS256' ? token : undefined,
          header: decoded.header,
          payload: decoded.payload,
          withPem: verify(token, pub),
          withKeyObject: verify(token, crypto.createPublicKey(pub)),
          withJwk: verify(token, crypto.createPublicKey({ key: crypto.createPublicKey(pub).export({ format: 'jwk' }), format: 'jwk' })),
          withPrivateKey: verify(token, crypto.createPrivateKey(priv)),
          expired: verify(token, pub, { clockTimestamp: IAT + 3600 }),
          wrongAlgorithm: verify(token, pub, { algorithms: ['HS256'] }),
        };
      }
      out.keyObjectSigned = verify(jwt.sign({ sub: 'x', iat: IAT }, crypto.createPrivateKey(RSA_PRIVATE), { algorithm: 'RS512', audience: 'billing' }), RSA_PUBLIC);
      return out;
    }
    // Tokens Node made (requests.json), verified with the right and wrong keys.
    const out = {};
    for (const [alg, token] of Object.entries(event.data)) {
      out[alg] = { right: verify(token, keys[alg][1]), wrongKey: verify(token, alg === 'ES256' ? OTHER_EC_PUBLIC : EC_PUBLIC) };
    }
    out.secretAsKey = verify(event.data.RS256, 'a-shared-secret');
    out.es256WithRsaKey = (() => {
      try {
        return jwt.sign({ iat: IAT }, RSA_PRIVATE, { algorithm: 'ES256' });
      } catch (e) {
        return [e.name, e.message];
      }
    })();
    return out;
  },
};
