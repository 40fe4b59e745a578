// Bundles a Function's handler, its npm dependencies and Shoal's prelude
// into one ES module script for Javy. Called by shoal-build:
//
//   node bundle.mjs <function-dir> <out.js>
//
// <function-dir> holds handler.js (+ package.json, node_modules). Errors are
// printed one per line as "file:line:column: message" and exit non-zero.
import { build } from "esbuild";
import { builtinModules } from "node:module";
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

const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const refuseNodeBuiltins = {
  name: "shoal-node-builtins",
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      const name = args.path.replace(/^node:/, "");
      if (builtins.has(args.path) || builtins.has(name.split("/")[0])) {
        return {
          errors: [
            {
              text: `the Node.js built-in module "${name}" is not available in Shoal's JavaScript engine (required by ${path.relative(dir, args.importer) || "the handler"})`,
            },
          ],
        };
      }
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
    mainFields: ["module", "main"],
    conditions: ["import", "require", "default"],
    outfile: out,
    write: true,
    logLevel: "silent",
    legalComments: "none",
    plugins: [refuseNodeBuiltins],
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
