'use strict';
// node:string_decoder for Shoal Functions: the `string_decoder` package
// (Node's own StringDecoder, packaged for all engines).
//
// By path: the bundler maps the bare name 'string_decoder' to this file.
module.exports = require('../node_modules/string_decoder/lib/string_decoder.js');
