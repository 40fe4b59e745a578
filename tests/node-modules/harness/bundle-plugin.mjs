// The module mapping Shoal's bundler applies (crates/shoal-build/js/bundle.mjs,
// from node/modules.mjs) as an esbuild plugin for the module tests.
import path from 'node:path';
import {
  BUNDLED_BUILTINS,
  BUNDLED_BUILTINS_NAMESPACE,
  UNKNOWN_BUILTIN_NAMESPACE,
  bareName,
  bundledBuiltinsSource,
  isBuiltin,
  knownBuiltins,
  moduleFile,
  nodeDir,
  unknownBuiltinSource,
  unknownBuiltinWarning,
} from '../../../crates/shoal-build/js/node/modules.mjs';

export { moduleFile, nodeDir };

/**
 * esbuild's options as Shoal's bundler builds a Function's code: platform
 * "neutral", the built-ins from Shoal's Node layer (leaks of real ones
 * collected in `leaks`), nothing written to disk.
 */
export function shoalBuildOptions(leaks) {
  return {
    bundle: true,
    write: false,
    platform: 'neutral',
    target: 'es2023',
    mainFields: ['module', 'main'],
    conditions: ['import', 'require', 'default'],
    logLevel: 'silent',
    plugins: [shoalNodePlugin(leaks)],
  };
}

export function shoalNodePlugin(leaks = []) {
  return {
    name: 'shoal-node-modules',
    setup(b) {
      // The Function's own files (bundle.mjs makes them from its folder): the
      // module tests give fs a package.json where Kyma keeps it.
      b.onResolve({ filter: /^shoal:function-files$/ }, () => ({ path: 'function-files', namespace: 'shoal' }));
      b.onLoad({ filter: /.*/, namespace: 'shoal' }, () => ({
        contents: `module.exports = ${JSON.stringify({ '/usr/src/app/function/package.json': '{"name":"module-tests","type":"module"}' })};`,
        loader: 'js',
      }));
      // The run-time loader's registry of bundled modules: the module
      // tests have none (a Function's bundle has its own, bundle.mjs).
      b.onResolve({ filter: /^shoal:bundled-modules$/ }, () => ({ path: 'bundled-modules', namespace: 'shoal-bundled-modules' }));
      b.onLoad({ filter: /.*/, namespace: 'shoal-bundled-modules' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
      // process.binding('constants'): Node 22's table (the bundler adds it
      // when a Function names process.binding).
      b.onResolve({ filter: /^shoal:process-binding-constants$/ }, () => ({ path: path.join(nodeDir, 'internal/binding-constants.js') }));
      // node:module's registry: the module tests bundle every built-in.
      b.onResolve({ filter: new RegExp(`^${BUNDLED_BUILTINS}$`) }, () => ({ path: 'registry', namespace: BUNDLED_BUILTINS_NAMESPACE }));
      b.onLoad({ filter: /.*/, namespace: BUNDLED_BUILTINS_NAMESPACE }, () => ({
        contents: bundledBuiltinsSource(knownBuiltins().map(bareName)),
        loader: 'js',
        resolveDir: nodeDir,
      }));
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (!isBuiltin(args.path)) return undefined;
        const file = moduleFile(args.path);
        if (file) return { path: file };
        // As the bundler: a built-in Shoal does not know loads, with a warning.
        const name = bareName(args.path);
        return { path: name, namespace: UNKNOWN_BUILTIN_NAMESPACE, warnings: [{ text: unknownBuiltinWarning(name, args.importer) }] };
      });
      b.onLoad({ filter: /.*/, namespace: UNKNOWN_BUILTIN_NAMESPACE }, (args) => ({
        contents: unknownBuiltinSource(args.path),
        loader: 'js',
        resolveDir: nodeDir,
      }));
    },
  };
}
