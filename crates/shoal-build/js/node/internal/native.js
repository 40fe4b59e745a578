'use strict';
// The engine's native functions: the only file that reads
// globalThis.__shoal_native, which Shoal's engine fills in Rust
// (crates/shoal-engine/plugin/src: native.rs, cipher.rs and
// crypto/bindings.rs). Everything else requires them from here:
//
//   const native = require('./internal/native');
//   native.digest('sha256', bytes);
//
// Each export looks the engine's function up when it is called, not when
// this file loads, and calls it as a method of __shoal_native. Without it
// (plain Node running a module directly, an engine without the function)
// the call throws ERR_NOT_AVAILABLE_IN_SHOAL, naming the feature that needs
// it and the function: "node:zlib is not available in Shoal's JavaScript
// engine (the engine does not provide __shoal_native.zlib)"; check()
// throws that error ahead of the call. Loading a module never fails for a
// missing native.
//
// Bytes go in as Uint8Arrays (a Buffer is one) and come out as
// ArrayBuffers. An engine error is an Error with a message; the key
// functions' (crypto/bindings.rs) also carry Node's `code` (callNative in
// internal/crypto/util.js makes them Node's TypeError/RangeError), the fs
// functions' an errno `code`, `syscall` and `path` (fs.js words them as
// Node does). Below, each function with its arguments, what it returns
// and who calls it.

const { notAvailable } = require('./errors');

// The error a call of the engine's missing function `name` throws.
function missing(name, feature) {
  return notAvailable(feature, `the engine does not provide __shoal_native.${name}`);
}

// Each function's feature, named in its error when the engine lacks it.
const features = new Map();

/** The engine's function `name`, called as a method of __shoal_native. */
function nativeFunction(name, feature) {
  features.set(name, feature);
  return function (...args) {
    const n = globalThis.__shoal_native;
    if (!n || typeof n[name] !== 'function') throw missing(name, feature);
    return n[name](...args);
  };
}

const crypto = (name) => nativeFunction(name, 'node:crypto');

module.exports = {
  // ------------------------------------------------------------ hashes, HMAC, KDFs, random bytes (native.rs)

  /**
   * digest(algorithm, data) -> ArrayBuffer: the hash of `data`; algorithm is
   * md5, sha1, sha224, sha256, sha384 or sha512 (case and dashes ignored).
   * crypto.js (Hash, crypto.hash), internal/crypto/webcrypto.js (digest),
   * internal/crypto/x509.js (fingerprints), internal/websocket.js (the
   * handshake's Sec-WebSocket-Accept).
   */
  digest: crypto('digest'),
  /**
   * hmac(algorithm, key, data) -> ArrayBuffer: HMAC of `data`.
   * crypto.js (Hmac, HKDF), internal/crypto/webcrypto-algorithms.js (HMAC).
   */
  hmac: crypto('hmac'),
  /**
   * pbkdf2(algorithm, password, salt, iterations, keylen) -> ArrayBuffer.
   * crypto.js (pbkdf2), internal/crypto/webcrypto-algorithms.js (PBKDF2).
   */
  pbkdf2: crypto('pbkdf2'),
  /**
   * randomBytes(length) -> ArrayBuffer of `length` bytes from the host's
   * CSPRNG. crypto.js (randomBytes, randomUUID, getRandomValues...),
   * internal/crypto/keygen.js and webcrypto-algorithms.js (secret keys),
   * internal/fetch.js (multipart boundaries), internal/websocket.js (masks,
   * the handshake key).
   */
  randomBytes: crypto('randomBytes'),

  // ------------------------------------------------------------ AES and scrypt (cipher.rs)

  /**
   * aesCbc(key, iv, data, decrypt) -> ArrayBuffer: whole blocks, no padding
   * (the caller pads and unpads). crypto.js (Cipheriv/Decipheriv),
   * internal/crypto/webcrypto-algorithms.js (AES-CBC).
   */
  aesCbc: crypto('aesCbc'),
  /**
   * aesCtr(key, counterBlock, offset, data, counter32) -> ArrayBuffer: the
   * keystream from `counterBlock` (a 128-bit big-endian counter, or GCM's
   * 32-bit one when counter32), from byte `offset` on, XORed into `data`.
   * crypto.js (CTR and GCM), internal/crypto/webcrypto-algorithms.js.
   */
  aesCtr: crypto('aesCtr'),
  /**
   * aesGcm(key, iv, aad, data, tag?) -> ArrayBuffer: without a tag, the
   * 16-byte tag of encrypting `data`; with one, the plaintext, or throws
   * Node's "Unsupported state or unable to authenticate data". crypto.js,
   * internal/crypto/webcrypto-algorithms.js (AES-GCM).
   */
  aesGcm: crypto('aesGcm'),
  /**
   * scrypt(password, salt, N, r, p, keylen) -> ArrayBuffer. crypto.js
   * (scrypt, scryptSync).
   */
  scrypt: crypto('scrypt'),

  // ------------------------------------------------------------ keys, signatures, key agreement, X.509 (crypto/bindings.rs)
  // A key travels as its canonical DER (PKCS#8 for a private key, SPKI for
  // a public one) with its kind, 'private' or 'public'. Errors carry
  // Node's `code` and OpenSSL's message; internal/crypto/ calls these
  // through callNative (internal/crypto/util.js).

  /**
   * keyParse(data, kind, derType, passphrase?) -> [asymmetricKeyType, der]:
   * a PEM (derType '') or DER ('pkcs8', 'spki', 'pkcs1', 'sec1') key,
   * decrypted with passphrase. internal/crypto/keys.js (createPrivateKey,
   * createPublicKey), x509.js (publicKey), webcrypto-algorithms.js
   * (importKey spki/pkcs8).
   */
  keyParse: crypto('keyParse'),
  /**
   * keyFromJwk(kind, fields) -> [asymmetricKeyType, der]: `fields` has the
   * kty/crv strings and the other members as bytes. internal/crypto/keys.js,
   * webcrypto-algorithms.js (importKey jwk).
   */
  keyFromJwk: crypto('keyFromJwk'),
  /**
   * keyFromRaw(type, curve, data) -> ArrayBuffer: Web Crypto's raw public
   * key as SPKI. internal/crypto/webcrypto-algorithms.js (importKey raw).
   */
  keyFromRaw: crypto('keyFromRaw'),
  /**
   * keyExport(kind, der, type, pem, cipher?, passphrase?) -> ArrayBuffer: the
   * key as `type` ('pkcs8', 'spki', 'pkcs1', 'sec1'), PEM text or DER,
   * encrypted with `cipher` when given. internal/crypto/keys.js (export).
   */
  keyExport: crypto('keyExport'),
  /**
   * keyToJwk(kind, der) -> { kty, crv?, n?, e?, d?, ... }, members as bytes.
   * internal/crypto/keys.js (export({ format: 'jwk' })).
   */
  keyToJwk: crypto('keyToJwk'),
  /**
   * keyDetails(kind, der) -> { modulusLength?, publicExponent?, namedCurve?,
   * hashAlgorithm?, mgf1HashAlgorithm?, saltLength? }: what Node reports in
   * asymmetricKeyDetails. internal/crypto/keys.js.
   */
  keyDetails: crypto('keyDetails'),
  /**
   * keyPublic(pkcs8) -> ArrayBuffer: the SPKI of a private key.
   * internal/crypto/keys.js (createPublicKey from a private key).
   */
  keyPublic: crypto('keyPublic'),
  /**
   * keyRaw(kind, der) -> ArrayBuffer: Web Crypto's raw public key.
   * internal/crypto/webcrypto-algorithms.js (exportKey raw), x509.js.
   */
  keyRaw: crypto('keyRaw'),
  /**
   * keyGenerate(type, { modulusLength?, publicExponent?, namedCurve?,
   * hashAlgorithm?, mgf1HashAlgorithm?, saltLength? }) -> ArrayBuffer: a new
   * private key as PKCS#8. internal/crypto/keygen.js,
   * webcrypto-algorithms.js (generateKey).
   */
  keyGenerate: crypto('keyGenerate'),
  /**
   * sign(pkcs8, data, { hash, padding?, saltLength?, p1363? }) ->
   * ArrayBuffer: the signature. internal/crypto/sig.js (Sign, crypto.sign),
   * webcrypto-algorithms.js.
   */
  sign: crypto('sign'),
  /**
   * verify(kind, der, data, signature, { hash, padding?, saltLength?,
   * p1363? }) -> boolean. internal/crypto/sig.js (Verify, crypto.verify),
   * webcrypto-algorithms.js.
   */
  verify: crypto('verify'),
  /**
   * rsaCipher(operation, kind, der, data, { padding, hash, label }) ->
   * ArrayBuffer: operation is publicEncrypt, privateDecrypt,
   * privateEncrypt or publicDecrypt. internal/crypto/cipher-asym.js,
   * webcrypto-algorithms.js (RSA-OAEP).
   */
  rsaCipher: crypto('rsaCipher'),
  /**
   * deriveSecret(pkcs8, publicKind, publicDer) -> ArrayBuffer: the ECDH or
   * X25519 shared secret. internal/crypto/diffie-hellman.js
   * (diffieHellman), webcrypto-algorithms.js (deriveBits).
   */
  deriveSecret: crypto('deriveSecret'),
  /**
   * ecGenerate(curve) -> [scalar, uncompressed point] (ArrayBuffers), for
   * ECDH objects. internal/crypto/diffie-hellman.js.
   */
  ecGenerate: crypto('ecGenerate'),
  /**
   * ecPoint(curve, input, fromScalar, format) -> ArrayBuffer: the public
   * point of a scalar, or a point re-encoded, as 'uncompressed',
   * 'compressed' or 'hybrid'. internal/crypto/diffie-hellman.js.
   */
  ecPoint: crypto('ecPoint'),
  /**
   * ecdh(curve, scalar, peerPoint) -> ArrayBuffer: the shared secret.
   * internal/crypto/diffie-hellman.js (ECDH#computeSecret).
   */
  ecdh: crypto('ecdh'),
  /**
   * hkdf(hash, ikm, salt, info, length) -> ArrayBuffer.
   * internal/crypto/webcrypto-algorithms.js (HKDF).
   */
  hkdf: crypto('hkdf'),
  /**
   * aesKw(key, data, unwrap) -> ArrayBuffer: AES Key Wrap (RFC 3394).
   * internal/crypto/webcrypto-algorithms.js (wrapKey, unwrapKey).
   */
  aesKw: crypto('aesKw'),
  /**
   * x509Parse(data) -> { subject, issuer, validFrom, validFromISO, validTo,
   * validToISO, serialNumber, spki, ca, subjectAltName, keyUsage,
   * signatureAlgorithmOid, der }: a certificate, PEM (its first
   * CERTIFICATE block) or DER. internal/crypto/x509.js.
   */
  x509Parse: crypto('x509Parse'),
  /**
   * x509Verify(der, kind, keyDer) -> boolean: whether the key signed the
   * certificate. internal/crypto/x509.js (X509Certificate#verify).
   */
  x509Verify: crypto('x509Verify'),

  // ------------------------------------------------------------ zlib (native.rs)

  /**
   * zlib(operation, data, level) -> ArrayBuffer: a whole buffer through
   * deflate/inflate (zlib framing), deflateRaw/inflateRaw, gzip/gunzip or
   * unzip (gzip or zlib, by header); a level outside 0-9 (-1) is the
   * default. zlib.js,
   * internal/compression-streams.js (CompressionStream).
   */
  zlib: nativeFunction('zlib', 'node:zlib'),

  // ------------------------------------------------------------ WHATWG URL (native.rs, the url crate)

  /**
   * urlParse(input, base?) -> { href, protocol, username, password, host,
   * hostname, port, pathname, search, hash, origin }, or throws Invalid
   * URL. internal/url.js (URL), url.js (domainToASCII).
   */
  urlParse: nativeFunction('urlParse', 'URL parsing'),
  /**
   * urlSet(href, component, value) -> the parts as urlParse gives them,
   * after the URL Standard's setter for `component` (an invalid value
   * leaves the URL as it was; an invalid href throws). internal/url.js
   * (URL's setters).
   */
  urlSet: nativeFunction('urlSet', 'URL parsing'),

  // ------------------------------------------------------------ files, read-only (native.rs, WASI)
  // The folders the host preopened: the Function's secretMounts. fs.js
  // puts the Function's own files (shoal:function-files) in front of them.

  /**
   * fsRead(path) -> ArrayBuffer: a file's bytes, or throws ENOENT, EISDIR...
   * (syscall 'open'). fs.js.
   */
  fsRead: nativeFunction('fsRead', 'node:fs'),
  /**
   * fsStat(path) -> [isFile, isDirectory, size, mtimeMs] (numbers, 1 or 0
   * for the flags), or throws ENOENT... (syscall 'stat'). fs.js.
   */
  fsStat: nativeFunction('fsStat', 'node:fs'),
  /**
   * fsReaddir(path) -> the names in a folder, or throws ENOENT, ENOTDIR...
   * (syscall 'scandir'). fs.js.
   */
  fsReaddir: nativeFunction('fsReaddir', 'node:fs'),

  // ------------------------------------------------------------ availability

  /**
   * check(name, feature?): throws the error calling `name` would throw
   * without the engine's function (naming `feature`, by default the
   * function's own), and nothing when the engine has it. For callers that
   * must fail before they get as far as the call: fs.js before it serves
   * the Function's own files, zlib.js and CompressionStream before an
   * engine error becomes Z_DATA_ERROR, Web Crypto's AES before the checks
   * between its engine calls.
   */
  check(name, feature) {
    const n = globalThis.__shoal_native;
    if (!n || typeof n[name] !== 'function') throw missing(name, feature || features.get(name));
  },
};
