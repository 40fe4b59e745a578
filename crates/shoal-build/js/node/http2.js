'use strict';
// node:http2 for Shoal Functions: loadable (axios requires it at load);
// sessions are not available: fetch and https speak HTTP/2 through the node.
const { unavailableModule } = require('./internal/unavailable.js');

const constants = {
  HTTP2_HEADER_STATUS: ':status',
  HTTP2_HEADER_METHOD: ':method',
  HTTP2_HEADER_AUTHORITY: ':authority',
  HTTP2_HEADER_SCHEME: ':scheme',
  HTTP2_HEADER_PATH: ':path',
  HTTP2_HEADER_CONTENT_TYPE: 'content-type',
  HTTP2_HEADER_CONTENT_LENGTH: 'content-length',
  HTTP2_METHOD_GET: 'GET',
  HTTP2_METHOD_POST: 'POST',
  NGHTTP2_CANCEL: 8,
};

module.exports = unavailableModule('http2', ['connect', 'createServer', 'createSecureServer'], { constants });
