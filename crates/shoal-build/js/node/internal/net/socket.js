'use strict';
// net.Socket for Shoal Functions: a Duplex stream over a connection the
// node holds (internal/net/host.js). The node connects (resolving the name
// itself), reads at most one chunk at a time for the Function (so a paused
// stream stops reading, as libuv's does) and writes in order; the events,
// their order and the properties are Node's: 'lookup', 'connect', 'ready',
// 'data', 'end', 'close' (hadError), 'error', 'timeout', 'drain'.

const { Duplex } = require('stream');
const { Buffer } = require('buffer');
const { start, cancel, errnoError, systemError } = require('./host');
const { isIP } = require('../dns/ip');
const { invalidArgType, outOfRange, nodeError } = require('../errors');

const kId = Symbol('kSocketId');
const kConnecting = Symbol('kConnectingCall');
const kReading = Symbol('kReadingCall');
const kWriting = Symbol('kWritingCall');
const kTimer = Symbol('kTimeoutTimer');
const kPendingWrite = Symbol('kPendingWrite');
const kTakenOver = Symbol('kTakenOver');
const kFlushWaiters = Symbol('kFlushWaiters');
// The node takes at most this much of one write (the rest follows when it
// is written), so what it holds for a sandbox stays bounded.
const MAX_WRITE = 1024 * 1024;

/** Node's net.normalizeArgs: (options[, cb]) | (port[, host][, cb]) | (path[, cb]). */
function normalizeArgs(args) {
  if (args.length === 0) return [{}, null];
  const first = args[0];
  let options = {};
  if (typeof first === 'object' && first !== null) options = { ...first };
  else if (typeof first === 'string' && Number.isNaN(Number(first))) options.path = first;
  else {
    options.port = first;
    if (args.length > 1 && typeof args[1] === 'string') options.host = args[1];
  }
  const cb = args[args.length - 1];
  return [options, typeof cb === 'function' ? cb : null];
}

function validatePort(port) {
  const n = typeof port === 'string' && port.trim() !== '' ? Number(port) : port;
  if ((typeof n !== 'number' && typeof n !== 'string') || !Number.isInteger(Number(n)) || n < 0 || n > 65535) {
    throw nodeError(RangeError, 'ERR_SOCKET_BAD_PORT', `Port should be >= 0 and < 65536. Received ${typeof port === 'string' ? `type string ('${port}')` : `type ${typeof port} (${String(port)})`}.`);
  }
  return Number(n);
}

class Socket extends Duplex {
  constructor(options = {}) {
    if (typeof options === 'number') options = { fd: options };
    super({
      allowHalfOpen: Boolean(options.allowHalfOpen),
      emitClose: false,
      autoDestroy: true,
      decodeStrings: false,
      readableHighWaterMark: options.readableHighWaterMark,
      writableHighWaterMark: options.writableHighWaterMark,
    });
    if (options.fd !== undefined || options.handle) {
      throw nodeError(Error, 'ERR_METHOD_NOT_IMPLEMENTED', 'net.Socket({ fd }) is not available in Shoal: a Function has no file descriptors; connect with net.connect()');
    }
    this[kId] = 0;
    this[kConnecting] = 0;
    this[kReading] = 0;
    this[kWriting] = 0;
    this[kTimer] = null;
    this[kPendingWrite] = null;
    this[kTakenOver] = false;
    this[kFlushWaiters] = [];
    this.connecting = false;
    this._hadError = false;
    this._host = null;
    this._info = null;
    this.timeout = 0;
    this.bytesRead = 0;
    this._bytesWritten = 0;
    this.encrypted = undefined;
    this.server = null;
    this._server = null;
    // As Node: end our side when the peer ends theirs, unless allowHalfOpen.
    this.on('end', () => {
      if (!this.allowHalfOpen && !this.writableEnded) this.end();
    });
  }

  get pending() {
    return !this[kId] || this.connecting;
  }
  get readyState() {
    if (this.connecting) return 'opening';
    if (this.readable && this.writable) return 'open';
    if (this.readable && !this.writable) return 'readOnly';
    if (!this.readable && this.writable) return 'writeOnly';
    return 'closed';
  }
  /**
   * The peer as Node reports it: read from the open connection and kept
   * once read, so after the close it is known only if it was asked before.
   */
  _getpeername() {
    if (!this[kId] || this.connecting || !this._info) return this._peername || {};
    if (!this._peername) this._peername = { address: this._info.remoteAddress, family: this._info.remoteFamily, port: this._info.remotePort };
    return this._peername;
  }
  /** The local end, while the connection is open. */
  _getsockname() {
    if (!this[kId] || !this._info) return {};
    if (!this._sockname) this._sockname = { address: this._info.localAddress, family: this._info.remoteFamily, port: this._info.localPort };
    return this._sockname;
  }
  get remoteAddress() {
    return this._getpeername().address;
  }
  get remotePort() {
    return this._getpeername().port;
  }
  get remoteFamily() {
    return this._getpeername().family;
  }
  get localAddress() {
    return this._getsockname().address;
  }
  get localPort() {
    return this._getsockname().port;
  }
  get localFamily() {
    return this._getsockname().family;
  }
  /** As Node counts it: what was handed on for writing, and what is still queued. */
  get bytesWritten() {
    let bytes = this._bytesWritten;
    const state = this._writableState;
    const queued = state && Array.isArray(state.buffered) ? state.buffered.slice(state.bufferedIndex || 0) : [];
    for (const { chunk, encoding } of queued) bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk, encoding) : chunk.length;
    return bytes;
  }
  get bufferSize() {
    return this.writableLength;
  }
  address() {
    return this._getsockname();
  }

  connect(...args) {
    const [options, cb] = normalizeArgs(args);
    if (options.path !== undefined) {
      throw nodeError(Error, 'ERR_METHOD_NOT_IMPLEMENTED', 'net.connect({ path }) is not available in Shoal: a Function cannot reach Unix sockets; connect to a host and port');
    }
    if (this.destroyed) {
      // Reconnecting a closed socket, as Node allows.
      this._peername = null;
      this._sockname = null;
      this._undestroy();
    }
    const port = validatePort(options.port);
    const hostname = options.host || 'localhost';
    if (typeof hostname !== 'string') throw invalidArgType('options.host', 'string', hostname);
    if (options.family !== undefined && ![0, 4, 6].includes(Number(options.family))) {
      throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The property 'options.family' must be one of: 0, 4, 6. Received ${options.family}`);
    }
    if (cb) this.once('connect', cb);
    if (options.timeout) this.setTimeout(options.timeout);
    this.connecting = true;
    this._host = hostname;
    const head = { host: hostname, port, family: Number(options.family) || 0, tls: this._tlsRequest ? this._tlsRequest(hostname) : undefined };
    this[kConnecting] = start('net.connect', head, undefined, (failure, answer) => {
      this[kConnecting] = 0;
      if (this.destroyed) {
        if (answer) start('socket.close', { socket: answer.socket }, undefined, () => {});
        return;
      }
      this.connecting = false;
      if (failure) {
        this.destroy(this._connectFailure(failure, hostname, port));
        return;
      }
      // As Node: an address is connected to as it is, a name is looked up first.
      if (!isIP(hostname)) this.emit('lookup', null, answer.remoteAddress, answer.remoteFamily === 'IPv6' ? 6 : 4, hostname);
      this._attach(answer);
      if (options.noDelay) this.setNoDelay(true);
      if (options.keepAlive) this.setKeepAlive(true, options.keepAliveInitialDelay);
      this._connected();
    });
    return this;
  }

  /** The error a failed connect gives, as Node's: lookup or connect errors with their fields. */
  _connectFailure(failure, hostname, port) {
    const lookupFailed = failure.code === 'ENOTFOUND' || failure.code === 'EAI_AGAIN';
    if (lookupFailed) {
      this.emit('lookup', errnoError(failure, { syscall: 'getaddrinfo', hostname }), undefined, undefined, hostname);
      return errnoError(failure, { syscall: 'getaddrinfo', hostname });
    }
    return errnoError(failure, { syscall: 'connect', ...addressOf(failure.error, hostname, port) });
  }

  /** The node opened the connection: `answer` describes it. */
  _attach(answer) {
    this[kId] = answer.socket;
    this._info = answer;
  }

  _connected() {
    this._touch();
    this.emit('connect');
    this.emit('ready');
    const pending = this[kPendingWrite];
    this[kPendingWrite] = null;
    if (pending) pending();
    if (this.readableFlowing !== false && this.readableLength < this.readableHighWaterMark) this._read();
  }

  _read() {
    if (!this[kId] || this.connecting || this[kReading] || this[kTakenOver]) return;
    this[kReading] = start('socket.read', { socket: this[kId], size: 65536 }, undefined, (failure, answer, body) => {
      this[kReading] = 0;
      if (this.destroyed || this[kTakenOver]) return;
      if (failure) {
        if (failure.kind === 'aborted') return;
        this.destroy(systemError(failure, 'read'));
        return;
      }
      this._touch();
      if (answer.eof) {
        this.push(null);
        return;
      }
      this.bytesRead += body.length;
      if (this.push(body)) this._read();
    });
  }

  _write(chunk, encoding, done) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
    // Counted when handed on, as Node's bytesWritten counts what it dispatched.
    this._bytesWritten += bytes.length;
    if (!this[kId] || this.connecting) {
      // Written before the connection is up: sent once it is.
      this[kPendingWrite] = () => this._writeFrom(bytes, 0, done);
      return;
    }
    this._writeFrom(bytes, 0, done);
  }

  /** Writes `bytes` from `offset` on, at most MAX_WRITE bytes per host call. */
  _writeFrom(bytes, offset, done) {
    const piece = offset === 0 && bytes.length <= MAX_WRITE ? bytes : bytes.subarray(offset, offset + MAX_WRITE);
    this[kWriting] = start('socket.write', { socket: this[kId] }, piece, (failure) => {
      this[kWriting] = 0;
      if (failure) {
        if (failure.kind === 'aborted') return done();
        done(systemError(failure, 'write'));
        return;
      }
      this._touch();
      const next = offset + piece.length;
      if (next < bytes.length && !this.destroyed) {
        this._writeFrom(bytes, next, done);
        return;
      }
      done();
      this._checkFlushed();
    });
  }

  /**
   * Runs `cb` once every write queued so far has been handed to the node
   * (or the socket is gone): what was written before TLS starts on the
   * connection goes out before the handshake, as in Node, where both share
   * one write queue.
   */
  _afterWrites(cb) {
    this[kFlushWaiters].push(cb);
    this._checkFlushed();
  }

  _checkFlushed() {
    if (!this.destroyed && (this[kWriting] || this[kPendingWrite] || this.writableLength > 0)) return;
    for (const waiter of this[kFlushWaiters].splice(0)) waiter();
  }

  _final(done) {
    if (!this[kId] || this.connecting) {
      this[kPendingWrite] = () => this._final(done);
      return;
    }
    this[kWriting] = start('socket.end', { socket: this[kId] }, undefined, (failure) => {
      this[kWriting] = 0;
      if (failure && failure.kind !== 'aborted' && failure.code !== 'ENOTCONN' && !this.destroyed) {
        this.destroy(systemError(failure, 'shutdown'));
      }
      this._checkFlushed();
    });
    // libuv's shutdown follows the writes before it at once, so Node's
    // 'finish' comes before anything the peer sends in answer to the FIN;
    // waiting for the node's answer here would let that answer race it.
    done();
  }

  _destroy(err, done) {
    this._clearTimer();
    this.connecting = false;
    if (this[kConnecting]) {
      cancel(this[kConnecting]);
      this[kConnecting] = 0;
    }
    if (this[kReading]) {
      cancel(this[kReading]);
      this[kReading] = 0;
    }
    const id = this[kId];
    this[kId] = 0;
    if (id && !this[kTakenOver]) start('socket.close', { socket: id }, undefined, () => {});
    this._hadError = Boolean(err);
    done(err);
    this._checkFlushed();
    process.nextTick(() => this.emit('close', this._hadError));
  }

  _undestroy() {
    this.destroyed = false;
    const r = this._readableState;
    const w = this._writableState;
    r.closed = r.destroyed = r.errored = r.endEmitted = r.ended = false;
    r.errorEmitted = false;
    w.closed = w.destroyed = w.errored = w.ended = w.finished = w.ending = w.finalCalled = w.prefinished = false;
    w.errorEmitted = false;
  }

  destroySoon() {
    if (this.writable) this.end();
    if (this.writableFinished) this.destroy();
    else this.once('finish', () => this.destroy());
  }

  resetAndDestroy() {
    return this.destroy();
  }

  setTimeout(msecs, callback) {
    if (typeof msecs !== 'number') throw invalidArgType('msecs', 'number', msecs);
    if (msecs < 0 || !Number.isFinite(msecs)) throw outOfRange('msecs', 'a non-negative finite number', msecs);
    this.timeout = msecs;
    if (callback) {
      if (msecs === 0) this.removeListener('timeout', callback);
      else this.once('timeout', callback);
    }
    this._touch();
    return this;
  }

  /** Activity: restarts the idle timer. */
  _touch() {
    this._clearTimer();
    if (this.timeout > 0 && !this.destroyed) {
      this[kTimer] = setTimeout(() => {
        this[kTimer] = null;
        this.emit('timeout');
      }, this.timeout);
    }
  }

  _clearTimer() {
    if (this[kTimer]) clearTimeout(this[kTimer]);
    this[kTimer] = null;
  }

  setNoDelay(noDelay = true) {
    if (this[kId]) start('socket.setopt', { socket: this[kId], noDelay: Boolean(noDelay) }, undefined, () => {});
    else this.once('connect', () => this.setNoDelay(noDelay));
    return this;
  }

  setKeepAlive(enable = false, initialDelay = 0) {
    const head = { keepAlive: Boolean(enable), keepAliveDelayMs: Math.max(0, Number(initialDelay) || 0) };
    if (this[kId]) start('socket.setopt', { socket: this[kId], ...head }, undefined, () => {});
    else this.once('connect', () => this.setKeepAlive(enable, initialDelay));
    return this;
  }

  // An open socket does not hold a Function's request open in Shoal (the
  // request ends when the Function answers), so there is nothing to unref.
  ref() {
    return this;
  }
  unref() {
    return this;
  }

  /**
   * Hands the connection to a TLS socket (tls.connect({ socket })): this
   * socket stops reading and its connection id moves; `done(id)` once no
   * read holds it.
   */
  _takeOver() {
    this[kTakenOver] = true;
    this._clearTimer();
    if (this[kReading]) {
      cancel(this[kReading]);
      this[kReading] = 0;
    }
    const id = this[kId];
    this[kId] = 0;
    return id;
  }
}

/** The address and port Node's connect errors carry, from the node's message. */
function addressOf(message, hostname, port) {
  const m = /connect \w+ (\[?[0-9a-fA-F:.]+\]?):(\d+)$/.exec(message || '');
  if (!m) return { address: hostname, port };
  return { address: m[1].replace(/^\[|\]$/g, ''), port: Number(m[2]) };
}

module.exports = { Socket, normalizeArgs, validatePort };
