'use strict';
// Name resolution for node:dns, done by the node: the engine has no
// sockets, so each lookup or query is a host operation
// (`__shoal_host.op(name, headJson, bytes)`, answered through the prelude's
// event loop in `__shoal_calls`):
//
//   dns.lookup  {hostname, family: 0|4|6, all: true} -> {addresses: [{address, family}]}
//                (the system resolver's order; the caller applies `order`)
//   dns.resolve {hostname, rrtype, ttl}               -> {records: [...]} in Node's shape
//   dns.reverse {ip}                                  -> {hostnames: [...]}
//
// TLSA records give their certificate data as base64 (Node gives an
// ArrayBuffer). A failure answers {error, kind, code} with Node's code (ENOTFOUND,
// ENODATA, ETIMEOUT...), which becomes Node's DNSException here. Also the
// argument checks and error shapes node:dns and node:dns/promises share.
const { nodeError, invalidArgType } = require('../errors.js');
const { invalidArgValue, validateOneOf } = require('../validators.js');
const { notImplemented } = require('../unsupported.js');

// libuv's numbers for the getaddrinfo failures Node reports (errno).
const GETADDRINFO_ERRNO = {
  ENOTFOUND: -3008,
  EAI_ADDRFAMILY: -3000,
  EAI_AGAIN: -3001,
  EAI_BADFLAGS: -3002,
  EAI_CANCELED: -3003,
  EAI_FAIL: -3004,
  EAI_FAMILY: -3005,
  EAI_MEMORY: -3006,
  EAI_NODATA: -3007,
  EAI_SERVICE: -3010,
};

/** Node's error for a failed lookup or query: "queryMx ENODATA example.com". */
class DNSException extends Error {
  constructor(code, syscall, hostname, errno = undefined) {
    super(`${syscall} ${code}${hostname ? ` ${hostname}` : ''}`);
    this.errno = errno;
    this.code = code;
    this.syscall = syscall;
    if (hostname) this.hostname = hostname;
  }

  // Node's errors of this class say they are plain Errors.
  get ['constructor']() {
    return Error;
  }
}

function lookupException(code, hostname) {
  return new DNSException(code, 'getaddrinfo', hostname, GETADDRINFO_ERRNO[code]);
}

/**
 * Runs host operation `op` with `head`; `done(err, answer)` is called
 * from the event loop. The error is a DNSException for `syscall`.
 */
function hostOperation(op, head, syscall, hostname, done) {
  const host = globalThis.__shoal_host;
  const calls = globalThis.__shoal_calls;
  if (!host || typeof host.op !== 'function' || !calls) {
    const err = notImplemented(`dns (${op})`, 'this Shoal node does not resolve names for Functions yet');
    process.nextTick(done, err);
    return;
  }
  let id;
  try {
    id = host.op(op, JSON.stringify(head), new Uint8Array(0));
  } catch (err) {
    process.nextTick(done, err);
    return;
  }
  calls.set(id, (result) => {
    let answer;
    try {
      answer = JSON.parse(result.head);
    } catch {
      answer = { error: 'the node gave an answer that is not JSON', code: null };
    }
    if (answer.error === undefined) {
      done(null, answer);
      return;
    }
    const lookup = syscall === 'getaddrinfo';
    const code = answer.code || (lookup ? 'EAI_FAIL' : 'ESERVFAIL');
    const err = lookup ? lookupException(code, hostname) : new DNSException(code, syscall, hostname);
    // Without a code of Node's, the node's own words say what went wrong.
    if (!answer.code) Object.defineProperty(err, 'cause', { value: new Error(String(answer.error)), configurable: true, writable: true });
    done(err);
  });
}

// ---------------------------------------------------------------- argument checks

function validateString(value, name) {
  if (typeof value !== 'string') throw invalidArgType(name, 'string', value);
}

function validateStringWithoutNullBytes(value, name) {
  validateString(value, name);
  if (value.includes('\u0000')) throw invalidArgValue(name, value, 'must be a string without null bytes');
}

function validateBoolean(value, name) {
  if (typeof value !== 'boolean') throw invalidArgType(name, 'boolean', value);
}

function validateNumber(value, name) {
  if (typeof value !== 'number') throw invalidArgType(name, 'number', value);
}

function validateFunction(value, name) {
  if (typeof value !== 'function') throw invalidArgType(name, 'function', value);
}

// getaddrinfo's flags Node accepts (glibc's values).
const AI_ADDRCONFIG = 32;
const AI_ALL = 16;
const AI_V4MAPPED = 8;

function validateHints(hints) {
  if ((hints & ~(AI_ADDRCONFIG | AI_ALL | AI_V4MAPPED)) !== 0) throw invalidArgValue('hints', hints);
}

module.exports = {
  DNSException,
  lookupException,
  hostOperation,
  invalidArgValue,
  validateString,
  validateStringWithoutNullBytes,
  validateOneOf,
  validateBoolean,
  validateNumber,
  validateFunction,
  validateHints,
  AI_ADDRCONFIG,
  AI_ALL,
  AI_V4MAPPED,
};
