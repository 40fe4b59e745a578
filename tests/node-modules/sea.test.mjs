// node:sea: a Function is not a single-executable application.
import { check, refusal } from './harness/cases.mjs';

refusal('sea', 'M["node:sea"].getAsset("a")', 'ERR_NOT_IN_SINGLE_EXECUTABLE_APPLICATION', 'Operation cannot be invoked when not in a single-executable application');

check('sea outside an executable', 'return [M["node:sea"].isSea(), (() => { try { M["node:sea"].getAssetKeys(); } catch (e) { return e.code; } })()];',
  [false, 'ERR_NOT_IN_SINGLE_EXECUTABLE_APPLICATION']);
