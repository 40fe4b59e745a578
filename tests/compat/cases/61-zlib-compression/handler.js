// Compressing payloads for storage and reading compressed archives (node:zlib).
const zlib = require('zlib');
const { promisify } = require('util');

const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

// Produced elsewhere and stored: zlib-deflated text and a gzipped JSON document.
const STORED_DEFLATE = 'eJzzrsxNVHArzUsuyczPK1ZIzs8tKEotLlYoT83J0VPwxicLAJZZFhM=';
const STORED_GZIP = 'H4sIAAAAAAAAA6tWSixKzsgsS01RsiopKk2tBQA5HdUjEQAAAA==';

module.exports = {
  main: async function (event) {
    const text = typeof event.data === 'string' ? event.data : JSON.stringify(event.data || { items: Array.from({ length: 50 }, (_, i) => ({ sku: `SKU-${i % 5}`, qty: i % 3 })) });
    const gz = zlib.gzipSync(text);
    const deflated = zlib.deflateSync(text, { level: 9 });
    const raw = zlib.deflateRawSync(text);
    const asyncGz = await gzip(Buffer.from(text));
    const cbResult = await new Promise((resolve, reject) =>
      zlib.gunzip(asyncGz, (err, out) => (err ? reject(err) : resolve(out.toString()))),
    );
    let corrupt;
    try {
      zlib.gunzipSync(Buffer.from('not gzip at all'));
    } catch (err) {
      corrupt = { code: err.code, errno: err.errno };
    }
    return {
      inputBytes: Buffer.byteLength(text),
      gzipMagic: gz.subarray(0, 3).toString('hex'),
      gzipSmaller: gz.length < Buffer.byteLength(text),
      roundTrips: {
        gzip: zlib.gunzipSync(gz).toString() === text,
        deflate: zlib.inflateSync(deflated).toString() === text,
        deflateRaw: zlib.inflateRawSync(raw).toString() === text,
        unzipAuto: zlib.unzipSync(deflated).toString() === text,
        promisified: (await gunzip(asyncGz)).toString() === text,
        callback: cbResult === text,
      },
      storedDeflate: zlib.inflateSync(Buffer.from(STORED_DEFLATE, 'base64')).toString(),
      storedGzip: JSON.parse(zlib.gunzipSync(Buffer.from(STORED_GZIP, 'base64')).toString()),
      corrupt,
      constants: { bestCompression: zlib.constants.Z_BEST_COMPRESSION, syncFlush: zlib.constants.Z_SYNC_FLUSH },
    };
  },
};
