'use strict';
// node:url for Shoal Functions: the WHATWG URL and URLSearchParams (parsing
// by the engine), the legacy url.parse()/url.format() (Node's own
// algorithm, reimplemented here: it parses relative references and keeps
// input that WHATWG would normalize), url.resolve(), and the file: URL and
// domain helpers.

const { URL, URLSearchParams } = require('./internal/url');
const { nodeError, invalidArgType } = require('./internal/errors');
const native = require('./internal/native');
const querystring = require('querystring');
const pathModule = require('path');

// ---------------------------------------------------------------- legacy

function Url() {
  this.protocol = null;
  this.slashes = null;
  this.auth = null;
  this.host = null;
  this.port = null;
  this.hostname = null;
  this.hash = null;
  this.search = null;
  this.query = null;
  this.pathname = null;
  this.path = null;
  this.href = null;
}

const protocolPattern = /^[a-z0-9.+-]+:/i;
const portPattern = /:[0-9]*$/;
const hostPattern = /^\/\/[^@/]+@[^@/]+/;
const simplePathPattern = /^(\/\/?(?!\/)[^?\s]*)(\?[^\s]*)?$/;
const hostnameMaxLen = 255;
const forbiddenHostChars = /[\0\t\n\r #%/:<>?@[\\\]^|]/;
const forbiddenHostCharsIpv6 = /[\0\t\n\r #%/<>?@\\^|]/;
const unsafeProtocol = new Set(['javascript', 'javascript:']);
const hostlessProtocol = new Set(['javascript', 'javascript:']);
const slashedProtocol = new Set(['http', 'http:', 'https', 'https:', 'ftp', 'ftp:', 'gopher', 'gopher:',
  'file', 'file:', 'ws', 'ws:', 'wss', 'wss:']);

// Characters legacy url.parse escapes even though they are "allowed".
const autoEscape = {
  '\t': '%09', '\n': '%0A', '\r': '%0D', ' ': '%20', '"': '%22', "'": '%27', '<': '%3C', '>': '%3E',
  '\\': '%5C', '^': '%5E', '`': '%60', '{': '%7B', '|': '%7C', '}': '%7D',
};
const autoEscapeRe = /[\t\n\r "'<>\\^`{|}]/g;

function isIpv6Hostname(hostname) {
  return hostname.charCodeAt(0) === 91 && hostname.charCodeAt(hostname.length - 1) === 93;
}

function urlParse(url, parseQueryString, slashesDenoteHost) {
  if (url instanceof Url) return url;
  const u = new Url();
  u.parse(url, parseQueryString, slashesDenoteHost);
  return u;
}

Url.prototype.parse = function parse(url, parseQueryString, slashesDenoteHost) {
  if (typeof url !== 'string') throw invalidArgType('url', 'string', url);
  // Trim, and turn backslashes before the query or hash into slashes (as
  // browsers do).
  let hasHash = false;
  let hasAt = false;
  let start = -1;
  let end = -1;
  let rest = '';
  let lastPos = 0;
  for (let i = 0, inWs = false, split = false; i < url.length; ++i) {
    const code = url.charCodeAt(i);
    const isWs = code < 33 || code === 0xa0 || code === 0xfeff;
    if (start === -1) {
      if (isWs) continue;
      lastPos = start = i;
    } else if (inWs) {
      if (!isWs) {
        end = -1;
        inWs = false;
      }
    } else if (isWs) {
      end = i;
      inWs = true;
    }
    if (!split) {
      switch (code) {
        case 64: // @
          hasAt = true;
          break;
        case 35: // #
          hasHash = true;
          split = true;
          break;
        case 63: // ?
          split = true;
          break;
        case 92: // \
          if (i - lastPos > 0) rest += url.slice(lastPos, i);
          rest += '/';
          lastPos = i + 1;
          break;
        default:
          break;
      }
    } else if (!hasHash && code === 35) {
      hasHash = true;
    }
  }
  if (start !== -1) {
    if (lastPos === start) {
      if (end === -1) rest = start === 0 ? url : url.slice(start);
      else rest = url.slice(start, end);
    } else if (end === -1 && lastPos < url.length) {
      rest += url.slice(lastPos);
    } else if (end !== -1 && lastPos < end) {
      rest += url.slice(lastPos, end);
    }
  }

  if (!slashesDenoteHost && !hasHash && !hasAt) {
    const simplePath = simplePathPattern.exec(rest);
    if (simplePath) {
      this.path = rest;
      this.href = rest;
      this.pathname = simplePath[1];
      if (simplePath[2]) {
        this.search = simplePath[2];
        this.query = parseQueryString ? querystring.parse(this.search.slice(1)) : this.search.slice(1);
      } else if (parseQueryString) {
        this.search = null;
        this.query = Object.create(null);
      }
      return this;
    }
  }

  let proto = protocolPattern.exec(rest);
  let lowerProto;
  if (proto) {
    proto = proto[0];
    lowerProto = proto.toLowerCase();
    this.protocol = lowerProto;
    rest = rest.slice(proto.length);
  }

  let slashes;
  if (slashesDenoteHost || proto || hostPattern.test(rest)) {
    slashes = rest.charCodeAt(0) === 47 && rest.charCodeAt(1) === 47;
    if (slashes && !(proto && hostlessProtocol.has(lowerProto))) {
      rest = rest.slice(2);
      this.slashes = true;
    }
  }

  if (!hostlessProtocol.has(lowerProto) && (slashes || (proto && !slashedProtocol.has(proto)))) {
    // The host ends at the first / ? or #; an '@' before that ends the
    // auth part (the last '@' wins).
    let hostEnd = -1;
    let atSign = -1;
    let nonHost = -1;
    for (let i = 0; i < rest.length; ++i) {
      switch (rest.charCodeAt(i)) {
        case 9: case 10: case 13: case 32: case 34: case 37: case 39: case 59: case 60: case 62:
        case 92: case 94: case 96: case 123: case 124: case 125:
          if (nonHost === -1) nonHost = i;
          break;
        case 35: case 47: case 63:
          if (nonHost === -1) nonHost = i;
          hostEnd = i;
          break;
        case 64:
          atSign = i;
          nonHost = -1;
          break;
        default:
          break;
      }
      if (hostEnd !== -1) break;
    }
    start = 0;
    if (atSign !== -1) {
      this.auth = decodeURIComponent(rest.slice(0, atSign));
      start = atSign + 1;
    }
    if (nonHost === -1) {
      this.host = rest.slice(start);
      rest = '';
    } else {
      this.host = rest.slice(start, nonHost);
      rest = rest.slice(nonHost);
    }
    this.parseHost();
    if (typeof this.hostname !== 'string') this.hostname = '';
    const hostname = this.hostname;
    const ipv6Hostname = isIpv6Hostname(hostname);
    if (!ipv6Hostname) {
      for (let i = 0; i < hostname.length; ++i) {
        const code = hostname.charCodeAt(i);
        if (code === 47 || code === 92 || code === 35 || code === 63 || code === 58) {
          this.hostname = hostname.slice(0, i);
          rest = `/${hostname.slice(i)}${rest}`;
          break;
        }
      }
    }
    if (this.hostname.length > hostnameMaxLen) this.hostname = '';
    else this.hostname = this.hostname.toLowerCase();
    if (this.hostname !== '') {
      if (ipv6Hostname) {
        if (forbiddenHostCharsIpv6.test(this.hostname)) throw invalidUrl(url);
      } else {
        this.hostname = toASCIILenient(this.hostname);
        if (this.hostname === '' || forbiddenHostChars.test(this.hostname)) throw invalidUrl(url);
      }
    }
    const p = this.port ? `:${this.port}` : '';
    this.host = (this.hostname || '') + p;
    if (ipv6Hostname) {
      this.hostname = this.hostname.slice(1, -1);
      if (rest[0] !== '/') rest = `/${rest}`;
    }
  }

  if (!unsafeProtocol.has(lowerProto)) rest = rest.replace(autoEscapeRe, (c) => autoEscape[c]);

  let questionIdx = -1;
  let hashIdx = -1;
  for (let i = 0; i < rest.length; ++i) {
    const code = rest.charCodeAt(i);
    if (code === 35) {
      this.hash = rest.slice(i);
      hashIdx = i;
      break;
    } else if (code === 63 && questionIdx === -1) {
      questionIdx = i;
    }
  }
  if (questionIdx !== -1) {
    if (hashIdx === -1) {
      this.search = rest.slice(questionIdx);
      this.query = rest.slice(questionIdx + 1);
    } else {
      this.search = rest.slice(questionIdx, hashIdx);
      this.query = rest.slice(questionIdx + 1, hashIdx);
    }
    if (parseQueryString) this.query = querystring.parse(this.query);
  } else if (parseQueryString) {
    this.search = null;
    this.query = Object.create(null);
  }
  const useQuestionIdx = questionIdx !== -1 && (hashIdx === -1 || questionIdx < hashIdx);
  const firstIdx = useQuestionIdx ? questionIdx : hashIdx;
  if (firstIdx === -1) {
    if (rest.length > 0) this.pathname = rest;
  } else if (firstIdx > 0) {
    this.pathname = rest.slice(0, firstIdx);
  }
  if (slashedProtocol.has(lowerProto) && this.hostname && !this.pathname) this.pathname = '/';
  if (this.pathname || this.search) this.path = (this.pathname || '') + (this.search || '');
  this.href = this.format();
  return this;
};

Url.prototype.parseHost = function parseHost() {
  let host = this.host;
  let port = portPattern.exec(host);
  if (port) {
    port = port[0];
    if (port !== ':') this.port = port.slice(1);
    host = host.slice(0, host.length - port.length);
  }
  if (host) this.hostname = host;
};

function invalidUrl(input) {
  const err = nodeError(TypeError, 'ERR_INVALID_URL', 'Invalid URL');
  err.input = input;
  return err;
}

// Characters kept as they are in the auth part by url.format().
const noEscapeAuth = /[A-Za-z0-9!$&'()*+,\-.:;=_~]/;
function encodeAuth(str) {
  let out = '';
  for (const ch of str) {
    if (ch.length === 1 && ch.charCodeAt(0) < 128 && noEscapeAuth.test(ch)) out += ch;
    else out += encodeURIComponent(ch).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  }
  return out;
}

Url.prototype.format = function format() {
  let auth = this.auth || '';
  if (auth) auth = `${encodeAuth(auth)}@`;
  let protocol = this.protocol || '';
  let pathname = this.pathname || '';
  let hash = this.hash || '';
  let host = '';
  let query = '';
  if (this.host) {
    host = auth + this.host;
  } else if (this.hostname) {
    host = auth + (this.hostname.includes(':') && !isIpv6Hostname(this.hostname) ? `[${this.hostname}]` : this.hostname);
    if (this.port) host += `:${this.port}`;
  }
  if (this.query !== null && typeof this.query === 'object') query = querystring.stringify(this.query);
  let search = this.search || (query && `?${query}`) || '';
  if (protocol && protocol.charCodeAt(protocol.length - 1) !== 58) protocol += ':';
  pathname = pathname.replace(/[#?]/g, (c) => (c === '#' ? '%23' : '%3F'));
  if (this.slashes || slashedProtocol.has(protocol)) {
    if (this.slashes || host) {
      if (pathname && pathname.charCodeAt(0) !== 47) pathname = `/${pathname}`;
      host = `//${host}`;
    } else if (protocol.length >= 4 && protocol.startsWith('file')) {
      host = '//';
    }
  }
  search = search.replace(/#/g, '%23');
  if (hash && hash.charCodeAt(0) !== 35) hash = `#${hash}`;
  if (search && search.charCodeAt(0) !== 63) search = `?${search}`;
  return protocol + host + pathname + search + hash;
};

Url.prototype.resolve = function resolve(relative) {
  return urlResolve(this.format(), relative);
};

function urlFormat(urlObject, options) {
  if (typeof urlObject === 'string') {
    urlObject = urlParse(urlObject);
  } else if (typeof urlObject !== 'object' || urlObject === null) {
    throw invalidArgType('urlObject', ['Object', 'string'], urlObject);
  } else if (urlObject instanceof URL) {
    return formatWhatwg(urlObject, options);
  }
  return Url.prototype.format.call(urlObject);
}

// url.format(URL, { auth, fragment, search, unicode })
function formatWhatwg(url, options = {}) {
  const { auth = true, fragment = true, search = true, unicode = false } = options || {};
  let out = url.protocol;
  if (url.host !== '' || url.protocol === 'file:' || url.href.startsWith(`${url.protocol}//`)) {
    out += '//';
    if (auth && (url.username || url.password)) {
      out += url.username;
      if (url.password) out += `:${url.password}`;
      out += '@';
    }
    out += unicode ? domainToUnicode(url.hostname) + (url.port ? `:${url.port}` : '') : url.host;
  }
  out += url.pathname;
  if (search) out += url.search;
  if (fragment) out += url.hash;
  return out;
}

// url.resolve(from, to): resolves with the WHATWG algorithm; a base without
// a scheme (a bare path) is resolved as a path and stays relative.
function urlResolve(source, relative) {
  source = String(source);
  relative = String(relative);
  const base = urlParse(source, false, true);
  if (base.protocol) {
    try {
      const resolved = new URL(relative, base.format());
      return urlParse(resolved.href).format();
    } catch {
      return relative;
    }
  }
  if (protocolPattern.test(relative)) return urlParse(relative).format();
  const dummy = 'http://resolve.invalid';
  const absPath = source.startsWith('/') ? source : `/${source}`;
  let resolved;
  try {
    resolved = new URL(relative, dummy + absPath);
  } catch {
    return relative;
  }
  let out = resolved.href.slice(dummy.length);
  if (relative.startsWith('//')) return `//${resolved.host}${resolved.pathname}${resolved.search}${resolved.hash}`;
  if (!source.startsWith('/') && !relative.startsWith('/')) out = out.slice(1);
  return out;
}

function urlResolveObject(source, relative) {
  if (!source) return relative;
  return urlParse(urlResolve(typeof source === 'string' ? source : urlFormat(source), relative));
}

// ---------------------------------------------------------------- file URLs

function fileURLToPath(path) {
  let url = path;
  if (typeof path === 'string') url = new URL(path);
  else if (!(path instanceof URL) && !(path && typeof path.href === 'string' && typeof path.protocol === 'string')) {
    throw invalidArgType('path', ['string', 'URL'], path);
  }
  if (url.protocol !== 'file:') throw nodeError(TypeError, 'ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
  if (url.hostname !== '') {
    throw nodeError(TypeError, 'ERR_INVALID_FILE_URL_HOST', 'File URL host must be "localhost" or empty on linux');
  }
  const pathname = url.pathname;
  for (let n = 0; n < pathname.length; n++) {
    if (pathname[n] === '%') {
      const third = pathname.codePointAt(n + 2) | 0x20;
      if (pathname[n + 1] === '2' && third === 102) {
        throw nodeError(TypeError, 'ERR_INVALID_FILE_URL_PATH', 'File URL path must not include encoded / characters');
      }
    }
  }
  return decodeURIComponent(pathname);
}

function pathToFileURL(filepath) {
  if (typeof filepath !== 'string') throw invalidArgType('path', 'string', filepath);
  let resolved = pathModule.resolve(filepath);
  if (filepath.charCodeAt(filepath.length - 1) === 47 && resolved[resolved.length - 1] !== '/') resolved += '/';
  // The pathname setter encodes the rest; these it would leave alone.
  resolved = resolved.replace(/%/g, '%25').replace(/\\/g, '%5C').replace(/\n/g, '%0A').replace(/\r/g, '%0D')
    .replace(/\t/g, '%09');
  const url = new URL('file://');
  url.pathname = resolved;
  return url;
}

function urlToHttpOptions(url) {
  const options = {
    protocol: url.protocol,
    hostname: typeof url.hostname === 'string' && url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
    hash: url.hash,
    search: url.search,
    pathname: url.pathname,
    path: `${url.pathname || ''}${url.search || ''}`,
    href: url.href,
  };
  if (url.port !== '') options.port = Number(url.port);
  if (url.username || url.password) {
    options.auth = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  }
  return options;
}

// ---------------------------------------------------------------- domains

function toASCIILenient(hostname) {
  if (/^[\x00-\x7f]*$/.test(hostname)) return hostname;
  const ascii = domainToASCII(hostname);
  return ascii;
}

function domainToASCII(domain) {
  if (arguments.length < 1) throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "domain" argument must be specified');
  const d = String(domain);
  if (d === '') return '';
  try {
    const parts = native.urlParse(`ws://${d}`);
    return parts.hostname;
  } catch {
    return '';
  }
}

// Punycode (RFC 3492) decoding of one label.
function punycodeDecode(input) {
  const base = 36;
  const output = [];
  let i = 0;
  let n = 128;
  let bias = 72;
  let basic = input.lastIndexOf('-');
  if (basic < 0) basic = 0;
  for (let j = 0; j < basic; j++) output.push(input.charCodeAt(j));
  const adapt = (delta, numPoints, firstTime) => {
    let k = 0;
    delta = firstTime ? Math.floor(delta / 700) : delta >> 1;
    delta += Math.floor(delta / numPoints);
    for (; delta > ((base - 1) * 26) >> 1; k += base) delta = Math.floor(delta / (base - 1));
    return Math.floor(k + ((base - 1 + 1) * delta) / (delta + 38));
  };
  for (let index = basic > 0 ? basic + 1 : 0; index < input.length;) {
    const oldi = i;
    for (let w = 1, k = base; ; k += base) {
      if (index >= input.length) throw new RangeError('Invalid input');
      const c = input.charCodeAt(index++);
      const digit = c - 48 < 10 ? c - 22 : c - 65 < 26 ? c - 65 : c - 97 < 26 ? c - 97 : base;
      if (digit >= base) throw new RangeError('Invalid input');
      i += digit * w;
      const t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
      if (digit < t) break;
      w *= base - t;
    }
    const out = output.length + 1;
    bias = adapt(i - oldi, out, oldi === 0);
    n += Math.floor(i / out);
    i %= out;
    output.splice(i++, 0, n);
  }
  return String.fromCodePoint(...output);
}

function domainToUnicode(domain) {
  if (arguments.length < 1) throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "domain" argument must be specified');
  const ascii = domainToASCII(domain);
  if (ascii === '' && String(domain) !== '') return '';
  return ascii.split('.').map((label) => {
    if (!/^xn--/i.test(label)) return label;
    try {
      return punycodeDecode(label.slice(4).toLowerCase());
    } catch {
      return label;
    }
  }).join('.');
}

module.exports = {
  Url,
  parse: urlParse,
  resolve: urlResolve,
  resolveObject: urlResolveObject,
  format: urlFormat,
  URL,
  URLSearchParams,
  domainToASCII,
  domainToUnicode,
  pathToFileURL,
  fileURLToPath,
  urlToHttpOptions,
};
