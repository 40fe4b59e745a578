'use strict';
// Node's old name for stream.PassThrough.
module.exports = require('../stream.js').PassThrough;
