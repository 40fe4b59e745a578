'use strict';
// node:net for Shoal Functions: outbound TCP connections (net.connect,
// net.Socket), performed by the node (internal/net/), and the address
// helpers. A Function is called through the node, so it cannot listen:
// servers are not available (see internal/unavailable.js).
const { unavailable } = require('./internal/unavailable.js');
const { Socket } = require('./internal/net/socket.js');
// Node's own expressions (lib/internal/net.js), shared with dns.
const { isIP: ipVersion } = require('./internal/dns/ip.js');

function isIPv4(input) {
  return ipVersion(input) === 4;
}

function isIPv6(input) {
  return ipVersion(input) === 6;
}

function isIP(input) {
  return ipVersion(input);
}

/** net.connect(options[, cb]) | (port[, host][, cb]): a connected Socket. */
function connect(...args) {
  const first = args[0];
  const options = typeof first === 'object' && first !== null ? first : {};
  const socket = new Socket(options);
  return socket.connect(...args);
}

let autoSelectFamily = true;
let autoSelectFamilyAttemptTimeout = 250;

module.exports = {
  connect,
  createConnection: connect,
  Socket,
  Stream: Socket,
  createServer: unavailable('net', 'createServer'),
  Server: unavailable('net', 'Server'),
  isIP,
  isIPv4,
  isIPv6,
  getDefaultAutoSelectFamily: () => autoSelectFamily,
  setDefaultAutoSelectFamily(value) {
    autoSelectFamily = Boolean(value);
  },
  getDefaultAutoSelectFamilyAttemptTimeout: () => autoSelectFamilyAttemptTimeout,
  setDefaultAutoSelectFamilyAttemptTimeout(value) {
    autoSelectFamilyAttemptTimeout = Math.max(10, Number(value) || 0);
  },
};
