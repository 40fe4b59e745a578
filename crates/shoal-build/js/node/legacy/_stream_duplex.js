'use strict';
// Node's old name for stream.Duplex.
module.exports = require('../stream.js').Duplex;
