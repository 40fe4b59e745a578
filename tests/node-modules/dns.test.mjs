// node:dns and node:dns/promises, resolved through the host operations
// (harness/host-shim.cjs) against a fake DNS server on 127.0.0.1
// (harness/fake-dns-server.cjs), which the Node half of a case asks too.
import { after, check, diff, nodeModules, refusal } from './harness/cases.mjs';
import { startFakeDnsServer } from './harness/fake-dns-server.cjs';
import { setDnsServers } from './harness/host-shim.cjs';

// Node's resolver and the host shim's both ask the fake server; lookups
// use the machine's getaddrinfo on both sides.
const server = await startFakeDnsServer();
after(() => server.close());
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

refusal('dns', 'M.dns.lookupService("127.0.0.1", 22, () => {})', 'ERR_METHOD_NOT_IMPLEMENTED', 'dns.lookupService() is not available in Shoal: the node does not look up services for Functions; use dns.reverse() for the host name');
