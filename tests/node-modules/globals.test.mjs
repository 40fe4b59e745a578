// The web globals no Node module exports (Shoal's globals.js gives them to
// a Function): EventTarget, Event, CustomEvent, AbortController,
// AbortSignal, DOMException, structuredClone, FormData, Response's body,
// and that the web stream and messaging globals exist. Others are tested
// with the module that exports them: Buffer, atob, btoa, Blob and File in
// buffer.test.mjs, URL in url.test.mjs, TextEncoder and TextDecoder in
// util.test.mjs, the web streams in stream.test.mjs (node:stream/web), the
// messaging classes in worker_threads.test.mjs.
import { createRequire } from 'node:module';
import { diff, webDiff } from './harness/cases.mjs';

const require = createRequire(import.meta.url);
const webStreamNames = JSON.stringify(Object.keys(require('node:stream/web')));

// ---------------------------------------------------------------- EventTarget, AbortController
diff('EventTarget dispatch', `
  const t = new G.EventTarget(); const log = [];
  const h = (e) => log.push([e.type, e.target === t, e.currentTarget === t, e.eventPhase, e.cancelable]);
  t.addEventListener("x", h); t.addEventListener("x", h);
  t.addEventListener("x", { handleEvent(e) { log.push("obj " + e.type); } });
  t.addEventListener("x", () => log.push("once"), { once: true });
  const ev = new G.Event("x", { cancelable: true });
  t.addEventListener("x", (e) => e.preventDefault());
  const r1 = t.dispatchEvent(ev); t.dispatchEvent(new G.Event("x"));
  t.removeEventListener("x", h);
  t.dispatchEvent(new G.Event("x"));
  return [log, r1, ev.defaultPrevented, ev.eventPhase, ev.target === t];`);
diff('EventTarget stopImmediatePropagation', `
  const t = new G.EventTarget(); const log = [];
  t.addEventListener("x", (e) => { log.push(1); e.stopImmediatePropagation(); }); t.addEventListener("x", () => log.push(2));
  t.dispatchEvent(new G.Event("x")); return log;`);
diff('CustomEvent', 'const e = new G.CustomEvent("c", { detail: { a: 1 } }); return [e.type, e.detail, new G.CustomEvent("d").detail, e instanceof G.Event];');
diff('AbortController', `
  const ac = new G.AbortController(); const log = [];
  ac.signal.addEventListener("abort", (e) => log.push(["event", e.type]));
  ac.signal.onabort = () => log.push("onabort");
  const before = ac.signal.aborted;
  ac.abort(); ac.abort("again");
  const r = ac.signal.reason;
  let thrown; try { ac.signal.throwIfAborted(); } catch (e) { thrown = e === r; }
  return [before, ac.signal.aborted, log, r.name, r.message, r.code, r instanceof G.DOMException, r instanceof Error, thrown];`);
diff('AbortSignal.abort', `
  const s = G.AbortSignal.abort(); const s2 = G.AbortSignal.abort("why");
  return [s.aborted, s.reason.name, s.reason.message, s2.reason];`);
diff('AbortSignal.timeout', `
  const s = G.AbortSignal.timeout(5);
  return new Promise((resolve) => s.addEventListener("abort", () => resolve([s.aborted, s.reason.name, s.reason.message, s.reason.code])));`);
diff('AbortSignal.any', `
  const a = new G.AbortController(); const b = new G.AbortController();
  const any = G.AbortSignal.any([a.signal, b.signal]);
  const before = any.aborted; b.abort("b-reason");
  return [before, any.aborted, any.reason, G.AbortSignal.any([G.AbortSignal.abort("x")]).reason];`);
diff('AbortSignal constructor', 'try { new G.AbortSignal(); } catch (e) { return [e.name, e.message]; }');
diff('AbortController inspect', 'return [M.util.inspect(new G.AbortController()), M.util.inspect(G.AbortSignal.abort())];');
diff('DOMException', `
  const e = new G.DOMException("msg", "NotFoundError"); const e2 = new G.DOMException("m2", { name: "DataCloneError", cause: 1 });
  return [e.name, e.message, e.code, G.DOMException.ABORT_ERR, e instanceof Error, Object.prototype.toString.call(e), String(e),
    e2.name, e2.code, e2.cause, new G.DOMException().name, new G.DOMException("x").code];`);

// ---------------------------------------------------------------- structuredClone
diff('structuredClone', `
  const src = { n: 1, s: "x", d: new Date(5), r: /a/g, m: new Map([[1, { a: 1 }]]), st: new Set([1, 2]), arr: [1, , 3],
    u8: new Uint8Array([1, 2]), ab: new ArrayBuffer(2), big: 10n, nested: { deep: [{ x: null, u: undefined }] },
    err: new RangeError("range"), bool: new Boolean(false), str: new String("S") };
  src.self = src;
  const c = G.structuredClone(src);
  return [c !== src, c.self === c, c.d instanceof Date, c.d.getTime(), String(c.r), c.r.lastIndex, c.m.get(1), [...c.st], 1 in c.arr, c.arr.length,
    Array.from(c.u8), c.u8 instanceof Uint8Array, c.ab.byteLength, c.big === 10n, JSON.stringify(c.nested), "u" in c.nested.deep[0],
    c.err instanceof RangeError, c.err.message, c.err.name, typeof c.bool, c.bool.valueOf(), c.str.valueOf()];`);
diff('structuredClone shared refs', 'const o = { x: 1 }; const c = G.structuredClone({ a: o, b: o, arr: [o] }); return [c.a === c.b, c.arr[0] === c.a];');
diff('structuredClone class instance', 'class P { constructor() { this.v = 1; } get g() { return 2; } } const c = G.structuredClone(new P()); return [c.constructor === Object, c.v, c.g];');
diff('structuredClone function', 'try { G.structuredClone({ f() {} }); } catch (e) { return [e.name, e.code, e instanceof G.DOMException]; }');
diff('structuredClone symbol', 'try { G.structuredClone(Symbol("s")); } catch (e) { return [e.name, e.code, e.message]; }');
diff('structuredClone Buffer', 'const c = G.structuredClone(G.Buffer.from("ab")); return [c.constructor.name, Array.from(c)];');
diff('structuredClone error subclass', 'class MyErr extends Error {} const c = G.structuredClone(new MyErr("m")); return [c.constructor.name, c.name, c.message];');
diff('structuredClone views share buffer', 'const ab = new ArrayBuffer(4); const c = G.structuredClone({ a: new Uint8Array(ab), b: new Uint16Array(ab) }); c.a[0] = 255; return c.b[0];');

// ---------------------------------------------------------------- FormData
diff('FormData', `
  const fd = new G.FormData();
  fd.append("a", "1"); fd.append("a", "2"); fd.append("b", new G.Blob(["x"]), "b.txt"); fd.set("c", "3"); fd.append("d", new G.Blob(["y"]));
  const f = fd.get("b"); const d = fd.get("d");
  const r = [fd.get("a"), fd.getAll("a"), fd.has("c"), f instanceof G.File, f.name, d.name, fd.get("nope"), [...fd.keys()]];
  fd.delete("a"); fd.set("c", "4");
  r.push([...fd.entries()].map(([k, v]) => [k, typeof v === "string" ? v : "file:" + v.name]));
  return r;`);
diff('FormData inspect', 'const fd = new G.FormData(); fd.append("a", "1"); return M.util.inspect(fd);');

// ---------------------------------------------------------------- web streams and messaging
webDiff('web globals exist', `return ${webStreamNames}.concat(["MessageChannel", "MessagePort", "MessageEvent", "BroadcastChannel"])
  .map((n) => [n, typeof G[n], G[n] && G[n].name, G[n] && Object.getOwnPropertyNames(G[n].prototype).sort().join()]);`);

// ---------------------------------------------------------------- Response
webDiff('Response body with web streams', `
  const res = new G.Response("streamed body");
  const chunks = [];
  for await (const c of res.body) chunks.push(...c);
  const r2 = new G.Response("via reader");
  const reader = r2.body.getReader();
  const first = await reader.read();
  return [new G.TextDecoder().decode(new Uint8Array(chunks)), new G.TextDecoder().decode(first.value), (await reader.read()).done];`);
