// Key agreement with a client: its P-256 and X25519 public keys arrive in
// the request; the Function agrees on secrets with its own fixed keys
// through createECDH, crypto.diffieHellman and crypto.subtle (ECDH, X25519),
// derives an AES key with HKDF and opens the message the client sealed.
const crypto = require('node:crypto');

// The Function's keys (test-only).
const EC_PRIVATE = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgVrAm5Xs58BMn6r/d
54EyyoTz4yYJ9cjAcFlo12TR5wKhRANCAAQ8dTt7G5GOTJ8eKPNC4SorBhArKZ5P
wcul0njF66mTrUoxjRWBMAPpRh3+WLLn0iydp9ghuYd/UAgDrd0gQHXU
-----END PRIVATE KEY-----
`;
const X25519_PRIVATE = `-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VuBCIEIKga1Iyo2PcyPWMBIe+dOscePBiAZQu8/7rU3MWtFhNx
-----END PRIVATE KEY-----
`;

module.exports = {
  async main(event) {
    const { ecPublic, x25519Public, sealed } = event.data;
    const b64 = (s) => Buffer.from(s, 'base64');
    const ecKey = crypto.createPrivateKey(EC_PRIVATE);
    const scalar = Buffer.from(ecKey.export({ format: 'jwk' }).d, 'base64url');

    const ecdh = crypto.createECDH('prime256v1');
    ecdh.setPrivateKey(scalar);
    const viaEcdh = ecdh.computeSecret(b64(ecPublic));
    const peer = crypto.createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64(ecPublic).subarray(1, 33).toString('base64url'), y: b64(ecPublic).subarray(33).toString('base64url') }, format: 'jwk' });
    const viaKeys = crypto.diffieHellman({ privateKey: ecKey, publicKey: peer });
    const subtlePriv = await crypto.subtle.importKey('pkcs8', ecKey.export({ type: 'pkcs8', format: 'der' }), { name: 'ECDH', namedCurve: 'P-256' }, false, ['deriveBits', 'deriveKey']);
    const subtlePub = await crypto.subtle.importKey('raw', b64(ecPublic), { name: 'ECDH', namedCurve: 'P-256' }, true, []);
    const viaSubtle = Buffer.from(await crypto.subtle.deriveBits({ name: 'ECDH', public: subtlePub }, subtlePriv, 256));

    const xKey = crypto.createPrivateKey(X25519_PRIVATE);
    const xPeer = crypto.createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: b64(x25519Public).toString('base64url') }, format: 'jwk' });
    const xShared = crypto.diffieHellman({ privateKey: xKey, publicKey: xPeer });
    const xSubtle = Buffer.from(await crypto.subtle.deriveBits({ name: 'X25519', public: await crypto.subtle.importKey('raw', b64(x25519Public), 'X25519', true, []) },
      await crypto.subtle.importKey('pkcs8', xKey.export({ type: 'pkcs8', format: 'der' }), 'X25519', false, ['deriveBits']), 256));

    // The client sealed its message with AES-256-GCM under HKDF(ECDH secret).
    const hkdfKey = await crypto.subtle.importKey('raw', viaSubtle, 'HKDF', false, ['deriveKey']);
    const aes = await crypto.subtle.deriveKey({ name: 'HKDF', hash: 'SHA-256', salt: Buffer.from('shoal'), info: Buffer.from('session') }, hkdfKey,
      { name: 'AES-GCM', length: 256 }, false, ['decrypt']);
    const opened = Buffer.from(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: b64(sealed.iv) }, aes, b64(sealed.data))).toString();

    return {
      secretsAgree: viaEcdh.equals(viaKeys) && viaKeys.equals(viaSubtle),
      ecSecret: viaEcdh.toString('hex'),
      x25519Secret: xShared.toString('hex'),
      x25519Agrees: xShared.equals(xSubtle),
      hkdfSync: Buffer.from(crypto.hkdfSync('sha256', viaEcdh, 'shoal', 'session', 32)).toString('hex'),
      opened,
      ourPublicKey: ecdh.getPublicKey('base64', 'compressed'),
      convertKey: crypto.ECDH.convertKey(ecPublic, 'prime256v1', 'base64', 'hex', 'compressed'),
    };
  },
};
