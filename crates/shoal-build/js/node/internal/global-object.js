// Node's `global`: the global object itself, for globals.js.
exports.globalObject = globalThis;
