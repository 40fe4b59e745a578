'use strict';
// Node's old name for http.ClientRequest.
module.exports = { ClientRequest: require('../http.js').ClientRequest };
