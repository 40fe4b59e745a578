// Bundles a Function's handler, its npm dependencies and Shoal's prelude
// into one ES module script for Javy. Called by shoal-build:
//
//   node bundle.mjs <function-dir> <out.js>
//
// <function-dir> holds handler.js (+ package.json, node_modules). Errors are
// printed one per line as "file:line:column: message" and exit non-zero.
import { build } from "esbuild";
import { bareName, isBuiltin, moduleFile, nodeDir } from "./node/modules.mjs";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const [dir, out] = process.argv.slice(2);
if (!dir || !out) {
  console.error("usage: node bundle.mjs <function-dir> <out.js>");
  process.exit(2);
}
const prelude = path.join(path.dirname(fileURLToPath(import.meta.url)), "prelude.js");
const entry = path.join(dir, "__shoal_entry.mjs");
const globalsInstaller = path.join(dir, "__shoal_globals.mjs");
// A dynamic import keeps the handler's load failures catchable by the
// prelude, which then answers "User function not loaded" like Kyma.
function writeEntry(installGlobals) {
  const install = installGlobals ? `import ${JSON.stringify(globalsInstaller)};\n` : "";
  writeFileSync(entry, `${install}import { run } from ${JSON.stringify(prelude)};\nawait run(() => import("./handler.js"));\n`);
}

// The globals js/node/globals.js supplies through esbuild's inject, which
// sees bare references (`fetch(...)`, `typeof Buffer`) only.
const INJECTED_GLOBALS = [
  "AbortController", "AbortSignal", "Blob", "Buffer", "CustomEvent", "DOMException", "Event", "EventTarget",
  "File", "FormData", "Headers", "Intl", "Request", "Response", "URL", "URLSearchParams", "atob", "btoa",
  "crypto", "fetch", "structuredClone", "ReadableStream", "WritableStream", "TransformStream",
  "TextEncoderStream", "TextDecoderStream", "CompressionStream", "DecompressionStream", "MessageChannel",
  "MessagePort", "BroadcastChannel",
];
const GLOBAL_MEMBER = new RegExp(`\\b(?:globalThis|global|self)\\s*(?:\\.\\s*|\\[\\s*["'])(${INJECTED_GLOBALS.join("|")})\\b`, "g");

// `typeof require` not followed by a member access or call.
const TYPEOF_REQUIRE = /\btypeof\s+require\b(?!\s*[.[(])/g;

/**
 * What the first build shows needs a second one:
 * - `members`: globals the bundled code reaches as members
 *   (`globalThis.crypto`, `global.Buffer`). Those must really be on
 *   globalThis, so a small module puts them there before anything else runs.
 * - `esmTestingRequire`: ES modules that test `typeof require`. In Node an
 *   ES module has no `require` (packages pick their ESM or CommonJS code by
 *   this test); esbuild turns it into its require shim, which exists.
 */
function scanInputs(metafile) {
  const names = new Set();
  const esmTestingRequire = [];
  for (const [input, info] of Object.entries(metafile.inputs)) {
    // Modules made in memory (the Function's files) are not the Function's code.
    if (input.startsWith("shoal:")) continue;
    const file = path.resolve(dir, input);
    if (file.startsWith(nodeDir) || file === prelude) continue;
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(GLOBAL_MEMBER)) names.add(m[1]);
    if (info.format === "esm" && TYPEOF_REQUIRE.test(text)) esmTestingRequire.push(file);
    TYPEOF_REQUIRE.lastIndex = 0;
  }
  return { members: [...names].sort(), esmTestingRequire };
}

/** Loads `files` (ES modules) with `typeof require` as Node gives it there. */
function esmWithoutRequire(files) {
  const escape = (f) => f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return {
    name: "shoal-esm-without-require",
    setup(b) {
      b.onLoad({ filter: new RegExp(`^(?:${files.map(escape).join("|")})$`) }, (args) => ({
        contents: readFileSync(args.path, "utf8").replace(TYPEOF_REQUIRE, "typeof void 0"),
        loader: /\.[cm]?tsx?$/.test(args.path) ? "ts" : "js",
        resolveDir: path.dirname(args.path),
      }));
    },
  };
}

// Node's built-in modules Shoal implements map to js/node (node/modules.mjs);
// any other built-in fails the build, naming the module.
const nodeBuiltins = {
  name: "shoal-node-builtins",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.kind === "entry-point") return undefined;
      // readable-stream falls back to this npm package without a global
      // AbortController: one AbortSignal class for everything.
      if (args.path === "abort-controller") return { path: path.join(nodeDir, "internal/abort.js") };
      if (!isBuiltin(args.path)) return undefined;
      const file = moduleFile(args.path);
      if (file) return { path: file };
      return {
        errors: [
          {
            text: `the Node.js built-in module "${bareName(args.path)}" is not available in Shoal's JavaScript engine (required by ${path.relative(dir, args.importer) || "the handler"})`,
          },
        ],
      };
      return undefined;
    });
  },
};

// The Function's own files as Kyma's pod has them in /usr/src/app/function
// (handler.js, package.json, and for a folder or Git source its other
// files): node/fs.js reads them from this module, bundled only with fs.
// Text files only, up to FUNCTION_FILES_LIMIT bytes in all; the
// dependencies (node_modules) and what the build writes are left out.
const FUNCTION_FILES_LIMIT = 4 << 20;
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
        for (const ent of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
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
  // How Node resolves: a package's "node" conditions and its CommonJS
  // entry for require(), its ESM entry for import (esbuild picks the
  // condition by how each module is imported).
  mainFields: ["main", "module"],
  conditions: ["node"],
  // Web and Node globals (Buffer, URL, fetch, ...): each is bundled only
  // when the Function's code refers to it.
  inject: [path.join(nodeDir, "globals.js")],
  // Where Kyma's Node.js runtime keeps the handler.
  define: {
    "import.meta.url": JSON.stringify("file:///usr/src/app/function/handler.js"),
    __dirname: JSON.stringify("/usr/src/app/function"),
    __filename: JSON.stringify("/usr/src/app/function/handler.js"),
  },
  outfile: out,
  logLevel: "silent",
  legalComments: "none",
  // No keepNames: its __name() call for every function costs each request
  // about 6% of a hello world (measured); node/ pins the names Node shows
  // (Buffer) itself.
  keepNames: false,
  metafile: true,
  plugins: [functionFiles, nodeBuiltins],
};

try {
  writeEntry(false);
  let result = await build(options);
  const { members, esmTestingRequire } = scanInputs(result.metafile);
  if (members.length > 0) {
    writeFileSync(
      globalsInstaller,
      `import { ${members.join(", ")} } from ${JSON.stringify(path.join(nodeDir, "globals.js"))};\n` +
        `Object.assign(globalThis, { ${members.join(", ")} });\n`,
    );
    writeEntry(true);
  }
  if (esmTestingRequire.length > 0) options.plugins = [...options.plugins, esmWithoutRequire(esmTestingRequire)];
  if (members.length > 0 || esmTestingRequire.length > 0) result = await build(options);
  for (const w of result.warnings) console.error(`warning: ${format(w)}`);
} catch (err) {
  const errors = err.errors && err.errors.length ? err.errors : [{ text: String(err.message || err) }];
  for (const e of errors) console.error(format(e));
  process.exit(1);
}

function format(m) {
  const loc = m.location;
  if (!loc) return m.text;
  return `${loc.file}:${loc.line}:${loc.column + 1}: ${m.text}${loc.lineText ? `\n    ${loc.lineText}` : ""}`;
}
