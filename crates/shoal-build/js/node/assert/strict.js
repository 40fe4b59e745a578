'use strict';
// node:assert/strict: assert in strict mode (equal is strictEqual, ...).
module.exports = require('assert').strict;
