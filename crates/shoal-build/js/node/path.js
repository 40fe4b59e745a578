'use strict';
// node:path (and node:path/posix) for Shoal Functions: the `path-browserify`
// package, which is Node's POSIX path module. Functions run on Linux, so
// path is path.posix. path.win32 is Shoal's own (internal/path-win32.js),
// for Functions that handle Windows paths ('C:\\temp\\file.txt', UNC
// shares), as on Node on any platform.
//
// By path: the bundler maps the bare name 'path' to this file.
const path = require('../node_modules/path-browserify/index.js');
const win32 = require('./internal/path-win32.js');

// path.resolve() starts from process.cwd(), which Shoal answers with '/'.
if (!path.posix) path.posix = path;
if (typeof path.toNamespacedPath !== 'function') path.toNamespacedPath = (p) => p;
// As in Node, each flavour reaches the other: path.win32.posix === path.
path.win32 = win32;
win32.posix = path;
module.exports = path;
