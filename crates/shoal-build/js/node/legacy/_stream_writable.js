'use strict';
// Node's old name for stream.Writable.
module.exports = require('../stream.js').Writable;
