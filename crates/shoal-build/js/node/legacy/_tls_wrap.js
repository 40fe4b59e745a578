'use strict';
// Node's old name for tls's socket and server.
const tls = require('../tls.js');

module.exports = { Server: tls.Server, TLSSocket: tls.TLSSocket, connect: tls.connect, createServer: tls.createServer };
