'use strict';
// A DNS server on 127.0.0.1 answering from a fixed zone (shoal.test), for
// the dns cases: Node's own resolver (c-ares) queries it in the Node half
// of a case, and host-shim.cjs queries it for Shoal's half, as the node's
// resolver would query a real one. Every record type Node resolves, and
// the failures Node names: NXDOMAIN (ENOTFOUND), an empty answer
// (ENODATA), SERVFAIL, REFUSED, FORMERR, NOTIMP and no answer (ETIMEOUT).
const dgram = require('node:dgram');
const net = require('node:net');

const TYPES = { A: 1, NS: 2, CNAME: 5, SOA: 6, PTR: 12, MX: 15, TXT: 16, AAAA: 28, SRV: 33, NAPTR: 35, TLSA: 52, ANY: 255, CAA: 257 };
const TYPE_NAMES = Object.fromEntries(Object.entries(TYPES).map(([k, v]) => [v, k]));

// name -> type -> [{ ttl, data }]; data as the type's fields.
const ZONE = {
  'example.shoal.test': {
    A: [{ ttl: 300, data: '192.0.2.1' }, { ttl: 60, data: '192.0.2.2' }],
    AAAA: [{ ttl: 120, data: '2001:db8::1' }, { ttl: 120, data: '2001:db8::2' }],
    MX: [{ ttl: 300, data: { priority: 10, exchange: 'mx1.example.shoal.test' } }, { ttl: 300, data: { priority: 20, exchange: 'mx2.example.shoal.test' } }],
    TXT: [{ ttl: 300, data: ['v=spf1 -all'] }, { ttl: 300, data: ['part one', 'part two'] }],
    NS: [{ ttl: 300, data: 'ns1.example.shoal.test' }, { ttl: 300, data: 'ns2.example.shoal.test' }],
    SOA: [{
      ttl: 300,
      data: { nsname: 'ns1.example.shoal.test', hostmaster: 'hostmaster.example.shoal.test', serial: 2024010101, refresh: 7200, retry: 3600, expire: 1209600, minttl: 300 },
    }],
    CAA: [
      { ttl: 300, data: { critical: 0, tag: 'issue', value: 'letsencrypt.org' } },
      { ttl: 300, data: { critical: 128, tag: 'iodef', value: 'mailto:security@example.shoal.test' } },
    ],
    NAPTR: [{ ttl: 300, data: { order: 100, preference: 10, flags: 'S', service: 'SIP+D2U', regexp: '', replacement: '_sip._udp.example.shoal.test' } }],
  },
  '_sip._tcp.example.shoal.test': {
    SRV: [{ ttl: 300, data: { priority: 10, weight: 60, port: 5060, name: 'sip1.example.shoal.test' } }, { ttl: 300, data: { priority: 20, weight: 0, port: 5061, name: 'sip2.example.shoal.test' } }],
  },
  '_443._tcp.example.shoal.test': {
    TLSA: [{ ttl: 300, data: { certUsage: 3, selector: 1, match: 1, data: 'c0ffee00deadbeef' } }],
  },
  'www.example.shoal.test': { CNAME: [{ ttl: 300, data: 'example.shoal.test' }] },
  'xn--bcher-kva.shoal.test': { A: [{ ttl: 300, data: '192.0.2.9' }] },
  'v6only.shoal.test': { AAAA: [{ ttl: 300, data: '2001:db8::9' }] },
  '1.2.0.192.in-addr.arpa': { PTR: [{ ttl: 300, data: 'example.shoal.test' }, { ttl: 300, data: 'alias.example.shoal.test' }] },
  '1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa': { PTR: [{ ttl: 300, data: 'example.shoal.test' }] },
  'empty.shoal.test': {},
};
const RCODE = { 'formerr.shoal.test': 1, 'servfail.shoal.test': 2, 'notimp.shoal.test': 4, 'refused.shoal.test': 5 };
const SILENT = new Set(['timeout.shoal.test']);

function encodeName(name) {
  const parts = name.split('.').filter(Boolean).map((label) => {
    const bytes = Buffer.from(label, 'ascii');
    return Buffer.concat([Buffer.from([bytes.length]), bytes]);
  });
  return Buffer.concat([...parts, Buffer.from([0])]);
}

function charString(text) {
  const bytes = Buffer.from(text, 'utf8');
  return Buffer.concat([Buffer.from([bytes.length]), bytes]);
}

const u16 = (n) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};
const u32 = (n) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

function ipv6Bytes(address) {
  const [head, tail] = address.split('::');
  const groups = (s) => (s ? s.split(':') : []);
  const h = groups(head);
  const t = groups(tail);
  const all = [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return Buffer.concat(all.map((g) => u16(parseInt(g, 16))));
}

function rdata(type, data) {
  switch (type) {
    case 'A':
      return Buffer.from(data.split('.').map(Number));
    case 'AAAA':
      return ipv6Bytes(data);
    case 'NS':
    case 'CNAME':
    case 'PTR':
      return encodeName(data);
    case 'MX':
      return Buffer.concat([u16(data.priority), encodeName(data.exchange)]);
    case 'TXT':
      return Buffer.concat(data.map(charString));
    case 'SRV':
      return Buffer.concat([u16(data.priority), u16(data.weight), u16(data.port), encodeName(data.name)]);
    case 'SOA':
      return Buffer.concat([encodeName(data.nsname), encodeName(data.hostmaster), u32(data.serial), u32(data.refresh), u32(data.retry), u32(data.expire), u32(data.minttl)]);
    case 'CAA':
      return Buffer.concat([Buffer.from([data.critical]), charString(data.tag), Buffer.from(data.value, 'utf8')]);
    case 'NAPTR':
      return Buffer.concat([u16(data.order), u16(data.preference), charString(data.flags), charString(data.service), charString(data.regexp), encodeName(data.replacement)]);
    case 'TLSA':
      return Buffer.concat([Buffer.from([data.certUsage, data.selector, data.match]), Buffer.from(data.data, 'hex')]);
    default:
      throw new Error(`no encoding for ${type}`);
  }
}

function record(name, type, ttl, data) {
  const body = rdata(type, data);
  return Buffer.concat([encodeName(name), u16(TYPES[type]), u16(1), u32(ttl), u16(body.length), body]);
}

function parseQuestion(msg) {
  const labels = [];
  let i = 12;
  while (msg[i] !== 0) {
    labels.push(msg.subarray(i + 1, i + 1 + msg[i]).toString('ascii'));
    i += msg[i] + 1;
  }
  const qtype = msg.readUInt16BE(i + 1);
  return { name: labels.join('.').toLowerCase(), qtype, end: i + 5 };
}

function answersFor(name, type) {
  const entry = ZONE[name];
  if (!entry) return null;
  const out = [];
  if (type === 'ANY') {
    for (const [t, records] of Object.entries(entry)) for (const r of records) out.push(record(name, t, r.ttl, r.data));
    return out;
  }
  if (entry[type]) {
    for (const r of entry[type]) out.push(record(name, type, r.ttl, r.data));
    return out;
  }
  // A recursive server follows the CNAME and gives both.
  if (entry.CNAME && type !== 'CNAME') {
    const target = entry.CNAME[0].data;
    out.push(record(name, 'CNAME', entry.CNAME[0].ttl, target));
    const more = answersFor(target, type);
    if (more) out.push(...more);
  }
  return out;
}

function respond(msg) {
  const { name, qtype, end } = parseQuestion(msg);
  if (SILENT.has(name)) return null;
  const question = msg.subarray(12, end);
  const id = msg.readUInt16BE(0);
  let rcode = RCODE[name] || 0;
  let answers = [];
  if (!rcode) {
    const found = answersFor(name, TYPE_NAMES[qtype] || 'unknown');
    if (found === null) rcode = 3;
    else answers = found;
  }
  // QR, opcode 0, AA, RD copied, RA.
  const flags = 0x8000 | 0x0400 | (msg.readUInt16BE(2) & 0x0100) | 0x0080 | rcode;
  const header = Buffer.concat([u16(id), u16(flags), u16(1), u16(answers.length), u16(0), u16(0)]);
  return Buffer.concat([header, question, ...answers]);
}

/** Starts the server; resolves with { address: '127.0.0.1:port', close() }. */
function startFakeDnsServer() {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket('udp4');
    socket.on('message', (msg, rinfo) => {
      let answer = null;
      try {
        answer = respond(msg);
      } catch {
        return;
      }
      if (answer) socket.send(answer, rinfo.port, rinfo.address);
    });
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      socket.unref();
      const { port } = socket.address();
      resolve({ address: `127.0.0.1:${port}`, close: () => socket.close() });
    });
  });
}

module.exports = { startFakeDnsServer, ZONE, isIP: net.isIP };
