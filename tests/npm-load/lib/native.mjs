// What makes a package not pure JavaScript: it, or a package it installs, compiles or
// ships native code (a Node addon, a platform binary).

/**
 * Packages whose presence as a dependency means a native addon: they load or fetch a
 * compiled binding at run time, or are headers for one. (node-gyp and cmake-js are left
 * out: they are JavaScript build tools that npm itself depends on; an addon that uses
 * them says so in its install script.)
 */
export const NATIVE_DEPENDENCIES = new Set([
  'node-gyp-build',
  'node-gyp-build-optional-packages',
  'bindings',
  'prebuild-install',
  'nan',
  'node-addon-api',
  'node-pre-gyp',
  '@mapbox/node-pre-gyp',
  'napi-macros',
]);

// Install scripts that build or fetch native code, as npm writes them for a binding.gyp
// ("node-gyp rebuild") or as addon tool chains do.
const BUILDING_SCRIPT = /node-gyp|prebuild|node-pre-gyp|cmake-js|napi\b|neon\b|cargo\b/;

/**
 * Why a manifest (one version's package.json as the registry serves it, or as installed)
 * is native, or null. `scripts` with install hooks that build, `gypfile`, a node-pre-gyp
 * `binary` section, `os`/`cpu` (a platform binary package), or a native dependency.
 */
export function nativeReason(manifest) {
  if (NATIVE_DEPENDENCIES.has(manifest.name)) return 'a native addon tool chain';
  if (manifest.gypfile) return 'gypfile (binding.gyp)';
  if (manifest.binary && manifest.binary.module_name) return 'node-pre-gyp binary';
  for (const hook of ['preinstall', 'install', 'postinstall']) {
    const script = manifest.scripts && manifest.scripts[hook];
    if (script && BUILDING_SCRIPT.test(script)) return `${hook} script builds native code: ${script}`;
  }
  if ((manifest.os && manifest.os.length) || (manifest.cpu && manifest.cpu.length)) {
    return `platform binary package (os ${JSON.stringify(manifest.os || [])}, cpu ${JSON.stringify(manifest.cpu || [])})`;
  }
  for (const field of ['dependencies', 'optionalDependencies']) {
    for (const dep of Object.keys(manifest[field] || {})) {
      if (NATIVE_DEPENDENCIES.has(dep)) return `depends on ${dep}`;
    }
  }
  return null;
}
