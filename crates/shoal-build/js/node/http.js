'use strict';
// node:http's client for Shoal Functions (what axios's Node adapter,
// node-fetch and got use). The request is performed by the node, like fetch:
// the body is collected until end(), sent through __shoal_host, and the
// answer comes back as an IncomingMessage stream. Redirects are not followed
// (Node's http does not either) and the body arrives decoded (the node asks
// for and undoes gzip/deflate itself). Servers cannot be created: a Function
// is called through Shoal's node.

const { Readable, Writable } = require('stream');
const { Buffer } = require('buffer');
const EventEmitter = require('events');

const STATUS_CODES = {
  100: 'Continue', 101: 'Switching Protocols', 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content',
  206: 'Partial Content', 301: 'Moved Permanently', 302: 'Found', 303: 'See Other', 304: 'Not Modified',
  307: 'Temporary Redirect', 308: 'Permanent Redirect', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden',
  404: 'Not Found', 405: 'Method Not Allowed', 408: 'Request Timeout', 409: 'Conflict', 410: 'Gone',
  413: 'Payload Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Entity', 429: 'Too Many Requests',
  500: 'Internal Server Error', 501: 'Not Implemented', 502: 'Bad Gateway', 503: 'Service Unavailable',
  504: 'Gateway Timeout',
};
const METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'];

/** Keeps no sockets (the node pools connections); here for code that passes one. */
class Agent extends EventEmitter {
  constructor(options = {}) {
    super();
    this.options = { ...options };
    this.keepAlive = Boolean(options.keepAlive);
    this.maxSockets = options.maxSockets ?? Infinity;
    this.sockets = {};
    this.requests = {};
  }
  destroy() {}
}

/** What code may call on `req.socket` (axios sets keep-alive on it). */
function socketStub() {
  const socket = new EventEmitter();
  Object.assign(socket, {
    setKeepAlive() { return socket; },
    setNoDelay() { return socket; },
    setTimeout() { return socket; },
    ref() { return socket; },
    unref() { return socket; },
    destroy() {},
    remoteAddress: undefined,
    encrypted: false,
  });
  return socket;
}

class IncomingMessage extends Readable {
  constructor(head, body) {
    super();
    this.statusCode = head.status;
    this.statusMessage = head.statusText || STATUS_CODES[head.status] || '';
    this.httpVersion = '1.1';
    this.httpVersionMajor = 1;
    this.httpVersionMinor = 1;
    this.rawHeaders = [];
    this.headers = {};
    for (const [name, value] of head.headers) {
      this.rawHeaders.push(name, value);
      const key = name.toLowerCase();
      if (key === 'set-cookie') (this.headers[key] ||= []).push(value);
      else if (key in this.headers) this.headers[key] += `, ${value}`;
      else this.headers[key] = value;
    }
    this.trailers = {};
    this.rawTrailers = [];
    this.complete = false;
    this.socket = socketStub();
    this._body = body;
  }
  _read() {
    if (this._body !== null) {
      const body = this._body;
      this._body = null;
      if (body.length > 0) this.push(body);
      this.complete = true;
      this.push(null);
    }
  }
  setTimeout(ms, callback) {
    if (callback) this.once('timeout', callback);
    return this;
  }
}

function errnoError(head) {
  const refused = /Connection refused/.test(head.error);
  const err = new Error(refused ? `connect ECONNREFUSED: ${head.error}` : head.error);
  err.code = refused ? 'ECONNREFUSED' : head.kind === 'timeout' ? 'ETIMEDOUT' : `SHOAL_OUTBOUND_${String(head.kind || 'network').toUpperCase()}`;
  if (refused) {
    err.errno = -111;
    err.syscall = 'connect';
  }
  return err;
}

/** `request(url[, options][, callback])`, `request(options[, callback])`. */
function normalizeArgs(defaultProtocol, input, options, callback) {
  if (typeof options === 'function') {
    callback = options;
    options = {};
  }
  let merged = {};
  if (typeof input === 'string' || input instanceof URL) {
    const url = new URL(String(input));
    merged = {
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port,
      path: `${url.pathname}${url.search}`,
      auth: url.username ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined,
    };
    merged = { ...merged, ...(options || {}) };
  } else {
    merged = { ...(input || {}) };
    if (typeof options === 'function') callback = options;
  }
  const protocol = merged.protocol || defaultProtocol;
  const host = (merged.hostname || merged.host || 'localhost').replace(/:\d+$/, '');
  const port = merged.port ? `:${merged.port}` : '';
  const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return { options: merged, url: `${protocol}//${bracketed}${port}${merged.path || '/'}`, callback };
}

class ClientRequest extends Writable {
  constructor(defaultProtocol, input, options, callback) {
    // Not destroyed on finish: the request is in flight once the body ends.
    super({ autoDestroy: false });
    const args = normalizeArgs(defaultProtocol, input, options, callback);
    const opts = args.options;
    this.method = String(opts.method || 'GET').toUpperCase();
    this.path = opts.path || '/';
    this.host = opts.hostname || opts.host;
    this.protocol = opts.protocol || defaultProtocol;
    this.url = args.url;
    this.reusedSocket = false;
    this.aborted = false;
    this.destroyed = false;
    this._headers = new Map(); // lower-case name -> [name, value]
    for (const [name, value] of Object.entries(opts.headers || {})) this.setHeader(name, value);
    if (opts.auth && !this.hasHeader('authorization')) {
      this.setHeader('Authorization', `Basic ${Buffer.from(opts.auth).toString('base64')}`);
    }
    this._chunks = [];
    this._id = 0;
    this.socket = this.connection = socketStub();
    if (args.callback) this.once('response', args.callback);
    if (opts.timeout) this.setTimeout(opts.timeout);
    if (opts.signal) {
      if (opts.signal.aborted) queueMicrotask(() => this.destroy(abortError()));
      else opts.signal.addEventListener('abort', () => this.destroy(abortError()), { once: true });
    }
    queueMicrotask(() => this.emit('socket', this.socket));
  }
  setHeader(name, value) {
    this._headers.set(String(name).toLowerCase(), [String(name), value]);
    return this;
  }
  getHeader(name) {
    const h = this._headers.get(String(name).toLowerCase());
    return h ? h[1] : undefined;
  }
  getHeaders() {
    const out = {};
    for (const [key, [, value]] of this._headers) out[key] = value;
    return out;
  }
  getHeaderNames() {
    return [...this._headers.keys()];
  }
  getRawHeaderNames() {
    return [...this._headers.values()].map(([name]) => name);
  }
  hasHeader(name) {
    return this._headers.has(String(name).toLowerCase());
  }
  removeHeader(name) {
    this._headers.delete(String(name).toLowerCase());
  }
  flushHeaders() {}
  setNoDelay() {}
  setSocketKeepAlive() {}
  setTimeout(ms, callback) {
    if (callback) this.once('timeout', callback);
    clearTimeout(this._timer);
    if (ms > 0) this._timer = setTimeout(() => this.emit('timeout'), ms);
    return this;
  }
  _write(chunk, encoding, done) {
    this._chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, encoding));
    done();
  }
  _final(done) {
    this._send();
    done();
  }
  abort() {
    if (this.aborted) return;
    this.aborted = true;
    this.emit('abort');
    this.destroy();
  }
  _destroy(err, done) {
    clearTimeout(this._timer);
    if (this._id) {
      __shoal_host.httpCancel(this._id);
      globalThis.__shoal_calls.delete(this._id);
    }
    done(err);
  }
  _send() {
    const headers = [];
    for (const [key, [name, value]] of this._headers) {
      // The node asks for (and decodes) the encodings it supports.
      if (key === 'accept-encoding') continue;
      for (const v of Array.isArray(value) ? value : [value]) headers.push([name, String(v)]);
    }
    for (const [name, value] of globalThis.__shoal_trace_headers || []) {
      if (!this.hasHeader(name)) headers.push([name, value]);
    }
    const body = Buffer.concat(this._chunks);
    const head = JSON.stringify({ method: this.method, url: this.url, headers, redirect: 'manual' });
    this._id = __shoal_host.httpStart(head, new Uint8Array(body.buffer, body.byteOffset, body.length));
    globalThis.__shoal_calls.set(this._id, (result) => {
      this._id = 0;
      clearTimeout(this._timer);
      const answer = JSON.parse(result.head);
      if (answer.error !== undefined) {
        this.destroy(errnoError(answer));
        return;
      }
      const response = new IncomingMessage(answer, Buffer.from(result.body));
      response.req = this;
      this.res = response;
      this.emit('response', response);
      this.emit('close');
    });
  }
}

function abortError() {
  const err = new Error('The operation was aborted');
  err.name = 'AbortError';
  err.code = 'ABORT_ERR';
  return err;
}

function notAvailable(what) {
  return () => {
    throw new Error(`${what} is not available in a Shoal Function: a Function is called through Shoal's node, it does not listen itself`);
  };
}

function client(defaultProtocol) {
  const request = (input, options, callback) => new ClientRequest(defaultProtocol, input, options, callback);
  const get = (input, options, callback) => {
    const req = request(input, options, callback);
    req.end();
    return req;
  };
  return {
    request,
    get,
    Agent,
    globalAgent: new Agent(),
    ClientRequest,
    IncomingMessage,
    STATUS_CODES,
    METHODS,
    createServer: notAvailable(`${defaultProtocol.slice(0, -1)}.createServer`),
    Server: notAvailable(`${defaultProtocol.slice(0, -1)}.Server`),
    maxHeaderSize: 16384,
    validateHeaderName() {},
    validateHeaderValue() {},
  };
}

module.exports = client('http:');
module.exports.client = client;
