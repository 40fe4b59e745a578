// node:async_hooks: AsyncLocalStorage through awaits, promise callbacks,
// timers, immediates, microtasks and nextTick, nested and concurrent runs,
// enterWith/exit/disable, snapshot, bind and AsyncResource.
import { diff } from './harness/cases.mjs';

diff('AsyncLocalStorage', `
  const als = new M.async_hooks.AsyncLocalStorage();
  return (async () => {
    const out = [als.getStore()];
    await als.run({ id: 1 }, async () => {
      out.push(als.getStore().id);
      await new Promise((r) => setTimeout(r, 2));
      out.push(als.getStore().id);
      als.exit(() => out.push(als.getStore()));
      out.push(als.run(2, () => als.getStore()));
      out.push(als.getStore().id);
    });
    out.push(als.getStore());
    return out;
  })();`);
diff('AsyncResource', `
  const als = new M.async_hooks.AsyncLocalStorage();
  const bound = als.run("ctx", () => M.async_hooks.AsyncResource.bind(() => als.getStore()));
  const snap = als.run("snap", () => M.async_hooks.AsyncLocalStorage.snapshot());
  return [bound(), snap(() => als.getStore()), typeof M.async_hooks.executionAsyncId()];`);
diff('AsyncLocalStorage nested run and a sibling awaiting (compat case 64)', `
  const als = new M.async_hooks.AsyncLocalStorage();
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const log = (msg) => { const s = als.getStore(); return "[" + (s ? s.correlationId : "no-context") + "] " + msg; };
  const chargeCard = async (amount) => { await sleep(3); return log("charged " + amount); };
  return (async () => {
    const outside = log("before run");
    const lines = await als.run({ correlationId: "req-42" }, async () => {
      const out = [log("start")];
      out.push(await chargeCard(10));
      const parallel = await Promise.all([
        als.run({ correlationId: "req-42/child" }, async () => { await sleep(2); return log("child task"); }),
        (async () => { await sleep(1); return log("sibling task"); })(),
      ]);
      out.push(...parallel);
      await new Promise((resolve) => setTimeout(() => { out.push(log("inside setTimeout")); resolve(); }, 1));
      await new Promise((resolve) => setImmediate(() => resolve(out.push(log("inside setImmediate")))));
      return out;
    });
    return { outside, lines, after: log("after run") };
  })();`);
diff('AsyncLocalStorage nested runs with siblings (then, timers, deeper runs)', `
  const als = new M.async_hooks.AsyncLocalStorage();
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  return als.run("outer", async () => {
    const got = await Promise.all([
      als.run("child", async () => { await sleep(2); const a = als.getStore(); await sleep(1); return [a, als.getStore()]; }),
      (async () => { await sleep(1); const a = als.getStore(); await sleep(2); return [a, als.getStore()]; })(),
      als.run("child2", () => sleep(1).then(() => als.getStore())),
      sleep(2).then(() => als.getStore()),
      Promise.resolve().then(() => als.getStore()),
      als.run("child3", async () => {
        const deeper = als.run("grandchild", async () => { await sleep(1); return als.getStore(); });
        const mine = als.getStore();
        await sleep(2);
        return [mine, await deeper, als.getStore()];
      }),
      (async () => { await Promise.resolve(); return als.getStore(); })(),
    ]);
    return [got, als.getStore()];
  }).then((v) => [v, als.getStore()]);`);
diff('AsyncLocalStorage continuations in microtask order', `
  const als = new M.async_hooks.AsyncLocalStorage();
  const out = [];
  return als.run(1, async () => {
    const inner = als.run(2, async () => {
      out.push(["2 sync", als.getStore()]);
      await Promise.resolve();
      out.push(["2 after await", als.getStore()]);
      const deeper = als.run(3, async () => { await Promise.resolve(); out.push(["3", als.getStore()]); });
      out.push(["2 after deeper", als.getStore()]);
      await deeper;
      out.push(["2 after await deeper", als.getStore()]);
    });
    out.push(["1 after inner started", als.getStore()]);
    await Promise.resolve();
    out.push(["1 after await", als.getStore()]);
    Promise.resolve().then(() => out.push(["1 then", als.getStore()]));
    await inner;
    out.push(["1 end", als.getStore()]);
    return out;
  }).then((o) => [o, als.getStore()]);`);
diff('AsyncLocalStorage concurrent runs', `
  const als = new M.async_hooks.AsyncLocalStorage();
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const task = (id, delays) => als.run(id, async () => {
    const seen = [];
    for (const d of delays) { await sleep(d); seen.push(als.getStore()); }
    await Promise.resolve(); seen.push(als.getStore());
    seen.push(await sleep(1).then(() => als.getStore()));
    try { await Promise.reject(new Error("x")); } catch { seen.push(als.getStore()); }
    await Promise.reject(new Error("y")).catch(() => seen.push(als.getStore())).finally(() => seen.push(als.getStore()));
    seen.push(await Promise.race([sleep(2).then(() => als.getStore()), sleep(1).then(() => als.getStore())]));
    return seen;
  });
  return (async () => {
    const results = await Promise.all([task("a", [3, 1, 2]), task("b", [1, 3, 1]), task("c", [2, 2, 2]), task("d", [])]);
    return [results, als.getStore()];
  })();`);
diff('AsyncLocalStorage concurrent runs awaiting plain values', `
  const als = new M.async_hooks.AsyncLocalStorage();
  return Promise.all(["a", "b", "c"].map((id) => als.run(id, async () => {
    await null;
    const first = als.getStore();
    await Promise.resolve();
    const second = als.getStore();
    await new Promise((r) => setTimeout(r, 1));
    return [first, second, als.getStore()];
  }))).then((v) => [v, als.getStore()]);`);
diff('AsyncLocalStorage then callbacks of one run between plain awaits of another', `
  const als = new M.async_hooks.AsyncLocalStorage();
  return Promise.all([
    als.run("a", () => {
      Promise.resolve().then(() => Promise.resolve().then(() => Promise.resolve().then(() => {})));
      M.process.nextTick(() => queueMicrotask(() => {}));
      return new Promise((r) => setTimeout(() => r(als.getStore()), 1));
    }),
    als.run("b", async () => { await null; await 0; await undefined; return als.getStore(); }),
  ]).then((v) => [v, als.getStore()]);`);
diff('AsyncLocalStorage one run awaiting plain values and thenables', `
  const als = new M.async_hooks.AsyncLocalStorage();
  return (async () => {
    const seen = await als.run("one", async () => {
      const seen = [];
      await null; seen.push(als.getStore());
      await 1; seen.push(als.getStore());
      await { then(r) { r(2); } }; seen.push(als.getStore());
      await new Promise((r) => setTimeout(r, 1)); seen.push(als.getStore());
      await undefined; seen.push(als.getStore());
      for await (const x of [1, Promise.resolve(2)]) seen.push([x, als.getStore()]);
      return seen;
    });
    return [seen, als.getStore()];
  })();`);
diff('AsyncLocalStorage timers, immediates, microtasks', `
  const als = new M.async_hooks.AsyncLocalStorage();
  const got = als.run("outer", () => Promise.all([
    new Promise((r) => setTimeout(() => r(["setTimeout", als.getStore()]), 2)),
    new Promise((r) => setTimeout((a, b) => r(["setTimeout args", als.getStore(), a, b]), 1, "x", "y")),
    new Promise((r) => setImmediate(() => r(["setImmediate", als.getStore()]))),
    new Promise((r) => queueMicrotask(() => r(["queueMicrotask", als.getStore()]))),
    new Promise((r) => M.process.nextTick(() => r(["nextTick", als.getStore()]))),
    new Promise((r) => { let n = 0; const i = setInterval(() => { if (++n === 2) { clearInterval(i); r(["setInterval", als.getStore()]); } }, 1); }),
    als.run("inner", () => new Promise((r) => setTimeout(() => r(["inner setTimeout", als.getStore()]), 1))),
    M["timers/promises"].setTimeout(1).then(() => ["timers/promises", als.getStore()]),
    new Promise((r) => M.timers.setTimeout(() => r(["timers.setTimeout", als.getStore()]), 1)),
    new Promise((r) => setTimeout(async () => { await null; r(["async timer callback", als.getStore()]); }, 1)),
  ]));
  return [als.getStore(), got].length === 2 && got.then((v) => [v, als.getStore()]);`);
diff('AsyncLocalStorage enterWith, exit, disable across awaits', `
  const als = new M.async_hooks.AsyncLocalStorage();
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  return (async () => {
    const out = [als.getStore()];
    await als.run("r", async () => {
      await als.exit(async () => { out.push(als.getStore()); await sleep(1); out.push(als.getStore()); });
      out.push(als.getStore());
      out.push(als.exit(() => als.getStore()), als.getStore());
    });
    out.push(als.getStore());
    await (async () => {
      als.enterWith("entered");
      out.push(als.getStore());
      await sleep(1);
      out.push(als.getStore());
      als.run("nested", () => out.push(als.getStore()));
      out.push(als.getStore());
    })();
    out.push(als.getStore());
    als.run("d", () => { als.disable(); out.push(als.getStore()); });
    out.push(als.getStore());
    await sleep(1);
    out.push(als.getStore());
    als.run("again", () => out.push(als.getStore()));
    out.push(als.getStore());
    return out;
  })();`);
diff('AsyncLocalStorage snapshot and bind across awaits', `
  const { AsyncLocalStorage, AsyncResource } = M.async_hooks;
  const als = new AsyncLocalStorage();
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const snap = als.run("snap", () => AsyncLocalStorage.snapshot());
  const bound = als.run("bound", () => AsyncLocalStorage.bind(() => als.getStore()));
  const res = als.run("res", () => new AsyncResource("X"));
  return als.run("other", async () => {
    await sleep(1);
    const a = [snap(() => als.getStore()), bound(), res.runInAsyncScope(() => als.getStore()), als.getStore()];
    const b = await snap(async () => { await sleep(1); return als.getStore(); });
    const c = await res.runInAsyncScope(() => sleep(1).then(() => als.getStore()));
    return [a, b, c, als.getStore()];
  }).then((v) => [v, als.getStore()]);`);
diff('AsyncLocalStorage two storages and errors', `
  const { AsyncLocalStorage } = M.async_hooks;
  const a = new AsyncLocalStorage();
  const b = new AsyncLocalStorage();
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const both = () => [a.getStore(), b.getStore()];
  return a.run("a1", async () => {
    const out = [both()];
    try { b.run("b1", () => { throw new Error("sync"); }); } catch (e) { out.push([e.message, ...both()]); }
    const r = await b.run("b2", async () => { await sleep(1); const x = both(); await a.run("a2", () => sleep(1)); return [x, both()]; });
    out.push(r, both());
    out.push(await b.run("b3", async () => { await sleep(1); throw new Error("async"); }).catch((e) => [e.message, ...both()]));
    out.push(await b.run("b4", () => a.exit(async () => { await sleep(1); return both(); })));
    return out;
  }).then((v) => [v, a.getStore(), b.getStore()]);`);
