// DNS the way service-discovery and mail code uses it: every record type
// dns.resolve* knows (MongoDB's mongodb+srv reads SRV and TXT, mail code
// MX), TTLs, reverse lookups, the promise API and Resolver instances, and
// the error each kind of failure gives. The node's DNS server is a local
// one serving the zone shoal.test (see tests/compat/README.md, "dns").
const dns = require('node:dns');
const dnsp = require('node:dns/promises');

dns.setServers([process.env.DNS_SERVER]);
dnsp.setServers([process.env.DNS_SERVER]);

const settle = (p) => p.then((value) => ({ value }), (err) => ({ code: err.code, syscall: err.syscall, hostname: err.hostname, message: err.message }));
const viaCallback = (fn, ...args) => new Promise((resolve) => fn(...args, (err, value) => resolve(err ? { code: err.code, syscall: err.syscall, hostname: err.hostname } : { value })));
const tlsaShape = (records) => records.map((r) => ({ ...r, data: Buffer.from(r.data).toString('hex') }));

module.exports = {
  async main() {
    const name = 'example.shoal.test';
    const out = {};
    for (const type of ['A', 'AAAA', 'MX', 'TXT', 'NS', 'SOA', 'CAA', 'NAPTR']) {
      out[type] = await settle(dnsp.resolve(name, type));
    }
    out.ttl4 = await settle(dnsp.resolve4(name, { ttl: true }));
    out.ttl6 = await settle(dnsp.resolve6(name, { ttl: true }));
    out.srv = await settle(dnsp.resolveSrv('_sip._tcp.example.shoal.test'));
    out.tlsa = await settle(dnsp.resolveTlsa('_443._tcp.example.shoal.test').then(tlsaShape));
    out.cname = await settle(dnsp.resolveCname('www.example.shoal.test'));
    out.any = await settle(dnsp.resolveAny(name));
    out.callbackMx = await viaCallback(dns.resolveMx, name);
    out.idn = await settle(dnsp.resolve4('bücher.shoal.test'));
    out.reverse = await settle(dnsp.reverse('192.0.2.1'));
    const resolver = new dnsp.Resolver();
    resolver.setServers([process.env.DNS_SERVER]);
    out.resolverTxt = await settle(resolver.resolveTxt(name));
    out.errors = {};
    for (const host of ['nothing.shoal.test', 'empty.shoal.test', 'servfail.shoal.test', 'refused.shoal.test']) {
      out.errors[host] = await settle(dnsp.resolve4(host));
    }
    out.badType = await settle(Promise.resolve().then(() => dnsp.resolve(name, 'BOGUS')));
    out.localhost = await settle(dnsp.lookup('localhost', { all: true, order: 'ipv4first' }));
    out.lookupIp = await settle(dnsp.lookup('127.0.0.1'));
    return out;
  },
};
