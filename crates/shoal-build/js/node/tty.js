'use strict';
// node:tty for Shoal Functions: a Function's output is a log, never a
// terminal (debug and chalk ask).
const { unavailableModule } = require('./internal/unavailable.js');

module.exports = unavailableModule('tty', ['ReadStream', 'WriteStream'], {
  isatty: () => false,
});
