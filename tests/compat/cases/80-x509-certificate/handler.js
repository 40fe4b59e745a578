// crypto.X509Certificate on certificates made with openssl (certs.json,
// test-only): an RSA CA with a UTF-8 name, an EC P-384 server certificate
// with a multi-valued RDN, escaped characters and every kind of SAN, a
// self-signed Ed25519 one, one signed with RSA-PSS, and the compat suite's
// upstream certificate. The certificate a request posts is read as a
// client would send it (PEM, or base64 DER), and an Envoy-style
// x-forwarded-client-cert header is checked against the CA.
const crypto = require('node:crypto');
const certs = require('./certs.json');

const names = ['ca', 'leaf', 'ed', 'pss', 'upstream'];
const parsed = Object.fromEntries(names.map((n) => [n, new crypto.X509Certificate(certs[n])]));

function attempt(fn) {
  try {
    return fn();
  } catch (e) {
    return { error: e.code || e.name, message: e.message };
  }
}

// Every field a Function might read.
function fields(cert) {
  const key = cert.publicKey;
  const legacy = cert.toLegacyObject();
  return {
    subject: cert.subject,
    issuer: cert.issuer,
    subjectAltName: cert.subjectAltName,
    validFrom: cert.validFrom,
    validTo: cert.validTo,
    validFromDate: cert.validFromDate.toISOString(),
    validToDate: cert.validToDate.toISOString(),
    fingerprint: cert.fingerprint,
    fingerprint256: cert.fingerprint256,
    fingerprint512: cert.fingerprint512,
    keyUsage: cert.keyUsage,
    serialNumber: cert.serialNumber,
    ca: cert.ca,
    signatureAlgorithm: cert.signatureAlgorithm,
    signatureAlgorithmOid: cert.signatureAlgorithmOid,
    pem: cert.toString(),
    json: JSON.stringify({ cert }),
    raw: cert.raw.toString('base64'),
    publicKey: [key.type, key.asymmetricKeyType, key.export({ type: 'spki', format: 'pem' })],
    legacy: Object.fromEntries(Object.entries(legacy).map(([k, v]) => [k, Buffer.isBuffer(v) ? v.toString('hex') : v === undefined ? '(undefined)' : v])),
  };
}

function chain() {
  const leafKey = crypto.createPrivateKey(certs.keys.leaf);
  const edKey = crypto.createPrivateKey(certs.keys.ed);
  return Object.fromEntries(names.map((n) => [n, {
    verifiedBy: names.filter((i) => parsed[n].verify(parsed[i].publicKey)),
    issuedBy: names.filter((i) => parsed[n].checkIssued(parsed[i])),
    leafKey: parsed[n].checkPrivateKey(leafKey),
    edKey: parsed[n].checkPrivateKey(edKey),
  }]));
}

const hosts = ['example.com', 'API.example.com', 'a.example.com', 'x.y.example.com', '.example.com', 'example.com.', 'example.org',
  'localhost', '127.0.0.1', 'ed25519 test', 'xn--bcher-kva.example.com', ''];
const hostOptions = [undefined, { subject: 'always' }, { subject: 'never' }, { wildcards: false }, { multiLabelWildcards: true }];

function identities() {
  return Object.fromEntries(names.map((n) => [n, {
    hosts: hostOptions.map((o) => hosts.map((h) => parsed[n].checkHost(h, o) ?? null)),
    emails: ['ops@example.com', 'ops@EXAMPLE.com', 'OPS@example.com', 'ca@example.com'].map((e) => parsed[n].checkEmail(e) ?? null),
    ips: ['10.0.0.1', '2001:db8::1', '2001:DB8:0:0:0:0:0:1', '127.0.0.1', '::ffff:10.0.0.1', '10.0.0.01'].map((ip) => attempt(() => parsed[n].checkIP(ip) ?? null)),
  }]));
}

// An mTLS client certificate forwarded by the ingress (URL-encoded PEM in
// the Cert= part of x-forwarded-client-cert).
function forwarded(header) {
  const match = /(?:^|;)Cert="([^"]*)"/.exec(header || '');
  if (!match) return { authenticated: false, reason: 'no client certificate' };
  const cert = attempt(() => new crypto.X509Certificate(decodeURIComponent(match[1])));
  if (cert.error) return { authenticated: false, reason: cert.message };
  const trusted = cert.checkIssued(parsed.ca) && cert.verify(parsed.ca.publicKey);
  const now = Date.parse('2027-06-01T00:00:00Z');
  const current = cert.validFromDate.getTime() <= now && now <= cert.validToDate.getTime();
  return { authenticated: trusted && current, subject: cert.subject, serial: cert.serialNumber, fingerprint256: cert.fingerprint256, trusted, current };
}

function errors() {
  return [
    attempt(() => new crypto.X509Certificate('not a certificate')),
    attempt(() => new crypto.X509Certificate(Buffer.from([0x30, 0x03, 0x02, 0x01, 0x01]))),
    attempt(() => new crypto.X509Certificate(42)),
    attempt(() => parsed.leaf.checkHost(42)),
    attempt(() => parsed.leaf.checkHost('a', { subject: 'sometimes' })),
    attempt(() => parsed.leaf.checkIP('not an ip')),
    attempt(() => parsed.leaf.checkIssued('ca')),
    attempt(() => parsed.leaf.verify('key')),
  ];
}

module.exports = {
  main(event) {
    const action = event.extensions.request.query.action;
    if (action === 'inspect') {
      const body = event.data;
      const input = typeof body === 'object' && body && body.der ? Buffer.from(body.der, 'base64') : String(body);
      const cert = attempt(() => new crypto.X509Certificate(input));
      return cert.error ? { error: cert.error } : fields(cert);
    }
    if (action === 'chain') return chain();
    if (action === 'identities') return identities();
    if (action === 'mtls') return forwarded(event.extensions.request.headers['x-forwarded-client-cert']);
    if (action === 'errors') return errors();
    return { error: 'unknown action' };
  },
};
