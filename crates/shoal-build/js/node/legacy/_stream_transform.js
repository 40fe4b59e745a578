'use strict';
// Node's old name for stream.Transform.
module.exports = require('../stream.js').Transform;
