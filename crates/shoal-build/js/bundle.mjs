// Bundles a Function's handler, its npm dependencies and Shoal's prelude
// into one ES module script for Javy. Called by shoal-build:
//
//   node bundle.mjs <function-dir> <out.js>
//
// <function-dir> holds handler.js (+ package.json, node_modules). Errors are
// printed one per line as "file:line:column: message" and exit non-zero.
import { build } from "esbuild";
import { bareName, isBuiltin, moduleFile, nodeDir } from "./node/modules.mjs";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const [dir, out] = process.argv.slice(2);
if (!dir || !out) {
  console.error("usage: node bundle.mjs <function-dir> <out.js>");
  process.exit(2);
}
const prelude = path.join(path.dirname(fileURLToPath(import.meta.url)), "prelude.js");
const entry = path.join(dir, "__shoal_entry.mjs");
// A dynamic import keeps the handler's load failures catchable by the
// prelude, which then answers "User function not loaded" like Kyma.
writeFileSync(entry, `import { run } from ${JSON.stringify(prelude)};\nawait run(() => import("./handler.js"));\n`);

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

try {
  const result = await build({
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
    outfile: out,
    write: true,
    logLevel: "silent",
    legalComments: "none",
    // Class and function names stay as written (error messages, instanceof
    // checks by name and util.inspect show them).
    keepNames: true,
    plugins: [nodeBuiltins],
  });
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
