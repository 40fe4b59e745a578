'use strict';
// node:path (and node:path/posix) for Shoal Functions: the `path-browserify`
// package, which is Node's POSIX path module. Functions run on Linux, so
// path is path.posix; path.win32 is not available.
//
// By path: the bundler maps the bare name 'path' to this file.
const path = require('../node_modules/path-browserify/index.js');

// path.resolve() starts from process.cwd(), which Shoal answers with '/'.
if (!path.posix) path.posix = path;
if (typeof path.toNamespacedPath !== 'function') path.toNamespacedPath = (p) => p;
module.exports = path;
