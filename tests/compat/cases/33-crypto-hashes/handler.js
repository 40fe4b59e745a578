// Content hashes and HMACs, CommonJS `require('crypto')` and `require('node:crypto')`.
const crypto = require('crypto');
const nodeCrypto = require('node:crypto');

module.exports = {
  main: function (event) {
    const input = typeof event.data === 'string' ? event.data : JSON.stringify(event.data || { order: 42 });
    const digests = {};
    for (const alg of ['md5', 'sha1', 'sha256', 'sha384', 'sha512']) {
      digests[alg] = crypto.createHash(alg).update(input).digest('hex');
    }
    const incremental = nodeCrypto.createHash('sha256');
    for (const part of input.match(/.{1,7}/gs) || []) incremental.update(part, 'utf8');
    return {
      input,
      digests,
      sha256Base64: crypto.createHash('sha256').update(input).digest('base64'),
      sha256Base64url: crypto.createHash('sha256').update(input).digest('base64url'),
      incrementalMatches: incremental.digest('hex') === digests.sha256,
      bufferInput: crypto.createHash('sha1').update(Buffer.from([0, 1, 2])).digest('hex'),
      hmacSha256: crypto.createHmac('sha256', 'webhook-secret').update(input).digest('hex'),
      hmacSha512Base64: crypto.createHmac('sha512', Buffer.from('key')).update('msg').digest('base64'),
      digestBuffer: crypto.createHash('md5').update('x').digest().length,
      etag: '"' + crypto.createHash('md5').update(input).digest('hex').slice(0, 16) + '"',
      sameModule: crypto === nodeCrypto,
      hashesIncludeSha256: crypto.getHashes().includes('sha256'),
      webcryptoIsGlobal: crypto.webcrypto === globalThis.crypto,
    };
  },
};
