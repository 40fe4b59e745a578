'use strict';
// A stand-in for the node's generic host operations
// (`__shoal_host.op(name, headJson, bytes)`, answered through the
// prelude's `__shoal_calls`) in the module tests, as native-shim.cjs is
// for `__shoal_native`. It answers the dns operations the way the node
// does: lookups with the system's getaddrinfo (Node's dns.lookup), queries
// and reverse lookups with a DNS resolver, here c-ares (Node's
// dns.Resolver) asking the servers the test configures (its fake DNS
// server, fake-dns-server.cjs, which answers from a fixed zone).
// Answers and failures have the shape of the host interface
// (internal/dns/host.js): records already in Node's shape, errors as
// {error, kind, code}.
const dns = require('node:dns');

// Short enough that the cases asking the fake server's silent name finish
// quickly, long enough for a loaded machine.
const RESOLVER_OPTIONS = { timeout: 1000, tries: 1 };
let resolver = new dns.promises.Resolver(RESOLVER_OPTIONS);

/** Points the shim's resolver at `servers` ('127.0.0.1:port'). */
function setDnsServers(servers) {
  resolver = new dns.promises.Resolver(RESOLVER_OPTIONS);
  resolver.setServers(servers);
}

const QUERY = {
  A: 'resolve4', AAAA: 'resolve6', ANY: 'resolveAny', CAA: 'resolveCaa', CNAME: 'resolveCname', MX: 'resolveMx', NAPTR: 'resolveNaptr',
  NS: 'resolveNs', PTR: 'resolvePtr', SOA: 'resolveSoa', SRV: 'resolveSrv', TLSA: 'resolveTlsa', TXT: 'resolveTxt',
};

const failure = (err) => ({ error: err.message, kind: 'dns', code: typeof err.code === 'string' ? err.code : null });

async function answer(name, head) {
  try {
    switch (name) {
      case 'dns.lookup': {
        const addresses = await dns.promises.lookup(head.hostname, { family: head.family, all: true, order: 'verbatim' });
        return { addresses };
      }
      case 'dns.resolve': {
        const method = QUERY[head.rrtype];
        if (!method) return { error: `unknown record type ${head.rrtype}`, kind: 'invalid', code: null };
        let records = await resolver[method](head.hostname, head.ttl ? { ttl: true } : undefined);
        // Bytes travel as base64 in the JSON head.
        if (head.rrtype === 'TLSA') records = records.map((r) => ({ ...r, data: Buffer.from(r.data).toString('base64') }));
        return { records };
      }
      case 'dns.reverse':
        return { hostnames: await resolver.reverse(head.ip) };
      default:
        return { error: `unknown host operation ${name}`, kind: 'unsupported', code: null };
    }
  } catch (err) {
    return failure(err);
  }
}

/**
 * A host for one engine: op() starts an operation and returns its id;
 * `deliver(id, headJson)` is called when it completes.
 */
function createHost(deliver) {
  let nextId = 1;
  let pending = 0;
  return {
    op(name, headJson) {
      const id = nextId++;
      pending++;
      answer(name, JSON.parse(headJson)).then((result) => {
        pending--;
        deliver(id, JSON.stringify(result));
      });
      return id;
    },
    pending: () => pending,
  };
}

module.exports = { createHost, setDnsServers };
