// node:vm: code run in this context, and contexts as scopes.
import { check, diff } from './harness/cases.mjs';

diff('vm in this context', `
  const vm = M.vm;
  const out = [vm.runInThisContext('1 + 2'), vm.runInThisContext('var shoalVmGlobal = 42; typeof shoalVmGlobal'), globalThis.shoalVmGlobal];
  delete globalThis.shoalVmGlobal;
  const script = new vm.Script('[typeof globalThis, 6 * 7]', { filename: 'x.js' });
  out.push(script.runInThisContext(), script.runInThisContext(), new vm.Script('1 //# sourceMappingURL=x.map').sourceMapURL);
  out.push(vm.compileFunction('return a + b', ['a', 'b'])(2, 3), vm.isContext({}), Object.keys(vm.constants));
  for (const f of [() => new vm.Script('('), () => vm.isContext(1), () => vm.compileFunction(5)]) {
    try { f(); out.push('ok'); } catch (e) { out.push([e.name, e.code]); }
  }
  return out;`);
// Node 22's Script carries sourceURL too.
check('vm.Script keys', 'return Object.keys(new M.vm.Script("1"));', ['sourceURL', 'sourceMapURL']);
// A context is the object the code sees as its scope (module.js's
// approximation: the Function's built-ins stay visible; `var` stays the
// script's own, so none is tested here).
diff('vm contexts as scopes', `
  const vm = M.vm;
  const ctx = vm.createContext({ a: 2, b: 3, out: [] });
  const out = [vm.isContext(ctx), vm.runInContext('a * b', ctx), vm.runInNewContext('x + y', { x: 'p', y: 'q' })];
  vm.runInContext('out.push(a); a = 10; module = { exports: { n: a + b } }', Object.assign(ctx, { module: null }));
  out.push(ctx.a, ctx.module.exports.n, ctx.out);
  const sandbox = { result: null };
  new vm.Script('result = typeof JSON.parse + ":" + (this === __self)').runInNewContext(Object.assign(sandbox, { __self: sandbox }));
  out.push(sandbox.result, vm.runInNewContext('(function () { return typeof this; })()'));
  for (const f of [() => vm.runInContext('1', {}), () => vm.createContext(1), () => new vm.Script('1').runInContext(null)]) {
    try { f(); out.push('ran'); } catch (e) { out.push([e.name, e.code]); }
  }
  return out;`);
