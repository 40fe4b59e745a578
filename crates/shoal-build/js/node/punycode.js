'use strict';
// node:punycode (deprecated in Node, still required by whatwg-url and tr46,
// which node-fetch 2 pulls in): the npm package Node's own copy came from.
module.exports = require('../node_modules/punycode/punycode.js');
