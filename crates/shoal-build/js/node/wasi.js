'use strict';
// node:wasi for Shoal Functions: a Function is itself a WebAssembly module
// and its engine has no WebAssembly API to start another one with.
const { notImplemented, unsupportedMethods } = require('./internal/unsupported.js');

const WHY = "Shoal's engine cannot instantiate WebAssembly modules";

class WASI {
  constructor() {
    throw notImplemented('new wasi.WASI()', WHY);
  }
}
unsupportedMethods(WASI, 'wasi.WASI', ['getImportObject', 'initialize', 'start'], WHY);

module.exports = { WASI };
