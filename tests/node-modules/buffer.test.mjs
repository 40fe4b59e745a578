// node:buffer: Buffer (encodings, Node's lenient base64, UTF-8 decoding,
// the read/write methods, inspect), the module's extras, atob and btoa
// (also globals), Blob and File (also globals).
import { diff } from './harness/cases.mjs';

diff('Buffer round trips', `
  const B = M.buffer.Buffer;
  const s = "héllo wörld ✓ 😀";
  const out = {};
  for (const enc of ["utf8", "hex", "base64", "base64url", "latin1", "binary", "ascii", "ucs2", "utf16le"]) {
    const encoded = B.from(s).toString(enc);
    out[enc] = [encoded, B.from(encoded, enc).toString("hex")];
  }
  return out;`);
diff('Buffer base64 decoding leniency', `
  const B = M.buffer.Buffer;
  return ["aGVsbG8", "aGVsbG8=", "aGV sbG8", "aGVs\\nbG8", "_-8", "/+8=", "a", "ab=c"].map((s) => B.from(s, "base64").toString("hex"));`);
diff('Buffer base64url', `
  const B = M.buffer.Buffer;
  return [B.from([251, 255, 191]).toString("base64url"), B.from("-_-_", "base64url").toString("hex"), B.byteLength("aGVsbG8", "base64url"),
    B.isEncoding("base64url"), B.isEncoding("nope")];`);
diff('Buffer utf8 invalid sequences', `
  const B = M.buffer.Buffer;
  return [[0xff], [0xc3], [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xef, 0xbb, 0xbf, 0x41], [0x61, 0xf8, 0x62]]
    .map((b) => B.from(b).toString());`);
diff('Buffer lone surrogate encoding', 'return M.buffer.Buffer.from("a\\ud800b").toString("hex");');
diff('Buffer methods', `
  const B = M.buffer.Buffer;
  const b = B.alloc(16);
  b.writeUInt32BE(0xdeadbeef, 0); b.writeInt16LE(-2, 4); b.writeDoubleLE(1.5, 8);
  return [b.toString("hex"), b.readUInt32BE(0), b.readInt16LE(4), b.readDoubleLE(8), b.readBigUInt64LE(8).toString(),
    B.concat([B.from("ab"), B.from("cd")]).toString(), B.compare(B.from("a"), B.from("b")), B.from("abc").equals(B.from("abc")),
    B.from("hello").indexOf("l"), B.from("hello").includes("ell"), B.from("hello").subarray(1, 3).toString(),
    B.from("hello").slice(-3).toString(), B.alloc(4, "ab").toString(), B.from("abc").toJSON(), B.isBuffer(B.alloc(1)),
    B.isBuffer(new Uint8Array(1)), B.byteLength("héllo"), B.from("héllo").toString("utf8", 1, 3),
    B.from([1, 2, 3]).reverse().toString("hex"), B.from("test").toString("base64", 1), typeof B.poolSize];`);
diff('Buffer inspect', `
  const B = M.buffer.Buffer;
  return [M.util.inspect(B.from("hi")), M.util.inspect(B.alloc(0)), M.util.inspect(B.alloc(60)), M.util.inspect({ b: B.from([1, 2]) })];`);
diff('Buffer subarray is a Buffer', 'const b = M.buffer.Buffer.from("abc").subarray(1); return [M.buffer.Buffer.isBuffer(b), b.toString()];');
diff('buffer module extras', `
  const m = M.buffer;
  return [m.kMaxLength > 0, typeof m.constants.MAX_LENGTH, m.isUtf8(m.Buffer.from("é")), m.isUtf8(m.Buffer.from([0xff])),
    m.isAscii(m.Buffer.from("abc")), m.isAscii(m.Buffer.from("é")), m.btoa("hi"), m.atob("aGk="),
    m.transcode(m.Buffer.from("€uro"), "utf8", "latin1").toString("hex"), m.INSPECT_MAX_BYTES];`);

// ---------------------------------------------------------------- atob/btoa
diff('btoa/atob', 'return [G.btoa("hello"), G.btoa(""), G.btoa("\\u00ff\\u00fe"), G.atob("aGVsbG8="), G.atob(" aGVs bG8 "), G.atob("YQ"), G.atob("YWI")];');
for (const bad of ['"a"', '"a==="', '"*abc"', '"ab=c"', '"YQ=="', '"YQ="']) diff(`atob(${bad})`, `return G.atob(${bad});`);
diff('btoa invalid character', 'try { G.btoa("✓"); } catch (e) { return [e.name, e.message, e.code, e instanceof G.DOMException]; }');

// ---------------------------------------------------------------- Blob, File
diff('Blob', `
  const b = new G.Blob(["héllo ", new Uint8Array([119, 111]), new G.Blob(["rld"])], { type: "Text/Plain" });
  const s = b.slice(1, -1, "x/y"); const s2 = b.slice(-3);
  return Promise.all([b.text(), b.arrayBuffer().then((a) => a.byteLength), s.text(), s2.text(), b.bytes ? b.bytes().then((x) => x.length) : 14]).then((r) =>
    [b.size, b.type, s.type, s.size, new G.Blob(["x"], { type: "é" }).type, ...r, Object.prototype.toString.call(b), M.util.inspect(b)]);`);
diff('File', `
  const f = new G.File(["abc"], "a.txt", { type: "text/plain", lastModified: 42 });
  return [f.name, f.size, f.type, f.lastModified, f instanceof G.Blob, Object.prototype.toString.call(f), M.util.inspect(f)];`);

// jsdom's @exodus/bytes refuses a Buffer polyfill by this marker.
diff('Buffer is not a polyfill', 'return ["TYPED_ARRAY_SUPPORT" in M.buffer.Buffer, Object.keys(M.buffer).includes("TYPED_ARRAY_SUPPORT")];');
