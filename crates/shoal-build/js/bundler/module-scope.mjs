// What each bundled module knows about itself, as Node gives it: its own
// __dirname and __filename, import.meta.url/dirname/filename/resolve, and
// for CommonJS require.resolve/cache/main/extensions and module.id,
// filename, paths, parent, require. esbuild's `define` would give every
// module one value; instead each module that names one of these gets a
// one-line header declaring them with the path its file has in Kyma's pod
// (/usr/src/app/function/..., node_modules included), and the bundler's
// `define` (MODULE_SCOPE_DEFINES) points import.meta.* and require.* at
// the header's variables (a local `require`, such as createRequire's,
// keeps its own).
import fs from "node:fs";
import path from "node:path";

export const POD_FUNCTION_DIR = "/usr/src/app/function";

/** define entries (esbuild) for the names a header declares. */
export const MODULE_SCOPE_DEFINES = {
  "import.meta.url": "__shoal_import_meta_url",
  "import.meta.dirname": "__shoal_import_meta_dirname",
  "import.meta.filename": "__shoal_import_meta_filename",
  "import.meta.resolve": "__shoal_import_meta_resolve",
  "require.resolve": "__shoal_require.resolve",
  "require.cache": "__shoal_require.cache",
  "require.main": "__shoal_require.main",
  "require.extensions": "__shoal_require.extensions",
};

/** Maps the build's real paths to the paths the files have in Kyma's pod. */
export class PodPaths {
  constructor(dir) {
    this.dir = fs.realpathSync(dir);
    const modules = path.join(dir, "node_modules");
    // node_modules is often a link into the build's dependency cache:
    // esbuild reports the files by their real paths.
    this.nodeModules = fs.existsSync(modules) ? fs.realpathSync(modules) : path.join(this.dir, "node_modules");
  }

  /** The pod path of `file` (real and absolute), or null for files outside the Function (Shoal's own). */
  podPath(file) {
    if (file.startsWith(`${this.nodeModules}/`)) return `${POD_FUNCTION_DIR}/node_modules/${file.slice(this.nodeModules.length + 1)}`;
    if (file.startsWith(`${this.dir}/`)) return `${POD_FUNCTION_DIR}/${file.slice(this.dir.length + 1)}`;
    return null;
  }

  /** The real path of a pod path, or null. */
  realPath(pod) {
    const modules = `${POD_FUNCTION_DIR}/node_modules/`;
    if (pod.startsWith(modules)) return path.join(this.nodeModules, pod.slice(modules.length));
    if (pod.startsWith(`${POD_FUNCTION_DIR}/`)) return path.join(this.dir, pod.slice(POD_FUNCTION_DIR.length + 1));
    return null;
  }

  /** Whether `file` belongs to an npm package (not to the Function's own code). */
  isPackageFile(file) {
    const pod = this.podPath(file);
    return pod !== null && pod.startsWith(`${POD_FUNCTION_DIR}/node_modules/`);
  }

  /** The folder of the npm package `file` belongs to (real path), or null. */
  packageRoot(file) {
    if (!this.isPackageFile(file)) return null;
    const i = file.lastIndexOf("/node_modules/");
    const rest = file.slice(i + "/node_modules/".length).split("/");
    const nameParts = rest[0].startsWith("@") ? 2 : 1;
    if (rest.length <= nameParts) return null;
    return file.slice(0, i + "/node_modules/".length) + rest.slice(0, nameParts).join("/");
  }
}

const DIRECTIVE = /^(["'])(?:(?!\1)[^\\\n])*\1/;
const SPACE_AND_COMMENTS = /^(?:\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*/;

/**
 * Where code may be inserted without changing what the file means: after
 * its shebang and its directive prologue ("use strict"), so that a
 * directive stays one. `semicolon`: the last directive has none (the
 * inserted code must end it).
 */
export function afterDirectives(text) {
  let at = 0;
  if (text.charCodeAt(0) === 0xfeff) at = 1;
  if (text.startsWith("#!", at)) {
    const eol = text.indexOf("\n", at);
    if (eol < 0) return { at: text.length, semicolon: false };
    at = eol + 1;
  }
  let insert = { at, semicolon: false };
  for (;;) {
    const from = insert.at;
    const lead = SPACE_AND_COMMENTS.exec(text.slice(from, from + 4096))[0].length;
    const directive = DIRECTIVE.exec(text.slice(from + lead, from + lead + 512));
    if (!directive) return insert;
    // A string statement is a directive only when it ends there.
    const end = from + lead + directive[0].length;
    const tail = /^[ \t]*(?:\/\*[^\n]*?\*\/[ \t]*)*(;|\r?\n|\/\/|$)/.exec(text.slice(end, end + 256));
    if (!tail) return insert;
    insert = tail[1] === ";" ? { at: end + tail[0].length, semicolon: false } : { at: end, semicolon: true };
  }
}

// Code that declares these names itself (prettier's ESM does, from
// import.meta.url) keeps its own.
const declares = (text, name) => new RegExp(`\\b(?:const|let|class|var|function)\\s+${name}\\b|\\bimport\\s*\\{[^}]*\\b${name}\\b`).test(text);
const ESM_SYNTAX = /(?:^|[;}\n])[ \t]*(?:import(?:\s+[\w$*{"']|\s*[{*"'])|export(?:\s+[\w$]|\s*[{*]))|\bimport(?:\s|\/\*[\s\S]*?\*\/)*\.\s*meta\b/;
const DECLARES_REQUIRE = /\b(?:const|let|var|function)\s+require\b/;
const IMPORT_META = /\bimport(?:\s|\/\*[\s\S]*?\*\/)*\.\s*meta\b/;
const LOCATION = /\b__dirname\b|\b__filename\b|\bimport(?:\s|\/\*[\s\S]*?\*\/)*\.\s*meta\b|\brequire\.resolve\b|\bcreateRequire\b/;

/**
 * What the header of `file` (real path; its text) declares, and what it
 * tells the bundler: `header` (one line, '' for none), `usesLocation`
 * (the code finds files next to itself: its package's data files are
 * worth keeping), `usesLoader` (the header brings in the run-time loader),
 * `needsLoaderGlobal` (the header reaches it as a global, which the entry
 * must install).
 */
export function moduleScope(text, file, pod, loaderFile, esm) {
  const podFile = pod.podPath(file);
  const result = { header: "", usesLocation: false, usesLoader: false, needsLoaderGlobal: false };
  if (podFile === null) return result;
  const podDir = path.posix.dirname(podFile);
  const parts = [];
  // An ES module may name its own `require` (createRequire's): it imports
  // the loader instead.
  let loader = `require(${JSON.stringify(loaderFile)})`;
  const loaderUse = () => {
    if (esm && loader.startsWith("require(")) {
      parts.unshift(`import * as __shoal_module_loader from ${JSON.stringify(loaderFile)};`);
      loader = "__shoal_module_loader";
    }
    return loader;
  };
  if (text.includes("__dirname") && !declares(text, "__dirname")) parts.push(`var __dirname = ${JSON.stringify(podDir)};`);
  if (text.includes("__filename") && !declares(text, "__filename")) parts.push(`var __filename = ${JSON.stringify(podFile)};`);
  // `import /*::(_)*/.meta.url` is import.meta.url too.
  if (IMPORT_META.test(text)) {
    const url = `file://${encodeURI(podFile)}`;
    parts.push(`var __shoal_import_meta_url = ${JSON.stringify(url)};`);
    parts.push(`var __shoal_import_meta_dirname = ${JSON.stringify(podDir)};`);
    parts.push(`var __shoal_import_meta_filename = ${JSON.stringify(podFile)};`);
    if (/\bmeta\s*\.\s*resolve\b/.test(text)) {
      parts.push(`var __shoal_import_meta_resolve = (specifier) => ${loaderUse()}.resolveURL(specifier, __shoal_import_meta_url);`);
      result.usesLoader = true;
    }
  }
  // CommonJS code naming its own `require` would call that in the header:
  // it reaches the loader through a global the bundle's entry installs.
  if (!esm && DECLARES_REQUIRE.test(text)) {
    loader = "globalThis.__shoal_module_loader";
    result.needsLoaderGlobal = true;
  }
  if (/\brequire\.(?:resolve|cache|main|extensions)\b/.test(text)) {
    parts.push(`var __shoal_require = ${loaderUse()}.requireFor(${JSON.stringify(podFile)});`);
    result.usesLoader = true;
  }
  if (!esm && /\bmodule\.(?!exports\b)[A-Za-z_$]/.test(text)) {
    parts.push(`${loaderUse()}.initModule(module, ${JSON.stringify(podFile)});`);
    result.usesLoader = true;
  }
  result.header = parts.join(" ");
  result.usesLocation = LOCATION.test(text);
  return result;
}

// Each folder's package type, for one build (clearPackageTypes).
const packageTypes = new Map();

/** Forgets the package types seen: a new build sees its own files. */
export function clearPackageTypes() {
  packageTypes.clear();
}

function packageType(dir) {
  if (packageTypes.has(dir)) return packageTypes.get(dir);
  let type = null;
  try {
    type = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).type || "commonjs";
  } catch {
    const parent = path.dirname(dir);
    type = parent === dir ? "commonjs" : packageType(parent);
  }
  packageTypes.set(dir, type);
  return type;
}

/** Whether esbuild will take `file` for an ES module (its syntax, extension or package type). */
export function looksLikeEsm(text, file) {
  if (/\.m[jt]s$/.test(file)) return true;
  if (/\.c[jt]s$/.test(file)) return false;
  if (ESM_SYNTAX.test(text)) return true;
  return /\.[jt]sx?$/.test(file) && packageType(path.dirname(file)) === "module";
}

/** `text` with `header` inserted after its directives, on the same line (line numbers stay). */
export function withHeader(text, header) {
  if (!header) return text;
  const { at, semicolon } = afterDirectives(text);
  return `${text.slice(0, at)}${semicolon ? ";" : ""}${header} ${text.slice(at)}`;
}
