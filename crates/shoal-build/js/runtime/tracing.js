// The Function's OpenTelemetry tracer: what `getTracer()` (sdk, nodejs26)
// and `event.tracer` (legacy runtimes) return, Kyma's
// `trace.getTracer("io.kyma-project.serverless")`, with the
// `@opentelemetry/api` surface a Function uses (startSpan,
// startActiveSpan, span attributes, events, status, end).
//
// Kyma registers its provider, context manager and propagators globally;
// so does this module (under the API's global key), so a Function bundling
// its own `@opentelemetry/api` gets the same tracer, active span and
// propagation.
//
// The node owns the invocation span (crates/shoal-node) and exports every
// span. When it records the request (`head.trace`), the Function's spans
// are children of the invocation span and, once ended, go back with the
// next response (`takeEndedSpans`); otherwise they are recorded nowhere
// and cost nothing until a Function starts one. Outbound calls carry the
// active span's context (`outboundHeaders`); the node makes a client span
// of each under it.

const SPAN_KEY = Symbol.for("OpenTelemetry Context Key SPAN");
const API_GLOBAL = Symbol.for("opentelemetry.js.api.1");
// The newest @opentelemetry/api: any 1.x up to it accepts this registration.
const API_VERSION = "1.10.0";
const INVALID_TRACE = "00000000000000000000000000000000";
const INVALID_SPAN = "0000000000000000";
// Ended spans kept for one response at most; more are dropped (a loop
// making spans must not grow the sandbox without bound).
const MAX_ENDED_SPANS = 1000;
const MAX_ATTRIBUTES = 128;
const MAX_EVENTS = 128;

function randomHex(bytes) {
  const b = new Uint8Array(__shoal_native.randomBytes(bytes));
  let out = "";
  for (const x of b) out += (x < 16 ? "0" : "") + x.toString(16);
  return out;
}

// ---------------------------------------------------------------- context

/** An immutable context, as @opentelemetry/api's ROOT_CONTEXT and its descendants. */
class Context {
  constructor(values) {
    this.values = values || new Map();
  }
  getValue(key) {
    return this.values.get(key);
  }
  setValue(key, value) {
    const values = new Map(this.values);
    values.set(key, value);
    return new Context(values);
  }
  deleteValue(key) {
    const values = new Map(this.values);
    values.delete(key);
    return new Context(values);
  }
}

const ROOT = new Context();

/** The request being served: its root context and how its spans are kept. */
const request = {
  root: ROOT,
  // head.trace: the node records this request.
  recorded: null,
  // The incoming trace headers, read only when a span needs them.
  incoming: [],
  resolved: false,
  wallBase: 0,
  clockBase: 0,
};
const active = [];
let ended = [];

// Wall-clock milliseconds with the monotonic clock's resolution; the
// bases are read once per request, and only by a request that makes spans.
function now() {
  if (request.wallBase === 0) {
    request.wallBase = Date.now();
    request.clockBase = performance.now();
  }
  return request.wallBase + (performance.now() - request.clockBase);
}

/**
 * A new request: `trace` is the head's (set when the node records it),
 * `headers` its header pairs.
 */
export function beginRequest(trace, headers) {
  request.recorded = trace || null;
  request.incoming = headers;
  request.resolved = false;
  request.root = ROOT;
  request.wallBase = 0;
  active.length = 0;
}

/** The spans ended since the last call (for the response head). */
export function takeEndedSpans() {
  if (ended.length === 0) return null;
  const out = ended;
  ended = [];
  return out;
}

/**
 * The request's root context, made when first asked for: the runtime's
 * span, as Kyma's HTTP server span is the active span a handler starts
 * in. It is the node's invocation span when the node records the request;
 * otherwise a span of this sandbox continuing the caller's context (a new
 * trace without one, a span that records nothing for a caller that did
 * not sample).
 */
function rootContext() {
  if (!request.resolved) {
    request.resolved = true;
    let span;
    if (request.recorded) {
      span = new RuntimeSpan({ traceId: request.recorded.id, spanId: request.recorded.span, traceFlags: 1, isRemote: false });
    } else {
      const caller = extractContext(request.incoming);
      const traceId = caller ? caller.traceId : randomHex(16);
      const sampled = !caller || (caller.traceFlags & 1) === 1;
      const spanContext = { traceId, spanId: randomHex(8), traceFlags: sampled ? 1 : 0, isRemote: false };
      if (caller && caller.traceState) spanContext.traceState = caller.traceState;
      span = sampled ? new RuntimeSpan(spanContext) : new NonRecordingSpan(spanContext);
    }
    request.root = ROOT.setValue(SPAN_KEY, span);
  }
  return request.root;
}

// Contexts entered with `with`, innermost last. One request runs in a
// sandbox at a time, so a context entered for an async callback stays
// active until its promise settles: the awaits of sequential code see it,
// as Node's AsyncLocalStorage would show it (callbacks running
// concurrently within one request see the one entered last).
const contextManager = {
  active() {
    return active.length > 0 ? active[active.length - 1].context : rootContext();
  },
  with(context, fn, thisArg, ...args) {
    const entry = { context: context || ROOT };
    active.push(entry);
    let result;
    let settlesLater = false;
    try {
      result = fn.apply(thisArg, args);
      settlesLater = result !== null && typeof result === "object" && typeof result.then === "function";
      return result;
    } finally {
      const leave = () => {
        const at = active.lastIndexOf(entry);
        if (at >= 0) active.splice(at, 1);
      };
      if (settlesLater) result.then(leave, leave);
      else leave();
    }
  },
  bind(context, target) {
    if (typeof target !== "function") return target;
    const manager = this;
    return function bound(...args) {
      return manager.with(context, () => target.apply(this, args));
    };
  },
  enable() {
    return this;
  },
  disable() {
    return this;
  },
};

// ---------------------------------------------------------------- propagation

/** @opentelemetry/api's TraceState over the `tracestate` header: ordered key=value members. */
class TraceState {
  constructor(text) {
    this.members = new Map();
    for (const part of String(text || "").split(",")) {
      const eq = part.indexOf("=");
      if (eq > 0) this.members.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
    }
  }
  get(key) {
    return this.members.get(key);
  }
  set(key, value) {
    const next = new TraceState();
    next.members = new Map([[key, value], ...[...this.members].filter(([k]) => k !== key)]);
    return next;
  }
  unset(key) {
    const next = new TraceState();
    next.members = new Map([...this.members].filter(([k]) => k !== key));
    return next;
  }
  serialize() {
    return [...this.members].map(([k, v]) => `${k}=${v}`).join(",");
  }
}

function parseTraceparent(value) {
  const m = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-|$)/.exec(String(value).trim());
  if (!m || m[1] === "ff" || m[2] === INVALID_TRACE || m[3] === INVALID_SPAN) return null;
  return { traceId: m[2], spanId: m[3], traceFlags: Number.parseInt(m[4], 16) & 1, isRemote: true };
}

function parseB3(get) {
  const single = get("b3");
  if (single) {
    const [trace, span, sampled] = single.split("-");
    if (/^[0-9a-f]{16}([0-9a-f]{16})?$/.test(trace || "") && /^[0-9a-f]{16}$/.test(span || "")) {
      return { traceId: trace.padStart(32, "0"), spanId: span, traceFlags: sampled === "0" ? 0 : 1, isRemote: true };
    }
  }
  const trace = get("x-b3-traceid");
  const span = get("x-b3-spanid");
  if (/^[0-9a-f]{16}([0-9a-f]{16})?$/.test(trace || "") && /^[0-9a-f]{16}$/.test(span || "")) {
    const sampled = get("x-b3-sampled");
    return { traceId: trace.padStart(32, "0"), spanId: span, traceFlags: sampled === "0" || sampled === "false" ? 0 : 1, isRemote: true };
  }
  return null;
}

/** The caller's span context from header pairs (W3C first, then B3), or null. */
function extractContext(pairs) {
  const get = (name) => {
    for (const [k, v] of pairs) if (k.toLowerCase() === name) return String(v).toLowerCase();
    return undefined;
  };
  const traceparent = get("traceparent");
  const w3c = traceparent && parseTraceparent(traceparent);
  if (w3c) {
    const tracestate = pairs.find(([k]) => k.toLowerCase() === "tracestate");
    if (tracestate) w3c.traceState = new TraceState(tracestate[1]);
    return w3c;
  }
  return parseB3(get);
}

function contextHeaders(sc) {
  const flags = sc.traceFlags & 1 ? "01" : "00";
  return [
    ["traceparent", `00-${sc.traceId}-${sc.spanId}-${flags}`],
    ["X-B3-TraceId", sc.traceId],
    ["X-B3-SpanId", sc.spanId],
    ["X-B3-Sampled", sc.traceFlags & 1 ? "1" : "0"],
  ];
}

const propagator = {
  inject(context, carrier, setter) {
    const span = context && context.getValue(SPAN_KEY);
    if (!span) return;
    const sc = span.spanContext();
    if (sc.traceId === INVALID_TRACE) return;
    const set = setter && setter.set ? (k, v) => setter.set(carrier, k, v) : (k, v) => (carrier[k] = v);
    for (const [k, v] of contextHeaders(sc)) set(k.toLowerCase(), v);
    if (sc.traceState) set("tracestate", sc.traceState.serialize());
  },
  extract(context, carrier, getter) {
    const keys = getter && getter.keys ? getter.keys(carrier) : Object.keys(carrier || {});
    const pairs = [];
    for (const k of keys) {
      const v = getter && getter.get ? getter.get(carrier, k) : carrier[k];
      if (v !== undefined) pairs.push([k, Array.isArray(v) ? v[0] : v]);
    }
    const sc = extractContext(pairs);
    return sc ? (context || ROOT).setValue(SPAN_KEY, new NonRecordingSpan(sc)) : context || ROOT;
  },
  fields() {
    return ["traceparent", "tracestate", "x-b3-traceid", "x-b3-spanid", "x-b3-sampled"];
  },
};

/**
 * The trace headers an outbound call made now carries: the active span's
 * context, or the caller's headers as they came when the node records
 * nothing and the Function started no span.
 */
export function outboundHeaders(incomingTraceHeaders) {
  if (!request.recorded && active.length === 0) return incomingTraceHeaders;
  const span = contextManager.active().getValue(SPAN_KEY);
  if (!span) return incomingTraceHeaders;
  const headers = contextHeaders(span.spanContext());
  // The caller's tracestate and x-request-id travel on beside the new context.
  for (const [k, v] of incomingTraceHeaders) if (!/^(traceparent|b3|x-b3-)/i.test(k)) headers.push([k, v]);
  return headers;
}

// ---------------------------------------------------------------- spans

class NonRecordingSpan {
  constructor(spanContext) {
    this._context = spanContext;
  }
  spanContext() {
    return this._context;
  }
  setAttribute() {
    return this;
  }
  setAttributes() {
    return this;
  }
  addEvent() {
    return this;
  }
  addLink() {
    return this;
  }
  addLinks() {
    return this;
  }
  setStatus() {
    return this;
  }
  updateName() {
    return this;
  }
  end() {}
  isRecording() {
    return false;
  }
  recordException() {}
}

/**
 * The runtime's span (the invocation's): the active span a handler starts
 * in. The node records it, so what the Function sets on it is not kept.
 */
class RuntimeSpan extends NonRecordingSpan {
  isRecording() {
    return true;
  }
}

function attributeValue(value) {
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (Array.isArray(value)) return value.filter((v) => ["string", "number", "boolean"].includes(typeof v));
  return undefined;
}

function timeMs(input) {
  if (input === undefined) return now();
  if (typeof input === "number") return input;
  if (input instanceof Date) return input.getTime();
  if (Array.isArray(input)) return input[0] * 1000 + input[1] / 1e6;
  return now();
}

class RecordingSpan {
  constructor(name, spanContext, parent, kind, attributes, startTime, exported) {
    this.name = String(name);
    this._context = spanContext;
    // As sdk-trace-base 2.x names it.
    this.parentSpanContext = parent || undefined;
    this.kind = Number.isInteger(kind) ? kind : 0;
    this.attributes = new Map();
    this.events = [];
    this.status = { code: 0 };
    this.startTime = timeMs(startTime);
    this.ended = false;
    this.exported = exported;
    if (attributes) this.setAttributes(attributes);
  }
  spanContext() {
    return this._context;
  }
  setAttribute(key, value) {
    const v = attributeValue(value);
    if (this.ended || v === undefined || (!this.attributes.has(key) && this.attributes.size >= MAX_ATTRIBUTES)) return this;
    this.attributes.set(String(key), v);
    return this;
  }
  setAttributes(attributes) {
    for (const k of Object.keys(attributes || {})) this.setAttribute(k, attributes[k]);
    return this;
  }
  addEvent(name, attributesOrTime, time) {
    if (this.ended || this.events.length >= MAX_EVENTS) return this;
    let attributes = attributesOrTime;
    if (typeof attributesOrTime === "number" || attributesOrTime instanceof Date || Array.isArray(attributesOrTime)) {
      time = attributesOrTime;
      attributes = undefined;
    }
    const pairs = [];
    for (const k of Object.keys(attributes || {})) {
      const v = attributeValue(attributes[k]);
      if (v !== undefined) pairs.push([k, v]);
    }
    this.events.push({ name: String(name), time: timeMs(time), attributes: pairs });
    return this;
  }
  addLink() {
    return this;
  }
  addLinks() {
    return this;
  }
  setStatus(status) {
    if (this.ended || !status) return this;
    // As the SDK: OK is final, UNSET never overrides.
    if (this.status.code === 1 || status.code === 0) return this;
    this.status = { code: status.code, message: status.code === 2 && status.message ? String(status.message) : undefined };
    return this;
  }
  updateName(name) {
    if (!this.ended) this.name = String(name);
    return this;
  }
  isRecording() {
    return !this.ended;
  }
  recordException(exception, time) {
    const attributes = {};
    if (typeof exception === "string") attributes["exception.message"] = exception;
    else if (exception) {
      if (exception.name || exception.code) attributes["exception.type"] = String(exception.code || exception.name);
      if (exception.message) attributes["exception.message"] = String(exception.message);
      if (exception.stack) attributes["exception.stacktrace"] = String(exception.stack);
    }
    this.addEvent("exception", attributes, time);
  }
  end(endTime) {
    if (this.ended) return;
    this.ended = true;
    if (!this.exported || ended.length >= MAX_ENDED_SPANS) return;
    ended.push({
      id: this._context.spanId,
      parent: this.parentSpanContext ? this.parentSpanContext.spanId : "",
      trace: this._context.traceId,
      name: this.name,
      kind: this.kind,
      start: this.startTime,
      end: Math.max(timeMs(endTime), this.startTime),
      attributes: [...this.attributes],
      status: this.status.code,
      message: this.status.message || "",
      events: this.events,
    });
  }
}

class Tracer {
  startSpan(name, options, context) {
    const opts = options || {};
    const parentSpan = opts.root ? undefined : (context || contextManager.active()).getValue(SPAN_KEY);
    const parent = parentSpan ? parentSpan.spanContext() : null;
    const valid = parent && parent.traceId !== INVALID_TRACE;
    // ParentBased(AlwaysOn), as Kyma samples: a caller that did not sample
    // gets a span that records nothing.
    if (valid && !(parent.traceFlags & 1)) {
      return new NonRecordingSpan({ traceId: parent.traceId, spanId: randomHex(8), traceFlags: 0, isRemote: false, traceState: parent.traceState });
    }
    const traceId = valid ? parent.traceId : randomHex(16);
    const spanContext = { traceId, spanId: randomHex(8), traceFlags: 1, isRemote: false };
    if (valid && parent.traceState) spanContext.traceState = parent.traceState;
    return new RecordingSpan(name, spanContext, valid ? parent : null, opts.kind, opts.attributes, opts.startTime, request.recorded !== null);
  }
  startActiveSpan(name, ...args) {
    const fn = args.pop();
    const [options, context] = args;
    const parentContext = context || contextManager.active();
    const span = this.startSpan(name, options, parentContext);
    return contextManager.with(parentContext.setValue(SPAN_KEY, span), fn, undefined, span);
  }
}

const tracers = new Map();
const provider = {
  getTracer(name, version) {
    const key = `${name}@${version || ""}`;
    if (!tracers.has(key)) tracers.set(key, new Tracer());
    return tracers.get(key);
  },
};

/** The tracer Kyma hands a Function. */
export const tracer = provider.getTracer("io.kyma-project.serverless");

/** Registers this tracer provider, context manager and propagator as @opentelemetry/api's globals. */
export function registerGlobals() {
  if (globalThis[API_GLOBAL]) return;
  Object.defineProperty(globalThis, API_GLOBAL, {
    value: { version: API_VERSION, trace: provider, context: contextManager, propagation: propagator },
    writable: true,
    configurable: true,
    enumerable: false,
  });
}
