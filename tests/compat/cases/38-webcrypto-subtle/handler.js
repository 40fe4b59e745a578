// The Web Crypto API (crypto.subtle): digests and HMAC sign/verify.
const enc = new TextEncoder();
const toHex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, '0')).join('');

module.exports = {
  main: async function (event) {
    const message = (event.data && event.data.message) || 'hello kyma';
    const digest256 = await crypto.subtle.digest('SHA-256', enc.encode(message));
    const digest1 = await crypto.subtle.digest({ name: 'SHA-1' }, enc.encode(message));
    const digest512 = await crypto.subtle.digest('SHA-512', enc.encode(message));

    const key = await crypto.subtle.importKey('raw', enc.encode(process.env.SIGNING_KEY), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    const signature = await crypto.subtle.sign('HMAC', key, enc.encode(message));
    const ok = await crypto.subtle.verify('HMAC', key, signature, enc.encode(message));
    const tampered = await crypto.subtle.verify('HMAC', key, signature, enc.encode(message + '!'));
    const signatureB64 = btoa(String.fromCharCode(...new Uint8Array(signature)));

    return {
      sha256: toHex(digest256),
      sha1: toHex(digest1),
      sha512Length: digest512.byteLength,
      hmac: toHex(signature),
      hmacBase64: signatureB64,
      verified: ok,
      tamperedVerified: tampered,
      key: { type: key.type, extractable: key.extractable, algorithm: key.algorithm.name, hash: key.algorithm.hash.name, usages: key.usages },
      isArrayBuffer: digest256 instanceof ArrayBuffer,
    };
  },
};
