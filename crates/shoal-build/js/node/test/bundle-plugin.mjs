// The module mapping Shoal's bundler applies (js/bundle.mjs, from
// ../modules.mjs) as an esbuild plugin for the module tests.
import { isBuiltin, moduleFile, nodeDir } from '../modules.mjs';

export { moduleFile, nodeDir };

export function shoalNodePlugin(leaks = []) {
  return {
    name: 'shoal-node-modules',
    setup(b) {
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
