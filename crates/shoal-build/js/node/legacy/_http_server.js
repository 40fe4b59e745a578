'use strict';
// Node's lib/_http_server.js exports: a Function does not listen (Shoal's
// node serves it), so these are for code that refers to them.
const http = require('../http.js');
const { ServerResponse, NO_SERVER } = require('../internal/http-server-side.js');
const { unsupportedFunctions } = require('../internal/unsupported.js');

module.exports = unsupportedFunctions(
  'http',
  ['_connectionListener', 'httpServerPreClose', 'setupConnectionsTracking', 'storeHTTPOptions'],
  NO_SERVER,
  {
    STATUS_CODES: http.STATUS_CODES,
    Server: http.Server,
    ServerResponse,
    kConnectionsCheckingInterval: Symbol('http.server.connectionsCheckingInterval'),
    kServerResponse: Symbol('ServerResponse'),
  },
);
