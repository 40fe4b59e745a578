'use strict';
// Host operations for the socket modules: each is started with
// __shoal_host.op(name, headJson, bytes) and answers once, through the
// prelude's event loop, with a JSON head and a body of bytes. A failure's
// head is {error, kind, code}.

const { Buffer } = require('buffer');
const { notAvailable } = require('../errors');

const EMPTY = new Uint8Array(0);

/** Node's errno numbers (libuv, Linux) for the codes the node reports. */
const ERRNO = {
  ECONNREFUSED: -111, ECONNRESET: -104, ETIMEDOUT: -110, EPIPE: -32, EHOSTUNREACH: -113, ENETUNREACH: -101,
  EADDRNOTAVAIL: -99, EACCES: -13, ECONNABORTED: -103, ENOTCONN: -107, EMFILE: -24, EIO: -5,
  ENOTFOUND: -3008, EAI_AGAIN: -3001,
};

function host() {
  const h = globalThis.__shoal_host;
  if (!h || typeof h.op !== 'function') throw notAvailable('sockets', 'the engine does not provide __shoal_host.op');
  return h;
}

/**
 * Starts `name`; `done(error, head, body)` runs when it answers. Returns
 * the call's id (for cancel).
 */
function start(name, head, body, done) {
  const bytes = body === undefined ? EMPTY : body instanceof Uint8Array ? body : Buffer.from(body);
  const id = host().op(name, JSON.stringify(head), bytes);
  globalThis.__shoal_calls.set(id, (result) => {
    const answer = JSON.parse(result.head);
    if (answer.error !== undefined) done(answer, null, null);
    else done(null, answer, Buffer.from(result.body));
  });
  return id;
}

/** Stops call `id`; its callback never runs. */
function cancel(id) {
  if (!id) return;
  globalThis.__shoal_calls.delete(id);
  host().cancel(id);
}

/** An Error as Node's net and dns give them: code, errno, syscall, address. */
function errnoError(failure, extra = {}) {
  const err = new Error(failure.error);
  if (failure.code) {
    // A system error has an errno; a TLS or Node error (ERR_*) has only its code.
    if (ERRNO[failure.code] !== undefined) err.errno = ERRNO[failure.code];
    err.code = failure.code;
  }
  Object.assign(err, extra);
  return err;
}

/**
 * A failed read, write or shutdown as libuv words it: "read ECONNRESET",
 * "write EPIPE" (the node's own text says more, Node's does not).
 */
function systemError(failure, syscall) {
  const known = failure.code && ERRNO[failure.code] !== undefined;
  return errnoError(known ? { ...failure, error: `${syscall} ${failure.code}` } : failure, { syscall });
}

module.exports = { start, cancel, errnoError, systemError };
