'use strict';
// node:worker_threads for Shoal Functions: a Function is the main thread
// and cannot start others. The module is what a Node main thread sees:
// isMainThread, no parentPort or workerData, thread 0; the message
// channels work within the Function (internal/messaging.js), as does the
// environment data; new Worker() throws.
const EventEmitter = require('./events.js');
const { MessageChannel, MessagePort, BroadcastChannel, receiveMessage } = require('./internal/messaging.js');
const { nodeError, invalidArgType, outOfRange } = require('./internal/errors.js');
const { notImplemented, unsupportedMethods } = require('./internal/unsupported.js');

const WHY = 'a Function cannot start threads';

class Worker extends EventEmitter {
  constructor() {
    super();
    throw notImplemented('new worker_threads.Worker()', WHY);
  }
}
unsupportedMethods(Worker, 'worker_threads.Worker', [
  'cpuUsage', 'getHeapSnapshot', 'getHeapStatistics', 'postMessage', 'ref', 'resourceLimits', 'startCpuProfile', 'stderr',
  'stdin', 'stdout', 'terminate', 'threadId', 'threadName', 'unref',
], WHY);

function receiveMessageOnPort(port) {
  if (!(port instanceof MessagePort)) {
    throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "port" argument must be a MessagePort instance');
  }
  return receiveMessage(port);
}

// Marks only: the structured clone of postMessage does not consult them.
const untransferable = new WeakSet();
const uncloneable = new WeakSet();
const isObject = (value) => (typeof value === 'object' && value !== null) || typeof value === 'function';

const environmentData = new Map();

// No thread but this one: messages to any other find no listener.
async function postMessageToThread(threadId, value, transferList, timeout) {
  if (typeof transferList === 'number' && timeout === undefined) timeout = transferList;
  if (timeout !== undefined) {
    if (typeof timeout !== 'number') throw invalidArgType('timeout', 'number', timeout);
    if (timeout < 0 || Number.isNaN(timeout)) throw outOfRange('timeout', '>= 0', timeout);
  }
  if (threadId === 0) throw nodeError(Error, 'ERR_WORKER_MESSAGING_SAME_THREAD', 'Cannot sent a message to the same thread');
  throw nodeError(Error, 'ERR_WORKER_MESSAGING_FAILED', 'Cannot find the destination thread or listener');
}

module.exports = {
  isInternalThread: false,
  isMainThread: true,
  MessagePort,
  MessageChannel,
  markAsUncloneable(value) {
    if (isObject(value)) uncloneable.add(value);
  },
  markAsUntransferable(value) {
    if (isObject(value)) untransferable.add(value);
  },
  isMarkedAsUntransferable: (value) => isObject(value) && untransferable.has(value),
  moveMessagePortToContext() {
    throw notImplemented('worker_threads.moveMessagePortToContext()', 'a Function has one context (see node:vm)');
  },
  receiveMessageOnPort,
  resourceLimits: {},
  postMessageToThread,
  threadId: 0,
  threadName: '',
  SHARE_ENV: Symbol.for('nodejs.worker_threads.SHARE_ENV'),
  Worker,
  parentPort: null,
  workerData: null,
  BroadcastChannel,
  setEnvironmentData(key, value) {
    if (value === undefined) environmentData.delete(key);
    else environmentData.set(key, value);
  },
  getEnvironmentData: (key) => environmentData.get(key),
};
