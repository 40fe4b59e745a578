'use strict';
// crypto.X509Certificate, after lib/internal/crypto/x509.js: the engine
// parses the certificate (PEM or DER) and checks its signature; the names,
// dates and subject alternative names come formatted as Node formats them.
// Not here: issuerCertificate (there is no TLS peer) and infoAccess.

const { Buffer } = require('buffer');
const { nodeError, invalidArgType } = require('../errors');
const {
  callNative, kState, bufferOrView, isStringOrBuffer, validateObject, validateString, invalidArgValue,
} = require('./util');
const { isKeyObject, publicKeyObject, publicOf } = require('./keys');
const native = require('../native');

// OpenSSL's names for the signature algorithms (Node 24's signatureAlgorithm).
const signatureAlgorithms = {
  '1.2.840.113549.1.1.4': 'md5WithRSAEncryption',
  '1.2.840.113549.1.1.5': 'sha1WithRSAEncryption',
  '1.2.840.113549.1.1.14': 'sha224WithRSAEncryption',
  '1.2.840.113549.1.1.11': 'sha256WithRSAEncryption',
  '1.2.840.113549.1.1.12': 'sha384WithRSAEncryption',
  '1.2.840.113549.1.1.13': 'sha512WithRSAEncryption',
  '1.2.840.113549.1.1.10': 'rsassaPss',
  '1.2.840.10045.4.1': 'ecdsa-with-SHA1',
  '1.2.840.10045.4.3.1': 'ecdsa-with-SHA224',
  '1.2.840.10045.4.3.2': 'ecdsa-with-SHA256',
  '1.2.840.10045.4.3.3': 'ecdsa-with-SHA384',
  '1.2.840.10045.4.3.4': 'ecdsa-with-SHA512',
  '1.3.101.112': 'ED25519',
};

function fingerprint(der, hash) {
  return Buffer.from(native.digest(hash, der)).toString('hex').toUpperCase().match(/../g).join(':');
}

// The SAN entries of one kind (`DNS`, `IP Address`, `email`).
function altNames(cert, kind) {
  const san = cert.subjectAltName;
  if (!san) return [];
  return san.split(', ').filter((e) => e.startsWith(`${kind}:`)).map((e) => e.slice(kind.length + 1));
}

// A name as OpenSSL prints it for Node (one RDN a line, multi-valued RDNs
// joined by ' + ', RFC 2253 escapes) back to [field, value] pairs.
function nameEntries(text) {
  const entries = [];
  for (const line of text.split('\n')) {
    for (const part of line.split(/(?<!\\) \+ /)) {
      const eq = part.indexOf('=');
      const value = part.slice(eq + 1).replace(/\\([0-9A-Fa-f]{2}|.)/g, (_, c) => (c.length === 2 ? String.fromCharCode(parseInt(c, 16)) : c));
      entries.push([part.slice(0, eq), value]);
    }
  }
  return entries;
}

// The names `check*` compare with: the SAN entries of the kind, or, when
// there are none (or options.subject is 'always'), the subject's `field`.
function candidates(cert, kind, field, subject) {
  const sans = altNames(cert, kind);
  const fromSubject = subject === 'never' || (sans.length && subject !== 'always')
    ? [] : nameEntries(cert.subject).filter(([f]) => f === field).map(([, v]) => v);
  return [...sans, ...fromSubject];
}

// Node's getFlags(): the options of checkHost/checkEmail/checkIP.
function hostFlags(options = {}) {
  validateObject(options, 'options');
  const {
    subject = 'default', wildcards = true, partialWildcards = true, multiLabelWildcards = false, singleLabelSubdomains = false,
  } = { ...options };
  validateString(subject, 'options.subject');
  for (const [name, value] of Object.entries({ wildcards, partialWildcards, multiLabelWildcards, singleLabelSubdomains })) {
    if (typeof value !== 'boolean') throw invalidArgType(`options.${name}`, 'boolean', value);
  }
  if (!['default', 'always', 'never'].includes(subject)) throw invalidArgValue('options.subject', subject);
  return { subject, wildcards, partialWildcards, multiLabelWildcards, singleLabelSubdomains };
}

const lower = (s) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

// OpenSSL's equal_nocase, with the suffix match a host starting with '.'
// asks for ('.example.com' matches any name under example.com).
function equalNoCase(pattern, host, flags) {
  if (host.length > 1 && host[0] === '.' && pattern.length > host.length) {
    const prefix = pattern.slice(0, pattern.length - host.length);
    if (!(flags.singleLabelSubdomains && prefix.includes('.'))) pattern = pattern.slice(prefix.length);
  }
  return pattern.length === host.length && lower(pattern) === lower(host);
}

// OpenSSL's valid_star: where the one '*' a pattern may have is (at an
// edge of the first label, not an IDNA one, in a name with two dots or
// more), or -1.
function wildcardIndex(pattern, flags) {
  let star = -1;
  let labelStart = true;
  let hyphen = false;
  let idna = false;
  let dots = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') {
      const atEnd = i === pattern.length - 1 || pattern[i + 1] === '.';
      if (star >= 0 || idna || dots) return -1;
      if (!flags.partialWildcards && (!labelStart || !atEnd)) return -1;
      if (!labelStart && !atEnd) return -1;
      star = i;
      labelStart = false;
    } else if (/[A-Za-z0-9]/.test(c)) {
      if (labelStart && /^xn--/i.test(pattern.slice(i, i + 4))) idna = true;
      hyphen = false;
      labelStart = false;
    } else if (c === '.') {
      if (hyphen || labelStart) return -1;
      labelStart = true;
      idna = false;
      dots++;
    } else if (c === '-') {
      if (labelStart) return -1;
      hyphen = true;
    } else {
      return -1;
    }
  }
  return labelStart || hyphen || dots < 2 ? -1 : star;
}

// RFC 6125 host matching as OpenSSL's X509_check_host does it.
function hostMatches(pattern, host, flags) {
  const star = flags.wildcards && !(host.length > 1 && host[0] === '.') ? wildcardIndex(pattern, flags) : -1;
  if (star < 0) return equalNoCase(pattern, host, flags);
  const prefix = pattern.slice(0, star);
  const suffix = pattern.slice(star + 1);
  if (host.length < prefix.length + suffix.length) return false;
  if (lower(host.slice(0, prefix.length)) !== lower(prefix)) return false;
  if (lower(host.slice(host.length - suffix.length)) !== lower(suffix)) return false;
  const matched = host.slice(prefix.length, host.length - suffix.length);
  const wholeLabel = prefix === '' && suffix[0] === '.';
  if (wholeLabel && matched === '') return false;
  if (!wholeLabel && /^xn--/i.test(host)) return false;
  if (matched === '*') return true;
  return (wholeLabel && flags.multiLabelWildcards ? /^[A-Za-z0-9.-]*$/ : /^[A-Za-z0-9-]*$/).test(matched);
}

// OpenSSL's equal_email: the domain compared without case, the local part
// exactly.
function emailMatches(pattern, email) {
  if (pattern.length !== email.length) return false;
  const at = Math.max(pattern.lastIndexOf('@'), email.lastIndexOf('@'));
  if (at < 0) return pattern === email;
  return pattern.slice(0, at) === email.slice(0, at) && lower(pattern.slice(at)) === lower(email.slice(at));
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

// An IPv6 address's eight groups, or null (inet_pton's rules: one '::',
// groups of up to four hex digits, a dotted quad last).
function ipv6Groups(text) {
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (part) => {
    if (part === '') return [];
    const groups = [];
    const pieces = part.split(':');
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i];
      if (i === pieces.length - 1 && IPV4.test(piece)) {
        const [a, b, c, d] = piece.split('.').map(Number);
        groups.push((a << 8) | b, (c << 8) | d);
      } else if (/^[0-9A-Fa-f]{1,4}$/.test(piece)) {
        groups.push(parseInt(piece, 16));
      } else {
        return null;
      }
    }
    return groups;
  };
  const head = parse(halves[0]);
  const tail = halves.length === 2 ? parse(halves[1]) : [];
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  if (head.length + tail.length > 7) return null;
  return [...head, ...new Array(8 - head.length - tail.length).fill(0), ...tail];
}

// An address as [family, canonical text], or null when it is no address
// (IPv4 dotted quads without leading zeros, as inet_pton reads them).
function ipAddress(text) {
  if (IPV4.test(text)) return [4, text];
  const groups = text.includes(':') ? ipv6Groups(text) : null;
  return groups && [6, groups.join(':')];
}

const invalidName = () => nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', 'Invalid name');

class X509Certificate {
  constructor(buffer) {
    if (!isStringOrBuffer(buffer)) {
      throw invalidArgType('buffer', ['string', 'Buffer', 'TypedArray', 'DataView'], buffer);
    }
    const fields = callNative('x509Parse', Uint8Array.from(bufferOrView(buffer, 'buffer')));
    Object.defineProperty(this, kState, { value: { ...fields, der: new Uint8Array(fields.der) } });
  }

  get subject() { return this[kState].subject; }
  get issuer() { return this[kState].issuer; }
  get subjectAltName() { return this[kState].subjectAltName; }
  get infoAccess() { return undefined; }
  get issuerCertificate() { return undefined; }
  get validFrom() { return this[kState].validFrom; }
  get validTo() { return this[kState].validTo; }
  get validFromDate() { return new Date(this[kState].validFromISO); }
  get validToDate() { return new Date(this[kState].validToISO); }
  get fingerprint() { return fingerprint(this[kState].der, 'sha1'); }
  get fingerprint256() { return fingerprint(this[kState].der, 'sha256'); }
  get fingerprint512() { return fingerprint(this[kState].der, 'sha512'); }
  get keyUsage() { return this[kState].keyUsage; }
  get serialNumber() { return this[kState].serialNumber; }
  get signatureAlgorithm() { return signatureAlgorithms[this[kState].signatureAlgorithmOid]; }
  get signatureAlgorithmOid() { return this[kState].signatureAlgorithmOid; }
  get raw() { return Buffer.from(this[kState].der); }
  get ca() { return this[kState].ca; }

  get publicKey() {
    const spki = this[kState].spki;
    const [type] = callNative('keyParse', new Uint8Array(spki), 'public', 'spki', undefined);
    return publicKeyObject(type, spki);
  }

  toString() {
    const b64 = Buffer.from(this[kState].der).toString('base64').match(/.{1,64}/g).join('\n');
    return `-----BEGIN CERTIFICATE-----\n${b64}\n-----END CERTIFICATE-----\n`;
  }

  toJSON() {
    return this.toString();
  }

  checkHost(name, options) {
    validateString(name, 'name');
    const flags = hostFlags(options);
    if (name.includes('\0')) throw invalidName();
    return candidates(this, 'DNS', 'CN', flags.subject).find((c) => hostMatches(c, name, flags));
  }

  checkEmail(email, options) {
    validateString(email, 'email');
    const flags = hostFlags(options);
    if (email.includes('\0')) throw invalidName();
    return candidates(this, 'email', 'emailAddress', flags.subject).some((c) => emailMatches(c, email)) ? email : undefined;
  }

  checkIP(ip, options) {
    validateString(ip, 'ip');
    hostFlags(options);
    const address = ipAddress(ip);
    if (!address) throw invalidName();
    const matches = altNames(this, 'IP Address').some((c) => {
      const other = ipAddress(c);
      return other && other[0] === address[0] && other[1] === address[1];
    });
    return matches ? ip : undefined;
  }

  checkIssued(otherCert) {
    if (!(otherCert instanceof X509Certificate)) throw invalidArgType('otherCert', 'X509Certificate', otherCert);
    return otherCert.subject === this.issuer;
  }

  checkPrivateKey(pkey) {
    if (!isKeyObject(pkey)) throw invalidArgType('pkey', 'KeyObject', pkey);
    if (pkey.type !== 'private') throw invalidArgValue('pkey', pkey);
    const pub = publicOf(pkey[kState]);
    return Buffer.from(pub.der).equals(Buffer.from(this[kState].spki));
  }

  verify(pkey) {
    if (!isKeyObject(pkey)) throw invalidArgType('pkey', 'KeyObject', pkey);
    if (pkey.type !== 'public') throw invalidArgValue('pkey', pkey);
    const st = pkey[kState];
    return callNative('x509Verify', this[kState].der, st.type, st.der);
  }

  // Node 24's legacy object: every member present, the key's members set
  // for RSA and EC keys.
  toLegacyObject() {
    const parse = (name) => {
      const out = { __proto__: null };
      for (const [field, value] of nameEntries(name)) {
        out[field] = field in out ? [].concat(out[field], value) : value;
      }
      return out;
    };
    const key = this.publicKey;
    const type = key.asymmetricKeyType;
    const details = key.asymmetricKeyDetails;
    const curve = type === 'ec' ? details.namedCurve : undefined;
    return {
      subject: parse(this.subject),
      issuer: parse(this.issuer),
      subjectaltname: this.subjectAltName,
      infoAccess: undefined,
      ca: this.ca,
      modulus: type === 'rsa' ? Buffer.from(key.export({ format: 'jwk' }).n, 'base64url').toString('hex').toUpperCase() : undefined,
      exponent: type === 'rsa' ? `0x${details.publicExponent.toString(16)}` : undefined,
      pubkey: type === 'rsa' ? key.export({ type: 'spki', format: 'der' })
        : type === 'ec' ? Buffer.from(callNative('keyRaw', 'public', key[kState].der)) : undefined,
      bits: type === 'rsa' ? details.modulusLength : curve ? { prime256v1: 256, secp384r1: 384, secp521r1: 521 }[curve] : undefined,
      valid_from: this.validFrom,
      valid_to: this.validTo,
      fingerprint: this.fingerprint,
      fingerprint256: this.fingerprint256,
      fingerprint512: this.fingerprint512,
      ext_key_usage: this.keyUsage,
      serialNumber: this.serialNumber,
      raw: this.raw,
      asn1Curve: curve,
      nistCurve: curve && { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' }[curve],
    };
  }

  [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
    if (depth < 0) return this;
    const fields = {
      subject: this.subject, subjectAltName: this.subjectAltName, issuer: this.issuer, infoAccess: this.infoAccess,
      validFrom: this.validFrom, validTo: this.validTo, validFromDate: this.validFromDate, validToDate: this.validToDate,
      fingerprint: this.fingerprint, fingerprint256: this.fingerprint256, fingerprint512: this.fingerprint512,
      keyUsage: this.keyUsage, serialNumber: this.serialNumber,
      signatureAlgorithm: this.signatureAlgorithm, signatureAlgorithmOid: this.signatureAlgorithmOid,
    };
    return `X509Certificate ${(inspect || require('../inspect').inspect)(fields, { ...options, depth: options.depth == null ? null : options.depth - 1 })}`;
  }
}

module.exports = { X509Certificate };
