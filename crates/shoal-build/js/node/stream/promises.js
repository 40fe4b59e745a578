'use strict';
// node:stream/promises: pipeline and finished returning Promises.
module.exports = require('../../node_modules/readable-stream/lib/stream/promises.js');
