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
const { invalidArgType, outOfRange, abortError } = require('./internal/errors');
const { Socket } = require('./internal/net/socket');
const hostOps = require('./internal/net/host');

// Node's (libraries define a helper per method: superagent's acl, bind...).
const { METHODS, STATUS_CODES } = require('./internal/http-constants.js');
const outgoing = require('./internal/http-outgoing.js');

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

/**
 * What code may call on `req.socket` / `res.socket` (axios sets keep-alive on
 * it). There is no connection here, but its idle timeout is kept as Node's
 * socket keeps it: `setTimeout(ms)` emits 'timeout' once after `ms` without
 * activity (the answer arriving is activity) and closes nothing.
 */
function socketStub(encrypted) {
  const socket = new EventEmitter();
  let ms = 0;
  let timer = null;
  const arm = () => {
    clearTimeout(timer);
    timer = ms > 0 ? setTimeout(() => {
      timer = null;
      socket.emit('timeout');
    }, ms) : null;
  };
  Object.assign(socket, {
    setKeepAlive() { return socket; },
    setNoDelay() { return socket; },
    setTimeout(msecs, callback) {
      ms = timerDuration(msecs, 'msecs');
      socket.timeout = ms;
      if (callback) {
        if (ms === 0) socket.removeListener('timeout', callback);
        else socket.once('timeout', callback);
      }
      arm();
      return socket;
    },
    // Activity on the connection restarts a running idle timeout.
    _activity() {
      if (ms > 0 && !socket.destroyed) arm();
    },
    ref() { return socket; },
    unref() { return socket; },
    destroy() {
      clearTimeout(timer);
      timer = null;
      ms = 0;
      socket.destroyed = true;
      return socket;
    },
    destroyed: false,
    timeout: undefined,
    remoteAddress: undefined,
    encrypted,
  });
  return socket;
}

/** Node's validation of a timeout in milliseconds (getTimerDuration). */
function timerDuration(msecs, name) {
  if (typeof msecs !== 'number') throw invalidArgType(name, 'number', msecs);
  if (msecs < 0 || !Number.isFinite(msecs)) throw outOfRange(name, 'a non-negative finite number', msecs);
  return msecs;
}

function connResetError(message) {
  const err = new Error(message);
  err.code = 'ECONNRESET';
  return err;
}

class IncomingMessage extends Readable {
  // `new IncomingMessage(socket)` as in Node; the client also passes the
  // node's answer (status, headers) and the whole body, already received.
  constructor(socket, head, body) {
    super();
    this.socket = socket || null;
    this.httpVersion = '1.1';
    this.httpVersionMajor = 1;
    this.httpVersionMinor = 1;
    this.rawHeaders = [];
    this.headers = {};
    this.trailers = {};
    this.rawTrailers = [];
    this.aborted = false;
    this.complete = false;
    this.url = '';
    this.method = null;
    this.statusCode = null;
    this.statusMessage = null;
    this._dumped = false;
    this._body = body || null;
    if (!head) return;
    this.statusCode = head.status;
    this.statusMessage = head.statusText || STATUS_CODES[head.status] || '';
    for (const [name, value] of head.headers) {
      this.rawHeaders.push(name, value);
      const key = name.toLowerCase();
      if (key === 'set-cookie') (this.headers[key] ||= []).push(value);
      else if (key in this.headers) this.headers[key] += `, ${value}`;
      else this.headers[key] = value;
    }
  }
  get connection() {
    return this.socket;
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
  // Reads and drops the body (what Node does with an answer nobody listens
  // for, and with the answer of a destroyed request).
  _dump() {
    if (!this._dumped) {
      this._dumped = true;
      this.removeAllListeners('data');
      this.resume();
    }
  }
  _destroy(err, done) {
    if (!this.readableEnded || !this.complete) {
      this.aborted = true;
      this.emit('aborted');
    }
    done(err);
    // Destroying an unfinished answer ends its connection: the request closes.
    const req = this.req;
    if (req && this.aborted) process.nextTick(() => req._close());
  }
  setTimeout(msecs, callback) {
    if (callback) this.on('timeout', callback);
    if (this.socket) this.socket.setTimeout(msecs);
    return this;
  }
}

/**
 * The request's or its Agent's `ca` and `rejectUnauthorized` (the request's
 * win), for the node to verify the server with; undefined when neither is
 * set. NODE_TLS_REJECT_UNAUTHORIZED=0 turns verification off as in Node.
 */
function tlsOptions(opts, agent) {
  const agentOptions = (agent && agent.options) || {};
  const pick = (name) => (opts[name] !== undefined ? opts[name] : agentOptions[name]);
  const out = {};
  const ca = pick('ca');
  if (ca !== undefined && ca !== null) {
    out.ca = (Array.isArray(ca) ? ca : [ca]).map((c) => (typeof c === 'string' ? c : Buffer.from(c).toString('utf8')));
  }
  let reject = pick('rejectUnauthorized');
  if (reject === undefined && process.env.NODE_TLS_REJECT_UNAUTHORIZED === '0') reject = false;
  if (reject !== undefined) out.rejectUnauthorized = reject !== false;
  return Object.keys(out).length > 0 ? out : undefined;
}

function errnoError(head) {
  // A failed connect as Node words it: "connect ECONNREFUSED 127.0.0.1:1",
  // with code, errno, syscall, address and port.
  const connect = /^connect (E[A-Z]+) (\[?[0-9a-fA-F:.]+\]?):(\d+)$/.exec(head.error || '');
  if (connect) {
    return hostOps.errnoError(head, { syscall: 'connect', address: connect[2].replace(/^\[|\]$/g, ''), port: Number(connect[3]) });
  }
  const err = hostOps.errnoError(head);
  if (!err.code) err.code = head.kind === 'timeout' ? 'ETIMEDOUT' : `SHOAL_OUTBOUND_${String(head.kind || 'network').toUpperCase()}`;
  if (err.code === 'ENOTFOUND') Object.assign(err, { syscall: 'getaddrinfo', hostname: head.error.split(' ').pop() });
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

// A ClientRequest's life, as Node's: 'socket' on the next tick (not when
// destroyed before), 'finish' once the body is written, then 'response';
// 'close' (and `destroyed`) once the answer's body has been read to its end.
// setTimeout() only emits 'timeout' (the caller decides whether to abort);
// destroy() before the answer emits 'error' (its argument, or ECONNRESET
// "socket hang up") and 'close'; abort() emits 'abort' first.
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
    this.agent = opts.agent;
    this.reusedSocket = false;
    this.aborted = false;
    this.destroyed = false;
    this.res = null;
    this._headers = new Map(); // lower-case name -> [name, value]
    for (const [name, value] of Object.entries(opts.headers || {})) this.setHeader(name, value);
    if (opts.auth && !this.hasHeader('authorization')) {
      this.setHeader('Authorization', `Basic ${Buffer.from(opts.auth).toString('base64')}`);
    }
    if (opts.timeout !== undefined) this.timeout = timerDuration(opts.timeout, 'timeout');
    this._chunks = [];
    this._id = 0;
    this._ended = false; // the answer's body was read to its end
    this._closed = false;
    this._socketAssigned = false;
    this._timeoutListening = false;
    this.socket = this.connection = socketStub(defaultProtocol === 'https:');
    this._tls = this.protocol === 'https:' ? tlsOptions(opts, this.agent) : undefined;
    if (args.callback) this.once('response', args.callback);
    if (opts.signal) {
      const signal = opts.signal;
      if (signal.aborted) process.nextTick(() => this.destroy(abortError(signal.reason)));
      else signal.addEventListener('abort', () => this.destroy(abortError(signal.reason)), { once: true });
    }
    process.nextTick(() => this._onSocket());
  }
  _onSocket() {
    if (this.destroyed) {
      // Destroyed before it had a connection: nothing was sent.
      let err = this._destroyError;
      if (!this.aborted && !err) err = connResetError('socket hang up');
      if (err) this.emit('error', err);
      this._closed = true;
      this.emit('close');
      return;
    }
    this._socketAssigned = true;
    const agentTimeout = this.agent && this.agent.options && this.agent.options.timeout;
    if (this.timeout !== undefined || agentTimeout) {
      this._listenSocketTimeout();
      this.socket.setTimeout(this.timeout !== undefined ? this.timeout : agentTimeout);
    }
    this.emit('socket', this.socket);
  }
  _listenSocketTimeout() {
    if (this._timeoutListening) return;
    this._timeoutListening = true;
    this.socket.once('timeout', () => this.emit('timeout'));
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
  // Node's: an idle timeout on the connection that emits 'timeout' and does
  // not abort anything; a callback is a 'timeout' listener; 0 turns it off.
  setTimeout(msecs, callback) {
    if (this._ended) return this;
    this._listenSocketTimeout();
    msecs = timerDuration(msecs, 'msecs');
    if (callback) this.once('timeout', callback);
    this.socket.setTimeout(msecs);
    return this;
  }
  _write(chunk, encoding, done) {
    this._chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, encoding));
    done();
  }
  // Sent on the next tick, after 'socket'. A request destroyed before then is
  // not sent and never emits 'finish' (Node's is never flushed to a socket).
  _final(done) {
    process.nextTick(() => {
      if (this.destroyed) return;
      this._send();
      done();
    });
  }
  abort() {
    if (this.aborted) return;
    this.aborted = true;
    process.nextTick(() => this.emit('abort'));
    this.destroy();
  }
  destroy(err) {
    if (this.destroyed) return this;
    this.destroyed = true;
    this._destroyError = err;
    if (this._id) {
      __shoal_host.httpCancel(this._id);
      globalThis.__shoal_calls.delete(this._id);
      this._id = 0;
    }
    if (this.res) {
      // The whole answer is here already: its body is read and dropped, and
      // the request closes when it ends (as Node's with a received answer).
      this.res._dump();
    } else if (this._socketAssigned) {
      this.socket.destroy();
      process.nextTick(() => {
        this.emit('error', err || connResetError('socket hang up'));
        this._close();
      });
    }
    // Not assigned a socket yet: _onSocket reports it.
    return this;
  }
  _close() {
    if (this._closed) return;
    this._closed = true;
    this.destroyed = true;
    this.socket.destroy();
    this.emit('close');
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
    if (this.hasHeader('upgrade')) {
      this._sendUpgrade(headers, body);
      return;
    }
    const head = JSON.stringify({ method: this.method, url: this.url, headers, redirect: 'manual', tls: this._tls });
    this._id = __shoal_host.httpStart(head, new Uint8Array(body.buffer, body.byteOffset, body.length));
    globalThis.__shoal_calls.set(this._id, (result) => {
      this._id = 0;
      if (this.destroyed) return;
      const answer = JSON.parse(result.head);
      if (answer.error !== undefined) {
        this.destroy(errnoError(answer));
        return;
      }
      this.socket._activity();
      if (answer.authorized !== undefined) {
        this.socket.authorized = answer.authorized;
        if (answer.authorizationError) this.socket.authorizationError = answer.authorizationError;
      }
      const response = new IncomingMessage(this.socket, answer, Buffer.from(result.body));
      response.req = this;
      this.res = response;
      // Node's order once the body has been read: the answer's 'end', the
      // request's 'close', the answer's 'close'.
      response.once('end', () => {
        this._ended = true;
        process.nextTick(() => this._close());
      });
      // A timeout while the answer is being read is also the answer's.
      const onTimeout = () => response.emit('timeout');
      this.socket.on('timeout', onTimeout);
      this.once('close', () => this.socket.removeListener('timeout', onTimeout));
      // Nobody listens for the answer: Node reads and drops its body.
      if (!this.emit('response', response)) response._dump();
    });
  }

  /**
   * A request asking for a protocol switch (a WebSocket handshake): the
   * node sends it on a connection of its own and, on 101, hands the
   * connection over, which becomes the socket of the 'upgrade' event.
   */
  _sendUpgrade(headers, body) {
    const head = { method: this.method, url: this.url, headers, tls: this._tls };
    this._id = hostOps.start('http.upgrade', head, body, (failure, answer, rest) => {
      this._id = 0;
      if (this.destroyed) {
        if (answer && answer.socket) hostOps.start('socket.close', { socket: answer.socket }, undefined, () => {});
        return;
      }
      if (failure) {
        this.destroy(errnoError(failure));
        return;
      }
      this.socket._activity();
      if (!answer.socket) {
        // Not switched: an ordinary answer.
        const response = new IncomingMessage(this.socket, answer, rest);
        response.req = this;
        this.res = response;
        response.once('end', () => {
          this._ended = true;
          process.nextTick(() => this._close());
        });
        if (!this.emit('response', response)) response._dump();
        return;
      }
      const socket = new Socket();
      socket._attach({ ...answer.connection, socket: answer.socket });
      socket.encrypted = this.protocol === 'https:' ? true : undefined;
      if (answer.authorized !== undefined) socket.authorized = answer.authorized;
      socket._connected();
      const response = new IncomingMessage(socket, answer, Buffer.alloc(0));
      response.req = this;
      response.upgrade = true;
      this.res = response;
      this.socket.destroy();
      this.socket = this.connection = socket;
      this._closed = true;
      if (this.listenerCount('upgrade') > 0) {
        this.emit('upgrade', response, socket, Buffer.alloc(0));
      } else {
        // As Node: nobody takes the connection, so it is closed.
        socket.destroy();
      }
      this.emit('close');
    });
  }
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
  // The server side's classes without a server (internal/http-outgoing.js).
  const serverSide = defaultProtocol === 'http:' ? { OutgoingMessage: outgoing.OutgoingMessage, ServerResponse: outgoing.ServerResponse } : {};
  return {
    ...serverSide,
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
    validateHeaderName: (name, label) => outgoing.validateHeaderName(name, label),
    validateHeaderValue: (name, value) => outgoing.validateHeaderValue(name, value),
  };
}

module.exports = client('http:');
module.exports.client = client;
