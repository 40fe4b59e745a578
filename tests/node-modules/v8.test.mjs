// node:v8: serialize/deserialize and Serializer/Deserializer byte for byte
// as Node 22's V8 writes them, and the rest of the module.
import { check, diff, refusal } from './harness/cases.mjs';

// Values whose V8 encoding Shoal must reproduce byte for byte.
const values = [
  'undefined', 'null', 'true', 'false', '0', '-0', '1', '-1', '63', '64', '-65', '2147483647', '-2147483648', '2147483648', '1.5', 'NaN',
  'Infinity', '-Infinity', '0n', '5n', '-5n', '2n ** 64n', '-(2n ** 130n) + 7n', '""', '"abc"', '"é"', '"a€"', '"😀"', '"x".repeat(200)',
  '[]', '[1, 2, 3]', '[1, 2.5]', '[1, "x", 2.5, null]', '[1, , 3]', 'new Array(3)', 'Object.assign([1, 2], { p: 1 })', '({})',
  '({ a: 1, b: "two", c: [3], d: { e: null } })', '({ 1: "a", b: 2, 0: 3, 4294967295: 4, 4294967294: 5 })',
  '(() => { const o = { name: "o" }; return [o, o, { o }]; })()', '(() => { const o = { a: 1 }; o.self = o; return o; })()',
  'new Date(0)', 'new Date(1700000000123)', '/ab+c/gimsuy', '/x/dv', 'new Map([[1, "a"], ["b", { c: 2 }]])', 'new Set([1, "2", [3]])',
  'Object(true)', 'Object(false)', 'Object(1.5)', 'Object(7n)', 'Object("str")', 'new ArrayBuffer(4)',
  'new Uint8Array([1, 2, 3])', 'new Uint16Array([1, 65535])', 'new Float64Array([0.5])', 'new Int32Array(new ArrayBuffer(16), 4, 2)',
  'new BigInt64Array([-1n])', 'new DataView(new ArrayBuffer(3))', 'G.Buffer.from("buffer")',
  '[new Uint8Array([9]), "é", "€", 1.25, { k: ["€"] }]',
  '(() => { const e = new Error("plain"); e.stack = "s"; e.name = "Custom"; return e; })()',
];
for (const v of values) {
  diff(`v8.serialize(${v})`, `return M.v8.serialize(${v}).toString('hex');`);
}
// Node 22's V8 writes an error's stack before its cause (Node 20's, which
// runs these tests, the other way round): the bytes Node 22 gives.
check('v8.serialize of an error with a cause', 'const e = new RangeError("range", { cause: 1 }); e.stack = "stack"; return M.v8.serialize(e).toString("hex");',
  'ff0f72526d220572616e6765732205737461636b6349022e');
diff('v8.deserialize round trips', `
  const out = [];
  for (const v of [{ a: [1, 2.5, "é€"], m: new Map([[1, new Set([2])]]), d: new Date(5), r: /x/g, big: -3n, buf: G.Buffer.from('hi') },
    [1, , 3], (() => { const o = { n: 1 }; o.me = o; return o; })(), new Uint16Array([1, 2]), Object(2), new ArrayBuffer(2)]) {
    const back = M.v8.deserialize(M.v8.serialize(v));
    out.push(M.util.inspect(back, { depth: 4 }));
  }
  const e = M.v8.deserialize(M.v8.serialize((() => { const x = new TypeError('typed', { cause: 'why' }); x.stack = 'the stack'; return x; })()));
  out.push([e instanceof TypeError, e.message, e.stack, e.cause]);
  return out;`);
diff('v8 Serializer and Deserializer', `
  const s = new M.v8.Serializer();
  s.writeHeader();
  s.writeValue({ plain: new Uint8Array([1, 2]) });
  s.writeUint32(300);
  s.writeUint64(1, 2);
  s.writeDouble(0.25);
  s.writeRawBytes(G.Buffer.from('raw'));
  const buf = s.releaseBuffer();
  const d = new M.v8.Deserializer(buf);
  return [buf.toString('hex'), d.readHeader(), d.getWireFormatVersion(), M.util.inspect(d.readValue()), d.readUint32(), d.readUint64(), d.readDouble(),
    d.readRawBytes(3).toString()];`);
diff('v8 serialize errors', `
  const out = [];
  for (const v of [() => 1, Symbol('s'), new WeakMap(), Promise.resolve(), { f() {} }]) {
    try { M.v8.serialize(v); out.push('serialized'); } catch (e) { out.push([e.name, e.message]); }
  }
  try { M.v8.deserialize(G.Buffer.from('ff0f4e00', 'hex')); } catch (e) { out.push([e.name, e.message]); }
  return out;`);
diff('v8 misc', `
  const v8 = M.v8;
  const h = v8.getHeapStatistics();
  return [Object.keys(h), Object.values(h).every((n) => typeof n === 'number'), h.used_heap_size <= h.total_heap_size, h.total_heap_size <= h.heap_size_limit,
    typeof v8.cachedDataVersionTag(), v8.setFlagsFromString('--no-opt'),
    v8.startupSnapshot.isBuildingSnapshot(), Object.keys(v8.getHeapCodeStatistics()), Array.isArray(v8.getHeapSpaceStatistics()), v8.takeCoverage(), v8.stopCoverage(),
    (() => { try { v8.startupSnapshot.addSerializeCallback(() => {}); } catch (e) { return [e.code, e.message]; } })()];`);
// Node 22 (not Node 20, which runs these tests).
check('v8.isStringOneByteRepresentation', 'return ["", "abc", "é", "€", "😀"].map((s) => M.v8.isStringOneByteRepresentation(s));', [true, true, true, false, false]);

refusal('v8', 'M.v8.writeHeapSnapshot()', 'ERR_METHOD_NOT_IMPLEMENTED', "v8.writeHeapSnapshot() is not available in Shoal: Shoal's engine is QuickJS, not V8");
