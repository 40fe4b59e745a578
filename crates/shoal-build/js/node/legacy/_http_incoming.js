'use strict';
// Node's old name for http.IncomingMessage, with the helpers Node's server
// uses to pause and resume a socket.
function readStart(socket) {
  if (socket && !socket._paused && socket.readable) socket.resume();
}

function readStop(socket) {
  if (socket) socket.pause();
}

module.exports = { IncomingMessage: require('../http.js').IncomingMessage, readStart, readStop };
