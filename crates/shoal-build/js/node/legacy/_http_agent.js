'use strict';
// Node's old name for http.Agent and http.globalAgent.
const http = require('../http.js');

module.exports = { Agent: http.Agent, globalAgent: http.globalAgent };
