// node:perf_hooks: performance marks and measures.
import { check } from './harness/cases.mjs';

check('perf_hooks', `
  const { performance } = M.perf_hooks;
  performance.mark("a"); performance.mark("b");
  const m = performance.measure("a-b", "a", "b");
  return [typeof performance.now(), m.name, m.entryType, m.duration >= 0, performance.getEntriesByType("mark").length, typeof performance.timeOrigin];`,
['number', 'a-b', 'measure', true, 2, 'number']);
