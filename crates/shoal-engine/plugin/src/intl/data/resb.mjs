// Reader for ICU's common data (.dat) and resource bundles (.res, "ResB").
import fs from 'node:fs';

export function openCommonData(binPath) {
  const bin = fs.readFileSync(binPath);
  const marker = Buffer.from('CmnD');
  let at = -1;
  for (let i = bin.indexOf(marker); i >= 0; i = bin.indexOf(marker, i + 1)) {
    if (bin[i - 10] === 0xda && bin[i - 9] === 0x27) { at = i - 12; break; }
  }
  if (at < 0) throw new Error('no ICU common data in ' + binPath);
  const headerSize = bin.readUInt16LE(at);
  const toc = at + headerSize;
  const count = bin.readUInt32LE(toc);
  const entries = new Map();
  const offs = [];
  for (let k = 0; k < count; k++) {
    const nameOff = bin.readUInt32LE(toc + 4 + k * 8), dataOff = bin.readUInt32LE(toc + 8 + k * 8);
    let e = toc + nameOff; while (bin[e]) e++;
    offs.push([bin.toString('latin1', toc + nameOff, e), toc + dataOff]);
  }
  for (let k = 0; k < offs.length; k++) {
    const end = k + 1 < offs.length ? offs[k + 1][1] : bin.length;
    entries.set(offs[k][0].replace(/^icudt\d+l\//, ''), bin.subarray(offs[k][1], end));
  }
  return entries;
}

const U16_IS_TRAIL = (c) => (c & 0xfc00) === 0xdc00;

export class ResB {
  constructor(buf, pool) {
    const headerSize = buf.readUInt16LE(0);
    this.buf = buf.subarray(headerSize);
    const b = this.buf;
    this.i32 = (i) => b.readInt32LE(i * 4);
    this.u32 = (i) => b.readUInt32LE(i * 4);
    this.root = this.u32(0);
    const idx0 = this.i32(1);
    const indexLength = idx0 & 0xff;
    this.indexes = [];
    for (let i = 0; i < indexLength; i++) this.indexes.push(this.i32(1 + i));
    const keysTop = this.indexes[1];
    this.keysBottom = (1 + indexLength) * 4;
    this.localKeyLimit = keysTop * 4;
    this.p16 = keysTop * 4; // byte offset of 16-bit units
    this.poolStringIndexLimit = idx0 >>> 8;
    this.poolStringIndex16Limit = 0;
    const att = indexLength > 5 ? this.indexes[5] : 0;
    this.noFallback = !!(att & 1);
    this.isPool = !!(att & 2);
    this.usesPool = !!(att & 4);
    this.poolStringIndexLimit |= (att & 0xf000) << 12;
    this.poolStringIndex16Limit = att >>> 16;
    this.pool = this.usesPool ? pool : null;
  }
  key(off) {
    // A bundle that uses the pool numbers the pool's keys first, then its own.
    let b = this.buf, o = off;
    if (this.pool) {
      const poolKeys = this.pool.localKeyLimit - this.pool.keysBottom;
      if (off < poolKeys) { b = this.pool.buf; o = off + this.pool.keysBottom; } else o = off - poolKeys + this.keysBottom;
    }
    let e = o; while (b[e]) e++;
    return b.toString('latin1', o, e);
  }
  key32(off) {
    if (off >= 0) { let e = off; while (this.buf[e]) e++; return this.buf.toString('latin1', off, e); }
    const p = this.pool; const o = (off & 0x7fffffff) + p.keysBottom; let e = o; while (p.buf[e]) e++;
    return p.buf.toString('latin1', o, e);
  }
  u16at(byteOff) { return this.buf.readUInt16LE(byteOff); }
  string16(offset) {
    let b = this, base;
    if (offset < this.poolStringIndexLimit) { b = this.pool; base = b.p16 + offset * 2; }
    else base = this.p16 + (offset - this.poolStringIndexLimit) * 2;
    const buf = b.buf;
    const first = buf.readUInt16LE(base);
    let len, p = base;
    if (!U16_IS_TRAIL(first)) { len = 0; while (buf.readUInt16LE(p + len * 2)) len++; }
    else if (first < 0xdfef) { len = first & 0x3ff; p += 2; }
    else if (first < 0xdfff) { len = ((first - 0xdfef) << 16) | buf.readUInt16LE(p + 2); p += 4; }
    else { len = (buf.readUInt16LE(p + 2) << 16) | buf.readUInt16LE(p + 4); p += 6; }
    return buf.toString('utf16le', p, p + len * 2);
  }
  from16(r16) {
    if (r16 >= this.poolStringIndex16Limit) r16 = r16 - this.poolStringIndex16Limit + this.poolStringIndexLimit;
    return (6 << 28) | r16;
  }
  value(res) {
    res >>>= 0;
    const type = res >>> 28, off = res & 0x0fffffff;
    switch (type) {
      case 0: case 3: { // STRING, ALIAS
        if (off === 0) return type === 3 ? { alias: '' } : '';
        const len = this.i32(off);
        const s = this.buf.toString('utf16le', off * 4 + 4, off * 4 + 4 + len * 2);
        return type === 3 ? { alias: s } : s;
      }
      case 6: return this.string16(off);
      case 1: { const len = this.i32(off); return { binary: this.buf.subarray(off * 4 + 4, off * 4 + 4 + len) }; }
      case 7: return { int: (res << 4) >> 4 };
      case 14: { const len = this.i32(off); const v = []; for (let i = 0; i < len; i++) v.push(this.i32(off + 1 + i)); return { intv: v }; }
      case 8: { if (!off) return []; const len = this.i32(off); const v = []; for (let i = 0; i < len; i++) v.push(this.value(this.u32(off + 1 + i))); return v; }
      case 9: { const p = this.p16 + off * 2; const len = this.u16at(p); const v = []; for (let i = 0; i < len; i++) v.push(this.value(this.from16(this.u16at(p + 2 + i * 2)))); return v; }
      case 2: { const m = new Map(); if (!off) return m; const p = off * 4; const len = this.u16at(p);
        const items = p + 2 + len * 2 + ((~len & 1) ? 2 : 0);
        for (let i = 0; i < len; i++) m.set(this.key(this.u16at(p + 2 + i * 2)), this.value(this.buf.readUInt32LE(items + i * 4)));
        return m; }
      case 4: { const m = new Map(); const len = this.i32(off);
        for (let i = 0; i < len; i++) m.set(this.key32(this.i32(off + 1 + i)), this.value(this.u32(off + 1 + len + i)));
        return m; }
      case 5: { const m = new Map(); const p = this.p16 + off * 2; const len = this.u16at(p);
        for (let i = 0; i < len; i++) m.set(this.key(this.u16at(p + 2 + i * 2)), this.value(this.from16(this.u16at(p + 2 + len * 2 + i * 2))));
        return m; }
      default: throw new Error('resource type ' + type);
    }
  }
  tree() { return this.value(this.root); }
}

export function loader(binPath) {
  const entries = openCommonData(binPath);
  const pools = new Map();
  const poolFor = (dir) => {
    const name = (dir ? dir + '/' : '') + 'pool.res';
    if (!pools.has(name)) pools.set(name, entries.has(name) ? new ResB(entries.get(name)) : null);
    return pools.get(name);
  };
  return {
    entries,
    bundle(name) { // e.g. 'en', 'zone/en', 'supplementalData'
      const buf = entries.get(name + '.res');
      if (!buf) return null;
      const dir = name.includes('/') ? name.slice(0, name.lastIndexOf('/')) : '';
      return new ResB(buf, poolFor(dir)).tree();
    },
  };
}

export function toJSON(v) {
  if (v instanceof Map) { const o = {}; for (const [k, x] of v) o[k] = toJSON(x); return o; }
  if (Array.isArray(v)) return v.map(toJSON);
  if (v && v.binary) return { binary: v.binary.length };
  return v;
}
