'use strict';
// node:constants (deprecated in Node's docs, still required by older
// packages such as graceful-fs): os.constants' errno, signals, priority
// and dlopen values, fs.constants and crypto.constants in one frozen
// object, with Node 22's values on Linux x64 (what Kyma's image runs).
module.exports = Object.freeze({ ...require('./internal/constants-data.js') });
