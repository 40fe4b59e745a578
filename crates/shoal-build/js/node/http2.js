'use strict';
// node:http2 for Shoal Functions: loadable (axios and others require it at
// load) with Node's constants and settings helpers. Sessions are not: a
// Function does not listen (Shoal's node serves it, over HTTP/2 too), and
// fetch, http and https speak HTTP/2 to upstreams through the node.
const { Readable, Stream } = require('./stream.js');
const { Buffer } = require('./buffer.js');
const { invalidArgType, nodeError } = require('./internal/errors.js');
const { notImplemented, unsupportedFunction, unsupportedMethods } = require('./internal/unsupported.js');
const constants = require('./internal/http2-constants.js');

const NO_SERVER = "a Function does not listen: Shoal's node serves it";
const NO_SESSIONS = 'outbound HTTP/2 goes through fetch, http and https, performed by the node';

const kMaxFrameSize = 2 ** 24 - 1;
const kMaxInt = 2 ** 32 - 1;
const kMaxInitialWindowSize = 2 ** 31 - 1;

// Setting name, id on the wire (RFC 9113, and 8441 for the connect protocol).
const SETTINGS = [
  ['headerTableSize', 1],
  ['enablePush', 2],
  ['maxConcurrentStreams', 3],
  ['initialWindowSize', 4],
  ['maxFrameSize', 5],
  ['maxHeaderListSize', 6],
  ['enableConnectProtocol', 8],
];

function getDefaultSettings() {
  return Object.assign(Object.create(null), {
    headerTableSize: 4096,
    enablePush: true,
    initialWindowSize: 65535,
    maxFrameSize: 16384,
    maxConcurrentStreams: 4294967295,
    maxHeaderSize: 65535,
    maxHeaderListSize: 65535,
    enableConnectProtocol: false,
  });
}

function invalidSetting(name, value, Ctor = RangeError) {
  return nodeError(Ctor, 'ERR_HTTP2_INVALID_SETTING_VALUE', `Invalid value for setting "${name}": ${value}`);
}

function validateSettings(settings) {
  const ranges = {
    headerTableSize: [0, kMaxInt],
    initialWindowSize: [0, kMaxInitialWindowSize],
    maxFrameSize: [16384, kMaxFrameSize],
    maxConcurrentStreams: [0, kMaxInt],
    maxHeaderListSize: [0, kMaxInt],
    maxHeaderSize: [0, kMaxInt],
  };
  for (const [name, [min, max]] of Object.entries(ranges)) {
    const value = settings[name];
    if (value !== undefined && (typeof value !== 'number' || value < min || value > max)) {
      throw invalidSetting(name, value, typeof value === 'number' ? RangeError : TypeError);
    }
  }
  for (const name of ['enablePush', 'enableConnectProtocol']) {
    if (settings[name] !== undefined && typeof settings[name] !== 'boolean') throw invalidSetting(name, settings[name], TypeError);
  }
}

// The payload of a SETTINGS frame: 6 bytes (id, value) per setting given.
function getPackedSettings(settings = {}) {
  if (settings === null || typeof settings !== 'object') throw invalidArgType('settings', 'object', settings);
  validateSettings(settings);
  const values = { ...settings };
  if (values.maxHeaderSize !== undefined) {
    if (values.maxHeaderListSize !== undefined && values.maxHeaderListSize !== values.maxHeaderSize) {
      process.emitWarning('settings.maxHeaderSize overwrite settings.maxHeaderListSize');
    }
    values.maxHeaderListSize = values.maxHeaderSize;
  }
  const present = SETTINGS.filter(([name]) => values[name] !== undefined);
  const out = Buffer.alloc(present.length * 6);
  present.forEach(([name, id], i) => {
    const value = values[name];
    out.writeUInt16BE(id, i * 6);
    out.writeUInt32BE(typeof value === 'boolean' ? Number(value) : value, i * 6 + 2);
  });
  return out;
}

function getUnpackedSettings(buf, options = {}) {
  if (!ArrayBuffer.isView(buf) || buf.length === undefined) throw invalidArgType('buf', ['Buffer', 'TypedArray'], buf);
  if (buf.length % 6 !== 0) {
    throw nodeError(RangeError, 'ERR_HTTP2_INVALID_PACKED_SETTINGS_LENGTH', 'Packed settings length must be a multiple of six');
  }
  const bytes = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  const settings = {};
  for (let offset = 0; offset < bytes.length; offset += 6) {
    const id = bytes.readUInt16BE(offset);
    const value = bytes.readUInt32BE(offset + 2);
    switch (id) {
      case 1: settings.headerTableSize = value; break;
      case 2: settings.enablePush = value !== 0; break;
      case 3: settings.maxConcurrentStreams = value; break;
      case 4: settings.initialWindowSize = value; break;
      case 5: settings.maxFrameSize = value; break;
      case 6: settings.maxHeaderListSize = settings.maxHeaderSize = value; break;
      case 8: settings.enableConnectProtocol = value !== 0; break;
      default:
        settings.customSettings ||= {};
        settings.customSettings[id] = value;
    }
  }
  if (options != null && options.validate) validateSettings(settings);
  return settings;
}

// Made by a server for each request: classes a Function can refer to.
class Http2ServerRequest extends Readable {
  constructor() {
    super();
    throw notImplemented('new http2.Http2ServerRequest()', NO_SERVER);
  }
}
unsupportedMethods(Http2ServerRequest, 'http2.Http2ServerRequest', [
  '_read', 'aborted', 'authority', 'complete', 'connection', 'headers', 'httpVersion', 'httpVersionMajor', 'httpVersionMinor',
  'method', 'rawHeaders', 'rawTrailers', 'scheme', 'setTimeout', 'socket', 'stream', 'trailers', 'url',
], NO_SERVER);

class Http2ServerResponse extends Stream {
  constructor() {
    super();
    throw notImplemented('new http2.Http2ServerResponse()', NO_SERVER);
  }
}
unsupportedMethods(Http2ServerResponse, 'http2.Http2ServerResponse', [
  '_header', 'addTrailers', 'appendHeader', 'connection', 'cork', 'createPushResponse', 'destroy', 'end', 'finished',
  'flushHeaders', 'getHeader', 'getHeaderNames', 'getHeaders', 'hasHeader', 'headersSent', 'removeHeader', 'sendDate',
  'setHeader', 'setTimeout', 'setTrailer', 'socket', 'statusCode', 'statusMessage', 'stream', 'uncork', 'writableCorked',
  'writableEnded', 'writableFinished', 'writableHighWaterMark', 'writableLength', 'write', 'writeContinue', 'writeEarlyHints',
  'writeHead',
], NO_SERVER);

module.exports = {
  connect: unsupportedFunction('http2', 'connect', NO_SESSIONS),
  constants,
  createServer: unsupportedFunction('http2', 'createServer', NO_SERVER),
  createSecureServer: unsupportedFunction('http2', 'createSecureServer', NO_SERVER),
  getDefaultSettings,
  getPackedSettings,
  getUnpackedSettings,
  performServerHandshake: unsupportedFunction('http2', 'performServerHandshake', NO_SERVER),
  sensitiveHeaders: Symbol('sensitiveHeaders'),
  Http2ServerRequest,
  Http2ServerResponse,
};
