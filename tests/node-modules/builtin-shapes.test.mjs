// The export shape of every Node 22 built-in (builtin-shapes.json, written
// by gen-builtin-shapes.mjs) against Shoal's module: its type, its keys and
// their types, the methods of its classes' prototypes and its namespaces'
// keys. builtin-gaps.json lists, with the reason, where a module still
// differs; any other difference fails. tests/builds.rs reads the same two
// files for the build test that requires every built-in.
import { createRequire } from 'node:module';
import { check } from './harness/cases.mjs';

const require = createRequire(import.meta.url);
const shapes = require('./builtin-shapes.json');
// Where Shoal's modules still differ from Node 22, and why.
const KNOWN_GAPS = require('./builtin-gaps.json').modules;

// Computes, in the realm that runs it, how module `M[key]` differs from
// Node 22's shape `node` (see gen-builtin-shapes.mjs), leaving out the
// differences in `known`.
const SHAPE_DIFF = `
  const typeOf = (read) => { try { const v = read(); return v === null ? 'null' : typeof v; } catch { return 'throws'; } };
  const FUNCTION_OWN = ['length', 'name', 'prototype', 'arguments', 'caller'];
  const m = M[key];
  const own = Object.getOwnPropertyNames(m).filter((k) => typeof m !== 'function' || !FUNCTION_OWN.includes(k));
  const diff = {};
  if (typeof m !== node.type) diff.type = typeof m;
  const missing = Object.keys(node.keys).filter((k) => !own.includes(k));
  const extra = own.filter((k) => !(k in node.keys));
  const wrongType = Object.keys(node.keys).filter((k) => own.includes(k) && typeOf(() => m[k]) !== node.keys[k]).map((k) => k + ': ' + typeOf(() => m[k]));
  const unknown = (list, knownList) => list.filter((x) => !(knownList || []).includes(x)).sort();
  if (unknown(missing, known.missing).length) diff.missing = unknown(missing, known.missing);
  if (unknown(extra, known.extra).length) diff.extra = unknown(extra, known.extra);
  if (unknown(wrongType, known.wrongType).length) diff.wrongType = unknown(wrongType, known.wrongType);
  // Classes: every method (and accessor) Node's prototype has.
  const protoMissing = {};
  const classes = Object.assign({}, node.classes, node.prototype ? { '(module)': node.prototype } : {});
  for (const [name, methods] of Object.entries(classes)) {
    const C = name === '(module)' ? m : m[name];
    if (typeof C !== 'function' || !C.prototype) continue;
    const lacking = unknown(methods.filter((p) => !(p in C.prototype)), (known.protoMissing || {})[name]);
    if (lacking.length) protoMissing[name] = lacking;
  }
  if (Object.keys(protoMissing).length) diff.protoMissing = protoMissing;
  // Namespaces (dns.promises, path.posix...): keys and their types.
  const nsDiff = {};
  for (const [name, keys] of Object.entries(node.namespaces || {})) {
    const ns = m[name];
    // A namespace the module lacks is already among the missing keys.
    if (ns === undefined && !own.includes(name)) continue;
    if (ns === null || typeof ns !== 'object') { nsDiff[name] = 'not an object'; continue; }
    const nsOwn = Object.getOwnPropertyNames(ns);
    const d = [];
    for (const k of Object.keys(keys)) if (!nsOwn.includes(k)) d.push('-' + k); else if (typeOf(() => ns[k]) !== keys[k]) d.push(k + ': ' + typeOf(() => ns[k]));
    for (const k of nsOwn) if (!(k in keys)) d.push('+' + k);
    const left = unknown(d, (known.namespaces || {})[name]);
    if (left.length) nsDiff[name] = left;
  }
  if (Object.keys(nsDiff).length) diff.namespaces = nsDiff;
  return diff;
`;

for (const [name, node] of Object.entries(shapes.modules)) {
  const known = KNOWN_GAPS[name] || {};
  check(`shape of ${name}`, `const key = ${JSON.stringify(name)}; const node = ${JSON.stringify(node)}; const known = ${JSON.stringify(known)};\n${SHAPE_DIFF}`, {});
}
