// CommonJS modules compiled when the sandbox starts, not when the Function
// is built: for the semantics only code compiled at run time has in
// Shoal's engine.
//
// Sloppy mode. Node runs a CommonJS module without "use strict" in sloppy
// mode; the bundle is one ES module, which QuickJS compiles strict
// throughout, so such a module's `this` in a plain call is undefined
// instead of globalThis, an assignment to a read-only property throws
// instead of doing nothing, and `with` or legacy octal literals do not
// even bundle.
//
// Function source. The engine keeps no source text of what it compiled at
// build time (Function.prototype.toString() gives "[native code]"), so code
// that turns its functions back into source (uglify-js, protractor's
// client scripts) needs them compiled at run time.
//
// Only the Function constructor compiles at run time, in every new sandbox
// rather than once at build, so a module runs this way only where its code
// shows it needs to (needsSloppyMode, needsFunctionSource, or esbuild
// refusing it for strict mode): the bundle keeps its source as a string,
// and node/internal/module-loader.js runFromSource() compiles it with
// Node's module wrapper (strict when its source says "use strict"). The
// module's require() calls with a literal name are still bundled; Shoal's
// injected globals (Buffer, URL...) are passed in by name.
import { afterDirectives } from "./module-scope.mjs";

// What sloppy code does differently, in code a package relies on:
// - a function declared here, using `this` (no `this instanceof` guard of
//   a constructor) and called plainly: `this` is the global object;
// - `(function () { return this; })()`: the global object;
// - arguments.callee / arguments.caller;
// - a method named like a function's read-only own properties
//   (`X.prototype.length = function`) and a for-in loop assigning by its
//   key: code copying methods onto functions assigns it, which sloppy mode
//   ignores.
const IIFE_THIS = /\(\s*function\s*\(\s*\)\s*\{\s*return\s+this\s*;?\s*\}\s*\)\s*\(\s*\)/;
const CALLEE = /\barguments\s*\.\s*(?:callee|caller)\b/;
const READ_ONLY_METHOD = /\.\s*(?:length|name|caller|arguments)\s*=\s*function\b/;
const FOR_IN_COPY = /\bfor\s*\(\s*(?:var|let|const)?\s*([\w$]+)\s+in\b[\s\S]{0,400}?\[\s*\1\s*\]\s*=[^=]/;
const copiesReadOnly = (text) => READ_ONLY_METHOD.test(text) && FOR_IN_COPY.test(text);

// Code that turns its own functions back into source to compile it again
// (uglify-js, protractor's client scripts): `fn.toString()` of a function
// it declares or is handed, and the Function constructor or eval. The
// engine keeps no source of what it compiled at build time, so such a
// module is compiled at run time too (strict or not, as its source says).
// `'return (' + fn.toString()` / `fn.toString() + ')'`: source built from it.
const TO_STRING_CALL = /(?:["'`]\s*\+\s*)([A-Za-z_$][\w$]*)\s*\.\s*toString\s*\(\s*\)|(?<![\w$.])([A-Za-z_$][\w$]*)\s*\.\s*toString\s*\(\s*\)(?=\s*\+\s*["'`])/g;
const COMPILES_SOURCE = /(?<![\w$.])(?:new\s+)?Function\s*\(|=\s*Function\s*[;,)]|(?<![\w$.])eval\s*\(/;

/** Whether a module's code shows it needs its functions' source (see above). */
export function needsFunctionSource(text) {
  if (text.length > SLOPPY_SIZE_LIMIT || !text.includes("toString") || !COMPILES_SOURCE.test(text)) return false;
  const code = codeOnly(text);
  if (!COMPILES_SOURCE.test(code)) return false;
  const names = new Set([...code.matchAll(TO_STRING_CALL)].map((m) => m[1] || m[2]));
  if (names.size === 0) return false;
  for (const m of code.matchAll(/\bfunction\b\s*([A-Za-z_$][\w$]*)?\s*\(([^)]*)\)/g)) {
    if (m[1] && names.has(m[1])) return true;
    for (const param of m[2].split(",")) if (names.has(param.trim())) return true;
  }
  return false;
}

/** Whether a CommonJS module's text shows it needs sloppy mode (see above). */
export function needsSloppyMode(text) {
  // Compiled in every new sandbox: a large module (a built bundle, which
  // has fallbacks for strict mode) stays compiled once.
  if (text.length > SLOPPY_SIZE_LIMIT || hasUseStrict(text)) return false;
  const patterns = IIFE_THIS.test(text) || CALLEE.test(text) || copiesReadOnly(text);
  // The `this` analysis reads every function: files past this size (built
  // bundles, lodash) would cost more build time than their rare need.
  if (!patterns && (text.length > PLAIN_CALL_ANALYSIS_LIMIT || !text.includes("this"))) return false;
  const code = codeOnly(text);
  if (IIFE_THIS.test(code) || CALLEE.test(code) || copiesReadOnly(code)) return true;
  return text.length <= PLAIN_CALL_ANALYSIS_LIMIT && plainCalledFunctionUsesThis(code);
}

const PLAIN_CALL_ANALYSIS_LIMIT = 256 << 10;
const SLOPPY_SIZE_LIMIT = 512 << 10;

function hasUseStrict(text) {
  const { at } = afterDirectives(text);
  return /(["'])use strict\1/.test(text.slice(0, at));
}

// `text` with the insides of strings, template literals, comments and
// regular expression literals blanked out (same length), so that what is
// left is code. A simple scanner: one it misreads makes the check miss or
// see too much; neither breaks the module.
function codeOnly(text) {
  const parts = [];
  let copied = 0;
  // Blanks text[from, to) (newlines kept, so lines stay where they were).
  const blank = (from, to) => {
    const inside = text.slice(from, to);
    parts.push(text.slice(copied, from), inside.includes("\n") ? inside.replace(/[^\n]/g, " ") : " ".repeat(inside.length));
    copied = to;
  };
  // Whether a `/` at `i` starts a regular expression: by what comes before.
  const regexAt = (i) => {
    let j = i - 1;
    while (j >= 0 && /\s/.test(text[j])) j--;
    if (j < 0 || /[(,=:[!&|?{};+\-*%<>~^]/.test(text[j])) return true;
    const word = /[\w$]+$/.exec(text.slice(Math.max(0, j - 9), j + 1));
    return word !== null && /^(?:return|typeof|case|in|of|void|delete|throw|instanceof|new)$/.test(word[0]);
  };
  const special = /["'`/]/g;
  for (let m = special.exec(text); m !== null; m = special.exec(text)) {
    const i = m.index;
    const c = text[i];
    let end;
    if (c === '"' || c === "'" || c === "`") {
      end = i + 1;
      while (end < text.length && text[end] !== c) end += text[end] === "\\" ? 2 : 1;
      blank(i + 1, Math.min(end, text.length));
      end++;
    } else if (text[i + 1] === "/") {
      end = text.indexOf("\n", i);
      if (end < 0) end = text.length;
      blank(i, end);
    } else if (text[i + 1] === "*") {
      end = text.indexOf("*/", i + 2);
      end = end < 0 ? text.length : end + 2;
      blank(i, end);
    } else if (regexAt(i)) {
      let inClass = false;
      for (end = i + 1; end < text.length && text[end] !== "\n"; end++) {
        if (text[end] === "\\") end++;
        else if (text[end] === "[") inClass = true;
        else if (text[end] === "]") inClass = false;
        else if (text[end] === "/" && !inClass) break;
      }
      blank(i + 1, end);
      end++;
    } else {
      end = i + 1;
    }
    special.lastIndex = end;
  }
  parts.push(text.slice(copied));
  return parts.join("");
}

// The body of the function whose `{` is at `open` in code (codeOnly).
function bodyAt(code, open) {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    if (code[i] === "{") depth++;
    else if (code[i] === "}" && --depth === 0) return code.slice(open, i + 1);
  }
  return code.slice(open);
}

// Nested function bodies have a `this` of their own.
function withoutNestedFunctions(body) {
  let out = body.slice(1);
  for (;;) {
    const m = /\bfunction\b[^({]*\([^)]*\)\s*\{/.exec(out);
    if (!m) return out;
    const inner = bodyAt(out, m.index + m[0].length - 1);
    out = out.slice(0, m.index) + out.slice(m.index + m[0].length - 1 + inner.length);
  }
}

function plainCalledFunctionUsesThis(text) {
  if (!text.includes("this")) return false;
  for (const m of text.matchAll(/\bfunction\s+([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*\{/g)) {
    const name = m[1];
    const body = bodyAt(text, m.index + m[0].length - 1);
    if (!/\bthis\b/.test(body) || /\bthis\s+instanceof\b/.test(body)) continue;
    if (!/\bthis\b/.test(withoutNestedFunctions(body))) continue;
    const escaped = name.replace(/\$/g, "\\$");
    // A function also used as a value (a method: `lodash.mixin = mixin`,
    // `{ mixin }`, `mixin.call(...)`) means its `this` is a receiver.
    const asValue = new RegExp(`(?:[=:,(]|\\breturn)\\s*${escaped}\\b(?!\\s*\\()|[{,]\\s*${escaped}\\s*[,}]|\\b${escaped}\\s*\\.\\s*(?:call|apply|bind)\\b`);
    if (asValue.test(text)) continue;
    const plainCall = new RegExp(`(?<![\\w$.]|\\bnew\\s+|\\bfunction\\s+)${escaped}\\s*\\(`, "g");
    for (const call of text.matchAll(plainCall)) if (call.index !== m.index + m[0].indexOf(name)) return true;
  }
  return false;
}

// esbuild's refusals of code that is only valid in sloppy mode.
export const STRICT_MODE_ERROR = /(?:cannot be used (?:with the "esm" output format )?(?:due to|in) strict mode|not allowed in strict mode)/;

const LITERAL_REQUIRE = /(?<![\w$.])require\s*\(\s*(["'])([^"'\\\n]+)\1\s*\)/g;

/**
 * The module that runs `text` (the file `podFile`) in sloppy mode:
 * `globals` are the names Shoal injects (Buffer, URL...), passed in when
 * the code names them.
 */
export function fromSourceModule(text, podFile, loaderFile, globals) {
  const specifiers = [...new Set([...text.matchAll(LITERAL_REQUIRE)].map((m) => m[2]))].sort();
  const literal = specifiers.map((s) => `  ${JSON.stringify(s)}: () => require(${JSON.stringify(s)}),`).join("\n");
  const used = globals.filter((name) => new RegExp(`(?<![\\w$.])${name.replace(/\$/g, "\\$")}\\b`).test(text));
  const passed = used.map((name) => `${JSON.stringify(name)}: typeof ${name} === "undefined" ? undefined : ${name}`).join(", ");
  return `require(${JSON.stringify(loaderFile)}).runFromSource(module, ${JSON.stringify(podFile)}, {\n${literal}\n}, { ${passed} }, ${JSON.stringify(text)});\n`;
}
