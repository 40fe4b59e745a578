'use strict';
// require() at run time, for what esbuild cannot bundle ahead: a require()
// with a computed name, require.resolve(), createRequire(), a package's
// JSON read by require(path.join(__dirname, ...)). A Function's modules
// are bundled when it is built, so there is no module loader reading files:
// this one resolves a request the way Node does, against the files Kyma's
// pod would have under /usr/src/app/function (the bundle's modules,
// shoal:bundled-modules, and the files fs can read, shoal:function-files),
// and returns the bundled module's exports. The bundler (../../bundle.mjs)
// fills both maps; a module that is not in the bundle (nothing requires it
// by a literal name) cannot be loaded and says so.
const path = require('../path.js');
const builtinNames = require('./builtin-names.js');
const { nodeError, invalidArgType } = require('./errors.js');
const { notImplemented } = require('./unsupported.js');

const FUNCTION_DIR = '/usr/src/app/function';
const HANDLER = `${FUNCTION_DIR}/handler.js`;
const BUNDLED = 'a Function\'s modules are bundled when it is built; there is no module loader at run time';
// What Node 22.12+ matches in a package's "exports" for require().
const REQUIRE_CONDITIONS = new Set(['node', 'require', 'module-sync', 'default']);

const schemeOnly = new Set(builtinNames.schemeOnly);
const bareBuiltins = new Set(builtinNames.builtinModules);

function isBuiltin(name) {
  if (typeof name !== 'string') return false;
  if (name.startsWith('node:')) {
    const bare = name.slice(5);
    return bareBuiltins.has(bare) || schemeOnly.has(bare);
  }
  return bareBuiltins.has(name);
}

// Module._cache and Module._extensions (node:module shares these objects).
const cache = Object.create(null);
const unbundled = (name) => () => {
  throw notImplemented(`module.${name}()`, BUNDLED);
};
const extensions = Object.assign(Object.create(null), {
  '.js': unbundled("_extensions['.js']"),
  '.json': unbundled("_extensions['.json']"),
  '.node': () => {
    throw notImplemented("module._extensions['.node']()", 'a Function cannot load native addons');
  },
});

function moduleNotFound(request, requireStack, why = '') {
  const stack = requireStack.length ? `\nRequire stack:\n- ${requireStack.join('\n- ')}` : '';
  const err = nodeError(Error, 'MODULE_NOT_FOUND', `Cannot find module '${request}'${why ? `: ${why}` : ''}${stack}`);
  err.requireStack = requireStack;
  return err;
}

// ---------------------------------------------------------------- what the pod holds

let modules = null;
let files = null;
let dirs = null;
function bundledModules() {
  if (modules === null) modules = require('shoal:bundled-modules');
  return modules;
}
function podFiles() {
  if (files === null) files = require('shoal:function-files');
  return files;
}
// Every folder that holds a bundled module or a file.
function podDirs() {
  if (dirs !== null) return dirs;
  dirs = new Set(['/']);
  for (const file of [...Object.keys(bundledModules()), ...Object.keys(podFiles())]) {
    for (let p = path.dirname(file); !dirs.has(p); p = path.dirname(p)) dirs.add(p);
  }
  return dirs;
}

const isFile = (p) => Object.hasOwn(bundledModules(), p) || Object.hasOwn(podFiles(), p);
const isDir = (p) => podDirs().has(p);

function readText(p) {
  const entry = podFiles()[p];
  if (typeof entry === 'string') return entry;
  if (entry && typeof entry.b === 'string') return require('../buffer.js').Buffer.from(entry.b, 'base64').toString('utf8');
  return null;
}

const packageJsons = new Map();
function readPackageJson(dir) {
  if (packageJsons.has(dir)) return packageJsons.get(dir);
  let parsed = null;
  const text = readText(`${dir}/package.json`);
  if (text !== null) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
  }
  packageJsons.set(dir, parsed);
  return parsed;
}

// ---------------------------------------------------------------- resolution

// LOAD_AS_FILE and LOAD_AS_DIRECTORY of Node's algorithm.
function tryFile(p) {
  if (isFile(p)) return p;
  for (const ext of ['.js', '.json', '.node']) if (isFile(p + ext)) return p + ext;
  return null;
}
function tryDirectory(p) {
  if (!isDir(p)) return null;
  const pkg = readPackageJson(p);
  if (pkg && typeof pkg.main === 'string' && pkg.main) {
    const main = path.resolve(p, pkg.main);
    const found = tryFile(main) || tryIndex(main);
    if (found) return found;
  }
  return tryIndex(p);
}
function tryIndex(p) {
  for (const ext of ['.js', '.json', '.node']) if (isFile(`${p}/index${ext}`)) return `${p}/index${ext}`;
  return null;
}

// A package's "exports" for `subpath` ('.' or './x'), with require()'s
// conditions; undefined when it exports nothing there.
function resolveExports(pkgDir, subpath, exports) {
  if (typeof exports === 'string' || Array.isArray(exports) || (exports && !Object.keys(exports).some((k) => k.startsWith('.')))) {
    exports = { '.': exports };
  }
  if (!exports || typeof exports !== 'object') return undefined;
  if (Object.hasOwn(exports, subpath) && !subpath.includes('*')) return target(pkgDir, exports[subpath], '');
  let best = null;
  for (const key of Object.keys(exports)) {
    const star = key.indexOf('*');
    if (star < 0) continue;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    if (subpath.startsWith(prefix) && subpath.length >= key.length && subpath.endsWith(suffix)) {
      if (!best || prefix.length > best.prefix.length) best = { key, prefix, match: subpath.slice(prefix.length, subpath.length - suffix.length) };
    }
  }
  if (best) return target(pkgDir, exports[best.key], best.match);
  return undefined;
}
function target(pkgDir, value, match) {
  if (typeof value === 'string') return path.join(pkgDir, value.replace(/\*/g, match));
  if (Array.isArray(value)) {
    for (const v of value) {
      const t = target(pkgDir, v, match);
      if (t) return t;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [condition, v] of Object.entries(value)) {
      if (!REQUIRE_CONDITIONS.has(condition)) continue;
      const t = target(pkgDir, v, match);
      if (t !== undefined && t !== null) return t;
    }
  }
  return null;
}

function nodeModulePaths(from) {
  from = path.resolve(from);
  if (from === '/') return ['/node_modules'];
  const paths = [];
  const parts = from.split('/');
  for (let i = parts.length; i > 1; i--) {
    if (parts[i - 1] === 'node_modules') continue;
    paths.push(`${parts.slice(0, i).join('/')}/node_modules`);
  }
  paths.push('/node_modules');
  return paths;
}

/** The file `request` names from folder `fromDir`, or null. */
function resolveFile(request, fromDir, lookupPaths) {
  if (request === '.' || request === '..' || /^\.{0,2}\//.test(request)) {
    const base = path.resolve(fromDir, request);
    return (request.endsWith('/') ? null : tryFile(base)) || tryDirectory(base);
  }
  const scoped = request.startsWith('@');
  const parts = request.split('/');
  const name = parts.slice(0, scoped ? 2 : 1).join('/');
  const rest = parts.slice(scoped ? 2 : 1).join('/');
  for (const dir of lookupPaths || nodeModulePaths(fromDir)) {
    const pkgDir = `${dir}/${name}`;
    if (!isDir(pkgDir)) continue;
    const pkg = readPackageJson(pkgDir);
    if (pkg && pkg.exports !== undefined && pkg.exports !== null) {
      const file = resolveExports(pkgDir, rest ? `./${rest}` : '.', pkg.exports);
      if (file === undefined || file === null) {
        throw nodeError(
          Error,
          'ERR_PACKAGE_PATH_NOT_EXPORTED',
          rest
            ? `Package subpath './${rest}' is not defined by "exports" in ${pkgDir}/package.json`
            : `No "exports" main defined in ${pkgDir}/package.json`,
        );
      }
      if (isFile(file)) return file;
      continue;
    }
    const found = rest ? tryFile(`${pkgDir}/${rest}`) || tryDirectory(`${pkgDir}/${rest}`) : tryDirectory(pkgDir);
    if (found) return found;
  }
  return null;
}

function resolve(request, parentFile, options) {
  if (typeof request !== 'string') throw invalidArgType('request', 'string', request);
  if (isBuiltin(request)) return request;
  let lookup;
  if (options && options.paths !== undefined) {
    if (!Array.isArray(options.paths)) throw invalidArgType('options.paths', 'Array', options.paths);
    lookup = options.paths;
  }
  let file = null;
  if (lookup) {
    for (const base of lookup) {
      const from = path.resolve(String(base));
      file = resolveFile(request, from, /^\.{0,2}\//.test(request) ? undefined : nodeModulePaths(from));
      if (file) break;
    }
  } else {
    file = resolveFile(request, path.dirname(parentFile));
  }
  if (!file) throw moduleNotFound(request, [parentFile]);
  return file;
}

// ---------------------------------------------------------------- loading

function loadBuiltin(request, parentFile) {
  const builtins = require('shoal:bundled-builtins');
  const bare = request.startsWith('node:') ? request.slice(5) : request;
  if (Object.hasOwn(builtins, bare)) return builtins[bare];
  throw notImplemented(
    `require('${request}') at run time`,
    `the build bundles the built-ins a Function names in its code; add require('${request}') to ${parentFile === HANDLER ? 'it' : 'the Function'}`,
  );
}

function load(file, request, parentFile) {
  if (cache[file]) return cache[file].exports;
  const bundled = bundledModules();
  let exports;
  if (Object.hasOwn(bundled, file)) {
    exports = bundled[file]();
  } else if (file.endsWith('.json')) {
    const text = readText(file);
    if (text === null) throw moduleNotFound(request, [parentFile], `${file} is not bundled`);
    try {
      exports = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    } catch (err) {
      err.message = `${file}: ${err.message}`;
      throw err;
    }
  } else {
    throw moduleNotFound(
      request,
      [parentFile],
      `${file} is in the Function's packages but not in its bundle (${BUNDLED}: only modules some code requires by a literal name are bundled)`,
    );
  }
  const entry = new LoadedModule(file, exports);
  cache[file] = entry;
  return exports;
}

// What require.cache holds for a module loaded here.
function LoadedModule(filename, exports) {
  this.id = filename;
  this.path = path.dirname(filename);
  this.exports = exports;
  this.filename = filename;
  this.loaded = true;
  this.children = [];
  this.paths = nodeModulePaths(this.path);
}

/** The require() of the module at `filename` (a path in the pod). */
function requireFor(filename, module = undefined) {
  const require = function require(id) {
    if (typeof id !== 'string') throw invalidArgType('id', 'string', id);
    if (id === '') throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', "The argument 'id' must be a non-empty string. Received ''");
    if (isBuiltin(id)) return loadBuiltin(id, filename);
    const file = resolve(id, filename);
    return load(file, id, filename);
  };
  require.resolve = function resolveRequest(request, options) {
    return resolve(request, filename, options);
  };
  require.resolve.paths = function paths(request) {
    if (typeof request !== 'string') throw invalidArgType('request', 'string', request);
    if (isBuiltin(request)) return null;
    if (/^\.{0,2}\//.test(request)) return [path.dirname(filename)];
    return [...nodeModulePaths(path.dirname(filename)), ...globalPaths()];
  };
  // Kyma's runtime imports the handler as an ES module: no CommonJS main.
  require.main = undefined;
  require.extensions = extensions;
  require.cache = cache;
  if (module !== undefined) module.require = require;
  return require;
}

function globalPaths() {
  const home = (typeof process !== 'undefined' && process.env && process.env.HOME) || '';
  const paths = home ? [path.resolve(home, '.node_modules'), path.resolve(home, '.node_libraries')] : [];
  // Node's prefix in Kyma's images.
  paths.push('/usr/local/lib/node');
  return paths;
}

// The handler's module, which every package module was (transitively)
// required from; Kyma's runtime imports the handler, so it has no parent.
let handlerModule = null;
function parentModule() {
  if (handlerModule === null) handlerModule = new LoadedModule(HANDLER, {});
  return handlerModule;
}

/**
 * Completes the `module` esbuild gives a bundled CommonJS module with
 * Node's fields (id, filename, paths, parent, require...), for modules
 * that use them (the bundler adds the call).
 */
function initModule(module, filename) {
  if (!module || typeof module !== 'object') return;
  const dir = path.dirname(filename);
  module.id = filename;
  module.path = dir;
  module.filename = filename;
  module.loaded = false;
  module.children = [];
  module.paths = nodeModulePaths(dir);
  if (filename !== HANDLER) {
    Object.defineProperty(module, 'parent', { value: parentModule(), writable: true, configurable: true, enumerable: false });
  }
  requireFor(filename, module);
}

/**
 * Runs a CommonJS module compiled now from its source, with Node's module
 * wrapper, by the Function constructor: sloppy as Node runs a module
 * without "use strict", and with its functions' source text (the bundler
 * does this for the modules that need it, bundler/compiled-at-run-time.mjs).
 * `literal` holds the require()s esbuild bundled, by name; `globals` the
 * injected globals the code names.
 */
function runFromSource(module, filename, literal, globals, source) {
  initModule(module, filename);
  const runtime = module.require;
  const require = function require(id) {
    return Object.hasOwn(literal, id) ? literal[id]() : runtime(id);
  };
  Object.assign(require, { resolve: runtime.resolve, main: runtime.main, extensions: runtime.extensions, cache: runtime.cache });
  module.require = require;
  const names = Object.keys(globals);
  // eslint-disable-next-line no-new-func
  const wrapper = new Function('exports', 'require', 'module', '__filename', '__dirname', ...names, `${source}\n//# sourceURL=${filename}`);
  wrapper.call(module.exports, module.exports, require, module, filename, path.dirname(filename), ...names.map((n) => globals[n]));
}

/** import.meta.resolve() of the ES module at `url`. */
function resolveURL(specifier, url) {
  const { fileURLToPath, pathToFileURL } = require('../url.js');
  if (isBuiltin(specifier)) return specifier.startsWith('node:') ? specifier : `node:${specifier}`;
  return pathToFileURL(resolve(specifier, fileURLToPath(url))).href;
}

/**
 * Makes esbuild's require shim (its `__require`, for a require() it could
 * not bundle) find a `require`: the handler's, as its folder is the one
 * the bundle lives in. Not enumerable, as Node has no global require.
 */
function installGlobalRequire() {
  if (Object.hasOwn(globalThis, 'require')) return;
  Object.defineProperty(globalThis, 'require', { value: requireFor(HANDLER), writable: true, configurable: true, enumerable: false });
}

/**
 * Puts this module on globalThis (not enumerable) for the bundler's
 * headers in CommonJS modules that name their own `require`.
 */
function installLoaderGlobal() {
  if (!Object.hasOwn(globalThis, '__shoal_module_loader')) {
    Object.defineProperty(globalThis, '__shoal_module_loader', { value: module.exports, writable: true, configurable: true, enumerable: false });
  }
}

module.exports = {
  FUNCTION_DIR,
  HANDLER,
  BUNDLED,
  cache,
  extensions,
  isBuiltin,
  moduleNotFound,
  nodeModulePaths,
  globalPaths,
  resolve,
  requireFor,
  initModule,
  runFromSource,
  resolveURL,
  installGlobalRequire,
  installLoaderGlobal,
  loadBuiltin,
};
