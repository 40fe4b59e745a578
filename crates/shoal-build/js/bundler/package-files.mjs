// Which files of the Function's npm packages `fs` (and a require() of a
// computed path) can read at run time. In Kyma's pod node_modules is on
// disk, and packages read their own files: package.json for a version,
// fonts, templates, JSON tables, a folder of rules they list. A bundled
// Function has what the bundle holds, so these go into shoal:function-files
// with the Function's own files, where Kyma's pod has them
// (/usr/src/app/function/node_modules/<package>/...).
//
// The rule, to keep bundles small:
// - every bundled package's package.json, when the bundle can read files
//   (it has node:fs, or the run-time loader);
// - what code that resolves modules itself names in a string
//   (`createRequire(import.meta.url)('mdn-data/css/at-rules.json')`,
//   `['eslint-config-airbnb-base'].map(require.resolve)`), where Node
//   resolves it from that file: its data is readable, its code listed (and
//   bundled, for code that requires through createRequire, which esbuild
//   does not follow);
// - a package that lists a folder (readdir) and requires by a computed
//   name (rules, plugins, stores loaded from their folder) has all its
//   JavaScript bundled, up to PACKAGE_CODE_LIMIT;
// - a package whose bundled code finds files next to itself (it names
//   __dirname, __filename, import.meta, require.resolve or createRequire)
//   also has its data files: everything but code, type declarations, source
//   maps and documents, outside nested node_modules and test or example
//   folders, each up to PACKAGE_FILE_LIMIT, the package's up to
//   PACKAGE_LIMIT, all packages' up to PACKAGES_LIMIT (past those a file is
//   listed, not readable, and the build warns). Its other files are listed
//   (readdir and stat see them; reading one says why it cannot), except
//   code files its code names in a string ('_prelude.js', a
//   require.resolve() target), which it reads as text: those are readable.
import fs from "node:fs";
import path from "node:path";
import { createRequire, isBuiltin } from "node:module";

export const PACKAGE_FILE_LIMIT = 1 << 20;
export const PACKAGE_LIMIT = 2 << 20;
export const PACKAGES_LIMIT = 8 << 20;
export const PACKAGE_CODE_LIMIT = 4 << 20;
// What resolving code names: a package ("tslib", "@babel/parser",
// "mdn-data/css/at-rules.json") or a relative path.
const SPECIFIER = /(["'])((?:\.{1,2}\/|@[a-z0-9][\w.-]*\/)?[a-z0-9@][\w.-]*(?:\/[\w.@-]+)*)\1/gi;
const COMPUTED_REQUIRE = /(?<![\w$.])require\s*\(\s*(?![\s"'`)])/;
const LISTS_FOLDER = /\breaddir(?:Sync)?\b/;
const RESOLVES_ITSELF = /\bcreateRequire\b|\brequire\.resolve\b/;

const CODE_OR_DOCS = /\.(?:[cm]?[jt]sx?|map|md|markdown|mdx|flow|coffee|node|gyp|gypi|c|cc|cpp|h|hpp|o|a|py|sh|bat|cmd|ps1)$/i;
const CODE = /\.(?:[cm]?[jt]sx?)$/i;
const DOC_NAMES = /^(?:readme|license|licence|changelog|changes|history|authors|contributors|notice|copying)(?:[.-](?:md|markdown|txt|rst|mit|apache[\w.-]*|bsd[\w.-]*))?$/i;
const SKIPPED_DIRS = new Set(["node_modules", "test", "tests", "__tests__", "__mocks__", "spec", "specs", "example", "examples", "benchmark", "benchmarks", "bench", "coverage", ".nyc_output"]);
// A code file's name in a string that is not a require()/import of it.
const STRING = /(["'`])([^"'`\\\n$]{1,100})\1/g;
const NAMED_FILE = /(\brequire\s*\(\s*|\bfrom\s*|\bimport\s*\(?\s*)?(["'`])([^"'`\\\n$]{1,200}\.[cm]?[jt]s)\2/g;
const RESOLVED = /\brequire\.resolve\s*\(\s*(["'])([^"'\\\n]{1,300})\1/g;

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** A file's entry in shoal:function-files: its text, its bytes in base64, or only its size. */
function contentEntry(bytes) {
  try {
    return utf8.decode(bytes);
  } catch {
    return { b: Buffer.from(bytes).toString("base64") };
  }
}

/**
 * The package files to add to shoal:function-files: { files, warnings }.
 * `bundled`: the real paths of the bundled modules; `locating`: those whose
 * code finds files next to itself; `texts`: their source.
 */
export function packageFiles({ pod, bundled, locating, texts }) {
  const files = {};
  const warnings = [];
  // Modules to bundle besides what esbuild found (real paths).
  const modules = new Set();
  const packages = new Map();
  for (const file of bundled) {
    const root = pod.packageRoot(file);
    if (!root) continue;
    if (!packages.has(root)) packages.set(root, { files: [], locating: false });
    const p = packages.get(root);
    p.files.push(file);
    if (locating.has(file)) p.locating = true;
  }
  let total = 0;
  const add = (real, bytes) => {
    files[pod.podPath(real)] = contentEntry(bytes);
    total += bytes.length;
  };
  const addPackageJson = (root) => {
    const manifest = path.join(root, "package.json");
    if (files[pod.podPath(manifest)] !== undefined) return;
    try {
      add(manifest, fs.readFileSync(manifest));
    } catch {
      // A package folder without a manifest (a nested "dist/package.json"-less layout).
    }
  };
  const roots = [...packages.keys()].sort();
  for (const root of roots) addPackageJson(root);

  // require.resolve('...') targets: readable, with their package's manifest.
  const wantedText = new Set();
  for (const file of bundled) {
    const text = texts.get(file);
    if (!text || !pod.isPackageFile(file) || !text.includes("require.resolve")) continue;
    const req = createRequire(file);
    for (const m of text.matchAll(RESOLVED)) {
      try {
        const target = req.resolve(m[2]);
        if (pod.podPath(target) === null) continue;
        wantedText.add(target);
        const root = pod.packageRoot(target);
        if (root) addPackageJson(root);
      } catch {
        // Not installed: require.resolve() throws MODULE_NOT_FOUND at run time, as in Node.
      }
    }
  }

  // Strings that resolving code names, resolved as Node would from there.
  const bundledSet = new Set(bundled);
  const listed = new Set();
  for (const file of bundled) {
    const text = texts.get(file);
    if (!text || !RESOLVES_ITSELF.test(text)) continue;
    const req = createRequire(file);
    const bundles = text.includes("createRequire");
    const specifiers = new Set();
    for (const m of text.matchAll(SPECIFIER)) {
      if (specifiers.size >= 300) break;
      specifiers.add(m[2]);
    }
    for (const specifier of specifiers) {
      if (isBuiltin(specifier)) continue;
      let target;
      try {
        target = req.resolve(specifier);
      } catch {
        continue;
      }
      if (pod.podPath(target) === null || bundledSet.has(target)) continue;
      const root = pod.packageRoot(target);
      if (root) addPackageJson(root);
      if (CODE.test(target)) {
        if (bundles && /\.c?js$/.test(target)) modules.add(target);
        else listed.add(target);
      } else {
        wantedText.add(target);
      }
    }
  }

  // Packages that require what they find in their folders: all their code.
  for (const root of roots) {
    const pkg = packages.get(root);
    const sources = pkg.files.map((f) => texts.get(f) || "");
    if (!sources.some((t) => COMPUTED_REQUIRE.test(t)) || !sources.some((t) => LISTS_FOLDER.test(t))) continue;
    const code = [];
    let size = 0;
    const walk = (dir) => {
      let entries;
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const ent of entries) {
        if (ent.name.startsWith(".")) continue;
        const full = path.join(dir, ent.name);
        if (ent.isDirectory()) {
          if (!SKIPPED_DIRS.has(ent.name) && ent.name !== "bin") walk(full);
        } else if (ent.isFile() && /\.c?js$/.test(ent.name) && !bundledSet.has(full)) {
          code.push(full);
          size += fs.statSync(full).size;
        }
      }
    };
    walk(root);
    const name = root.slice(root.lastIndexOf("/node_modules/") + "/node_modules/".length);
    if (size > PACKAGE_CODE_LIMIT) {
      warnings.push(`the package ${name} requires modules by computed names from its folders; its ${code.length} other modules (${size >> 10} KiB) are past the ${PACKAGE_CODE_LIMIT >> 20} MiB Shoal bundles for that, so such a require() fails`);
      continue;
    }
    for (const file of code.sort()) modules.add(file);
  }

  // What the Function's own code names ({ font: 'Small' }) counts first.
  const ownStrings = new Set();
  for (const file of bundled) {
    if (pod.isPackageFile(file) || pod.podPath(file) === null) continue;
    for (const m of (texts.get(file) || "").matchAll(STRING)) ownStrings.add(path.posix.basename(m[2]));
  }
  const walked = [];
  for (const root of roots) {
    const pkg = packages.get(root);
    if (!pkg.locating) continue;
    // Names the code spells out: a code file it reads ('_prelude.js'), a
    // data file it picks by name. When the package's files pass the
    // limits, those the Function's code names come first, then those the
    // package's code names most (figlet lists every font once and names its
    // default, "Standard", again).
    const named = new Set();
    const strings = new Map();
    for (const file of pkg.files) {
      const text = texts.get(file);
      if (!text) continue;
      for (const m of text.matchAll(NAMED_FILE)) if (!m[1]) named.add(path.posix.basename(m[3]));
      for (const m of text.matchAll(STRING)) {
        const name = path.posix.basename(m[2]);
        strings.set(name, (strings.get(name) || 0) + 1);
      }
    }
    const candidates = [];
    const walk = (dir) => {
      let entries;
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        return;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const ent of entries) {
        if (ent.name.startsWith(".")) continue;
        const full = path.join(dir, ent.name);
        if (ent.isDirectory()) {
          if (!SKIPPED_DIRS.has(ent.name)) walk(full);
          continue;
        }
        if (!ent.isFile()) continue;
        const podPath = pod.podPath(full);
        if (files[podPath] !== undefined) continue;
        const size = fs.statSync(full).size;
        const data = !CODE_OR_DOCS.test(ent.name) && !DOC_NAMES.test(ent.name);
        const wanted = data || wantedText.has(full) || (CODE.test(ent.name) && named.has(ent.name));
        if (!wanted) {
          files[podPath] = { size };
          continue;
        }
        const stem = ent.name.replace(/\.[^.]*$/, "");
        const own = ownStrings.has(ent.name) || ownStrings.has(stem) ? 1000 : 0;
        const mentions = own + (strings.get(ent.name) || 0) + (strings.get(stem) || 0);
        // Code files wanted here are read by the code: they come first.
        candidates.push({ full, podPath, size, rank: data ? mentions : Infinity });
      }
    };
    walk(root);
    walked.push({ root, candidates, size: candidates.reduce((sum, c) => sum + c.size, 0) });
  }
  // The packages with the least data first, so that one large package does
  // not leave the others unreadable; for a reproducible bundle, ties by name.
  walked.sort((a, b) => a.size - b.size || (a.root < b.root ? -1 : 1));
  for (const { root, candidates } of walked) {
    let packageTotal = 0;
    const skipped = [];
    // A stable sort: by rank, then in the (sorted) order of the walk.
    for (const c of candidates.map((c, i) => ({ ...c, i })).sort((a, b) => b.rank - a.rank || a.i - b.i)) {
      if (c.size > PACKAGE_FILE_LIMIT || packageTotal + c.size > PACKAGE_LIMIT || total + c.size > PACKAGES_LIMIT) {
        files[c.podPath] = { size: c.size };
        skipped.push(path.relative(root, c.full));
        continue;
      }
      packageTotal += c.size;
      add(c.full, fs.readFileSync(c.full));
    }
    if (skipped.length) {
      const name = root.slice(root.lastIndexOf("/node_modules/") + "/node_modules/".length);
      const shown = skipped.length > 3 ? `${skipped.slice(0, 3).join(", ")} and ${skipped.length - 3} more` : skipped.join(", ");
      warnings.push(
        `fs cannot read ${skipped.length} file${skipped.length > 1 ? "s" : ""} of the package ${name} (${shown}): a package's files readable with fs are limited to ${PACKAGE_FILE_LIMIT >> 10} KiB each, ${PACKAGE_LIMIT >> 20} MiB a package, ${PACKAGES_LIMIT >> 20} MiB in all`,
      );
    }
  }
  for (const target of listed) {
    const podPath = pod.podPath(target);
    if (files[podPath] === undefined && !modules.has(target)) files[podPath] = { size: fs.statSync(target).size };
  }
  // require.resolve() targets outside the packages walked above.
  for (const target of wantedText) {
    const podPath = pod.podPath(target);
    const entry = files[podPath];
    if (entry !== undefined && typeof entry !== "object") continue;
    if (entry !== undefined && entry.b !== undefined) continue;
    const size = fs.statSync(target).size;
    if (size <= PACKAGE_FILE_LIMIT && total + size <= PACKAGES_LIMIT) add(target, fs.readFileSync(target));
    else files[podPath] = { size };
  }
  return { files, warnings, modules: [...modules].sort() };
}
