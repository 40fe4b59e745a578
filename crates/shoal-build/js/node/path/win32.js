'use strict';
// node:path/win32: path.win32 (internal/path-win32.js), which reaches
// path.posix as Node's does.
module.exports = require('../path.js').win32;
