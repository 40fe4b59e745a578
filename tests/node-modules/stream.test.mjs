// node:stream, node:stream/promises, node:stream/consumers and
// node:stream/web: Node's streams (readable-stream), reading a stream
// whole, and the web streams with TextEncoderStream, TextDecoderStream,
// CompressionStream and DecompressionStream (also globals).
import { createRequire } from 'node:module';
import { diff, webDiff } from './harness/cases.mjs';

const require = createRequire(import.meta.url);

diff('stream Readable/Transform', `
  const { Readable, Transform, PassThrough } = M.stream;
  const up = new Transform({ transform(chunk, enc, cb) { cb(null, chunk.toString().toUpperCase()); } });
  const out = [];
  return new Promise((resolve) => {
    Readable.from(["a", "b", "c"]).pipe(up).pipe(new PassThrough()).on("data", (d) => out.push(d.toString())).on("end", () => resolve(out));
  });`);
diff('stream is legacy Stream', 'const S = M.stream; return [typeof S, S.Stream === S, new S.Readable() instanceof S, typeof S.promises.pipeline, typeof S.finished];');
diff('stream/promises finished', `
  const r = M.stream.Readable.from(["x"]); r.resume();
  return M["stream/promises"].finished(r).then(() => "finished");`);

// ---------------------------------------------------------------- stream/consumers
const c = 'const c = M["stream/consumers"]; const { Readable } = M.stream;';
diff('stream/consumers over a Readable', `${c}
  const make = () => Readable.from([G.Buffer.from('{"a": "'), G.Buffer.from([0xe2, 0x82]), G.Buffer.from([0xac]), G.Buffer.from('1", "b": [2]}')]);
  const text = await c.text(make());
  const json = await c.json(make());
  const buf = await c.buffer(make());
  const ab = await c.arrayBuffer(make());
  const blob = await c.blob(make());
  return [text, json, G.Buffer.isBuffer(buf), buf.length, buf.toString('hex'), ab instanceof ArrayBuffer, ab.byteLength, blob.size, blob.type, await blob.text()];`
  .replace(/^/, 'return (async () => {').concat('})();'));
diff('stream/consumers over async iterables and strings', `${c}
  async function* gen() { yield 'str'; yield new Uint8Array([0xf0, 0x9f]); yield new Uint8Array([0x98, 0x80]); yield '!'; }
  async function* cut() { yield new Uint8Array([0x61, 0xe2, 0x82]); }
  const objectMode = Readable.from(['x', 'y', 'z']);
  return [await c.text(gen()), await c.text(cut()), await c.text(objectMode), (await c.buffer(gen())).toString('base64')];`
  .replace(/^/, 'return (async () => {').concat('})();'));
diff('stream/consumers over a web ReadableStream', `${c}
  const { ReadableStream } = M['stream/web'];
  const make = () => new ReadableStream({ start(ctrl) { ctrl.enqueue(new TextEncoder().encode('[1,')); ctrl.enqueue(new TextEncoder().encode('2]')); ctrl.close(); } });
  return [await c.json(make()), await c.text(make()), (await c.arrayBuffer(make())).byteLength];`
  .replace(/^/, 'return (async () => {').concat('})();'));
diff('stream/consumers errors', `${c}
  const out = [];
  try { await c.json(Readable.from(['{bad'])); } catch (e) { out.push(e.name); }
  const failing = new Readable({ read() { this.destroy(new Error('source failed')); } });
  try { await c.text(failing); } catch (e) { out.push(e.message); }
  return out;`.replace(/^/, 'return (async () => {').concat('})();'));

// ---------------------------------------------------------------- stream/web, compression
const webStreamNames = JSON.stringify(Object.keys(require('node:stream/web')));
{
  const zlibNode = require('node:zlib');
  const text = 'Shoal streams ✓ '.repeat(40);
  var compressedFixtures = JSON.stringify({
    text,
    gzip: Array.from(zlibNode.gzipSync(text)), deflate: Array.from(zlibNode.deflateSync(text)), 'deflate-raw': Array.from(zlibNode.deflateRawSync(text)),
  });
}

webDiff('web streams toStringTag', `return ${webStreamNames}.map((n) => [n, String(G[n].prototype[Symbol.toStringTag])]);`);
webDiff('ReadableStream read and close', `
  const rs = from("a", "b");
  const r = rs.getReader();
  const out = [rs.locked, await r.read(), await r.read(), await r.read(), await r.read()];
  r.releaseLock();
  return [...out, rs.locked, M.util.inspect(rs)];`);
webDiff('ReadableStream pull, cancel and desiredSize', `
  const log = [];
  let n = 0;
  const rs = new G.ReadableStream({
    start(c) { log.push(["start", c.desiredSize]); },
    pull(c) { n++; log.push(["pull", c.desiredSize]); c.enqueue(n); if (n === 3) c.close(); },
    cancel(reason) { log.push(["cancel", reason]); },
  }, { highWaterMark: 2 });
  const r = rs.getReader();
  log.push(await r.read());
  await r.cancel("enough");
  log.push(await r.read(), await r.closed);
  return log;`);
webDiff('ReadableStream errors', `
  const out = [];
  const rs = new G.ReadableStream({ start(c) { c.error(new RangeError("boom")); } });
  try { await rs.getReader().read(); } catch (e) { out.push([e.name, e.message]); }
  const locked = new G.ReadableStream(); locked.getReader();
  try { locked.getReader(); } catch (e) { out.push(err(e)[2]); }
  const closed = new G.ReadableStream({ start(c) { c.close(); try { c.enqueue(1); } catch (e) { out.push(err(e)[2]); } } });
  await closed.getReader().closed;
  try { new G.ReadableStream({ type: "nope" }); } catch (e) { out.push(e instanceof RangeError || e instanceof TypeError); }
  await locked.cancel().catch((e) => out.push(err(e)[2]));
  out.push(M.util.inspect(rs), M.util.inspect(closed));
  return out;`);
webDiff('ReadableStream async iteration', `
  const a = await collect(from(1, 2, 3));
  const rs = from(1, 2, 3);
  const b = [];
  for await (const x of rs.values({ preventCancel: true })) { b.push(x); break; }
  // QuickJS does not await the iterator's return() on break: the lock is
  // released a moment later.
  await new Promise((r) => setTimeout(r, 1));
  const rest = await collect(rs);
  const c = [];
  const rs2 = from(1, 2, 3);
  for await (const x of rs2) { c.push(x); break; }
  await new Promise((r) => setTimeout(r, 1));
  return [a, b, rest, c, rs2.locked, M.util.inspect(rs2)];`);
webDiff('ReadableStream.from', `
  async function* gen() { yield "x"; await null; yield "y"; }
  return [await collect(G.ReadableStream.from([1, 2])), await collect(G.ReadableStream.from(gen())),
    await collect(G.ReadableStream.from(from("inner"))), await collect(G.ReadableStream.from(new Set(["s"])))];`);
webDiff('ReadableStream tee', `
  const [a, b] = from({ n: 1 }, { n: 2 }).tee();
  const [ra, rb] = await Promise.all([collect(a), collect(b)]);
  return [ra, rb, ra[0] === rb[0]];`);
webDiff('TransformStream pipeThrough', `
  const log = [];
  const t = new G.TransformStream({
    start() { log.push("start"); },
    transform(chunk, c) { c.enqueue(chunk.toUpperCase()); c.enqueue(chunk.length); },
    flush(c) { log.push("flush"); c.enqueue("end"); },
  });
  const insp = M.util.inspect(t);
  const out = await collect(from("ab", "c").pipeThrough(t));
  return [out, log, insp];`);
webDiff('TransformStream identity and errors', `
  const id = new G.TransformStream();
  const w = id.writable.getWriter();
  w.write("a"); w.write("b"); w.close();
  const res = [await collect(id.readable)];
  const bad = new G.TransformStream({ transform() { throw new SyntaxError("bad chunk"); } });
  const bw = bad.writable.getWriter();
  // The readable side has no room (highWaterMark 0) until it is read.
  res.push(await Promise.all([bw.write(1).then(() => "ok", (e) => [e.name, e.message]),
    bad.readable.getReader().read().then(() => "ok", (e) => [e.name, e.message])]));
  return res;`);
webDiff('WritableStream writer', `
  const log = [];
  const ws = new G.WritableStream({
    start() { log.push("start"); },
    write(chunk) { log.push(["write", chunk]); return new Promise((r) => setTimeout(r, 1)); },
    close() { log.push("close"); },
  }, new G.CountQueuingStrategy({ highWaterMark: 2 }));
  const w = ws.getWriter();
  log.push(["size", w.desiredSize, ws.locked]);
  w.write("a"); w.write("b");
  log.push(["after 2", w.desiredSize]);
  await w.ready;
  await w.close();
  log.push(["closed", w.desiredSize, await w.closed]);
  return [log, M.util.inspect(ws)];`);
webDiff('WritableStream abort and sink errors', `
  const log = [];
  const ws = new G.WritableStream({ abort(reason) { log.push(["abort", reason]); } });
  const w = ws.getWriter();
  await w.abort("stop");
  log.push(await w.write(1).then(() => "ok", (e) => e));
  const failing = new G.WritableStream({ write() { throw new Error("sink failed"); } });
  const fw = failing.getWriter();
  log.push(await fw.write(1).then(() => "ok", (e) => e.message));
  log.push(await fw.closed.then(() => "ok", (e) => e.message));
  log.push(M.util.inspect(failing));
  return log;`);
webDiff('pipeTo', `
  const got = [];
  await from(1, 2, 3).pipeTo(new G.WritableStream({ write(c) { got.push(c); }, close() { got.push("closed"); } }));
  const errored = new G.ReadableStream({ start(c) { c.enqueue(1); c.error(new Error("src")); } });
  const r1 = await errored.pipeTo(new G.WritableStream({ abort(e) { got.push(["aborted", e.message]); } })).then(() => "ok", (e) => e.message);
  const r2 = await from(1).pipeTo(new G.WritableStream(), { preventClose: true }).then(() => "ok");
  const ac = new G.AbortController();
  const pending = new G.ReadableStream({ pull() {} }).pipeTo(new G.WritableStream(), { signal: ac.signal }).then(() => "ok", (e) => e.name);
  ac.abort();
  return [got, r1, r2, await pending];`);
webDiff('byte streams and BYOB reader', `
  const rs = new G.ReadableStream({ type: "bytes", start(c) { c.enqueue(new Uint8Array([1, 2, 3, 4, 5])); c.close(); } });
  const r = rs.getReader({ mode: "byob" });
  const insp = [M.util.inspect(rs)];
  const a = await r.read(new Uint8Array(2));
  const b = await r.read(new Uint8Array(8));
  const c = await r.read(new Uint8Array(1));
  let n = 0;
  const auto = new G.ReadableStream({ type: "bytes", autoAllocateChunkSize: 4,
    pull(ctl) { const v = ctl.byobRequest.view; v[0] = ++n; ctl.byobRequest.respond(1); if (n === 2) ctl.close(); } });
  return [insp, Array.from(a.value), a.done, Array.from(b.value), b.done, c.done, c.value && c.value.length, await collect(auto).then((ch) => ch.map((x) => Array.from(x)))];`);
webDiff('queuing strategies', `
  const c = new G.CountQueuingStrategy({ highWaterMark: 3 });
  const b = new G.ByteLengthQueuingStrategy({ highWaterMark: 16 });
  return [c.highWaterMark, c.size(), c.size("x"), b.highWaterMark, b.size(new Uint8Array(5)), b.size({ byteLength: 7 }), M.util.inspect(c), M.util.inspect(b),
    (() => { try { new G.CountQueuingStrategy(); } catch (e) { return err(e)[2]; } })()];`);
webDiff('reader and writer inspect', `
  const rs = new G.ReadableStream();
  const ws = new G.WritableStream();
  // The closed/ready promises print differently once async_hooks is in use: left out.
  const lines = (v) => M.util.inspect(v).split("\\n").filter((l) => /^(\\S|  (stream|readRequests|desiredSize):)/.test(l));
  return [lines(rs.getReader()), lines(ws.getWriter())];`);

webDiff('TextEncoderStream', `
  const t = new G.TextEncoderStream();
  const insp = M.util.inspect(t);
  const w = t.writable.getWriter();
  for (const s of ["a\\uD83D", "\\uDE00b", "", "é", 42, "\\uD800"]) w.write(s);
  w.close();
  const chunks = await collect(t.readable);
  return [t.encoding, insp, chunks.map((c) => [c.constructor.name, Array.from(c)]), Object.prototype.toString.call(t)];`);
webDiff('TextDecoderStream', `
  const t = new G.TextDecoderStream();
  const insp = M.util.inspect(t);
  const w = t.writable.getWriter();
  for (const b of [[0xef, 0xbb, 0xbf, 0xe2, 0x82], [0xac, 0x41], [], [0xf0, 0x9f], [0x98, 0x80], [0xe2]]) w.write(new Uint8Array(b));
  w.close();
  const bom = new G.TextDecoderStream("utf-8", { ignoreBOM: true });
  const bw = bom.writable.getWriter(); bw.write(new Uint8Array([0xef, 0xbb, 0xbf, 0x68]).buffer); bw.close();
  const u16 = new G.TextDecoderStream("utf-16le");
  const uw = u16.writable.getWriter(); uw.write(new Uint8Array([0x68, 0])); uw.write(new Uint8Array([0x69])); uw.write(new Uint8Array([0])); uw.close();
  return [insp, await collect(t.readable), await collect(bom.readable), await collect(u16.readable), [u16.encoding, u16.fatal, u16.ignoreBOM],
    new G.TextDecoderStream("latin1").encoding];`);
webDiff('TextDecoderStream errors', `
  const out = [];
  try { new G.TextDecoderStream("nope"); } catch (e) { out.push([e.name, e.code, e.message]); }
  const f = new G.TextDecoderStream("utf-8", { fatal: true });
  const w = f.writable.getWriter();
  w.write(new Uint8Array([0x41, 0xe2]));
  // Writes wait for a read (the readable side's highWaterMark is 0).
  const shape = (e) => [e.name, e.code, e.message];
  out.push(await Promise.all([w.close().then(() => "ok", shape), collect(f.readable).then((v) => v, shape)]));
  const s = new G.TextDecoderStream();
  out.push(await Promise.all([s.writable.getWriter().write("str").then(() => "ok", shape), s.readable.getReader().read().then(() => "ok", shape)]));
  try { Object.getOwnPropertyDescriptor(G.TextDecoderStream.prototype, "encoding").get.call({}); } catch (e) { out.push([e.name, e.code]); }
  return out;`);
webDiff('CompressionStream round trips', `
  const text = "Grüße, Shoal! ".repeat(500);
  const out = [];
  for (const format of ["gzip", "deflate", "deflate-raw"]) {
    const packed = await collect(from(new G.TextEncoder().encode(text.slice(0, 100)), text.slice(100)).pipeThrough(new G.CompressionStream(format)));
    const size = packed.reduce((n, c) => n + c.length, 0);
    const back = await collect(from(...packed).pipeThrough(new G.DecompressionStream(format)).pipeThrough(new G.TextDecoderStream()));
    out.push([format, size < 200, back.join("") === text, packed.every((c) => c instanceof Uint8Array)]);
  }
  const gz = await collect(from(new Uint8Array([1, 2, 3])).pipeThrough(new G.CompressionStream("gzip")));
  out.push(bytesOf(gz).slice(0, 3));
  const empty = await collect(new G.ReadableStream({ start(c) { c.close(); } }).pipeThrough(new G.CompressionStream("deflate")));
  out.push(await collect(from(...empty).pipeThrough(new G.DecompressionStream("deflate"))));
  return out;`);
webDiff('DecompressionStream of Node-made data', `
  const f = ${compressedFixtures};
  const out = [];
  for (const format of ["gzip", "deflate", "deflate-raw"]) {
    const chunks = await collect(from(new Uint8Array(f[format].slice(0, 7)), new Uint8Array(f[format].slice(7))).pipeThrough(new G.DecompressionStream(format)));
    // (Node gives a chunk per chunk written, Shoal all at the end.)
    out.push([format, chunks.every((c) => c.constructor === Uint8Array), new G.TextDecoder().decode(new Uint8Array(bytesOf(chunks))) === f.text]);
  }
  return out;`);
webDiff('DecompressionStream output chunks', `
  const big = new Uint8Array(100000).map((_, i) => i % 7);
  const packed = await collect(from(big).pipeThrough(new G.CompressionStream("gzip")));
  const chunks = await collect(from(...packed).pipeThrough(new G.DecompressionStream("gzip")));
  return [chunks.map((c) => c.length), bytesOf(chunks).every((b, i) => b === i % 7)];`);
webDiff('DecompressionStream errors', `
  const f = ${compressedFixtures};
  const attempt = async (format, bytes) => {
    const ds = new G.DecompressionStream(format);
    const w = ds.writable.getWriter();
    w.write(new Uint8Array(bytes)).catch(() => {});
    const closing = w.close().then(() => "ok", (e) => [e.name, e.code, e.errno, e.message]);
    const reading = collect(ds.readable).then(() => "ok", (e) => [e.name, e.code, e.errno, e.message]);
    return [await closing, await reading];
  };
  return [await attempt("gzip", [1, 2, 3]), await attempt("gzip", []), await attempt("gzip", f.gzip.slice(0, 12)),
    await attempt("deflate", [1, 2, 3, 4]), await attempt("deflate", f.deflate.slice(0, 5))];`);
webDiff('CompressionStream constructor and shape', `
  const out = [];
  for (const format of ["br", undefined, "GZIP", 1]) {
    try { new G.CompressionStream(format); out.push("ok"); } catch (e) { out.push([e.name, e.code, e.message]); }
  }
  try { new G.DecompressionStream("zip"); } catch (e) { out.push([e.name, e.code, e.message]); }
  const cs = new G.CompressionStream("gzip");
  try { Object.getOwnPropertyDescriptor(G.CompressionStream.prototype, "readable").get.call({}); } catch (e) { out.push([e.name, e.code, e.message]); }
  out.push(Object.prototype.toString.call(cs), Object.prototype.toString.call(new G.DecompressionStream("deflate")), M.util.inspect(cs),
    cs.readable instanceof G.ReadableStream, cs.writable instanceof G.WritableStream);
  return out;`);
