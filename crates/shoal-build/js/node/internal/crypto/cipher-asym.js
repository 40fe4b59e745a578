'use strict';
// RSA encryption: publicEncrypt/privateDecrypt (OAEP by default, PKCS#1
// v1.5 or none) and privateEncrypt/publicDecrypt (PKCS#1 v1.5 type 1 or
// none), after rsaFunctionFor in lib/internal/crypto/cipher.js.

const { Buffer } = require('buffer');
const { callNative, bufferOrView, validateString, normalizeHash } = require('./util');
const { preparePrivateKey, preparePublicOrPrivateKey } = require('./keys');
const { nodeError } = require('../errors');

const RSA_PKCS1_PADDING = 1;
const RSA_PKCS1_OAEP_PADDING = 4;

function rsaFunctionFor(operation, defaultPadding, keyType) {
  return (options, buffer) => {
    const key = keyType === 'private' ? preparePrivateKey(options) : preparePublicOrPrivateKey(options);
    const padding = options.padding || defaultPadding;
    const { oaepHash, encoding } = options;
    let { oaepLabel } = options;
    if (oaepHash !== undefined) validateString(oaepHash, 'key.oaepHash');
    let hash = 'sha1';
    if (oaepHash !== undefined) {
      hash = normalizeHash(oaepHash, 'key.oaepHash');
      if (!hash) throw nodeError(Error, 'ERR_OSSL_EVP_INVALID_DIGEST', 'Invalid digest used');
    }
    oaepLabel = oaepLabel === undefined ? new Uint8Array(0) : Uint8Array.from(bufferOrView(oaepLabel, 'key.oaepLabel', encoding));
    const data = Uint8Array.from(bufferOrView(buffer, 'buffer', encoding));
    return Buffer.from(callNative('rsaCipher', operation, key.type, key.der, data, { padding, hash, label: oaepLabel }));
  };
}

module.exports = {
  publicEncrypt: rsaFunctionFor('publicEncrypt', RSA_PKCS1_OAEP_PADDING, 'public'),
  publicDecrypt: rsaFunctionFor('publicDecrypt', RSA_PKCS1_PADDING, 'public'),
  privateEncrypt: rsaFunctionFor('privateEncrypt', RSA_PKCS1_PADDING, 'private'),
  privateDecrypt: rsaFunctionFor('privateDecrypt', RSA_PKCS1_OAEP_PADDING, 'private'),
};
