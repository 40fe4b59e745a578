// node:fs and node:fs/promises: reading a fixture folder (the engine's file
// functions are Node's here, harness/native-shim.cjs), errors worded as
// Node's, writes refused with EROFS, and the newer API (glob, opendir,
// statfs, readv, openAsBlob) over this repository's files.
import fsNode from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, check, diff, repoRoot, underNode } from './harness/cases.mjs';

const fixture = fsNode.mkdtempSync(path.join(os.tmpdir(), 'shoal-fs-'));
fsNode.writeFileSync(path.join(fixture, 'a.txt'), 'hello fs ✓');
fsNode.mkdirSync(path.join(fixture, 'sub'));
fsNode.writeFileSync(path.join(fixture, 'sub', 'b.json'), '{"b":1}');
after(() => fsNode.rmSync(fixture, { recursive: true, force: true }));
const F = JSON.stringify(fixture);
diff('fs.readFileSync', `return [M.fs.readFileSync(${F} + "/a.txt", "utf8"), M.fs.readFileSync(${F} + "/a.txt").toString("hex"),
  M.fs.readFileSync(${F} + "/a.txt", { encoding: "base64" }), M.fs.readFileSync(new G.URL("file://" + ${F} + "/sub/b.json"), "utf8")];`);
diff('fs.readFileSync ENOENT', `try { M.fs.readFileSync(${F} + "/missing"); } catch (e) { return [e.code, e.errno, e.syscall, e.path, e.message]; }`);
diff('fs.readFileSync EISDIR', `try { M.fs.readFileSync(${F}); } catch (e) { return [e.code, e.errno, e.syscall, e.message]; }`);
diff('fs.existsSync', `return [M.fs.existsSync(${F} + "/a.txt"), M.fs.existsSync(${F} + "/nope"), M.fs.existsSync(${F})];`);
diff('fs.statSync', `
  const s = M.fs.statSync(${F} + "/a.txt"); const d = M.fs.statSync(${F});
  return [s.isFile(), s.isDirectory(), s.size, s.mtime instanceof Date, typeof s.mtimeMs, d.isDirectory(), d.isFile(), s.isSymbolicLink(),
    M.fs.statSync(${F} + "/nope", { throwIfNoEntry: false }), M.fs.lstatSync(${F} + "/a.txt").size];`);
diff('fs.statSync ENOENT', `try { M.fs.statSync(${F} + "/nope"); } catch (e) { return [e.code, e.syscall, e.message]; }`);
diff('fs.readdirSync', `
  return [M.fs.readdirSync(${F}), M.fs.readdirSync(${F}, { withFileTypes: true }).map((d) => [d.name, d.isFile(), d.isDirectory(), d.parentPath]),
    M.fs.readdirSync(${F}, { recursive: true }).sort()];`);
diff('fs.readdirSync ENOENT', `try { M.fs.readdirSync(${F} + "/x"); } catch (e) { return [e.code, e.syscall, e.message]; }`);
diff('fs.accessSync', `M.fs.accessSync(${F} + "/a.txt"); M.fs.accessSync(${F}, M.fs.constants.R_OK); try { M.fs.accessSync(${F} + "/no"); } catch (e) { return [e.code, e.syscall, e.message]; }`);
diff('fs callbacks', `return new Promise((r) => M.fs.readFile(${F} + "/a.txt", "utf8", (e, d) => M.fs.stat(${F} + "/nope", (e2) => r([e, d, e2.code]))));`);
diff('fs.promises', `return Promise.all([M.fs.promises.readFile(${F} + "/sub/b.json", "utf8"), M["fs/promises"].stat(${F}).then((s) => s.isDirectory()),
  M["fs/promises"].readdir(${F}), M["fs/promises"].access(${F} + "/nope").catch((e) => e.code), M.fs.promises === M["fs/promises"]]);`);
diff('fs fd reads', `
  const fd = M.fs.openSync(${F} + "/a.txt", "r"); const buf = M.buffer.Buffer.alloc(5);
  const n = M.fs.readSync(fd, buf, 0, 5, 0); const n2 = M.fs.readSync(fd, buf, 0, 5, 6);
  const st = M.fs.fstatSync(fd).size; M.fs.closeSync(fd);
  return [n, n2, buf.toString("hex"), st];`);
diff('fs.promises FileHandle', `return M["fs/promises"].open(${F} + "/a.txt").then(async (h) => { const t = await h.readFile("utf8"); const s = await h.stat(); await h.close(); return [t, s.size]; });`);
diff('fs.createReadStream', `
  return new Promise((resolve, reject) => { const chunks = []; M.fs.createReadStream(${F} + "/a.txt", { encoding: "utf8", start: 1, end: 4 })
    .on("data", (c) => chunks.push(c)).on("end", () => resolve(chunks.join(""))).on("error", reject); });`);
diff('fs.createReadStream error', `return new Promise((resolve) => M.fs.createReadStream(${F} + "/nope").on("error", (e) => resolve([e.code, e.syscall])).resume());`);
diff('fs.realpathSync', `return [M.fs.realpathSync(${F} + "/sub/../a.txt") === ${F} + "/a.txt"];`);
check('fs writes are EROFS', `
  const out = [];
  for (const [fn, args] of [["writeFileSync", ["/tmp/x", "data"]], ["mkdirSync", ["/tmp/d"]], ["unlinkSync", ["/tmp/x"]], ["appendFileSync", ["/tmp/x", "y"]],
    ["renameSync", ["/a", "/b"]], ["rmSync", ["/a"]], ["createWriteStream", ["/tmp/w"]], ["openSync", ["/tmp/x", "w"]]]) {
    try { M.fs[fn](...args); out.push("no throw"); } catch (e) { out.push([e.code, e.errno, e.message.includes("read-only in a Shoal Function")]); }
  }
  return out;`, [...Array(8)].map(() => ['EROFS', -30, true]));
check('fs write callbacks and promises are EROFS', `
  return Promise.all([new Promise((r) => M.fs.writeFile("/tmp/x", "d", (e) => r(e.code))), M["fs/promises"].writeFile("/tmp/x", "d").catch((e) => [e.code, e.syscall, e.path]),
    M["fs/promises"].mkdir("/tmp/d", { recursive: true }).catch((e) => e.code)]);`, ['EROFS', ['EROFS', 'open', '/tmp/x'], 'EROFS']);
diff('fs constants', 'return [M.fs.constants.O_RDONLY, M.fs.constants.S_IFMT, M.fs.constants.F_OK, M.fs.F_OK, M.fs.constants.R_OK];');

// fs over real files (the engine's fs primitives are Node's in these
// runs): Node 22 added glob.
const dir = JSON.stringify(path.join(repoRoot, 'crates/shoal-build/js/node'));
const globs = `
  const dir = ${dir};
  const sorted = (list) => list.map(String).sort();
  return [
    sorted(M.fs.globSync('*.js', { cwd: dir + '/internal/dns' })),
    sorted(M.fs.globSync('internal/**/h*.js', { cwd: dir })),
    sorted(M.fs.globSync('internal/{dns,v8}/*', { cwd: dir })),
    sorted(M.fs.globSync('**', { cwd: dir + '/internal/dns' })),
    sorted(M.fs.globSync(dir + '/internal/dns/[hi]*.js')),
    sorted(M.fs.globSync(['internal/dns/*.js', 'internal/v8/*.js'], { cwd: dir, exclude: ['internal/dns/ip.js'] })),
    sorted(M.fs.globSync('internal/dns/?o*.js', { cwd: dir, exclude: (name) => name.endsWith('lookup.js') })),
    M.fs.globSync('internal/dns/h*.js', { cwd: dir, withFileTypes: true }).map((d) => [d.name, d.parentPath, d.isFile()]),
    sorted(M.fs.globSync('nothing/*', { cwd: dir })),
  ];`;
check('fs.globSync (Node 22)', globs, underNode(22, ['fs'], globs));
diff('fs.opendirSync, readlinkSync, statfsSync, readvSync', `
  const dir = ${dir} + '/internal/dns';
  const d = M.fs.opendirSync(dir);
  const names = [];
  for (let e = d.readSync(); e !== null; e = d.readSync()) names.push([e.name, e.isFile()]);
  d.closeSync();
  const out = [d.path, names.sort()];
  try { d.readSync(); } catch (e) { out.push(e.code); }
  for (const p of [dir + '/ip.js', dir + '/nope']) {
    try { M.fs.readlinkSync(p); } catch (e) { out.push([e.code, e.syscall, e.message]); }
  }
  out.push(Object.keys(M.fs.statfsSync(dir)), M.fs.statfsSync(dir).constructor.name, typeof M.fs.statfsSync(dir, { bigint: true }).bsize);
  const fd = M.fs.openSync(dir + '/ip.js');
  const a = new Uint8Array(5);
  const b = new Uint8Array(3);
  out.push(M.fs.readvSync(fd, [a, b], 0), Array.from(a), Array.from(b));
  M.fs.closeSync(fd);
  out.push(M.fs._toUnixTimestamp('12'), M.fs._toUnixTimestamp(new Date(5000)), M.fs.FileReadStream === M.fs.ReadStream);
  return out;`);
diff('fs.opendir, promises.opendir and openAsBlob', `return (async () => {
  const dir = ${dir} + '/internal/dns';
  const viaCallback = await new Promise((resolve, reject) => M.fs.opendir(dir, (err, d) => (err ? reject(err) : resolve(d))));
  const names = [];
  for await (const e of viaCallback) names.push(e.name);
  const viaPromise = await M['fs/promises'].opendir(dir);
  const first = await viaPromise.read();
  await viaPromise.close();
  const blob = await M.fs.openAsBlob(dir + '/ip.js', { type: 'text/javascript' });
  return [names.sort(), typeof first.name, blob.size === M.fs.statSync(dir + '/ip.js').size, blob.type, (await blob.text()).slice(0, 12)];
})();`);
