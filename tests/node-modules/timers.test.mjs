// node:timers and node:timers/promises: the prelude's timers as Node's,
// promise timers with AbortSignal, setInterval as an async iterator,
// scheduler.wait.
import { diff } from './harness/cases.mjs';

diff('timers/promises setTimeout', 'const start = Date.now(); return M["timers/promises"].setTimeout(20, "value").then((v) => [v, Date.now() - start >= 15]);');
diff('timers/promises setImmediate', 'return M["timers/promises"].setImmediate("imm");');
diff('timers/promises abort', `
  const ac = new G.AbortController();
  const p = M["timers/promises"].setTimeout(10000, "x", { signal: ac.signal }).catch((e) => [e.name, e.code, e.message, e.cause === ac.signal.reason]);
  ac.abort(); return p;`);
diff('timers/promises aborted before', 'return M["timers/promises"].setTimeout(1, 1, { signal: G.AbortSignal.abort() }).catch((e) => [e.name, e.code]);');
diff('timers/promises setInterval', `
  return (async () => { const out = []; for await (const v of M["timers/promises"].setInterval(5, "tick")) { out.push(v); if (out.length === 3) break; } return out; })();`);
diff('timers/promises scheduler.wait', 'return M["timers/promises"].scheduler.wait(5).then((v) => ["waited", v]);');
diff('timers module', `
  const t = M.timers;
  return new Promise((resolve) => {
    const log = [];
    const handle = t.setTimeout((a) => log.push(a), 5, "fired");
    const cancelled = t.setTimeout(() => log.push("cancelled"), 5);
    t.clearTimeout(cancelled);
    const i = t.setInterval(() => { log.push("i"); if (log.filter((x) => x === "i").length === 2) t.clearInterval(i); }, 3);
    t.setImmediate(() => log.push("immediate"));
    t.setTimeout(() => resolve([log.sort(), typeof handle.unref, handle.unref() === handle, handle.hasRef(), typeof +handle]), 40);
  });`);
