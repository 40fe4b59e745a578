'use strict';
// Node's JSStreamSocket: a net.Socket over any Duplex stream, which Node's
// TLS and HTTP/2 use internally. A Function's sockets are the node's.
const net = require('../net.js');
const { notImplemented, unsupportedMethods } = require('../internal/unsupported.js');

const WHY = "a Function's sockets are opened by Shoal's node";

class StreamWrap extends net.Socket {
  constructor() {
    throw notImplemented('new StreamWrap()', WHY);
  }
}
unsupportedMethods(StreamWrap, 'StreamWrap', [
  'doClose', 'doShutdown', 'doWrite', 'finishShutdown', 'finishWrite', 'isClosing', 'readStart', 'readStop',
], WHY);
StreamWrap.StreamWrap = StreamWrap;

module.exports = StreamWrap;
