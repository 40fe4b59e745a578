// Shoal's runtime prelude: runs a Kyma Node.js handler inside Shoal's
// JavaScript engine (QuickJS via Javy). Bundled in front of every Function.
//
// Contract: read one request frame from stdin, build Kyma's `event` and
// `context`, call `main(event, context, sendResponse)`, await it, map the
// outcome to status/headers/body exactly as Kyma's Node.js runtime does, and
// write one response frame to stdout. The frame layout is described in
// wit/shoal-function.wit (u32 LE head length, head JSON, raw body).
//
// Importing this module installs the globals Node.js code expects to exist
// before the handler's own top-level code runs (process.env, timers).

const ENVELOPE_VERSION = 1;
const encoder = new globalThis.TextEncoder();
const decoder = new globalThis.TextDecoder();

function readAll(fd) {
  const chunks = [];
  let total = 0;
  for (;;) {
    const buf = new Uint8Array(total < 65536 ? 16384 : 262144);
    const n = Javy.IO.readSync(fd, buf);
    if (n <= 0) break;
    chunks.push(n === buf.length ? buf : buf.subarray(0, n));
    total += n;
  }
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}

function writeAll(fd, bytes) {
  let offset = 0;
  while (offset < bytes.length) {
    const n = Javy.IO.writeSync(fd, bytes.subarray(offset));
    if (n <= 0) throw new Error("could not write the response frame");
    offset += n;
  }
}

function readRequest() {
  const frame = readAll(0);
  if (frame.length < 4) throw new Error("Shoal: no request frame on stdin");
  const headLen = new DataView(frame.buffer, frame.byteOffset, 4).getUint32(0, true);
  const head = JSON.parse(decoder.decode(frame.subarray(4, 4 + headLen)));
  if (head.v !== ENVELOPE_VERSION) {
    throw new Error(`Shoal: envelope version ${head.v} is not supported (prelude speaks ${ENVELOPE_VERSION})`);
  }
  return { head, body: frame.subarray(4 + headLen) };
}

const request = readRequest();
const head = request.head;

// ---------------------------------------------------------------- globals
globalThis.process = globalThis.process || {
  env: Object.assign({}, head.env),
  argv: ["node", "handler.js"],
  platform: "wasi",
  version: "v22.0.0-shoal",
  versions: {},
  nextTick: (fn, ...args) => queueMicrotaskShim(() => fn(...args)),
  hrtime: Object.assign(
    (prev) => {
      const ns = Math.round((typeof performance !== "undefined" ? performance.now() : Date.now()) * 1e6);
      const t = [Math.floor(ns / 1e9), ns % 1e9];
      if (!prev) return t;
      let s = t[0] - prev[0];
      let n = t[1] - prev[1];
      if (n < 0) { s -= 1; n += 1e9; }
      return [s, n];
    },
    { bigint: () => BigInt(Date.now()) * 1000000n },
  ),
  cwd: () => "/",
  exit: (code) => { throw new Error(`process.exit(${code}) is not supported in a Function`); },
  on: () => globalThis.process,
  emitWarning: (w) => console.warn(String(w)),
};

function queueMicrotaskShim(fn) {
  Promise.resolve().then(fn);
}
if (typeof globalThis.queueMicrotask !== "function") globalThis.queueMicrotask = queueMicrotaskShim;

// The event loop. The engine has no host timer and no sockets: timers live
// here, outbound calls are run by the node (__shoal_host), and when neither
// microtasks nor due work remain the loop waits in the host
// (`__shoal_host.wait`), which parks the sandbox until a call completes or
// the next timer is due, holding no thread. Like Node inside a request
// callback, immediates run before timers that are already due.
const timers = new Map();
const immediates = [];
let nextTimerId = 1;

// Host calls in flight: id -> callback(result). fetch and http register here.
const hostCalls = new Map();
globalThis.__shoal_calls = hostCalls;

class Timeout {
  constructor(id) {
    this.id = id;
  }
  ref() {
    return this;
  }
  unref() {
    return this;
  }
  hasRef() {
    return true;
  }
  refresh() {
    const t = timers.get(this.id);
    if (t) t.at = Date.now() + t.delay;
    return this;
  }
  [Symbol.toPrimitive]() {
    return this.id;
  }
}

function addTimer(fn, ms, args, repeat) {
  if (typeof fn !== "function") throw new TypeError("The callback must be a function");
  const delay = Math.max(1, Number(ms) || 0);
  const id = nextTimerId++;
  timers.set(id, { id, fn, args, at: Date.now() + delay, delay, repeat });
  return new Timeout(id);
}
globalThis.setTimeout = (fn, ms, ...args) => addTimer(fn, ms, args, false);
globalThis.setInterval = (fn, ms, ...args) => addTimer(fn, ms, args, true);
globalThis.clearTimeout = globalThis.clearInterval = (timer) => {
  timers.delete(typeof timer === "object" && timer !== null ? timer.id : Number(timer));
};
globalThis.setImmediate = (fn, ...args) => {
  if (typeof fn !== "function") throw new TypeError("The callback must be a function");
  const immediate = { fn, args, cleared: false };
  immediates.push(immediate);
  return immediate;
};
globalThis.clearImmediate = (immediate) => {
  if (immediate) immediate.cleared = true;
};

function runCallback(what, fn, args) {
  try {
    fn(...args);
  } catch (err) {
    console.error(`Uncaught exception in ${what}:`, describeError(err));
  }
}

/** Runs the loop until `isDone()` or nothing is left that could make progress. */
async function pump(isDone) {
  for (;;) {
    while (__shoal_jobsPending()) {
      await null;
      if (isDone()) return;
    }
    if (isDone()) return;
    if (immediates.length > 0) {
      for (const im of immediates.splice(0)) if (!im.cleared) runCallback("an immediate", im.fn, im.args);
      continue;
    }
    let next = null;
    for (const t of timers.values()) if (!next || t.at < next.at || (t.at === next.at && t.id < next.id)) next = t;
    if (!next && hostCalls.size === 0) return;
    const wait = next ? Math.max(0, next.at - Date.now()) : -1;
    if (wait !== 0) {
      const id = __shoal_host.wait(wait);
      if (id > 0) {
        const deliver = hostCalls.get(id);
        hostCalls.delete(id);
        const result = __shoal_host.take(id);
        if (deliver) runCallback("a host call's callback", deliver, [result]);
        continue;
      }
    }
    if (!next || next.at > Date.now()) continue;
    if (next.repeat) next.at = Date.now() + next.delay;
    else timers.delete(next.id);
    runCallback("a timer callback", next.fn, next.args);
  }
}

// ---------------------------------------------------------------- request
function headerObject(pairs) {
  const out = {};
  for (const [k, v] of pairs) {
    const name = k.toLowerCase();
    if (name in out) out[name] = name === "set-cookie" ? [].concat(out[name], v) : `${out[name]}, ${v}`;
    else out[name] = name === "set-cookie" ? [v] : v;
  }
  return out;
}

function decodeComponent(s) {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return s;
  }
}

// qs-style parsing (what Express's extended parsers produce): a=1&a=2 gives
// an array, a[b]=1 a nested object, a[]=1 an array.
function parseQuery(query) {
  const out = {};
  if (!query) return out;
  for (const part of query.split("&")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    const rawKey = decodeComponent(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? "" : decodeComponent(part.slice(eq + 1));
    const path = [];
    const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(rawKey);
    if (m) {
      path.push(m[1]);
      for (const seg of m[2].match(/\[[^[\]]*\]/g) || []) path.push(seg.slice(1, -1));
    } else {
      path.push(rawKey);
    }
    let node = out;
    for (let i = 0; i < path.length; i++) {
      const key = path[i];
      const last = i === path.length - 1;
      if (last) {
        if (key === "" && Array.isArray(node)) node.push(value);
        else if (Object.prototype.hasOwnProperty.call(node, key)) node[key] = [].concat(node[key], value);
        else node[key] = value;
      } else {
        const wantArray = path[i + 1] === "";
        if (node[key] === undefined || typeof node[key] !== "object") node[key] = wantArray ? [] : {};
        node = node[key];
      }
    }
  }
  return out;
}

function mediaType(contentType) {
  return (contentType || "").split(";")[0].trim().toLowerCase();
}

class BadRequest extends Error {}

function parseBody(contentType, bytes) {
  if (bytes.length === 0) return undefined;
  const type = mediaType(contentType);
  if (type === "application/json" || type === "application/cloudevents+json") {
    const text = decoder.decode(bytes);
    try {
      return JSON.parse(text);
    } catch (err) {
      throw new BadRequest(`Bad Request: the body is not valid JSON (${err.message})`);
    }
  }
  if (type.startsWith("text/")) return decoder.decode(bytes);
  if (type === "application/x-www-form-urlencoded") return parseQuery(decoder.decode(bytes));
  return bytes;
}

const HTTP_STATUS_TEXT = {
  200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 301: "Moved Permanently", 302: "Found",
  304: "Not Modified", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
  405: "Method Not Allowed", 408: "Request Timeout", 409: "Conflict", 410: "Gone", 413: "Payload Too Large",
  415: "Unsupported Media Type", 422: "Unprocessable Entity", 429: "Too Many Requests",
  500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
  504: "Gateway Timeout",
};

// ---------------------------------------------------------------- response
class Response {
  constructor() {
    this.statusCode = 200;
    this.headers = new Map(); // lower-case name -> [name, value]
    this.body = new Uint8Array(0);
    this.writableEnded = false;
    this.headersSent = false;
    /** Settles when the response is complete (end, send, json, ...). */
    this.ended = new Promise((resolve) => (this.markEnded = resolve));
  }
  status(code) {
    this.statusCode = Number(code);
    return this;
  }
  set(name, value) {
    if (typeof name === "object" && name !== null) {
      for (const k of Object.keys(name)) this.set(k, name[k]);
      return this;
    }
    this.headers.set(String(name).toLowerCase(), [String(name), Array.isArray(value) ? value.map(String) : String(value)]);
    return this;
  }
  header(name, value) {
    return this.set(name, value);
  }
  setHeader(name, value) {
    this.set(name, value);
  }
  get(name) {
    const h = this.headers.get(String(name).toLowerCase());
    return h ? h[1] : undefined;
  }
  getHeader(name) {
    return this.get(name);
  }
  removeHeader(name) {
    this.headers.delete(String(name).toLowerCase());
  }
  type(t) {
    const value = String(t).includes("/") ? String(t) : MIME_BY_EXTENSION[String(t).replace(/^\./, "")] || "application/octet-stream";
    return this.set("Content-Type", value);
  }
  contentType(t) {
    return this.type(t);
  }
  end(body) {
    if (this.writableEnded) return this;
    if (body !== undefined && body !== null) this.body = toBytes(body);
    this.writableEnded = this.headersSent = true;
    this.markEnded();
    return this;
  }
  json(value) {
    if (!this.get("content-type")) this.set("Content-Type", "application/json; charset=utf-8");
    const text = JSON.stringify(value);
    return this.end(text === undefined ? "" : text);
  }
  send(body) {
    if (body === undefined || body === null) return this.end();
    if (typeof body === "string") {
      if (!this.get("content-type")) this.set("Content-Type", "text/html; charset=utf-8");
      return this.end(body);
    }
    if (body instanceof Uint8Array || body instanceof ArrayBuffer) {
      if (!this.get("content-type")) this.set("Content-Type", "application/octet-stream");
      return this.end(body);
    }
    if (typeof body === "object") return this.json(body);
    return this.send(String(body));
  }
  sendStatus(code) {
    this.status(code);
    if (!this.get("content-type")) this.set("Content-Type", "text/plain; charset=utf-8");
    return this.end(HTTP_STATUS_TEXT[code] || String(code));
  }
  write(chunk) {
    const add = toBytes(chunk);
    const merged = new Uint8Array(this.body.length + add.length);
    merged.set(this.body);
    merged.set(add, this.body.length);
    this.body = merged;
    this.headersSent = true;
    return true;
  }
}

const MIME_BY_EXTENSION = {
  json: "application/json; charset=utf-8", html: "text/html; charset=utf-8", txt: "text/plain; charset=utf-8",
  text: "text/plain; charset=utf-8", xml: "application/xml", js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8", png: "image/png", bin: "application/octet-stream",
};

function toBytes(value) {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  return encoder.encode(String(value));
}

function describeError(err) {
  if (err instanceof Error) return err.stack ? `${err.message}\n${err.stack}` : String(err.message);
  try {
    return typeof err === "string" ? err : JSON.stringify(err);
  } catch {
    return String(err);
  }
}

function writeResponse(res, events) {
  const headers = [["Access-Control-Allow-Origin", "*"]];
  for (const [name, value] of res.headers.values()) {
    if (name.toLowerCase() === "access-control-allow-origin") headers[0] = [name, value];
    else if (Array.isArray(value)) for (const v of value) headers.push([name, v]);
    else headers.push([name, value]);
  }
  const status = Number.isInteger(res.statusCode) && res.statusCode >= 100 && res.statusCode <= 999 ? res.statusCode : 500;
  const headBytes = encoder.encode(JSON.stringify({ v: ENVELOPE_VERSION, status, headers, events }));
  const frame = new Uint8Array(4 + headBytes.length + res.body.length);
  new DataView(frame.buffer).setUint32(0, headBytes.length, true);
  frame.set(headBytes, 4);
  frame.set(res.body, 4 + headBytes.length);
  writeAll(1, frame);
}

// ---------------------------------------------------------------- event
const CE_FIELDS = ["type", "source", "eventtypeversion", "specversion", "id", "time", "datacontenttype"];

function buildEvent(req, res, emitted) {
  const event = {};
  const type = mediaType(req.headers["content-type"]);
  let data = req.body;
  if (type === "application/cloudevents+json" && data && typeof data === "object") {
    for (const f of CE_FIELDS) event[`ce-${f}`] = data[f];
    data = data.data;
  } else {
    for (const f of CE_FIELDS) event[`ce-${f}`] = req.headers[`ce-${f}`];
    if (event["ce-datacontenttype"] === undefined && req.headers["ce-type"] !== undefined) {
      event["ce-datacontenttype"] = req.headers["content-type"];
    }
  }
  event.data = data;
  event.extensions = { request: req, response: res };
  event.setResponseHeader = (name, value) => res.set(name, value);
  event.setResponseContentType = (t) => res.type(t);
  event.setResponseStatus = (code) => res.status(code);
  // Wasm has no sockets: emitted events travel back in the response frame
  // and the node posts them to PUBLISHER_PROXY_ADDRESS.
  event.emitCloudEvent = (ceType, source, payload, attributes) => {
    emitted.push({
      specversion: "1.0",
      type: ceType,
      source,
      id: (attributes && attributes.id) || `${Date.now().toString(16)}-${Math.random().toString(16).slice(2)}`,
      datacontenttype: "application/json",
      ...(attributes || {}),
      data: payload,
    });
    return Promise.resolve();
  };
  return event;
}

function buildRequest(body) {
  const headers = headerObject(head.headers);
  const url = head.query ? `${head.path}?${head.query}` : head.path;
  return {
    method: head.method,
    path: head.path,
    url,
    originalUrl: url,
    baseUrl: "",
    query: parseQuery(head.query),
    params: {},
    headers,
    body,
    hostname: (headers.host || "").replace(/:\d+$/, ""),
    protocol: headers["x-forwarded-proto"] || "http",
    get(name) {
      const n = String(name).toLowerCase();
      return headers[n === "referrer" ? "referer" : n];
    },
    header(name) {
      return this.get(name);
    },
    is(t) {
      const ct = mediaType(headers["content-type"]);
      return ct === t || ct.endsWith(`/${t}`) || (t.endsWith("/*") && ct.startsWith(t.slice(0, -1))) ? ct : false;
    },
  };
}

// ---------------------------------------------------------------- run
/**
 * Runs the handler for the request on stdin; `load` imports the user module.
 * The event loop runs for the whole of it, so module top-level code may
 * await timers and fetches too.
 */
export async function run(load) {
  let finished = false;
  let loopIdle;
  const idle = new Promise((resolve) => (loopIdle = resolve));
  const work = serve(load, idle).finally(() => {
    finished = true;
  });
  await Promise.race([work, pump(() => finished)]);
  if (!finished) {
    // Nothing is left that could make progress: no jobs, timers or calls.
    loopIdle();
    await work;
  }
}

/** Serves the request; `idle` settles when the event loop ran dry. */
async function serve(load, idle) {
  const res = new Response();
  const emitted = [];
  let mod;
  try {
    mod = await load();
  } catch (err) {
    console.error("The Function's code failed to load:", describeError(err));
    if (head.probe) return probeAnswer(false, `the Function's code throws while loading: ${describeError(err)}`);
    res.status(500).end("User function not loaded");
    return writeResponse(res, emitted);
  }
  const main = mod && (typeof mod.main === "function" ? mod.main : mod.default && mod.default.main);
  if (head.probe) {
    return typeof main === "function"
      ? probeAnswer(true, "main is a function")
      : probeAnswer(false, `the Function does not export a main function (main is ${main === null ? "null" : typeof main})`);
  }
  if (typeof main !== "function") {
    console.error("Content loaded is not a function. Make sure your function exports 'main' function");
    res.status(500).end("User function not loaded");
    return writeResponse(res, emitted);
  }

  let req;
  try {
    req = buildRequest(parseBody(headerObject(head.headers)["content-type"], request.body));
  } catch (err) {
    if (!(err instanceof BadRequest)) throw err;
    res.status(400).set("Content-Type", "text/plain; charset=utf-8").end(err.message);
    return writeResponse(res, emitted);
  }

  // Outbound calls carry the incoming trace context (W3C and B3) unless the
  // Function sets its own.
  globalThis.__shoal_trace_headers = head.headers.filter(([k]) =>
    /^(traceparent|tracestate|b3|x-b3-[a-z]+|x-request-id)$/i.test(k),
  );
  const event = buildEvent(req, res, emitted);
  const fn = head.function || {};
  const context = {
    "function-name": fn.name,
    runtime: fn.runtime,
    namespace: fn.namespace,
    timeout: fn.timeout,
    "body-size-limit": fn.bodySizeLimit,
  };
  const sendResponse = (body, status, headers) => {
    if (res.writableEnded) return;
    if (headers) for (const name of Object.keys(headers)) res.set(name, headers[name]);
    if (body) {
      if (status) res.status(status);
      switch (typeof body) {
        case "object":
          if (body instanceof Uint8Array || body instanceof ArrayBuffer) res.end(body);
          else res.json(body);
          break;
        default:
          res.end(String(body));
      }
    } else if (status) {
      res.sendStatus(status);
    } else {
      res.end();
    }
  };
  const fail = (err) => {
    console.error("The Function failed:", describeError(err));
    if (res.writableEnded) return;
    res.status(500);
    if (typeof err === "string") res.end(err);
    else res.end("Internal server error");
  };

  // The response goes when main settles, or as soon as the handler ended
  // it through sendResponse (work it left running is then abandoned), or
  // when nothing is left that could settle main.
  await Promise.race([
    (async () => {
      try {
        sendResponse(await main(event, context, sendResponse));
      } catch (err) {
        fail(err);
      }
    })(),
    res.ended,
    idle.then(() => fail(new Error("main returned a Promise that never settled"))),
  ]);
  writeResponse(res, emitted);
}

function probeAnswer(ok, message) {
  const res = new Response();
  res.status(ok ? 200 : 422).set("Content-Type", "text/plain; charset=utf-8").end(message);
  writeResponse(res, []);
}
