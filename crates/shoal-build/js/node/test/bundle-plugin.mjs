// The module mapping Shoal's bundler applies (js/bundle.mjs, from
// ../modules.mjs) as an esbuild plugin for the module tests.
import { isBuiltin, moduleFile, nodeDir } from '../modules.mjs';

export { moduleFile, nodeDir };

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
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (!isBuiltin(args.path)) return undefined;
        const file = moduleFile(args.path);
        if (file) return { path: file };
        leaks.push(`${args.path} (from ${args.importer})`);
        return { errors: [{ text: `Node built-in "${args.path}" has no Shoal implementation` }] };
      });
    },
  };
}
