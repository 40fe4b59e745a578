// Kyma's `sdk` module for nodejs26 Functions (`import { ... } from 'sdk'`
// or `require('sdk')`): the Function's identity and limits, its tracer,
// the CloudEvent of a request, and emitCloudEvent. The bundler resolves
// `sdk` here unless the Function's own node_modules has a package of that
// name, which comes first, as in Kyma's pod.
//
// Kyma installs it in the nodejs26 runtime only: under the legacy runtimes
// the module is missing, as there.
//
// CommonJS, as Kyma's: `require('sdk')` is one object however often it is
// required, and `import sdk from 'sdk'` is that object.
//
// getCloudEvent reads the request as the cloudevents SDK's HTTP.toEvent
// does (Kyma's sdk calls it) and gives an object of the same shape:
// structured mode by content type, binary mode by a ce-id header, and
// null where the SDK throws.

"use strict";

const { base64, fromBase64 } = require("./base64.js");

const kyma = globalThis.__shoal_kyma;
if (!kyma || !kyma.requestResponseApi()) {
  const err = new Error("Cannot find package 'sdk' imported from /usr/src/app/function/handler.js");
  err.code = "ERR_MODULE_NOT_FOUND";
  throw err;
}

function configure() {}

function getTracer() {
  return kyma.tracer;
}

function getFunctionName() {
  return kyma.env("FUNC_NAME", "");
}

function getNamespace() {
  return kyma.env("SERVICE_NAMESPACE", "");
}

function getRuntime() {
  return kyma.env("FUNC_RUNTIME", "nodejs26");
}

function getTimeout() {
  return Number(kyma.env("FUNC_TIMEOUT", "180"));
}

function getBodySizeLimit() {
  return Number(kyma.env("FUNC_BODY_MB_LIMIT", "1"));
}

/** The request's CloudEvent, or null when it carries none or one the SDK refuses. */
function getCloudEvent(req) {
  const isStructured = req.is("application/cloudevents+json");
  const hasHeaders = req.get("ce-type") && req.get("ce-source");
  if (!isStructured && !hasHeaders) return null;
  try {
    return readCloudEvent(req.headers, req.body);
  } catch {
    return null;
  }
}

/** Posts a structured CloudEvent to the publisher proxy; resolves once it is accepted. */
function emitCloudEvent(type, source, data, optionalAttributes) {
  const attributes = Object.assign({ type, source }, optionalAttributes || {});
  if (!attributes.datacontenttype) attributes.datacontenttype = typeof data === "object" ? "application/json" : "text/plain";
  return kyma.emit(new CloudEvent(Object.assign(attributes, { data }), true));
}

module.exports = {
  configure,
  getTracer,
  getCloudEvent,
  emitCloudEvent,
  getFunctionName,
  getNamespace,
  getRuntime,
  getTimeout,
  getBodySizeLimit,
};

// ---------------------------------------------------------------- CloudEvent

const ATTRIBUTE_ORDER = ["datacontenttype", "subject", "datacontentencoding", "dataschema"];

/** The SDK's ValidationError: a TypeError, so `err.name` is "TypeError". */
class ValidationError extends TypeError {
  constructor(message, errors) {
    super(errors ? errors.reduce((text, e) => `${text}\n  ${e}`, message) : message);
    this.errors = errors || [];
  }
}

const ATTRIBUTE_NAME = /^[a-z0-9]+$/;

function isValidExtension(value) {
  return typeof value === "boolean" || Number.isInteger(value) || typeof value === "string" || value instanceof Date || ArrayBuffer.isView(value) || (value !== null && typeof value === "object");
}

/** The SDK's checks of a 1.0 event (its JSON schema's rules, and attribute names). */
function validate(event) {
  if (event.specversion !== "1.0") return;
  const errors = [];
  for (const name of ["id", "source", "specversion", "type"]) {
    if (typeof event[name] !== "string" || event[name].length === 0) errors.push(`${name} must be a non-empty string`);
  }
  for (const name of ["datacontenttype", "subject", "dataschema"]) {
    if (event[name] !== undefined && (typeof event[name] !== "string" || event[name].length === 0)) errors.push(`${name} must be a non-empty string`);
  }
  if (event.time !== undefined && Number.isNaN(Date.parse(event.time))) errors.push("time must be a date-time");
  if (errors.length > 0) throw new ValidationError("invalid payload", errors);
  for (const key of Object.keys(event)) {
    if (!ATTRIBUTE_NAME.test(key) && key !== "data_base64") throw new ValidationError(`invalid attribute name: "${key}"`);
  }
}

/**
 * A CloudEvent as the cloudevents SDK (v10) builds one: `strict` (what
 * emitCloudEvent makes) checks extension names and values and the event;
 * a received event is taken as it is.
 */
class CloudEvent {
  constructor(event, strict = false) {
    const rest = { ...event };
    const take = (name) => {
      const value = rest[name];
      delete rest[name];
      return value;
    };
    this.id = take("id") || kyma.uuid();
    this.time = take("time") || new Date().toISOString();
    this.type = take("type");
    this.source = take("source");
    this.specversion = take("specversion") || "1.0";
    for (const name of ATTRIBUTE_ORDER) this[name] = take(name);
    this.data_base64 = take("data_base64");
    if (this.data_base64) this.data = base64Bytes(this.data_base64);
    this.schemaurl = take("schemaurl");
    if (ArrayBuffer.isView(rest.data)) this.data_base64 = bytesBase64(rest.data);
    this.data = rest.data !== undefined ? rest.data : this.data;
    delete rest.data;
    for (const [key, value] of Object.entries(rest)) {
      if (strict && !ATTRIBUTE_NAME.test(key)) {
        throw new ValidationError(
          `invalid extension name: ${key}\nCloudEvents attribute names MUST consist of lower-case letters ('a' to 'z')\nor digits ('0' to '9') from the ASCII character set. Attribute names SHOULD\nbe descriptive and terse and SHOULD NOT exceed 20 characters in length.`,
        );
      }
      if (strict && !isValidExtension(value)) {
        throw new ValidationError(
          `invalid extension value: ${value}\nExtension values must conform to the CloudEvent type system.\nSee: https://github.com/cloudevents/spec/blob/v1.0/spec.md#type-system`,
        );
      }
      this[key] = value;
    }
    if (strict) validate(this);
    Object.freeze(this);
  }
  toJSON() {
    const out = { ...this };
    out.time = new Date(this.time).toISOString();
    if (out.data_base64 && out.data) delete out.data;
    return out;
  }
  toString() {
    return JSON.stringify(this);
  }
}

// As the SDK (Buffer.from of the view): each element's value is one byte.
function bytesBase64(view) {
  return base64(view instanceof Uint8Array ? view : Uint8Array.from(view, (v) => Number(v) & 255));
}

// The SDK keeps decoded data_base64 as a Uint32Array, one element per byte.
function base64Bytes(text) {
  return Uint32Array.from(fromBase64(text));
}

function isoTime(value) {
  const date = new Date(Date.parse(value));
  return (Number.isNaN(date.getTime()) ? new Date() : date).toISOString();
}

// The SDK's JSON parser: a string that does not look like JSON is taken as
// a JSON string; anything but a string or an object is refused.
function parseJson(payload) {
  let value = payload;
  if (typeof value === "string" && !/^[[|{|"]/.test(value)) value = `"${value}"`;
  if (value === null || value === undefined || (typeof value !== "string" && typeof value !== "object")) throw new TypeError("invalid payload");
  return typeof value === "string" ? JSON.parse(value) : value;
}

const JSON_TYPES = new Set(["application/json", "application/cloudevents+json", "application/json; charset=utf-8", "application/cloudevents+json; charset=utf-8"]);
const BINARY_HEADERS = { "ce-type": "type", "ce-specversion": "specversion", "ce-source": "source", "ce-id": "id", "ce-time": "time", "ce-dataschema": "dataschema", "ce-subject": "subject", "content-type": "datacontenttype" };
const STRUCTURED_FIELDS = ["type", "specversion", "source", "id", "time", "dataschema", "datacontenttype", "subject", "data", "data_base64"];

function readCloudEvent(headers, body) {
  const contentType = headers["content-type"];
  if (contentType && contentType.startsWith("application/cloudevents") && !contentType.startsWith("application/cloudevents-batch")) {
    if (!JSON_TYPES.has(contentType) || body === undefined || body === null) throw new TypeError("not a structured CloudEvent");
    const incoming = { ...parseJson(body) };
    const fields = {};
    for (const key of STRUCTURED_FIELDS) {
      if (incoming[key]) fields[key] = key === "time" ? isoTime(incoming[key]) : incoming[key];
      delete incoming[key];
    }
    Object.assign(fields, incoming);
    if (fields.data_base64 || fields.datacontentencoding === "base64") {
      fields.data = base64Bytes(fields.data_base64 || fields.data);
      delete fields.data_base64;
      delete fields.datacontentencoding;
    }
    return new CloudEvent(fields);
  }
  if (!headers["ce-id"]) throw new TypeError("no cloud event detected");
  const fields = {};
  for (const [header, name] of Object.entries(BINARY_HEADERS)) {
    if (headers[header]) fields[name] = header === "ce-time" ? isoTime(headers[header]) : headers[header];
  }
  for (const [header, value] of Object.entries(headers)) {
    if (header.startsWith("ce-") && !(header in BINARY_HEADERS)) fields[header.slice(3)] = value;
  }
  let data = body;
  if (data && JSON_TYPES.has(fields.datacontenttype)) data = parseJson(data);
  return new CloudEvent({ ...fields, data });
}
