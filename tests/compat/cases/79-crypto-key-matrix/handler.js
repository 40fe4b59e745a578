// Every key type the engine has (keys.json: RSA 2048 and 1024 with e=3,
// RSA-PSS with and without restrictions, EC P-256/384/521, Ed25519, X25519)
// through node:crypto's key API: each encoding written and read back,
// signatures with every hash and padding (the deterministic ones compared,
// the random ones verified), Node's signatures and ciphertexts (the request
// body) checked, RSA encryption, key agreement, and the errors for bad keys.
const crypto = require('node:crypto');
const keys = require('./keys.json');

const data = Buffer.from('The quick brown fox jumps over the lazy dog');
const b64 = (b) => Buffer.from(b).toString('base64');

function attempt(fn) {
  try {
    return fn();
  } catch (e) {
    return { error: e.code || e.name, message: e.message };
  }
}

function details(key) {
  const d = key.asymmetricKeyDetails;
  return Object.fromEntries(Object.entries(d).map(([k, v]) => [k, typeof v === 'bigint' ? String(v) : v]));
}

// Each encoding Node writes, and whether it reads back to the same key.
function encodings(priv) {
  const pub = crypto.createPublicKey(priv);
  const out = { type: priv.asymmetricKeyType, details: details(priv), pkcs8: b64(priv.export({ type: 'pkcs8', format: 'der' })),
    spki: pub.export({ type: 'spki', format: 'pem' }) };
  for (const [type, isPublic] of [['pkcs1', false], ['pkcs1', true], ['sec1', false]]) {
    const key = isPublic ? pub : priv;
    out[`${type}${isPublic ? '-public' : ''}`] = attempt(() => {
      const pem = key.export({ type, format: 'pem' });
      const der = key.export({ type, format: 'der' });
      const read = isPublic ? crypto.createPublicKey : crypto.createPrivateKey;
      return [pem, read(pem).equals(key), read({ key: der, format: 'der', type }).equals(key)];
    });
  }
  out.jwk = attempt(() => {
    const jwk = priv.export({ format: 'jwk' });
    return [jwk, crypto.createPrivateKey({ key: jwk, format: 'jwk' }).equals(priv), crypto.createPublicKey({ key: jwk, format: 'jwk' }).equals(pub)];
  });
  out.encrypted = ['aes-128-cbc', 'aes-256-cbc'].map((cipher) => {
    const pem = priv.export({ type: 'pkcs8', format: 'pem', cipher, passphrase: 'pw' });
    const der = priv.export({ type: 'pkcs8', format: 'der', cipher, passphrase: 'pw' });
    return [pem.split('\n')[0], crypto.createPrivateKey({ key: pem, passphrase: 'pw' }).equals(priv),
      crypto.createPrivateKey({ key: der, format: 'der', type: 'pkcs8', passphrase: 'pw' }).equals(priv),
      // Refused, but not always with the same error: the salt and IV are
      // random, and about one wrong key in 256 decrypts to valid padding and
      // fails later, in the key's DER (in Node as in Shoal).
      Boolean(attempt(() => crypto.createPrivateKey({ key: pem, passphrase: 'wrong' })).error)];
  });
  return out;
}

function signatures(name, priv, nodeSigs) {
  const pub = crypto.createPublicKey(priv);
  const type = priv.asymmetricKeyType;
  const out = {};
  for (const [label, hash, options] of variants(name, type)) {
    const sig = attempt(() => crypto.sign(hash, data, { key: priv, ...options }));
    if (!Buffer.isBuffer(sig)) {
      out[label] = sig;
      continue;
    }
    const deterministic = type === 'ed25519' || (type === 'rsa' && !options.padding);
    const nodeSig = nodeSigs && nodeSigs[label] && Buffer.from(nodeSigs[label], 'base64');
    out[label] = {
      // DER ECDSA signatures vary in length; the others do not.
      sig: deterministic ? b64(sig) : type === 'ec' && !options.dsaEncoding ? 'der' : sig.length,
      own: crypto.verify(hash, data, { key: pub, ...options }, sig),
      node: nodeSig ? crypto.verify(hash, data, { key: pub, ...options }, nodeSig) : null,
      tampered: nodeSig ? crypto.verify(hash, data, { key: pub, ...options }, Buffer.from(nodeSig).fill(7, 0, 4)) : null,
    };
  }
  return out;
}

function variants(name, type) {
  if (type === 'ed25519') return [['eddsa', null, {}]];
  if (type === 'x25519') return [['x25519', null, {}]];
  const hashes = name === 'rsa-pss-sha256' ? ['sha256'] : ['sha1', 'sha224', 'sha256', 'sha384', 'sha512'];
  const out = [];
  for (const hash of hashes) {
    if (type === 'ec') out.push([`${hash}`, hash, {}], [`${hash}-p1363`, hash, { dsaEncoding: 'ieee-p1363' }]);
    else if (type === 'rsa') out.push([hash, hash, {}], [`${hash}-pss`, hash, { padding: 6 }], [`${hash}-pss-digest`, hash, { padding: 6, saltLength: -1 }]);
    else out.push([hash, hash, {}], [`${hash}-salt-32`, hash, { saltLength: 32 }], [`${hash}-salt-max`, hash, { saltLength: -3 }]);
  }
  return out;
}

// Keys that do not parse: each PEM label around bytes that are no key, a
// SEQUENCE of the wrong shape and a cut-short one, read as a private and as
// a public key; the same bytes as DER of each type; real keys cut short.
function malformed() {
  const pem = (label, bytes) => `-----BEGIN ${label}-----\n${b64(bytes)}\n-----END ${label}-----\n`;
  const labels = ['PRIVATE KEY', 'RSA PRIVATE KEY', 'EC PRIVATE KEY', 'PUBLIC KEY', 'RSA PUBLIC KEY', 'ENCRYPTED PRIVATE KEY', 'CERTIFICATE'];
  const rsa = crypto.createPrivateKey(keys['rsa-2048'].pkcs8);
  const pkcs8 = rsa.export({ type: 'pkcs8', format: 'der' });
  const spki = crypto.createPublicKey(rsa).export({ type: 'spki', format: 'der' });
  const bodies = [[0, 0, 0], [0x30, 3, 2, 1, 0], [0x30, 0x10], pkcs8.subarray(0, 600), spki.subarray(0, 100)].map((b) => Buffer.from(b));
  const code = (fn) => {
    const r = attempt(fn);
    return r && r.error ? `${r.error}: ${r.message}` : 'parsed';
  };
  const out = [];
  for (const body of bodies) {
    for (const label of labels) {
      out.push([label, code(() => crypto.createPrivateKey(pem(label, body))), code(() => crypto.createPublicKey(pem(label, body)))]);
    }
    for (const type of ['pkcs8', 'pkcs1', 'sec1']) out.push([type, code(() => crypto.createPrivateKey({ key: body, format: 'der', type }))]);
    for (const type of ['spki', 'pkcs1']) out.push([type, code(() => crypto.createPublicKey({ key: body, format: 'der', type }))]);
  }
  return out;
}

// Real keys damaged the ways uploads and copy-paste damage them: cut short
// at many lengths, a byte of a TLV header changed (tag, length), read in
// the encoding they claim. Each answer is the error code, or 'ok'.
function damaged() {
  const rsa = crypto.createPrivateKey(keys['rsa-2048'].pkcs8);
  const ec = crypto.createPrivateKey(keys['ec-p256'].pkcs8);
  const ed = crypto.createPrivateKey(keys.ed25519.pkcs8);
  const pub = (k) => crypto.createPublicKey(k);
  const encodings = [
    ['rsa pkcs8', rsa.export({ type: 'pkcs8', format: 'der' }), 'PRIVATE KEY', 'pkcs8', true],
    ['rsa pkcs1', rsa.export({ type: 'pkcs1', format: 'der' }), 'RSA PRIVATE KEY', 'pkcs1', true],
    ['rsa spki', pub(rsa).export({ type: 'spki', format: 'der' }), 'PUBLIC KEY', 'spki', false],
    ['rsa pkcs1 public', pub(rsa).export({ type: 'pkcs1', format: 'der' }), 'RSA PUBLIC KEY', 'pkcs1', false],
    ['ec pkcs8', ec.export({ type: 'pkcs8', format: 'der' }), 'PRIVATE KEY', 'pkcs8', true],
    ['ec sec1', ec.export({ type: 'sec1', format: 'der' }), 'EC PRIVATE KEY', 'sec1', true],
    ['ec spki', pub(ec).export({ type: 'spki', format: 'der' }), 'PUBLIC KEY', 'spki', false],
    ['ed pkcs8', ed.export({ type: 'pkcs8', format: 'der' }), 'PRIVATE KEY', 'pkcs8', true],
    ['ed spki', pub(ed).export({ type: 'spki', format: 'der' }), 'PUBLIC KEY', 'spki', false],
  ];
  const code = (fn) => {
    try {
      fn();
      return 'ok';
    } catch (e) {
      return e.code || e.message;
    }
  };
  const out = {};
  for (const [name, der, label, type, isPrivate] of encodings) {
    const variants = [];
    for (const n of [1, 2, 3, 4, 6, 8, 12, 20, 40, der.length >> 1, der.length - 2, der.length - 1]) variants.push(der.subarray(0, n));
    for (let i = 0; i < Math.min(der.length, 40); i++) {
      for (const value of [0x00, 0x02, 0x30, der[i] + 1, der[i] - 1]) {
        const copy = Buffer.from(der);
        copy[i] = value & 0xff;
        variants.push(copy);
      }
    }
    const read = (input, asPem) => {
      const key = asPem ? `-----BEGIN ${label}-----\n${b64(input)}\n-----END ${label}-----\n` : { key: input, format: 'der', type };
      return isPrivate ? code(() => crypto.createPrivateKey(key)) : code(() => crypto.createPublicKey(key));
    };
    out[name] = { pem: variants.map((v) => read(v, true)).join('|'), der: variants.map((v) => read(v, false)).join('|') };
  }
  return out;
}

module.exports = {
  main(event) {
    const action = event.extensions.request.query.action;
    if (action === 'malformed') return malformed();
    if (action === 'damaged') return damaged();
    const body = event.data || {};
    const out = {};
    for (const [name, { pkcs8 }] of Object.entries(keys)) {
      const priv = crypto.createPrivateKey(pkcs8);
      if (action === 'encodings') out[name] = encodings(priv);
      else if (action === 'signatures') out[name] = signatures(name, priv, body[name]);
      else if (priv.asymmetricKeyType === 'ec' || priv.asymmetricKeyType === 'x25519') {
        out[name] = b64(crypto.diffieHellman({ privateKey: priv, publicKey: crypto.createPublicKey(priv) }));
      }
    }
    if (action === 'rsa') {
      const priv = crypto.createPrivateKey(keys['rsa-2048'].pkcs8);
      out.oaep = body.oaep.map(([hash, label, ct]) => crypto.privateDecrypt({ key: priv, oaepHash: hash, oaepLabel: label ? Buffer.from(label) : undefined },
        Buffer.from(ct, 'base64')).toString());
      out.pkcs1 = crypto.privateDecrypt({ key: priv, padding: crypto.constants.RSA_PKCS1_PADDING }, Buffer.from(body.pkcs1, 'base64')).toString();
      out.privateEncrypt = b64(crypto.privateEncrypt(priv, Buffer.from('signed with the private key')));
      out.publicDecrypt = crypto.publicDecrypt(crypto.createPublicKey(priv), Buffer.from(out.privateEncrypt, 'base64')).toString();
      out.raw = b64(crypto.privateDecrypt({ key: priv, padding: crypto.constants.RSA_NO_PADDING }, Buffer.from(body.raw, 'base64')));
      out.ownOaep = crypto.privateDecrypt(priv, crypto.publicEncrypt(crypto.createPublicKey(priv), Buffer.from('round trip'))).toString();
      out.errors = [
        attempt(() => crypto.privateDecrypt(priv, Buffer.alloc(256, 1))),
        attempt(() => crypto.publicEncrypt(priv, Buffer.alloc(300))),
        attempt(() => crypto.createPrivateKey('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n')),
        attempt(() => crypto.createPublicKey({ key: Buffer.alloc(8), format: 'der', type: 'spki' })),
        attempt(() => crypto.sign('sha256', data, crypto.createPrivateKey(keys.x25519.pkcs8))),
        attempt(() => crypto.diffieHellman({ privateKey: crypto.createPrivateKey(keys['ec-p256'].pkcs8), publicKey: crypto.createPublicKey(keys['ec-p384'].pkcs8) })),
        attempt(() => crypto.createPrivateKey({ key: Buffer.alloc(8), format: 'der', type: 'pkcs8' })),
        attempt(() => crypto.createPrivateKey({ key: Buffer.alloc(8), format: 'der', type: 'pkcs1' })),
        attempt(() => crypto.createPublicKey('-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n')),
        attempt(() => crypto.createPrivateKey(priv.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pw' }))),
        attempt(() => crypto.createPrivateKey({ key: priv.export({ type: 'pkcs1', format: 'pem', cipher: 'aes-128-cbc', passphrase: 'pw' }), passphrase: 'no' })),
        attempt(() => crypto.publicDecrypt(crypto.createPublicKey(priv), Buffer.alloc(256, 1))),
        attempt(() => crypto.sign('sha256', data, { key: priv, padding: 6, saltLength: 300 })),
      ];
    }
    return out;
  },
};
