// node:zlib: the engine's codec in every framing, callbacks, streams and
// pipelines, errors, constants.
import { createRequire } from 'node:module';
import { check, diff } from './harness/cases.mjs';

const require = createRequire(import.meta.url);

diff('zlib round trips', `
  const z = M.zlib; const B = M.buffer.Buffer;
  const input = B.from("hello hello hello hello zlib ".repeat(20));
  return [z.inflateSync(z.deflateSync(input)).equals(input), z.gunzipSync(z.gzipSync(input)).equals(input),
    z.inflateRawSync(z.deflateRawSync(input)).equals(input), z.unzipSync(z.gzipSync(input)).equals(input), z.unzipSync(z.deflateSync(input)).equals(input),
    z.deflateSync("abc").toString("base64"), z.deflateSync("abc", { level: 9 }).toString("hex"), z.deflateRawSync(B.from("x")).toString("hex"),
    z.gunzipSync(z.gzipSync("str")).toString(), z.inflateSync(new Uint8Array(z.deflateSync("u8"))).toString()];`);
check('zlib gunzip of Node-made gzip', `return M.zlib.gunzipSync(M.buffer.Buffer.from("${require('node:zlib').gzipSync('made by node ✓').toString('base64')}", "base64")).toString();`, 'made by node ✓');
check('zlib inflate of Node-made deflate', `return M.zlib.inflateSync(M.buffer.Buffer.from("${require('node:zlib').deflateSync('deflated by node').toString('base64')}", "base64")).toString();`, 'deflated by node');
diff('zlib corrupt input', 'try { M.zlib.gunzipSync(M.buffer.Buffer.from("not gzip")); } catch (e) { return [e.code, e.errno]; }');
diff('zlib truncated input', 'const g = M.zlib.gzipSync("some data to compress"); try { M.zlib.gunzipSync(g.subarray(0, 10)); } catch (e) { return [e.code, e.errno, e.message]; }');
diff('zlib callback and promisify', `
  return new Promise((r) => M.zlib.gzip("cb data", (e, buf) => r(M.util.promisify(M.zlib.gunzip)(buf)))).then((b) => b.toString());`);
diff('zlib streams', `
  const z = M.zlib;
  return new Promise((resolve, reject) => {
    const gz = z.createGzip(); const gunz = z.createGunzip(); const chunks = [];
    gz.pipe(gunz); gunz.on("data", (c) => chunks.push(c)); gunz.on("end", () => resolve(M.buffer.Buffer.concat(chunks).toString())); gunz.on("error", reject);
    gz.write("streamed "); gz.write(M.buffer.Buffer.from("data")); gz.end();
  });`);
diff('zlib stream pipeline', `
  const chunks = [];
  const sink = new M.stream.Writable({ write(c, e, cb) { chunks.push(c); cb(); } });
  return M["stream/promises"].pipeline(M.stream.Readable.from([M.buffer.Buffer.from("a"), M.buffer.Buffer.from("b")]), M.zlib.createDeflate(), M.zlib.createInflate(), sink)
    .then(() => M.buffer.Buffer.concat(chunks).toString());`);
diff('zlib constants', 'const z = M.zlib; return [z.constants.Z_BEST_COMPRESSION, z.constants.Z_SYNC_FLUSH, z.Z_DEFAULT_COMPRESSION, z.codes.Z_DATA_ERROR, z.codes["-3"]];');
diff('zlib level out of range', 'try { M.zlib.deflateSync("x", { level: 10 }); } catch (e) { return [e.name, e.code, e.message]; }');
diff('zlib crc32', 'return typeof M.zlib.crc32 === "function" ? [M.zlib.crc32("hello"), M.zlib.crc32(M.buffer.Buffer.from("world"), 123)] : "n/a";');
check('zlib brotli unavailable', 'try { M.zlib.brotliCompressSync("x"); return "no throw"; } catch (e) { return e.message.includes("not available"); }', true);
