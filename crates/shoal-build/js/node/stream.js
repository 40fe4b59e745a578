'use strict';
// node:stream for Shoal Functions: readable-stream 4 (Node.js's own streams
// code, packaged for all engines). Its lib/stream.js is Node's lib/stream.js,
// so require('stream') is the legacy Stream class carrying Readable,
// Writable, Duplex, Transform, PassThrough, pipeline, finished, promises...
//
// By path: the bundler maps the bare name 'stream' to this file.
module.exports = require('../node_modules/readable-stream/lib/stream.js');
