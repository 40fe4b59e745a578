'use strict';
// node:inspector for Shoal Functions: the engine has no inspector, so the
// module is Node's as in a process where none was started: url() is
// undefined, Network events and inspector.console messages reach no front
// end, waitForDebugger() throws ERR_INSPECTOR_NOT_ACTIVE, and starting the
// inspector or connecting a Session throws ERR_INSPECTOR_NOT_AVAILABLE
// (Node's code for a build without one).
const EventEmitter = require('./events.js');
const { nodeError, validateFunction, invalidArgType } = require('./internal/errors.js');

const notAvailable = () => nodeError(Error, 'ERR_INSPECTOR_NOT_AVAILABLE', 'Inspector is not available');

class Session extends EventEmitter {
  connect() {
    throw notAvailable();
  }

  connectToMainThread() {
    // Node's answer on the main thread, which a Function always runs on.
    throw nodeError(Error, 'ERR_INSPECTOR_NOT_WORKER', 'Current thread is not a worker');
  }

  post(method, params, callback) {
    if (typeof method !== 'string') throw invalidArgType('method', 'string', method);
    if (!callback && typeof params === 'function') callback = params;
    else if (callback !== undefined) validateFunction(callback, 'callback');
    // A Session can never connect here.
    throw nodeError(Error, 'ERR_INSPECTOR_NOT_CONNECTED', 'Session is not connected');
  }

  disconnect() {}
}

// Messages for an inspector console nobody has attached: Node drops them too.
const consoleMethods = [
  'debug', 'error', 'info', 'log', 'warn', 'dir', 'dirxml', 'table', 'trace', 'group', 'groupCollapsed', 'groupEnd',
  'clear', 'count', 'countReset', 'assert', 'profile', 'profileEnd', 'time', 'timeLog', 'timeEnd', 'timeStamp', 'context',
];
const inspectorConsole = {};
for (const name of consoleMethods) inspectorConsole[name] = () => {};

// Broadcast to the front ends connected for network inspection: none.
const broadcast = () => {};
const Network = {
  requestWillBeSent: broadcast,
  responseReceived: broadcast,
  loadingFinished: broadcast,
  loadingFailed: broadcast,
  dataSent: broadcast,
  dataReceived: broadcast,
};
const NetworkResources = { put: broadcast };

module.exports = {
  open() {
    throw notAvailable();
  },
  close() {},
  url: () => undefined,
  waitForDebugger() {
    throw nodeError(Error, 'ERR_INSPECTOR_NOT_ACTIVE', 'Inspector is not active');
  },
  console: inspectorConsole,
  Session,
  Network,
  NetworkResources,
};
