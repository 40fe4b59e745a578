'use strict';
// node:repl for Shoal Functions: a Function has no terminal to read
// expressions from, so starting a REPL throws. What packages use from the
// module without starting one works: the writer (util.inspect with the
// REPL's options), isValidSyntax, Recoverable, the mode symbols and the
// list of built-in modules.
const { Interface } = require('./readline.js');
const { inspect } = require('./util.js');
const { notImplemented } = require('./internal/unsupported.js');
const { builtinModules } = require('./internal/builtin-names.js');

const WHY = 'a Function has no terminal to read expressions from';

class REPLServer extends Interface {
  constructor() {
    throw notImplemented('new repl.REPLServer()', WHY);
  }
}
for (const name of [
  'clearBufferedCommand', 'close', 'complete', 'completeOnEditorMode', 'createContext', 'defineCommand', 'displayPrompt',
  'resetContext', 'setPrompt', 'setupHistory',
]) {
  Object.defineProperty(REPLServer.prototype, name, {
    value() {
      throw notImplemented(`repl.REPLServer#${name}()`, WHY);
    },
    writable: true,
    configurable: true,
  });
}

// An error the REPL recovers from by reading another line.
function Recoverable(err) {
  this.err = err;
}
Object.setPrototypeOf(Recoverable.prototype, SyntaxError.prototype);
Object.setPrototypeOf(Recoverable, SyntaxError);

const writer = (obj) => inspect(obj, writer.options);
writer.options = { ...inspect.defaultOptions, showProxy: true };

// Whether `input` parses as a script (await allowed at top level) or as an
// expression; the engine's parser stands in for Node's acorn.
function isValidSyntax(input) {
  const parses = (source) => {
    try {
      // eslint-disable-next-line no-new-func
      new (Object.getPrototypeOf(async function () {}).constructor)(source);
      return true;
    } catch {
      return false;
    }
  };
  return parses(input) || parses(`_=${input}`);
}

const builtinLibs = builtinModules.filter((name) => !name.startsWith('_'));

module.exports = {
  start() {
    throw notImplemented('repl.start()', WHY);
  },
  writer,
  REPLServer,
  REPL_MODE_SLOPPY: Symbol('repl-sloppy'),
  REPL_MODE_STRICT: Symbol('repl-strict'),
  Recoverable,
  isValidSyntax,
};
// Node's are accessors (deprecated in favour of module.builtinModules).
let libs = builtinLibs;
for (const name of ['builtinModules', '_builtinLibs']) {
  Object.defineProperty(module.exports, name, {
    get: () => libs,
    set: (value) => {
      libs = value;
    },
    enumerable: false,
    configurable: true,
  });
}
