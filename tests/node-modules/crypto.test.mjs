// node:crypto: hashes, HMAC, random numbers, PBKDF2, HKDF, scrypt and AES;
// then the key API and Web Crypto (issue 18): keys of every type the engine
// has, made by Node, read and written in every encoding; signatures made in
// one realm and checked in the other; RSA encryption, ECDH and key
// generation; X509Certificate; and the errors for bad input.
//
// Node's fixtures are made when the run starts and written into the cases'
// code, so both realms see the same keys. Where a realm's output is random
// (ECDSA and RSA-PSS signatures, OAEP ciphertexts, new keys), `post` checks
// it with Node's crypto and the two realms' verdicts are compared.
//
// Shoal follows Node 24 where Node lines differ; cases about those details
// run only on Node 24 and later (run.mjs under .ci/node/24/bin/node), the
// rest on any Node.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { check, diff, post } from './harness/cases.mjs';

for (const alg of ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512', 'SHA256', 'RSA-SHA1']) {
  diff(`createHash ${alg}`, `
    const h = M.crypto.createHash(${JSON.stringify(alg)});
    h.update("hello ").update(M.buffer.Buffer.from("wörld")).update("68656c6c6f", "hex").update(new Uint8Array([1, 2]));
    const c = h.copy();
    return [h.digest("hex"), c.digest("base64"), M.crypto.createHash(${JSON.stringify(alg)}).update("").digest("base64url")];`);
}
diff('createHash digest buffer/latin1', 'const d = M.crypto.createHash("sha1").update("x").digest(); return [M.buffer.Buffer.isBuffer(d), d.length, M.crypto.createHash("md5").update("x").digest("latin1")];');
diff('createHash twice', 'const h = M.crypto.createHash("sha256"); h.digest(); try { h.digest(); } catch (e) { return [e.code, e.message]; }');
diff('createHash unknown', 'try { M.crypto.createHash("nope"); } catch (e) { return [e.message]; }');
diff('createHash bad data', 'try { M.crypto.createHash("sha256").update(5); } catch (e) { return [e.name, e.code, e.message]; }');
diff('crypto.hash', 'return typeof M.crypto.hash === "function" ? [M.crypto.hash("sha1", "abc"), M.crypto.hash("md5", "abc", "base64")] : "n/a";');
for (const alg of ['sha256', 'sha512', 'md5', 'sha1']) {
  diff(`createHmac ${alg}`, `return [M.crypto.createHmac(${JSON.stringify(alg)}, "key").update("data").digest("hex"),
    M.crypto.createHmac(${JSON.stringify(alg)}, M.buffer.Buffer.alloc(200, 1)).update("x").digest("base64"),
    M.crypto.createHmac(${JSON.stringify(alg)}, M.crypto.createSecretKey(M.buffer.Buffer.from("k"))).update("y").digest("hex")];`);
}
diff('pbkdf2Sync', 'return [M.crypto.pbkdf2Sync("pw", "salt", 1000, 32, "sha256").toString("hex"), M.crypto.pbkdf2Sync("pw", "salt", 1, 20, "sha1").toString("hex")];');
diff('pbkdf2 callback', 'return new Promise((r) => M.crypto.pbkdf2("pw", "salt", 10, 16, "sha512", (e, k) => r([e, k.toString("hex")])));');
diff('pbkdf2 bad digest', 'try { M.crypto.pbkdf2Sync("a", "b", 1, 1, "nope"); } catch (e) { return [e.name, e.code, e.message]; }');
diff('hkdfSync', 'return M.buffer.Buffer.from(M.crypto.hkdfSync("sha256", "key", "salt", "info", 42)).toString("hex");');
diff('hkdfSync empty salt', 'return M.buffer.Buffer.from(M.crypto.hkdfSync("sha512", "key", "", "", 100)).toString("hex");');
diff('timingSafeEqual', `
  const B = M.buffer.Buffer;
  const r = [M.crypto.timingSafeEqual(B.from("abc"), B.from("abc")), M.crypto.timingSafeEqual(B.from("abc"), B.from("abd"))];
  try { M.crypto.timingSafeEqual(B.from("a"), B.from("ab")); } catch (e) { r.push(e.name, e.code, e.message); }
  return r;`);
check('randomBytes', 'const b = M.crypto.randomBytes(16); return [M.buffer.Buffer.isBuffer(b), b.length, b.equals(M.crypto.randomBytes(16))];', [true, 16, false]);
check('randomBytes callback', 'return new Promise((r) => M.crypto.randomBytes(8, (e, b) => r([e, b.length])));', [null, 8]);
check('randomUUID', 'const u = M.crypto.randomUUID(); return [/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(u), u === M.crypto.randomUUID()];', [true, false]);
check('randomInt range and spread', `
  const seen = new Set(); let ok = true;
  for (let i = 0; i < 2000; i++) { const n = M.crypto.randomInt(3, 9); if (n < 3 || n >= 9 || !Number.isInteger(n)) ok = false; seen.add(n); }
  for (let i = 0; i < 200; i++) { const n = M.crypto.randomInt(5); if (n < 0 || n >= 5) ok = false; }
  return [ok, seen.size];`, [true, 6]);
check('randomInt callback', 'return new Promise((r) => M.crypto.randomInt(10, (e, n) => r([e === undefined, n >= 0 && n < 10])));', [true, true]);
diff('randomInt errors', `
  const out = [];
  for (const args of [[1, 1], [1.5], [0, 2 ** 49], ["1"]]) { try { M.crypto.randomInt(...args); } catch (e) { out.push([e.name, e.code, e.message]); } }
  return out;`);
check('randomFillSync/getRandomValues', `
  const a = new Uint32Array(4); M.crypto.randomFillSync(a); const b = M.buffer.Buffer.alloc(8); M.crypto.randomFillSync(b, 4);
  const g = M.crypto.getRandomValues(new Uint8Array(8));
  return [a.some((x) => x !== 0), b.subarray(0, 4).every((x) => x === 0), g.length];`, [true, true, 8]);
diff('getRandomValues errors', `
  const out = [];
  for (const v of [new Float32Array(1), new Uint8Array(70000)]) { try { M.crypto.getRandomValues(v); } catch (e) { out.push([e.name, e.code]); } }
  return out;`);
check('global crypto', `
  const u = G.crypto.randomUUID();
  return [u.length, G.crypto.getRandomValues(new Uint8Array(4)).length, typeof G.crypto.subtle.digest, G.crypto === M.crypto.webcrypto];`, [36, 4, 'function', true]);
diff('global crypto subtle', 'return G.crypto.subtle.digest("SHA-256", new Uint8Array([1])).then((d) => M.buffer.Buffer.from(d).toString("hex"));');
diff('getHashes includes', 'return ["md5", "sha1", "sha256", "sha512"].map((h) => M.crypto.getHashes().includes(h));');
diff('webcrypto digest', `
  const enc = new G.TextEncoder().encode("abc");
  return Promise.all(["SHA-1", "SHA-256", { name: "SHA-384" }, "sha-512"].map((a) => M.crypto.webcrypto.subtle.digest(a, enc)
    .then((d) => M.buffer.Buffer.from(d).toString("hex"))));`);
diff('webcrypto digest unsupported', 'return M.crypto.webcrypto.subtle.digest("MD5", new Uint8Array(1)).catch((e) => [e.name, e.message]);');
diff('webcrypto HMAC', `
  const s = M.crypto.webcrypto.subtle; const enc = new G.TextEncoder();
  return (async () => {
    const key = await s.importKey("raw", enc.encode("secret"), { name: "HMAC", hash: "SHA-256" }, true, ["sign", "verify"]);
    const sig = await s.sign("HMAC", key, enc.encode("msg"));
    const ok = await s.verify({ name: "HMAC" }, key, sig, enc.encode("msg"));
    const bad = await s.verify("HMAC", key, new Uint8Array(32), enc.encode("msg"));
    const raw = await s.exportKey("raw", key);
    const jwk = await s.exportKey("jwk", key);
    // Member order differs between Node lines (Shoal follows Node 24).
    const sorted = (o) => Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
    return [M.buffer.Buffer.from(sig).toString("hex"), ok, bad, M.buffer.Buffer.from(raw).toString(), key.type, key.extractable,
      sorted(key.algorithm), key.usages, sorted(jwk), Object.prototype.toString.call(key)];
  })();`);
diff('webcrypto non-extractable', `
  const s = M.crypto.webcrypto.subtle;
  // Node before 24 names the error InvalidAccessException (a typo Node 24 fixed).
  return s.importKey("raw", new Uint8Array([1, 2]), { name: "HMAC", hash: { name: "SHA-1" } }, false, ["sign"]).then((k) => s.exportKey("raw", k))
    .catch((e) => (e.name === "InvalidAccessException" ? "InvalidAccessError" : e.name));`);
diff('webcrypto PBKDF2', `
  const s = M.crypto.webcrypto.subtle; const enc = new G.TextEncoder();
  return s.importKey("raw", enc.encode("pw"), "PBKDF2", false, ["deriveBits"]).then((k) =>
    s.deriveBits({ name: "PBKDF2", salt: enc.encode("salt"), iterations: 1000, hash: "SHA-256" }, k, 256)).then((b) => M.buffer.Buffer.from(b).toString("hex"));`);
check('crypto unavailable', `
  const out = [];
  for (const fn of ["createDiffieHellman", "generatePrimeSync", "checkPrimeSync"]) {
    try { M.crypto[fn]("aes-256-gcm"); out.push("no throw"); } catch (e) { out.push(e.message.includes("crypto." + fn + "()") && e.message.includes("not available")); }
  }
  return out;`, [true, true, true]);
diff('scrypt', `
  const c = M.crypto; const B = M.buffer.Buffer;
  return [c.scryptSync("pw", "salt", 32, { N: 1024, r: 8, p: 1 }).toString("hex"), c.scryptSync(B.from("pw"), B.from("NaCl"), 16, { cost: 16, blockSize: 1, parallelization: 2 }).toString("base64")];`);
diff('AES-CBC, CTR and GCM round trips and chunked updates', `
  const c = M.crypto; const B = M.buffer.Buffer;
  const out = [];
  for (const bits of [128, 192, 256]) {
    const key = B.alloc(bits / 8, 7);
    for (const [mode, ivLen] of [["cbc", 16], ["ctr", 16], ["gcm", 12]]) {
      const iv = B.alloc(ivLen, 3);
      const name = "aes-" + bits + "-" + mode;
      for (const text of ["", "a", "exactly sixteen!", "a longer message that spans several blocks of AES, with ümläuts"]) {
        const e = c.createCipheriv(name, key, iv);
        if (mode === "gcm") e.setAAD(B.from("header"));
        const parts = [e.update(text.slice(0, 5), "utf8"), e.update(text.slice(5), "utf8"), e.final()];
        const ct = B.concat(parts);
        const tag = mode === "gcm" ? e.getAuthTag().toString("hex") : null;
        const d = c.createDecipheriv(name, key, iv);
        if (mode === "gcm") { d.setAAD(B.from("header")); d.setAuthTag(B.from(tag, "hex")); }
        const pt = B.concat([d.update(ct.subarray(0, 7)), d.update(ct.subarray(7)), d.final()]).toString("utf8");
        out.push([name, parts.map((p) => p.length), ct.toString("hex"), tag, pt === text]);
      }
    }
  }
  return out;`);
diff('AES errors', `
  const c = M.crypto; const B = M.buffer.Buffer; const out = [];
  const key = B.alloc(32, 1); const iv = B.alloc(12, 2);
  const e = c.createCipheriv("aes-256-gcm", key, iv); const ct = B.concat([e.update("secret"), e.final()]); const tag = e.getAuthTag();
  try { const d = c.createDecipheriv("aes-256-gcm", key, iv); d.setAuthTag(B.from(tag).fill(0)); d.update(ct); d.final(); out.push("accepted"); } catch (err) { out.push(err.message); }
  try { c.createCipheriv("aes-256-cbc", B.alloc(10), B.alloc(16)); } catch (err) { out.push([err.code, err.message]); }
  try { c.createCipheriv("aes-256-cbc", key, B.alloc(8)); } catch (err) { out.push([err.code, err.message]); }
  try { const d = c.createDecipheriv("aes-256-cbc", key, B.alloc(16)); d.update(B.alloc(16, 9)); d.final(); out.push("accepted"); } catch (err) { out.push(err.message); }
  try { const x = c.createCipheriv("aes-256-cbc", key, B.alloc(16)); x.setAutoPadding(false); x.update("abc"); x.final(); } catch (err) { out.push(err.message); }
  out.push(c.getCiphers().includes("aes-256-gcm"), c.getCipherInfo("aes-128-cbc"));
  return out;`);
diff('KeyObject', 'const k = M.crypto.createSecretKey(M.buffer.Buffer.from("abcd")); return [k.type, k.symmetricKeySize, k.export().toString(), k.export({ format: "jwk" })];');

// ---------------------------------------------------------------- keys and Web Crypto

const major = Number(process.versions.node.split('.')[0]);
const J = JSON.stringify;
const b64 = (b) => Buffer.from(b).toString('base64');

// The key types the engine has, with a fixed key of each.
const specs = [
  ['rsa 2048', 'rsa', { modulusLength: 2048 }],
  ['rsa 1024 e=3', 'rsa', { modulusLength: 1024, publicExponent: 3 }],
  ['rsa-pss', 'rsa-pss', { modulusLength: 1024 }],
  ['rsa-pss sha256', 'rsa-pss', { modulusLength: 1024, hashAlgorithm: 'sha256', mgf1HashAlgorithm: 'sha256', saltLength: 32 }],
  ['ec P-256', 'ec', { namedCurve: 'P-256' }],
  ['ec P-384', 'ec', { namedCurve: 'P-384' }],
  ['ec P-521', 'ec', { namedCurve: 'P-521' }],
  ['ed25519', 'ed25519', {}],
  ['x25519', 'x25519', {}],
];
const keys = {};
for (const [name, type, options] of specs) {
  const pair = crypto.generateKeyPairSync(type, options);
  keys[name] = {
    type,
    pkcs8: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }),
    spki: pair.publicKey.export({ type: 'spki', format: 'pem' }),
    privateKey: pair.privateKey,
    publicKey: pair.publicKey,
  };
}

// Runs in each realm: a key's details with the BigInt made a string.
const DETAILS = 'const details = (k) => { const d = k.asymmetricKeyDetails; return d && Object.fromEntries(Object.entries(d).map(([n, v]) => [n, typeof v === "bigint" ? String(v) : v])); };';
const ERR = 'const err = (f) => { try { const v = f(); return ["no error", typeof v]; } catch (e) { return [e.name, e.code, e.message]; } };';
const AERR = 'const aerr = (p) => p.then((v) => ["no error", Object.prototype.toString.call(v)], (e) => [e.name, e.code, e.message]);';
// Member order of Web Crypto objects differs between Node lines.
const SORTED = 'const sorted = (o) => o && typeof o === "object" && !Array.isArray(o) && !ArrayBuffer.isView(o) ? Object.fromEntries(Object.keys(o).sort().map((k) => [k, sorted(o[k])])) : ArrayBuffer.isView(o) ? Array.from(o) : o;';

const data = 'The quick brown fox jumps over the lazy dog';

function keyCases() {
  // For cases whose answer changed in Node 24 (messages, argument names).
  const diff24 = major >= 24 ? diff : () => {};
  // ------------------------------------------------------------ encodings
  for (const [name, k] of Object.entries(keys)) {
    const jwkOk = k.type !== 'rsa-pss';
    diff(`crypto key ${name}: PEM, DER and JWK`, `${DETAILS} ${ERR}
      const c = M.crypto; const B = M.buffer.Buffer;
      const priv = c.createPrivateKey(${J(k.pkcs8)});
      const pub = c.createPublicKey(${J(k.spki)});
      const fromPriv = c.createPublicKey(priv);
      const fromPem = c.createPublicKey(${J(k.pkcs8)});
      const der = priv.export({ type: "pkcs8", format: "der" });
      const spki = pub.export({ type: "spki", format: "der" });
      const out = [priv.type, priv.asymmetricKeyType, details(priv), pub.type, pub.asymmetricKeyType, details(pub),
        priv.symmetricKeySize, priv.export({ type: "pkcs8", format: "pem" }), der.toString("base64"), pub.export({ type: "spki", format: "pem" }),
        spki.toString("base64"), fromPriv.equals(pub), fromPem.equals(pub), priv.equals(pub), priv.equals(c.createPrivateKey(priv.export({ type: "pkcs8", format: "pem" }))),
        c.createPrivateKey({ key: der, format: "der", type: "pkcs8" }).export({ type: "pkcs8", format: "pem" }),
        c.createPublicKey({ key: spki, format: "der", type: "spki" }).export({ type: "spki", format: "pem" }),
        c.createPublicKey({ key: der.toString("hex"), format: "der", type: "pkcs8", encoding: "hex" }).export({ type: "spki", format: "pem" }),
        c.createPrivateKey({ key: new Uint8Array(der).buffer, format: "der", type: "pkcs8" }).equals(priv)];
      ${jwkOk ? `
      const jwk = priv.export({ format: "jwk" }); const pjwk = pub.export({ format: "jwk" });
      out.push(jwk, pjwk, c.createPrivateKey({ key: jwk, format: "jwk" }).export({ type: "pkcs8", format: "pem" }),
        c.createPublicKey({ key: pjwk, format: "jwk" }).export({ type: "spki", format: "pem" }),
        c.createPublicKey({ key: jwk, format: "jwk" }).export({ type: "spki", format: "pem" }));` : `
      out.push(err(() => priv.export({ format: "jwk" })), err(() => pub.export({ format: "jwk" })));`}
      for (const [type, isPub] of [["pkcs1", true], ["pkcs1", false], ["sec1", false], ["spki", false], ["pkcs8", true]]) {
        const key = isPub ? pub : priv;
        for (const format of ["pem", "der"]) {
          try {
            const e = key.export({ type, format });
            const back = (isPub ? c.createPublicKey : c.createPrivateKey)(format === "pem" ? e : { key: e, format, type });
            out.push([type, isPub, format, B.isBuffer(e) ? e.toString("base64") : e, back.equals(key)]);
          } catch (e) { out.push([type, isPub, format, e.name, e.code, e.message]); }
        }
      }
      return out;`);
  }

  // ------------------------------------------------------------ encrypted keys
  for (const name of ['rsa 2048', 'ec P-256', 'ed25519']) {
    const k = keys[name];
    const encrypted = [['pkcs8', 'aes-256-cbc'], ['pkcs8', 'aes-128-cbc'], ['pkcs8', 'aes-192-cbc']];
    if (k.type === 'rsa') encrypted.push(['pkcs1', 'aes-128-cbc'], ['pkcs1', 'aes-256-cbc']);
    if (k.type === 'ec') encrypted.push(['sec1', 'aes-256-cbc'], ['sec1', 'aes-192-cbc']);
    const pems = encrypted.map(([type, cipher]) => [type, cipher, k.privateKey.export({ type, format: 'pem', cipher, passphrase: 'top secret' })]);
    const encDer = k.privateKey.export({ type: 'pkcs8', format: 'der', cipher: 'aes-256-cbc', passphrase: 'top secret' });
    diff(`crypto key ${name}: encrypted PEM and DER`, `${ERR}
      const c = M.crypto; const out = [];
      for (const [type, cipher, pem] of ${J(pems)}) {
        out.push([type, cipher, c.createPrivateKey({ key: pem, passphrase: "top secret" }).export({ type: "pkcs8", format: "pem" })]);
        out.push(err(() => c.createPrivateKey({ key: pem, passphrase: "wrong" })).slice(0, 2));
        out.push(err(() => c.createPrivateKey(pem)).slice(0, 2));
        out.push(c.createPublicKey({ key: pem, passphrase: M.buffer.Buffer.from("top secret") }).export({ type: "spki", format: "pem" }));
        // Shoal's own encryption, read back.
        const key = c.createPrivateKey({ key: pem, passphrase: "top secret" });
        const ours = key.export({ type, format: "pem", cipher, passphrase: "again" });
        out.push(ours.split("\\n")[0], c.createPrivateKey({ key: ours, passphrase: "again" }).equals(key));
      }
      const der = M.buffer.Buffer.from(${J(b64(encDer))}, "base64");
      out.push(c.createPrivateKey({ key: der, format: "der", type: "pkcs8", passphrase: "top secret" }).export({ type: "pkcs8", format: "pem" }));
      return out;`);
  }
  post('crypto key: Shoal-encrypted keys read by Node', `
    const k = M.crypto.createPrivateKey(${J(keys['rsa 1024 e=3'].pkcs8)});
    return ["aes-128-cbc", "aes-192-cbc", "aes-256-cbc"].map((cipher) => [k.export({ type: "pkcs8", format: "pem", cipher, passphrase: "pw" }),
      k.export({ type: "pkcs1", format: "pem", cipher, passphrase: "pw" }), k.export({ type: "pkcs8", format: "der", cipher, passphrase: "pw" }).toString("base64")]);`,
  (r) => Array.isArray(r) ? r.map(([pkcs8, pkcs1, der]) => [pkcs8, pkcs1, { key: Buffer.from(der, 'base64'), format: 'der', type: 'pkcs8' }]
    .map((key) => crypto.createPrivateKey(typeof key === 'string' ? { key, passphrase: 'pw' } : { ...key, passphrase: 'pw' }).equals(keys['rsa 1024 e=3'].privateKey))) : r);

  // ------------------------------------------------------------ key input errors
  diff24('crypto key input errors', `${ERR}
    const c = M.crypto; const B = M.buffer.Buffer;
    const priv = c.createPrivateKey(${J(keys['ec P-256'].pkcs8)}); const pub = c.createPublicKey(priv);
    const secret = c.createSecretKey(B.from("k"));
    return [
      err(() => c.createPrivateKey("not a key")), err(() => c.createPublicKey("-----BEGIN PUBLIC KEY-----\\nAAAA\\n-----END PUBLIC KEY-----\\n")),
      err(() => c.createPrivateKey(${J(keys['ec P-256'].spki)})), err(() => c.createPrivateKey(pub)), err(() => c.createPublicKey(secret)),
      err(() => c.createPrivateKey(123)), err(() => c.createPublicKey({ key: 1 })), err(() => c.createPublicKey({ key: "x", format: "nope" })),
      err(() => c.createPublicKey({ key: B.alloc(3), format: "der" })), err(() => c.createPublicKey({ key: B.alloc(3), format: "der", type: "sec1" })),
      err(() => c.createPrivateKey({ key: B.alloc(3), format: "der", type: "spki" })),
      err(() => c.createPrivateKey({ key: "x", passphrase: 5 })),
      err(() => priv.export()), err(() => priv.export({ format: "pem" })), err(() => priv.export({ type: "spki", format: "pem" })),
      err(() => priv.export({ type: "pkcs1", format: "pem" })), err(() => pub.export({ type: "pkcs8", format: "pem" })),
      err(() => priv.export({ type: "pkcs8", format: "pem", passphrase: "x" })), err(() => priv.export({ type: "sec1", format: "der", cipher: "aes-128-cbc", passphrase: "x" })),
      err(() => priv.export({ type: "pkcs8", format: "pem", cipher: "nope", passphrase: "x" })), err(() => priv.export({ type: "pkcs8", format: "pem", cipher: "aes-128-cbc" })),
      err(() => priv.export({ format: "jwk", passphrase: "x" })), err(() => secret.export({ format: "pem" })),
      err(() => c.createPrivateKey({ key: { kty: "EC", crv: "P-256", x: "AA", y: "AA", d: "AA" }, format: "jwk" })),
      err(() => c.createPublicKey({ key: { kty: "EC", crv: "P-256", x: "AA" }, format: "jwk" })),
      err(() => c.createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: "AAAA" }, format: "jwk" })),
      err(() => c.createPublicKey({ key: { kty: "oct", k: "AA" }, format: "jwk" })), err(() => c.createPublicKey({ key: "str", format: "jwk" })),
      err(() => priv.equals("x")), secret.equals(c.createSecretKey(B.from("k"))), secret.equals(priv), secret.type, secret.symmetricKeySize,
      secret.asymmetricKeyType, secret.export().toString(), secret.export({ format: "jwk" }), err(() => new c.KeyObject("secret", {})),
      Object.prototype.toString.call(priv), priv instanceof c.KeyObject, typeof c.KeyObject.from,
    ];`);
  // The certificate of the compat suite's test-only upstream.
  const certPem = fs.readFileSync(path.join(import.meta.dirname, '../compat/harness/tls/upstream-cert.pem'), 'utf8');
  diff('crypto createPublicKey from a certificate', `
    const k = M.crypto.createPublicKey(${J(certPem)});
    return [k.type, k.asymmetricKeyType, k.export({ type: "spki", format: "pem" })];`);

  // ------------------------------------------------------------ signatures
  const signable = ['rsa 2048', 'rsa 1024 e=3', 'rsa-pss', 'rsa-pss sha256', 'ec P-256', 'ec P-384', 'ec P-521', 'ed25519'];
  for (const name of signable) {
    const k = keys[name];
    const hashes = k.type === 'ed25519' ? [null] : k.type === 'rsa-pss' && name.includes('sha256') ? ['sha256'] : ['sha1', 'sha256', 'sha384', 'sha512', 'RSA-SHA256', 'sha224'];
    const variants = [];
    for (const hash of hashes) {
      if (k.type === 'rsa') variants.push({ hash }, { hash, padding: 6 }, { hash, padding: 6, saltLength: -1 }, { hash, padding: 6, saltLength: 0 });
      else if (k.type === 'rsa-pss') variants.push({ hash }, { hash, saltLength: 32 }, { hash, saltLength: -3 });
      else if (k.type === 'ec') variants.push({ hash }, { hash, dsaEncoding: 'ieee-p1363' });
      else variants.push({ hash });
    }
    // Node's signatures, for the realm to verify.
    const nodeSigs = variants.map((v) => {
      try {
        return b64(crypto.sign(v.hash, Buffer.from(data), { key: k.privateKey, padding: v.padding, saltLength: v.saltLength, dsaEncoding: v.dsaEncoding }));
      } catch {
        return null;
      }
    });
    const deterministic = k.type === 'ed25519' || (k.type === 'rsa');
    post(`crypto sign/verify ${name}`, `
      const c = M.crypto; const B = M.buffer.Buffer;
      const priv = c.createPrivateKey(${J(k.pkcs8)}); const pub = c.createPublicKey(${J(k.spki)});
      const variants = ${J(variants)}; const nodeSigs = ${J(nodeSigs)};
      return variants.map((v, i) => {
        const opts = { padding: v.padding, saltLength: v.saltLength, dsaEncoding: v.dsaEncoding };
        let sig;
        try { sig = c.sign(v.hash, B.from(${J(data)}), { key: priv, ...opts }); } catch (e) { return { v, error: [e.name, e.code, e.message] }; }
        const nodeSig = B.from(nodeSigs[i], "base64");
        const bad = B.from(nodeSig); bad[bad.length >> 1] ^= 1;
        return { v, sig: sig.toString("base64"), own: c.verify(v.hash, B.from(${J(data)}), { key: pub, ...opts }, sig),
          node: c.verify(v.hash, B.from(${J(data)}), { key: pub, ...opts }, nodeSig), tampered: c.verify(v.hash, B.from(${J(data)}), { key: pub, ...opts }, bad),
          withPrivate: c.verify(v.hash, B.from(${J(data)}), { key: priv, ...opts }, nodeSig) };
      });`,
    (r) => Array.isArray(r) ? r.map(({ v, sig, ...rest }) => {
      if (sig === undefined) return { v, ...rest };
      const s = Buffer.from(sig, 'base64');
      const ok = crypto.verify(v.hash, Buffer.from(data), { key: k.publicKey, padding: v.padding, saltLength: v.saltLength, dsaEncoding: v.dsaEncoding }, s);
      // Deterministic schemes: the same bytes in both realms.
      const same = deterministic && v.padding !== 6 ? b64(crypto.sign(v.hash, Buffer.from(data), k.privateKey)) === sig : null;
      return { v, nodeVerifies: ok, same, length: v.dsaEncoding ? s.length : null, ...rest };
    }) : r);
  }
  diff('crypto createSign/createVerify', `${ERR}
    const c = M.crypto; const B = M.buffer.Buffer;
    const rsa = c.createPrivateKey(${J(keys['rsa 2048'].pkcs8)}); const rsaPub = ${J(keys['rsa 2048'].spki)};
    const s = c.createSign("RSA-SHA256"); s.update("hello "); s.update(B.from("wor")); s.update("6c64", "hex");
    const sig = s.sign(rsa, "base64");
    const v = c.createVerify("sha256"); v.update("hello world");
    const w = c.createSign("sha512"); w.write("streamed"); w.end();
    const sig2 = w.sign({ key: ${J(keys['rsa 2048'].pkcs8)} });
    const ec = c.createPrivateKey(${J(keys['ec P-384'].pkcs8)});
    const e = c.createSign("SHA384").update("ec");
    const esig = e.sign({ key: ec, dsaEncoding: "ieee-p1363" });
    return [sig, v.verify(rsaPub, sig, "base64"), c.createVerify("sha256").update("hello").verify(rsaPub, sig, "base64"), sig2.toString("hex"),
      esig.length, c.createVerify("sha384").update("ec").verify({ key: c.createPublicKey(ec), dsaEncoding: "ieee-p1363" }, esig),
      c.createSign("sha1").update("x").sign(rsa, "hex").length, c.createSign("sha256").update("x").sign(rsa, "latin1").length,
      err(() => c.createSign("nope")), err(() => c.createSign(5)), err(() => c.createSign("sha256").update(5)), err(() => c.createSign("sha256").sign()),
      err(() => c.createSign("sha256").update("x").sign(c.createPublicKey(rsa))), err(() => c.createSign("sha256").update("x").sign({ key: rsa, padding: 2.5 })),
      err(() => c.createSign("sha256").update("x").sign({ key: ec, dsaEncoding: "nope" })),
      typeof c.Sign, new c.Sign("sha1") instanceof c.Sign, c.Verify("sha1") instanceof c.Verify];`);
  diff24('crypto sign/verify errors', `${ERR}
    const c = M.crypto; const B = M.buffer.Buffer;
    const rsa = c.createPrivateKey(${J(keys['rsa 1024 e=3'].pkcs8)}); const ed = c.createPrivateKey(${J(keys.ed25519.pkcs8)});
    const x = c.createPrivateKey(${J(keys.x25519.pkcs8)}); const pss = c.createPrivateKey(${J(keys['rsa-pss sha256'].pkcs8)});
    const ec = c.createPrivateKey(${J(keys['ec P-256'].pkcs8)});
    return [err(() => c.sign("nope", B.from("x"), rsa)), err(() => c.sign("sha256", B.from("x"))), err(() => c.sign("sha256", B.from("x"), c.createPublicKey(rsa))),
      err(() => c.sign("sha256", B.from("x"), ed)), err(() => c.sign(null, B.from("x"), x)), err(() => c.sign("sha512", B.from("x"), pss)),
      err(() => c.sign("sha256", B.from("x"), { key: pss, saltLength: 10 })), err(() => c.sign("sha256", B.from("x"), { key: pss, padding: 1 })),
      err(() => c.sign("sha256", 5, rsa)), err(() => c.verify("sha256", B.from("x"), rsa, "sig")), err(() => c.verify("sha256", B.from("x"), ed, B.alloc(64))),
      c.verify(null, B.from("x"), ed, B.alloc(64)), c.verify("sha256", B.from("x"), ec, B.alloc(64)), c.verify("sha256", B.from("x"), { key: ec, dsaEncoding: "ieee-p1363" }, B.alloc(3)),
      c.verify("sha256", B.from("x"), rsa, B.alloc(128)), c.sign(null, "string data", rsa).length, c.sign(undefined, new Uint8Array(3), ed).length,
      err(() => c.sign("sha256", B.from("x"), { key: ec, dsaEncoding: "x" }))];`);
  diff('crypto sign/verify with callbacks', `
    const c = M.crypto; const B = M.buffer.Buffer; const ed = c.createPrivateKey(${J(keys.ed25519.pkcs8)});
    return new Promise((resolve) => c.sign(null, B.from("cb"), ed, (e, sig) => c.verify(null, B.from("cb"), c.createPublicKey(ed), sig,
      (e2, ok) => { let e3; try { c.sign(null, B.from("cb"), "bad key", () => {}); } catch (x) { e3 = x.code; } resolve([e, sig.toString("hex"), e2, ok, e3]); })));`);

  // ------------------------------------------------------------ RSA encryption
  {
    const k = keys['rsa 2048'];
    const msg = 'a secret message';
    const oaep = [['sha1', undefined], ['sha256', undefined], ['sha256', 'label'], ['sha512', 'lbl']].map(([hash, label]) =>
      [hash, label, b64(crypto.publicEncrypt({ key: k.publicKey, oaepHash: hash, oaepLabel: label && Buffer.from(label) }, Buffer.from(msg)))]);
    const raw = Buffer.alloc(256, 7); raw[0] = 0;
    diff('crypto RSA: OAEP decrypt of Node ciphertexts, privateEncrypt, publicDecrypt, raw RSA', `${ERR}
      const c = M.crypto; const B = M.buffer.Buffer; const priv = c.createPrivateKey(${J(k.pkcs8)}); const pub = ${J(k.spki)};
      const out = ${J(oaep)}.map(([hash, label, ct]) => c.privateDecrypt({ key: priv, oaepHash: hash, oaepLabel: label && B.from(label) }, B.from(ct, "base64")).toString());
      const pe = c.privateEncrypt(priv, B.from(${J(msg)}));
      out.push(pe.toString("base64"), c.publicDecrypt(pub, pe).toString(), c.publicDecrypt(priv, pe).toString());
      const raw = B.from(${J(b64(raw))}, "base64");
      const rc = c.publicEncrypt({ key: pub, padding: c.constants.RSA_NO_PADDING }, raw);
      out.push(rc.toString("base64"), c.privateDecrypt({ key: priv, padding: 3 }, rc).equals(raw), c.privateEncrypt({ key: priv, padding: 3 }, raw).toString("base64"));
      out.push(err(() => c.privateDecrypt(priv, B.alloc(256, 1))), err(() => c.publicEncrypt(pub, B.alloc(300))), err(() => c.publicEncrypt({ key: pub, oaepHash: "nope" }, B.from("x"))),
        err(() => c.publicEncrypt({ key: pub, padding: 7 }, B.from("x"))), err(() => c.publicDecrypt(pub, B.alloc(256, 1))),
        err(() => c.publicEncrypt(${J(keys['ec P-256'].spki)}, B.from("x"))), err(() => c.privateDecrypt(pub, B.alloc(256))), err(() => c.publicEncrypt({ key: pub, oaepHash: 5 }, B.from("x"))));
      return out;`);
    post('crypto RSA: OAEP and PKCS#1 ciphertexts made in the realm', `
      const c = M.crypto; const B = M.buffer.Buffer; const pub = c.createPublicKey(${J(k.spki)});
      return [c.publicEncrypt(pub, B.from("m1")), c.publicEncrypt({ key: pub, oaepHash: "sha256", oaepLabel: B.from("L") }, B.from("m2")),
        c.publicEncrypt({ key: pub, padding: 1 }, B.from("m3")), c.publicEncrypt(${J(k.pkcs8)}, B.from("m4"))].map((b) => b.toString("base64"));`,
    (r) => Array.isArray(r) ? [
      crypto.privateDecrypt(k.privateKey, Buffer.from(r[0], 'base64')).toString(),
      crypto.privateDecrypt({ key: k.privateKey, oaepHash: 'sha256', oaepLabel: Buffer.from('L') }, Buffer.from(r[1], 'base64')).toString(),
      crypto.privateDecrypt({ key: k.privateKey, padding: crypto.constants.RSA_NO_PADDING }, Buffer.from(r[2], 'base64')).subarray(-3).toString(),
      crypto.privateDecrypt(k.privateKey, Buffer.from(r[3], 'base64')).toString()] : r);
    if (major >= 22) {
      // Node 20 refuses PKCS#1 v1.5 decryption; 22 and later decrypt with
      // implicit rejection (a pseudo-random message for a bad padding).
      const ct = crypto.publicEncrypt({ key: k.publicKey, padding: 1 }, Buffer.from(msg));
      const bad = crypto.publicEncrypt({ key: k.publicKey, padding: 3 }, Buffer.concat([Buffer.from([0, 2]), Buffer.alloc(254, 9)]));
      diff('crypto RSA: PKCS#1 v1.5 decryption with implicit rejection', `
        const c = M.crypto; const B = M.buffer.Buffer; const priv = c.createPrivateKey(${J(k.pkcs8)});
        return [c.privateDecrypt({ key: priv, padding: 1 }, B.from(${J(b64(ct))}, "base64")).toString(),
          c.privateDecrypt({ key: priv, padding: 1 }, B.from(${J(b64(bad))}, "base64")).toString("hex")];`);
    }
    diff('crypto constants', 'return Object.fromEntries(Object.entries(M.crypto.constants).filter(([k]) => /^(RSA_|POINT_)/.test(k) && k !== "RSA_SSLV23_PADDING"));');
  }

  // ------------------------------------------------------------ ECDH
  for (const [curve, jwkCurve] of [['prime256v1', 'P-256'], ['secp384r1', 'P-384'], ['secp521r1', 'P-521']]) {
    const a = crypto.createECDH(curve); a.generateKeys();
    const b = crypto.createECDH(curve); b.generateKeys();
    diff(`crypto ECDH ${curve}`, `${ERR}
      const c = M.crypto; const B = M.buffer.Buffer;
      const a = c.createECDH(${J(curve)}); a.setPrivateKey(${J(a.getPrivateKey('hex'))}, "hex");
      const peer = B.from(${J(b.getPublicKey('base64', 'compressed'))}, "base64");
      const out = [a.getPublicKey("hex"), a.getPublicKey("base64", "compressed"), a.getPublicKey(null, "hybrid").toString("hex"), a.getPrivateKey("hex"),
        a.computeSecret(peer).toString("hex"), a.computeSecret(${J(b.getPublicKey('hex'))}, "hex", "base64"),
        c.ECDH.convertKey(peer, ${J(curve)}, null, "hex", "uncompressed"), c.ECDH.convertKey(${J(b.getPublicKey('hex'))}, ${J(curve)}, "hex", "hex", "compressed"),
        err(() => a.computeSecret(B.alloc(65, 1))), err(() => a.getPublicKey("hex", "bogus")), err(() => c.ECDH.convertKey(B.alloc(5), ${J(curve)}))];
      const g = c.createECDH(${J(curve)}); const gp = g.generateKeys();
      const h = c.createECDH(${J(curve)}); h.setPrivateKey(g.getPrivateKey());
      out.push(gp.equals(h.getPublicKey()), g.computeSecret(peer).equals(c.createECDH(${J(curve)}).setPrivateKey(g.getPrivateKey()).computeSecret(peer)), gp.length);
      return out;`);
    const ka = crypto.generateKeyPairSync('ec', { namedCurve: jwkCurve });
    const kb = crypto.generateKeyPairSync('ec', { namedCurve: jwkCurve });
    diff(`crypto diffieHellman ${jwkCurve}`, `
      const c = M.crypto;
      return c.diffieHellman({ privateKey: c.createPrivateKey(${J(ka.privateKey.export({ type: 'pkcs8', format: 'pem' }))}),
        publicKey: c.createPublicKey(${J(kb.publicKey.export({ type: 'spki', format: 'pem' }))}) }).toString("hex");`);
  }
  {
    const xa = crypto.generateKeyPairSync('x25519');
    diff24('crypto diffieHellman X25519 and errors', `${ERR}
      const c = M.crypto;
      const priv = c.createPrivateKey(${J(keys.x25519.pkcs8)}); const pub = c.createPublicKey(${J(xa.publicKey.export({ type: 'spki', format: 'pem' }))});
      const ec = c.createPrivateKey(${J(keys['ec P-256'].pkcs8)}); const ec384 = c.createPublicKey(${J(keys['ec P-384'].spki)});
      return [c.diffieHellman({ privateKey: priv, publicKey: pub }).toString("hex"), c.diffieHellman({ privateKey: priv, publicKey: c.createPrivateKey(${J(xa.privateKey.export({ type: 'pkcs8', format: 'pem' }))}) }).toString("hex"),
        err(() => c.diffieHellman({ privateKey: priv, publicKey: ec })), err(() => c.diffieHellman({ privateKey: pub, publicKey: pub })),
        err(() => c.diffieHellman({ privateKey: "x", publicKey: pub })), err(() => c.diffieHellman()), err(() => c.diffieHellman({ privateKey: ec, publicKey: ec384 })[0]),
        err(() => c.createECDH("nope")), err(() => c.createECDH(5)), err(() => c.createECDH("prime256v1").getPublicKey()), err(() => c.createECDH("prime256v1").setPrivateKey(M.buffer.Buffer.alloc(32))),
        ["prime256v1", "secp384r1", "secp521r1"].map((n) => c.getCurves().includes(n)), ["sha1", "sha256", "sha512", "md5"].map((h) => c.getHashes().includes(h))];`);
  }

  // Curves Node has and the engine does not: a clear error, not a wrong key.
  {
    const k1 = crypto.generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).privateKey.export({ type: 'pkcs8', format: 'pem' });
    check('crypto curves Shoal does not have', `
      const out = [];
      for (const f of [() => M.crypto.createPrivateKey(${J(k1)}), () => M.crypto.createECDH("secp256k1"), () => M.crypto.generateKeyPairSync("ec", { namedCurve: "secp224r1" }),
        () => M.crypto.generateKeyPairSync("ed448"), () => M.crypto.createECDH("nope")]) {
        try { f(); out.push("no error"); } catch (e) { out.push([e.name, e.code]); }
      }
      return out;`, [['Error', 'ERR_NOT_AVAILABLE_IN_SHOAL'], ['Error', 'ERR_NOT_AVAILABLE_IN_SHOAL'], ['Error', 'ERR_NOT_AVAILABLE_IN_SHOAL'],
      ['Error', 'ERR_NOT_AVAILABLE_IN_SHOAL'], ['TypeError', 'ERR_CRYPTO_INVALID_CURVE']]);
  }

  // ------------------------------------------------------------ key generation
  const genSpecs = [
    ['rsa', { modulusLength: 1024 }], ['rsa', { modulusLength: 1024, publicExponent: 3 }],
    ['rsa-pss', { modulusLength: 1024 }], ['rsa-pss', { modulusLength: 1024, hashAlgorithm: 'sha256' }], ['rsa-pss', { modulusLength: 1024, mgf1HashAlgorithm: 'sha384' }],
    ['rsa-pss', { modulusLength: 1024, saltLength: 16 }], ['ec', { namedCurve: 'P-256' }], ['ec', { namedCurve: 'secp384r1' }],
    ['ec', { namedCurve: 'P-521' }], ['ed25519', {}], ['x25519', {}],
  ];
  for (const [type, options] of genSpecs) {
    post(`crypto generateKeyPairSync ${type} ${J(options)}`, `${DETAILS}
      const c = M.crypto;
      const { publicKey, privateKey } = c.generateKeyPairSync(${J(type)}, ${J(options)});
      const pem = c.generateKeyPairSync(${J(type)}, { ...${J(options)}, publicKeyEncoding: { type: "spki", format: "pem" }, privateKeyEncoding: { type: "pkcs8", format: "der" } });
      return { shape: [publicKey.type, privateKey.type, publicKey.asymmetricKeyType, details(privateKey), typeof pem.publicKey, pem.privateKey.constructor.name,
        c.createPublicKey(privateKey).equals(publicKey)],
        keys: [privateKey.export({ type: "pkcs8", format: "pem" }), publicKey.export({ type: "spki", format: "pem" }), pem.privateKey.toString("base64"), pem.publicKey] };`,
    (r) => {
      if (!r || !r.keys) return r;
      const [privPem, pubPem, derB64, pub2] = r.keys;
      const check2 = (priv, pub) => {
        const p = crypto.createPrivateKey(priv);
        if (p.asymmetricKeyType === 'x25519') return crypto.diffieHellman({ privateKey: p, publicKey: crypto.createPublicKey(pub) }).length === 32;
        const hash = p.asymmetricKeyType === 'ed25519' ? null : p.asymmetricKeyDetails.hashAlgorithm || 'sha256';
        return crypto.createPublicKey(p).equals(crypto.createPublicKey(pub)) &&
          crypto.verify(hash, Buffer.from('x'), crypto.createPublicKey(pub), crypto.sign(hash, Buffer.from('x'), p));
      };
      return { shape: r.shape, pairsWork: [check2(privPem, pubPem), check2({ key: Buffer.from(derB64, 'base64'), format: 'der', type: 'pkcs8' }, pub2)] };
    });
  }
  post('crypto generateKeyPair callback, promisify and encodings', `return (async () => {
    const c = M.crypto; const u = M.util;
    const cb = await new Promise((resolve) => c.generateKeyPair("ec", { namedCurve: "P-256", publicKeyEncoding: { type: "spki", format: "der" }, privateKeyEncoding: { type: "sec1", format: "pem" } },
      (err, pub, priv) => resolve([err, pub.toString("base64"), priv])));
    const p = await u.promisify(c.generateKeyPair)("ed25519", { publicKeyEncoding: { format: "jwk" }, privateKeyEncoding: { type: "pkcs8", format: "pem", cipher: "aes-256-cbc", passphrase: "pw" } });
    const rsa = c.generateKeyPairSync("rsa", { modulusLength: 1024, publicKeyEncoding: { type: "pkcs1", format: "pem" }, privateKeyEncoding: { type: "pkcs1", format: "pem" } });
    return [cb, [p.publicKey, p.privateKey], [rsa.publicKey, rsa.privateKey]];
  })();`,
  (r) => {
    if (!Array.isArray(r)) return r;
    const [[err, pubDer, secPem], [jwk, encPem], [rsaPub, rsaPriv]] = r;
    const sec = crypto.createPrivateKey(secPem);
    const ed = crypto.createPrivateKey({ key: encPem, passphrase: 'pw' });
    const rsaKey = crypto.createPrivateKey(rsaPriv);
    return [err, crypto.createPublicKey(sec).equals(crypto.createPublicKey({ key: Buffer.from(pubDer, 'base64'), format: 'der', type: 'spki' })),
      secPem.split('\n')[0], Object.keys(jwk), crypto.createPublicKey(ed).equals(crypto.createPublicKey({ key: jwk, format: 'jwk' })), encPem.split('\n')[0],
      rsaPub.split('\n')[0], crypto.createPublicKey(rsaKey).equals(crypto.createPublicKey(rsaPub))];
  });
  diff24('crypto key generation errors', `${ERR}
    const c = M.crypto;
    return [err(() => c.generateKeyPairSync("nope")), err(() => c.generateKeyPairSync("rsa")), err(() => c.generateKeyPairSync("rsa", { modulusLength: "1024" })),
      err(() => c.generateKeyPairSync("rsa", { modulusLength: -1 })), err(() => c.generateKeyPairSync("rsa", { modulusLength: 1024, publicExponent: 1.5 })),
      err(() => c.generateKeyPairSync("ec", {})), err(() => c.generateKeyPairSync("ec", { namedCurve: "nope" })),
      err(() => c.generateKeyPairSync("ec", { namedCurve: "P-256", publicKeyEncoding: { type: "pkcs1", format: "pem" } })),
      err(() => c.generateKeyPairSync("ec", { namedCurve: "P-256", privateKeyEncoding: { type: "pkcs8", format: "pem", cipher: "aes-128-cbc" } })),
      err(() => c.generateKeyPairSync("ec", { namedCurve: "P-256", publicKeyEncoding: "pem" })), err(() => c.generateKeyPairSync("rsa-pss", { modulusLength: 1024, hashAlgorithm: "nope" })),
      err(() => c.generateKeyPairSync("rsa-pss", { modulusLength: 1024, saltLength: -1 })), err(() => c.generateKeyPair("ed25519", {})),
      err(() => c.generateKeySync("hmac", { length: 4 })), err(() => c.generateKeySync("aes", { length: 100 })), err(() => c.generateKeySync("des", { length: 64 })),
      c.generateKeySync("hmac", { length: 123 }).symmetricKeySize, c.generateKeySync("aes", { length: 192 }).symmetricKeySize];`);

  // ------------------------------------------------------------ Web Crypto
  webCases({ diff, post, diff24 });
  x509Cases({ diff, diff24, certPem });
}

// Web Crypto: every algorithm Shoal has, keys imported from Node's in every
// format and exported back, and each operation against Node's.
function webCases({ diff, post, diff24 }) {
  const webKeys = {
    ecdsa256: keys['ec P-256'], ecdsa384: keys['ec P-384'], ecdsa521: keys['ec P-521'], rsa: keys['rsa 2048'], ed: keys.ed25519, x: keys.x25519,
  };
  const der = (k, type) => b64(k[type === 'spki' ? 'publicKey' : 'privateKey'].export({ type, format: 'der' }));
  const algs = [
    ['ECDSA P-256', { name: 'ECDSA', namedCurve: 'P-256' }, webKeys.ecdsa256, ['sign'], ['verify']],
    ['ECDSA P-384', { name: 'ECDSA', namedCurve: 'P-384' }, webKeys.ecdsa384, ['sign'], ['verify']],
    ['ECDSA P-521', { name: 'ECDSA', namedCurve: 'P-521' }, webKeys.ecdsa521, ['sign'], ['verify']],
    ['ECDH P-256', { name: 'ECDH', namedCurve: 'P-256' }, webKeys.ecdsa256, ['deriveBits', 'deriveKey'], []],
    ['RSASSA-PKCS1-v1_5', { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, webKeys.rsa, ['sign'], ['verify']],
    ['RSA-PSS', { name: 'RSA-PSS', hash: { name: 'SHA-384' } }, webKeys.rsa, ['sign'], ['verify']],
    ['RSA-OAEP', { name: 'RSA-OAEP', hash: 'SHA-1' }, webKeys.rsa, ['decrypt', 'unwrapKey'], ['encrypt', 'wrapKey']],
    ['Ed25519', { name: 'Ed25519' }, webKeys.ed, ['sign'], ['verify']],
    ['X25519', 'X25519', webKeys.x, ['deriveBits'], []],
  ];
  for (const [label, algorithm, k, privUsages, pubUsages] of algs) {
    const raw = label.startsWith('ECD') || label === 'Ed25519' || label === 'X25519';
    diff(`webcrypto ${label}: importKey and exportKey in every format`, `${SORTED} ${AERR}
      const s = G.crypto.subtle; const B = M.buffer.Buffer; const alg = ${J(algorithm)};
      const priv = await s.importKey("pkcs8", B.from(${J(der(k, 'pkcs8'))}, "base64"), alg, true, ${J(privUsages)});
      const pub = await s.importKey("spki", B.from(${J(der(k, 'spki'))}, "base64"), alg, true, ${J(pubUsages)});
      const hex = (ab) => B.from(ab).toString("base64");
      const jwk = await s.exportKey("jwk", priv); const pjwk = await s.exportKey("jwk", pub);
      if (jwk.key_ops) jwk.key_ops.sort();
      const out = [priv.type, priv.extractable, sorted(priv.algorithm), priv.usages.slice().sort(), pub.type, sorted(pub.algorithm), pub.usages,
        hex(await s.exportKey("pkcs8", priv)), hex(await s.exportKey("spki", pub)), sorted(jwk), sorted(pjwk),
        Object.prototype.toString.call(priv), priv instanceof G.CryptoKey];
      const priv2 = await s.importKey("jwk", jwk, alg, false, ${J(privUsages)});
      const pub2 = await s.importKey("jwk", pjwk, alg, true, ${J(pubUsages)});
      out.push(priv2.extractable, hex(await s.exportKey("spki", pub2)));
      ${raw ? `const rawPub = await s.exportKey("raw", pub); out.push(hex(rawPub), hex(await s.exportKey("spki", await s.importKey("raw", rawPub, alg, true, ${J(pubUsages)}))));` : ''}
      // (Node before 24 gives other errors here.)
      if (${major >= 24}) out.push(await aerr(s.exportKey("raw", priv)), await aerr(s.exportKey("pkcs8", pub)), await aerr(s.exportKey("spki", priv2)),
        await aerr(s.importKey("spki", B.from(${J(der(k, 'spki'))}, "base64"), alg, true, ${J(privUsages)})),
        await aerr(s.importKey("pkcs8", B.from(${J(der(k, 'spki'))}, "base64"), alg, true, ${J(privUsages)})),
        await aerr(s.importKey("pkcs8", B.from(${J(der(k, 'pkcs8'))}, "base64"), alg, true, [])));
      const ko = M.crypto.KeyObject.from(priv);
      out.push(ko.type, ko.asymmetricKeyType);
      return out;`.replace(/^/, 'return (async () => {').concat(' })();'));
  }
  // Signatures: deterministic ones compared, the others checked by Node.
  const sigAlgs = [
    ['ECDSA P-256 SHA-256', { name: 'ECDSA', namedCurve: 'P-256' }, { name: 'ECDSA', hash: 'SHA-256' }, webKeys.ecdsa256],
    ['ECDSA P-384 SHA-384', { name: 'ECDSA', namedCurve: 'P-384' }, { name: 'ECDSA', hash: 'SHA-384' }, webKeys.ecdsa384],
    ['ECDSA P-521 SHA-512', { name: 'ECDSA', namedCurve: 'P-521' }, { name: 'ECDSA', hash: 'SHA-512' }, webKeys.ecdsa521],
    ['RSASSA SHA-256', { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, 'RSASSA-PKCS1-v1_5', webKeys.rsa],
    ['RSA-PSS SHA-256 salt 32', { name: 'RSA-PSS', hash: 'SHA-256' }, { name: 'RSA-PSS', saltLength: 32 }, webKeys.rsa],
    ['RSA-PSS SHA-512 salt 0', { name: 'RSA-PSS', hash: 'SHA-512' }, { name: 'RSA-PSS', saltLength: 0 }, webKeys.rsa],
    ['Ed25519', 'Ed25519', 'Ed25519', webKeys.ed],
  ];
  for (const [label, importAlg, signAlg, k] of sigAlgs) {
    post(`webcrypto sign/verify ${label}`, `
      const s = G.crypto.subtle; const B = M.buffer.Buffer;
      const priv = await s.importKey("pkcs8", B.from(${J(der(k, 'pkcs8'))}, "base64"), ${J(importAlg)}, false, ["sign"]);
      const pub = await s.importKey("spki", B.from(${J(der(k, 'spki'))}, "base64"), ${J(importAlg)}, false, ["verify"]);
      const sig = await s.sign(${J(signAlg)}, priv, B.from(${J(data)}));
      const bad = new Uint8Array(sig); bad[3] ^= 1;
      return [B.from(sig).toString("base64"), await s.verify(${J(signAlg)}, pub, sig, B.from(${J(data)})), await s.verify(${J(signAlg)}, pub, bad, B.from(${J(data)})),
        await s.verify(${J(signAlg)}, pub, sig, B.from("other"))];`.replace(/^/, 'return (async () => {').concat(' })();'),
    async (r) => {
      if (!Array.isArray(r)) return r;
      const s = crypto.webcrypto.subtle;
      const pub = await s.importKey('spki', k.publicKey.export({ type: 'spki', format: 'der' }), importAlg, false, ['verify']);
      return [await s.verify(signAlg, pub, Buffer.from(r[0], 'base64'), Buffer.from(data)), ...r.slice(1)];
    });
  }
  diff('webcrypto deterministic signatures', `
    const s = G.crypto.subtle; const B = M.buffer.Buffer;
    const rsa = await s.importKey("pkcs8", B.from(${J(der(webKeys.rsa, 'pkcs8'))}, "base64"), { name: "RSASSA-PKCS1-v1_5", hash: "SHA-512" }, false, ["sign"]);
    const ed = await s.importKey("pkcs8", B.from(${J(der(webKeys.ed, 'pkcs8'))}, "base64"), "Ed25519", false, ["sign"]);
    const h = await s.importKey("raw", B.from("hmac key"), { name: "HMAC", hash: "SHA-384" }, false, ["sign", "verify"]);
    const sigs = [await s.sign("RSASSA-PKCS1-v1_5", rsa, B.from("m")), await s.sign({ name: "Ed25519" }, ed, B.from("m")), await s.sign("HMAC", h, B.from("m"))];
    return [...sigs.map((x) => B.from(x).toString("base64")), await s.verify("HMAC", h, sigs[2], B.from("m")), await s.verify("HMAC", h, sigs[2].slice(1), B.from("m"))];`
    .replace(/^/, 'return (async () => {').concat(' })();'));

  // Ciphers.
  diff('webcrypto AES-GCM, AES-CBC, AES-CTR', `${AERR}
    const s = G.crypto.subtle; const B = M.buffer.Buffer; const out = [];
    const msg = B.from("attack at dawn, ".repeat(5));
    for (const bits of [128, 192, 256]) {
      const raw = new Uint8Array(bits / 8).map((_, i) => i * 7);
      const gcm = await s.importKey("raw", raw, "AES-GCM", true, ["encrypt", "decrypt"]);
      for (const tagLength of [undefined, 96, 128, 32]) {
        const p = { name: "AES-GCM", iv: new Uint8Array(12).fill(1), additionalData: B.from("aad"), tagLength };
        const ct = await s.encrypt(p, gcm, msg);
        out.push(B.from(ct).toString("base64"), B.from(await s.decrypt(p, gcm, ct)).equals(msg));
        const bad = new Uint8Array(ct); bad[0] ^= 1;
        out.push(await aerr(s.decrypt(p, gcm, bad)));
      }
      const cbc = await s.importKey("raw", raw, { name: "AES-CBC" }, false, ["encrypt", "decrypt"]);
      const cp = { name: "AES-CBC", iv: new Uint8Array(16).fill(9) };
      for (const m of [msg, msg.subarray(0, 16), new Uint8Array(0)]) {
        const ct = await s.encrypt(cp, cbc, m);
        out.push(B.from(ct).toString("base64"), B.from(await s.decrypt(cp, cbc, ct)).equals(B.from(m)));
      }
      out.push(await aerr(s.decrypt(cp, cbc, new Uint8Array(16))), await aerr(s.decrypt(cp, cbc, new Uint8Array(15))));
      const ctr = await s.importKey("raw", raw, "AES-CTR", false, ["encrypt", "decrypt"]);
      for (const [counter, length] of [[new Uint8Array(16), 64], [new Uint8Array(16).fill(255), 8], [new Uint8Array(16).fill(254), 128], [new Uint8Array(16).fill(255), 32]]) {
        const cp2 = { name: "AES-CTR", counter, length };
        const ct = await s.encrypt(cp2, ctr, msg);
        out.push(B.from(ct).toString("base64"), B.from(await s.decrypt(cp2, ctr, ct)).equals(msg));
      }
      out.push(await aerr(s.encrypt({ name: "AES-CTR", counter: new Uint8Array(16), length: 2 }, ctr, new Uint8Array(100))));
      out.push(B.from(await s.exportKey("raw", gcm)).equals(B.from(raw)));
    }
    return out.map((x) => Array.isArray(x) ? x.slice(0, ${major >= 24 ? 3 : 1}) : x);`.replace(/^/, 'return (async () => {').concat(' })();'));
  {
    const k = webKeys.rsa;
    const ct = crypto.publicEncrypt({ key: k.publicKey, oaepHash: 'sha256', oaepLabel: Buffer.from('lbl') }, Buffer.from('oaep!'));
    post('webcrypto RSA-OAEP', `
      const s = G.crypto.subtle; const B = M.buffer.Buffer;
      const priv = await s.importKey("pkcs8", B.from(${J(der(k, 'pkcs8'))}, "base64"), { name: "RSA-OAEP", hash: "SHA-256" }, false, ["decrypt"]);
      const pub = await s.importKey("spki", B.from(${J(der(k, 'spki'))}, "base64"), { name: "RSA-OAEP", hash: "SHA-256" }, false, ["encrypt"]);
      const plain = await s.decrypt({ name: "RSA-OAEP", label: B.from("lbl") }, priv, B.from(${J(b64(ct))}, "base64"));
      const mine = await s.encrypt({ name: "RSA-OAEP", label: B.from("mine") }, pub, B.from("from the realm"));
      const err = await s.decrypt({ name: "RSA-OAEP" }, priv, B.from(${J(b64(ct))}, "base64")).then(() => "no error", (e) => e.name);
      return [B.from(plain).toString(), B.from(mine).toString("base64"), err];`.replace(/^/, 'return (async () => {').concat(' })();'),
    (r) => Array.isArray(r)
      ? [r[0], crypto.privateDecrypt({ key: k.privateKey, oaepHash: 'sha256', oaepLabel: Buffer.from('mine') }, Buffer.from(r[1], 'base64')).toString(), r[2]]
      : r);
  }

  // Key agreement and derivation.
  {
    const peer256 = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const peerX = crypto.generateKeyPairSync('x25519');
    diff('webcrypto deriveBits and deriveKey', `${AERR} ${SORTED}
      const s = G.crypto.subtle; const B = M.buffer.Buffer; const out = [];
      const ecdh = await s.importKey("pkcs8", B.from(${J(der(webKeys.ecdsa256, 'pkcs8'))}, "base64"), { name: "ECDH", namedCurve: "P-256" }, false, ["deriveBits", "deriveKey"]);
      const peer = await s.importKey("spki", B.from(${J(b64(peer256.publicKey.export({ type: 'spki', format: 'der' })))}, "base64"), { name: "ECDH", namedCurve: "P-256" }, true, []);
      for (const len of [256, 128, 100, null]) out.push(B.from(await s.deriveBits({ name: "ECDH", public: peer }, ecdh, len)).toString("hex"));
      out.push(await aerr(s.deriveBits({ name: "ECDH", public: peer }, ecdh, 264)));
      const x = await s.importKey("pkcs8", B.from(${J(der(webKeys.x, 'pkcs8'))}, "base64"), "X25519", false, ["deriveBits"]);
      const xpeer = await s.importKey("raw", B.from(${J(b64(Buffer.from(peerX.publicKey.export({ format: 'jwk' }).x, 'base64url')))}, "base64"), "X25519", true, []);
      out.push(B.from(await s.deriveBits({ name: "X25519", public: xpeer }, x, 256)).toString("hex"));
      out.push(await aerr(s.deriveBits({ name: "X25519", public: peer }, x, 256)), await aerr(s.deriveBits({ name: "ECDH", public: ecdh }, ecdh, 256)));
      const aes = await s.deriveKey({ name: "ECDH", public: peer }, ecdh, { name: "AES-GCM", length: 256 }, true, ["encrypt"]);
      out.push(sorted(aes.algorithm), B.from(await s.exportKey("raw", aes)).toString("hex"));
      const ikm = await s.importKey("raw", B.from("input key material"), "HKDF", false, ["deriveBits", "deriveKey"]);
      for (const hash of ["SHA-1", "SHA-256", "SHA-512"]) {
        out.push(B.from(await s.deriveBits({ name: "HKDF", hash, salt: B.from("salt"), info: B.from("info") }, ikm, 336)).toString("hex"));
      }
      const hm = await s.deriveKey({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: new Uint8Array(0) }, ikm, { name: "HMAC", hash: "SHA-256" }, true, ["sign"]);
      out.push(sorted(hm.algorithm), B.from(await s.exportKey("raw", hm)).toString("hex"));
      const pw = await s.importKey("raw", B.from("password"), "PBKDF2", false, ["deriveBits"]);
      out.push(B.from(await s.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt: B.from("salt"), iterations: 1000 }, pw, 256)).toString("hex"));
      out.push(await aerr(s.deriveBits({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: new Uint8Array(0) }, ikm, null)),
        await aerr(s.deriveBits({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: new Uint8Array(0) }, ikm, 7)),
        await aerr(s.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt: new Uint8Array(0), iterations: 0 }, pw, 256)));
      return out.map((v) => Array.isArray(v) ? v.slice(0, ${major >= 24 ? 3 : 1}) : v);`.replace(/^/, 'return (async () => {').concat(' })();'));
  }

  // Wrapping.
  diff('webcrypto wrapKey and unwrapKey', `${SORTED}
    const s = G.crypto.subtle; const B = M.buffer.Buffer; const out = [];
    const kek = await s.importKey("raw", new Uint8Array(32).fill(3), "AES-KW", false, ["wrapKey", "unwrapKey"]);
    const key = await s.importKey("raw", new Uint8Array(16).fill(5), "AES-GCM", true, ["encrypt", "decrypt"]);
    const wrapped = await s.wrapKey("raw", key, kek, "AES-KW");
    out.push(B.from(wrapped).toString("hex"));
    const back = await s.unwrapKey("raw", wrapped, kek, { name: "AES-KW" }, "AES-GCM", true, ["decrypt"]);
    out.push(sorted(back.algorithm), back.usages, B.from(await s.exportKey("raw", back)).toString("hex"));
    const jw = await s.wrapKey("jwk", key, kek, "AES-KW");
    const jback = await s.unwrapKey("jwk", jw, kek, "AES-KW", { name: "AES-GCM" }, false, ["encrypt"]);
    out.push(jw.byteLength, sorted(jback.algorithm), jback.extractable);
    const gcm = await s.importKey("raw", new Uint8Array(16).fill(8), "AES-GCM", false, ["wrapKey", "unwrapKey"]);
    const ed = await s.importKey("pkcs8", B.from(${J(der(webKeys.ed, 'pkcs8'))}, "base64"), "Ed25519", true, ["sign"]);
    const p = { name: "AES-GCM", iv: new Uint8Array(12) };
    const w2 = await s.wrapKey("pkcs8", ed, gcm, p);
    out.push(B.from(w2).toString("base64"));
    const ed2 = await s.unwrapKey("pkcs8", w2, gcm, p, "Ed25519", true, ["sign"]);
    out.push(B.from(await s.exportKey("pkcs8", ed2)).toString("base64"));
    out.push(await s.unwrapKey("raw", new Uint8Array(24), kek, "AES-KW", "AES-GCM", true, ["encrypt"]).then(() => "no error", (e) => e.name));
    out.push(await s.wrapKey("raw", key, gcm, "AES-KW").then(() => "no error", (e) => e.name));
    return out;`.replace(/^/, 'return (async () => {').concat(' })();'));

  // Key generation: the shape, and keys that work with Node's.
  const genAlgs = [
    [{ name: 'ECDSA', namedCurve: 'P-256' }, ['sign', 'verify']], [{ name: 'ECDSA', namedCurve: 'P-384' }, ['verify', 'sign']],
    [{ name: 'ECDH', namedCurve: 'P-521' }, ['deriveKey', 'deriveBits']], [{ name: 'Ed25519' }, ['sign', 'verify']], [{ name: 'X25519' }, ['deriveBits']],
    [{ name: 'RSASSA-PKCS1-v1_5', modulusLength: 1024, publicExponent: [1, 0, 1], hash: 'SHA-256' }, ['sign', 'verify']],
    [{ name: 'RSA-PSS', modulusLength: 1024, publicExponent: [3], hash: 'SHA-1' }, ['sign']],
    [{ name: 'RSA-OAEP', modulusLength: 1024, publicExponent: [1, 0, 1], hash: 'SHA-512' }, ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey']],
    [{ name: 'HMAC', hash: 'SHA-256' }, ['sign', 'verify']], ...(major >= 24 ? [[{ name: 'HMAC', hash: 'SHA-512', length: 100 }, ['sign']]] : []),
    [{ name: 'AES-GCM', length: 256 }, ['encrypt', 'decrypt']], [{ name: 'AES-KW', length: 128 }, ['wrapKey']], [{ name: 'AES-CTR', length: 192 }, ['decrypt']],
  ];
  for (const [algorithm, usages] of genAlgs) {
    post(`webcrypto generateKey ${J(algorithm)}`, `${SORTED}
      const s = G.crypto.subtle; const B = M.buffer.Buffer;
      const alg = ${J(algorithm)}; if (alg.publicExponent) alg.publicExponent = new Uint8Array(alg.publicExponent);
      const k = await s.generateKey(alg, true, ${J(usages)});
      const one = (key) => [key.type, key.extractable, sorted(key.algorithm), key.usages];
      if (!k.privateKey) return { shape: one(k), length: (await s.exportKey("raw", k)).byteLength };
      return { shape: [one(k.publicKey), one(k.privateKey), Object.keys(k).sort()], pkcs8: B.from(await s.exportKey("pkcs8", k.privateKey)).toString("base64"),
        spki: B.from(await s.exportKey("spki", k.publicKey)).toString("base64") };`.replace(/^/, 'return (async () => {').concat(' })();'),
    (r) => {
      if (!r || !r.pkcs8) return r;
      const priv = crypto.createPrivateKey({ key: Buffer.from(r.pkcs8, 'base64'), format: 'der', type: 'pkcs8' });
      const pub = crypto.createPublicKey({ key: Buffer.from(r.spki, 'base64'), format: 'der', type: 'spki' });
      return { shape: r.shape, matches: crypto.createPublicKey(priv).equals(pub), type: priv.asymmetricKeyType };
    });
  }

  // Errors (names everywhere; Node 24's messages from Node 24 on).
  diff24('webcrypto errors', `${AERR}
    const s = G.crypto.subtle; const B = M.buffer.Buffer;
    const ec = await s.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
    const aes = await s.importKey("raw", new Uint8Array(16), "AES-GCM", false, ["encrypt"]);
    const hkdf = await s.importKey("raw", new Uint8Array(8), "HKDF", false, ["deriveBits"]);
    const cases = [
      s.importKey("pkcs8", new Uint8Array(10), { name: "ECDSA", namedCurve: "P-256" }, true, ["sign"]),
      s.importKey("spki", new Uint8Array(10), { name: "RSA-PSS" }, true, ["verify"]),
      s.importKey("raw", new Uint8Array(10), { name: "RSA-PSS", hash: "SHA-256" }, true, ["verify"]),
      s.importKey("raw", new Uint8Array(16), { name: "AES-GCM" }, true, ["sign"]),
      s.importKey("raw", new Uint8Array(16), "NOPE", true, ["encrypt"]),
      s.importKey("raw", "str", "AES-GCM", true, ["encrypt"]),
      s.importKey("raw", new Uint8Array(16), "AES-GCM", true, []),
      s.importKey("raw", new Uint8Array(15), "AES-GCM", true, ["encrypt"]),
      s.importKey("nope", new Uint8Array(16), "AES-GCM", true, ["encrypt"]),
      s.generateKey({ name: "ECDSA", namedCurve: "P-999" }, true, ["sign"]),
      s.generateKey({ name: "ECDSA" }, true, ["sign"]),
      s.generateKey({ name: "Ed25519" }, true, ["encrypt"]),
      s.generateKey({ name: "Ed25519" }, true, ["verify"]),
      s.generateKey({ name: "RSA-PSS", modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 0, 0, 1]), hash: "SHA-256" }, true, ["sign"]),
      s.sign({ name: "ECDSA" }, ec.privateKey, new Uint8Array(1)),
      s.sign({ name: "ECDSA", hash: "SHA-256" }, ec.publicKey, new Uint8Array(1)),
      s.exportKey("pkcs8", ec.privateKey), s.exportKey("raw", aes), s.exportKey("pkcs8", ec.publicKey),
      s.decrypt({ name: "AES-GCM", iv: new Uint8Array(12) }, aes, new Uint8Array(20)),
      s.encrypt({ name: "AES-GCM", iv: new Uint8Array(12), tagLength: 50 }, aes, new Uint8Array(5)),
      s.encrypt({ name: "AES-CBC", iv: new Uint8Array(16) }, aes, new Uint8Array(5)),
      s.deriveBits({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(1), info: new Uint8Array(1) }, hkdf, 7),
      s.importKey("raw", new Uint8Array(8), "HKDF", true, ["deriveBits"]),
      s.importKey("raw", new Uint8Array(8), "HKDF", false, ["sign"]),
      s.importKey("jwk", {}, "PBKDF2", false, ["deriveBits"]),
      s.importKey("jwk", { kty: "oct", k: "AAAA", alg: "HS512" }, { name: "HMAC", hash: "SHA-256" }, true, ["sign"]),
      s.importKey("jwk", { kty: "oct", k: "AAAA", key_ops: ["verify"] }, { name: "HMAC", hash: "SHA-256" }, true, ["sign"]),
      s.importKey("jwk", { kty: "oct", k: "AAAA", ext: false }, { name: "HMAC", hash: "SHA-256" }, true, ["sign"]),
      s.importKey("jwk", { kty: "oct", k: "AAAA", use: "enc" }, { name: "HMAC", hash: "SHA-256" }, true, ["sign"]),
      s.importKey("jwk", { kty: "EC", k: "AAAA" }, { name: "HMAC", hash: "SHA-256" }, true, ["sign"]),
      s.importKey("jwk", { kty: "OKP", crv: "X25519", x: "AA" }, { name: "Ed25519" }, true, ["verify"]),
      s.importKey("jwk", { kty: "EC", crv: "P-256", x: "AA", y: "AA" }, { name: "ECDSA", namedCurve: "P-256" }, true, ["verify"]),
      s.digest("SHA-999", new Uint8Array(1)), s.digest({ name: "md5" }, new Uint8Array(1)),
      s.encrypt({ name: "AES-KW" }, aes, new Uint8Array(16)),
    ];
    const out = [];
    for (const p of cases) out.push(await aerr(p));
    let ctor; try { new G.CryptoKey(); } catch (e) { ctor = [e.name, e.code]; }
    return [out, ctor];`.replace(/^/, 'return (async () => {').concat(' })();'));

}

// X509Certificate: certificates made with openssl (fixtures/x509): an RSA CA with a
// UTF-8 name, an EC P-384 leaf with a multi-valued RDN, escapes and every
// kind of SAN, a self-signed Ed25519 one with GeneralizedTime, one signed
// with RSA-PSS; and the compat suite's upstream certificate.
function x509Cases({ diff, diff24, certPem }) {
  const fixture = (name) => fs.readFileSync(path.join(import.meta.dirname, 'fixtures/x509', name), 'utf8');
  const certs = { ca: fixture('ca.pem'), leaf: fixture('leaf.pem'), ed: fixture('ed.pem'), pss: fixture('pss.pem'), upstream: certPem };
  const certKeys = { leaf: fixture('leaf.key'), ed: fixture('ed.key') };
  const X509 = `${ERR} const c = M.crypto; const B = M.buffer.Buffer; const certs = ${J(certs)};
    const x = Object.fromEntries(Object.entries(certs).map(([n, pem]) => [n, new c.X509Certificate(n === "leaf" ? B.from(pem) : pem)]));`;
  diff('crypto X509Certificate fields', `${X509}
    return Object.entries(x).map(([n, cert]) => [n, cert.subject, cert.issuer, cert.subjectAltName, cert.validFrom, cert.validTo,
      cert.fingerprint, cert.fingerprint256, cert.fingerprint512, cert.keyUsage, cert.serialNumber, cert.ca, cert.raw.toString("base64"),
      cert.toString() === certs[n], cert.toJSON(), cert.publicKey.type, cert.publicKey.asymmetricKeyType,
      cert.publicKey.export({ type: "spki", format: "pem" }), cert.infoAccess, cert.issuerCertificate,
      new c.X509Certificate(cert.raw).fingerprint256 === cert.fingerprint256]);`);
  diff('crypto X509Certificate verify and checks', `${X509}
    const leafKey = c.createPrivateKey(${J(certKeys.leaf)}); const edKey = c.createPrivateKey(${J(certKeys.ed)});
    const out = [];
    for (const [n, cert] of Object.entries(x)) {
      out.push(n, Object.keys(x).map((i) => cert.verify(x[i].publicKey)), Object.keys(x).map((i) => cert.checkIssued(x[i])),
        cert.checkPrivateKey(leafKey), cert.checkPrivateKey(edKey));
    }
    // The messages show the key as util.inspect does, which differs between Node lines.
    const code = (f) => err(f).slice(0, 2);
    out.push(code(() => x.leaf.verify(leafKey)), err(() => x.leaf.verify("k")), code(() => x.leaf.checkPrivateKey(x.leaf.publicKey)),
      err(() => x.leaf.checkIssued({})), err(() => new c.X509Certificate(1)), err(() => x.leaf.checkHost(1)), err(() => x.leaf.checkEmail(null)),
      err(() => x.leaf.checkHost("a", { subject: "bad" })), err(() => x.leaf.checkHost("a", { wildcards: 1 })), err(() => x.leaf.checkHost("a", null)));
    return out;`);
  const hosts = ['example.com', 'Example.COM', 'api.example.com', 'a.example.com', 'A.Example.Com', 'x.y.example.com', '.example.com',
    'example.com.', 'example.org', '10.0.0.1', '', '*.example.com', 'ed25519 test', 'localhost', 'xn--bcher-kva.example.com', 'a-b.example.com',
    'foo.bar.example.com', 'a.b.c.example.com'];
  const hostOptions = [undefined, { subject: 'always' }, { subject: 'never' }, { wildcards: false }, { partialWildcards: false },
    { multiLabelWildcards: true }, { singleLabelSubdomains: true }];
  diff('crypto X509Certificate checkHost and checkEmail', `${X509}
    const hosts = ${J(hosts)}; const options = ${J(hostOptions)};
    return Object.entries(x).map(([n, cert]) => [n, options.map((o) => hosts.map((h) => err(() => cert.checkHost(h, o)))),
      ["ops@example.com", "ops@EXAMPLE.COM", "OPS@example.com", "ca@example.com", "ca@Example.com", "x@example.com", ""].map((e) => [cert.checkEmail(e), cert.checkEmail(e, { subject: "always" })])]);`);
  diff24('crypto X509Certificate checkIP, dates, algorithm and legacy object', `${X509}
    const ips = ["10.0.0.1", "10.0.0.2", "2001:db8::1", "2001:DB8:0:0:0:0:0:1", "2001:0db8::0:1", "::ffff:10.0.0.1", "010.0.0.1", "x", "", "1.2.3", "::1",
      "::", "1::2:3:4:5:6:7:8", "2001:db8::1::2", "2001:db8:0:0:0:0:0:1", "2001:db8:0:0:0:0:0:0:1", "2001:db8::10.0.0.1", "2001:db8::00001", "fe80::1%eth0", " 10.0.0.1"];
    const legacy = (o) => Object.entries(o).map(([k, v]) => [k, B.isBuffer(v) ? v.toString("base64") : v && typeof v === "object" && !Array.isArray(v) ? [Object.getPrototypeOf(v), Object.entries(v)] : v]);
    return Object.entries(x).map(([n, cert]) => [n, ips.map((ip) => err(() => cert.checkIP(ip))), cert.validFromDate.toISOString(), cert.validToDate.toISOString(),
      cert.signatureAlgorithm, cert.signatureAlgorithmOid, legacy(cert.toLegacyObject()), M.util.inspect(cert)]);`);
}

keyCases();
