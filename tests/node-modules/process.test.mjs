// node:process: the prelude's process completed (stdout and stderr to the
// log, emitWarning), and process.binding('constants') as Node 22 has it.
import { check, underNode } from './harness/cases.mjs';

check('process', `
  const p = M.process;
  const t = p.hrtime.bigint();
  return [p === globalThis.process, typeof t, p.hrtime().length, Array.isArray(p.execArgv), p.pid, p.arch, p.release.name, p.versions.node,
    typeof p.memoryUsage().heapUsed, typeof p.uptime(), typeof p.on, typeof p.emit, p.stdout.isTTY, typeof p.stdout.write, p.env.HOSTNAME, p.platform];`,
[true, 'bigint', 2, true, 1, 'wasm32', 'node', '22.0.0-shoal', 'number', 'number', 'function', 'function', false, 'function', 'fn-1', 'wasi']);
check('process.stdout.write', `
  const lines = []; const orig = console.log; console.log = (l) => lines.push(l);
  try { M.process.stdout.write("a"); M.process.stdout.write("b\\nc\\n"); } finally { console.log = orig; }
  return lines;`, ['ab', 'c']);
check('process.emitWarning', `
  const lines = []; const orig = console.error; console.error = (l) => lines.push(l);
  const got = []; M.process.on("warning", (w) => got.push(w.name));
  try { M.process.emitWarning("careful", "DeprecationWarning", "DEP0001"); } finally { console.error = orig; }
  return [lines, got];`, [['(node:1) [DEP0001] DeprecationWarning: careful'], ['DeprecationWarning']]);

// Old packages read Node's constants binding while loading (tmp).
const binding = `
  const c = M.process.binding('constants');
  const out = [Object.keys(c), c.os.errno.EBADF, c.fs.O_CREAT, c.os.signals.SIGTERM, Object.keys(c.zlib).length];
  try { M.process.binding('no_such_binding'); } catch (e) { out.push(e.message); }
  return out;`;
check("process.binding('constants') (Node 22)", binding, underNode(22, ['process'], binding));
