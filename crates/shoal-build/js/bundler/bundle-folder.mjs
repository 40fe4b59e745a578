// One Function's bundle: its handler, its npm dependencies and Shoal's
// prelude as one ES module script for Javy. `bundleFolder` is all of it;
// ../bundle.mjs runs it once (a command) or for build after build (the
// build service's bundler), so nothing here outlives a call.
import { context } from "esbuild";
import {
  BUNDLED_BUILTINS,
  BUNDLED_BUILTINS_NAMESPACE,
  UNKNOWN_BUILTIN_NAMESPACE,
  bareName,
  builtinNamesOfFile,
  bundledBuiltinsSource,
  isBuiltin,
  moduleFile,
  nodeDir,
  requiredBuiltinNames,
  unknownBuiltinSource,
  unknownBuiltinWarning,
} from "../node/modules.mjs";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MissingModules } from "./missing.mjs";
import { MODULE_SCOPE_DEFINES, PodPaths, clearPackageTypes, looksLikeEsm, moduleScope, withHeader } from "./module-scope.mjs";
import { packageFiles } from "./package-files.mjs";
import { InjectedGlobals, globalSources } from "./injected-globals.mjs";
import { withNodeHelpers } from "./runtime-helpers.mjs";
import { STRICT_MODE_ERROR, fromSourceModule, needsFunctionSource, needsSloppyMode } from "./compiled-at-run-time.mjs";


// What does not depend on the Function: read and compiled once per
// process (a bundler serves build after build).
const prelude = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "prelude.js");
// The prelude's own modules (runtime/), and Kyma's `sdk` module among them.
const runtimeDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "runtime");
const kymaSdk = path.join(runtimeDir, "sdk.js");
const loaderFile = path.join(nodeDir, "internal/module-loader.js");
const GLOBAL_SOURCES = globalSources(path.join(nodeDir, "globals.js"));

// The globals js/node/globals.js supplies through esbuild's inject, which
// sees bare references (`fetch(...)`, `typeof Buffer`) only.
const INJECTED_GLOBALS = [
  "AbortController", "AbortSignal", "Blob", "Buffer", "CustomEvent", "DOMException", "Event", "EventTarget",
  "File", "FormData", "Headers", "Intl", "Request", "Response", "URL", "URLSearchParams", "atob", "btoa",
  "crypto", "fetch", "structuredClone", "ReadableStream", "WritableStream", "TransformStream",
  "TextEncoderStream", "TextDecoderStream", "CompressionStream", "DecompressionStream", "MessageChannel",
  "MessagePort", "BroadcastChannel", "WebSocket", "CloseEvent",
];
const FREE_GLOBAL = new RegExp(`(?<![\\w$.])(${INJECTED_GLOBALS.join("|")})\\b`, "g");
const GLOBAL_MEMBER = new RegExp(`\\b(?:globalThis|global|self)\\s*(?:\\.\\s*|\\[\\s*["'])(${INJECTED_GLOBALS.join("|")})\\b`, "g");

// `typeof require` not followed by a member access or call.
const TYPEOF_REQUIRE = /\btypeof\s+require\b(?!\s*[.[(])/g;

// `process.x` beyond what the prelude gives (env, argv, version...): the
// Function needs node/process.js (stdout, on, emitWarning, pid...).
const PROCESS_MEMBER = /\bprocess\s*\.\s*(?!(?:env|argv|platform|version|versions|nextTick|hrtime|cwd|exit)\b)[A-Za-z_$]/;
const DECLARES_REQUIRE = /\b(?:const|let|var|function)\s+require\b/;
// esbuild's shim for a require() it could not bundle: the bundle needs a
// run-time require (node/internal/module-loader.js).
const REQUIRE_SHIM = `throw Error('Dynamic require of "' + x + '" is not supported');`;

const JS_LIKE = /\.(?:[cm]?js|jsx|[cm]?ts|tsx)$/;
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// Node's globals that are enumerable properties of its globalThis; the
// others (URL, Buffer, TextEncoder...) are not.
const ENUMERABLE_GLOBALS = new Set(["global", "queueMicrotask", "structuredClone", "atob", "btoa", "performance", "fetch", "crypto", "navigator"]);

/**
 * Bundles the Function in `dir` (handler.js, and package.json with
 * node_modules) to `out`.
 *
 * @returns {{ ok: boolean, messages: string[] }} on failure the errors, each
 * "file:line:column: message"; on success the warnings, each "warning: ...".
 */
export async function bundleFolder(dir, out) {
  clearPackageTypes();
  const entry = path.join(dir, "__shoal_entry.mjs");
  const globalsInstaller = path.join(dir, "__shoal_globals.mjs");
  const requireInstaller = path.join(dir, "__shoal_require.mjs");
  const injected = new InjectedGlobals(GLOBAL_SOURCES, path.join(dir, "__shoal_inject.mjs"));
  const pod = new PodPaths(dir);
  const missingModules = new MissingModules(dir, pod);
  // A dynamic import keeps the handler's load failures catchable by the
  // prelude, which then answers "User function not loaded" like Kyma.
  function writeEntry({ installGlobals = false, installRequire = false } = {}) {
    const install = installGlobals ? `import ${JSON.stringify(globalsInstaller)};\n` : "";
    const require = installRequire ? `import ${JSON.stringify(requireInstaller)};\n` : "";
    writeFileSync(entry, `${install}${require}import { run } from ${JSON.stringify(prelude)};\nawait run(() => import("./handler.js"));\n`);
  }

  // Each module's source as read (by the module scope plugin), and what its
  // header says.
  const texts = new Map();
  const scopes = new Map();

  /**
   * What the first build shows needs a second one:
   * - `members`: globals the bundled code reaches as members
   *   (`globalThis.crypto`, `global.Buffer`). Those must really be on
   *   globalThis, so a small module puts them there before anything else runs.
   * - `usesProcess`: code uses more of `process` than the prelude gives.
   * - `esmTestingRequire`: ES modules that test `typeof require`. In Node an
   *   ES module has no `require` (packages pick their ESM or CommonJS code by
   *   this test); esbuild turns it into its require shim, which exists.
   * - `builtins`: the built-ins a run-time require() can return: those in
   *   the bundle and those the code names in require('...') calls
   *   (node/modules.mjs, BUNDLED_BUILTINS), when node:module or the
   *   run-time loader is bundled.
   * - `modules`: the bundled modules a run-time require() can return (pod
   *   path -> real path): those esbuild wraps anyway (CommonJS ones and ES
   *   modules something requires or imports dynamically), so that listing
   *   them adds no wrapper.
   * - `files`: the packages' files fs can read, and `extraModules`, modules
   *   to bundle that only a run-time require() reaches
   *   (bundler/package-files.mjs).
   */
  function scanInputs(metafile, output) {
    const names = new Set();
    const esmTestingRequire = [];
    const builtins = new Set();
    const bundled = [];
    const locating = new Set();
    const wrapped = new Set();
    const installRequire = output.includes(REQUIRE_SHIM);
    let usesModule = false;
    let usesFs = false;
    let usesLoader = installRequire;
    let usesProcess = false;
    let usesBinding = false;
    let needsLoaderGlobal = false;
    // The modules esbuild wrapped (CommonJS ones, and ES modules something
    // requires or imports dynamically): their wrapper names their path.
    for (const m of output.matchAll(/\b(?:__commonJS|__esm)\(\{\n {2}"([^"\n]+)"\(/g)) wrapped.add(path.resolve(dir, m[1]));
    const modules = {};
    // What the bundle holds: esbuild loads every module it meets (all of a
    // package's index, for one) and drops those nothing uses.
    const inOutput = Object.values(metafile.outputs)[0].inputs;
    for (const [input, info] of Object.entries(metafile.inputs)) {
      if (!inOutput[input] || inOutput[input].bytesInOutput === 0) continue;
      // Modules made in memory (the Function's files, stand-ins for unknown
      // built-ins, the registries) are not the Function's code.
      if (/^[\w-]+:/.test(input)) continue;
      const file = path.resolve(dir, input);
      if (file.startsWith(nodeDir)) {
        for (const name of builtinNamesOfFile(file)) builtins.add(name);
        if (file === moduleFile("module")) usesModule = true;
        if (file === moduleFile("fs") || file === moduleFile("fs/promises")) usesFs = true;
        if (file === loaderFile) usesLoader = true;
        continue;
      }
      if (file === prelude || file.startsWith(`${runtimeDir}/`) || file === entry || file === globalsInstaller || file === requireInstaller || file === injected.file) continue;
      const text = texts.has(file) ? texts.get(file) : readFileSync(file, "utf8");
      texts.set(file, text);
      bundled.push(file);
      const scope = scopes.get(file);
      if (scope && scope.usesLocation) locating.add(file);
      if (scope && scope.needsLoaderGlobal) needsLoaderGlobal = true;
      const podPath = pod.podPath(file);
      if (podPath && (info.format === "cjs" || wrapped.has(file))) modules[podPath] = file;
      for (const m of text.matchAll(GLOBAL_MEMBER)) names.add(m[1]);
      for (const name of requiredBuiltinNames(text)) builtins.add(name);
      if (!usesProcess && PROCESS_MEMBER.test(text)) usesProcess = true;
      if (!usesBinding && /\bprocess\s*\.\s*binding\b/.test(text)) usesBinding = true;
      if (info.format === "esm" && TYPEOF_REQUIRE.test(text) && !DECLARES_REQUIRE.test(text)) esmTestingRequire.push(file);
      TYPEOF_REQUIRE.lastIndex = 0;
    }
    if (needsLoaderGlobal) usesLoader = true;
    const canRead = usesFs || usesLoader || usesModule;
    const { files, warnings, modules: extraModules } = canRead
      ? packageFiles({ pod, bundled, locating, texts })
      : { files: {}, warnings: [], modules: [] };
    // Code a package keeps readable is compiled by the package at run time
    // (uglify-js reads its sources and runs them): the globals it names must
    // be real globals, as esbuild's inject reaches only bundled code.
    for (const [file, entry] of Object.entries(files)) {
      if (typeof entry !== "string" || !/\.[cm]?js$/.test(file)) continue;
      for (const m of entry.matchAll(FREE_GLOBAL)) names.add(m[1]);
    }
    return {
      members: [...names].sort(),
      usesProcess,
      usesBinding,
      esmTestingRequire,
      builtins: usesModule || usesLoader ? [...builtins].sort() : [],
      installRequire,
      needsLoaderGlobal,
      modules: usesLoader || usesModule ? modules : {},
      extraModules: usesLoader || usesModule ? extraModules : [],
      files,
      warnings,
    };
  }

  // What shoal:bundled-builtins holds in this build (empty in the first).
  let registryNames = [];
  const bundledBuiltins = {
    name: "shoal-bundled-builtins",
    setup(b) {
      b.onResolve({ filter: new RegExp(`^${BUNDLED_BUILTINS}$`) }, () => ({ path: "registry", namespace: BUNDLED_BUILTINS_NAMESPACE }));
      b.onLoad({ filter: /.*/, namespace: BUNDLED_BUILTINS_NAMESPACE }, () => ({
        contents: bundledBuiltinsSource(registryNames),
        loader: "js",
        resolveDir: nodeDir,
      }));
    },
  };

  // process.binding('constants') (node/process.js): Node 22's table, bundled
  // only when the code names process.binding.
  let usesProcessBinding = false;
  const processBinding = {
    name: "shoal-process-binding",
    setup(b) {
      b.onResolve({ filter: /^shoal:process-binding-constants$/ }, () =>
        usesProcessBinding ? { path: path.join(nodeDir, "internal/binding-constants.js") } : { path: "none", namespace: "shoal-process-binding" },
      );
      b.onLoad({ filter: /.*/, namespace: "shoal-process-binding" }, () => ({ contents: "module.exports = null;", loader: "js" }));
    },
  };

  // shoal:bundled-modules, for the run-time loader: each bundled module a
  // require() at run time can return, by its pod path (empty in the first
  // build). esbuild gives the same module for the same file, so this adds no
  // copy: only a lazy reference.
  let registryModules = {};
  const bundledModules = {
    name: "shoal-bundled-modules",
    setup(b) {
      b.onResolve({ filter: /^shoal:bundled-modules$/ }, () => ({ path: "modules", namespace: "shoal-bundled-modules" }));
      b.onLoad({ filter: /.*/, namespace: "shoal-bundled-modules" }, () => {
        const entries = Object.keys(registryModules)
          .sort()
          .map((p) => `  ${JSON.stringify(p)}: () => require(${JSON.stringify(registryModules[p])}),`);
        return { contents: `module.exports = {\n${entries.join("\n")}\n};\n`, loader: "js", resolveDir: dir };
      });
    },
  };

  // The names globals.js exports (esbuild's inject), which a module run in
  // compiled at run time is handed (bundler/compiled-at-run-time.mjs).
  const INJECTABLE = injected.names;
  // Package modules (pod paths) esbuild refused for strict mode: they run sloppy.
  const sloppyModules = new Set();

  // Each module of the Function and its packages, as esbuild loads it: with
  // the header that gives it its own __dirname, import.meta.url, require.resolve
  // and module fields (bundler/module-scope.mjs); ES modules that test
  // `typeof require` (esmTypeofRequire, after the first build) see none, as
  // in Node. A file esbuild cannot load (bundler/missing.mjs) gets a stand-in.
  const esmTypeofRequire = new Set();
  const moduleScopes = {
    name: "shoal-module-scopes",
    setup(b) {
      // Shoal's own files (node/, the prelude) are neither.
      const ownFiles = new RegExp(`^(?:${[pod.dir, path.resolve(dir), pod.nodeModules].map(escapeRegExp).join("|")})/`);
      b.onLoad({ filter: ownFiles }, (args) => {
        const unloadable = missingModules.loadUnloadable(args.path);
        if (unloadable) return unloadable;
        if (!JS_LIKE.test(args.path) || args.path.startsWith(nodeDir) || args.path === prelude || args.path.startsWith(`${runtimeDir}/`)) return undefined;
        if (args.path === entry || args.path === globalsInstaller || args.path === requireInstaller || args.path === injected.file) return undefined;
        const text = texts.has(args.path) ? texts.get(args.path) : readFileSync(args.path, "utf8");
        texts.set(args.path, text);
        const esm = looksLikeEsm(text, args.path);
        const podFile = pod.podPath(args.path);
        // A package's CommonJS module that needs sloppy mode or its functions'
        // source is compiled at run time (bundler/compiled-at-run-time.mjs).
        if (!esm && pod.isPackageFile(args.path) && (sloppyModules.has(podFile) || needsSloppyMode(text) || needsFunctionSource(text))) {
          scopes.set(args.path, { header: "", usesLocation: /\b__dirname\b|\b__filename\b|\brequire\.resolve\b/.test(text), usesLoader: true });
          return { contents: fromSourceModule(text, podFile, loaderFile, INJECTABLE), loader: "js", resolveDir: path.dirname(args.path) };
        }
        const scope = moduleScope(text, args.path, pod, loaderFile, esm);
        scopes.set(args.path, scope);
        let contents = withHeader(text, scope.header);
        if (esmTypeofRequire.has(args.path)) contents = contents.replace(TYPEOF_REQUIRE, "typeof void 0");
        if (contents === text) return undefined;
        const loader = /\.[cm]?ts$/.test(args.path) ? "ts" : /\.tsx$/.test(args.path) ? "tsx" : /\.jsx$/.test(args.path) ? "jsx" : "js";
        return { contents, loader, resolveDir: path.dirname(args.path) };
      });
    },
  };

  // Node's built-in modules map to js/node (node/modules.mjs), which has a
  // file for every built-in of Node 22. One it does not know (a newer Node's)
  // never fails the build: it gets a module that throws when used, and the
  // build warns, naming it.
  const nodeBuiltins = {
    name: "shoal-node-builtins",
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.kind === "entry-point") return undefined;
        // readable-stream falls back to this npm package without a global
        // AbortController: one AbortSignal class for everything.
        if (args.path === "abort-controller") return { path: path.join(nodeDir, "internal/abort.js") };
        // Kyma's sdk module (nodejs26), unless the Function has a package of
        // that name: its node_modules comes first in Kyma's pod too.
        if (args.path === "sdk" && !existsSync(path.join(dir, "node_modules", "sdk"))) return { path: kymaSdk };
        if (!isBuiltin(args.path)) return undefined;
        const file = moduleFile(args.path);
        if (file) return { path: file };
        const name = bareName(args.path);
        const importer = path.relative(dir, args.importer) || "the handler";
        return { path: name, namespace: UNKNOWN_BUILTIN_NAMESPACE, warnings: [{ text: unknownBuiltinWarning(name, importer) }] };
      });
      b.onLoad({ filter: /.*/, namespace: UNKNOWN_BUILTIN_NAMESPACE }, (args) => ({
        contents: unknownBuiltinSource(args.path),
        loader: "js",
        resolveDir: nodeDir,
      }));
    },
  };

  // The Function's own files as Kyma's pod has them in /usr/src/app/function
  // (handler.js, package.json, and for a folder or Git source its other
  // files), and its packages' files that fs can read (bundler/package-files.mjs,
  // in the second build): node/fs.js and the run-time loader read them from
  // this module, bundled only with them. The Function's text files only, up
  // to FUNCTION_FILES_LIMIT bytes in all; the dependencies (node_modules) and
  // what the build writes are left out. An entry is a file's text, its bytes
  // ({ b: base64 }) or, for a file fs can list but not read, its size.
  const FUNCTION_FILES_LIMIT = 4 << 20;
  let packageFileEntries = {};
  const functionFiles = {
    name: "shoal-function-files",
    setup(b) {
      b.onResolve({ filter: /^shoal:function-files$/ }, () => ({ path: "function-files", namespace: "shoal" }));
      b.onLoad({ filter: /.*/, namespace: "shoal" }, () => {
        const files = {};
        const utf8 = new TextDecoder("utf-8", { fatal: true });
        let total = 0;
        const skipped = [];
        const walk = (rel) => {
          const entries = readdirSync(path.join(dir, rel), { withFileTypes: true });
          entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
          for (const ent of entries) {
            const name = rel ? `${rel}/${ent.name}` : ent.name;
            if (!rel && (ent.name === "node_modules" || ent.name === "package-lock.json" || ent.name.startsWith("__shoal_"))) continue;
            if (ent.name.startsWith(".") || path.join(dir, name) === path.resolve(out)) continue;
            if (ent.isDirectory()) walk(name);
            if (!ent.isFile()) continue;
            const bytes = readFileSync(path.join(dir, name));
            let text;
            try {
              text = utf8.decode(bytes);
            } catch {
              continue;
            }
            if (total + bytes.length > FUNCTION_FILES_LIMIT) {
              skipped.push(name);
              continue;
            }
            total += bytes.length;
            files[`/usr/src/app/function/${name}`] = text;
          }
        };
        walk("");
        Object.assign(files, packageFileEntries);
        const warnings = skipped.length
          ? [{ text: `fs cannot read ${skipped.join(", ")}: the Function's files readable with fs are limited to ${FUNCTION_FILES_LIMIT} bytes` }]
          : [];
        return { contents: `module.exports = ${JSON.stringify(files)};`, loader: "js", warnings };
      });
    },
  };

  const options = {
    entryPoints: [entry],
    absWorkingDir: dir,
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2023",
    // How Node 24 resolves: a package's "node" and "module-sync" conditions
    // and its CommonJS entry for require(), its ESM entry for import
    // (esbuild adds "require" or "import" by how each module is imported).
    mainFields: ["main", "module"],
    conditions: ["node", "module-sync"],
    // Web and Node globals (Buffer, URL, fetch, ...): each is bundled only
    // when the Function's code refers to it (bundler/injected-globals.mjs).
    inject: [injected.file],
    // Where Kyma's Node.js runtime keeps the handler. Each module that names
    // __dirname, import.meta.url or require.resolve has its own (the module
    // scope headers); these are for code without one.
    define: {
      __dirname: JSON.stringify("/usr/src/app/function"),
      __filename: JSON.stringify("/usr/src/app/function/handler.js"),
      ...MODULE_SCOPE_DEFINES,
    },
    write: false,
    outfile: out,
    logLevel: "silent",
    legalComments: "none",
    // No keepNames: its __name() call for every function costs each request
    // about 6% of a hello world (measured); node/ pins the names Node shows
    // (Buffer) itself.
    keepNames: false,
    metafile: true,
    plugins: [injected.plugin(), moduleScopes, functionFiles, bundledBuiltins, bundledModules, processBinding, nodeBuiltins],
  };

  // The esbuild context the builds share (a rebuild reuses what did not
  // change). The missing-module plugin resolves every import, so it joins
  // only once there is something missing, in a new context.
  const builds = {
    ctx: null,
    withMissing: false,
    async rebuild() {
      const wantMissing = missingModules.missing.size > 0;
      if (!this.ctx || wantMissing !== this.withMissing) {
        if (this.ctx) await this.ctx.dispose();
        this.withMissing = wantMissing;
        this.ctx = await context({ ...options, plugins: wantMissing ? [missingModules.plugin(), ...options.plugins] : options.plugins });
      }
      return this.ctx.rebuild();
    },
  };


  /**
   * Builds; what a package's code may do in Node but esbuild refuses (a
   * missing module, a file it cannot load, sloppy-mode syntax) is learnt and
   * the build retried.
   */
  async function buildLearning() {
    for (;;) {
      try {
        return await builds.rebuild();
      } catch (err) {
        if (!err.errors) throw err;
        const strict = err.errors.filter((e) => STRICT_MODE_ERROR.test(e.text));
        const other = err.errors.filter((e) => !STRICT_MODE_ERROR.test(e.text));
        for (const e of strict) {
          const file = e.location && e.location.file ? path.resolve(dir, e.location.file) : null;
          if (!file || !pod.isPackageFile(file) || sloppyModules.has(pod.podPath(file))) throw err;
          sloppyModules.add(pod.podPath(file));
        }
        if (other.length > 0 && !missingModules.learn(other)) throw err;
      }
    }
  }

  /** Builds until every global the output names is injected. */
  async function buildInjecting() {
    for (;;) {
      const result = await buildLearning();
      if (!injected.addUsed(result.metafile)) return result;
    }
  }

  /**
   * The second build, with the modules only a run-time require() reaches
   * (`extras`, by pod path). Those are a best effort: one that does not
   * bundle (a template named .js, a glob matching nothing) is left out, with
   * a warning, and if the failure cannot be put on one of them, all are.
   */
  async function buildWithExtras(scan, extras) {
    const dropped = [];
    for (;;) {
      try {
        const result = await buildInjecting();
        if (dropped.length) {
          const shown = dropped.length > 3 ? `${dropped.slice(0, 3).join(", ")} and ${dropped.length - 3} more` : dropped.join(", ");
          scan.warnings.push(`${shown} could not be bundled for a require() with a computed name: such a require() of them fails`);
        }
        return result;
      } catch (err) {
        const remaining = Object.keys(extras).filter((p) => registryModules[p] === extras[p]);
        if (remaining.length === 0) throw err;
        // Errors buildLearning() would have learnt from are not the culprits.
        const unlearnable = (err.errors || []).filter((e) => !/^Could not resolve "|^No loader is configured/.test(e.text) && !STRICT_MODE_ERROR.test(e.text));
        const failing = new Set(unlearnable.map((e) => (e.location && e.location.file ? pod.podPath(path.resolve(dir, e.location.file)) : null)));
        let culprits = remaining.filter((p) => failing.has(p));
        if (culprits.length === 0) culprits = remaining;
        for (const p of culprits) {
          delete registryModules[p];
          dropped.push(path.posix.relative("/usr/src/app/function", p));
        }
      }
    }
  }

  try {
    writeEntry();
    let result = await buildInjecting();
    const scan = scanInputs(result.metafile, result.outputFiles[0].text);
    registryNames = scan.builtins;
    const extras = Object.fromEntries(scan.extraModules.map((file) => [pod.podPath(file), file]));
    registryModules = { ...scan.modules, ...extras };
    packageFileEntries = scan.files;
    usesProcessBinding = scan.usesBinding;
    const installGlobals = scan.members.length > 0 || scan.usesProcess;
    if (installGlobals) {
      // node/ is free of side effects for esbuild: the import must be used.
      const process = scan.usesProcess
        ? `import nodeProcess from ${JSON.stringify(moduleFile("process"))};\nif (globalThis.process !== nodeProcess) globalThis.process = nodeProcess;\n`
        : "";
      const members = scan.members.length
        ? injected.statements("import", scan.members) +
          scan.members
            .map((name) => `Object.defineProperty(globalThis, ${JSON.stringify(name)}, { value: ${name}, writable: true, configurable: true, enumerable: ${ENUMERABLE_GLOBALS.has(name)} });\n`)
            .join("")
        : "";
      writeFileSync(globalsInstaller, process + members);
    }
    // Modules only the second build sees (the extras) may need the loader's
    // global too: with them it is always installed.
    const installLoader = scan.needsLoaderGlobal || scan.extraModules.length > 0;
    const installRequire = scan.installRequire || installLoader;
    if (installRequire) {
      writeFileSync(
        requireInstaller,
        `import { installGlobalRequire, installLoaderGlobal } from ${JSON.stringify(loaderFile)};\n` +
          `${scan.installRequire ? "installGlobalRequire();\n" : ""}${installLoader ? "installLoaderGlobal();\n" : ""}`,
      );
    }
    writeEntry({ installGlobals, installRequire });
    for (const file of scan.esmTestingRequire) esmTypeofRequire.add(file);
    const again =
      installGlobals ||
      scan.usesBinding ||
      installRequire ||
      scan.esmTestingRequire.length > 0 ||
      scan.builtins.length > 0 ||
      Object.keys(scan.modules).length > 0 ||
      scan.extraModules.length > 0 ||
      Object.keys(scan.files).length > 0;
    if (again) result = await buildWithExtras(scan, extras);
    writeFileSync(out, withNodeHelpers(result.outputFiles[0].text));
    const warnings = [...result.warnings.map(format), ...missingModules.warnings(), ...scan.warnings];
    return { ok: true, messages: warnings.map((w) => `warning: ${w}`) };
  } catch (err) {
    const errors = err.errors && err.errors.length ? err.errors : [{ text: String(err.message || err) }];
    return { ok: false, messages: errors.map(format) };
  } finally {
    if (builds.ctx) await builds.ctx.dispose();
  }
}

function format(m) {
  const loc = m.location;
  if (!loc) return m.text;
  return `${loc.file}:${loc.line}:${loc.column + 1}: ${m.text}${loc.lineText ? `\n    ${loc.lineText}` : ""}`;
}
