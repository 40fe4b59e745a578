'use strict';
// node:child_process for Shoal Functions: a Function runs in a WebAssembly
// sandbox with no processes to start. Packages require the module for
// platform probes and optional tools; it loads, and ChildProcess is a real
// class (an EventEmitter, as an unspawned child is in Node). Starting a
// process fails the way Node reports a process it could not start: the
// asynchronous forms (spawn, exec, execFile, fork) return a ChildProcess
// that emits 'error' (and call exec's callback with it) on the next tick,
// so a package that runs `git` while loading gets its error callback, not
// a throw; spawnSync returns it in `error`; execSync and execFileSync
// throw it. The error is ERR_METHOD_NOT_IMPLEMENTED, naming the call.
const EventEmitter = require('./events.js');
const { notImplemented } = require('./internal/unsupported.js');

const WHY = 'a Function cannot start processes';

class ChildProcess extends EventEmitter {
  constructor() {
    super();
    // The fields Node gives a ChildProcess before spawn().
    this._closesNeeded = 1;
    this._closesGot = 0;
    this.connected = false;
    this.signalCode = null;
    this.exitCode = null;
    this.killed = false;
    this.spawnfile = null;
    this._handle = null;
  }

  spawn() {
    throw notImplemented('child_process.ChildProcess#spawn()', WHY);
  }

  // Without a process these do what Node's do for a child that has exited.
  kill() {
    return false;
  }

  ref() {}

  unref() {}
}

/** A ChildProcess for `file` that failed to start: 'error', then 'close'. */
function failedChild(call, file, args, callback) {
  const child = new ChildProcess();
  child.spawnfile = file;
  child.spawnargs = [file, ...args];
  child.stdin = null;
  child.stdout = null;
  child.stderr = null;
  child.stdio = [null, null, null];
  const error = notImplemented(`child_process.${call}()`, WHY);
  Object.assign(error, { path: file, spawnargs: args, cmd: [file, ...args].join(' ') });
  process.nextTick(() => {
    if (callback) callback(error, '', '');
    if (child.listenerCount('error') > 0) child.emit('error', error);
    // Node's process would end on the unhandled 'error'; a Function logs it.
    else if (!callback) console.error(`Unhandled 'error' event: ${error.message}`);
    child.emit('close', -2, null);
  });
  return child;
}

const lastFunction = (args) => (typeof args[args.length - 1] === 'function' ? args[args.length - 1] : undefined);
const argList = (args) => (Array.isArray(args[0]) ? args[0].map(String) : []);

function spawnSync(file, args) {
  const error = notImplemented('child_process.spawnSync()', WHY);
  Object.assign(error, { path: file, spawnargs: Array.isArray(args) ? args : [] });
  return { pid: 0, output: null, stdout: null, stderr: null, status: null, signal: null, error };
}

const throwing = (name) => {
  const fn = function () {
    throw notImplemented(`child_process.${name}()`, WHY);
  };
  Object.defineProperty(fn, 'name', { value: name });
  return fn;
};

module.exports = {
  ChildProcess,
  _forkChild: throwing('_forkChild'),
  exec: (command, ...rest) => failedChild('exec', '/bin/sh', ['-c', String(command)], lastFunction(rest)),
  execFile: (file, ...rest) => failedChild('execFile', String(file), argList(rest), lastFunction(rest)),
  execFileSync: throwing('execFileSync'),
  execSync: throwing('execSync'),
  fork: (modulePath, ...rest) => failedChild('fork', process.execPath || 'node', [String(modulePath), ...argList(rest)]),
  spawn: (file, ...rest) => failedChild('spawn', String(file), argList(rest)),
  spawnSync,
};
