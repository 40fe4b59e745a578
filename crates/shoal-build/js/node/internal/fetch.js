// WHATWG fetch for Shoal Functions. The node performs the request (its
// HTTP client, TLS, redirects, decompression, egress policy and limits);
// this module is the API: Headers, Request, Response, and fetch() itself.
//
// A request is started with __shoal_host.httpStart and its completion is
// delivered by the prelude's event loop through globalThis.__shoal_calls
// (id -> callback), so several fetches run at once and an awaiting
// Function holds no thread.

"use strict";
const { URL, URLSearchParams } = require("./url.js");
const { Blob, blobBytes } = require("./blob.js");
const { FormData } = require("./form-data.js");
const { AbortController } = require("./abort.js");
const { DOMException } = require("./dom-exception.js");
const { concatBytes } = require("./bytes.js");
const { errnoError } = require("./net/host.js");
const native = require("./native.js");

const encoder = new globalThis.TextEncoder();
const decoder = new globalThis.TextDecoder();

function calls() {
  if (!globalThis.__shoal_calls) throw new Error("Shoal: the host-call loop is not installed");
  return globalThis.__shoal_calls;
}

// ---------------------------------------------------------------- Headers
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function normalizeName(name) {
  const n = String(name);
  if (!HEADER_NAME.test(n)) throw new TypeError(`Headers: invalid header name "${n}"`);
  return n.toLowerCase();
}

function normalizeValue(value) {
  return String(value).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "");
}

class Headers {
  #map = new Map(); // lower-case name -> array of values

  constructor(init) {
    if (init == null) return;
    if (init instanceof Headers) {
      for (const [k, v] of init.#map) this.#map.set(k, [...v]);
    } else if (typeof init[Symbol.iterator] === "function") {
      for (const pair of init) {
        const [k, v] = Array.from(pair);
        this.append(k, v);
      }
    } else if (typeof init === "object") {
      for (const k of Object.keys(init)) this.append(k, init[k]);
    }
  }
  append(name, value) {
    const n = normalizeName(name);
    const list = this.#map.get(n);
    if (list) list.push(normalizeValue(value));
    else this.#map.set(n, [normalizeValue(value)]);
  }
  set(name, value) {
    this.#map.set(normalizeName(name), [normalizeValue(value)]);
  }
  get(name) {
    const list = this.#map.get(normalizeName(name));
    return list ? list.join(", ") : null;
  }
  getSetCookie() {
    return [...(this.#map.get("set-cookie") || [])];
  }
  has(name) {
    return this.#map.has(normalizeName(name));
  }
  delete(name) {
    this.#map.delete(normalizeName(name));
  }
  forEach(callback, thisArg) {
    for (const [k, v] of this) callback.call(thisArg, v, k, this);
  }
  *entries() {
    const names = [...this.#map.keys()].sort();
    for (const n of names) {
      if (n === "set-cookie") for (const v of this.#map.get(n)) yield [n, v];
      else yield [n, this.#map.get(n).join(", ")];
    }
  }
  *keys() {
    for (const [k] of this.entries()) yield k;
  }
  *values() {
    for (const [, v] of this.entries()) yield v;
  }
  [Symbol.iterator]() {
    return this.entries();
  }
  get [Symbol.toStringTag]() {
    return "Headers";
  }
  /** Header pairs with every value, for the host. */
  pairs() {
    const out = [];
    for (const [k, list] of this.#map) for (const v of list) out.push([k, v]);
    return out;
  }
}

// ---------------------------------------------------------------- bodies
function bytesOf(view) {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

/**
 * Turns a body init into bytes and the content type it implies, at
 * construction as the Fetch standard does (streams are read whole).
 */
function extractBody(body) {
  if (body == null) return { bytes: null, type: null };
  if (typeof body === "string") return { bytes: encoder.encode(body), type: "text/plain;charset=UTF-8" };
  if (body instanceof URLSearchParams) {
    return { bytes: encoder.encode(body.toString()), type: "application/x-www-form-urlencoded;charset=UTF-8" };
  }
  if (body instanceof ArrayBuffer) return { bytes: new Uint8Array(body.slice(0)), type: null };
  if (ArrayBuffer.isView(body)) return { bytes: bytesOf(body).slice(), type: null };
  if (body instanceof Blob) return { bytes: blobBytes(body), type: body.type || null };
  if (body instanceof FormData) return encodeMultipart(body);
  return { bytes: encoder.encode(String(body)), type: "text/plain;charset=UTF-8" };
}

function encodeMultipart(form) {
  const boundary = `----shoal-formdata-${Array.from(new Uint8Array(native.randomBytes(12)), (b) => b.toString(16).padStart(2, "0")).join("")}`;
  const parts = [];
  const escape = (s) => String(s).replace(/\n/g, "%0A").replace(/\r/g, "%0D").replace(/"/g, "%22");
  for (const [name, value] of form) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${escape(name)}"`;
    if (typeof value === "string") {
      parts.push(encoder.encode(`${head}\r\n\r\n${value}\r\n`));
    } else {
      head += `; filename="${escape(value.name || "blob")}"\r\nContent-Type: ${value.type || "application/octet-stream"}\r\n\r\n`;
      parts.push(encoder.encode(head), blobBytes(value), encoder.encode("\r\n"));
    }
  }
  parts.push(encoder.encode(`--${boundary}--\r\n`));
  return { bytes: concatBytes(parts), type: `multipart/form-data; boundary=${boundary}` };
}

/** The read side every Request and Response shares. */
class Body {
  #bytes;
  #used = false;
  constructor(bytes) {
    this.#bytes = bytes;
  }
  get bodyUsed() {
    return this.#used;
  }
  get body() {
    if (this.#bytes === null) return null;
    // A minimal ReadableStream: one chunk, readable with getReader() or
    // `for await`, which is what code reading response bodies uses.
    const self = this;
    let done = false;
    const reader = {
      async read() {
        if (done) return { done: true, value: undefined };
        done = true;
        return { done: false, value: self.#consume() };
      },
      releaseLock() {},
      cancel() {
        done = true;
        return Promise.resolve();
      },
    };
    return {
      locked: false,
      getReader: () => reader,
      cancel: () => reader.cancel(),
      async *[Symbol.asyncIterator]() {
        const { done: end, value } = await reader.read();
        if (!end) yield value;
      },
    };
  }
  #consume() {
    if (this.#used) throw new TypeError("Body is unusable: Body has already been read");
    this.#used = true;
    return this.#bytes || new Uint8Array(0);
  }
  async arrayBuffer() {
    const b = this.#consume();
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
  }
  async bytes() {
    return this.#consume().slice();
  }
  async text() {
    return decoder.decode(this.#consume());
  }
  async json() {
    return JSON.parse(await this.text());
  }
  async blob() {
    return new Blob([this.#consume()], { type: this.headers.get("content-type") || "" });
  }
  async formData() {
    const type = this.headers.get("content-type") || "";
    if (type.startsWith("application/x-www-form-urlencoded")) {
      const form = new FormData();
      for (const [k, v] of new URLSearchParams(await this.text())) form.append(k, v);
      return form;
    }
    throw new TypeError(`formData(): cannot parse a ${type || "body without a content type"} in Shoal`);
  }
  /** The bytes without consuming (for clone()). */
  peekBytes() {
    if (this.#used) throw new TypeError("Body is unusable: Body has already been read");
    return this.#bytes;
  }
}

// ---------------------------------------------------------------- Request
const METHODS = new Set(["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH"]);

class Request extends Body {
  constructor(input, init = {}) {
    const source = input instanceof Request ? input : null;
    const url = source ? source.url : new URL(String(input)).href;
    let method = String(init.method ?? source?.method ?? "GET");
    if (METHODS.has(method.toUpperCase())) method = method.toUpperCase();
    const { bytes, type } = init.body !== undefined ? extractBody(init.body) : { bytes: source?.peekBytes() ?? null };
    if (bytes != null && (method === "GET" || method === "HEAD")) {
      throw new TypeError("Request with GET/HEAD method cannot have body.");
    }
    super(bytes);
    this.url = url;
    this.method = method;
    this.headers = new Headers(init.headers ?? source?.headers);
    if (type && !this.headers.has("content-type")) this.headers.set("content-type", type);
    this.redirect = init.redirect ?? source?.redirect ?? "follow";
    this.signal = init.signal ?? source?.signal ?? new AbortController().signal;
    this.credentials = init.credentials ?? "same-origin";
    this.cache = init.cache ?? "default";
    this.mode = init.mode ?? "cors";
    this.keepalive = Boolean(init.keepalive);
  }
  clone() {
    return new Request(this);
  }
  get [Symbol.toStringTag]() {
    return "Request";
  }
}

// ---------------------------------------------------------------- Response
class Response extends Body {
  constructor(body = null, init = {}) {
    const { bytes, type } = extractBody(body);
    super(bytes);
    this.status = init.status ?? 200;
    if (!Number.isInteger(this.status) || this.status < 200 || this.status > 599) {
      throw new RangeError(`init["status"] must be in the range of 200 to 599, inclusive.`);
    }
    this.statusText = init.statusText ?? "";
    this.headers = new Headers(init.headers);
    if (type && !this.headers.has("content-type")) this.headers.set("content-type", type);
    this.type = init.__type ?? "default";
    this.url = init.__url ?? "";
    this.redirected = Boolean(init.__redirected);
  }
  get ok() {
    return this.status >= 200 && this.status < 300;
  }
  clone() {
    return new Response(this.peekBytes()?.slice() ?? null, {
      status: this.status,
      statusText: this.statusText,
      headers: this.headers,
      __type: this.type,
      __url: this.url,
      __redirected: this.redirected,
    });
  }
  static json(data, init = {}) {
    const headers = new Headers(init.headers);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
    return new Response(JSON.stringify(data), { ...init, headers });
  }
  static error() {
    const r = new Response(null, { status: 200 });
    r.type = "error";
    r.status = 0;
    return r;
  }
  static redirect(url, status = 302) {
    return new Response(null, { status, headers: { location: new URL(String(url)).href } });
  }
  get [Symbol.toStringTag]() {
    return "Response";
  }
}

// ---------------------------------------------------------------- fetch
function failure(head) {
  if (head.kind === "aborted") return new DOMException("This operation was aborted", "AbortError");
  // As Node's fetch: "fetch failed", the reason in `cause` (the prelude logs
  // causes, so an uncaught failure still says why).
  // A failed connect carries what Node's does (undici passes it on).
  const connect = /^connect (E[A-Z]+) (\[?[0-9a-fA-F:.]+\]?):(\d+)$/.exec(head.error || "");
  const cause = connect
    ? errnoError(head, { syscall: "connect", address: connect[2].replace(/^\[|\]$/g, ""), port: Number(connect[3]) })
    : errnoError(head);
  if (!cause.code) cause.code = `SHOAL_OUTBOUND_${String(head.kind || "network").toUpperCase()}`;
  return new TypeError("fetch failed", { cause });
}

// The Fetch standard's bad ports (undici refuses them before connecting).
const BAD_PORTS = new Set([1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101,
  102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514,
  515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659,
  4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080]);

function badPort(url) {
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return false;
  return parsed.port !== "" && BAD_PORTS.has(Number(parsed.port));
}

async function fetch(input, init) {
  const request = new Request(input, init);
  const signal = request.signal;
  if (signal && signal.aborted) throw signal.reason;
  const bytes = request.peekBytes();
  // Trace context of the incoming request travels on unless set here.
  for (const [name, value] of globalThis.__shoal_trace_headers || []) {
    if (!request.headers.has(name)) request.headers.set(name, value);
  }
  const head = JSON.stringify({
    method: request.method,
    url: request.url,
    headers: request.headers.pairs(),
    redirect: request.redirect,
  });
  if (badPort(request.url)) throw new TypeError("fetch failed", { cause: new Error("bad port") });
  const id = __shoal_host.httpStart(head, bytes || new Uint8Array(0));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      __shoal_host.httpCancel(id);
      calls().delete(id);
      reject(signal.reason);
    };
    if (signal) signal.addEventListener("abort", onAbort, { once: true });
    calls().set(id, (result) => {
      if (signal) signal.removeEventListener("abort", onAbort);
      const head = JSON.parse(result.head);
      if (head.error !== undefined) {
        reject(head.kind === "aborted" && signal?.aborted ? signal.reason : failure(head));
        return;
      }
      const nullBody = request.method === "HEAD" || [101, 204, 205, 304].includes(head.status);
      const response = new Response(nullBody ? null : result.body, {
        status: head.status < 200 ? 200 : head.status,
        statusText: head.statusText,
        headers: head.headers,
        __type: "basic",
        __url: head.url,
        __redirected: head.redirected,
      });
      if (head.status < 200) response.status = head.status;
      resolve(response);
    });
  });
}

module.exports = { fetch, Headers, Request, Response };
