'use strict';
// node:test for Shoal Functions: a Function is not a test run (tests run
// under Node, before deploying). The module loads with the runner's API;
// defining or running a test throws.
const { notImplemented, unsupportedFunction, unsupportedFunctions } = require('./internal/unsupported.js');

const WHY = 'a Function is not a test run: run its tests with node --test before deploying';

const test = unsupportedFunction('test', 'test', WHY);
const suite = unsupportedFunction('test', 'suite', WHY);

class MockTracker {}
for (const name of ['timers', 'fn', 'method', 'getter', 'setter', 'property', 'reset', 'restoreAll']) {
  Object.defineProperty(MockTracker.prototype, name, {
    value() {
      throw notImplemented(`test.mock.${name}()`, WHY);
    },
    writable: true,
    configurable: true,
  });
}

// Node's export is test() itself, carrying the rest.
Object.assign(test, unsupportedFunctions('test', ['after', 'afterEach', 'before', 'beforeEach', 'only', 'run', 'skip', 'todo'], WHY), {
  assert: { register: unsupportedFunction('test.assert', 'register', WHY) },
  describe: suite,
  it: test,
  mock: new MockTracker(),
  snapshot: unsupportedFunctions('test.snapshot', ['setDefaultSnapshotSerializers', 'setResolveSnapshotPath'], WHY),
  suite,
  test,
});

module.exports = test;
