// Encoding conversions that API glue code does all day.
module.exports = {
  main: function (event) {
    const text = (event.data && event.data.text) || 'Grüße, Kyma! ☕ 🚀';
    const buf = Buffer.from(text, 'utf8');
    const b64 = buf.toString('base64');
    const b64url = buf.toString('base64url');
    const basicAuth = 'Basic ' + Buffer.from('api-user:p@ss:word').toString('base64');
    const decodedAuth = Buffer.from(basicAuth.slice(6), 'base64').toString().split(':');
    return {
      length: text.length,
      byteLength: Buffer.byteLength(text),
      hex: buf.toString('hex'),
      base64: b64,
      base64url: b64url,
      roundTrip: Buffer.from(b64, 'base64').toString('utf8') === text && Buffer.from(b64url, 'base64url').toString() === text,
      latin1: Buffer.from('café', 'latin1').toString('hex'),
      latin1Decode: Buffer.from([0x63, 0x61, 0x66, 0xe9]).toString('latin1'),
      ascii: Buffer.from('héllo', 'ascii').toString('hex'),
      utf16le: Buffer.from('hi€', 'utf16le').toString('hex'),
      ucs2Back: Buffer.from('6800690034', 'hex').toString('ucs2'),
      invalidUtf8: Buffer.from([0x61, 0xff, 0x62, 0xc3]).toString('utf8'),
      fromArray: Buffer.from([72, 105, 33]).toString(),
      alloc: Buffer.alloc(4).toString('hex'),
      allocFill: Buffer.alloc(5, 'ab').toString(),
      fillHex: Buffer.alloc(3).fill(0x7f).toString('hex'),
      concat: Buffer.concat([Buffer.from('ab'), Buffer.from('cd'), Buffer.from([0x21])]).toString(),
      concatTruncated: Buffer.concat([Buffer.from('abc'), Buffer.from('def')], 4).toString(),
      basicAuth,
      decodedAuth,
      sloppyBase64: Buffer.from('aGVsbG8gd29ybGQ', 'base64').toString(),
      base64WithWhitespace: Buffer.from('aGVs\nbG8=', 'base64').toString(),
      isEncoding: [Buffer.isEncoding('utf8'), Buffer.isEncoding('UTF-8'), Buffer.isEncoding('base64url'), Buffer.isEncoding('nope')],
    };
  },
};
