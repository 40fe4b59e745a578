'use strict';
// node:dns for Shoal Functions: names are resolved by the node (a host
// operation, internal/dns/host.js), with Node's API and errors: lookup()
// as getaddrinfo answers, resolve*() and reverse() as a DNS resolver does,
// Resolver, the error-code constants. lookupService() (getnameinfo) is
// not offered. dns.promises (dns/promises.js) shares the default resolver
// and result order.
const { isIP } = require('./internal/dns/ip.js');
const { validateStringWithoutNullBytes, validateFunction, validateOneOf,
  AI_ADDRCONFIG, AI_ALL, AI_V4MAPPED } = require('./internal/dns/host.js');
const { nodeError, describeReceived } = require('./internal/errors.js');
const resolver = require('./internal/dns/resolver.js');
const { hostLookup, warnInvalidHostname, lookupOptions, validFamilies } = require('./internal/dns/lookup.js');
const { notImplemented } = require('./internal/unsupported.js');
const { _customPromisifyArgs: customPromisifyArgs } = require('./util.js');


function lookup(hostname, options, callback) {
  let family = 0;
  let all = false;
  let order = resolver.getDefaultResultOrder();
  if (hostname) validateStringWithoutNullBytes(hostname, 'hostname');
  if (typeof options === 'function') {
    callback = options;
  } else if (typeof options === 'number') {
    validateFunction(callback, 'callback');
    validateOneOf(options, 'family', validFamilies);
    family = options;
  } else if (options !== undefined && typeof options !== 'object') {
    validateFunction(arguments.length === 2 ? options : callback, 'callback');
    // Node's words: 'integer' is not one of its type names, so it comes last.
    throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "options" argument must be of type object or integer. ${describeReceived(options)}`);
  } else {
    validateFunction(callback, 'callback');
    ({ family, all, order } = lookupOptions(options, order, true));
  }

  if (!hostname) {
    warnInvalidHostname(hostname);
    if (all) process.nextTick(callback, null, []);
    else process.nextTick(callback, null, null, family === 6 ? 6 : 4);
    return {};
  }
  const matchedFamily = isIP(hostname);
  if (matchedFamily) {
    if (all) process.nextTick(callback, null, [{ address: hostname, family: matchedFamily }]);
    else process.nextTick(callback, null, hostname, matchedFamily);
    return {};
  }
  hostLookup(hostname, family, order, (err, addresses) => {
    if (err) callback(err);
    else if (all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  });
  return {};
}
Object.defineProperty(lookup, customPromisifyArgs, { value: ['address', 'family'], enumerable: false });

// getnameinfo: the node offers no reverse lookup of a service.
function lookupService() {
  throw notImplemented('dns.lookupService()', 'the node does not look up services for Functions; use dns.reverse() for the host name');
}
Object.defineProperty(lookupService, customPromisifyArgs, { value: ['hostname', 'service'], enumerable: false });

module.exports = {
  lookup,
  lookupService,
  Resolver: resolver.CallbackResolver,
  getDefaultResultOrder: resolver.getDefaultResultOrder,
  setDefaultResultOrder: resolver.setDefaultResultOrder,
  setServers: resolver.setDefaultServers,
  ADDRCONFIG: AI_ADDRCONFIG,
  ALL: AI_ALL,
  V4MAPPED: AI_V4MAPPED,
  ...resolver.errorCodes,
};
resolver.registerModule(module.exports, resolver.CallbackResolver.prototype);
Object.defineProperty(module.exports, 'promises', {
  configurable: true,
  enumerable: true,
  get: () => require('./dns/promises.js'),
});
