'use strict';
// Node's old name for stream.Readable.
module.exports = require('../stream.js').Readable;
