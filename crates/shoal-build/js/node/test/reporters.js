'use strict';
// node:test/reporters for Shoal Functions: the test runner's reporters, for
// a test run a Function is not (see ../test.js).
const { unsupportedFunctions, notImplemented } = require('../internal/unsupported.js');

const WHY = 'a Function is not a test run: run its tests with node --test before deploying';

// Node's lcov reporter is a Transform instance; it reports coverage.
const lcov = {
  write() {
    throw notImplemented('test/reporters.lcov.write()', WHY);
  },
};

module.exports = unsupportedFunctions('test/reporters', ['dot', 'junit', 'spec', 'tap'], WHY, { lcov });
