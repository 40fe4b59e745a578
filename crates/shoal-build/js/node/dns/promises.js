'use strict';
// node:dns/promises (and dns.promises) for Shoal Functions: node:dns's
// operations returning Promises, resolved by the node (see dns.js).
const { isIP } = require('../internal/dns/ip.js');
const { validateStringWithoutNullBytes, validateOneOf } = require('../internal/dns/host.js');
const { nodeError, describeReceived } = require('../internal/errors.js');
const resolver = require('../internal/dns/resolver.js');
const { hostLookup, warnInvalidHostname, lookupOptions, validFamilies } = require('../internal/dns/lookup.js');
const { notImplemented } = require('../internal/unsupported.js');


function lookup(hostname, options) {
  let family = 0;
  let all = false;
  let order = resolver.getDefaultResultOrder();
  if (hostname) validateStringWithoutNullBytes(hostname, 'hostname');
  if (typeof options === 'number') {
    validateOneOf(options, 'family', validFamilies);
    family = options;
  } else if (options !== undefined && typeof options !== 'object') {
    throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "options" argument must be of type object or integer. ${describeReceived(options)}`);
  } else {
    ({ family, all, order } = lookupOptions(options, order, false));
  }
  return new Promise((resolve, reject) => {
    if (!hostname) {
      warnInvalidHostname(hostname);
      resolve(all ? [] : { address: null, family: family === 6 ? 6 : 4 });
      return;
    }
    const matchedFamily = isIP(hostname);
    if (matchedFamily !== 0) {
      const result = { address: hostname, family: matchedFamily };
      resolve(all ? [result] : result);
      return;
    }
    hostLookup(hostname, family, order, (err, addresses) => {
      if (err) reject(err);
      else resolve(all ? addresses : addresses[0]);
    });
  });
}

function lookupService() {
  throw notImplemented('dns.promises.lookupService()', 'the node does not look up services for Functions; use dns.promises.reverse() for the host name');
}

module.exports = {
  lookup,
  lookupService,
  Resolver: resolver.PromiseResolver,
  getDefaultResultOrder: resolver.getDefaultResultOrder,
  setDefaultResultOrder: resolver.setDefaultResultOrder,
  setServers: resolver.setDefaultServers,
  ...resolver.errorCodes,
};
resolver.registerModule(module.exports, resolver.PromiseResolver.prototype);
