// Parsing and building a small binary record (a device telemetry frame).
module.exports = {
  main: function (event) {
    const frame = Buffer.alloc(24);
    frame.writeUInt32BE(0xcafebabe, 0);
    frame.writeInt16LE(-1234, 4);
    frame.writeUInt16BE(65535, 6);
    frame.writeFloatLE(21.5, 8);
    frame.writeDoubleBE(Math.PI, 12);
    frame.writeInt8(-5, 20);
    frame.writeUInt8(200, 21);
    frame.writeUIntBE(0x0a0b, 22, 2);

    const big = Buffer.alloc(8);
    big.writeBigUInt64BE(2n ** 63n + 5n);

    const view = frame.subarray(0, 4);
    const copy = Buffer.from(frame.subarray(0, 4));
    view[0] = 0x00; // subarray shares memory with frame
    const sliced = frame.slice(4, 6);

    const a = Buffer.from('apple');
    const b = Buffer.from('banana');
    const sorted = [b, a, Buffer.from('cherry')].sort(Buffer.compare).map(String);
    const swapped = Buffer.from([1, 2, 3, 4]).swap16().toString('hex');

    return {
      hex: frame.toString('hex'),
      magicAfterWrite: frame.readUInt32BE(0).toString(16),
      copyUnaffected: copy.readUInt32BE(0).toString(16),
      int16: frame.readInt16LE(4),
      uint16: frame.readUInt16BE(6),
      float: frame.readFloatLE(8),
      double: frame.readDoubleBE(12),
      int8: frame.readInt8(20),
      uint8: frame.readUInt8(21),
      uintBE: frame.readUIntBE(22, 2),
      bigint: big.readBigUInt64BE().toString(),
      slicedHex: sliced.toString('hex'),
      compare: [Buffer.compare(a, b), a.compare(a), b.compare(a)],
      equals: a.equals(Buffer.from('apple')),
      sorted,
      indexOf: b.indexOf('an'),
      lastIndexOf: b.lastIndexOf('an'),
      includes: b.includes('nan'),
      isBuffer: [Buffer.isBuffer(a), Buffer.isBuffer(new Uint8Array(2)), Buffer.isBuffer('a')],
      json: JSON.parse(JSON.stringify(Buffer.from([1, 2, 3]))),
      stringified: JSON.stringify({ raw: Buffer.from('hi') }),
      swapped,
      iterated: [...Buffer.from('AB')],
      uint8ArrayView: Array.from(new Uint8Array(frame.buffer, frame.byteOffset + 4, 2)),
      instanceOfUint8Array: a instanceof Uint8Array,
      outOfRange: (() => {
        try {
          frame.readUInt32BE(22);
          return 'no error';
        } catch (err) {
          return err.code;
        }
      })(),
    };
  },
};
