'use strict';
// node:dgram for Shoal Functions: a Function cannot open UDP sockets (its
// network is the node's HTTP client). The module loads; Socket is a class
// packages can refer to, and creating one throws.
const EventEmitter = require('./events.js');
const { notImplemented, unsupportedFunction, unsupportedMethods } = require('./internal/unsupported.js');

const WHY = 'a Function cannot open UDP sockets';

class Socket extends EventEmitter {
  constructor() {
    super();
    throw notImplemented('new dgram.Socket()', WHY);
  }
}
unsupportedMethods(Socket, 'dgram.Socket', [
  '_bindState', '_handle', '_healthCheck', '_queue', '_receiving', '_reuseAddr', '_stopReceiving', 'addMembership',
  'addSourceSpecificMembership', 'address', 'bind', 'close', 'connect', 'disconnect', 'dropMembership',
  'dropSourceSpecificMembership', 'getRecvBufferSize', 'getSendBufferSize', 'getSendQueueCount', 'getSendQueueSize', 'ref',
  'remoteAddress', 'send', 'sendto', 'setBroadcast', 'setMulticastInterface', 'setMulticastLoopback', 'setMulticastTTL',
  'setRecvBufferSize', 'setSendBufferSize', 'setTTL', 'unref',
], WHY);

module.exports = {
  Socket,
  createSocket: unsupportedFunction('dgram', 'createSocket', WHY),
  _createSocketHandle: unsupportedFunction('dgram', '_createSocketHandle', WHY),
};
