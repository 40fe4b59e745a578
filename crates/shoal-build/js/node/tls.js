'use strict';
// node:tls for Shoal Functions: TLS client connections (tls.connect,
// TLSSocket, STARTTLS on an open socket), with the handshake and
// verification done by the node (internal/net/tls-socket.js). A Function
// does not listen, so servers are not available.
const { unavailableModule } = require('./internal/unavailable.js');
const { TLSSocket, connect } = require('./internal/net/tls-socket.js');
const { checkServerIdentity } = require('./internal/net/tls-verify.js');

function createSecureContext(options = {}) {
  // The node builds the TLS configuration per connection; the options ride
  // along for tls.connect({ secureContext }).
  return { context: { options }, options };
}

module.exports = unavailableModule('tls', ['createServer', 'Server'], {
  connect,
  TLSSocket,
  checkServerIdentity,
  createSecureContext,
  getCiphers: () => ['tls_aes_128_gcm_sha256', 'tls_aes_256_gcm_sha384', 'tls_chacha20_poly1305_sha256',
    'ecdhe-ecdsa-aes128-gcm-sha256', 'ecdhe-ecdsa-aes256-gcm-sha384', 'ecdhe-ecdsa-chacha20-poly1305',
    'ecdhe-rsa-aes128-gcm-sha256', 'ecdhe-rsa-aes256-gcm-sha384', 'ecdhe-rsa-chacha20-poly1305'],
  DEFAULT_CIPHERS: 'TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256',
  rootCertificates: [],
  DEFAULT_MIN_VERSION: 'TLSv1.2',
  DEFAULT_MAX_VERSION: 'TLSv1.3',
  DEFAULT_ECDH_CURVE: 'auto',
});
