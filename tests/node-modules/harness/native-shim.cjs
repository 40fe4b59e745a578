'use strict';
// A stand-in for the engine primitives Shoal's Rust host puts on
// globalThis.__shoal_native, built from Node's own crypto, zlib, URL and
// fs, so the JavaScript modules can be tested under Node. Results are
// host-realm values; v8-context.mjs copies them into the sandbox realm.

const crypto = require('node:crypto');
const zlib = require('node:zlib');
const fs = require('node:fs');

function bytes(u8) {
  return Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
}

function toArrayBuffer(buf) {
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
}

const hashNames = { md5: 'md5', sha1: 'sha1', sha224: 'sha224', sha256: 'sha256', sha384: 'sha384', sha512: 'sha512' };
function hashName(alg) {
  const name = hashNames[String(alg).toLowerCase().replace('-', '')];
  if (!name) throw new Error(`Digest method not supported: ${alg}`);
  return name;
}

function urlParts(u) {
  return {
    href: u.href, protocol: u.protocol, username: u.username, password: u.password, host: u.host,
    hostname: u.hostname, port: u.port, pathname: u.pathname, search: u.search, hash: u.hash, origin: u.origin,
  };
}

function fsError(err) {
  const e = new Error(err.message);
  e.code = err.code;
  e.syscall = err.syscall;
  e.path = err.path;
  return e;
}

function aesName(key, mode) {
  if (![16, 24, 32].includes(key.length)) throw new Error('Invalid key length');
  return `aes-${key.length * 8}-${mode}`;
}

// counter + n (128-bit big-endian).
function addToCounter(counter, n) {
  const out = Buffer.from(counter);
  let carry = BigInt(n);
  for (let i = 15; i >= 0 && carry > 0n; i--) {
    const sum = BigInt(out[i]) + (carry & 0xffn);
    out[i] = Number(sum & 0xffn);
    carry = (carry >> 8n) + (sum >> 8n);
  }
  return out;
}

module.exports = {
  aesCbc(key, iv, data, decrypt) {
    const make = decrypt ? crypto.createDecipheriv : crypto.createCipheriv;
    const c = make(aesName(key, 'cbc'), bytes(key), bytes(iv)).setAutoPadding(false);
    return toArrayBuffer(Buffer.concat([c.update(bytes(data)), c.final()]));
  },
  aesCtr(key, counter, offset, data) {
    const skip = offset % 16;
    const c = crypto.createCipheriv(aesName(key, 'ctr'), bytes(key), addToCounter(bytes(counter), Math.floor(offset / 16)));
    const out = c.update(Buffer.concat([Buffer.alloc(skip), bytes(data)]));
    return toArrayBuffer(out.subarray(skip));
  },
  aesGcm(key, iv, aad, data, tag) {
    if (tag === undefined) {
      const c = crypto.createCipheriv(aesName(key, 'gcm'), bytes(key), bytes(iv));
      c.setAAD(bytes(aad));
      c.update(bytes(data));
      c.final();
      return toArrayBuffer(c.getAuthTag());
    }
    const d = crypto.createDecipheriv(aesName(key, 'gcm'), bytes(key), bytes(iv));
    d.setAAD(bytes(aad));
    d.setAuthTag(bytes(tag));
    const out = d.update(bytes(data));
    try {
      d.final();
    } catch {
      throw new Error('Unsupported state or unable to authenticate data');
    }
    return toArrayBuffer(out);
  },
  scrypt: (password, salt, N, r, p, keylen) =>
    toArrayBuffer(crypto.scryptSync(bytes(password), bytes(salt), keylen, { N, r, p, maxmem: 1 << 30 })),
  digest: (alg, data) => toArrayBuffer(crypto.createHash(hashName(alg)).update(bytes(data)).digest()),
  hmac: (alg, key, data) => toArrayBuffer(crypto.createHmac(hashName(alg), bytes(key)).update(bytes(data)).digest()),
  pbkdf2: (alg, password, salt, iterations, keylen) =>
    toArrayBuffer(crypto.pbkdf2Sync(bytes(password), bytes(salt), iterations, keylen, hashName(alg))),
  randomBytes: (n) => toArrayBuffer(crypto.randomBytes(n)),
  zlib(op, data, level) {
    const opts = level === -1 ? {} : { level };
    const fns = {
      deflate: zlib.deflateSync, inflate: zlib.inflateSync, deflateRaw: zlib.deflateRawSync, inflateRaw: zlib.inflateRawSync,
      gzip: zlib.gzipSync, gunzip: zlib.gunzipSync, unzip: zlib.unzipSync,
    };
    if (!fns[op]) throw new Error(`unknown zlib operation ${op}`);
    try {
      return toArrayBuffer(fns[op](bytes(data), opts));
    } catch (err) {
      throw new Error(err.message);
    }
  },
  urlParse(input, base) {
    try {
      return urlParts(base === undefined ? new URL(input) : new URL(input, base));
    } catch {
      throw new Error(`Invalid URL: ${input}`);
    }
  },
  urlSet(href, component, value) {
    const u = new URL(href);
    u[component] = value;
    return urlParts(u);
  },
  fsRead(path) {
    try {
      return toArrayBuffer(fs.readFileSync(path));
    } catch (err) {
      throw fsError(err);
    }
  },
  fsStat(path) {
    try {
      const st = fs.statSync(path);
      return [st.isFile() ? 1 : 0, st.isDirectory() ? 1 : 0, st.size, st.mtimeMs];
    } catch (err) {
      throw fsError(err);
    }
  },
  fsReaddir(path) {
    try {
      return fs.readdirSync(path).sort();
    } catch (err) {
      throw fsError(err);
    }
  },
};

// The key primitives (signatures, key formats, ECDH, RSA, HKDF, AES-KW).
Object.assign(module.exports, require('./native-shim-keys.cjs'));
