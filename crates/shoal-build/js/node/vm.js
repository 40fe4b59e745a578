'use strict';
// node:vm for Shoal Functions: code runs in the Function's own context
// (the engine has one realm per sandbox, and no API to make another).
// runInThisContext() and Script#runInThisContext() evaluate code as a
// global script (an indirect eval: `var` and function declarations become
// globals, as in Node); compileFunction() makes a function in this
// context. A "context" (createContext, runInNewContext, runInContext) is
// the object the code sees as its global scope and `this`: the code reads
// and assigns its properties, and what it does not find there it finds in
// the Function's globals (Node's context has its own built-ins instead);
// `var` declarations stay the script's own, not the object's.
const { invalidArgType } = require('./internal/errors.js');
const { notImplemented } = require('./internal/unsupported.js');

const ONE_CONTEXT = "a Function's engine has one context and cannot make another";
const globalEval = eval;
const contexts = new WeakSet();

// Sloppy code (the Function constructor's), so that `with` works: the
// context's properties are the script's scope and `this`.
// eslint-disable-next-line no-new-func
const runWithScope = new Function('__shoal_vm_context__', '__shoal_vm_code__', 'with (__shoal_vm_context__) { return eval(__shoal_vm_code__); }');

function contextify(contextObject) {
  if (contextObject === undefined || contextObject === module.exports.constants.DONT_CONTEXTIFY) contextObject = {};
  if (contextObject === null || typeof contextObject !== 'object') throw invalidArgType('contextObject', 'Object', contextObject);
  contexts.add(contextObject);
  return contextObject;
}

function runInContextObject(code, contextifiedObject) {
  if (contextifiedObject === null || typeof contextifiedObject !== 'object' || !contexts.has(contextifiedObject)) {
    throw invalidArgType('contextifiedObject', 'vm.Context', contextifiedObject);
  }
  return runWithScope.call(contextifiedObject, contextifiedObject, code);
}

function validateString(value, name) {
  if (typeof value !== 'string') throw invalidArgType(name, 'string', value);
}

// A //# sourceMappingURL= comment, as V8 reports it.
function sourceMapURL(code) {
  const match = /\/\/[#@] ?sourceMappingURL=([^\s'"]*)\s*$/m.exec(code);
  return match ? match[1] : undefined;
}

class Script {
  #code;

  constructor(code, options = {}) {
    code = `${code}`;
    if (typeof options === 'string') options = { filename: options };
    else if (options === null || typeof options !== 'object') throw invalidArgType('options', 'object', options);
    // Compiled at once, so a syntax error is thrown here as in Node (the
    // engine parses it as a function body, which also allows `return`).
    // eslint-disable-next-line no-new-func
    new Function(code);
    this.#code = code;
    this.sourceURL = undefined;
    this.sourceMapURL = sourceMapURL(code);
  }

  runInThisContext() {
    return globalEval(this.#code);
  }

  runInContext(contextifiedObject) {
    return runInContextObject(this.#code, contextifiedObject);
  }

  runInNewContext(contextObject) {
    return runInContextObject(this.#code, contextify(contextObject));
  }
}

function createScript(code, options) {
  return new Script(code, options);
}

function runInThisContext(code, options) {
  return createScript(code, options).runInThisContext();
}

function isContext(object) {
  if (object === null || typeof object !== 'object') throw invalidArgType('object', 'object', object);
  return contexts.has(object);
}

function compileFunction(code, params = [], options = {}) {
  validateString(code, 'code');
  if (!Array.isArray(params)) throw invalidArgType('params', 'Array', params);
  params.forEach((param, i) => validateString(param, `params[${i}]`));
  if (options === null || typeof options !== 'object') throw invalidArgType('options', 'object', options);
  if (options.parsingContext !== undefined) throw notImplemented('vm.compileFunction() with a parsingContext', ONE_CONTEXT);
  if (Array.isArray(options.contextExtensions) && options.contextExtensions.length > 0) {
    throw notImplemented('vm.compileFunction() with contextExtensions', ONE_CONTEXT);
  }
  // eslint-disable-next-line no-new-func
  return new Function(...params, code);
}

module.exports = {
  Script,
  createContext: (contextObject) => contextify(contextObject),
  createScript,
  runInContext: (code, contextifiedObject, options) => createScript(code, options).runInContext(contextifiedObject),
  runInNewContext: (code, contextObject, options) => createScript(code, options).runInNewContext(contextObject),
  runInThisContext,
  isContext,
  compileFunction,
  measureMemory() {
    return Promise.reject(notImplemented('vm.measureMemory()', "Shoal's engine does not measure its memory"));
  },
  constants: Object.freeze(Object.assign(Object.create(null), {
    USE_MAIN_CONTEXT_DEFAULT_LOADER: Symbol('vm_dynamic_import_main_context_default'),
    DONT_CONTEXTIFY: Symbol('vm_context_no_contextify'),
  })),
};
