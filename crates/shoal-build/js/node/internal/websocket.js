'use strict';
// The WHATWG WebSocket client (Node 22's global `WebSocket`, from undici).
// The opening handshake is an HTTP/1.1 upgrade the node performs (egress
// policy, TLS and connection limits as for any outbound call); the frames
// (RFC 6455: masking, fragmentation, ping/pong, the closing handshake) are
// read and written here over the connection it hands over.

const { Buffer } = require('buffer');
const { EventTarget, Event } = require('./event-target');
const { MessageEvent } = require('./messaging');
const { DOMException } = require('./dom-exception');
const { Blob, blobBytes } = require('./blob');
const { Socket } = require('./net/socket');
const hostOps = require('./net/host');
const native = require('./native');

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const CONNECTING = 0;
const OPEN = 1;
const CLOSING = 2;
const CLOSED = 3;
const OPCODE = { continuation: 0x0, text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa };

class CloseEvent extends Event {
  #wasClean;
  #code;
  #reason;
  constructor(type, init = {}) {
    super(type, init);
    this.#wasClean = Boolean(init.wasClean);
    this.#code = init.code === undefined ? 0 : Number(init.code);
    this.#reason = init.reason === undefined ? '' : String(init.reason);
  }
  get wasClean() {
    return this.#wasClean;
  }
  get code() {
    return this.#code;
  }
  get reason() {
    return this.#reason;
  }
}

class ErrorEvent extends Event {
  #message;
  #error;
  constructor(type, init = {}) {
    super(type, init);
    this.#message = init.message === undefined ? '' : String(init.message);
    this.#error = init.error;
  }
  get message() {
    return this.#message;
  }
  get error() {
    return this.#error;
  }
}

function syntaxError(message) {
  return new DOMException(message, 'SyntaxError');
}

/** Encodes one client frame (always masked, RFC 6455 5.3). */
function encodeFrame(opcode, payload, fin = true) {
  const length = payload.length;
  const extra = length < 126 ? 0 : length < 65536 ? 2 : 8;
  const frame = Buffer.alloc(2 + extra + 4 + length);
  frame[0] = (fin ? 0x80 : 0) | opcode;
  let at = 2;
  if (extra === 0) frame[1] = 0x80 | length;
  else if (extra === 2) {
    frame[1] = 0x80 | 126;
    frame.writeUInt16BE(length, 2);
    at = 4;
  } else {
    frame[1] = 0x80 | 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
    at = 10;
  }
  const mask = new Uint8Array(native.randomBytes(4));
  frame.set(mask, at);
  at += 4;
  for (let i = 0; i < length; i++) frame[at + i] = payload[i] ^ mask[i & 3];
  return frame;
}

function validCloseCode(code) {
  return (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) || (code >= 3000 && code <= 4999);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

class WebSocket extends EventTarget {
  #url;
  #readyState = CONNECTING;
  #protocol = '';
  #extensions = '';
  #binaryType = 'blob';
  #bufferedAmount = 0;
  #socket = null;
  #buffer = Buffer.alloc(0);
  #fragments = null;
  #fragmentOpcode = 0;
  #closeSent = false;
  #closeReceived = null;
  #handlers = { open: null, message: null, error: null, close: null };

  constructor(url, protocols = []) {
    super();
    let parsed;
    try {
      parsed = new URL(String(url));
    } catch (err) {
      throw syntaxError(err.message);
    }
    if (parsed.protocol === 'http:') parsed.protocol = 'ws:';
    else if (parsed.protocol === 'https:') parsed.protocol = 'wss:';
    if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') {
      throw syntaxError(`Expected a ws: or wss: protocol, got ${parsed.protocol}`);
    }
    if (parsed.hash) throw syntaxError('Got fragment');
    if (typeof protocols === 'string') protocols = [protocols];
    else if (protocols && typeof protocols === 'object' && !Array.isArray(protocols)) protocols = protocols.protocols || [];
    protocols = [...protocols].map(String);
    if (new Set(protocols).size !== protocols.length) throw syntaxError('Invalid Sec-WebSocket-Protocol value');
    this.#url = parsed.href;
    const key = Buffer.from(native.randomBytes(16)).toString('base64');
    const headers = [
      ['Connection', 'Upgrade'],
      ['Upgrade', 'websocket'],
      ['Sec-WebSocket-Key', key],
      ['Sec-WebSocket-Version', '13'],
      ['Accept', '*/*'],
      ['User-Agent', 'node'],
    ];
    if (protocols.length > 0) headers.push(['Sec-WebSocket-Protocol', protocols.join(', ')]);
    for (const [name, value] of globalThis.__shoal_trace_headers || []) headers.push([name, value]);
    const httpUrl = parsed.href.replace(/^ws/, 'http');
    // Dispatch happens after the constructor returns, as in the browser.
    queueMicrotask(() => {
      hostOps.start('http.upgrade', { method: 'GET', url: httpUrl, headers }, undefined, (failure, answer) => {
        if (failure) {
          this.#fail(failure.error);
          return;
        }
        if (!answer.socket) {
          this.#fail(`Received network error or non-101 status code (${answer.status}).`);
          return;
        }
        const header = (name) => {
          const found = answer.headers.find(([n]) => n.toLowerCase() === name);
          return found ? found[1] : undefined;
        };
        const expected = Buffer.from(native.digest('sha1', Buffer.from(key + GUID))).toString('base64');
        const protocol = header('sec-websocket-protocol');
        const problem = (header('upgrade') || '').toLowerCase() !== 'websocket'
          ? 'Server did not set Upgrade header to "websocket".'
          : header('sec-websocket-accept') !== expected
            ? 'Incorrect hash received in Sec-WebSocket-Accept header.'
            : protocol !== undefined && !protocols.includes(protocol)
              ? 'Protocol was not set in the opening handshake.'
              : header('sec-websocket-extensions')
                ? 'Received unexpected extensions.'
                : null;
        const socket = new Socket();
        socket._attach({ ...answer.connection, socket: answer.socket });
        socket._connected();
        if (problem) {
          socket.destroy();
          this.#fail(problem);
          return;
        }
        this.#socket = socket;
        this.#protocol = protocol || '';
        this.#readyState = OPEN;
        socket.on('data', (chunk) => this.#onData(chunk));
        socket.on('close', () => this.#onSocketClose());
        socket.on('error', () => {});
        this.#dispatch('open', new Event('open'));
      });
    });
  }

  get url() {
    return this.#url;
  }
  get readyState() {
    return this.#readyState;
  }
  get protocol() {
    return this.#protocol;
  }
  get extensions() {
    return this.#extensions;
  }
  get bufferedAmount() {
    return this.#bufferedAmount;
  }
  get binaryType() {
    return this.#binaryType;
  }
  set binaryType(type) {
    if (type === 'blob' || type === 'arraybuffer') this.#binaryType = type;
  }

  send(data) {
    if (this.#readyState === CONNECTING) throw new DOMException('Sent before connected.', 'InvalidStateError');
    if (this.#readyState !== OPEN) return;
    if (typeof data === 'string') {
      this.#write(OPCODE.text, Buffer.from(data, 'utf8'));
    } else if (data instanceof Blob) {
      this.#write(OPCODE.binary, Buffer.from(blobBytes(data)));
    } else if (ArrayBuffer.isView(data)) {
      this.#write(OPCODE.binary, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    } else if (data instanceof ArrayBuffer) {
      this.#write(OPCODE.binary, Buffer.from(data));
    } else {
      this.#write(OPCODE.text, Buffer.from(String(data), 'utf8'));
    }
  }

  close(code, reason) {
    if (code !== undefined && (code !== 1000 && (code < 3000 || code > 4999))) {
      throw new DOMException('invalid code', 'InvalidAccessError');
    }
    const reasonBytes = reason === undefined ? Buffer.alloc(0) : Buffer.from(String(reason), 'utf8');
    if (reasonBytes.length > 123) throw syntaxError(`Reason must be less than 123 bytes; received ${reasonBytes.length}`);
    if (this.#readyState === CLOSING || this.#readyState === CLOSED) return;
    if (this.#readyState === CONNECTING) {
      this.#fail('Connection was closed before it was established.');
      return;
    }
    this.#readyState = CLOSING;
    this.#sendClose(code, reasonBytes);
  }

  #sendClose(code, reasonBytes = Buffer.alloc(0)) {
    if (this.#closeSent) return;
    this.#closeSent = true;
    let payload = Buffer.alloc(0);
    if (code !== undefined) {
      payload = Buffer.alloc(2 + reasonBytes.length);
      payload.writeUInt16BE(code, 0);
      reasonBytes.copy(payload, 2);
    }
    this.#write(OPCODE.close, payload);
  }

  #write(opcode, payload) {
    const frame = encodeFrame(opcode, payload);
    this.#bufferedAmount += payload.length;
    this.#socket.write(frame, () => {
      this.#bufferedAmount -= payload.length;
    });
  }

  #onData(chunk) {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    for (;;) {
      const frame = this.#parseFrame();
      if (frame === null) return;
      if (frame === false) return;
      this.#onFrame(frame);
      if (this.#readyState === CLOSED) return;
    }
  }

  /** The next whole frame from the buffer, null when incomplete, false on a protocol error. */
  #parseFrame() {
    const b = this.#buffer;
    if (b.length < 2) return null;
    const fin = (b[0] & 0x80) !== 0;
    const rsv = b[0] & 0x70;
    const opcode = b[0] & 0x0f;
    const masked = (b[1] & 0x80) !== 0;
    let length = b[1] & 0x7f;
    let at = 2;
    if (length === 126) {
      if (b.length < 4) return null;
      length = b.readUInt16BE(2);
      at = 4;
    } else if (length === 127) {
      if (b.length < 10) return null;
      const big = b.readBigUInt64BE(2);
      if (big > BigInt(Number.MAX_SAFE_INTEGER)) return this.#protocolError('Frame too large');
      length = Number(big);
      at = 10;
    }
    if (rsv !== 0) return this.#protocolError('RSV bits must be clear');
    if (masked) return this.#protocolError('A server must not mask frames');
    if (b.length < at + length) return null;
    const payload = b.subarray(at, at + length);
    this.#buffer = b.subarray(at + length);
    return { fin, opcode, payload };
  }

  #protocolError(reason) {
    this.#sendClose(1002);
    this.#socket.end();
    this.#fail(reason, 1002);
    return false;
  }

  #onFrame({ fin, opcode, payload }) {
    if (opcode >= 0x8) {
      if (!fin || payload.length > 125) {
        this.#protocolError('Invalid control frame');
        return;
      }
      if (opcode === OPCODE.ping) {
        if (this.#readyState === OPEN) this.#write(OPCODE.pong, Buffer.from(payload));
      } else if (opcode === OPCODE.close) {
        const code = payload.length >= 2 ? payload.readUInt16BE(0) : 1005;
        let reason = '';
        if (payload.length >= 2) {
          try {
            reason = utf8.decode(payload.subarray(2));
          } catch {
            this.#protocolError('Invalid UTF-8 in close reason');
            return;
          }
          if (!validCloseCode(code)) {
            this.#protocolError('Invalid close code');
            return;
          }
        }
        this.#closeReceived = { code, reason };
        if (this.#readyState === OPEN) this.#readyState = CLOSING;
        // Echo the close, then the server ends the connection.
        this.#sendClose(payload.length >= 2 ? code : undefined);
        this.#socket.end();
      }
      return;
    }
    if (opcode === OPCODE.continuation) {
      if (this.#fragments === null) {
        this.#protocolError('Unexpected continuation frame');
        return;
      }
      this.#fragments.push(Buffer.from(payload));
    } else if (opcode === OPCODE.text || opcode === OPCODE.binary) {
      if (this.#fragments !== null) {
        this.#protocolError('Expected a continuation frame');
        return;
      }
      this.#fragments = [Buffer.from(payload)];
      this.#fragmentOpcode = opcode;
    } else {
      this.#protocolError(`Unknown opcode ${opcode}`);
      return;
    }
    if (!fin) return;
    const message = this.#fragments.length === 1 ? this.#fragments[0] : Buffer.concat(this.#fragments);
    this.#fragments = null;
    if (this.#readyState !== OPEN) return;
    let data;
    if (this.#fragmentOpcode === OPCODE.text) {
      try {
        data = utf8.decode(message);
      } catch {
        this.#sendClose(1007);
        this.#socket.end();
        this.#fail('Invalid UTF-8 in a text message', 1007);
        return;
      }
    } else if (this.#binaryType === 'arraybuffer') {
      data = message.buffer.slice(message.byteOffset, message.byteOffset + message.byteLength);
    } else {
      data = new Blob([message]);
    }
    this.#dispatch('message', new MessageEvent('message', { data, origin: new URL(this.#url).origin }));
  }

  #onSocketClose() {
    if (this.#readyState === CLOSED) return;
    this.#readyState = CLOSED;
    const received = this.#closeReceived;
    const wasClean = received !== null && this.#closeSent;
    this.#dispatch('close', new CloseEvent('close', {
      wasClean,
      code: received ? received.code : 1006,
      reason: received ? received.reason : '',
    }));
  }

  #fail(message, code = 1006) {
    if (this.#readyState === CLOSED) return;
    const wasConnecting = this.#readyState === CONNECTING;
    this.#readyState = CLOSED;
    if (this.#socket && !this.#socket.destroyed) this.#socket.destroy();
    const error = new TypeError(message);
    this.#dispatch('error', new ErrorEvent('error', { error, message }));
    this.#dispatch('close', new CloseEvent('close', { wasClean: false, code: wasConnecting ? 1006 : code, reason: '' }));
  }

  #dispatch(type, event) {
    const handler = this.#handlers[type];
    if (typeof handler === 'function') handler.call(this, event);
    this.dispatchEvent(event);
  }

  get onopen() {
    return this.#handlers.open;
  }
  set onopen(fn) {
    this.#handlers.open = typeof fn === 'function' ? fn : null;
  }
  get onmessage() {
    return this.#handlers.message;
  }
  set onmessage(fn) {
    this.#handlers.message = typeof fn === 'function' ? fn : null;
  }
  get onerror() {
    return this.#handlers.error;
  }
  set onerror(fn) {
    this.#handlers.error = typeof fn === 'function' ? fn : null;
  }
  get onclose() {
    return this.#handlers.close;
  }
  set onclose(fn) {
    this.#handlers.close = typeof fn === 'function' ? fn : null;
  }
}

for (const [name, value] of Object.entries({ CONNECTING, OPEN, CLOSING, CLOSED })) {
  Object.defineProperty(WebSocket, name, { value, enumerable: true });
  Object.defineProperty(WebSocket.prototype, name, { value, enumerable: true });
}
Object.defineProperty(WebSocket.prototype, Symbol.toStringTag, { value: 'WebSocket', configurable: true });
Object.defineProperty(CloseEvent.prototype, Symbol.toStringTag, { value: 'CloseEvent', configurable: true });

module.exports = { WebSocket, CloseEvent, ErrorEvent };
