// Cases for the built-in modules every Function can now load (issue 18):
// the export shape of every Node 22 built-in against builtin-shapes.json,
// and differential cases for the modules that work (diagnostics_channel,
// stream/consumers, readline, module, constants, dns through a fake DNS
// server, v8's serializer, worker_threads, vm, domain, console, http2's
// settings, trace_events) and for what throws.
import { createRequire } from 'node:module';
import { startFakeDnsServer } from '../fake-dns-server.cjs';
import { setDnsServers } from '../host-shim.cjs';


const require = createRequire(import.meta.url);
const shapes = require('../builtin-shapes.json');
// Where Shoal's modules still differ from Node 22, and why.
const KNOWN_GAPS = require('../builtin-gaps.json').modules;

// The harness's name for a built-in (harness.mjs moduleNames).
const ALIASES = {
  'assert/strict': 'assert-strict', 'fs/promises': 'fs-promises', 'stream/promises': 'stream-promises',
  'timers/promises': 'timers-promises', 'util/types': 'util-types',
};
export const harnessKey = (name) => ALIASES[name] || name;


// Computes, in the realm that runs it, how module `M[key]` differs from
// Node 22's shape `node` (see gen-builtin-shapes.mjs), leaving out the
// differences in `known`.
const SHAPE_DIFF = `
  const typeOf = (read) => { try { const v = read(); return v === null ? 'null' : typeof v; } catch { return 'throws'; } };
  const FUNCTION_OWN = ['length', 'name', 'prototype', 'arguments', 'caller'];
  const m = M[key];
  const own = Object.getOwnPropertyNames(m).filter((k) => typeof m !== 'function' || !FUNCTION_OWN.includes(k));
  const diff = {};
  if (typeof m !== node.type) diff.type = typeof m;
  const missing = Object.keys(node.keys).filter((k) => !own.includes(k));
  const extra = own.filter((k) => !(k in node.keys));
  const wrongType = Object.keys(node.keys).filter((k) => own.includes(k) && typeOf(() => m[k]) !== node.keys[k]).map((k) => k + ': ' + typeOf(() => m[k]));
  const unknown = (list, knownList) => list.filter((x) => !(knownList || []).includes(x)).sort();
  if (unknown(missing, known.missing).length) diff.missing = unknown(missing, known.missing);
  if (unknown(extra, known.extra).length) diff.extra = unknown(extra, known.extra);
  if (unknown(wrongType, known.wrongType).length) diff.wrongType = unknown(wrongType, known.wrongType);
  // Classes: every method (and accessor) Node's prototype has.
  const protoMissing = {};
  const classes = Object.assign({}, node.classes, node.prototype ? { '(module)': node.prototype } : {});
  for (const [name, methods] of Object.entries(classes)) {
    const C = name === '(module)' ? m : m[name];
    if (typeof C !== 'function' || !C.prototype) continue;
    const lacking = unknown(methods.filter((p) => !(p in C.prototype)), (known.protoMissing || {})[name]);
    if (lacking.length) protoMissing[name] = lacking;
  }
  if (Object.keys(protoMissing).length) diff.protoMissing = protoMissing;
  // Namespaces (dns.promises, path.posix...): keys and their types.
  const nsDiff = {};
  for (const [name, keys] of Object.entries(node.namespaces || {})) {
    const ns = m[name];
    // A namespace the module lacks is already among the missing keys.
    if (ns === undefined && !own.includes(name)) continue;
    if (ns === null || typeof ns !== 'object') { nsDiff[name] = 'not an object'; continue; }
    const nsOwn = Object.getOwnPropertyNames(ns);
    const d = [];
    for (const k of Object.keys(keys)) if (!nsOwn.includes(k)) d.push('-' + k); else if (typeOf(() => ns[k]) !== keys[k]) d.push(k + ': ' + typeOf(() => ns[k]));
    for (const k of nsOwn) if (!(k in keys)) d.push('+' + k);
    const left = unknown(d, (known.namespaces || {})[name]);
    if (left.length) nsDiff[name] = left;
  }
  if (Object.keys(nsDiff).length) diff.namespaces = nsDiff;
  return diff;
`;

export async function addCases({ diff, check, nodeModules }) {
  // ------------------------------------------------------------ shapes
  for (const [name, node] of Object.entries(shapes.modules)) {
    const key = harnessKey(name);
    const known = KNOWN_GAPS[name] || {};
    check(`shape of ${name}`, `const key = ${JSON.stringify(key)}; const node = ${JSON.stringify(node)}; const known = ${JSON.stringify(known)};\n${SHAPE_DIFF}`, {});
  }

  // Node's modules for the Node half of the cases below.
  for (const name of [
    'diagnostics_channel', 'stream/consumers', 'stream/web', 'readline', 'readline/promises', 'module', 'constants', 'dns',
    'dns/promises', 'v8', 'vm', 'worker_threads', 'domain', 'console', 'http2', 'trace_events', 'cluster', 'child_process', 'tty',
    'repl', 'inspector', 'net',
  ]) nodeModules[name] = require(`node:${name}`);

  addDiagnosticsChannelCases(diff);
  addStreamConsumersCases(diff);
  addReadlineCases(diff, check);
  addModuleCases(diff, check);
  addConstantsCases(diff, check);
  await addDnsCases(diff, check, nodeModules);
  addV8Cases(diff, check);
  addMiscCases(diff, check);
}

// ---------------------------------------------------------------- diagnostics_channel

function addDiagnosticsChannelCases(diff) {
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
}

// ---------------------------------------------------------------- stream/consumers

function addStreamConsumersCases(diff) {
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
}

// ---------------------------------------------------------------- readline

function addReadlineCases(diff, check) {
  const rl = 'const readline = M.readline; const { Readable, PassThrough } = M.stream;';
  const lines = JSON.stringify(['first line\nsec', 'ond\r\nthird\rfourth\r', '\nfifth\n\nlast without ending']);
  diff('readline line events', `${rl}
    const input = Readable.from(${lines});
    const r = readline.createInterface({ input, crlfDelay: Infinity });
    const log = [];
    r.on('line', (line) => log.push(['line', line]));
    r.on('pause', () => log.push('pause'));
    return new Promise((resolve) => r.on('close', () => { log.push(['close', r.closed, r.line, r.terminal]); resolve(log); }));`);
  diff('readline async iteration', `${rl}
    const r = readline.createInterface({ input: Readable.from(${lines}), crlfDelay: Infinity });
    const got = [];
    for await (const line of r) got.push(line);
    const again = readline.createInterface({ input: Readable.from(['a\\nb\\nc\\n']) });
    const firstOnly = [];
    for await (const line of again) { firstOnly.push(line); break; }
    return [got, firstOnly, again.closed];`.replace(/^/, 'return (async () => {').concat('})();'));
  diff('readline question and prompt', `${rl}
    const input = new PassThrough();
    const output = new PassThrough();
    let written = '';
    output.on('data', (d) => { written += d; });
    const r = readline.createInterface({ input, output, prompt: '$ ' });
    const log = [r.getPrompt(), r.terminal];
    r.on('line', (line) => log.push(['line', line]));
    r.prompt();
    r.setPrompt('> ');
    log.push(r.getPrompt());
    return new Promise((resolve) => {
      r.question('name? ', (answer) => {
        log.push(['answer', answer, r.getPrompt()]);
        input.write('after the question\\n');
        setTimeout(() => { r.close(); log.push(written); resolve(log); }, 5);
      });
      input.write('Ada\\n');
    });`);
  diff('readline/promises question', `
    const rp = M['readline/promises']; const { PassThrough } = M.stream;
    const input = new PassThrough();
    const output = new PassThrough();
    let written = '';
    output.on('data', (d) => { written += d; });
    const r = rp.createInterface({ input, output });
    const pending = r.question('color? ');
    input.write('blue\\nred\\n');
    const answer = await pending;
    const ac = new G.AbortController();
    const aborted = r.question('never? ', { signal: ac.signal }).catch((e) => [e.name, e.code]);
    ac.abort();
    const result = [answer, await aborted, written, r instanceof M.readline.Interface];
    r.close();
    return result;`.replace(/^/, 'return (async () => {').concat('})();'));
  diff('readline write and crlfDelay', `${rl}
    const input = new PassThrough();
    const r = readline.createInterface({ input });
    const log = [];
    r.on('line', (l) => log.push(l));
    r.write('typed\\r');
    r.write('\\nnext\\n');
    input.write('from input\\r\\n');
    input.end('end');
    return new Promise((resolve) => r.on('close', () => resolve(log)));`);
  diff('readline cursor functions', `${rl}
    const out = [];
    const stream = new M.stream.Writable({ write(data, encoding, cb) { out.push(JSON.stringify(String(data))); cb(); } });
    const results = [readline.cursorTo(stream, 3), readline.cursorTo(stream, 3, 4), readline.moveCursor(stream, -2, 3), readline.moveCursor(stream, 1, -1),
      readline.clearLine(stream, -1), readline.clearLine(stream, 1), readline.clearLine(stream, 0), readline.clearScreenDown(stream),
      readline.cursorTo(null, 1), readline.moveCursor(stream, 0, 0)];
    const errors = [];
    for (const f of [() => readline.cursorTo(stream, NaN), () => readline.cursorTo(stream, undefined, 2), () => readline.clearLine(stream, 0, 'x')]) {
      try { f(); } catch (e) { errors.push([e.code, e.message]); }
    }
    const { Readline } = M['readline/promises'];
    const rl2 = new Readline(stream);
    rl2.cursorTo(1, 2).moveCursor(3, -1).clearLine(1).clearScreenDown();
    return rl2.commit().then(() => [results, out, errors]);`);
  check('readline refuses a terminal', `
    try { M.readline.createInterface({ input: new M.stream.PassThrough(), terminal: true }); return 'made'; }
    catch (e) { return [e.code, e.message]; }`,
  ['ERR_METHOD_NOT_IMPLEMENTED', 'readline.createInterface({ terminal: true }) is not available in Shoal: a Function has no terminal']);
}

// ---------------------------------------------------------------- module

function addModuleCases(diff, check) {
  // Node 22's list, not the Node running the tests.
  check('module.builtinModules', 'return M.module.builtinModules;', shapes.builtinModules);
  const names = [...shapes.builtinModules, ...shapes.builtinModules.map((n) => `node:${n}`), ...shapes.schemeOnly,
    ...shapes.schemeOnly.map((n) => n.slice(5)), 'lodash', 'fs/nope', 'node:nope', '', 'node:', 'FS'];
  check('module.isBuiltin', `return ${JSON.stringify(names)}.map((n) => [n, M.module.isBuiltin(n)]);`,
    names.map((n) => [n, shapes.builtinModules.includes(n) || (n.startsWith('node:') && (shapes.builtinModules.includes(n.slice(5)) || shapes.schemeOnly.includes(n)))]));
  diff('module.createRequire resolves built-ins', `
    const require = M.module.createRequire('/usr/src/app/function/handler.js');
    const out = [typeof require, require('node:events') === M.events, require('events') === M.events, require('path').join('a', 'b'),
      require('node:util').format('%s!', 'x'), require.resolve('fs'), require.resolve('node:fs'), require.resolve.paths('fs'), require.resolve.paths('x').slice(0, 5)];
    const viaUrl = M.module.createRequire('file:///usr/src/app/function/handler.mjs');
    out.push(viaUrl('node:os') === M.os);
    for (const f of [() => require('./missing'), () => require('some-package'), () => M.module.createRequire('relative.js'), () => M.module.createRequire(5)]) {
      try { f(); out.push('loaded'); } catch (e) { out.push([e.code, e.code === 'MODULE_NOT_FOUND' ? e.message.split('\\n')[0].split(':')[0] : e.message]); }
    }
    return out;`);
  diff('module helpers', `
    const m = M.module;
    const mod = new m.Module('/srv/app/lib.js');
    const r = mod._compile('module.exports = { sum: 1 + 2, dir: __dirname, file: __filename, self: typeof require };', '/srv/app/lib.js');
    return [m.Module === m, m.wrap('x'), m.wrapper, m._nodeModulePaths('/usr/src/app/function'), m._nodeModulePaths('/a/node_modules/b'),
      m._nodeModulePaths('/'), Object.keys(new m('/a/b.js')), mod.exports, r, mod.loaded, mod.filename, mod.id, m.findSourceMap('/x.js'),
      m.syncBuiltinESMExports(), m._resolveFilename('fs'), typeof m._cache];`);
}

// ---------------------------------------------------------------- constants

function addConstantsCases(diff, check) {
  // Node 22's values on Linux x64, every key.
  const sorted = (entries) => entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  check('constants values', 'return Object.entries(M.constants).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));',
    sorted(Object.entries(shapes.modules.constants.values)));
  diff('constants is frozen', 'return [Object.isFrozen(M.constants), Object.getOwnPropertyDescriptor(M.constants, "O_RDONLY")];');
}

// ---------------------------------------------------------------- dns

async function addDnsCases(diff, check, nodeModules) {
  // Node's resolver and the host shim's both ask the fake server; lookups
  // use the machine's getaddrinfo on both sides.
  const server = await startFakeDnsServer();
  setDnsServers([server.address]);
  nodeModules.dns.setServers([server.address]);
  const SERVER = JSON.stringify(server.address);
  const settle = `const settle = (p) => p.then((v) => ({ ok: v }), (e) => ({ error: [e.name, e.code, e.errno, e.syscall, e.hostname, e.message, Object.keys(e)] }));`;
  const cb = `const cb = (fn, ...args) => new Promise((resolve) => fn(...args, (err, ...values) => resolve(err ? { error: [err.name, err.code, err.errno, err.syscall, err.hostname, err.message, Object.keys(err)] } : { ok: values })));`;
  const queries = [
    ['resolve4', 'example.shoal.test'], ['resolve4', 'example.shoal.test', { ttl: true }], ['resolve6', 'example.shoal.test'],
    ['resolve6', 'example.shoal.test', { ttl: true }], ['resolveMx', 'example.shoal.test'], ['resolveTxt', 'example.shoal.test'],
    ['resolveNs', 'example.shoal.test'], ['resolveSoa', 'example.shoal.test'], ['resolveCaa', 'example.shoal.test'],
    ['resolveNaptr', 'example.shoal.test'], ['resolveSrv', '_sip._tcp.example.shoal.test'], ['resolveCname', 'www.example.shoal.test'],
    ['resolve4', 'www.example.shoal.test'], ['resolvePtr', '1.2.0.192.in-addr.arpa'], ['resolveAny', 'example.shoal.test'],
    ['resolve4', 'bücher.shoal.test'], ['reverse', '192.0.2.1'], ['reverse', '2001:db8::1'], ['resolveMx', 'v6only.shoal.test'],
    ['resolve4', 'nope.shoal.test'], ['resolve4', 'empty.shoal.test'], ['resolve4', 'servfail.shoal.test'], ['resolveTxt', 'refused.shoal.test'],
    ['resolve4', 'formerr.shoal.test'], ['resolveCname', 'notimp.shoal.test'], ['reverse', '192.0.2.200'],
  ];
  for (const [method, name, options] of queries) {
    const args = [JSON.stringify(name), ...(options ? [JSON.stringify(options)] : [])].join(', ');
    diff(`dns.promises.${method}(${args})`, `${settle} return settle(M['dns/promises'].${method}(${args}));`);
    diff(`dns.${method}(${args}) callback`, `${cb} return cb(M.dns.${method}, ${args});`);
  }
  for (const rrtype of ['A', 'AAAA', 'MX', 'TXT', 'SRV', 'CNAME', 'NS', 'PTR', 'SOA', 'CAA', 'NAPTR', 'ANY']) {
    const name = { SRV: '_sip._tcp.example.shoal.test', CNAME: 'www.example.shoal.test', PTR: '1.2.0.192.in-addr.arpa' }[rrtype] || 'example.shoal.test';
    diff(`dns.resolve(${name}, ${rrtype})`, `${settle} ${cb} return Promise.all([settle(M.dns.promises.resolve(${JSON.stringify(name)}, ${JSON.stringify(rrtype)})),
      cb(M.dns.resolve, ${JSON.stringify(name)}, ${JSON.stringify(rrtype)})]);`);
  }
  diff('dns.resolve with A by default', `${settle} ${cb} return Promise.all([settle(M.dns.promises.resolve('example.shoal.test')), cb(M.dns.resolve, 'example.shoal.test')]);`);
  // The shim resolves TLSA with the Node running the tests, which has it from 22.15 on.
  if (typeof nodeModules.dns.Resolver.prototype.resolveTlsa === 'function') check('dns.resolveTlsa', `${settle} return settle(M['dns/promises'].resolveTlsa('_443._tcp.example.shoal.test')).then((r) =>
      r.ok.map((t) => [t.certUsage, t.selector, t.match, t.data instanceof ArrayBuffer, Array.from(new Uint8Array(t.data), (b) => b.toString(16).padStart(2, '0')).join('')]));`,
  [[3, 1, 1, true, 'c0ffee00deadbeef']]);
  diff('dns.Resolver with a timeout', `${settle}
    const r = new M.dns.promises.Resolver({ timeout: 200, tries: 1 });
    r.setServers([${SERVER}]);
    return settle(r.resolve4('timeout.shoal.test'));`);
  diff('dns.Resolver cancel', `
    const r = new M.dns.Resolver({ timeout: 5000, tries: 1 });
    r.setServers([${SERVER}]);
    return new Promise((resolve) => {
      const got = [];
      const done = (err) => { got.push(err && [err.code, err.syscall, err.hostname, err.message]); if (got.length === 2) resolve(got); };
      r.resolve4('timeout.shoal.test', done);
      r.resolveMx('timeout.shoal.test', done);
      r.cancel();
    });`);
  diff('dns.Resolver servers', `
    const r = new M.dns.Resolver();
    const out = [];
    r.setServers(['192.0.2.53', '192.0.2.54:5353', '[2001:db8::53]:53', '[2001:db8::54]:5300', '2001:db8::55']);
    out.push(r.getServers());
    for (const bad of [['nope'], 'x', [1], ['192.0.2.1:99999x']]) {
      try { r.setServers(bad); out.push('accepted'); } catch (e) { out.push([e.name, e.code, e.message]); }
    }
    out.push(r.getServers());
    for (const opts of [{ timeout: 'x' }, { tries: 0 }, { timeout: 1.5 }, { timeout: -2 }]) {
      try { new M.dns.Resolver(opts); out.push('made'); } catch (e) { out.push([e.name, e.code, e.message]); }
    }
    try { r.setLocalAddress(5); } catch (e) { out.push([e.code, e.message]); }
    return out;`);
  diff('dns argument errors', `
    const out = [];
    for (const f of [() => M.dns.resolve4(5, () => {}), () => M.dns.resolve4('x'), () => M.dns.resolve('x', 'BOGUS', () => {}),
      () => M.dns.resolve('x', 5, () => {}), () => M.dns.promises.resolve('x', 'BOGUS'), () => M.dns.promises.resolve('x', 5),
      () => M.dns.promises.resolve4(5), () => M.dns.reverse('not an ip', () => {}), () => M.dns.lookup(1, () => {}),
      () => M.dns.lookup('x', { family: 5 }, () => {}), () => M.dns.lookup('x', { hints: 99999 }, () => {}), () => M.dns.lookup('x'),
      () => M.dns.lookup('x', { all: 'yes' }, () => {}), () => M.dns.lookup('x', { order: 'random' }, () => {}), () => M.dns.lookup('x', 'y', () => {}),
      () => M.dns.promises.lookup('x', { family: 'IPv4' }), () => M.dns.setDefaultResultOrder('random')]) {
      try { const r = f(); out.push(r && typeof r.then === 'function' ? 'promise' : 'returned'); } catch (e) { out.push([e.name, e.code, e.message, e.errno, e.syscall]); }
    }
    return out;`);
  // Node 22 checks for NUL bytes (Node 20, which runs these tests, does not).
  check('dns.lookup of a name with a NUL byte', `try { M.dns.lookup('a\\u0000b', () => {}); return 'looked up'; } catch (e) { return [e.name, e.code, e.message]; }`,
    ['TypeError', 'ERR_INVALID_ARG_VALUE', "The argument 'hostname' must be a string without null bytes. Received 'a\\x00b'"]);
  diff('dns.promises.reverse of a non-address rejects', `${settle} return settle(M.dns.promises.reverse('not an ip'));`);
  const lookups = [
    ['localhost'], ['localhost', { all: true }], ['localhost', 4], ['localhost', { family: 6 }], ['localhost', { family: 'IPv4', all: true }],
    ['localhost', { order: 'ipv6first', all: true }], ['localhost', { verbatim: false }], ['nope.invalid'], ['nope.invalid', { all: true }],
    ['192.0.2.7'], ['2001:db8::7', { all: true }], [''], ['', { all: true }], ['', 6],
  ];
  for (const [host, options] of lookups) {
    const args = [JSON.stringify(host), ...(options !== undefined ? [JSON.stringify(options)] : [])].join(', ');
    diff(`dns.lookup(${args})`, `${cb} return cb(M.dns.lookup, ${args});`);
    if (typeof options !== 'object' || options.family !== 'IPv4') diff(`dns.promises.lookup(${args})`, `${settle} return settle(M.dns.promises.lookup(${args}));`);
  }
  diff('dns.lookup promisified and result order', `${settle}
    const lookup = M.util.promisify(M.dns.lookup);
    const before = M.dns.getDefaultResultOrder();
    M.dns.setDefaultResultOrder('ipv4first');
    const during = [M.dns.getDefaultResultOrder(), M.dns.promises.getDefaultResultOrder()];
    M.dns.setDefaultResultOrder(before);
    return Promise.all([settle(lookup('localhost')), settle(lookup('nope.invalid')), settle(lookup('localhost', { all: true }))]).then((r) => [before, during, r]);`);
  diff('dns module objects', `
    const d = M.dns;
    return [d.promises === M['dns/promises'], d.NOTFOUND, d.TIMEOUT, d.CANCELLED, d.ADDRCONFIG, d.V4MAPPED, d.ALL, d.promises.NODATA,
      typeof d.Resolver, new d.Resolver() instanceof d.Resolver, new d.promises.Resolver() instanceof d.Resolver,
      Object.getOwnPropertyNames(d.Resolver.prototype).filter((k) => k !== 'resolveTlsa').sort(), Object.getOwnPropertyNames(Object.getPrototypeOf(d.Resolver.prototype)).sort(),
      d.resolve4.name, d.reverse.name, d.getServers().length >= 0];`);
  diff('dns.setServers replaces the default resolver', `
    M.dns.setServers([${SERVER}]);
    const before = M.dns.resolve4;
    const servers = M.dns.getServers();
    M.dns.setServers(['192.0.2.99']);
    const after = [M.dns.getServers(), M.dns.promises.getServers(), M.dns.resolve4 === before];
    M.dns.setServers(servers);
    return [after, M.dns.getServers()];`);
}

// ---------------------------------------------------------------- v8

function addV8Cases(diff, check) {
  // Values whose V8 encoding Shoal must reproduce byte for byte.
  const values = [
    'undefined', 'null', 'true', 'false', '0', '-0', '1', '-1', '63', '64', '-65', '2147483647', '-2147483648', '2147483648', '1.5', 'NaN',
    'Infinity', '-Infinity', '0n', '5n', '-5n', '2n ** 64n', '-(2n ** 130n) + 7n', '""', '"abc"', '"é"', '"a€"', '"😀"', '"x".repeat(200)',
    '[]', '[1, 2, 3]', '[1, 2.5]', '[1, "x", 2.5, null]', '[1, , 3]', 'new Array(3)', 'Object.assign([1, 2], { p: 1 })', '({})',
    '({ a: 1, b: "two", c: [3], d: { e: null } })', '({ 1: "a", b: 2, 0: 3, 4294967295: 4, 4294967294: 5 })',
    '(() => { const o = { name: "o" }; return [o, o, { o }]; })()', '(() => { const o = { a: 1 }; o.self = o; return o; })()',
    'new Date(0)', 'new Date(1700000000123)', '/ab+c/gimsuy', '/x/dv', 'new Map([[1, "a"], ["b", { c: 2 }]])', 'new Set([1, "2", [3]])',
    'Object(true)', 'Object(false)', 'Object(1.5)', 'Object(7n)', 'Object("str")', 'new ArrayBuffer(4)',
    'new Uint8Array([1, 2, 3])', 'new Uint16Array([1, 65535])', 'new Float64Array([0.5])', 'new Int32Array(new ArrayBuffer(16), 4, 2)',
    'new BigInt64Array([-1n])', 'new DataView(new ArrayBuffer(3))', 'G.Buffer.from("buffer")',
    '[new Uint8Array([9]), "é", "€", 1.25, { k: ["€"] }]',
    '(() => { const e = new Error("plain"); e.stack = "s"; e.name = "Custom"; return e; })()',
  ];
  for (const v of values) {
    diff(`v8.serialize(${v})`, `return M.v8.serialize(${v}).toString('hex');`);
  }
  // Node 22's V8 writes an error's stack before its cause (Node 20's, which
  // runs these tests, the other way round): the bytes Node 22 gives.
  check('v8.serialize of an error with a cause', 'const e = new RangeError("range", { cause: 1 }); e.stack = "stack"; return M.v8.serialize(e).toString("hex");',
    'ff0f72526d220572616e6765732205737461636b6349022e');
  diff('v8.deserialize round trips', `
    const out = [];
    for (const v of [{ a: [1, 2.5, "é€"], m: new Map([[1, new Set([2])]]), d: new Date(5), r: /x/g, big: -3n, buf: G.Buffer.from('hi') },
      [1, , 3], (() => { const o = { n: 1 }; o.me = o; return o; })(), new Uint16Array([1, 2]), Object(2), new ArrayBuffer(2)]) {
      const back = M.v8.deserialize(M.v8.serialize(v));
      out.push(M.util.inspect(back, { depth: 4 }));
    }
    const e = M.v8.deserialize(M.v8.serialize((() => { const x = new TypeError('typed', { cause: 'why' }); x.stack = 'the stack'; return x; })()));
    out.push([e instanceof TypeError, e.message, e.stack, e.cause]);
    return out;`);
  diff('v8 Serializer and Deserializer', `
    const s = new M.v8.Serializer();
    s.writeHeader();
    s.writeValue({ plain: new Uint8Array([1, 2]) });
    s.writeUint32(300);
    s.writeUint64(1, 2);
    s.writeDouble(0.25);
    s.writeRawBytes(G.Buffer.from('raw'));
    const buf = s.releaseBuffer();
    const d = new M.v8.Deserializer(buf);
    return [buf.toString('hex'), d.readHeader(), d.getWireFormatVersion(), M.util.inspect(d.readValue()), d.readUint32(), d.readUint64(), d.readDouble(),
      d.readRawBytes(3).toString()];`);
  diff('v8 serialize errors', `
    const out = [];
    for (const v of [() => 1, Symbol('s'), new WeakMap(), Promise.resolve(), { f() {} }]) {
      try { M.v8.serialize(v); out.push('serialized'); } catch (e) { out.push([e.name, e.message]); }
    }
    try { M.v8.deserialize(G.Buffer.from('ff0f4e00', 'hex')); } catch (e) { out.push([e.name, e.message]); }
    return out;`);
  diff('v8 misc', `
    const v8 = M.v8;
    const h = v8.getHeapStatistics();
    return [Object.keys(h), Object.values(h).every((n) => typeof n === 'number'), h.used_heap_size <= h.total_heap_size, h.total_heap_size <= h.heap_size_limit,
      typeof v8.cachedDataVersionTag(), v8.setFlagsFromString('--no-opt'),
      v8.startupSnapshot.isBuildingSnapshot(), Object.keys(v8.getHeapCodeStatistics()), Array.isArray(v8.getHeapSpaceStatistics()), v8.takeCoverage(), v8.stopCoverage(),
      (() => { try { v8.startupSnapshot.addSerializeCallback(() => {}); } catch (e) { return [e.code, e.message]; } })()];`);
  // Node 22 (not Node 20, which runs these tests).
  check('v8.isStringOneByteRepresentation', 'return ["", "abc", "é", "€", "😀"].map((s) => M.v8.isStringOneByteRepresentation(s));', [true, true, true, false, false]);
}

// ---------------------------------------------------------------- the rest

function addMiscCases(diff, check) {
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

  diff('vm in this context', `
    const vm = M.vm;
    const out = [vm.runInThisContext('1 + 2'), vm.runInThisContext('var shoalVmGlobal = 42; typeof shoalVmGlobal'), globalThis.shoalVmGlobal];
    delete globalThis.shoalVmGlobal;
    const script = new vm.Script('[typeof globalThis, 6 * 7]', { filename: 'x.js' });
    out.push(script.runInThisContext(), script.runInThisContext(), new vm.Script('1 //# sourceMappingURL=x.map').sourceMapURL);
    out.push(vm.compileFunction('return a + b', ['a', 'b'])(2, 3), vm.isContext({}), Object.keys(vm.constants));
    for (const f of [() => new vm.Script('('), () => vm.isContext(1), () => vm.compileFunction(5)]) {
      try { f(); out.push('ok'); } catch (e) { out.push([e.name, e.code]); }
    }
    return out;`);
  // Node 22's Script carries sourceURL too.
  check('vm.Script keys', 'return Object.keys(new M.vm.Script("1"));', ['sourceURL', 'sourceMapURL']);
  // A context is the object the code sees as its scope (module.js's
  // approximation: the Function's built-ins stay visible; `var` stays the
  // script's own, so none is tested here).
  diff('vm contexts as scopes', `
    const vm = M.vm;
    const ctx = vm.createContext({ a: 2, b: 3, out: [] });
    const out = [vm.isContext(ctx), vm.runInContext('a * b', ctx), vm.runInNewContext('x + y', { x: 'p', y: 'q' })];
    vm.runInContext('out.push(a); a = 10; module = { exports: { n: a + b } }', Object.assign(ctx, { module: null }));
    out.push(ctx.a, ctx.module.exports.n, ctx.out);
    const sandbox = { result: null };
    new vm.Script('result = typeof JSON.parse + ":" + (this === __self)').runInNewContext(Object.assign(sandbox, { __self: sandbox }));
    out.push(sandbox.result, vm.runInNewContext('(function () { return typeof this; })()'));
    for (const f of [() => vm.runInContext('1', {}), () => vm.createContext(1), () => new vm.Script('1').runInContext(null)]) {
      try { f(); out.push('ran'); } catch (e) { out.push([e.name, e.code]); }
    }
    return out;`);

  diff('domain bind, intercept and emitters', `
    const domain = M.domain;
    const d = domain.create();
    const log = [];
    d.on('error', (e) => log.push(['error', e.message, e.domain === d, e.domainThrown, typeof e.domainBound, e.domainEmitter ? 'emitter' : null]));
    const intercepted = d.intercept((a, b) => { log.push(['intercepted', a, b, domain.active === d, process.domain === d]); return 'r'; });
    log.push(intercepted(null, 1, 2), intercepted(new Error('first arg error')));
    const bound = d.bind(function (x) { log.push(['bound', x, this && this.t, domain.active === d]); return x * 2; });
    log.push(bound.call({ t: 'this' }, 4), bound.domain === d);
    const ee = new M.events();
    d.add(ee);
    log.push(ee.domain === d, d.members.length);
    ee.emit('error', new Error('from emitter'));
    d.remove(ee);
    log.push(ee.domain, d.members.length);
    log.push(d.run((a) => ['ran', a, domain.active === d, domain._stack.length], 'arg'), domain.active, domain._stack.length);
    return log;`);
  check('domain.run gives a thrown error to the domain', `
    const d = M.domain.create();
    const log = [];
    d.on('error', (e) => log.push([e.message, e.domainThrown, e.domain === d]));
    log.push(d.run(() => { throw new Error('thrown in run'); }));
    return log;`, [['thrown in run', true, true], null]);

  diff('console.Console', `
    const { PassThrough } = M.stream;
    const out = new PassThrough();
    const err = new PassThrough();
    let o = '';
    let e = '';
    out.on('data', (d) => { o += d; });
    err.on('data', (d) => { e += d; });
    const c = new M.console.Console({ stdout: out, stderr: err, colorMode: false });
    c.log('%s is %d', 'x', 42, { a: [1, 2] });
    c.info('info');
    c.warn('warn');
    c.group('group');
    c.log('inside\\ntwo lines');
    c.groupEnd();
    c.count();
    c.count('k');
    c.count();
    c.countReset();
    c.count();
    c.assert(true, 'never');
    c.assert(false, 'failed %s', 'here');
    c.assert(false);
    c.dir({ deep: { deeper: { deepest: { gone: 1 } } } }, { depth: 0 });
    c.table([{ a: 1, b: 'x' }, { a: 2, c: true }]);
    c.table([1, 'two']);
    c.table(new Map([['k', 1]]));
    c.table({ r1: { c1: 1 }, r2: { c2: 2 } }, ['c1']);
    c.table('not tabular');
    const { log } = c;
    log('unbound');
    return new Promise((resolve) => setTimeout(() => resolve([o, e, M.console.Console === c.constructor]), 5));`);

  diff('http2 settings', `
    const h = M.http2;
    const out = [h.getDefaultSettings(), h.getPackedSettings().toString('hex'),
      h.getPackedSettings({ headerTableSize: 1, enablePush: true, initialWindowSize: 3, maxFrameSize: 16385, maxConcurrentStreams: 5, maxHeaderListSize: 6, enableConnectProtocol: true }).toString('hex'),
      h.getPackedSettings({ enablePush: false }).toString('hex'),
      h.getUnpackedSettings(G.Buffer.from('000100000001000200000001000600000007000900000005', 'hex')), h.constants.HTTP2_HEADER_STATUS, h.constants.NGHTTP2_CANCEL,
      Object.keys(h.constants).length, typeof h.sensitiveHeaders];
    for (const f of [() => h.getPackedSettings({ maxFrameSize: 1 }), () => h.getPackedSettings({ enablePush: 1 }), () => h.getPackedSettings(5),
      () => h.getUnpackedSettings(G.Buffer.alloc(5)), () => h.getUnpackedSettings('x')]) {
      try { f(); out.push('ok'); } catch (e) { out.push([e.name, e.code, e.message]); }
    }
    return out;`);

  diff('trace_events', `
    const t = M.trace_events;
    const tracing = t.createTracing({ categories: ['node.perf', 'v8'] });
    const out = [t.getEnabledCategories(), tracing.categories, tracing.enabled, M.util.inspect(tracing), tracing.disable()];
    for (const f of [() => t.createTracing(), () => t.createTracing({}), () => t.createTracing({ categories: [] }), () => t.createTracing({ categories: [1] })]) {
      try { f(); out.push('made'); } catch (e) { out.push([e.name, e.code, e.message]); }
    }
    return out;`);

  diff('cluster in the primary', `
    const c = M.cluster;
    const log = [c.isPrimary, c.isMaster, c.isWorker, c.workers, c.settings, c.SCHED_NONE, c.SCHED_RR, c.schedulingPolicy, c.Worker.prototype instanceof M.events];
    return new Promise((resolve) => c.disconnect(() => resolve(log)));`);

  diff('tty', `return [M.tty.isatty(-1), M.tty.isatty('x'), M.tty.WriteStream.prototype.isTTY, M.tty.WriteStream.prototype instanceof M.net.Socket];`);
  // What Node says for a descriptor that is not a terminal; none is in a Function.
  check('tty without a terminal', `
    const out = [M.tty.isatty(0), M.tty.isatty(1), M.tty.isatty(2)];
    try { new M.tty.WriteStream(1); } catch (e) { out.push([e.name, e.code, e.message]); }
    return out;`, [false, false, false, ['SystemError', 'ERR_TTY_INIT_FAILED', 'TTY initialization failed: uv_tty_init returned EINVAL (invalid argument)']]);
  diff('repl without a terminal', `
    const r = M.repl;
    return [r.isValidSyntax('let a = 1; await a'), r.isValidSyntax('{ a: 1 }'), r.isValidSyntax('let let'), r.writer({ a: [1, { b: 2 }] }),
      r.writer.options.showProxy, new r.Recoverable(new SyntaxError('x')) instanceof SyntaxError, r.REPL_MODE_SLOPPY.toString(), r.REPL_MODE_STRICT.toString(),
      r.REPLServer.prototype instanceof M.readline.Interface];`);
  diff('inspector without an inspector', `
    const i = M.inspector;
    const s = new i.Session();
    const out = [i.url(), i.close(), s instanceof M.events];
    for (const f of [() => s.post('Runtime.enable'), () => i.waitForDebugger(), () => s.post(5)]) {
      try { f(); out.push('ok'); } catch (e) { out.push([e.name, e.code, e.message]); }
    }
    return out;`);

  // What a Function cannot do throws Node's ERR_METHOD_NOT_IMPLEMENTED (or
  // the code Node itself gives), naming the call.
  const refusals = [
    ['child_process', 'M.child_process.execSync("id")', 'ERR_METHOD_NOT_IMPLEMENTED', 'child_process.execSync() is not available in Shoal: a Function cannot start processes'],
    ['child_process', 'new M.child_process.ChildProcess().spawn({ file: "x" })', 'ERR_METHOD_NOT_IMPLEMENTED', 'child_process.ChildProcess#spawn() is not available in Shoal: a Function cannot start processes'],
    ['cluster', 'M.cluster.fork()', 'ERR_METHOD_NOT_IMPLEMENTED', 'cluster.fork() is not available in Shoal: a Function runs as one process; Shoal starts more sandboxes as requests need them'],
    ['dgram', 'M.dgram.createSocket("udp4")', 'ERR_METHOD_NOT_IMPLEMENTED', 'dgram.createSocket() is not available in Shoal: a Function cannot open UDP sockets'],
    ['http2', 'M.http2.connect("https://example.com")', 'ERR_METHOD_NOT_IMPLEMENTED', 'http2.connect() is not available in Shoal: outbound HTTP/2 goes through fetch, http and https, performed by the node'],
    ['http2', 'M.http2.createServer()', 'ERR_METHOD_NOT_IMPLEMENTED', "http2.createServer() is not available in Shoal: a Function does not listen: Shoal's node serves it"],
    ['inspector', 'M.inspector.open()', 'ERR_INSPECTOR_NOT_AVAILABLE', 'Inspector is not available'],
    ['repl', 'M.repl.start()', 'ERR_METHOD_NOT_IMPLEMENTED', 'repl.start() is not available in Shoal: a Function has no terminal to read expressions from'],
    ['trace_events', 'M.trace_events.createTracing({ categories: ["v8"] }).enable()', 'ERR_METHOD_NOT_IMPLEMENTED', "trace_events.Tracing#enable() is not available in Shoal: Shoal's engine records no trace events"],
    ['wasi', 'new M.wasi.WASI({ version: "preview1" })', 'ERR_METHOD_NOT_IMPLEMENTED', "new wasi.WASI() is not available in Shoal: Shoal's engine cannot instantiate WebAssembly modules"],
    ['sqlite', 'new M["node:sqlite"].DatabaseSync(":memory:")', 'ERR_METHOD_NOT_IMPLEMENTED', 'new sqlite.DatabaseSync() is not available in Shoal: Shoal has no SQLite; keep data in a database service the Function calls'],
    ['sqlite', 'new M["node:sqlite"].StatementSync()', 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor'],
    ['test', 'M["node:test"]("a test", () => {})', 'ERR_METHOD_NOT_IMPLEMENTED', 'test.test() is not available in Shoal: a Function is not a test run: run its tests with node --test before deploying'],
    ['sea', 'M["node:sea"].getAsset("a")', 'ERR_NOT_IN_SINGLE_EXECUTABLE_APPLICATION', 'Operation cannot be invoked when not in a single-executable application'],
    ['v8', 'M.v8.writeHeapSnapshot()', 'ERR_METHOD_NOT_IMPLEMENTED', "v8.writeHeapSnapshot() is not available in Shoal: Shoal's engine is QuickJS, not V8"],
    ['module', 'M.module.register("./hooks.mjs")', 'ERR_METHOD_NOT_IMPLEMENTED', "module.register() is not available in Shoal: a Function's modules are bundled when it is built; there is no module loader at run time"],
    ['readline', 'M.readline.emitKeypressEvents({})', 'ERR_METHOD_NOT_IMPLEMENTED', 'readline.emitKeypressEvents() is not available in Shoal: a Function has no terminal'],
    ['dns', 'M.dns.lookupService("127.0.0.1", 22, () => {})', 'ERR_METHOD_NOT_IMPLEMENTED', 'dns.lookupService() is not available in Shoal: the node does not look up services for Functions; use dns.reverse() for the host name'],
  ];
  for (const [module, call, code, message] of refusals) {
    check(`${module}: ${call} throws`, `try { ${call}; return 'no error'; } catch (e) { return [e.name, e.code, e.message]; }`,
      [code === 'ERR_ILLEGAL_CONSTRUCTOR' ? 'TypeError' : 'Error', code, message]);
  }
  check('sea outside an executable', 'return [M["node:sea"].isSea(), (() => { try { M["node:sea"].getAssetKeys(); } catch (e) { return e.code; } })()];',
    [false, 'ERR_NOT_IN_SINGLE_EXECUTABLE_APPLICATION']);
  // A process that cannot start fails as Node reports one: asynchronously.
  check('child_process starts nothing, asynchronously', `
    const cp = M.child_process;
    const child = cp.spawn('ls', ['-l']);
    const events = [child instanceof cp.ChildProcess, child.spawnfile, child.spawnargs];
    return new Promise((resolve) => {
      child.on('error', (e) => events.push(['error', e.code, e.message]));
      child.on('close', (code) => {
        events.push(['close', code]);
        cp.exec('git rev-parse HEAD', { cwd: '/' }, (err, stdout, stderr) => {
          events.push(['exec', err.code, stdout, stderr]);
          const r = cp.spawnSync('ls');
          events.push(['spawnSync', r.status, r.error.code]);
          resolve(events);
        });
      });
    });`, [true, 'ls', ['ls', '-l'],
    ['error', 'ERR_METHOD_NOT_IMPLEMENTED', 'child_process.spawn() is not available in Shoal: a Function cannot start processes'], ['close', -2],
    ['exec', 'ERR_METHOD_NOT_IMPLEMENTED', '', ''], ['spawnSync', null, 'ERR_METHOD_NOT_IMPLEMENTED']]);
  // Not kill(): Node's, on a child never spawned, signals the whole process group (pid undefined).
  diff('child_process.ChildProcess before spawn', `
    const c = new M.child_process.ChildProcess();
    return [c instanceof M.events, c.pid, c.exitCode, c.signalCode, c.killed, c.connected, c.spawnfile, c.ref(), c.unref()];`);
}
