'use strict';
// node:dns for Shoal Functions: names are resolved by the node when it
// makes a request; lookups from the Function are not available.
const { unavailable, unavailableModule } = require('./internal/unavailable.js');

const names = ['lookup', 'resolve', 'resolve4', 'resolve6', 'resolveMx', 'resolveTxt', 'resolveSrv', 'reverse'];
const promises = unavailableModule('dns.promises', names);
module.exports = unavailableModule('dns', names, { promises, setDefaultResultOrder() {}, getServers: () => [] });
module.exports.Resolver = unavailable('dns', 'Resolver');
