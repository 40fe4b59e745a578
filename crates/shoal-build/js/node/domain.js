'use strict';
// node:domain (deprecated, still used by older frameworks) for Shoal
// Functions. Node routes an uncaught exception to the active domain through
// the process's uncaught-exception hook, which a Function's sandbox does
// not have; here run(), bind() and intercept() catch what their function
// throws and give it to the domain's 'error' listeners (rethrowing when
// there are none), and, as in Node, an emitter added to a domain (or made
// while one is active) sends the domain its unhandled 'error' events.
// Errors thrown later by callbacks a domain did not bind are not routed.
const EventEmitter = require('./events.js');
const { nodeError } = require('./internal/errors.js');

const stack = [];
exports._stack = stack;
exports.active = null;

function setDomainOf(target, domain) {
  Object.defineProperty(target, 'domain', { value: domain, configurable: true, enumerable: false, writable: true });
}

class Domain extends EventEmitter {
  constructor() {
    super();
    this.members = [];
  }
}
Domain.prototype.members = undefined;

// The error reaches the domain's listeners; false when it has none.
Domain.prototype._errorHandler = function _errorHandler(er) {
  if ((typeof er === 'object' && er !== null) || typeof er === 'function') {
    setDomainOf(er, this);
    er.domainThrown = true;
  }
  while (exports.active === this) this.exit();
  if (this.listenerCount('error') === 0) return false;
  return this.emit('error', er);
};

Domain.prototype.enter = function enter() {
  exports.active = process.domain = this;
  stack.push(this);
};

Domain.prototype.exit = function exit() {
  const index = stack.lastIndexOf(this);
  if (index === -1) return;
  stack.splice(index);
  exports.active = stack.length === 0 ? undefined : stack[stack.length - 1];
  process.domain = exports.active;
};

Domain.prototype.add = function add(ee) {
  if (ee.domain === this) return;
  if (ee.domain) ee.domain.remove(ee);
  if (this.domain && ee instanceof Domain) {
    for (let d = this.domain; d; d = d.domain) if (ee === d) return;
  }
  setDomainOf(ee, this);
  this.members.push(ee);
};

Domain.prototype.remove = function remove(ee) {
  ee.domain = null;
  const index = this.members.indexOf(ee);
  if (index !== -1) this.members.splice(index, 1);
};

// Calls fn in the domain; what it throws goes to the domain's listeners.
function runIn(domain, fn, thisArg, args) {
  domain.enter();
  try {
    const result = Reflect.apply(fn, thisArg, args);
    domain.exit();
    return result;
  } catch (err) {
    if (!domain._errorHandler(err)) throw err;
    return undefined;
  }
}

Domain.prototype.run = function run(fn, ...args) {
  return runIn(this, fn, this, args);
};

Domain.prototype.bind = function bind(cb) {
  const self = this;
  function runBound(...args) {
    return runIn(self, cb, this, args);
  }
  setDomainOf(runBound, this);
  return runBound;
};

// A callback whose first argument, when an Error, goes to the domain.
Domain.prototype.intercept = function intercept(cb) {
  const self = this;
  return function runIntercepted(first, ...rest) {
    if (first && first instanceof Error) {
      first.domainBound = cb;
      first.domainThrown = false;
      setDomainOf(first, self);
      self.emit('error', first);
      return undefined;
    }
    return runIn(self, cb, this, rest);
  };
};

exports.Domain = Domain;
exports.create = exports.createDomain = function createDomain() {
  return new Domain();
};

// As when Node loads node:domain: emitters made in an active domain belong
// to it, and an emitter's unhandled 'error' goes to its domain.
EventEmitter.usingDomains = true;
const eventInit = EventEmitter.init;
EventEmitter.init = function init(...args) {
  setDomainOf(this, null);
  if (exports.active && !(this instanceof Domain)) this.domain = exports.active;
  return Reflect.apply(eventInit, this, args);
};
const eventEmit = EventEmitter.prototype.emit;
EventEmitter.prototype.emit = function emit(...args) {
  const domain = this.domain;
  const type = args[0];
  if ((type === 'error' && this.listenerCount(type) > 0) || domain == null || this === process) {
    return Reflect.apply(eventEmit, this, args);
  }
  if (type !== 'error') {
    domain.enter();
    const result = Reflect.apply(eventEmit, this, args);
    domain.exit();
    return result;
  }
  const er = args.length > 1 && args[1] ? args[1] : nodeError(Error, 'ERR_UNHANDLED_ERROR', 'Unhandled error.');
  if (typeof er === 'object') {
    er.domainEmitter = this;
    setDomainOf(er, domain);
    er.domainThrown = false;
  }
  // Without listeners, the domain's own emit throws it, as in Node.
  domain.emit('error', er);
  return false;
};
