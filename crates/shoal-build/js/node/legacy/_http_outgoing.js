'use strict';
// Node's lib/_http_outgoing.js exports: OutgoingMessage and its helpers.
const http = require('../http.js');
const { OutgoingMessage } = require('../internal/http-server-side.js');

// The headers a response may carry once only, lowercased (Node's
// `uniqueHeaders` option).
function parseUniqueHeadersOption(headers) {
  if (!Array.isArray(headers)) return null;
  const unique = new Set();
  for (const name of headers) unique.add(String(name).toLowerCase());
  return unique;
}

module.exports = {
  OutgoingMessage,
  kHighWaterMark: Symbol('kHighWaterMark'),
  kUniqueHeaders: Symbol('kUniqueHeaders'),
  parseUniqueHeadersOption,
  validateHeaderName: http.validateHeaderName,
  validateHeaderValue: http.validateHeaderValue,
};
