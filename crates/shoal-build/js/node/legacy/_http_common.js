'use strict';
// Node's lib/_http_common.js exports. The HTTP parser is Node's native
// llhttp, which Shoal does not have (the node parses HTTP); the header
// checks and expressions are Node's.
const http = require('../http.js');
const { notImplemented, unsupportedMethods } = require('../internal/unsupported.js');

const NO_PARSER = "Shoal's node parses HTTP; a Function has no HTTP parser";

class HTTPParser {
  constructor() {
    throw notImplemented('new HTTPParser()', NO_PARSER);
  }
}
unsupportedMethods(HTTPParser, 'HTTPParser', [
  'close', 'consume', 'execute', 'finish', 'free', 'getCurrentBuffer', 'initialize', 'pause', 'remove', 'resume', 'unconsume',
], NO_PARSER);

const tokenRegExp = /^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/;
const headerCharRegex = /[^\t\x20-\x7e\x80-\xff]/;

// Node's pool of parsers, empty here.
const parsers = {
  name: 'parsers',
  max: 1000,
  list: [],
  alloc() {
    throw notImplemented('parsers.alloc()', NO_PARSER);
  },
  free() {
    return false;
  },
};

function prepareError(err, parser, rawPacket) {
  err.rawPacket = rawPacket || parser.getCurrentBuffer();
  if (typeof err.reason === 'string') err.message = `Parse Error: ${err.reason}`;
}

module.exports = {
  _checkInvalidHeaderChar: (val) => headerCharRegex.test(val),
  _checkIsHttpToken: (val) => tokenRegExp.test(val),
  chunkExpression: /(?:^|\W)chunked(?:$|\W)/i,
  continueExpression: /(?:^|\W)100-continue(?:$|\W)/i,
  CRLF: '\r\n',
  freeParser() {
    throw notImplemented('freeParser()', NO_PARSER);
  },
  methods: http.METHODS,
  parsers,
  kIncomingMessage: Symbol('IncomingMessage'),
  kSkipPendingData: Symbol('SkipPendingData'),
  HTTPParser,
  // Node is lenient only with --insecure-http-parser.
  isLenient: () => false,
  prepareError,
};
