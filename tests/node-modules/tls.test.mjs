// node:tls without a connection (issue 19): tls.checkServerIdentity,
// which Shoal runs in JavaScript for a Function's own identity check and
// for direct calls, over every combination of host shapes (names,
// wildcards, IDNA, trailing dots, IPv4 and IPv6 spellings) and certificate
// name shapes (SAN lists with DNS, IP, URI and quoted names, CN-only
// subjects, nothing).
import { diff } from './harness/cases.mjs';

const HOSTS = [
  'example.test', 'EXAMPLE.Test.', 'a.example.test', 'a.b.example.test', 'foo.bar.test', 'xn--bcher-kva.example.test',
  'www.example.test', 'b.test', 'a.test', 'localhost', '10.0.0.1', '10.0.0.2', '::1', 'fd00::1', '0:0:0:0:0:0:0:1', '',
];

const SUBJECTS = [{ CN: 'example.test' }, { CN: ['a.test', 'www.example.test'] }, {}];

const ALTNAMES = [
  undefined, 'DNS:example.test', 'DNS:*.example.test', 'DNS:example.test, DNS:*.example.test', 'DNS:f*.bar.test',
  'DNS:*o.bar.test', 'DNS:*.test', 'DNS:a*b*.example.test', 'DNS:xn--*.example.test', 'DNS:*.EXAMPLE.TEST.',
  'IP Address:10.0.0.1', 'IP Address:0:0:0:0:0:0:0:1', 'IP Address:FD00:0:0:0:0:0:0:1, DNS:localhost',
  'URI:http://example.test/', 'email:x@example.test', 'DNS:"b.test, DNS:a.test"', 'DNS:a.test, DNS:"b.test"',
  'DNS:bad..example.test', 'DNS:bücher.example.test',
];

// Every certificate shape, against every host.
{
  for (const altnames of ALTNAMES) {
    for (const subject of SUBJECTS) {
      const cert = altnames === undefined ? { subject } : { subject, subjectaltname: altnames };
      diff(`tls.checkServerIdentity ${JSON.stringify(cert)}`, `
        const cert = ${JSON.stringify(cert)};
        return ${JSON.stringify(HOSTS)}.map((host) => {
          try {
            const err = M.tls.checkServerIdentity(host, cert);
            return err === undefined ? 'ok' : { name: err.name, code: err.code, message: err.message, reason: err.reason, host: err.host, sameCert: err.cert === cert };
          } catch (e) {
            return { threw: e.name, code: e.code, message: e.message };
          }
        });`);
    }
  }
}
