'use strict';
// node:cluster for Shoal Functions: a Function is one process and cannot
// fork workers (Shoal runs more sandboxes as requests need them). The
// module is the primary's, as in a Node process started alone: isPrimary,
// no workers, settings and events; fork() throws.
const EventEmitter = require('./events.js');
const { notImplemented } = require('./internal/unsupported.js');
const { nodeError } = require('./internal/errors.js');

const WHY = 'a Function runs as one process; Shoal starts more sandboxes as requests need them';

class Worker extends EventEmitter {
  constructor() {
    super();
    throw notImplemented('new cluster.Worker()', WHY);
  }
}
for (const name of ['destroy', 'disconnect', 'isConnected', 'isDead', 'kill', 'send']) {
  Object.defineProperty(Worker.prototype, name, {
    value() {
      throw notImplemented(`cluster.Worker#${name}()`, WHY);
    },
    writable: true,
    configurable: true,
  });
}

const cluster = new EventEmitter();
const SCHED_NONE = 1;
const SCHED_RR = 2;

function setupPrimary(options) {
  if (options !== undefined && (options === null || typeof options !== 'object')) {
    throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "options" argument must be of type object.');
  }
  // Node keeps the settings of the first setup and merges later ones in.
  Object.assign(cluster.settings, { args: [], exec: undefined, execArgv: [], silent: false }, cluster.settings, options);
  cluster.emit('setup', cluster.settings);
}

Object.assign(cluster, {
  isWorker: false,
  isMaster: true,
  isPrimary: true,
  Worker,
  workers: {},
  settings: {},
  SCHED_NONE,
  SCHED_RR,
  schedulingPolicy: SCHED_RR,
  setupPrimary,
  setupMaster: setupPrimary,
  fork() {
    throw notImplemented('cluster.fork()', WHY);
  },
  // No workers to disconnect: done at once, as Node is.
  disconnect(callback) {
    if (typeof callback === 'function') cluster.once('disconnect', callback);
    process.nextTick(() => cluster.emit('disconnect'));
  },
});

module.exports = cluster;
