'use strict';
// node:https's client for Shoal Functions: node:http's, for https: URLs. TLS
// is the node's (its trust roots and CA bundle); per-request `ca`, `cert`
// and `key` options are not used.
module.exports = require('./http.js').client('https:');
