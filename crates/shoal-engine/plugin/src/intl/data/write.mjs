// Serializes a tree of Maps (tables), arrays, strings, {int}, {intv}, {alias}
// into Shoal's compact read-only format (see data.rs for the reader).
export function serialize(root) {
  const strings = [];            // Buffers
  const stringOffset = new Map(); // string -> byte offset
  let stringBytes = 0;
  const internString = (s) => {
    let off = stringOffset.get(s);
    if (off !== undefined) return off;
    const utf8 = Buffer.from(s, 'utf8');
    const len = [];
    let n = utf8.length;
    do { let b = n & 0x7f; n >>>= 7; if (n) b |= 0x80; len.push(b); } while (n);
    off = stringBytes;
    strings.push(Buffer.from(len), utf8);
    stringBytes += len.length + utf8.length;
    stringOffset.set(s, off);
    return off;
  };
  // Keys: every distinct table key, sorted by UTF-8 bytes, so that key indexes compare like the keys.
  const keySet = new Set();
  (function collect(v) {
    if (v instanceof Map) for (const [k, x] of v) { keySet.add(k); collect(x); }
    else if (Array.isArray(v)) v.forEach(collect);
  })(root);
  const keys = [...keySet].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  if (keys.length > 0xffff) throw new Error('too many distinct keys: ' + keys.length);
  const keyIndex = new Map(keys.map((k, i) => [k, i]));
  const keyOffsets = keys.map(internString);

  const words = [0]; // word 0 unused so that no node sits at 0
  const memo = new Map();
  const TAG = { string: 0, table: 1, array: 2, int: 3, intv: 4, alias: 5 };
  const ref = (tag, payload) => {
    if (payload >= 1 << 29) throw new Error('payload overflow');
    return ((tag << 29) | payload) >>> 0;
  };
  function emit(v) {
    if (typeof v === 'string') return ref(TAG.string, internString(v));
    if (v && v.alias !== undefined) return ref(TAG.alias, internString(v.alias));
    if (v && v.int !== undefined) return ref(TAG.int, v.int & 0x1fffffff);
    let body, tag;
    if (v instanceof Map) {
      const entries = [...v].sort((a, b) => keyIndex.get(a[0]) - keyIndex.get(b[0]));
      const kids = entries.map(([, x]) => emit(x));
      const ks = entries.map(([k]) => keyIndex.get(k));
      body = [entries.length];
      for (let i = 0; i < ks.length; i += 2) body.push((ks[i] | ((ks[i + 1] ?? 0) << 16)) >>> 0);
      body.push(...kids);
      tag = TAG.table;
    } else if (Array.isArray(v)) {
      body = [v.length, ...v.map(emit)];
      tag = TAG.array;
    } else if (v && v.intv) {
      body = [v.intv.length, ...v.intv.map((x) => x >>> 0)];
      tag = TAG.intv;
    } else if (v && v.binary) {
      return ref(TAG.string, internString(''));
    } else throw new Error('cannot serialize ' + JSON.stringify(v));
    const key = tag + ':' + body.join(',');
    let at = memo.get(key);
    if (at === undefined) {
      at = words.length;
      words.push(...body);
      memo.set(key, at);
    }
    return ref(tag, at);
  }
  const rootRef = emit(root);
  const stringBuf = Buffer.concat(strings);
  const pad = (n) => (4 - (n % 4)) % 4;
  const header = Buffer.alloc(32);
  const keysBuf = Buffer.alloc(keys.length * 4);
  keyOffsets.forEach((o, i) => keysBuf.writeUInt32LE(o, i * 4));
  const wordsBuf = Buffer.alloc(words.length * 4);
  words.forEach((w, i) => wordsBuf.writeUInt32LE(w >>> 0, i * 4));
  const stringsAt = 32, keysAt = stringsAt + stringBuf.length + pad(stringBuf.length);
  const wordsAt = keysAt + keysBuf.length;
  header.write('SHIC', 0, 'latin1');
  header.writeUInt32LE(1, 4);
  header.writeUInt32LE(stringsAt, 8);
  header.writeUInt32LE(stringBuf.length, 12);
  header.writeUInt32LE(keysAt, 16);
  header.writeUInt32LE(keys.length, 20);
  header.writeUInt32LE(wordsAt, 24);
  header.writeUInt32LE(rootRef, 28);
  return { buffer: Buffer.concat([header, stringBuf, Buffer.alloc(pad(stringBuf.length)), keysBuf, wordsBuf]), stats: { strings: stringBuf.length, keys: keys.length, words: words.length } };
}
