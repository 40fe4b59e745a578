'use strict';
// WHATWG Blob and File (File API), holding their bytes in memory.
const { concatBytes } = require('./bytes.js');

const { encodeUtf8, decodeUtf8 } = require('./text-coding');
const { invalidArgType, notAvailable } = require('./errors');

const kBytes = Symbol('bytes');
const kType = Symbol('type');

function isArrayBuffer(v) {
  const tag = Object.prototype.toString.call(v);
  return tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]';
}

function partBytes(part, endings) {
  if (part instanceof Blob) return part[kBytes];
  if (isArrayBuffer(part)) return new Uint8Array(part.slice(0));
  if (ArrayBuffer.isView(part)) return new Uint8Array(part.buffer, part.byteOffset, part.byteLength).slice();
  let s = String(part);
  if (endings === 'native') s = s.replace(/\r\n?/g, '\n');
  return encodeUtf8(s);
}

function normalizeType(type) {
  if (type === undefined) return '';
  const t = String(type);
  // Any character outside U+0020..U+007E makes the type the empty string.
  return /^[\x20-\x7e]*$/.test(t) ? t.toLowerCase() : '';
}


class Blob {
  constructor(sources = [], options = undefined) {
    if (sources === null || typeof sources !== 'object' || typeof sources[Symbol.iterator] !== 'function') {
      throw invalidArgType('sources', 'a sequence', sources);
    }
    const opts = options == null ? {} : options;
    const endings = opts.endings === undefined ? 'transparent' : String(opts.endings);
    if (endings !== 'transparent' && endings !== 'native') {
      throw new TypeError(`The "options.endings" property must be one of: 'transparent', 'native'. Received '${endings}'`);
    }
    const chunks = [];
    for (const part of sources) chunks.push(partBytes(part, endings));
    Object.defineProperty(this, kBytes, { value: concatBytes(chunks) });
    Object.defineProperty(this, kType, { value: normalizeType(opts.type) });
  }

  get size() { return this[kBytes].length; }
  get type() { return this[kType]; }

  slice(start = 0, end = undefined, contentType = undefined) {
    const size = this.size;
    const clamp = (v, dflt) => {
      if (v === undefined) return dflt;
      let n = Math.trunc(Number(v)) || 0;
      if (n < 0) n = Math.max(size + n, 0);
      return Math.min(n, size);
    };
    const from = clamp(start, 0);
    const to = clamp(end, size);
    const blob = Object.create(Blob.prototype);
    Object.defineProperty(blob, kBytes, { value: this[kBytes].slice(from, Math.max(from, to)) });
    Object.defineProperty(blob, kType, { value: normalizeType(contentType) });
    return blob;
  }

  text() { return Promise.resolve(decodeUtf8(this[kBytes])); }
  arrayBuffer() { return Promise.resolve(this[kBytes].slice().buffer); }
  bytes() { return Promise.resolve(this[kBytes].slice()); }

  stream() {
    throw notAvailable('Blob.prototype.stream()', 'there are no web streams; use blob.arrayBuffer() or blob.text()');
  }
}
Object.defineProperty(Blob.prototype, Symbol.toStringTag, { value: 'Blob', configurable: true });
for (const name of ['size', 'type', 'slice', 'text', 'arrayBuffer', 'bytes', 'stream']) {
  Object.defineProperty(Blob.prototype, name, { enumerable: true });
}
Object.defineProperty(Blob.prototype, Symbol.for('nodejs.util.inspect.custom'), {
  value(depth, options, inspect) {
    const type = inspect ? inspect(this.type) : `'${this.type}'`;
    return `${this[Symbol.toStringTag]} { size: ${this.size}, type: ${type}${this instanceof File ? `, name: ${inspect ? inspect(this.name) : `'${this.name}'`}, lastModified: ${this.lastModified}` : ''} }`;
  },
});

const kName = Symbol('name');
const kLastModified = Symbol('lastModified');

class File extends Blob {
  constructor(fileBits, fileName, options = undefined) {
    if (arguments.length < 2) throw new TypeError('The "fileBits" and "fileName" arguments must be specified');
    super(fileBits, options);
    const opts = options == null ? {} : options;
    Object.defineProperty(this, kName, { value: String(fileName) });
    Object.defineProperty(this, kLastModified, {
      value: opts.lastModified === undefined ? Date.now() : Math.trunc(Number(opts.lastModified)) || 0,
    });
  }
  get name() { return this[kName]; }
  get lastModified() { return this[kLastModified]; }
}
Object.defineProperty(File.prototype, Symbol.toStringTag, { value: 'File', configurable: true });
Object.defineProperty(File.prototype, 'name', { enumerable: true });
Object.defineProperty(File.prototype, 'lastModified', { enumerable: true });

// Bytes of a Blob without a copy (for Buffer, FormData, structuredClone).
function blobBytes(blob) {
  return blob[kBytes];
}

module.exports = { Blob, File, blobBytes };
