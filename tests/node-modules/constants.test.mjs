// node:constants: Node 22's values on Linux x64 (internal/constants-data.js).
import { createRequire } from 'node:module';
import { check, diff } from './harness/cases.mjs';

const require = createRequire(import.meta.url);
const shapes = require('./builtin-shapes.json');

// Node 22's values on Linux x64, every key.
const sorted = (entries) => entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
check('constants values', 'return Object.entries(M.constants).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));',
  sorted(Object.entries(shapes.modules.constants.values)));
diff('constants is frozen', 'return [Object.isFrozen(M.constants), Object.getOwnPropertyDescriptor(M.constants, "O_RDONLY")];');
