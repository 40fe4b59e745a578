// A package's require() or import() of something that is not installed
// (an optional or peer dependency, a file it does not ship) fails in Node
// only when that line runs; the packages that do it take that path only
// when the dependency is there. esbuild refuses to bundle such code, so
// the bundler learns these from a failed build's errors and builds again
// with a stand-in that throws Node's error when it is evaluated
// (MODULE_NOT_FOUND for require(), ERR_MODULE_NOT_FOUND for import), and
// warns, naming the package and the file that wants it. A file esbuild has
// no loader for (a template literal require() matching an .applescript or
// .map file next to the modules) gets a stand-in that throws too.
//
// The Function's own code keeps the error: requiring a package that is
// not in its package.json is a mistake worth a failed build.
import path from "node:path";

export const MISSING_NAMESPACE = "shoal-missing-module";

const COULD_NOT_RESOLVE = /^Could not resolve "(.+)"$/;
const NO_LOADER = /^No loader is configured for "(\.[^"]+)" files: (.+)$/;

export class MissingModules {
  constructor(dir, pod) {
    this.dir = dir;
    this.pod = pod;
    // importer (pod path: esbuild names a file by its real path or through
    // the node_modules link) + "\0" + specifier
    this.missing = new Set();
    // specifier -> pod paths of the files that want it (for the warning)
    this.wanted = new Map();
    this.unloadable = new Set();
  }

  /**
   * Learns the errors a build of the Function's packages may turn into
   * run-time failures. True when there was something new to learn and
   * nothing else failed (then building again helps).
   */
  learn(errors) {
    let learned = false;
    const known = new Set(this.missing);
    const knownUnloadable = new Set(this.unloadable);
    for (const e of errors) {
      const importer = e.location && e.location.file ? path.resolve(this.dir, e.location.file) : null;
      if (!importer || !this.pod.isPackageFile(importer)) return false;
      const missing = COULD_NOT_RESOLVE.exec(e.text);
      const noLoader = NO_LOADER.exec(e.text);
      if (missing) {
        const key = `${this.pod.podPath(importer)}\0${missing[1]}`;
        if (known.has(key)) return false;
        this.missing.add(key);
        if (!this.wanted.has(missing[1])) this.wanted.set(missing[1], new Set());
        this.wanted.get(missing[1]).add(this.pod.podPath(importer));
        learned = true;
      } else if (noLoader) {
        const file = this.pod.podPath(path.resolve(this.dir, noLoader[2]));
        if (file === null || knownUnloadable.has(file)) return false;
        this.unloadable.add(file);
        learned = true;
      } else {
        return false;
      }
    }
    return learned;
  }

  /** The build's warnings: one per missing module, one per unloadable file. */
  warnings() {
    const out = [];
    for (const [specifier, importers] of this.wanted) {
      const list = [...importers].map((p) => path.posix.relative("/usr/src/app/function", p)).sort();
      const shown = list.length > 3 ? `${list.slice(0, 3).join(", ")} and ${list.length - 3} more` : list.join(", ");
      out.push(
        `"${specifier}" is not installed (wanted by ${shown}): the Function builds, and that require() or import() throws MODULE_NOT_FOUND when it runs, as in Node; add it to package.json if the Function needs it`,
      );
    }
    for (const file of [...this.unloadable].sort()) {
      const shown = path.posix.relative("/usr/src/app/function", file);
      out.push(`${shown} is not JavaScript or JSON: it is left out, and requiring it throws when that runs`);
    }
    return out;
  }

  plugin() {
    return {
      name: "shoal-missing-modules",
      setup: (b) => {
        b.onResolve({ filter: /.*/ }, (args) => {
          if (this.missing.size === 0 || !args.importer || !this.missing.has(`${this.pod.podPath(args.importer)}\0${args.path}`)) return undefined;
          return {
            path: `${args.path} from ${this.pod.podPath(args.importer)}`,
            namespace: MISSING_NAMESPACE,
            pluginData: { specifier: args.path, importer: this.pod.podPath(args.importer), kind: args.kind },
          };
        });
        b.onLoad({ filter: /.*/, namespace: MISSING_NAMESPACE }, (args) => ({
          contents: missingModuleSource(args.pluginData),
          loader: "js",
        }));
      },
    };
  }

  /** For the file onLoad: a stand-in for `file` when it cannot be loaded, else undefined. */
  loadUnloadable(file) {
    if (this.unloadable.size === 0) return undefined;
    const podFile = this.pod.podPath(file);
    if (!this.unloadable.has(podFile)) return undefined;
    return { contents: unloadableSource(podFile), loader: "js" };
  }
}

// CommonJS, so that any name can be imported from it; it throws when
// evaluated, which is when Node would fail.
function missingModuleSource({ specifier, importer, kind }) {
  const relative = /^\.{0,2}\//.test(specifier);
  let code;
  let message;
  if (kind === "require-call" || kind === "require-resolve") {
    code = "MODULE_NOT_FOUND";
    message = `Cannot find module '${specifier}'\nRequire stack:\n- ${importer}`;
  } else {
    code = "ERR_MODULE_NOT_FOUND";
    const target = relative ? path.posix.resolve(path.posix.dirname(importer), specifier) : specifier;
    message = `Cannot find ${relative ? "module" : "package"} '${target}' imported from ${importer}`;
  }
  const extra = code === "MODULE_NOT_FOUND" ? `error.requireStack = [${JSON.stringify(importer)}];` : "";
  return `var error = new Error(${JSON.stringify(message)});
Object.defineProperty(error, "code", { value: ${JSON.stringify(code)}, enumerable: true, writable: true, configurable: true });
${extra}
throw error;
module.exports = {};
`;
}

function unloadableSource(podFile) {
  const ext = path.posix.extname(podFile);
  return `var error = new TypeError(${JSON.stringify(`Unknown file extension "${ext}" for ${podFile}: a Function's bundle holds JavaScript and JSON modules only`)});
Object.defineProperty(error, "code", { value: "ERR_UNKNOWN_FILE_EXTENSION", enumerable: true, writable: true, configurable: true });
throw error;
module.exports = {};
`;
}
