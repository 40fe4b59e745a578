'use strict';
// node:http's OutgoingMessage and ServerResponse (lib/_http_outgoing.js,
// lib/_http_server.js) without a socket: a Function does not listen, so no
// response of its own goes anywhere, but frameworks build on these
// classes (express's `res` is an Object.create(http.ServerResponse.prototype))
// and test helpers make them in memory. Headers are kept as Node keeps
// them; what is written is held in `outputData`, as Node holds it until a
// socket is assigned (none ever is here), and the head is rendered as
// Node renders it.
const { Stream } = require('../stream.js');
const { Buffer } = require('../buffer.js');
const { STATUS_CODES } = require('./http-constants.js');
const { nodeError, invalidArgType } = require('./errors.js');

const kOutHeaders = Symbol('kOutHeaders');
const TOKEN = /^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/;
const INVALID_HEADER_CHAR = /[^\t\x20-\x7e\x80-\xff]/;

function validateHeaderName(name, label = 'Header name') {
  if (typeof name !== 'string' || !name || !TOKEN.test(name)) {
    throw nodeError(TypeError, 'ERR_INVALID_HTTP_TOKEN', `${label} must be a valid HTTP token ["${name}"]`);
  }
}

function validateHeaderValue(name, value) {
  if (value === undefined) throw nodeError(TypeError, 'ERR_HTTP_INVALID_HEADER_VALUE', `Invalid value "${value}" for header "${name}"`);
  if ([].concat(value).some((v) => INVALID_HEADER_CHAR.test(String(v)))) {
    throw nodeError(TypeError, 'ERR_INVALID_CHAR', `Invalid character in header content ["${name}"]`);
  }
}

function headersSentError(what) {
  return nodeError(Error, 'ERR_HTTP_HEADERS_SENT', `Cannot ${what} headers after they are sent to the client`);
}

class OutgoingMessage extends Stream {
  constructor(options) {
    super();
    this.outputData = [];
    this.outputSize = 0;
    this.writable = true;
    this.destroyed = false;
    this._last = false;
    this.chunkedEncoding = false;
    this.shouldKeepAlive = true;
    this.maxRequestsOnConnectionReached = false;
    this._defaultKeepAlive = true;
    this.useChunkedEncodingByDefault = true;
    this.sendDate = false;
    this._removedConnection = false;
    this._removedContLen = false;
    this._removedTE = false;
    this.strictContentLength = false;
    this._contentLength = null;
    this._hasBody = true;
    this._trailer = '';
    this.finished = false;
    this._headerSent = false;
    this._closed = false;
    this._header = null;
    this._keepAliveTimeout = 0;
    this._onPendingData = () => {};
    this[kOutHeaders] = null;
    if (options && options.highWaterMark !== undefined) this._highWaterMark = options.highWaterMark;
  }

  get headersSent() {
    return !!this._header;
  }

  get writableEnded() {
    return this.finished;
  }

  get writableFinished() {
    return this.finished && this.outputSize === 0 && (!this.socket || this.socket.writableLength === 0);
  }

  get writableObjectMode() {
    return false;
  }

  get writableLength() {
    return this.outputSize;
  }

  get writableHighWaterMark() {
    return this._highWaterMark || 16384;
  }

  get writableCorked() {
    return 0;
  }

  get writableNeedDrain() {
    return false;
  }

  get errored() {
    return null;
  }

  get closed() {
    return this._closed;
  }

  get connection() {
    return this.socket;
  }

  get socket() {
    return null;
  }

  setHeader(name, value) {
    if (this._header) throw headersSentError('set');
    validateHeaderName(name);
    validateHeaderValue(name, value);
    if (this[kOutHeaders] === null) this[kOutHeaders] = Object.create(null);
    this[kOutHeaders][name.toLowerCase()] = [name, value];
    return this;
  }

  setHeaders(headers) {
    if (this._header) throw headersSentError('set');
    if (!headers || typeof headers.forEach !== 'function') throw invalidArgType('headers', ['Headers', 'Map'], headers);
    headers.forEach((value, name) => this.setHeader(name, value));
    return this;
  }

  appendHeader(name, value) {
    if (this._header) throw headersSentError('append');
    validateHeaderName(name);
    validateHeaderValue(name, value);
    const key = name.toLowerCase();
    if (this[kOutHeaders] === null) this[kOutHeaders] = Object.create(null);
    const existing = this[kOutHeaders][key];
    if (existing) this[kOutHeaders][key] = [existing[0], [].concat(existing[1], value)];
    else this[kOutHeaders][key] = [name, value];
    return this;
  }

  getHeader(name) {
    if (typeof name !== 'string') throw invalidArgType('name', 'string', name);
    const entry = this[kOutHeaders] && this[kOutHeaders][name.toLowerCase()];
    return entry && entry[1];
  }

  getHeaderNames() {
    return this[kOutHeaders] ? Object.keys(this[kOutHeaders]) : [];
  }

  getRawHeaderNames() {
    return this[kOutHeaders] ? Object.values(this[kOutHeaders]).map((entry) => entry[0]) : [];
  }

  getHeaders() {
    const out = Object.create(null);
    if (this[kOutHeaders]) for (const [key, entry] of Object.entries(this[kOutHeaders])) out[key] = entry[1];
    return out;
  }

  hasHeader(name) {
    if (typeof name !== 'string') throw invalidArgType('name', 'string', name);
    return !!(this[kOutHeaders] && this[kOutHeaders][name.toLowerCase()]);
  }

  removeHeader(name) {
    if (typeof name !== 'string') throw invalidArgType('name', 'string', name);
    if (this._header) throw headersSentError('remove');
    const key = name.toLowerCase();
    if (key === 'connection') this._removedConnection = true;
    else if (key === 'content-length') this._removedContLen = true;
    else if (key === 'transfer-encoding') this._removedTE = true;
    if (this[kOutHeaders] !== null) delete this[kOutHeaders][key];
  }

  get _headers() {
    return this.getHeaders();
  }

  set _headers(value) {
    this[kOutHeaders] = null;
    if (value && typeof value === 'object') for (const key of Object.keys(value)) this.setHeader(key, value[key]);
  }

  get _headerNames() {
    const out = Object.create(null);
    if (this[kOutHeaders]) for (const [key, entry] of Object.entries(this[kOutHeaders])) out[key] = entry[0];
    return out;
  }

  set _headerNames(value) {
    if (value && typeof value === 'object' && this[kOutHeaders]) {
      for (const [key, name] of Object.entries(value)) if (this[kOutHeaders][key]) this[kOutHeaders][key][0] = name;
    }
  }

  _renderHeaders() {
    if (this._header) throw headersSentError('render');
    const out = {};
    if (this[kOutHeaders]) for (const entry of Object.values(this[kOutHeaders])) out[entry[0]] = entry[1];
    return out;
  }

  // The head as Node writes it: the first line, the headers, the framing.
  _storeHeader(firstLine, headers) {
    let head = firstLine;
    const add = (name, value) => {
      for (const v of [].concat(value)) head += `${name}: ${v}\r\n`;
    };
    const seen = new Set();
    if (headers) for (const [name, value] of Object.entries(headers)) {
      seen.add(name.toLowerCase());
      add(name, value);
    }
    if (this.sendDate && !seen.has('date')) add('Date', new Date().toUTCString());
    if (!seen.has('connection') && !this._removedConnection) add('Connection', this.shouldKeepAlive ? 'keep-alive' : 'close');
    if (this.shouldKeepAlive && !seen.has('keep-alive') && this._keepAliveTimeout) add('Keep-Alive', `timeout=${Math.floor(this._keepAliveTimeout / 1000)}`);
    if (!this._hasBody) {
      // No body, no framing.
    } else if (!seen.has('content-length') && !seen.has('transfer-encoding') && !this._removedContLen) {
      if (typeof this._contentLength === 'number') add('Content-Length', this._contentLength);
      else if (!this._removedTE) {
        add('Transfer-Encoding', 'chunked');
        this.chunkedEncoding = true;
      }
    }
    this._header = `${head}\r\n`;
    this._headerSent = false;
  }

  _implicitHeader() {
    throw nodeError(Error, 'ERR_METHOD_NOT_IMPLEMENTED', 'The _implicitHeader() method is not implemented');
  }

  // As Node: the head goes out with the first write, joined to it when
  // that is a string in a byte-preserving encoding.
  _send(data, encoding, callback) {
    if (!this._headerSent && this._header !== null) {
      if (typeof data === 'string' && (encoding === 'utf8' || encoding === 'latin1' || !encoding)) {
        data = this._header + data;
      } else {
        this.outputData.push({ data: this._header, encoding: 'latin1', callback: null });
        this.outputSize += this._header.length;
      }
      this._headerSent = true;
    }
    return this._writeRaw(data, encoding, callback);
  }

  _writeRaw(data, encoding, callback) {
    if (typeof encoding === 'function') {
      callback = encoding;
      encoding = null;
    }
    this.outputData.push({ data, encoding, callback });
    this.outputSize += data.length;
    return false;
  }

  write(chunk, encoding, callback) {
    if (typeof encoding === 'function') {
      callback = encoding;
      encoding = null;
    }
    if (this.finished) {
      const err = nodeError(Error, 'ERR_STREAM_WRITE_AFTER_END', 'write after end');
      process.nextTick(() => {
        this.emit('error', err);
        if (typeof callback === 'function') callback(err);
      });
      return true;
    }
    if (chunk === null) throw nodeError(TypeError, 'ERR_STREAM_NULL_VALUES', 'May not write null values to stream');
    if (typeof chunk !== 'string' && !(chunk instanceof Uint8Array)) throw invalidArgType('chunk', ['string', 'Buffer', 'Uint8Array'], chunk);
    if (!this._header) this._implicitHeader();
    if (!this._hasBody) return true;
    const length = typeof chunk === 'string' ? Buffer.byteLength(chunk, encoding || 'utf8') : chunk.length;
    if (length === 0) return true;
    if (this.chunkedEncoding) {
      this._send(`${length.toString(16)}\r\n`, 'latin1', null);
      this._send(chunk, encoding, null);
      return this._send('\r\n', 'latin1', callback);
    }
    return this._send(chunk, encoding, callback);
  }

  end(chunk, encoding, callback) {
    if (typeof chunk === 'function') {
      callback = chunk;
      chunk = null;
    } else if (typeof encoding === 'function') {
      callback = encoding;
      encoding = null;
    }
    if (this.finished) {
      if (typeof callback === 'function') process.nextTick(callback);
      return this;
    }
    if (chunk !== null && chunk !== undefined) {
      if (!this._header) {
        this._contentLength = typeof chunk === 'string' ? Buffer.byteLength(chunk, encoding || 'utf8') : chunk.length;
      }
      this.write(chunk, encoding);
    } else if (!this._header) {
      this._contentLength = 0;
      this._implicitHeader();
    }
    const hadChunk = chunk !== null && chunk !== undefined;
    if (this.chunkedEncoding && this._hasBody) this._send(`0\r\n${this._trailer}\r\n`, 'latin1', null);
    else if (!this._headerSent || this.outputSize || hadChunk) this._send('', 'latin1', null);
    if (typeof callback === 'function') this.once('finish', callback);
    this.finished = true;
    // Without a socket the data is never flushed: as in Node, no 'finish'.
    return this;
  }

  addTrailers(headers) {
    for (const [name, value] of Object.entries(headers || {})) {
      validateHeaderName(name, 'Trailer name');
      validateHeaderValue(name, value);
      this._trailer += `${name}: ${value}\r\n`;
    }
  }

  flushHeaders() {
    if (!this._header) this._implicitHeader();
    this._send('');
  }

  cork() {}

  uncork() {}

  setTimeout(msecs, callback) {
    if (callback) this.once('timeout', callback);
    return this;
  }

  destroy(error) {
    if (this.destroyed) return this;
    this.destroyed = true;
    this._closed = true;
    process.nextTick(() => {
      if (error) this.emit('error', error);
      this.emit('close');
    });
    return this;
  }

  _finish() {
    this.emit('prefinish');
  }

  _flush() {}

  _flushOutput() {
    return false;
  }

  pipe() {
    this.emit('error', nodeError(Error, 'ERR_STREAM_CANNOT_PIPE', 'Cannot pipe, not readable'));
  }
}

class ServerResponse extends OutgoingMessage {
  constructor(req, options) {
    super(options);
    if (req && req.method === 'HEAD') this._hasBody = false;
    this.req = req;
    this.sendDate = true;
    this._sent100 = false;
    this._expect_continue = false;
    if (req && (req.httpVersionMajor < 1 || (req.httpVersionMajor === 1 && req.httpVersionMinor === 0))) {
      this.useChunkedEncodingByDefault = false;
      this.shouldKeepAlive = false;
    }
  }

  _finish() {
    super._finish();
  }

  assignSocket() {
    const { notImplemented } = require('./unsupported.js');
    throw notImplemented('http.ServerResponse#assignSocket()', "a Function does not listen: Shoal's node serves it");
  }

  detachSocket() {}

  writeContinue(callback) {
    this._writeRaw('HTTP/1.1 100 Continue\r\n\r\n', 'ascii', callback);
    this._sent100 = true;
  }

  writeProcessing(callback) {
    this._writeRaw('HTTP/1.1 102 Processing\r\n\r\n', 'ascii', callback);
  }

  writeEarlyHints(hints, callback) {
    let head = 'HTTP/1.1 103 Early Hints\r\n';
    for (const [name, value] of Object.entries(hints || {})) head += `${name}: ${[].concat(value).join(', ')}\r\n`;
    this._writeRaw(`${head}\r\n`, 'ascii', callback);
  }

  _implicitHeader() {
    this.writeHead(this.statusCode);
  }

  writeHead(statusCode, reason, obj) {
    if (this._header) throw headersSentError('write');
    const originalStatusCode = statusCode;
    statusCode |= 0;
    if (statusCode < 100 || statusCode > 999) {
      throw nodeError(RangeError, 'ERR_HTTP_INVALID_STATUS_CODE', `Invalid status code: ${originalStatusCode}`);
    }
    if (typeof reason === 'string') this.statusMessage = reason;
    else {
      if (!this.statusMessage) this.statusMessage = STATUS_CODES[statusCode] || 'unknown';
      obj = obj === undefined ? reason : obj;
    }
    this.statusCode = statusCode;
    let headers;
    if (this[kOutHeaders]) {
      if (obj) {
        if (Array.isArray(obj)) for (let i = 0; i + 1 < obj.length; i += 2) this.appendHeader(obj[i], obj[i + 1]);
        else for (const key of Object.keys(obj)) if (key) this.setHeader(key, obj[key]);
      }
      headers = this._renderHeaders();
    } else if (Array.isArray(obj)) {
      headers = {};
      for (let i = 0; i + 1 < obj.length; i += 2) headers[obj[i]] = obj[i + 1];
    } else {
      headers = obj;
    }
    if (statusCode === 204 || statusCode === 304 || (statusCode >= 100 && statusCode <= 199)) this._hasBody = false;
    this._storeHeader(`HTTP/1.1 ${statusCode} ${this.statusMessage}\r\n`, headers);
    return this;
  }

  writeHeader(...args) {
    return this.writeHead(...args);
  }
}

// Defaults on the prototype, as Node has them.
ServerResponse.prototype.statusCode = 200;
ServerResponse.prototype.statusMessage = undefined;

module.exports = { OutgoingMessage, ServerResponse, validateHeaderName, validateHeaderValue, kOutHeaders };
