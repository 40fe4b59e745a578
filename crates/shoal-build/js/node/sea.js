'use strict';
// node:sea for Shoal Functions: a Function is not a single executable
// application, and Node answers this module as it does outside one.
const { nodeError } = require('./internal/errors.js');

const notInSea = () => {
  throw nodeError(Error, 'ERR_NOT_IN_SINGLE_EXECUTABLE_APPLICATION', 'Operation cannot be invoked when not in a single-executable application');
};

module.exports = {
  isSea: () => false,
  getAsset: notInSea,
  getAssetAsBlob: notInSea,
  getRawAsset: notInSea,
  getAssetKeys: notInSea,
};
