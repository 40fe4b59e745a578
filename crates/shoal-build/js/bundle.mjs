// Bundles a Function's handler, its npm dependencies and Shoal's prelude
// into one ES module script for Javy (bundler/bundle-folder.mjs). Called by
// shoal-build, either once per build:
//
//   node bundle.mjs <function-dir> <out.js>
//
// which prints errors one per line as "file:line:column: message" (and
// exits 1) or warnings as "warning: ...", or as the build service's
// long-lived bundler:
//
//   node bundle.mjs --serve
//
// which reads one request per line on stdin, {"id", "dir", "out"}, and
// answers each on stdout with {"id", "ok", "messages"}, one at a time.
// Starting Node and esbuild costs more than bundling a small Function, so
// the service keeps one bundler per build slot and sends it build after
// build (crates/shoal-builder, bundler.rs).
import { createInterface } from "node:readline";
import { bundleFolder } from "./bundler/bundle-folder.mjs";

// Node's own deprecation warnings (a package.json using a pattern Node
// deprecates, met while resolving) are not the build's to report.
process.noDeprecation = true;

const args = process.argv.slice(2);
if (args.length === 1 && args[0] === "--serve") {
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    let answer;
    try {
      const { id, dir, out } = JSON.parse(line);
      answer = { id, ...(await bundleFolder(dir, out)) };
    } catch (err) {
      answer = { ok: false, messages: [`the bundler could not read the request: ${err.message || err}`] };
    }
    process.stdout.write(`${JSON.stringify(answer)}\n`);
  }
} else if (args.length === 2) {
  const { ok, messages } = await bundleFolder(args[0], args[1]);
  for (const m of messages) console.error(m);
  if (!ok) process.exitCode = 1;
} else {
  console.error("usage: node bundle.mjs <function-dir> <out.js> | node bundle.mjs --serve");
  process.exitCode = 2;
}
