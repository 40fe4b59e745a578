// node:events: EventEmitter, once/on (with AbortSignal), errorMonitor,
// getEventListeners.
import { diff } from './harness/cases.mjs';

diff('EventEmitter basics', `
  const E = M.events;
  const e = new E();
  const log = [];
  e.on("x", (a, b) => log.push(["on", a, b]));
  e.prependListener("x", () => log.push(["prepend"]));
  e.once("x", () => log.push(["once"]));
  e.emit("x", 1, 2); e.emit("x", 3);
  return [log, e.listenerCount("x"), e.eventNames(), E.defaultMaxListeners, E.EventEmitter === E, typeof E.once, typeof E.on];`);
diff('EventEmitter error', `
  const e = new M.events();
  try { e.emit("error", new Error("unhandled")); } catch (err) { return err.message; }`);
diff('events.once', `
  const e = new M.events();
  setTimeout(() => e.emit("ready", 1, 2), 1);
  return M.events.once(e, "ready");`);
diff('events.once rejects on error', `
  const e = new M.events();
  setTimeout(() => e.emit("error", new Error("bad")), 1);
  return M.events.once(e, "ready").catch((err) => "rejected " + err.message);`);
diff('events.once abort', `
  const e = new M.events(); const ac = new G.AbortController();
  const p = M.events.once(e, "never", { signal: ac.signal }).catch((err) => [err.name, err.code, err.message]);
  ac.abort(); return p;`);
diff('events.on', `
  const e = new M.events();
  setTimeout(() => { e.emit("d", 1); e.emit("d", 2); e.emit("d", 3); }, 1);
  return (async () => { const out = []; for await (const [v] of M.events.on(e, "d")) { out.push(v); if (v === 3) break; } return [out, e.listenerCount("d")]; })();`);
diff('events.errorMonitor', `
  const e = new M.events(); const log = [];
  e.on(M.events.errorMonitor, (err) => log.push("monitor " + err.message));
  e.on("error", (err) => log.push("handler " + err.message));
  e.emit("error", new Error("x"));
  return log;`);
diff('events.getEventListeners', `
  const e = new M.events(); const f = () => {}; e.on("a", f);
  const t = new G.EventTarget(); t.addEventListener("b", f);
  return [M.events.getEventListeners(e, "a").length, M.events.getEventListeners(t, "b").length, M.events.getEventListeners(t, "c").length];`);
