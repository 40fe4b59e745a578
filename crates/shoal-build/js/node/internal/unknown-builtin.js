'use strict';
// The stand-in for a built-in module Shoal does not know (one a Node
// newer than 22 added): the build warns and goes on, and the Function
// fails only if it uses the module. When the node that ran the build has
// the module, `shape` gives its exports' names (and primitive values), so
// `import { x } from 'node:new'` binds; anything else read from the module
// is a function that throws too.
const { notImplemented } = require('./unsupported.js');

function unknownBuiltin(name, shape) {
  const why = `Shoal has no node:${name} module (the build warned about it)`;
  const thrower = (key) => {
    const fn = function () {
      throw notImplemented(`${name}.${key}()`, why);
    };
    Object.defineProperty(fn, 'name', { value: key });
    return fn;
  };
  const target = {};
  for (const [key, entry] of Object.entries(shape || {})) {
    target[key] = 'value' in entry ? entry.value : thrower(key);
  }
  // Names a bundler or a Promise looks up on any module: they must read as
  // absent, or `import()` would treat the module as a thenable.
  const passThrough = new Set(['then', '__esModule', 'default', 'toJSON', 'constructor', 'inspect']);
  return new Proxy(target, {
    get(obj, key, receiver) {
      if (typeof key === 'symbol' || passThrough.has(key) || Object.hasOwn(obj, key)) return Reflect.get(obj, key, receiver);
      return thrower(key);
    },
  });
}

module.exports = { unknownBuiltin };
