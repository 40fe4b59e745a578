'use strict';
// node:module for Shoal Functions. A Function's modules are bundled when
// it is built, so there is no module loader at run time: what packages use
// node:module for works on that basis. builtinModules and isBuiltin() are
// Node 22's; createRequire() gives a require() that resolves as Node's does
// against what Kyma's pod holds and returns the bundled modules, the JSON
// files of the Function and its packages, and the built-ins the Function
// bundles (internal/module-loader.js); Module#_compile() runs CommonJS
// source; the paths helpers compute what Node's do. Loading a file that is
// not in the bundle, loader hooks and compile caches are not available.
const builtinNames = require('./internal/builtin-names.js');
const loader = require('./internal/module-loader.js');
const { nodeError, invalidArgType, describeReceived } = require('./internal/errors.js');
const { notImplemented } = require('./internal/unsupported.js');
const path = require('./path.js');
const { fileURLToPath } = require('./url.js');

const { BUNDLED, isBuiltin, nodeModulePaths, globalPaths: currentGlobalPaths } = loader;

const builtinModules = [...builtinNames.builtinModules];
const globalPaths = currentGlobalPaths();

// ---------------------------------------------------------------- Module

const kParent = Symbol('kModuleParent');

function Module(id = '', parent = undefined) {
  this.id = id;
  this.path = path.dirname(id);
  this.exports = {};
  this[kParent] = parent;
  if (parent && Array.isArray(parent.children)) parent.children.push(this);
  this.filename = null;
  this.loaded = false;
  this.children = [];
}

Module.prototype.require = function require(id) {
  return loader.requireFor(this.filename || this.id || loader.HANDLER)(id);
};

Module.prototype.load = function load(filename) {
  throw notImplemented(`module.load('${filename}')`, BUNDLED);
};

// Runs CommonJS source as the module `this` (require-from-string and
// friends use this).
Module.prototype._compile = function _compile(content, filename) {
  // eslint-disable-next-line no-new-func
  const wrapper = new Function('exports', 'require', 'module', '__filename', '__dirname', content);
  const require = loader.requireFor(filename, this);
  return wrapper.call(this.exports, this.exports, require, this, filename, path.dirname(filename));
};

Object.defineProperty(Module.prototype, 'parent', {
  get() {
    return this[kParent];
  },
  set(value) {
    this[kParent] = value;
  },
  configurable: true,
});
Object.defineProperty(Module.prototype, 'isPreloading', { get: () => false, configurable: true });

function createRequire(filename) {
  let file = filename;
  if (typeof filename === 'object' && filename !== null && typeof filename.href === 'string') file = filename.href;
  if (typeof file === 'string' && file.startsWith('file:')) {
    file = fileURLToPath(file);
  } else if (typeof file !== 'string' || !path.isAbsolute(file)) {
    throw nodeError(
      TypeError,
      'ERR_INVALID_ARG_VALUE',
      `The argument 'filename' must be a file URL object, file URL string, or absolute path string. ${describeReceived(filename).replace(/^Received type \w+ \((.*)\)$/, 'Received $1')}`,
    );
  }
  return loader.requireFor(file);
}

// Source maps: Node's class reads a map given to it; finding entries needs
// the mappings decoded, which Shoal does not do.
class SourceMap {
  #payload;
  #lineLengths;

  constructor(payload, { lineLengths } = {}) {
    this.#payload = JSON.parse(JSON.stringify(payload));
    this.#lineLengths = lineLengths;
  }

  get payload() {
    return this.#payload;
  }

  get lineLengths() {
    return this.#lineLengths;
  }

  findEntry() {
    throw notImplemented('module.SourceMap#findEntry()', 'Shoal does not decode source maps');
  }

  findOrigin() {
    throw notImplemented('module.SourceMap#findOrigin()', 'Shoal does not decode source maps');
  }
}

const constants = Object.freeze(Object.assign(Object.create(null), {
  compileCacheStatus: Object.freeze(Object.assign(Object.create(null), { FAILED: 0, ENABLED: 1, ALREADY_ENABLED: 2, DISABLED: 3 })),
}));

const unbundled = (name) => () => {
  throw notImplemented(`module.${name}()`, BUNDLED);
};

const sourceMapsSupport = { enabled: false, nodeModules: false, generatedCode: false };

Object.assign(Module, {
  Module,
  SourceMap,
  _cache: loader.cache,
  _pathCache: Object.create(null),
  _extensions: loader.extensions,
  // Node prints these with NODE_DEBUG=module; Shoal has nothing to print.
  _debug() {},
  _findPath(request, paths) {
    try {
      return loader.resolve(request, loader.HANDLER, { paths: paths || [] });
    } catch {
      return false;
    }
  },
  _initPaths() {},
  _load: (request, parent) => loader.requireFor((parent && parent.filename) || loader.HANDLER)(request),
  _nodeModulePaths: nodeModulePaths,
  _preloadModules(requests) {
    if (Array.isArray(requests) && requests.length) throw notImplemented('module._preloadModules()', BUNDLED);
  },
  _readPackage: unbundled('_readPackage'),
  _resolveFilename(request, parent, isMain, options) {
    return loader.resolve(request, (parent && parent.filename) || loader.HANDLER, options);
  },
  _resolveLookupPaths: (request, parent) => (isBuiltin(request) ? null : nodeModulePaths(parent && parent.path ? parent.path : '/')),
  _stat: unbundled('_stat'),
  builtinModules,
  constants,
  createRequire,
  // Shoal compiles a Function once, when it is built: no cache to enable.
  enableCompileCache: () => ({ status: constants.compileCacheStatus.FAILED, message: `compile caches are not available: ${BUNDLED}` }),
  findPackageJSON: unbundled('findPackageJSON'),
  findSourceMap: () => undefined,
  flushCompileCache() {},
  getCompileCacheDir: () => undefined,
  getSourceMapsSupport: () => Object.assign(Object.create(null), sourceMapsSupport),
  globalPaths,
  isBuiltin,
  register: unbundled('register'),
  registerHooks: unbundled('registerHooks'),
  runMain: unbundled('runMain'),
  setSourceMapsSupport(enabled) {
    if (typeof enabled !== 'boolean') throw invalidArgType('enabled', 'boolean', enabled);
    if (enabled) throw notImplemented('module.setSourceMapsSupport(true)', 'Shoal does not apply source maps to stack traces');
  },
  stripTypeScriptTypes() {
    throw notImplemented('module.stripTypeScriptTypes()', 'Shoal has no TypeScript transform at run time');
  },
  // Imports of built-ins read their exports live: nothing to sync.
  syncBuiltinESMExports() {},
  wrap: (script) => Module.wrapper[0] + script + Module.wrapper[1],
  wrapper: ['(function (exports, require, module, __filename, __dirname) { ', '\n});'],
});

module.exports = Module;
