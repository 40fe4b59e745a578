'use strict';
// How Node words and decides TLS verification: tls.checkServerIdentity
// (lib/tls.js, RFC 6125 matching of a host name or IP against a
// certificate's names), and the errors a refused certificate gives
// (OpenSSL's verify codes with OpenSSL's texts, and the hint Node 24 adds to
// two of them).

const { nodeError } = require('../errors');
const { isIP, canonicalizeIP } = require('../dns/ip');

// OpenSSL's X509_verify_cert_error_string for the codes the node reports.
const VERIFY_MESSAGES = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed certificate in certificate chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'unable to verify the first certificate',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'unable to get local issuer certificate',
  UNABLE_TO_GET_ISSUER_CERT: 'unable to get issuer certificate',
  CERT_HAS_EXPIRED: 'certificate has expired',
  CERT_NOT_YET_VALID: 'certificate is not yet valid',
  CERT_SIGNATURE_FAILURE: 'certificate signature failure',
  CERT_REJECTED: 'certificate rejected',
  CERT_UNTRUSTED: 'certificate not trusted',
  INVALID_CA: 'invalid CA certificate',
};

// Node 24 and later point at --use-system-ca for these two (a root the
// system trusts but Node's bundle does not); Node 22 does not.
const SYSTEM_CA_HINT = '; if the root CA is installed locally, try running Node.js with --use-system-ca';
const HINTED = new Set(['DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE']);

function nodeMajor() {
  const m = /^v(\d+)/.exec(String(globalThis.process && process.version));
  return m ? Number(m[1]) : 22;
}

/** The message Node's TLS client gives for verify failure `code`. */
function verifyMessage(code, fallback) {
  const base = VERIFY_MESSAGES[code] || fallback || code;
  return HINTED.has(code) && nodeMajor() >= 24 && !base.endsWith(SYSTEM_CA_HINT) ? base + SYSTEM_CA_HINT : base;
}

/** A refused certificate as Node's TLS client reports it: only `code` and the message. */
function verifyError(code, fallback) {
  const err = new Error(verifyMessage(code, fallback));
  err.code = code;
  return err;
}

const unfqdn = (host) => host.replace(/[.]$/, '');
const splitHost = (host) => unfqdn(host).toLowerCase().split('.');

/** RFC 6125 matching of one certificate name against the host's labels, as Node's check(). */
function matches(hostParts, pattern, wildcards) {
  if (!pattern) return false;
  const patternParts = splitHost(pattern);
  if (hostParts.length !== patternParts.length) return false;
  if (patternParts.includes('')) return false;
  // U-labels, control characters and blanks never match.
  if (patternParts.some((s) => /[^\u0021-\u007F]/u.test(s))) return false;
  for (let i = hostParts.length - 1; i > 0; i -= 1) {
    if (hostParts[i] !== patternParts[i]) return false;
  }
  const hostSubdomain = hostParts[0];
  const patternSubdomain = patternParts[0];
  const pieces = patternSubdomain.split('*');
  if (pieces.length === 1 || patternSubdomain.includes('xn--')) return hostSubdomain === patternSubdomain;
  if (!wildcards) return false;
  if (pieces.length > 2) return false;
  // *.tld is never allowed.
  if (patternParts.length <= 2) return false;
  const [prefix, suffix] = pieces;
  if (prefix.length + suffix.length > hostSubdomain.length) return false;
  return hostSubdomain.startsWith(prefix) && hostSubdomain.endsWith(suffix);
}

const jsonStringPattern = /^"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/;

/** Splits a subjectaltname string whose names may be JSON-quoted (OpenSSL escapes ", " that way). */
function splitEscapedAltNames(altNames) {
  const result = [];
  let token = '';
  let offset = 0;
  while (offset !== altNames.length) {
    const nextSep = altNames.indexOf(', ', offset);
    const nextQuote = altNames.indexOf('"', offset);
    if (nextQuote !== -1 && (nextSep === -1 || nextQuote < nextSep)) {
      token += altNames.substring(offset, nextQuote);
      const match = jsonStringPattern.exec(altNames.substring(nextQuote));
      if (!match) throw nodeError(SyntaxError, 'ERR_TLS_CERT_ALTNAME_FORMAT', 'Invalid subject alternative name string');
      token += JSON.parse(match[0]);
      offset = nextQuote + match[0].length;
    } else if (nextSep !== -1) {
      token += altNames.substring(offset, nextSep);
      result.push(token);
      token = '';
      offset = nextSep + 2;
    } else {
      token += altNames.substring(offset);
      offset = altNames.length;
    }
  }
  result.push(token);
  return result;
}

function altnameError(reason, host, cert) {
  const err = nodeError(Error, 'ERR_TLS_CERT_ALTNAME_INVALID', `Hostname/IP does not match certificate's altnames: ${reason}`);
  err.reason = reason;
  err.host = host;
  err.cert = cert;
  return err;
}

/** tls.checkServerIdentity(hostname, cert): undefined, or the error Node returns. */
function checkServerIdentity(hostname, cert) {
  const subject = cert && cert.subject;
  const altNames = cert && cert.subjectaltname;
  const dnsNames = [];
  const ips = [];
  hostname = `${hostname}`;
  if (altNames) {
    const names = altNames.includes('"') ? splitEscapedAltNames(altNames) : altNames.split(', ');
    for (const name of names) {
      if (name.startsWith('DNS:')) dnsNames.push(name.slice(4));
      else if (name.startsWith('IP Address:')) ips.push(canonicalizeIP(name.slice(11)));
    }
  }
  let valid = false;
  let reason = 'Unknown reason';
  hostname = unfqdn(hostname);
  if (isIP(hostname)) {
    valid = ips.includes(canonicalizeIP(hostname));
    if (!valid) reason = `IP: ${hostname} is not in the cert's list: ${ips.join(', ')}`;
  } else if (dnsNames.length > 0 || (subject && subject.CN)) {
    const hostParts = splitHost(hostname);
    const wildcard = (pattern) => matches(hostParts, pattern, true);
    if (dnsNames.length > 0) {
      valid = dnsNames.some(wildcard);
      if (!valid) reason = `Host: ${hostname}. is not in the cert's altnames: ${altNames}`;
    } else {
      const cn = subject.CN;
      if (Array.isArray(cn)) valid = cn.some(wildcard);
      else if (cn) valid = wildcard(cn);
      if (!valid) reason = `Host: ${hostname}. is not cert's CN: ${cn}`;
    }
  } else {
    reason = 'Cert does not contain a DNS name';
  }
  if (!valid) return altnameError(reason, hostname, cert);
  return undefined;
}

module.exports = { checkServerIdentity, altnameError, verifyError, verifyMessage, VERIFY_MESSAGES };
