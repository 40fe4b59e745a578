// The `req` and `res` a Kyma Function sees, as Express 5 makes them over
// Node's http objects: `main(req, res)` gets them in nodejs26, the legacy
// runtimes hand them over as event.extensions.request and .response.
// Written from Express 5's documented behaviour (and checked against it by
// the compat corpus, tests/compat): the request's body as Kyma's four
// body-parser instances leave it, and the response's helpers with Express's
// defaults (charset added to text types, JSON for objects, numbers and
// booleans, 204/304 without an entity, a HEAD answer without a body).
//
// The response is collected here and handed to the host whole when it
// ends: what `res.write` sends arrives with the rest.

import { base64, fromBase64 } from "./base64.js";
import { contentType, lookup } from "./mime.js";

const encoder = new globalThis.TextEncoder();
const decoder = new globalThis.TextDecoder();

const HTTP_STATUS_TEXT = {
  100: "Continue", 101: "Switching Protocols", 200: "OK", 201: "Created", 202: "Accepted",
  203: "Non-Authoritative Information", 204: "No Content", 205: "Reset Content", 206: "Partial Content",
  300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
  307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized",
  402: "Payment Required", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 406: "Not Acceptable",
  408: "Request Timeout", 409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed",
  413: "Payload Too Large", 414: "URI Too Long", 415: "Unsupported Media Type", 418: "I'm a Teapot",
  422: "Unprocessable Entity", 423: "Locked", 425: "Too Early", 428: "Precondition Required",
  429: "Too Many Requests", 431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons",
  500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
  504: "Gateway Timeout", 505: "HTTP Version Not Supported",
};

// ---------------------------------------------------------------- request body

export function mediaType(contentTypeHeader) {
  return (contentTypeHeader || "").split(";")[0].trim().toLowerCase();
}

/**
 * A body the parsers refuse: the request is answered 400 with this
 * message; `reason` is the parser's own (body-parser's SyntaxError).
 */
export class BadRequest extends Error {
  constructor(message, reason) {
    super(message);
    this.reason = reason;
  }
}

function decodeComponent(s) {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return s;
  }
}

// Express 5's "simple" query parser (Node's querystring): flat keys (so
// `filter[status]=open` gives the key "filter[status]"), a repeated key gives
// an array, and the object has no prototype.
function parseSimpleQuery(query) {
  const out = Object.create(null);
  if (!query) return out;
  for (const part of query.split("&")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    const key = decodeComponent(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? "" : decodeComponent(part.slice(eq + 1));
    if (!(key in out)) out[key] = value;
    else if (Array.isArray(out[key])) out[key].push(value);
    else out[key] = [out[key], value];
  }
  return out;
}

// body-parser's extended urlencoded parser (the qs package): `a[b]=1` nests,
// `a[]=1` and `a[0]=1` (indices up to 20) make arrays, `a=1&a=2` an array.
const QS_ARRAY_LIMIT = 20;
function parseExtendedForm(text) {
  const out = {};
  for (const part of text.split("&")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    const rawKey = decodeComponent(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? "" : decodeComponent(part.slice(eq + 1));
    const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(rawKey);
    const path = m ? [m[1], ...(m[2].match(/\[[^[\]]*\]/g) || []).map((seg) => seg.slice(1, -1))] : [rawKey];
    // As qs under body-parser: a field naming __proto__ anywhere in its path
    // is dropped whole (it would reach Object.prototype, and with it every
    // later request of a warm sandbox); constructor, toString and the like
    // stay ordinary own keys.
    if (path.includes("__proto__")) continue;
    let node = out;
    for (let i = 0; i < path.length; i++) {
      const key = path[i];
      if (i === path.length - 1) {
        if (Array.isArray(node) && key === "") node.push(value);
        else if (Object.prototype.hasOwnProperty.call(node, key)) node[key] = [].concat(node[key], value);
        else node[key] = value;
        break;
      }
      const next = path[i + 1];
      const index = /^\d+$/.test(next) ? Number(next) : -1;
      const wantArray = next === "" || (index >= 0 && index <= QS_ARRAY_LIMIT);
      // qs merges `a[][b]=1&a[][c]=2` into one element: a non-leaf `[]` is index 0.
      const slot = key === "" ? 0 : key;
      if (node[slot] === undefined || typeof node[slot] !== "object") node[slot] = wantArray ? [] : {};
      node = node[slot];
    }
  }
  return compactArrays(out);
}

// qs drops the holes `a[3]=x` alone would leave.
function compactArrays(value) {
  if (Array.isArray(value)) return value.filter((v) => v !== undefined).map(compactArrays);
  if (value && typeof value === "object") {
    for (const k of Object.keys(value)) value[k] = compactArrays(value[k]);
  }
  return value;
}

// The engine parses JSON recursively on the sandbox's native stack, which
// holds about 8,000 levels: a body nesting deeper would end the sandbox
// instead of answering. Only a body longer than twice this can nest deeper,
// so ordinary bodies are never scanned.
const MAX_JSON_DEPTH = 5000;
function jsonDepth(text) {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 93 || c === 125) depth--;
  }
  return deepest;
}

/**
 * The body as Kyma's parsers leave `req.body`, in their order: JSON (also
 * a structured CloudEvent, any JSON value), text/*, urlencoded (extended),
 * and everything else as raw bytes. A request without a body (no
 * Content-Length or Transfer-Encoding: `declared` false) has none; one
 * declaring an empty body has the parser's empty value.
 */
export function parseBody(contentTypeHeader, bytes, declared) {
  if (bytes.length === 0 && !declared) return undefined;
  const type = mediaType(contentTypeHeader);
  if (type === "application/json" || type === "application/cloudevents+json") {
    if (bytes.length === 0) return {};
    const text = decoder.decode(bytes);
    if (text.length > 2 * MAX_JSON_DEPTH && jsonDepth(text) > MAX_JSON_DEPTH) {
      const reason = `the JSON body nests deeper than ${MAX_JSON_DEPTH} levels`;
      throw new BadRequest(`Bad Request: ${reason}`, reason);
    }
    try {
      return JSON.parse(text);
    } catch (err) {
      throw new BadRequest(`Bad Request: the body is not valid JSON (${err.message})`, err.message);
    }
  }
  if (type.startsWith("text/")) return decoder.decode(bytes);
  if (type === "application/x-www-form-urlencoded") return bytes.length === 0 ? {} : parseExtendedForm(decoder.decode(bytes));
  // A Buffer, as body-parser's raw parser gives, when the Function loaded
  // Buffer (node/buffer.js registers it); the bytes as they are otherwise.
  const NodeBuffer = globalThis.__shoal_Buffer;
  return NodeBuffer ? NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.length) : bytes;
}

/** Whether a request declares a body, as type-is decides: Transfer-Encoding or a Content-Length. */
export function declaresBody(headers) {
  return headers["transfer-encoding"] !== undefined || !Number.isNaN(Number.parseInt(headers["content-length"], 10));
}

// ---------------------------------------------------------------- negotiation

/** An Accept-style header's entries, best first: `{ value, original, q, index }`. */
function acceptEntries(header) {
  const entries = [];
  String(header)
    .split(",")
    .forEach((part, index) => {
      const [value, ...params] = part.trim().split(";");
      if (!value || !value.trim()) return;
      let q = 1;
      for (const p of params) {
        const [k, v] = p.trim().split("=");
        if (k === "q") q = Number(v);
      }
      if (!(q > 0)) return;
      entries.push({ value: value.trim().toLowerCase(), original: value.trim(), q, index });
    });
  return entries.sort((a, b) => b.q - a.q || a.index - b.index);
}

function typeMatches(accepted, type) {
  if (accepted === "*/*" || accepted === "*") return true;
  const [as, asub] = accepted.split("/");
  const [ts, tsub] = type.split("/");
  return (as === ts || as === "*") && (asub === tsub || asub === "*");
}

/**
 * What req.accepts* give (the negotiator package): with offers, the one the
 * header ranks best, or false; without, what the header accepts, best
 * first. No header accepts anything (`wildcard`).
 */
function negotiate(header, offered, match, normalize, wildcard) {
  if (offered.length === 0) return header === undefined ? [wildcard] : acceptEntries(header).map((e) => e.original);
  if (header === undefined) return offered[0];
  const entries = acceptEntries(header);
  let best = null;
  offered.forEach((offer, order) => {
    const value = normalize(offer);
    if (!value) return;
    for (const entry of entries) {
      if (!match(entry.value, value)) continue;
      const specificity = entry.value.includes("*") ? 0 : 1;
      const candidate = { offer, q: entry.q, specificity, index: entry.index, order };
      if (
        !best ||
        candidate.q > best.q ||
        (candidate.q === best.q && (candidate.specificity > best.specificity || (candidate.specificity === best.specificity && candidate.index < best.index)))
      ) {
        best = candidate;
      }
      break;
    }
  });
  return best ? best.offer : false;
}

function listArgs(args) {
  return args.length === 1 && Array.isArray(args[0]) ? args[0] : Array.from(args);
}

// ---------------------------------------------------------------- request

// Kyma's one route, as req.route shows it.
const KYMA_ROUTE = Object.freeze({ path: "*path", methods: Object.freeze({ _all: true }) });

/**
 * Express's req over one request head: its fields, and get/header, is,
 * accepts. `params` holds what Kyma's `*path` route captures.
 */
export class Request {
  constructor(head, headers, body) {
    const url = head.query ? `${head.path}?${head.query}` : head.path;
    this.method = head.method;
    this.url = url;
    this.originalUrl = url;
    this.baseUrl = "";
    this.headers = headers;
    this._head = head;
    this.httpVersion = "1.1";
    this.httpVersionMajor = 1;
    this.httpVersionMinor = 1;
    this._params = undefined;
    this._route = undefined;
    this.body = body;
    // The body was read (by Kyma's parsers): middleware a Function brings
    // (its own express.json()) sees a finished stream and leaves it.
    this.complete = true;
    this.readable = false;
    this.res = null;
    this._query = undefined;
    this._path = head.path;
  }
  // Made when first read: most handlers read neither.
  get rawHeaders() {
    return this._head.headers.flat();
  }
  /** What Kyma's `*path` route captures: the whole path, split at "/". */
  get params() {
    if (this._params === undefined) this._params = { path: this._path.split("/").map(decodePathSegment) };
    return this._params;
  }
  set params(value) {
    this._params = value;
  }
  // A Function's own Router sets its route while it dispatches.
  get route() {
    return this._route === undefined ? KYMA_ROUTE : this._route;
  }
  set route(value) {
    this._route = value;
  }
  get query() {
    if (this._query === undefined) this._query = parseSimpleQuery(this.url.includes("?") ? this.url.slice(this.url.indexOf("?") + 1) : "");
    return this._query;
  }
  get path() {
    return this._path;
  }
  get host() {
    return this.headers.host || undefined;
  }
  get hostname() {
    const host = this.host;
    if (!host) return undefined;
    const offset = host[0] === "[" ? host.indexOf("]") + 1 : 0;
    const colon = host.indexOf(":", offset);
    return colon >= 0 ? host.slice(0, colon) : host;
  }
  // Express trusts no proxy by default: the connection decides, and a
  // Function's is plain HTTP (Istio's sidecar, the node).
  get protocol() {
    return "http";
  }
  get secure() {
    return false;
  }
  get subdomains() {
    const hostname = this.hostname;
    if (!hostname || /^[\d.]+$|:/.test(hostname)) return [];
    return hostname.split(".").reverse().slice(2);
  }
  get xhr() {
    return String(this.get("x-requested-with") || "").toLowerCase() === "xmlhttprequest";
  }
  get ips() {
    return [];
  }
  /** Whether the client's cached copy is current (the `fresh` package), as Express decides it. */
  get fresh() {
    if (this.method !== "GET" && this.method !== "HEAD") return false;
    const res = this.res;
    const status = res ? res.statusCode : 200;
    if (!((status >= 200 && status < 300) || status === 304)) return false;
    return isFresh(this.headers, res ? res.get("ETag") : undefined, res ? res.get("Last-Modified") : undefined);
  }
  get stale() {
    return !this.fresh;
  }
  /** The Range header against a resource of `size` bytes (the range-parser package). */
  range(size, options) {
    const header = this.get("Range");
    if (!header) return undefined;
    return parseRange(size, header, options);
  }
  get(name) {
    if (typeof name !== "string") throw new TypeError(name === undefined ? "name argument is required to req.get" : "name must be a string to req.get");
    const n = name.toLowerCase();
    return this.headers[n === "referrer" ? "referer" : n];
  }
  header(name) {
    return this.get(name);
  }
  /** type-is: the first of `types` the body's type matches; null without a body, false otherwise. */
  is(...args) {
    const types = listArgs(args);
    if (!declaresBody(this.headers)) return null;
    const actual = mediaType(this.headers["content-type"]);
    if (!actual || !/^[\w.+-]+\/[\w.+-]+$/.test(actual)) return false;
    if (types.length === 0) return actual;
    for (const type of types) {
      const expected = normalizeType(type);
      if (expected && mimeMatch(expected, actual)) return type[0] === "+" || String(type).includes("*") ? actual : type;
    }
    return false;
  }
  accepts(...args) {
    return negotiate(this.headers.accept, listArgs(args), typeMatches, (t) => (String(t).includes("/") ? String(t).toLowerCase() : lookup(t)), "*/*");
  }
  acceptsEncodings(...args) {
    // identity is acceptable unless refused, as strongly as the least wanted encoding.
    const entries = acceptEntries(this.headers["accept-encoding"] || "");
    const header = entries.some((e) => e.value === "identity" || e.value === "*")
      ? this.headers["accept-encoding"]
      : [this.headers["accept-encoding"] || "", `identity;q=${entries.length ? Math.min(...entries.map((e) => e.q)) : 1}`].filter(Boolean).join(",");
    return negotiate(header, listArgs(args), (a, v) => a === "*" || a === v, (v) => String(v).toLowerCase(), "*");
  }
  acceptsCharsets(...args) {
    return negotiate(this.headers["accept-charset"], listArgs(args), (a, v) => a === "*" || a === v, (v) => String(v).toLowerCase(), "*");
  }
  acceptsLanguages(...args) {
    return negotiate(
      this.headers["accept-language"],
      listArgs(args),
      (a, v) => a === "*" || a === v || v.startsWith(`${a}-`),
      (v) => String(v).toLowerCase(),
      "*",
    );
  }
}

function decodePathSegment(segment) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function isFresh(headers, etag, lastModified) {
  const modifiedSince = headers["if-modified-since"];
  const noneMatch = headers["if-none-match"];
  if (!modifiedSince && !noneMatch) return false;
  const cacheControl = headers["cache-control"];
  if (cacheControl && /(?:^|,)\s*?no-cache\s*?(?:,|$)/.test(cacheControl)) return false;
  if (noneMatch && noneMatch !== "*") {
    if (!etag) return false;
    const matches = noneMatch.split(/\s*,\s*/).map((t) => t.trim()).filter(Boolean);
    if (!matches.some((m) => m === etag || m === `W/${etag}` || `W/${m}` === etag)) return false;
  }
  if (modifiedSince) {
    if (!lastModified || !(Date.parse(lastModified) <= Date.parse(modifiedSince))) return false;
  }
  return true;
}

function parseRange(size, header, options) {
  const eq = header.indexOf("=");
  if (eq === -1) return -2;
  const ranges = [];
  ranges.type = header.slice(0, eq);
  for (const part of header.slice(eq + 1).split(",")) {
    const [startText, endText] = part.split("-");
    let start = Number.parseInt(startText, 10);
    let end = Number.parseInt(endText, 10);
    if (Number.isNaN(start)) {
      start = size - end;
      end = size - 1;
    } else if (Number.isNaN(end)) {
      end = size - 1;
    }
    if (end > size - 1) end = size - 1;
    if (Number.isNaN(start) || Number.isNaN(end) || start > end || start < 0) continue;
    ranges.push({ start, end });
  }
  if (ranges.length < 1) return -1;
  if (options && options.combine) {
    const sorted = ranges.map((r, index) => ({ ...r, index })).sort((a, b) => a.start - b.start);
    const combined = [];
    for (const r of sorted) {
      const last = combined[combined.length - 1];
      if (last && r.start <= last.end + 1) last.end = Math.max(last.end, r.end);
      else combined.push({ start: r.start, end: r.end });
    }
    combined.type = ranges.type;
    return combined;
  }
  return ranges;
}

function normalizeType(type) {
  if (typeof type !== "string") return false;
  if (type === "urlencoded") return "application/x-www-form-urlencoded";
  if (type === "multipart") return "multipart/*";
  if (type[0] === "+") return `*/*${type}`;
  return type.includes("/") ? type.toLowerCase() : lookup(type);
}

function mimeMatch(expected, actual) {
  const [es, esub] = expected.split("/");
  const [as, asub] = actual.split("/");
  if (esub === undefined || asub === undefined) return false;
  if (es !== "*" && es !== as) return false;
  if (esub.startsWith("*+")) return esub.length <= asub.length + 1 && asub.endsWith(esub.slice(1));
  return esub === "*" || esub === asub;
}

// ---------------------------------------------------------------- response

/** Bytes of a chunk; a string in Node's `encoding` (utf8 by default). */
function toBytes(value, encoding) {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  const text = String(value);
  switch (typeof encoding === "string" ? encoding.toLowerCase() : "utf8") {
    case "base64":
    case "base64url":
      return fromBase64(text);
    case "hex": {
      const out = new Uint8Array(text.length >> 1);
      for (let i = 0; i < out.length; i++) {
        const byte = Number.parseInt(text.slice(2 * i, 2 * i + 2), 16);
        if (Number.isNaN(byte)) return out.subarray(0, i);
        out[i] = byte;
      }
      return out;
    }
    case "latin1":
    case "binary":
    case "ascii":
      return Uint8Array.from(text, (c) => c.charCodeAt(0) & 255);
    default:
      return encoder.encode(text);
  }
}

/** Node's error for a header set after the response started. */
function headersSentError() {
  const err = new Error("Cannot set headers after they are sent to the client");
  err.code = "ERR_HTTP_HEADERS_SENT";
  return err;
}

function chunkTypeError(chunk) {
  const received = chunk === null ? "null" : typeof chunk === "object" ? `an instance of ${chunk.constructor ? chunk.constructor.name : "Object"}` : `type ${typeof chunk} (${String(chunk)})`;
  const err = new TypeError(`The "chunk" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ${received}`);
  err.code = "ERR_INVALID_ARG_TYPE";
  return err;
}

// What Express percent-encodes in a Location (encodeurl): anything but
// URL characters, and a % that does not start an escape.
const LOCATION_UNSAFE = /(?:[^\x21\x23-\x3B\x3D\x3F-\x5F\x61-\x7A\x7C\x7E]+|%+(?![0-9A-Fa-f]{2}))+/g;
function encodeLocation(url) {
  return String(url)
    .replace(/([\uD800-\uDBFF][\uDC00-\uDFFF])|[\uD800-\uDFFF]/g, (_, pair) => pair || "\uFFFD")
    .replace(LOCATION_UNSAFE, (s) => encodeURI(s));
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/** The `cookie` package's serialize, as res.cookie calls it. */
function serializeCookie(name, value, options) {
  const encode = typeof options.encode === "function" ? options.encode : encodeURIComponent;
  let text = `${name}=${encode(value)}`;
  if (options.maxAge != null) {
    const maxAge = options.maxAge - 0;
    if (!Number.isFinite(maxAge)) throw new TypeError("option maxAge is invalid");
    text += `; Max-Age=${Math.floor(maxAge)}`;
  }
  if (options.domain) text += `; Domain=${options.domain}`;
  if (options.path) text += `; Path=${options.path}`;
  if (options.expires) {
    if (!(options.expires instanceof Date) || Number.isNaN(options.expires.valueOf())) throw new TypeError("option expires is invalid");
    text += `; Expires=${options.expires.toUTCString()}`;
  }
  if (options.httpOnly) text += "; HttpOnly";
  if (options.secure) text += "; Secure";
  if (options.partitioned) text += "; Partitioned";
  if (options.priority) {
    const priority = { low: "Low", medium: "Medium", high: "High" }[String(options.priority).toLowerCase()];
    if (!priority) throw new TypeError("option priority is invalid");
    text += `; Priority=${priority}`;
  }
  if (options.sameSite) {
    const sameSite = options.sameSite === true ? "Strict" : { lax: "Lax", strict: "Strict", none: "None" }[String(options.sameSite).toLowerCase()];
    if (!sameSite) throw new TypeError("option sameSite is invalid");
    text += `; SameSite=${sameSite}`;
  }
  return text;
}

/**
 * Express's res over Node's ServerResponse, collected: the status, the
 * headers in the order they were set, and the body.
 */
export class Response {
  constructor(req) {
    this.req = req || null;
    this.statusCode = 200;
    this.statusMessage = undefined;
    this.headers = new Map(); // lower-case name -> [name, value]
    this.chunks = [];
    this.writableEnded = false;
    this.writableFinished = false;
    this.headersSent = false;
    this._locals = undefined;
    /** Whether the answer gets Kyma's `Access-Control-Allow-Origin: *` (the runtime's own routes and errors do not). */
    this.cors = true;
    /** Whether send() makes Express's weak ETags (and so answers 304 to a current copy). */
    this.etags = false;
    /** Called once when the response is complete (end, send, json, ...). */
    this.onEnded = null;
    this.listeners = null;
  }
  get locals() {
    if (this._locals === undefined) this._locals = Object.create(null);
    return this._locals;
  }
  set locals(value) {
    this._locals = value;
  }
  get body() {
    if (this.chunks.length === 1) return this.chunks[0];
    let size = 0;
    for (const c of this.chunks) size += c.length;
    const out = new Uint8Array(size);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    this.chunks = [out];
    return out;
  }
  // Node's ServerResponse
  setHeader(name, value) {
    if (this.headersSent) throw headersSentError();
    this.headers.set(String(name).toLowerCase(), [String(name), Array.isArray(value) ? value.map(String) : String(value)]);
    return this;
  }
  getHeader(name) {
    const h = this.headers.get(String(name).toLowerCase());
    return h ? h[1] : undefined;
  }
  getHeaders() {
    const out = Object.create(null);
    for (const [k, [, v]] of this.headers) out[k] = v;
    return out;
  }
  getHeaderNames() {
    return [...this.headers.keys()];
  }
  hasHeader(name) {
    return this.headers.has(String(name).toLowerCase());
  }
  removeHeader(name) {
    if (this.headersSent) throw headersSentError();
    this.headers.delete(String(name).toLowerCase());
  }
  writeHead(code, message, headers) {
    if (this.headersSent) throw headersSentError();
    if (typeof message !== "string") {
      headers = message;
      message = undefined;
    }
    this.statusCode = Number(code);
    if (message !== undefined) this.statusMessage = message;
    if (Array.isArray(headers)) {
      // Raw pairs: a repeated name adds to the value, as Node joins it.
      for (let i = 0; i + 1 < headers.length; i += 2) {
        const previous = this.getHeader(headers[i]);
        if (previous === undefined) this.setHeader(headers[i], headers[i + 1]);
        else if (String(headers[i]).toLowerCase() === "set-cookie") this.setHeader(headers[i], [].concat(previous, headers[i + 1]));
        else this.setHeader(headers[i], `${previous}, ${headers[i + 1]}`);
      }
    } else if (headers) {
      for (const k of Object.keys(headers)) this.setHeader(k, headers[k]);
    }
    this.headersSent = true;
    return this;
  }
  write(chunk, encoding, callback) {
    if (typeof encoding === "function") callback = encoding;
    if (this.writableEnded) {
      const err = new Error("write after end");
      err.code = "ERR_STREAM_WRITE_AFTER_END";
      throw err;
    }
    if (typeof chunk !== "string" && !ArrayBuffer.isView(chunk)) throw chunkTypeError(chunk);
    this.headersSent = true;
    if (!(this.req && this.req.method === "HEAD")) this.chunks.push(toBytes(chunk, encoding));
    if (typeof callback === "function") Promise.resolve().then(callback);
    return true;
  }
  end(chunk, encoding, callback) {
    if (typeof chunk === "function") {
      callback = chunk;
      chunk = undefined;
    } else if (typeof encoding === "function") callback = encoding;
    if (this.writableEnded) return this;
    if (chunk !== undefined && chunk !== null) {
      if (typeof chunk !== "string" && !ArrayBuffer.isView(chunk) && !(chunk instanceof ArrayBuffer)) throw chunkTypeError(chunk);
      if (!(this.req && this.req.method === "HEAD")) this.chunks.push(toBytes(chunk, encoding));
    }
    this.writableEnded = this.writableFinished = this.headersSent = true;
    if (this.onEnded) this.onEnded();
    this.emit("finish");
    this.emit("close");
    if (typeof callback === "function") Promise.resolve().then(callback);
    return this;
  }
  on(event, listener) {
    if (this.listeners === null) this.listeners = new Map();
    if (!this.listeners.has(event)) this.listeners.set(event, []);
    this.listeners.get(event).push(listener);
    return this;
  }
  once(event, listener) {
    const wrapped = (...args) => {
      this.off(event, wrapped);
      listener(...args);
    };
    return this.on(event, wrapped);
  }
  off(event, listener) {
    const list = this.listeners && this.listeners.get(event);
    if (list) this.listeners.set(event, list.filter((l) => l !== listener));
    return this;
  }
  removeListener(event, listener) {
    return this.off(event, listener);
  }
  emit(event, ...args) {
    const list = this.listeners && this.listeners.get(event);
    if (!list) return false;
    for (const l of [...list]) l.apply(this, args);
    return true;
  }
  setTimeout() {
    return this;
  }
  flushHeaders() {
    this.headersSent = true;
  }
  // Express
  status(code) {
    if (!Number.isInteger(code)) throw new TypeError(`Invalid status code: ${JSON.stringify(code)}. Status code must be an integer.`);
    if (code < 100 || code > 999) throw new RangeError(`Invalid status code: ${JSON.stringify(code)}. Status code must be greater than 99 and less than 1000.`);
    this.statusCode = code;
    return this;
  }
  set(field, value) {
    if (arguments.length < 2) {
      for (const key of Object.keys(field)) this.set(key, field[key]);
      return this;
    }
    let text = Array.isArray(value) ? value.map(String) : String(value);
    if (String(field).toLowerCase() === "content-type") {
      if (Array.isArray(text)) throw new TypeError("Content-Type cannot be set to an Array");
      text = String(contentType(text));
    }
    return this.setHeader(field, text);
  }
  header(field, value) {
    return arguments.length < 2 ? this.set(field) : this.set(field, value);
  }
  get(field) {
    return this.getHeader(field);
  }
  type(type) {
    return this.set("Content-Type", String(type).includes("/") ? type : contentType(type) || "application/octet-stream");
  }
  contentType(type) {
    return this.type(type);
  }
  append(field, value) {
    const prev = this.get(field);
    let next = value;
    if (prev) next = Array.isArray(prev) ? prev.concat(value) : Array.isArray(value) ? [prev].concat(value) : [prev, value];
    return this.set(field, next);
  }
  vary(field) {
    const fields = (Array.isArray(field) ? field : String(field).split(",")).map((f) => f.trim()).filter(Boolean);
    const current = this.get("Vary");
    const list = current ? String(current).split(",").map((f) => f.trim()).filter(Boolean) : [];
    if (list.includes("*")) return this;
    for (const f of fields) {
      if (f === "*") {
        list.length = 0;
        list.push("*");
        break;
      }
      if (!list.some((v) => v.toLowerCase() === f.toLowerCase())) list.push(f);
    }
    if (list.length > 0) this.setHeader("Vary", list.join(", "));
    return this;
  }
  links(links) {
    let link = this.get("Link") || "";
    if (link) link += ", ";
    const parts = Object.keys(links).map((rel) =>
      Array.isArray(links[rel]) ? links[rel].map((l) => `<${l}>; rel="${rel}"`).join(", ") : `<${links[rel]}>; rel="${rel}"`,
    );
    return this.set("Link", link + parts.join(", "));
  }
  location(url) {
    return this.set("Location", encodeLocation(url));
  }
  attachment(filename) {
    const name = filename !== undefined ? String(filename).split(/[\\/]/).pop() : undefined;
    if (name) this.type(name.includes(".") ? name.slice(name.lastIndexOf(".")) : name);
    return this.set("Content-Disposition", contentDisposition(name));
  }
  cookie(name, value, options) {
    const opts = { ...options };
    if (opts.signed) throw new Error('cookieParser("secret") required for signed cookies');
    const text = typeof value === "object" ? `j:${JSON.stringify(value)}` : String(value);
    if (opts.maxAge != null) {
      const maxAge = opts.maxAge - 0;
      if (!Number.isNaN(maxAge)) {
        opts.expires = new Date(Date.now() + maxAge);
        opts.maxAge = Math.floor(maxAge / 1000);
      }
    }
    if (opts.path == null) opts.path = "/";
    return this.append("Set-Cookie", serializeCookie(name, text, opts));
  }
  clearCookie(name, options) {
    const opts = { path: "/", ...options, expires: new Date(1) };
    delete opts.maxAge;
    return this.cookie(name, "", opts);
  }
  send(body) {
    let chunk = body;
    switch (typeof chunk) {
      case "string": {
        const type = this.get("Content-Type");
        if (typeof type === "string") this.setHeader("Content-Type", withCharset(type));
        else this.setHeader("Content-Type", "text/html; charset=utf-8");
        break;
      }
      case "boolean":
      case "number":
      case "object":
        if (chunk === null) chunk = "";
        else if (ArrayBuffer.isView(chunk)) {
          if (!this.get("Content-Type")) this.type("bin");
        } else return this.json(chunk);
        break;
      default:
        break;
    }
    // Express's weak ETag (the etag package), and 304 for a client whose copy is current.
    if (this.etags && chunk !== undefined && !this.get("ETag")) {
      const bytes = toBytes(chunk);
      const hash = sha1Base64(bytes).slice(0, 27);
      this.set("ETag", `W/"${bytes.length.toString(16)}-${hash}"`);
    }
    if (this.etags && this.req && this.req.fresh) this.statusCode = 304;
    if (this.statusCode === 204 || this.statusCode === 304) {
      this.removeHeader("Content-Type");
      this.removeHeader("Content-Length");
      this.removeHeader("Transfer-Encoding");
      chunk = "";
    }
    if (this.statusCode === 205) {
      this.set("Content-Length", "0");
      this.removeHeader("Transfer-Encoding");
      chunk = "";
    }
    return this.end(chunk);
  }
  json(value) {
    // Serialised first, as Express does: a value that cannot be (a BigInt)
    // throws before any header is set.
    const text = JSON.stringify(value);
    if (!this.get("Content-Type")) this.setHeader("Content-Type", "application/json; charset=utf-8");
    return this.send(text);
  }
  jsonp(value) {
    let text = JSON.stringify(value);
    let callback = this.req ? this.req.query.callback : undefined;
    if (!this.get("Content-Type")) {
      this.set("X-Content-Type-Options", "nosniff");
      this.set("Content-Type", "application/json");
    }
    if (Array.isArray(callback)) callback = callback[0];
    if (typeof callback === "string" && callback.length !== 0) {
      this.set("X-Content-Type-Options", "nosniff");
      this.set("Content-Type", "text/javascript");
      const name = callback.replace(/[^[\]\w$.]/g, "");
      const inner = text === undefined ? "" : text.replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
      text = `/**/ typeof ${name} === 'function' && ${name}(${inner});`;
    }
    return this.send(text);
  }
  sendStatus(code) {
    const text = HTTP_STATUS_TEXT[code] || String(code);
    this.status(code);
    this.type("txt");
    return this.send(text);
  }
  redirect(statusOrUrl, maybeUrl) {
    let status = 302;
    let address = statusOrUrl;
    if (arguments.length === 2) {
      status = statusOrUrl;
      address = maybeUrl;
    }
    address = this.location(address).get("Location");
    const message = HTTP_STATUS_TEXT[status];
    let body = "";
    const kind = this.req ? this.req.accepts(["text", "html"]) : "text";
    this.vary("Accept");
    if (kind === "text") {
      this.set("Content-Type", "text/plain");
      body = `${message}. Redirecting to ${address}`;
    } else if (kind === "html") {
      this.set("Content-Type", "text/html");
      body = `<!DOCTYPE html><head><title>${message}</title></head><body><p>${message}. Redirecting to ${escapeHtml(address)}</p></body>`;
    }
    this.status(status);
    this.set("Content-Length", String(encoder.encode(body).length));
    return this.end(body);
  }
  format(handlers) {
    const keys = Object.keys(handlers).filter((k) => k !== "default");
    const key = keys.length > 0 && this.req ? this.req.accepts(keys) : false;
    this.vary("Accept");
    if (key) {
      this.set("Content-Type", key.includes("/") ? key : lookup(key));
      handlers[key](this.req, this);
    } else if (handlers.default) {
      handlers.default(this.req, this);
    } else {
      const err = new Error("Not Acceptable");
      err.name = "NotAcceptableError";
      err.status = err.statusCode = 406;
      this.sendErrorPage(err);
    }
    return this;
  }
  /**
   * What Express's final handler answers for an error passed to `next`
   * (res.format with no acceptable type): its status and an HTML page
   * with the stack, as outside production.
   */
  sendErrorPage(err) {
    const stack = err.stack && err.stack.startsWith(`${err.name}:`) ? err.stack : `${err.name}: ${err.message}\n${err.stack || ""}`;
    const text = escapeHtml(stack.trimEnd()).replace(/\n/g, "<br>").replace(/ {2}/g, " &nbsp;");
    const body = `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>${text}</pre>\n</body>\n</html>\n`;
    for (const name of this.getHeaderNames()) if (name !== "access-control-allow-origin" && name !== "vary") this.removeHeader(name);
    this.statusCode = err.status || 500;
    this.setHeader("Content-Security-Policy", "default-src 'none'");
    this.setHeader("X-Content-Type-Options", "nosniff");
    this.setHeader("Content-Type", "text/html; charset=utf-8");
    return this.end(body);
  }
  sendFile() {
    throw new Error("res.sendFile is not supported in a Shoal Function: a Function has no file system to send from");
  }
  download() {
    throw new Error("res.download is not supported in a Shoal Function: a Function has no file system to send from");
  }
  render() {
    throw new Error("res.render is not supported in a Shoal Function: no view engine is configured");
  }
}

// The content-disposition package (2.x) as res.attachment calls it: a
// plain ASCII name as is (quoted unless a token), anything else with an
// ASCII fallback and the UTF-8 name in filename*.
const TOKEN = /^[!#$%&'*+.0-9A-Z^_`a-z|~-]+$/;
function contentDisposition(name) {
  if (name === undefined || name === "") return "attachment";
  const param = (key, value) => (TOKEN.test(value) ? `; ${key}=${value}` : `; ${key}="${value.replace(/[\\"]/g, "\\$&")}"`);
  if (/^[\x20-\x7e]*$/.test(name) && !/%[0-9A-Fa-f]{2}/.test(name)) return `attachment${param("filename", name)}`;
  const extended = `UTF-8''${encodeURIComponent(name).replace(/[\x00-\x20"'()*,/:;<=>?@[\\\]{}\x7f]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
  return `attachment${param("filename", name.replace(/[^\x20-\x7e]/g, "?"))}; filename*=${extended}`;
}

function sha1Base64(bytes) {
  return base64(new Uint8Array(__shoal_native.digest("sha1", bytes)));
}

function withCharset(type) {
  const text = String(type);
  if (text.endsWith("; charset=utf-8")) return text;
  if (/;\s*charset=/i.test(text)) return text.replace(/(;\s*charset=)[^;]*/i, "$1utf-8");
  return `${text}; charset=utf-8`;
}
