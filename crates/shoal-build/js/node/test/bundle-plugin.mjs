// The module mapping Shoal's bundler applies (js/bundle.mjs): bare names of
// Node built-ins, with or without "node:" and a trailing slash, resolve to
// js/node/<name>.js; a built-in without such a file is refused.
import { builtinModules } from 'node:module';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const nodeDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const subpaths = {
  'stream/promises': 'stream-promises',
  'timers/promises': 'timers-promises',
  'fs/promises': 'fs-promises',
  'util/types': 'util-types',
  'path/posix': 'path',
  'assert/strict': 'assert-strict',
};
const builtins = new Set(builtinModules);

export function moduleFile(specifier) {
  let name = specifier.replace(/^node:/, '').replace(/\/$/, '');
  name = subpaths[name] || name;
  if (name.includes('/')) return null;
  const file = path.join(nodeDir, `${name}.js`);
  return existsSync(file) ? file : null;
}

export function shoalNodePlugin(leaks = []) {
  return {
    name: 'shoal-node-modules',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        const bare = args.path.replace(/^node:/, '').replace(/\/$/, '');
        const isBuiltin = args.path.startsWith('node:') || builtins.has(bare) || builtins.has(bare.split('/')[0]);
        if (!isBuiltin) return undefined;
        const file = moduleFile(args.path);
        if (file) return { path: file };
        leaks.push(`${args.path} (from ${args.importer})`);
        return { errors: [{ text: `Node built-in "${args.path}" has no Shoal implementation` }] };
      });
    },
  };
}
