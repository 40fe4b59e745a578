'use strict';
// dns.Resolver and dns.promises.Resolver for Shoal Functions, as Node's
// lib/internal/dns/{utils,callback_resolver,promises}.js build them: one
// base with the settings, and a query method per record type. The queries
// go to the node's resolver (host.js). The servers a Function sets are
// kept and given back by getServers(), but the node resolves with its own:
// a Function does not pick the DNS servers of the machine it runs on.
const {
  DNSException,
  hostOperation,
  invalidArgValue,
  validateString,
  validateFunction,
  validateOneOf,
} = require('./host.js');
const { nodeError, invalidArgType, outOfRange } = require('../errors.js');
const { isIP } = require('./ip.js');
const punycode = require('../../punycode.js');
const { Buffer } = require('../../buffer.js');

const IANA_DNS_PORT = 53;
const IPv6RE = /^\[([^[\]]*)\]/;
const addrSplitRE = /(^.+?)(?::(\d+))?$/;

function validateInt32(value, name, min = -2147483648, max = 2147483647) {
  if (typeof value !== 'number') throw invalidArgType(name, 'number', value);
  if (!Number.isInteger(value)) throw outOfRange(name, 'an integer', value);
  if (value < min || value > max) throw outOfRange(name, `>= ${min} && <= ${max}`, value);
}

function validateUint32(value, name) {
  validateInt32(value, name, 0, 4294967295);
}

const kPending = Symbol('pending queries');
const kServers = Symbol('servers');

class ResolverBase {
  constructor(options = undefined) {
    const { timeout = -1, tries = 4, maxTimeout = 0, cacheMaxTTL = 0 } = { ...options };
    validateInt32(timeout, 'options.timeout', -1);
    validateInt32(tries, 'options.tries', 1);
    validateUint32(maxTimeout, 'options.maxTimeout');
    validateUint32(cacheMaxTTL, 'options.cacheMaxTTL');
    this[kPending] = new Set();
    this[kServers] = [];
  }

  // Outstanding queries fail with ECANCELLED, as in Node.
  cancel() {
    for (const query of [...this[kPending]]) query.cancel();
  }

  getServers() {
    return this[kServers].map(([version, host, port]) => {
      if (!port || port === IANA_DNS_PORT) return host;
      return `${version === 6 ? `[${host}]` : host}:${port}`;
    });
  }

  setServers(servers) {
    if (!Array.isArray(servers)) throw invalidArgType('servers', 'Array', servers);
    const parsed = servers.map((serv, index) => {
      validateString(serv, `servers[${index}]`);
      let version = isIP(serv);
      if (version !== 0) return [version, serv, IANA_DNS_PORT];
      const bracketed = IPv6RE.exec(serv);
      if (bracketed) {
        version = isIP(bracketed[1]);
        if (version !== 0) return [version, bracketed[1], Number.parseInt(serv.replace(addrSplitRE, '$2'), 10) || IANA_DNS_PORT];
      }
      const split = addrSplitRE.exec(serv);
      if (split) {
        version = isIP(split[1]);
        if (version !== 0) return [version, split[1], Number.parseInt(split[2] || IANA_DNS_PORT, 10)];
      }
      throw nodeError(TypeError, 'ERR_INVALID_IP_ADDRESS', `Invalid IP address: ${serv}`);
    });
    this[kServers] = parsed;
  }

  // The node picks the address it sends from.
  setLocalAddress(ipv4, ipv6) {
    validateString(ipv4, 'ipv4');
    if (ipv6 !== undefined) validateString(ipv6, 'ipv6');
  }
}

// Node's binding names (they name the syscall in errors) and record types.
const QUERIES = [
  ['resolveAny', 'queryAny', 'ANY'],
  ['resolve4', 'queryA', 'A'],
  ['resolve6', 'queryAaaa', 'AAAA'],
  ['resolveCaa', 'queryCaa', 'CAA'],
  ['resolveCname', 'queryCname', 'CNAME'],
  ['resolveMx', 'queryMx', 'MX'],
  ['resolveNs', 'queryNs', 'NS'],
  ['resolveTlsa', 'queryTlsa', 'TLSA'],
  ['resolveTxt', 'queryTxt', 'TXT'],
  ['resolveSrv', 'querySrv', 'SRV'],
  ['resolvePtr', 'queryPtr', 'PTR'],
  ['resolveNaptr', 'queryNaptr', 'NAPTR'],
  ['resolveSoa', 'querySoa', 'SOA'],
];

/**
 * Sends one query to the node; `done(err, result)` once, unless the
 * resolver cancels it first.
 */
function startQuery(resolver, bindingName, rrtype, name, ttl, done) {
  // reverse() of something that is not an address fails at once, as c-ares does.
  if (rrtype === null && isIP(name) === 0) throw new DNSException('EINVAL', bindingName, name, -22);
  let settled = false;
  const query = {
    cancel() {
      if (settled) return;
      settled = true;
      resolver[kPending].delete(query);
      done(new DNSException('ECANCELLED', bindingName, name));
    },
  };
  resolver[kPending].add(query);
  const finish = (err, answer) => {
    if (settled) return;
    settled = true;
    resolver[kPending].delete(query);
    if (err) done(err);
    else if (rrtype === null) done(null, answer.hostnames);
    else if (rrtype === 'TLSA') done(null, answer.records.map((r) => inNodeOrder('TLSA', tlsaRecord(r))));
    else if (rrtype === 'SOA') done(null, inNodeOrder('SOA', answer.records));
    else if (rrtype === 'ANY') done(null, anyInNodeOrder(answer.records));
    else {
      const typed = TYPED_FROM_NODE_24.has(rrtype) && nodeMajor() >= 24;
      const isRecordObject = (r) => typeof r === 'object' && r !== null && !Array.isArray(r);
      done(null, answer.records.map((r) => (isRecordObject(r) ? inNodeOrder(rrtype, r, typed) : r)));
    }
  };
  if (rrtype === null) {
    hostOperation('dns.reverse', { ip: name }, bindingName, name, finish);
  } else {
    const hostname = punycode.toASCII(name);
    // Only A and AAAA records carry their TTL in Node's answer.
    const head = { hostname, rrtype, ttl: ttl && (rrtype === 'A' || rrtype === 'AAAA') };
    hostOperation('dns.resolve', head, bindingName, name, finish);
  }
  return query;
}

// Node 24's c-ares binding names the type on MX, SRV and CAA records, as
// resolveAny always does; Node 22's does not. The Function's runtime decides.
const TYPED_FROM_NODE_24 = new Set(['MX', 'SRV', 'CAA']);
function nodeMajor() {
  const version = globalThis.process && typeof process.version === 'string' ? process.version : 'v24';
  return Number(version.slice(1).split('.')[0]) || 24;
}

// The order of a record's keys in Node's answers (JSON of them shows it).
const KEY_ORDER = {
  A: ['address', 'ttl'], AAAA: ['address', 'ttl'], MX: ['exchange', 'priority'], SRV: ['name', 'port', 'priority', 'weight'],
  SOA: ['nsname', 'hostmaster', 'serial', 'refresh', 'retry', 'expire', 'minttl'],
  NAPTR: ['flags', 'service', 'regexp', 'replacement', 'order', 'preference'], TLSA: ['certUsage', 'selector', 'match', 'data'],
  NS: ['value'], CNAME: ['value'], PTR: ['value'], TXT: ['entries'], CAA: ['critical'],
};

// resolveAny groups records by type in the order Node's binding parses them.
const ANY_TYPE_ORDER = ['A', 'AAAA', 'CNAME', 'MX', 'NS', 'TXT', 'SRV', 'PTR', 'NAPTR', 'SOA', 'CAA', 'TLSA'];

function anyInNodeOrder(records) {
  const rank = (r) => {
    const i = ANY_TYPE_ORDER.indexOf(r.type);
    return i === -1 ? ANY_TYPE_ORDER.length : i;
  };
  // Array.prototype.sort is stable: records of one type keep the server's order.
  return records.map((r) => inNodeOrder(r.type, r, true)).sort((a, b) => rank(a) - rank(b));
}

/** `record` with Node's key order; `typed` adds `type` where Node puts it. */
function inNodeOrder(rrtype, record, typed = false) {
  const out = {};
  for (const key of KEY_ORDER[rrtype] || []) if (key in record) out[key] = record[key];
  // Node 24 names a CAA record's type before its tag; Node 22 after.
  if (typed && rrtype === 'CAA' && nodeMajor() >= 24) out.type = rrtype;
  for (const key of Object.keys(record)) if (!(key in out) && key !== 'type') out[key] = record[key];
  if (typed) out.type = rrtype;
  return out;
}

// A TLSA record's certificate data comes as base64; Node gives an ArrayBuffer.
function tlsaRecord(record) {
  if (typeof record.data !== 'string') return record;
  const bytes = Buffer.from(record.data, 'base64');
  return { ...record, data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) };
}

/** dns.Resolver: query(name[, options], callback). */
function callbackQuery(bindingName, rrtype) {
  function query(name, options, callback) {
    if (arguments.length <= 2) {
      callback = options;
      options = undefined;
    }
    validateString(name, 'name');
    validateFunction(callback, 'callback');
    const ttl = !!(options && options.ttl);
    startQuery(this, bindingName, rrtype, name, ttl, (err, result) => (err ? callback(err) : callback(null, result)));
    return {};
  }
  Object.defineProperty(query, 'name', { value: bindingName });
  return query;
}

/** dns.promises.Resolver: query(name[, options]) -> Promise. */
function promiseQuery(bindingName, rrtype) {
  function query(name, options) {
    validateString(name, 'name');
    const ttl = !!(options && options.ttl);
    return new Promise((resolve, reject) => {
      startQuery(this, bindingName, rrtype, name, ttl, (err, result) => (err ? reject(err) : resolve(result)));
    });
  }
  Object.defineProperty(query, 'name', { value: bindingName });
  return query;
}

function createResolverClass(makeQuery) {
  const resolveMap = Object.create(null);
  class Resolver extends ResolverBase {}
  for (const [method, bindingName, rrtype] of QUERIES) {
    Resolver.prototype[method] = resolveMap[rrtype] = makeQuery(bindingName, rrtype);
  }
  Resolver.prototype.reverse = makeQuery('getHostByAddr', null);
  return { Resolver, resolveMap };
}

const callbackResolver = createResolverClass(callbackQuery);
callbackResolver.Resolver.prototype.resolve = function resolve(hostname, rrtype, callback) {
  let query;
  if (typeof rrtype === 'string') {
    query = callbackResolver.resolveMap[rrtype];
  } else if (typeof rrtype === 'function') {
    query = callbackResolver.resolveMap.A;
    callback = rrtype;
  } else {
    throw invalidArgType('rrtype', 'string', rrtype);
  }
  if (typeof query === 'function') return Reflect.apply(query, this, [hostname, callback]);
  throw invalidArgValue('rrtype', rrtype);
};

const promiseResolver = createResolverClass(promiseQuery);
promiseResolver.Resolver.prototype.resolve = function resolve(hostname, rrtype) {
  let query;
  if (rrtype !== undefined) {
    validateString(rrtype, 'rrtype');
    query = promiseResolver.resolveMap[rrtype];
    if (typeof query !== 'function') throw invalidArgValue('rrtype', rrtype);
  } else {
    query = promiseResolver.resolveMap.A;
  }
  return Reflect.apply(query, this, [hostname]);
};

// ---------------------------------------------------------------- shared state

// The order lookup() gives addresses in, and the resolver the modules'
// functions use (dns.setServers() replaces it, as in Node).
const state = { order: 'verbatim', defaultResolver: null, modules: [] };
const validOrders = ['verbatim', 'ipv4first', 'ipv6first'];

function getDefaultResultOrder() {
  return state.order;
}

function setDefaultResultOrder(value) {
  validateOneOf(value, 'dnsOrder', validOrders);
  state.order = value;
}

const resolverKeys = [
  'getServers', 'resolve', 'resolve4', 'resolve6', 'resolveAny', 'resolveCaa', 'resolveCname', 'resolveMx', 'resolveNaptr',
  'resolveNs', 'resolvePtr', 'resolveSoa', 'resolveSrv', 'resolveTlsa', 'resolveTxt', 'reverse',
];

/** Puts the default resolver's methods on a module (dns or dns/promises). */
function bindDefaultResolver(target, prototype) {
  if (state.defaultResolver === null) state.defaultResolver = new ResolverBase();
  for (const key of resolverKeys) target[key] = prototype[key].bind(state.defaultResolver);
}

/** dns.setServers(): a new default resolver for both modules. */
function setDefaultServers(servers) {
  const resolver = new ResolverBase();
  resolver.setServers(servers);
  state.defaultResolver = resolver;
  for (const [target, prototype] of state.modules) bindDefaultResolver(target, prototype);
}

function registerModule(target, prototype) {
  state.modules.push([target, prototype]);
  bindDefaultResolver(target, prototype);
}

// c-ares's error codes, exported by both modules.
const errorCodes = {
  NODATA: 'ENODATA',
  FORMERR: 'EFORMERR',
  SERVFAIL: 'ESERVFAIL',
  NOTFOUND: 'ENOTFOUND',
  NOTIMP: 'ENOTIMP',
  REFUSED: 'EREFUSED',
  BADQUERY: 'EBADQUERY',
  BADNAME: 'EBADNAME',
  BADFAMILY: 'EBADFAMILY',
  BADRESP: 'EBADRESP',
  CONNREFUSED: 'ECONNREFUSED',
  TIMEOUT: 'ETIMEOUT',
  EOF: 'EOF',
  FILE: 'EFILE',
  NOMEM: 'ENOMEM',
  DESTRUCTION: 'EDESTRUCTION',
  BADSTR: 'EBADSTR',
  BADFLAGS: 'EBADFLAGS',
  NONAME: 'ENONAME',
  BADHINTS: 'EBADHINTS',
  NOTINITIALIZED: 'ENOTINITIALIZED',
  LOADIPHLPAPI: 'ELOADIPHLPAPI',
  ADDRGETNETWORKPARAMS: 'EADDRGETNETWORKPARAMS',
  CANCELLED: 'ECANCELLED',
};

module.exports = {
  CallbackResolver: callbackResolver.Resolver,
  PromiseResolver: promiseResolver.Resolver,
  getDefaultResultOrder,
  setDefaultResultOrder,
  setDefaultServers,
  registerModule,
  errorCodes,
  validOrders,
};
