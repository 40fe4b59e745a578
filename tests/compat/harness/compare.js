'use strict';
// The corpus's comparison rules, as a reference for the Rust side (and used by
// `run-all.js --check-determinism` to compare two Node runs of the same case).
//
// A "line" is what run-case.js prints for one request:
//   { status, headers: {name: value}, body: "<utf-8 text>", bodyBase64?: "<bytes>" }
// Modes (requests.json "compare", overridable per request):
//   exact  - status, every printed header, and the body bytes are equal;
//   shape  - status and content-type are equal; when both bodies are JSON, they have the
//            same structure (same JSON types; objects with the same key sets; arrays of the
//            same length, compared element by element); otherwise both are empty or both not;
//   status - only the status is equal.

function bodyBytes(line) {
  return line.bodyBase64 !== undefined ? Buffer.from(line.bodyBase64, 'base64') : Buffer.from(line.body, 'utf8');
}

function jsonType(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** Returns null when a and b have the same shape, else a path and reason. */
function shapeDiff(a, b, path = '$') {
  const ta = jsonType(a);
  const tb = jsonType(b);
  if (ta !== tb) return `${path}: ${ta} vs ${tb}`;
  if (ta === 'array') {
    if (a.length !== b.length) return `${path}: array length ${a.length} vs ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const d = shapeDiff(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (ta === 'object') {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    if (ka.join('\u0000') !== kb.join('\u0000')) return `${path}: keys [${ka}] vs [${kb}]`;
    for (const k of ka) {
      const d = shapeDiff(a[k], b[k], `${path}.${k}`);
      if (d) return d;
    }
  }
  return null;
}

function parseJson(buf) {
  try {
    return { ok: true, value: JSON.parse(buf.toString('utf8')) };
  } catch {
    return { ok: false };
  }
}

/** Compares two lines; returns null when they agree under `mode`, else a reason. */
function compareLines(a, b, mode = 'exact') {
  if (a.status !== b.status) return `status ${a.status} vs ${b.status}`;
  if (mode === 'status') return null;
  const ba = bodyBytes(a);
  const bb = bodyBytes(b);
  if (mode === 'exact') {
    const names = new Set([...Object.keys(a.headers), ...Object.keys(b.headers)]);
    for (const n of [...names].sort()) {
      if (JSON.stringify(a.headers[n]) !== JSON.stringify(b.headers[n])) return `header ${n}: ${JSON.stringify(a.headers[n])} vs ${JSON.stringify(b.headers[n])}`;
    }
    if (!ba.equals(bb)) return `body differs (${ba.length} vs ${bb.length} bytes)`;
    return null;
  }
  if (mode === 'shape') {
    if (a.headers['content-type'] !== b.headers['content-type']) return `content-type ${a.headers['content-type']} vs ${b.headers['content-type']}`;
    const ja = parseJson(ba);
    const jb = parseJson(bb);
    if (ja.ok && jb.ok) return shapeDiff(ja.value, jb.value);
    if (ja.ok !== jb.ok) return 'one body is JSON, the other is not';
    if ((ba.length === 0) !== (bb.length === 0)) return 'one body is empty, the other is not';
    return null;
  }
  throw new Error(`unknown compare mode ${mode}`);
}

module.exports = { compareLines, shapeDiff };
