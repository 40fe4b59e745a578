// node:module: builtinModules and isBuiltin (Node 22's), createRequire
// resolving built-ins, Module and its helpers.
import { createRequire } from 'node:module';
import { check, diff, refusal } from './harness/cases.mjs';

const require = createRequire(import.meta.url);
const shapes = require('./builtin-shapes.json');

// Node 22's list, not the Node running the tests.
check('module.builtinModules', 'return M.module.builtinModules;', shapes.builtinModules);
const names = [...shapes.builtinModules, ...shapes.builtinModules.map((n) => `node:${n}`), ...shapes.schemeOnly,
  ...shapes.schemeOnly.map((n) => n.slice(5)), 'lodash', 'fs/nope', 'node:nope', '', 'node:', 'FS'];
check('module.isBuiltin', `return ${JSON.stringify(names)}.map((n) => [n, M.module.isBuiltin(n)]);`,
  names.map((n) => [n, shapes.builtinModules.includes(n) || (n.startsWith('node:') && (shapes.builtinModules.includes(n.slice(5)) || shapes.schemeOnly.includes(n)))]));
diff('module.createRequire resolves built-ins', `
  const require = M.module.createRequire('/usr/src/app/function/handler.js');
  const out = [typeof require, require('node:events') === M.events, require('events') === M.events, require('path').join('a', 'b'),
    require('node:util').format('%s!', 'x'), require.resolve('fs'), require.resolve('node:fs'), require.resolve.paths('fs'), require.resolve.paths('x').slice(0, 5)];
  const viaUrl = M.module.createRequire('file:///usr/src/app/function/handler.mjs');
  out.push(viaUrl('node:os') === M.os);
  for (const f of [() => require('./missing'), () => require('some-package'), () => M.module.createRequire('relative.js'), () => M.module.createRequire(5)]) {
    try { f(); out.push('loaded'); } catch (e) { out.push([e.code, e.code === 'MODULE_NOT_FOUND' ? e.message.split('\\n')[0].split(':')[0] : e.message]); }
  }
  return out;`);
diff('module helpers', `
  const m = M.module;
  const mod = new m.Module('/srv/app/lib.js');
  const r = mod._compile('module.exports = { sum: 1 + 2, dir: __dirname, file: __filename, self: typeof require };', '/srv/app/lib.js');
  return [m.Module === m, m.wrap('x'), m.wrapper, m._nodeModulePaths('/usr/src/app/function'), m._nodeModulePaths('/a/node_modules/b'),
    m._nodeModulePaths('/'), Object.keys(new m('/a/b.js')), mod.exports, r, mod.loaded, mod.filename, mod.id, m.findSourceMap('/x.js'),
    m.syncBuiltinESMExports(), m._resolveFilename('fs'), typeof m._cache];`);

refusal('module', 'M.module.register("./hooks.mjs")', 'ERR_METHOD_NOT_IMPLEMENTED', "module.register() is not available in Shoal: a Function's modules are bundled when it is built; there is no module loader at run time");
