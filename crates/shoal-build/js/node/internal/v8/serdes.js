'use strict';
// v8.Serializer and v8.Deserializer for Shoal Functions: V8's value
// serialization format (version 15, src/objects/value-serializer.cc), byte
// for byte as Node 22 writes it, so a buffer made by v8.serialize() in Node
// (a cache entry, a message) reads here and the other way round. The
// engine is not V8, so where V8 picks an encoding by how it stores a value
// internally, this follows how V8 stores such a value when a program makes
// it the usual way: an integer in int32 range is a small integer ('I'),
// other numbers doubles ('N'); an array whose elements are all numbers, one
// of them not a small integer, is a double array (every element 'N'); an
// array with holes is sparse; a string of Latin-1 characters is one-byte.
const { Buffer } = require('../../buffer.js');
const { invalidArgType, nodeError } = require('../errors.js');

const LATEST_VERSION = 15;

const T = {
  version: 0xff, padding: 0x00, verifyObjectCount: 0x3f, theHole: 0x2d, undefined: 0x5f, null: 0x30, true: 0x54,
  false: 0x46, int32: 0x49, uint32: 0x55, double: 0x4e, bigint: 0x5a, utf8String: 0x53, oneByteString: 0x22,
  twoByteString: 0x63, objectReference: 0x5e, beginObject: 0x6f, endObject: 0x7b, beginSparseArray: 0x61,
  endSparseArray: 0x40, beginDenseArray: 0x41, endDenseArray: 0x24, date: 0x44, trueObject: 0x79, falseObject: 0x78,
  numberObject: 0x6e, bigintObject: 0x7a, stringObject: 0x73, regexp: 0x52, beginMap: 0x3b, endMap: 0x3a,
  beginSet: 0x27, endSet: 0x2c, arrayBuffer: 0x42, resizableArrayBuffer: 0x7e, arrayBufferTransfer: 0x74,
  arrayBufferView: 0x56, sharedArrayBuffer: 0x75, hostObject: 0x5c, error: 0x72,
};

// Sub-tags of kArrayBufferView.
const VIEW_TAGS = [
  ['Int8Array', 0x62], ['Uint8Array', 0x42], ['Uint8ClampedArray', 0x43], ['Int16Array', 0x77], ['Uint16Array', 0x57],
  ['Int32Array', 0x64], ['Uint32Array', 0x44], ['Float16Array', 0x68], ['Float32Array', 0x66], ['Float64Array', 0x46],
  ['BigInt64Array', 0x71], ['BigUint64Array', 0x51], ['DataView', 0x3f],
];

// Sub-tags of kError.
const ERROR_PROTOTYPES = [
  ['EvalError', 0x45], ['RangeError', 0x52], ['ReferenceError', 0x46], ['SyntaxError', 0x53], ['TypeError', 0x54], ['URIError', 0x55],
];
const ERROR_MESSAGE = 0x6d;
const ERROR_STACK = 0x73;
const ERROR_CAUSE = 0x63;
const ERROR_END = 0x2e;

const REGEXP_FLAGS = [['g', 1], ['i', 2], ['m', 4], ['y', 8], ['u', 16], ['s', 32], ['d', 128], ['v', 256]];

const toStr = (v) => Object.prototype.toString.call(v);
const isSmi = (n) => Number.isInteger(n) && n >= -2147483648 && n <= 2147483647 && !Object.is(n, -0);

function dataCloneError(Ctor, value) {
  let shown;
  if (typeof value === 'function') shown = Function.prototype.toString.call(value);
  else if (typeof value === 'symbol') shown = value.toString();
  else shown = `#<${(value && value.constructor && value.constructor.name) || 'Object'}>`;
  return new Ctor(`${shown} could not be cloned.`);
}

class Serializer {
  #bytes = new Uint8Array(64);
  #size = 0;
  #ids = new Map();
  #nextId = 0;
  #transferred = new Map();
  #viewsAsHostObjects = false;

  // ---------------------------------------------------------------- bytes

  #reserve(n) {
    if (this.#size + n <= this.#bytes.length) return;
    let length = this.#bytes.length * 2;
    while (length < this.#size + n) length *= 2;
    const grown = new Uint8Array(length);
    grown.set(this.#bytes.subarray(0, this.#size));
    this.#bytes = grown;
  }

  #byte(b) {
    this.#reserve(1);
    this.#bytes[this.#size++] = b;
  }

  #raw(u8) {
    this.#reserve(u8.length);
    this.#bytes.set(u8, this.#size);
    this.#size += u8.length;
  }

  #varint(n) {
    // n is a non-negative integer below 2**53 (or a BigInt for uint64).
    let v = BigInt(n);
    do {
      let b = Number(v & 0x7fn);
      v >>= 7n;
      if (v > 0n) b |= 0x80;
      this.#byte(b);
    } while (v > 0n);
  }

  #double(n) {
    const dv = new DataView(new ArrayBuffer(8));
    dv.setFloat64(0, n, true);
    this.#raw(new Uint8Array(dv.buffer));
  }

  // ---------------------------------------------------------------- public API

  writeHeader() {
    this.#byte(T.version);
    this.#varint(LATEST_VERSION);
  }

  writeValue(value) {
    this.#write(value);
    return true;
  }

  releaseBuffer() {
    const out = Buffer.from(this.#bytes.buffer.slice(0, this.#size));
    this.#bytes = new Uint8Array(64);
    this.#size = 0;
    return out;
  }

  transferArrayBuffer(id, arrayBuffer) {
    if (!(arrayBuffer instanceof ArrayBuffer)) throw invalidArgType('arrayBuffer', ['ArrayBuffer', 'SharedArrayBuffer'], arrayBuffer);
    this.#transferred.set(arrayBuffer, id >>> 0);
  }

  writeUint32(value) {
    this.#varint(value >>> 0);
  }

  writeUint64(hi, lo) {
    this.#varint((BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0));
  }

  writeDouble(value) {
    this.#double(Number(value));
  }

  writeRawBytes(source) {
    if (!ArrayBuffer.isView(source)) throw invalidArgType('source', ['Buffer', 'TypedArray', 'DataView'], source);
    this.#raw(new Uint8Array(source.buffer, source.byteOffset, source.byteLength));
  }

  _setTreatArrayBufferViewsAsHostObjects(flag) {
    this.#viewsAsHostObjects = !!flag;
  }

  _writeHostObject(object) {
    throw dataCloneError(this._getDataCloneError, object);
  }

  // ---------------------------------------------------------------- values

  #string(s) {
    // One byte per character when every character is Latin-1.
    let oneByte = true;
    for (let i = 0; i < s.length; i++) {
      if (s.charCodeAt(i) > 0xff) {
        oneByte = false;
        break;
      }
    }
    if (oneByte) {
      this.#byte(T.oneByteString);
      this.#varint(s.length);
      this.#reserve(s.length);
      for (let i = 0; i < s.length; i++) this.#bytes[this.#size++] = s.charCodeAt(i);
      return;
    }
    const byteLength = s.length * 2;
    // The reader wants two-byte strings 2-aligned in the buffer.
    if ((this.#size + 1 + varintLength(byteLength)) & 1) this.#byte(T.padding);
    this.#byte(T.twoByteString);
    this.#varint(byteLength);
    this.#reserve(byteLength);
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      this.#bytes[this.#size++] = c & 0xff;
      this.#bytes[this.#size++] = c >> 8;
    }
  }

  #number(n) {
    if (isSmi(n)) {
      this.#byte(T.int32);
      this.#varint(((n << 1) ^ (n >> 31)) >>> 0);
    } else {
      this.#byte(T.double);
      this.#double(n);
    }
  }

  #bigintContents(n) {
    const negative = n < 0n;
    let magnitude = negative ? -n : n;
    const digits = [];
    while (magnitude > 0n) {
      digits.push(magnitude & 0xffffffffffffffffn);
      magnitude >>= 64n;
    }
    this.#varint((digits.length * 8 * 2) + (negative ? 1 : 0));
    const dv = new DataView(new ArrayBuffer(digits.length * 8));
    digits.forEach((d, i) => dv.setBigUint64(i * 8, d, true));
    this.#raw(new Uint8Array(dv.buffer));
  }

  #write(value) {
    switch (typeof value) {
      case 'undefined':
        return this.#byte(T.undefined);
      case 'boolean':
        return this.#byte(value ? T.true : T.false);
      case 'number':
        return this.#number(value);
      case 'bigint':
        this.#byte(T.bigint);
        return this.#bigintContents(value);
      case 'string':
        return this.#string(value);
      case 'symbol':
      case 'function':
        throw dataCloneError(this._getDataCloneError, value);
      default:
        if (value === null) return this.#byte(T.null);
        return this.#receiver(value);
    }
  }

  #receiver(object) {
    const seen = this.#ids.get(object);
    if (seen !== undefined) {
      this.#byte(T.objectReference);
      this.#varint(seen);
      return;
    }
    // A view's buffer goes first, and takes its id before the view.
    if (ArrayBuffer.isView(object) && !this.#viewsAsHostObjects) this.#receiver(object.buffer);
    const id = this.#nextId++;
    this.#ids.set(object, id);

    const tag = toStr(object);
    if (Array.isArray(object)) return this.#array(object);
    if (ArrayBuffer.isView(object)) {
      if (this.#viewsAsHostObjects) {
        this.#byte(T.hostObject);
        return this._writeHostObject(object);
      }
      return this.#view(object, tag);
    }
    switch (tag) {
      case '[object Date]':
        this.#byte(T.date);
        return this.#double(object.getTime());
      case '[object RegExp]': {
        this.#byte(T.regexp);
        this.#string(object.source);
        let flags = 0;
        for (const [letter, bit] of REGEXP_FLAGS) if (object.flags.includes(letter)) flags |= bit;
        return this.#varint(flags);
      }
      case '[object Map]': {
        this.#byte(T.beginMap);
        const entries = [...Map.prototype.entries.call(object)];
        for (const [k, v] of entries) {
          this.#write(k);
          this.#write(v);
        }
        this.#byte(T.endMap);
        return this.#varint(entries.length * 2);
      }
      case '[object Set]': {
        this.#byte(T.beginSet);
        const values = [...Set.prototype.values.call(object)];
        for (const v of values) this.#write(v);
        this.#byte(T.endSet);
        return this.#varint(values.length);
      }
      case '[object ArrayBuffer]': {
        if (this.#transferred.has(object)) {
          this.#byte(T.arrayBufferTransfer);
          return this.#varint(this.#transferred.get(object));
        }
        if (object.resizable) {
          this.#byte(T.resizableArrayBuffer);
          this.#varint(object.byteLength);
          this.#varint(object.maxByteLength);
        } else {
          this.#byte(T.arrayBuffer);
          this.#varint(object.byteLength);
        }
        return this.#raw(new Uint8Array(object));
      }
      case '[object Boolean]':
        return this.#byte(Boolean.prototype.valueOf.call(object) ? T.trueObject : T.falseObject);
      case '[object Number]':
        this.#byte(T.numberObject);
        return this.#double(Number.prototype.valueOf.call(object));
      case '[object BigInt]':
        this.#byte(T.bigintObject);
        return this.#bigintContents(BigInt.prototype.valueOf.call(object));
      case '[object String]':
        this.#byte(T.stringObject);
        return this.#string(String.prototype.valueOf.call(object));
      case '[object Error]':
        return this.#error(object);
      case '[object Object]':
        if (isPlainEnough(object)) return this.#object(object);
        break;
      default:
        break;
    }
    throw dataCloneError(this._getDataCloneError, object);
  }

  #properties(object, keys) {
    for (const key of keys) {
      const index = arrayIndex(key);
      if (index === null) this.#string(key);
      else this.#number(index);
      this.#write(object[key]);
    }
    return keys.length;
  }

  #object(object) {
    this.#byte(T.beginObject);
    const count = this.#properties(object, Object.keys(object));
    this.#byte(T.endObject);
    this.#varint(count);
  }

  #array(array) {
    const { length } = array;
    const keys = Object.keys(array);
    let holes = false;
    for (let i = 0; i < length; i++) {
      if (!Object.hasOwn(array, i)) {
        holes = true;
        break;
      }
    }
    if (holes) {
      this.#byte(T.beginSparseArray);
      this.#varint(length);
      const count = this.#properties(array, keys);
      this.#byte(T.endSparseArray);
      this.#varint(count);
      this.#varint(length);
      return;
    }
    this.#byte(T.beginDenseArray);
    this.#varint(length);
    const doubles = length > 0 && array.every((v) => typeof v === 'number') && array.some((v) => !isSmi(v));
    for (let i = 0; i < length; i++) {
      if (doubles) {
        this.#byte(T.double);
        this.#double(array[i]);
      } else {
        this.#write(array[i]);
      }
    }
    const count = this.#properties(array, keys.slice(length));
    this.#byte(T.endDenseArray);
    this.#varint(count);
    this.#varint(length);
  }

  #view(view, tag) {
    const name = tag.slice(8, -1);
    const entry = VIEW_TAGS.find(([n]) => n === name);
    if (!entry) throw dataCloneError(this._getDataCloneError, view);
    this.#byte(T.arrayBufferView);
    this.#byte(entry[1]);
    this.#varint(view.byteOffset);
    this.#varint(view.byteLength);
    // Flags: whether the view tracks a resizable buffer's length.
    this.#varint(0);
  }

  #error(error) {
    this.#byte(T.error);
    const name = dataProperty(error, 'name');
    const prototype = ERROR_PROTOTYPES.find(([n]) => n === name);
    if (prototype) this.#varint(prototype[1]);
    const message = Object.getOwnPropertyDescriptor(error, 'message');
    if (message && 'value' in message) {
      this.#varint(ERROR_MESSAGE);
      this.#string(String(message.value));
    }
    const stack = dataProperty(error, 'stack');
    if (typeof stack === 'string') {
      this.#varint(ERROR_STACK);
      this.#string(stack);
    }
    const cause = Object.getOwnPropertyDescriptor(error, 'cause');
    if (cause && 'value' in cause) {
      this.#varint(ERROR_CAUSE);
      this.#write(cause.value);
    }
    this.#varint(ERROR_END);
  }
}
Serializer.prototype._getDataCloneError = Error;

function varintLength(n) {
  let length = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 128);
    length++;
  }
  return length;
}

// An array index key ("0" ... "4294967294") as a number, or null.
function arrayIndex(key) {
  if (!/^(?:0|[1-9]\d{0,9})$/.test(key)) return null;
  const n = Number(key);
  return n <= 4294967294 ? n : null;
}

// A data property found along the prototype chain (no getters run).
function dataProperty(object, key) {
  for (let o = object; o !== null; o = Object.getPrototypeOf(o)) {
    const d = Object.getOwnPropertyDescriptor(o, key);
    if (d) return 'value' in d ? d.value : undefined;
  }
  return undefined;
}

// Objects V8 clones as plain objects: not exotic ones (Proxy, WeakMap,
// Promise... are told apart by their tags above) and not class instances
// of the engine's own kinds.
function isPlainEnough(object) {
  return typeof object === 'object';
}

// ---------------------------------------------------------------- Deserializer

class Deserializer {
  #bytes;
  #pos = 0;
  #version = 0;
  #objects = [];
  #transferred = new Map();

  constructor(buffer) {
    if (!ArrayBuffer.isView(buffer)) throw invalidArgType('buffer', ['Buffer', 'TypedArray', 'DataView'], buffer);
    this.buffer = buffer;
    this.#bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  }

  #fail() {
    return new Error('Unable to deserialize cloned data.');
  }

  #byte() {
    if (this.#pos >= this.#bytes.length) throw this.#fail();
    return this.#bytes[this.#pos++];
  }

  #peek() {
    return this.#pos < this.#bytes.length ? this.#bytes[this.#pos] : -1;
  }

  #varint() {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const b = this.#byte();
      result |= BigInt(b & 0x7f) << shift;
      shift += 7n;
      if (!(b & 0x80)) return result;
      if (shift > 70n) throw this.#fail();
    }
  }

  #uint() {
    return Number(this.#varint());
  }

  #doubleValue() {
    const bytes = this.#take(8);
    return new DataView(bytes.buffer, bytes.byteOffset, 8).getFloat64(0, true);
  }

  #take(n) {
    if (this.#pos + n > this.#bytes.length) throw this.#fail();
    const out = this.#bytes.subarray(this.#pos, this.#pos + n);
    this.#pos += n;
    return out;
  }

  readHeader() {
    if (this.#peek() === T.version) {
      this.#byte();
      this.#version = this.#uint();
      if (this.#version > LATEST_VERSION) {
        throw new Error(`Unable to deserialize cloned data due to invalid or unsupported version.`);
      }
    }
    return true;
  }

  getWireFormatVersion() {
    return this.#version;
  }

  readValue() {
    return this.#read();
  }

  transferArrayBuffer(id, arrayBuffer) {
    if (!(arrayBuffer instanceof ArrayBuffer)) throw invalidArgType('arrayBuffer', ['ArrayBuffer', 'SharedArrayBuffer'], arrayBuffer);
    this.#transferred.set(id >>> 0, arrayBuffer);
  }

  readUint32() {
    return Number(this.#varint() & 0xffffffffn);
  }

  readUint64() {
    const v = this.#varint() & 0xffffffffffffffffn;
    return [Number(v >> 32n), Number(v & 0xffffffffn)];
  }

  readDouble() {
    return this.#doubleValue();
  }

  _readRawBytes(length) {
    const offset = this.#pos;
    this.#take(length);
    return offset;
  }

  readRawBytes(length) {
    const offset = this._readRawBytes(length);
    return Buffer.from(this.buffer.buffer, this.buffer.byteOffset + offset, length);
  }

  _readHostObject() {
    throw new Error('Unable to deserialize cloned data.');
  }

  #string(tag) {
    const length = this.#uint();
    const bytes = this.#take(length);
    if (tag === T.oneByteString) {
      let s = '';
      for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
      return s;
    }
    if (tag === T.twoByteString) {
      if (length % 2) throw this.#fail();
      let s = '';
      for (let i = 0; i < length; i += 2) s += String.fromCharCode(bytes[i] | (bytes[i + 1] << 8));
      return s;
    }
    return new TextDecoder().decode(bytes);
  }

  #readString() {
    let tag = this.#byte();
    while (tag === T.padding) tag = this.#byte();
    if (tag !== T.oneByteString && tag !== T.twoByteString && tag !== T.utf8String) throw this.#fail();
    return this.#string(tag);
  }

  #bigint() {
    const bitfield = this.#varint();
    const negative = (bitfield & 1n) === 1n;
    const byteLength = Number(bitfield >> 1n);
    const bytes = this.#take(byteLength);
    let n = 0n;
    for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]);
    return negative ? -n : n;
  }

  #remember(value) {
    this.#objects.push(value);
    return value;
  }

  #properties(target, endTag) {
    let count = 0;
    for (;;) {
      if (this.#peek() === endTag) {
        this.#byte();
        return count;
      }
      const key = this.#read();
      target[key] = this.#read();
      count++;
    }
  }

  #read() {
    const tag = this.#byte();
    switch (tag) {
      case T.padding:
        return this.#read();
      case T.verifyObjectCount:
        this.#varint();
        return this.#read();
      case T.undefined:
        return undefined;
      case T.null:
        return null;
      case T.true:
        return true;
      case T.false:
        return false;
      case T.int32: {
        const z = Number(this.#varint() & 0xffffffffn);
        return (z >>> 1) ^ -(z & 1);
      }
      case T.uint32:
        return Number(this.#varint() & 0xffffffffn);
      case T.double:
        return this.#doubleValue();
      case T.bigint:
        return this.#bigint();
      case T.oneByteString:
      case T.twoByteString:
      case T.utf8String:
        return this.#string(tag);
      case T.objectReference: {
        const id = this.#uint();
        if (id >= this.#objects.length) throw this.#fail();
        return this.#objects[id];
      }
      case T.beginObject: {
        const object = this.#remember({});
        const count = this.#properties(object, T.endObject);
        if (this.#uint() !== count) throw this.#fail();
        return object;
      }
      case T.beginSparseArray: {
        const length = this.#uint();
        const array = this.#remember(new Array(length));
        const count = this.#properties(array, T.endSparseArray);
        if (this.#uint() !== count || this.#uint() !== length) throw this.#fail();
        return array;
      }
      case T.beginDenseArray: {
        const length = this.#uint();
        const array = this.#remember(new Array(length));
        for (let i = 0; i < length; i++) {
          if (this.#peek() === T.theHole) this.#byte();
          else array[i] = this.#read();
        }
        const count = this.#properties(array, T.endDenseArray);
        if (this.#uint() !== count || this.#uint() !== length) throw this.#fail();
        return array;
      }
      case T.date:
        return this.#remember(new Date(this.#doubleValue()));
      case T.trueObject:
        return this.#remember(Object(true));
      case T.falseObject:
        return this.#remember(Object(false));
      case T.numberObject:
        return this.#remember(Object(this.#doubleValue()));
      case T.bigintObject:
        return this.#remember(Object(this.#bigint()));
      case T.stringObject:
        return this.#remember(Object(this.#readString()));
      case T.regexp: {
        const source = this.#readString();
        const bits = this.#uint();
        const flags = REGEXP_FLAGS.filter(([, bit]) => bits & bit).map(([letter]) => letter).join('');
        return this.#remember(new RegExp(source, flags));
      }
      case T.beginMap: {
        const map = this.#remember(new Map());
        let count = 0;
        while (this.#peek() !== T.endMap) {
          const k = this.#read();
          map.set(k, this.#read());
          count += 2;
        }
        this.#byte();
        if (this.#uint() !== count) throw this.#fail();
        return map;
      }
      case T.beginSet: {
        const set = this.#remember(new Set());
        let count = 0;
        while (this.#peek() !== T.endSet) {
          set.add(this.#read());
          count++;
        }
        this.#byte();
        if (this.#uint() !== count) throw this.#fail();
        return set;
      }
      case T.arrayBuffer: {
        const length = this.#uint();
        const buffer = this.#take(length).slice().buffer;
        return this.#maybeView(this.#remember(buffer));
      }
      case T.resizableArrayBuffer: {
        const length = this.#uint();
        const max = this.#uint();
        const buffer = new ArrayBuffer(length, { maxByteLength: max });
        new Uint8Array(buffer).set(this.#take(length));
        return this.#maybeView(this.#remember(buffer));
      }
      case T.arrayBufferTransfer: {
        const id = this.#uint();
        if (!this.#transferred.has(id)) throw this.#fail();
        return this.#maybeView(this.#remember(this.#transferred.get(id)));
      }
      case T.hostObject: {
        const index = this.#objects.length;
        this.#objects.push(undefined);
        const object = this._readHostObject();
        this.#objects[index] = object;
        return object;
      }
      case T.error:
        return this.#error();
      default:
        throw this.#fail();
    }
  }

  // A view written right after its buffer.
  #maybeView(buffer) {
    if (this.#peek() !== T.arrayBufferView) return buffer;
    this.#byte();
    const sub = this.#byte();
    const byteOffset = this.#uint();
    const byteLength = this.#uint();
    if (this.#version >= 14) this.#uint();
    const entry = VIEW_TAGS.find(([, t]) => t === sub);
    if (!entry) throw this.#fail();
    const Ctor = globalThis[entry[0]];
    if (typeof Ctor !== 'function') throw this.#fail();
    const size = Ctor.BYTES_PER_ELEMENT || 1;
    return this.#remember(entry[0] === 'DataView' ? new DataView(buffer, byteOffset, byteLength) : new Ctor(buffer, byteOffset, byteLength / size));
  }

  #error() {
    let Ctor = Error;
    let message;
    let stack;
    let cause;
    let hasCause = false;
    for (;;) {
      const tag = this.#uint();
      const prototype = ERROR_PROTOTYPES.find(([, t]) => t === tag);
      if (prototype) Ctor = globalThis[prototype[0]];
      else if (tag === ERROR_MESSAGE) message = this.#readString();
      else if (tag === ERROR_STACK) stack = this.#readString();
      else if (tag === ERROR_CAUSE) {
        hasCause = true;
        cause = this.#read();
      } else if (tag === ERROR_END) break;
      else throw this.#fail();
    }
    const error = message === undefined ? new Ctor() : new Ctor(message);
    if (hasCause) Object.defineProperty(error, 'cause', { value: cause, writable: true, configurable: true, enumerable: false });
    Object.defineProperty(error, 'stack', { value: stack, writable: true, configurable: true, enumerable: false });
    return this.#remember(error);
  }
}

// Node's serialize(): Buffers and typed arrays as host objects holding
// just the view's bytes (index of the view's type, length, bytes).
const VIEW_INDEX = [
  'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array',
  'Float64Array', 'DataView', 'Buffer', 'BigInt64Array', 'BigUint64Array', 'Float16Array',
];

class DefaultSerializer extends Serializer {
  constructor() {
    super();
    this._setTreatArrayBufferViewsAsHostObjects(true);
  }

  _writeHostObject(view) {
    let index = VIEW_INDEX.indexOf(toStr(view).slice(8, -1));
    if (Buffer.isBuffer(view)) index = 10;
    if (index === -1) throw new this._getDataCloneError(`Unserializable host object: ${toStr(view)}`);
    this.writeUint32(index);
    this.writeUint32(view.byteLength);
    this.writeRawBytes(new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
  }
}

class DefaultDeserializer extends Deserializer {
  _readHostObject() {
    const index = this.readUint32();
    const name = VIEW_INDEX[index];
    const Ctor = name === 'Buffer' ? Buffer : name === undefined ? undefined : globalThis[name];
    if (typeof Ctor !== 'function') throw nodeError(Error, 'ERR_INVALID_ARG_VALUE', 'Unable to deserialize cloned data.');
    const byteLength = this.readUint32();
    const offset = this._readRawBytes(byteLength);
    // A copy, aligned for the view's element size.
    const copy = new Uint8Array(byteLength);
    copy.set(new Uint8Array(this.buffer.buffer, this.buffer.byteOffset + offset, byteLength));
    if (Ctor === Buffer) return Buffer.from(copy.buffer);
    if (Ctor === DataView) return new DataView(copy.buffer);
    return new Ctor(copy.buffer, 0, byteLength / (Ctor.BYTES_PER_ELEMENT || 1));
  }
}

function serialize(value) {
  const serializer = new DefaultSerializer();
  serializer.writeHeader();
  serializer.writeValue(value);
  return serializer.releaseBuffer();
}

function deserialize(buffer) {
  const deserializer = new DefaultDeserializer(buffer);
  deserializer.readHeader();
  return deserializer.readValue();
}

module.exports = { Serializer, Deserializer, DefaultSerializer, DefaultDeserializer, serialize, deserialize };
