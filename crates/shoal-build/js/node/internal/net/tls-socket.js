'use strict';
// tls.TLSSocket and tls.connect for Shoal Functions. The node performs the
// handshake (rustls, its roots plus the CA bundle, or the `ca` given here)
// and verifies the server as Node does: a refused certificate fails with
// Node's code (DEPTH_ZERO_SELF_SIGNED_CERT, CERT_HAS_EXPIRED,
// ERR_TLS_CERT_ALTNAME_INVALID, ...), and with rejectUnauthorized: false the
// socket connects with `authorized` false and the reason in
// `authorizationError`. `tls.connect({ socket })` starts TLS on an open
// connection (PostgreSQL's sslmode, SMTP's STARTTLS).

const { Buffer } = require('buffer');
const { Socket, normalizeArgs, validatePort } = require('./socket');
const { start, errnoError } = require('./host');
const { checkServerIdentity, altnameError, verifyError, VERIFY_MESSAGES } = require('./tls-verify');

function pemList(ca) {
  if (ca === undefined || ca === null) return undefined;
  const list = Array.isArray(ca) ? ca : [ca];
  return list.map((c) => (Buffer.isBuffer(c) || c instanceof Uint8Array ? Buffer.from(c).toString('utf8') : String(c)));
}

function alpnList(protocols) {
  if (!protocols) return [];
  if (Array.isArray(protocols)) return protocols.map((p) => (typeof p === 'string' ? p : Buffer.from(p).toString('latin1')));
  // The wire form: length-prefixed names in one buffer.
  const bytes = Buffer.from(protocols);
  const out = [];
  for (let i = 0; i < bytes.length;) {
    const n = bytes[i];
    out.push(bytes.subarray(i + 1, i + 1 + n).toString('latin1'));
    i += 1 + n;
  }
  return out;
}

function rejectUnauthorizedDefault() {
  // As Node: NODE_TLS_REJECT_UNAUTHORIZED=0 turns verification off.
  return !(globalThis.process && process.env && process.env.NODE_TLS_REJECT_UNAUTHORIZED === '0');
}

class TLSSocket extends Socket {
  constructor(socket, options = {}) {
    super({ allowHalfOpen: options.allowHalfOpen });
    this.encrypted = true;
    this.authorized = false;
    this.authorizationError = null;
    this.alpnProtocol = false;
    this.servername = null;
    this._tlsOptions = options;
    this._secureEstablished = false;
    this._wrapped = socket instanceof Socket ? socket : null;
  }

  /**
   * What the node needs to start TLS towards `hostname`. The node verifies
   * the chain and the name; a Function's own checkServerIdentity (mysql2's,
   * which skips the name, a pinning check) replaces the name check, so then
   * the node only reports what it found and the verdict is made here, after
   * the handshake and before any byte is written, as Node makes it.
   */
  _tlsRequest(hostname) {
    const o = this._tlsOptions;
    // tls.createSecureContext({ ca }) passed as secureContext (mysql2 does).
    const context = (o.secureContext && o.secureContext.options) || {};
    const ca = o.ca !== undefined ? o.ca : context.ca;
    const servername = o.servername !== undefined ? String(o.servername) : undefined;
    // No SNI for an address: Node's servername is then false.
    this.servername = servername || (/^[\d.]+$|:/.test(hostname) ? false : hostname);
    this._rejectUnauthorized = o.rejectUnauthorized === undefined ? rejectUnauthorizedDefault() : o.rejectUnauthorized !== false;
    this._ownIdentityCheck = typeof o.checkServerIdentity === 'function' && o.checkServerIdentity !== checkServerIdentity;
    // Node checks the identity of `servername || host`.
    this._identityHost = o.servername || hostname;
    return {
      servername,
      ca: pemList(ca),
      rejectUnauthorized: this._ownIdentityCheck ? false : this._rejectUnauthorized,
      ALPNProtocols: alpnList(o.ALPNProtocols),
    };
  }

  /** A refused certificate fails as Node's does: its code and OpenSSL's words, nothing else. */
  _connectFailure(failure, hostname, port) {
    if (VERIFY_MESSAGES[failure.code]) return verifyError(failure.code, failure.error);
    if (failure.code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
      // The node words it as Node does; the reason and host ride along as in Node.
      const prefix = "Hostname/IP does not match certificate's altnames: ";
      const reason = String(failure.error).startsWith(prefix) ? String(failure.error).slice(prefix.length) : String(failure.error);
      return altnameError(reason, String(this._identityHost).replace(/[.]$/, ''), undefined);
    }
    return super._connectFailure(failure, hostname, port);
  }

  /**
   * Node's verdict with the Function's checkServerIdentity: a chain the
   * node could not verify fails whatever the name; otherwise the function
   * decides. The error, or null.
   */
  _verifyWithOwnIdentityCheck() {
    const found = this.authorizationError;
    if (found && found !== 'ERR_TLS_CERT_ALTNAME_INVALID') {
      this.authorized = false;
      return verifyError(found);
    }
    const err = this._tlsOptions.checkServerIdentity(this._identityHost, this.getPeerCertificate());
    if (err) {
      this.authorized = false;
      this.authorizationError = err.code || err.message;
      return err;
    }
    this.authorized = true;
    this.authorizationError = null;
    return null;
  }

  _attach(answer) {
    super._attach(answer);
    this.authorized = Boolean(answer.authorized);
    this.authorizationError = answer.authorizationError || null;
    this.alpnProtocol = answer.alpnProtocol || false;
    this._protocol = answer.tlsProtocol || null;
  }

  _connected() {
    if (this._ownIdentityCheck) {
      const refused = this._verifyWithOwnIdentityCheck();
      if (refused && this._rejectUnauthorized) {
        this.destroy(refused);
        return;
      }
    }
    this._secureEstablished = true;
    super._connected();
    this.emit('secureConnect');
  }

  /** Starts TLS on the open connection of `inner`. */
  _startOn(inner, hostname) {
    // TLS starts after what was written on the plain connection (an
    // SSLRequest, STARTTLS) has gone out.
    const begin = () => inner._afterWrites(takeOver);
    const takeOver = () => {
      const id = inner._takeOver();
      if (!id) {
        this.destroy(errnoError({ error: 'the socket to start TLS on is closed', code: 'ERR_SOCKET_CLOSED' }));
        return;
      }
      this.connecting = true;
      this._host = hostname;
      const tls = this._tlsRequest(hostname);
      start('socket.starttls', { socket: id, host: hostname, tls }, undefined, (failure, answer) => {
        this.connecting = false;
        if (this.destroyed) {
          if (answer) start('socket.close', { socket: answer.socket }, undefined, () => {});
          return;
        }
        if (failure) {
          this.destroy(this._connectFailure(failure, hostname, 0));
          inner.destroy();
          return;
        }
        this._attach(answer);
        this._connected();
      });
    };
    // The wrapped socket closes with this one.
    this.once('close', () => {
      if (!inner.destroyed) inner.destroy();
    });
    if (inner.connecting) inner.once('connect', begin);
    else begin();
  }

  getPeerCertificate() {
    return {};
  }
  getCertificate() {
    return {};
  }
  getProtocol() {
    return this._protocol || null;
  }
  getCipher() {
    return this._protocol ? { name: 'TLS_AES_256_GCM_SHA384', standardName: 'TLS_AES_256_GCM_SHA384', version: this._protocol } : null;
  }
  getSession() {
    return undefined;
  }
  isSessionReused() {
    return false;
  }
  getEphemeralKeyInfo() {
    return {};
  }
  setServername(name) {
    this._tlsOptions = { ...this._tlsOptions, servername: name };
  }
  setMaxSendFragment() {
    return true;
  }
  disableRenegotiation() {}
  exportKeyingMaterial() {
    throw errnoError({ error: 'exportKeyingMaterial is not available in Shoal: the node holds the TLS session', code: 'ERR_METHOD_NOT_IMPLEMENTED' });
  }
}

/** tls.connect(options[, cb]) | (port[, host][, options][, cb]). */
function connect(...args) {
  let options;
  let cb;
  if (typeof args[0] === 'object' && args[0] !== null) {
    options = { ...args[0] };
    cb = args.find((a) => typeof a === 'function');
  } else {
    const [base, callback] = normalizeArgs(args.filter((a) => typeof a !== 'object' || a === null));
    const extra = args.find((a, i) => i > 0 && typeof a === 'object' && a !== null) || {};
    options = { ...extra, ...base };
    cb = callback;
  }
  const socket = new TLSSocket(options.socket, options);
  if (cb) socket.once('secureConnect', cb);
  if (options.timeout) socket.setTimeout(options.timeout);
  const hostname = options.host || (options.socket && options.socket._host) || 'localhost';
  if (options.socket) {
    socket._startOn(options.socket, hostname);
  } else {
    validatePort(options.port);
    socket.connect({ ...options, host: hostname });
  }
  return socket;
}

module.exports = { TLSSocket, connect };
