// node:worker_threads on the main thread, and the messaging classes it
// exports (also globals): MessageChannel, MessagePort, MessageEvent and
// BroadcastChannel within the Function.
import { check, diff, webDiff } from './harness/cases.mjs';

diff('worker_threads on the main thread', `
  const w = M.worker_threads;
  const { port1, port2 } = new w.MessageChannel();
  port1.postMessage({ n: 1 });
  port1.postMessage('second');
  const received = [w.receiveMessageOnPort(port2), w.receiveMessageOnPort(port2), w.receiveMessageOnPort(port2)];
  port1.close();
  w.setEnvironmentData('k', { v: 1 });
  const env = [w.getEnvironmentData('k'), w.getEnvironmentData('missing')];
  w.setEnvironmentData('k', undefined);
  env.push(w.getEnvironmentData('k'));
  let bad;
  try { w.receiveMessageOnPort({}); } catch (e) { bad = [e.name, e.code, e.message]; }
  return Promise.all([w.postMessageToThread(0).catch((e) => [e.code, e.message]), w.postMessageToThread(99, 'x').catch((e) => [e.code, e.message])])
    .then((posted) => [w.isMainThread, w.threadId, w.parentPort, w.workerData, w.resourceLimits, w.SHARE_ENV.toString(),
      received, env, bad, posted, typeof w.Worker, w.Worker.prototype instanceof M.events]);`);
// Node 22's (Node 20 has no isMarkedAsUntransferable).
check('worker_threads.markAsUntransferable', `
  const w = M.worker_threads;
  const ab = new ArrayBuffer(1);
  const marks = [w.isMarkedAsUntransferable(ab)];
  w.markAsUntransferable(ab);
  marks.push(w.isMarkedAsUntransferable(ab), w.isMarkedAsUntransferable(1), w.markAsUntransferable(1));
  return marks;`, [false, true, false, null]);
check('worker_threads.Worker throws', `try { new M.worker_threads.Worker('./w.js'); return 'started'; } catch (e) { return [e.code, e.message]; }`,
  ['ERR_METHOD_NOT_IMPLEMENTED', 'new worker_threads.Worker() is not available in Shoal: a Function cannot start threads']);

// ---------------------------------------------------------------- messaging
webDiff('MessageChannel delivery and cloning', `
  const { port1, port2 } = new G.MessageChannel();
  const log = [];
  const original = { when: new Date(0), map: new Map([["k", [1, 2]]]), nested: { a: [1, { b: 2 }] } };
  original.self = original;
  const got = new Promise((resolve) => {
    port2.onmessage = (e) => {
      log.push([e.type, e.data === original, e.origin, e.lastEventId, e.source, e.ports, e.target === port2, e instanceof G.MessageEvent,
        e instanceof G.Event, Object.prototype.toString.call(e)]);
      if (log.length === 3) resolve(e);
    };
  });
  port1.postMessage(original);
  port1.postMessage("second");
  port1.postMessage(undefined);
  log.push("sync");
  Promise.resolve().then(() => log.push("microtask"));
  await got;
  port1.close();
  return log.map((l) => (Array.isArray(l) && l[0] === "message" ? l.slice(0, 9) : l));`);
webDiff('MessageChannel data', `
  const { port1, port2 } = new G.MessageChannel();
  const original = { when: new Date(0), map: new Map([["k", [1, 2]]]), set: new Set(["s"]), re: /x/g, big: 1n, bytes: new Uint8Array([1, 2]), err: new RangeError("r") };
  original.self = original;
  const e = await new Promise((resolve) => { port2.addEventListener("message", resolve); port1.postMessage(original); });
  const d = e.data;
  port1.close();
  return [d.when instanceof Date, d.when.getTime(), d.map.get("k"), d.map.get("k") !== original.map.get("k"), d.set.has("s"), d.re.flags,
    typeof d.big, Array.from(d.bytes), d.err instanceof RangeError, d.err.message, d.self === d];`);
webDiff('MessagePort errors', `
  const out = [];
  const { port1, port2 } = new G.MessageChannel();
  for (const v of [() => 1, Symbol("s")]) {
    try { port1.postMessage(v); } catch (e) { out.push([e.name, e.code, e.message]); }
  }
  try { port1.postMessage(); } catch (e) { out.push([e.name, e.code, e.message]); }
  try { new G.MessagePort(); } catch (e) { out.push([e.name, e.code, e.message]); }
  try { port1.postMessage("x", [port1]); } catch (e) { out.push([e.name, e.code, e.message]); }
  port1.close(); port2.close();
  return out;`);
webDiff('MessagePort start, queueing and Node-style listeners', `
  const log = [];
  const a = new G.MessageChannel();
  a.port1.postMessage("queued 1");
  a.port1.postMessage("queued 2");
  await new Promise((r) => setTimeout(r, 5));
  log.push(["before start", a.port2.hasRef()]);
  const firstTwo = new Promise((resolve) => {
    const seen = [];
    a.port2.on("message", (value) => { seen.push(["on", value]); if (seen.length === 2) resolve(seen); });
  });
  log.push(await firstTwo, a.port2.hasRef(), a.port1.hasRef(), a.port2.listenerCount("message"));
  const once = new Promise((resolve) => a.port2.once("message", (v) => resolve(["once", v])));
  a.port1.postMessage("third");
  log.push(await once, a.port2.listenerCount("message"));
  log.push(a.port2.emit("message", "emitted"));
  const listener = (v) => log.push(["removed listener called", v]);
  a.port2.on("message", listener).off("message", listener);
  log.push(a.port2.listenerCount("message"));
  a.port2.removeAllListeners("message");
  const unref = a.port2.unref();
  log.push(a.port2.listenerCount("message"), unref, a.port2.hasRef(), a.port2.ref(), a.port2.hasRef());
  a.port1.close();
  return log;`);
webDiff('MessagePort close', `
  const log = [];
  const { port1, port2 } = new G.MessageChannel();
  port2.on("message", (v) => log.push(["message", v]));
  const closes = Promise.all([
    new Promise((r) => port1.addEventListener("close", (e) => { log.push(["port1 close", e.type]); r(); })),
    new Promise((r) => port2.on("close", (e) => { log.push(["port2 close", typeof e]); r(); })),
  ]);
  port1.postMessage("before close");
  port1.close();
  port1.postMessage("after close");
  port2.postMessage("to a closed port");
  await closes;
  await new Promise((r) => setTimeout(r, 5));
  return log;`);
webDiff('MessagePort transfer', `
  const { port1, port2 } = new G.MessageChannel();
  const other = new G.MessageChannel();
  const e = await new Promise((resolve) => { port2.onmessage = resolve; port1.postMessage("with a port", [other.port2]); });
  const viaPort = await new Promise((resolve) => { e.ports[0].onmessage = (ev) => resolve(ev.data); other.port1.postMessage("through the transferred port"); });
  const ab = new ArrayBuffer(4);
  const e2 = await new Promise((resolve) => { port2.onmessage = resolve; port1.postMessage({ ab }, { transfer: [ab] }); });
  port1.close(); other.port1.close();
  return [e.data, e.ports.length, e.ports[0] instanceof G.MessagePort, viaPort, e2.data.ab instanceof ArrayBuffer, e2.data.ab.byteLength];`);
webDiff('MessageEvent', `
  const a = new G.MessageEvent("message");
  const b = new G.MessageEvent("custom", { data: { x: 1 }, origin: "o", lastEventId: 5, ports: [] });
  let missing;
  try { new G.MessageEvent(); } catch (e) { missing = e.name; }
  return [a.type, a.data, a.origin, a.lastEventId, a.source, a.ports, b.type, b.data, b.origin, b.lastEventId,
    Object.getOwnPropertyNames(G.MessageEvent.prototype), a instanceof G.Event, missing];`);
webDiff('BroadcastChannel', `
  const log = [];
  const a = new G.BroadcastChannel("news");
  const b = new G.BroadcastChannel("news");
  const c = new G.BroadcastChannel(42);
  const d = new G.BroadcastChannel("news");
  a.onmessage = (e) => log.push(["a got its own", e.data]);
  c.onmessage = (e) => log.push(["other name", e.data]);
  const payload = { list: [1, 2], when: new Date(0) };
  const got = Promise.all([b, d].map((ch) => new Promise((resolve) => ch.addEventListener("message", (e) => resolve(e)))));
  a.postMessage(payload);
  const [eb, ed] = await got;
  await new Promise((r) => setTimeout(r, 5));
  log.push([eb.data.list, eb.data.when instanceof Date, eb.data !== payload, eb.data !== ed.data, eb.type, eb.target === b, eb instanceof G.MessageEvent]);
  log.push([c.name, typeof c.name, M.util.inspect(a), a.ref() === a, a.unref() === a, Object.prototype.toString.call(a)]);
  a.close(); b.close(); c.close(); d.close();
  for (const fn of [() => a.postMessage(1), () => b.postMessage(), () => new G.BroadcastChannel(), () => d.postMessage(() => 1)]) {
    try { fn(); log.push("no throw"); } catch (e) { log.push([e.name, e.code, e.message]); }
  }
  log.push(M.util.inspect(a));
  return log;`);
