'use strict';
// What Node's HTTP server side (lib/_http_outgoing.js, _http_server.js)
// exports beyond node:http's client, for the legacy module names: classes
// a Function can refer to, which a Function (served by Shoal's node, not
// listening itself) cannot use.
const http = require('../http.js');
const { Stream } = require('../stream.js');
const { notImplemented } = require('./unsupported.js');

const NO_SERVER = "a Function does not listen: Shoal's node serves it";

// node:http's, when it has them.
const OutgoingMessage = http.OutgoingMessage || class OutgoingMessage extends Stream {
  constructor() {
    super();
    throw notImplemented('new OutgoingMessage()', NO_SERVER);
  }
};

const ServerResponse = http.ServerResponse || class ServerResponse extends OutgoingMessage {
  constructor() {
    throw notImplemented('new http.ServerResponse()', NO_SERVER);
  }
};

module.exports = { OutgoingMessage, ServerResponse, NO_SERVER };
