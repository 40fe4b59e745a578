// JWTs signed with key pairs through jose 6, which works on Web Crypto alone
// (crypto.subtle): RS256, PS256, ES256 and EdDSA with fixed keys and a fixed
// issue time; JWK import and export; tokens made by Node verified; a new
// ES256 key pair. ECDSA and RSA-PSS signatures are random, so those are
// checked, not compared.
import * as jose from 'jose';

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
const ED_PRIVATE = `-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIHZCjwkfhQDtxmDbscA386YwjTgk1SoM5Is1oNpl/UAq
-----END PRIVATE KEY-----
`;
const ED_PUBLIC = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAWPGqo/UpoJgoSJyxlnzoQuj9uzR2iiSHQVzbO61UjQY=
-----END PUBLIC KEY-----
`;

const IAT = 1700000000;
const claims = { sub: 'u-42', scope: 'orders:read orders:write', tenant: 'acme' };

async function keys() {
  return {
    RS256: [await jose.importPKCS8(RSA_PRIVATE, 'RS256', { extractable: true }), await jose.importSPKI(RSA_PUBLIC, 'RS256', { extractable: true })],
    PS256: [await jose.importPKCS8(RSA_PRIVATE, 'PS256', { extractable: true }), await jose.importSPKI(RSA_PUBLIC, 'PS256', { extractable: true })],
    ES256: [await jose.importPKCS8(EC_PRIVATE, 'ES256', { extractable: true }), await jose.importSPKI(EC_PUBLIC, 'ES256', { extractable: true })],
    EdDSA: [await jose.importPKCS8(ED_PRIVATE, 'EdDSA', { extractable: true }), await jose.importSPKI(ED_PUBLIC, 'EdDSA', { extractable: true })],
  };
}

function sign(alg, key) {
  return new jose.SignJWT(claims)
    .setProtectedHeader({ alg, kid: `${alg}-key`, typ: 'JWT' })
    .setIssuedAt(IAT)
    .setExpirationTime(IAT + 3600)
    .setIssuer('https://auth.example.com')
    .setAudience('orders-api')
    .sign(key);
}

const verifyOptions = { issuer: 'https://auth.example.com', audience: 'orders-api', currentDate: new Date((IAT + 60) * 1000) };

async function verifyResult(token, key) {
  try {
    const { payload, protectedHeader } = await jose.jwtVerify(token, key, verifyOptions);
    return { ok: true, payload, protectedHeader };
  } catch (e) {
    return { ok: false, code: e.code, name: e.name };
  }
}

export async function main(event) {
  const action = event.extensions.request.query.action;
  const k = await keys();
  if (action === 'sign') {
    const out = {};
    for (const [alg, [priv, pub]] of Object.entries(k)) {
      const token = await sign(alg, priv);
      const [header, payload, signature] = token.split('.');
      out[alg] = {
        // RS256 and EdDSA are deterministic: the same token as Node's.
        token: alg === 'RS256' || alg === 'EdDSA' ? token : undefined,
        header: jose.decodeProtectedHeader(token),
        payload,
        signatureBytes: Buffer.from(signature, 'base64url').length,
        verified: await verifyResult(token, pub),
        tampered: await verifyResult(`${header}.${payload}.${signature.slice(0, -4)}AAAA`, pub),
      };
    }
    return out;
  }
  if (action === 'verify') {
    // Tokens Node made with the same keys (requests.json).
    const out = {};
    for (const [alg, token] of Object.entries(event.data)) out[alg] = await verifyResult(token, k[alg][1]);
    out.expired = await jose.jwtVerify(event.data.ES256, k.ES256[1], { ...verifyOptions, currentDate: new Date((IAT + 7200) * 1000) })
      .then(() => 'accepted', (e) => [e.code, e.claim, e.reason]);
    out.wrongKey = await verifyResult(event.data.RS256, k.PS256[1]);
    out.wrongAlg = await jose.jwtVerify(event.data.ES256, k.ES256[1], { ...verifyOptions, algorithms: ['RS256'] }).then(() => 'accepted', (e) => e.code);
    return out;
  }
  if (action === 'jwk') {
    const out = {};
    for (const [alg, [priv, pub]] of Object.entries(k)) {
      if (alg === 'PS256') continue;
      const privJwk = await jose.exportJWK(priv);
      const pubJwk = await jose.exportJWK(pub);
      const again = await jose.importJWK(pubJwk, alg, { extractable: true });
      out[alg] = {
        privJwk, pubJwk,
        spki: await jose.exportSPKI(again),
        pkcs8: await jose.exportPKCS8(await jose.importJWK(privJwk, alg, { extractable: true })),
        thumbprint: await jose.calculateJwkThumbprint(pubJwk),
      };
    }
    return out;
  }
  // A new key pair: its shape, and that it signs and verifies.
  const { publicKey, privateKey } = await jose.generateKeyPair('ES256', { extractable: true });
  const token = await sign('ES256', privateKey);
  const jwk = await jose.exportJWK(publicKey);
  return {
    privateKey: { type: privateKey.type, algorithm: privateKey.algorithm, usages: privateKey.usages, extractable: privateKey.extractable },
    publicKey: { type: publicKey.type, algorithm: publicKey.algorithm, usages: publicKey.usages },
    jwk: Object.keys(jwk).sort(), crv: jwk.crv,
    verified: (await verifyResult(token, publicKey)).ok,
  };
}
