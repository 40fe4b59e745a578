'use strict';
// node:sqlite for Shoal Functions: loadable (packages probe for it as an
// optional cache), with its constants and classes; Shoal carries no SQLite,
// so opening a database throws. A Function keeps data in a service it calls.
const { nodeError } = require('./internal/errors.js');
const { notImplemented, unsupportedFunction, unsupportedMethods } = require('./internal/unsupported.js');

const WHY = 'Shoal has no SQLite; keep data in a database service the Function calls';

class DatabaseSync {
  constructor() {
    throw notImplemented('new sqlite.DatabaseSync()', WHY);
  }
}
unsupportedMethods(DatabaseSync, 'sqlite.DatabaseSync', [
  'aggregate', 'applyChangeset', 'close', 'createSession', 'enableLoadExtension', 'exec', 'function', 'loadExtension',
  'location', 'open', 'prepare',
], WHY);

// Made only by DatabaseSync#prepare(), as in Node.
class StatementSync {
  constructor() {
    throw nodeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
  }
}
unsupportedMethods(StatementSync, 'sqlite.StatementSync', [
  'all', 'columns', 'get', 'iterate', 'run', 'setAllowBareNamedParameters', 'setAllowUnknownNamedParameters',
  'setReadBigInts', 'setReturnArrays',
], WHY);

module.exports = {
  DatabaseSync,
  StatementSync,
  backup: unsupportedFunction('sqlite', 'backup', WHY),
  constants: {
    SQLITE_CHANGESET_OMIT: 0,
    SQLITE_CHANGESET_REPLACE: 1,
    SQLITE_CHANGESET_ABORT: 2,
    SQLITE_CHANGESET_DATA: 1,
    SQLITE_CHANGESET_NOTFOUND: 2,
    SQLITE_CHANGESET_CONFLICT: 3,
    SQLITE_CHANGESET_CONSTRAINT: 4,
    SQLITE_CHANGESET_FOREIGN_KEY: 5,
  },
};
