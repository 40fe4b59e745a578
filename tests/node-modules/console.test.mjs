// node:console: Console writing to streams of its own.
import { diff } from './harness/cases.mjs';

diff('console.Console', `
  const { PassThrough } = M.stream;
  const out = new PassThrough();
  const err = new PassThrough();
  let o = '';
  let e = '';
  out.on('data', (d) => { o += d; });
  err.on('data', (d) => { e += d; });
  const c = new M.console.Console({ stdout: out, stderr: err, colorMode: false });
  c.log('%s is %d', 'x', 42, { a: [1, 2] });
  c.info('info');
  c.warn('warn');
  c.group('group');
  c.log('inside\\ntwo lines');
  c.groupEnd();
  c.count();
  c.count('k');
  c.count();
  c.countReset();
  c.count();
  c.assert(true, 'never');
  c.assert(false, 'failed %s', 'here');
  c.assert(false);
  c.dir({ deep: { deeper: { deepest: { gone: 1 } } } }, { depth: 0 });
  c.table([{ a: 1, b: 'x' }, { a: 2, c: true }]);
  c.table([1, 'two']);
  c.table(new Map([['k', 1]]));
  c.table({ r1: { c1: 1 }, r2: { c2: 2 } }, ['c1']);
  c.table('not tabular');
  const { log } = c;
  log('unbound');
  return new Promise((resolve) => setTimeout(() => resolve([o, e, M.console.Console === c.constructor]), 5));`);
