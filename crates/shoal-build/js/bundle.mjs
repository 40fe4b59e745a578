// Bundles a Function's handler, its npm dependencies and Shoal's prelude
// into one ES module script for Javy. Called by shoal-build:
//
//   node bundle.mjs <function-dir> <out.js>
//
// <function-dir> holds handler.js (+ package.json, node_modules). Errors are
// printed one per line as "file:line:column: message" and exit non-zero.
import { build } from "esbuild";
import { bareName, isBuiltin, moduleFile, nodeDir } from "./node/modules.mjs";
import { readFileSync, writeFileSync } from "node:fs";
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

/**
 * Globals the bundled code reaches as members (`globalThis.crypto`,
 * `global.Buffer`): those must really be on globalThis, so a small module
 * puts them there before anything else runs.
 */
function globalsReachedAsMembers(metafile) {
  const names = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    // Modules made in memory (the Function's files) are not the Function's code.
    if (input.startsWith("shoal:")) continue;
    const file = path.resolve(dir, input);
    if (file.startsWith(nodeDir) || file === prelude) continue;
    for (const m of readFileSync(file, "utf8").matchAll(GLOBAL_MEMBER)) names.add(m[1]);
  }
  return [...names].sort();
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

// The Function's own files as Kyma's pod has them in /usr/src/app/function:
// node/fs.js reads its package.json from this module (bundled only with fs).
const functionFiles = {
  name: "shoal-function-files",
  setup(b) {
    b.onResolve({ filter: /^shoal:function-files$/ }, () => ({ path: "function-files", namespace: "shoal" }));
    b.onLoad({ filter: /.*/, namespace: "shoal" }, () => {
      const files = {};
      try {
        files["/usr/src/app/function/package.json"] = readFileSync(path.join(dir, "package.json"), "utf8");
      } catch {
        // An inline Function without dependencies has no package.json.
      }
      return { contents: `module.exports = ${JSON.stringify(files)};`, loader: "js" };
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
  const members = globalsReachedAsMembers(result.metafile);
  if (members.length > 0) {
    writeFileSync(
      globalsInstaller,
      `import { ${members.join(", ")} } from ${JSON.stringify(path.join(nodeDir, "globals.js"))};\n` +
        `Object.assign(globalThis, { ${members.join(", ")} });\n`,
    );
    writeEntry(true);
    result = await build(options);
  }
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
