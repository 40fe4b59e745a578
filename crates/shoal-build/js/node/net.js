'use strict';
// node:net for Shoal Functions: the address helpers work; sockets are not
// available (see internal/unavailable.js).
const { unavailableModule } = require('./internal/unavailable.js');

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function isIPv4(input) {
  return IPV4.test(String(input));
}

function isIPv6(input) {
  const text = String(input);
  if (!text.includes(':')) return false;
  try {
    // The URL parser validates IPv6 literals by the URL Standard.
    return new URL(`http://[${text}]/`).hostname.length > 2;
  } catch {
    return false;
  }
}

function isIP(input) {
  return isIPv4(input) ? 4 : isIPv6(input) ? 6 : 0;
}

module.exports = unavailableModule('net', ['connect', 'createConnection', 'createServer', 'Socket', 'Server'], {
  isIP,
  isIPv4,
  isIPv6,
});
