// node:diagnostics_channel: channels, bindStore/runStores with
// AsyncLocalStorage, and tracing channels.
import { diff } from './harness/cases.mjs';

const dc = 'const dc = M.diagnostics_channel;';
diff('diagnostics_channel channels', `${dc}
  const a = dc.channel('shoal.test.a');
  const log = [a === dc.channel('shoal.test.a'), a.name, a.hasSubscribers, dc.hasSubscribers('shoal.test.a'), a instanceof dc.Channel];
  const first = (message, name) => log.push(['first', message, name]);
  const second = (message) => log.push(['second', message]);
  a.subscribe(first);
  dc.subscribe('shoal.test.a', second);
  log.push(a.hasSubscribers, dc.hasSubscribers('shoal.test.a'), dc.hasSubscribers('shoal.test.never'));
  a.publish({ n: 1 });
  log.push(a.unsubscribe(first), a.unsubscribe(first), dc.unsubscribe('shoal.test.a', second), a.hasSubscribers);
  a.publish({ n: 2 });
  const sym = Symbol('sym');
  const s = dc.channel(sym);
  s.subscribe((m, name) => log.push([m, typeof name]));
  s.publish('by symbol');
  log.push(a instanceof dc.Channel, ({}) instanceof dc.Channel, Object.keys(a).sort());
  return log;`);
diff('diagnostics_channel argument errors', `${dc}
  const out = [];
  for (const f of [() => dc.channel(1), () => dc.channel('x').subscribe('nope'), () => dc.subscribe('x', null), () => dc.tracingChannel(5),
    () => dc.tracingChannel({ start: {} }), () => dc.tracingChannel('t').traceCallback(() => {}, 0, {}, null, 'not a function')]) {
    try { f(); out.push('no error'); } catch (e) { out.push([e.name, e.code, e.message]); }
  }
  return out;`);
diff('diagnostics_channel bindStore and runStores', `${dc}
  const { AsyncLocalStorage } = M.async_hooks;
  const store = new AsyncLocalStorage();
  const other = new AsyncLocalStorage();
  const ch = dc.channel('shoal.test.stores');
  const log = [];
  log.push(ch.runStores({ id: 0 }, function (a, b) { return [this.self, a, b, store.getStore()]; }, { self: 'this' }, 1, 2));
  ch.bindStore(store);
  ch.bindStore(other, (data) => ({ transformed: data.id }));
  log.push(ch.hasSubscribers);
  ch.subscribe((m) => log.push(['published', m, store.getStore(), other.getStore()]));
  log.push(ch.runStores({ id: 7 }, () => [store.getStore(), other.getStore()]));
  log.push(store.getStore(), ch.unbindStore(store), ch.unbindStore(store), ch.unbindStore(other));
  log.push(ch.runStores({ id: 8 }, () => [store.getStore(), other.getStore()]));
  return log;`);
diff('diagnostics_channel traceSync', `${dc}
  const tc = dc.tracingChannel('shoal.test.sync');
  const log = [];
  log.push(tc.hasSubscribers, tc.traceSync((a) => a * 2, {}, null, 21));
  const handlers = {};
  for (const ev of ['start', 'end', 'asyncStart', 'asyncEnd', 'error']) handlers[ev] = (ctx) => log.push([ev, { ...ctx, error: ctx.error && ctx.error.message }]);
  tc.subscribe(handlers);
  log.push(tc.hasSubscribers, tc.start.name, tc.error.name);
  log.push(tc.traceSync(function (a, b) { return this.k + a + b; }, { call: 1 }, { k: 10 }, 1, 2));
  try { tc.traceSync(() => { throw new Error('sync boom'); }, { call: 2 }); } catch (e) { log.push(['caught', e.message]); }
  log.push(tc.unsubscribe(handlers), tc.unsubscribe(handlers), tc.hasSubscribers);
  return log;`);
diff('diagnostics_channel tracePromise', `${dc}
  const tc = dc.tracingChannel('shoal.test.promise');
  const log = [];
  const handlers = {};
  for (const ev of ['start', 'end', 'asyncStart', 'asyncEnd', 'error']) handlers[ev] = (ctx) => log.push([ev, ctx.result, ctx.error && ctx.error.message]);
  tc.subscribe(handlers);
  const got = await tc.tracePromise(async (x) => { log.push('running'); await null; return x + 1; }, {}, null, 41);
  log.push(['resolved', got]);
  try { await tc.tracePromise(async () => { throw new Error('async boom'); }); } catch (e) { log.push(['rejected', e.message]); }
  // A thenable is made a promise.
  log.push(['thenable', await tc.tracePromise(() => ({ then: (r) => r('from thenable') }))]);
  try { tc.tracePromise(() => { throw new Error('thrown before a promise'); }); } catch (e) { log.push(['sync', e.message]); }
  tc.unsubscribe(handlers);
  return log;`.replace(/^/, 'return (async () => {').concat('})();'));
diff('diagnostics_channel traceCallback', `${dc}
  const tc = dc.tracingChannel({ start: dc.channel('cb.start'), end: dc.channel('cb.end'), asyncStart: dc.channel('cb.asyncStart'),
    asyncEnd: dc.channel('cb.asyncEnd'), error: dc.channel('cb.error') });
  const log = [];
  tc.subscribe({ start: (c) => log.push(['start', c.label]), end: (c) => log.push(['end', c.label]),
    asyncStart: (c) => log.push(['asyncStart', c.label, c.result, c.error && c.error.message]), asyncEnd: (c) => log.push(['asyncEnd', c.label]),
    error: (c) => log.push(['error', c.label, c.error.message]) });
  const work = (input, cb) => setTimeout(() => (input < 0 ? cb(new Error('negative')) : cb(null, input * 10)), 1);
  return new Promise((resolve) => {
    tc.traceCallback(work, -1, { label: 'ok' }, null, 4, (err, value) => {
      log.push(['callback', err, value]);
      tc.traceCallback(work, 1, { label: 'bad' }, null, -1, (err) => {
        log.push(['callback', err.message]);
        resolve(log);
      });
    });
  });`);
diff('diagnostics_channel tracePromise keeps a bound store', `${dc}
  const { AsyncLocalStorage } = M.async_hooks;
  const store = new AsyncLocalStorage();
  const tc = dc.tracingChannel('shoal.test.store');
  tc.start.bindStore(store, (ctx) => ({ request: ctx.request }));
  const seen = [];
  return tc.tracePromise(async () => {
    seen.push(store.getStore());
    await new Promise((r) => setTimeout(r, 1));
    seen.push(store.getStore());
    return seen;
  }, { request: 'r-1' }).then((v) => { tc.start.unbindStore(store); return [v, store.getStore()]; });`);
