// Where Shoal's JavaScript is: crates/shoal-build/js, with the Node.js
// modules under test (node/) and, in its node_modules (npm ci there), the
// packages the module tests use: esbuild, as the bundler does, and
// QuickJS-NG for --engine=quickjs.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** crates/shoal-build/js. */
export const jsDir = path.join(repoRoot, 'crates/shoal-build/js');

/** require() from crates/shoal-build/js: its packages (esbuild, quickjs-emscripten-core...). */
export const jsRequire = createRequire(path.join(jsDir, 'package.json'));
