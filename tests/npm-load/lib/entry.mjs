// How a package loads, found in its installed tree the way Node resolves it: the file
// `require(name)` reaches and the file `import name` reaches, and each file's module
// format. A package is ESM-only when `require` reaches no CommonJS file.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { REFERENCE_NODE } from './paths.mjs';

// Run inside the install folder by the reference Node, so both resolutions start from
// there: createRequire for require's conditions, import.meta.resolve for import's.
const RESOLVER = `
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
const name = process.argv[2];
const out = {};
try { out.require = createRequire(import.meta.url).resolve(name); } catch (e) { out.requireError = e.code || e.message; }
try {
  const url = import.meta.resolve(name);
  out.import = url.startsWith('file:') ? fileURLToPath(url) : url;
} catch (e) { out.importError = e.code || e.message; }
console.log(JSON.stringify(out));
`;

/** The module format Node gives a file: by extension, else the nearest package.json "type". */
export function fileFormat(file) {
  if (file.endsWith('.mjs')) return 'esm';
  if (file.endsWith('.cjs')) return 'cjs';
  if (file.endsWith('.json')) return 'json';
  if (file.endsWith('.node')) return 'native';
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg)) {
      try {
        return JSON.parse(fs.readFileSync(pkg, 'utf8')).type === 'module' ? 'esm' : 'cjs';
      } catch {
        return 'cjs';
      }
    }
    if (path.dirname(dir) === dir) return 'cjs';
  }
}

/** { require: {file, format} | null, import: {file, format} | null, esmOnly } for an installed package. */
export function inspectEntry(installDir, name) {
  const resolver = path.join(installDir, '.resolve-entry.mjs');
  fs.writeFileSync(resolver, RESOLVER);
  const r = spawnSync(REFERENCE_NODE, [resolver, name], { cwd: installDir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`resolving ${name}: ${r.stderr}`);
  const found = JSON.parse(r.stdout);
  const entry = (file) => (file && path.isAbsolute(file) ? { file: path.relative(installDir, file), format: fileFormat(file) } : null);
  const viaRequire = entry(found.require);
  const viaImport = entry(found.import);
  const cjsLoadable = viaRequire && ['cjs', 'json'].includes(viaRequire.format);
  return {
    builtin: found.require === name || found.import === `node:${name}`,
    require: viaRequire,
    import: viaImport,
    esmOnly: !cjsLoadable && Boolean(viaImport || viaRequire),
    errors: { require: found.requireError || null, import: found.importError || null },
  };
}
