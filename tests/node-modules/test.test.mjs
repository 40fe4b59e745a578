// node:test: a Function is not a test run.
import { refusal } from './harness/cases.mjs';

refusal('test', 'M["node:test"]("a test", () => {})', 'ERR_METHOD_NOT_IMPLEMENTED', 'test.test() is not available in Shoal: a Function is not a test run: run its tests with node --test before deploying');
