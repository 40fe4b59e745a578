// Records the export shape of every Node.js built-in module under Node 22
// (Kyma's oldest nodejs runtime), for the shape checks of Shoal's modules
// (builtin-shapes.test.mjs) and the build test that requires them all
// (tests/builds.rs):
//
//   .ci/node/22/bin/node tests/node-modules/gen-builtin-shapes.mjs > tests/node-modules/builtin-shapes.json
//
// The names are Node's own: `require('module').builtinModules`, plus the
// modules Node loads only with the `node:` prefix (node:sqlite, node:test,
// ...), read from Node's list of built-in sources.
//
// A module's shape: `keys`, each own property of module.exports (enumerable
// or not, string-keyed) and its typeof; `classes`, for each exported
// function with methods on its prototype, those method names (what `extends`
// and `instanceof` code relies on); `namespaces`, for each exported plain
// object holding functions (dns.promises, fs.constants is left out), its
// keys and their typeof; for `constants`, `values`.
import { createRequire, builtinModules } from 'node:module';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

if (!process.version.startsWith('v22.')) {
  console.error(`run this with Node 22 (Kyma's nodejs22), not ${process.version}`);
  process.exit(2);
}
const require = createRequire(import.meta.url);

// The built-in sources Node carries, minus its internals: what is left
// beyond builtinModules loads only as `node:<name>`.
function schemeOnlyNames() {
  const out = execFileSync(process.execPath, [
    '--expose-internals', '--no-warnings', '-p',
    "JSON.stringify(require('internal/test/binding').internalBinding('builtins').builtinIds)",
  ], { encoding: 'utf8' });
  const ids = JSON.parse(out);
  const listed = new Set(builtinModules);
  return ids.filter((id) => !id.startsWith('internal/') && !listed.has(id) && loads(`node:${id}`) && !loads(id)).sort();
}

function loads(specifier) {
  try {
    require(specifier);
    return true;
  } catch {
    return false;
  }
}

function typeOf(read) {
  try {
    const value = read();
    return value === null ? 'null' : typeof value;
  } catch {
    return 'throws';
  }
}

function ownNames(value) {
  return Object.getOwnPropertyNames(value).sort();
}

// The names a function carries as a function, not as an export.
const FUNCTION_OWN = new Set(['length', 'name', 'prototype', 'arguments', 'caller']);

function prototypeMethods(fn) {
  const proto = fn.prototype;
  if (!proto || typeof proto !== 'object') return null;
  const names = ownNames(proto).filter((n) => n !== 'constructor');
  return names.length ? names : null;
}

function isPlainObject(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function shapeOf(name, exported) {
  const shape = { type: typeof exported, keys: {} };
  const names = ownNames(exported).filter((n) => typeof exported !== 'function' || !FUNCTION_OWN.has(n));
  const classes = {};
  const namespaces = {};
  for (const key of names) {
    shape.keys[key] = typeOf(() => exported[key]);
    if (shape.keys[key] === 'throws') continue;
    const value = exported[key];
    if (typeof value === 'function') {
      const methods = prototypeMethods(value);
      if (methods) classes[key] = methods;
    } else if (isPlainObject(value) && Object.values(value).some((v) => typeof v === 'function')) {
      namespaces[key] = Object.fromEntries(ownNames(value).map((k) => [k, typeOf(() => value[k])]));
    }
  }
  if (typeof exported === 'function') {
    const methods = prototypeMethods(exported);
    if (methods) shape.prototype = methods;
  }
  if (Object.keys(classes).length) shape.classes = classes;
  if (Object.keys(namespaces).length) shape.namespaces = namespaces;
  if (name === 'constants') shape.values = Object.fromEntries(names.map((k) => [k, exported[k]]));
  return shape;
}

// Each module in a process of its own: what one module exports can depend
// on which others were loaded before (node:constants gains
// defaultCipherList once node:crypto has loaded), and a Function requiring
// it sees it alone.
const one = process.argv.indexOf('--one');
if (one !== -1) {
  const specifier = process.argv[one + 1];
  process.stdout.write(JSON.stringify(shapeOf(specifier.replace(/^node:/, ''), require(specifier))));
  process.exit(0);
}
const shapeInFreshProcess = (specifier) =>
  JSON.parse(execFileSync(process.execPath, ['--no-warnings', fileURLToPath(import.meta.url), '--one', specifier], { encoding: 'utf8' }));

const modules = {};
for (const name of [...builtinModules].sort()) modules[name] = shapeInFreshProcess(name);
const schemeOnly = schemeOnlyNames();
for (const name of schemeOnly) modules[`node:${name}`] = shapeInFreshProcess(`node:${name}`);

process.stdout.write(`${JSON.stringify({
  node: process.version,
  platform: `${process.platform}-${process.arch}`,
  builtinModules: [...builtinModules].sort(),
  schemeOnly: schemeOnly.map((n) => `node:${n}`),
  modules,
}, null, 1)}\n`);
