'use strict';
// dns.lookup() as Node does it (getaddrinfo, which reads /etc/hosts and
// the system's resolver), by the node: it answers the addresses in its
// resolver's order; those of the family asked for are kept and ordered
// here as `order` asks ('verbatim', 'ipv4first', 'ipv6first'). `hints` are
// checked, not used.
const { hostOperation, lookupException, validateOneOf, validateNumber, validateBoolean, validateHints } = require('./host.js');
const { validOrders } = require('./resolver.js');
const punycode = require('../../punycode.js');

function ordered(addresses, order) {
  if (order === 'verbatim') return addresses;
  const first = order === 'ipv4first' ? 4 : 6;
  return [...addresses.filter((a) => a.family === first), ...addresses.filter((a) => a.family !== first)];
}

/** done(err, [{address, family}]) with at least one address, or a DNSException. */
function hostLookup(hostname, family, order, done) {
  const head = { hostname: punycode.toASCII(hostname), family, all: true };
  hostOperation('dns.lookup', head, 'getaddrinfo', hostname, (err, answer) => {
    if (err) return done(err);
    // The node may answer every family; getaddrinfo asked for one gives only it.
    const addresses = (answer.addresses || [])
      .map(({ address, family: found }) => ({ address, family: found }))
      .filter((a) => family === 0 || a.family === family);
    // getaddrinfo never succeeds with nothing; a node that answers so found nothing.
    if (addresses.length === 0) return done(lookupException('ENOTFOUND', hostname));
    return done(null, ordered(addresses, order));
  });
}

// Node warns once about lookup('') (DEP0118).
let invalidHostnameWarned = false;
function warnInvalidHostname(hostname) {
  if (invalidHostnameWarned) return;
  invalidHostnameWarned = true;
  process.emitWarning(
    `The provided hostname "${hostname}" is not a valid hostname, and is supported in the dns module solely for compatibility.`,
    'DeprecationWarning',
    'DEP0118',
  );
}

const validFamilies = [0, 4, 6];

/**
 * The fields of lookup's options object, checked as Node checks them for
 * dns.lookup and dns.promises.lookup: { family, all, order }, from `order`
 * (the default result order) on. Only the callback form also takes
 * 'IPv4'/'IPv6' as the family (`familyNames`).
 */
function lookupOptions(options, order, familyNames) {
  let family = 0;
  let all = false;
  if (options?.hints != null) {
    validateNumber(options.hints, 'options.hints');
    validateHints(options.hints >>> 0);
  }
  if (options?.family != null) {
    if (familyNames && options.family === 'IPv4') family = 4;
    else if (familyNames && options.family === 'IPv6') family = 6;
    else {
      validateOneOf(options.family, 'options.family', validFamilies);
      family = options.family;
    }
  }
  if (options?.all != null) {
    validateBoolean(options.all, 'options.all');
    all = options.all;
  }
  if (options?.verbatim != null) {
    validateBoolean(options.verbatim, 'options.verbatim');
    order = options.verbatim ? 'verbatim' : 'ipv4first';
  }
  if (options?.order != null) {
    validateOneOf(options.order, 'options.order', validOrders);
    order = options.order;
  }
  return { family, all, order };
}

module.exports = { hostLookup, warnInvalidHostname, lookupOptions, validFamilies };
