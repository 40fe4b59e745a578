'use strict';
// node:tls for Shoal Functions: loadable; TLS is the node's (https and
// fetch), so connecting or serving here is not available.
const { unavailableModule } = require('./internal/unavailable.js');

module.exports = unavailableModule('tls', ['connect', 'createServer', 'createSecureContext', 'TLSSocket', 'Server'], {
  rootCertificates: [],
  DEFAULT_MIN_VERSION: 'TLSv1.2',
  DEFAULT_MAX_VERSION: 'TLSv1.3',
  DEFAULT_ECDH_CURVE: 'auto',
});
