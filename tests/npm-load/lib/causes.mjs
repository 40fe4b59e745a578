// Groups failures by what in Shoal causes them, from the error text and the first stack
// frames. Each rule was written from a look at the failing packages' code (the finding is
// the rule's text); a failure no rule matches is listed as "other" with its own message.

const RULES = [
  {
    id: 'unresolved-optional-dependency',
    test: (t) => /Could not resolve "/.test(t),
    text: "The build refuses a require/import of a package that is not installed: the Function's own code requires it (a package's optional or peer dependency builds, with a warning, and throws MODULE_NOT_FOUND only when that line runs)",
  },
  {
    id: 'worker-threads',
    test: (t) => /worker_threads\.Worker|new Worker/.test(t),
    text: 'Starts a worker thread while loading (@babel/register compiles in a worker): a Function cannot start threads',
  },
  {
    id: 'webassembly',
    test: (t) => /WebAssembly is not defined/.test(t),
    text: "Compiles WebAssembly while loading (undici's llhttp parser, which nock loads): the engine (QuickJS) has no WebAssembly; feature tests (`typeof WebAssembly`) see none and take their fallbacks",
  },
  {
    id: 'node-internals',
    test: (t) => /process\.binding\('(?!constants)/.test(t),
    text: "Uses Node's internals (esm, a loader replacing Node's, reads process.binding('util') and patches Module internals): Shoal has Node's APIs, not its C++ bindings (only process.binding('constants'))",
  },
  {
    id: 'esm-cjs-named-exports',
    test: (t) => /module\.exports missing/.test(t),
    text: "An ES module's namespace of a CommonJS module (`export * from './x.cjs'`): Node's has the names cjs-module-lexer finds in the source plus 'module.exports'; the bundle's has every key the module exports at run time",
  },
  {
    id: 'globals-on-demand',
    test: (t) => /\b(fetch|crypto|navigator|global|queueMicrotask|structuredClone) missing/.test(t),
    text: "globalThis's enumerable keys lack fetch and crypto: Shoal bundles a Web global only when the Function's code names it (a hello world carries none), so code that only enumerates globalThis (core-js exports it) does not see them",
  },
  {
    id: 'package-source-read',
    test: (t) => /is in the Function's packages but not in its bundle|is not available in Shoal: a package's JavaScript is bundled as code|Cannot find module 'tslib/,
    text: "Reads or requires another package's source file found at run time by a computed name (rollup-plugin-typescript2 resolves tslib's ES module from tslib's package.json and reads it): a package's code is bundled as code, readable as a file only when code names it",
  },
  {
    id: 'package-data-limits',
    test: (t) => /ENOENT: no such file or directory, (open|scandir|stat|lstat|readdir) '\/usr\/src\//.test(t),
    text: "Reads a package file Shoal did not keep (past the size limits for package data, or in a package whose code does not locate itself)",
  },
];

/** { id, text } of the first rule matching a failure, or an "other" group. */
export function causeOf(result) {
  const text = [result.cause, result.stack, ...(result.differences || [])].filter(Boolean).join('\n');
  const rule = RULES.find((r) => r.test(text));
  return rule ? { id: rule.id, text: rule.text } : { id: 'other', text: 'Other (the message says it)' };
}
