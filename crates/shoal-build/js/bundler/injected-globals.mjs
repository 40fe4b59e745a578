// The globals a build hands to esbuild's `inject`: only those its code
// names, not all of node/globals.js.
//
// esbuild loads and parses every module an inject file reaches before it
// knows which exports are used, and globals.js reaches most of node/
// (about 960 KB). Injecting all of it cost a hello world 190 ms of its
// 230 ms bundle, every build. So a build injects a file of its own
// (`__shoal_inject.mjs` in the Function's folder) that re-exports each
// global from a stub module of the plugin below, which the output keeps
// only if the code refers to the global (esbuild decides, exactly). A kept
// stub's global is then re-exported from its own file instead, and the
// build runs again until no new stub is kept (an implementation may use
// another global); a rebuild reparses only what changed.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const REEXPORT = /export\s*\{([^}]*)\}\s*from\s*(["'])([^"']+)\2\s*;?/g;

/**
 * What node/globals.js (`globalsFile`) exports: name -> { file, imported }.
 * Every export there is a re-export, so a build can name the file of each
 * global.
 *
 * @throws when globals.js exports anything some other way.
 */
export function globalSources(globalsFile) {
  const text = readFileSync(globalsFile, "utf8");
  const sources = new Map();
  for (const m of text.matchAll(REEXPORT)) {
    for (const part of m[1].split(",")) {
      const [imported, exported = imported] = part.trim().split(/\s+as\s+/).map((s) => s.trim());
      if (!imported) continue;
      sources.set(exported, { file: path.resolve(path.dirname(globalsFile), m[3]), imported });
    }
  }
  const rest = text.replace(REEXPORT, "").replace(/\/\/.*$/gm, "");
  if (/\bexport\b/.test(rest)) {
    throw new Error(`${globalsFile}: every export must be \`export { ... } from '...'\` (the bundler injects each global from its own file)`);
  }
  return sources;
}

const NAMESPACE = "shoal-global";

export class InjectedGlobals {
  /**
   * @param {Map} sources what globals.js exports ([`globalSources`])
   * @param {string} injectFile the build's inject file, written now
   */
  constructor(sources, injectFile) {
    this.sources = sources;
    this.file = injectFile;
    // The globals whose implementation is bundled; the others are stubs.
    this.wanted = new Set();
    this.write();
  }

  write() {
    const stubs = this.names.filter((name) => !this.wanted.has(name));
    const lines = stubs.map((name) => `export { ${name} } from "${NAMESPACE}:${name}";\n`);
    writeFileSync(this.file, this.statements("export", this.wanted) + lines.join(""));
  }

  /** Every name globals.js can inject, sorted. */
  get names() {
    return [...this.sources.keys()].sort();
  }

  /** The plugin behind the inject file's stubs, `shoal-global:NAME`. */
  plugin() {
    return {
      name: "shoal-injected-globals",
      setup: (b) => {
        b.onResolve({ filter: new RegExp(`^${NAMESPACE}:`) }, (args) => ({
          path: args.path.slice(NAMESPACE.length + 1),
          namespace: NAMESPACE,
          sideEffects: false,
        }));
        b.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({ contents: `export let ${args.path};\n`, loader: "js" }));
      },
    };
  }

  /**
   * Wants the globals whose stub the build's output kept (its code refers
   * to them).
   *
   * @returns whether any was added: the build must run again, and may
   * then refer to more (one implementation using another global).
   */
  addUsed(metafile) {
    let added = false;
    const inputs = Object.values(metafile.outputs)[0].inputs;
    for (const [input, info] of Object.entries(inputs)) {
      if (!input.startsWith(`${NAMESPACE}:`) || info.bytesInOutput === 0) continue;
      const name = input.slice(NAMESPACE.length + 1);
      if (this.wanted.has(name)) continue;
      this.wanted.add(name);
      added = true;
    }
    if (added) this.write();
    return added;
  }

  /**
   * `import` (or `export`) statements that bring `names` from their files,
   * in globals.js's order (the order the modules initialise in).
   */
  statements(keyword, names) {
    const wanted = new Set(names);
    const byFile = new Map();
    for (const [name, source] of this.sources) {
      if (!wanted.has(name)) continue;
      const list = byFile.get(source.file) || [];
      list.push(source.imported === name ? name : `${source.imported} as ${name}`);
      byFile.set(source.file, list);
    }
    return [...byFile].map(([file, list]) => `${keyword} { ${list.join(", ")} } from ${JSON.stringify(file)};\n`).join("");
  }
}
