'use strict';
// node:console for Shoal Functions: as in Node, the global console itself
// (the prelude's, writing to the Function's log), completed here with what
// Node's has beyond the prelude's methods, and the Console class for
// consoles writing to other streams (internal/console.js).
const { Console } = require('./internal/console.js');
// process.stdout and process.stderr write to the Function's log too.
const proc = require('./process.js');

const target = globalThis.console;

function define(name, value, enumerable = true) {
  if (!(name in target)) Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable });
}

define('Console', Console);
// The methods of Node's console the global one lacks (the prelude's has
// them all; an engine's bare console may not).
let fallback;
for (const name of Object.keys(Console.prototype)) {
  if (!(name in target)) {
    define(name, (...args) => {
      fallback ||= new Console({ stdout: proc.stdout, stderr: proc.stderr });
      return fallback[name](...args);
    });
  }
}
// Node's console.log goes to process.stdout and console.error to stderr.
define('_stdout', proc.stdout, false);
define('_stderr', proc.stderr, false);
define('_ignoreErrors', true, false);
define('_stdoutErrorHandler', () => {}, false);
define('_stderrErrorHandler', () => {}, false);
define('_times', new Map(), false);
define('dirxml', (...args) => target.log(...args));
// Node clears only a terminal; a log is not one.
define('clear', () => {});
// These talk to an inspector, which a Function's engine has none of.
define('profile', () => {});
define('profileEnd', () => {});
define('timeStamp', () => {});
// A console whose output carries a context name: the same log here.
define('context', () => target);
// An async task for DevTools' stack traces: it just runs the function.
define('createTask', () => ({ run: (fn) => fn() }));

module.exports = target;
