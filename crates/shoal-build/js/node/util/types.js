'use strict';
// util.types: brand checks without Node's internal bindings. Where the
// language offers a brand-checking method (a getter or method that throws on
// a foreign object) it is used, so Symbol.toStringTag cannot fool it.

const toStr = (v) => Object.prototype.toString.call(v);
const isObj = (v) => v !== null && (typeof v === 'object' || typeof v === 'function');

function brand(fn) {
  return (v) => {
    if (!isObj(v)) return false;
    try {
      fn(v);
      return true;
    } catch {
      return false;
    }
  };
}

const getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
const TypedArrayProto = Object.getPrototypeOf(Uint8Array.prototype);
const typedArrayTag = getter(TypedArrayProto, Symbol.toStringTag);
const typedTag = (v) => (isObj(v) ? typedArrayTag.call(v) : undefined);

const abByteLength = getter(ArrayBuffer.prototype, 'byteLength');
const sabByteLength = typeof SharedArrayBuffer === 'function' ? getter(SharedArrayBuffer.prototype, 'byteLength') : null;
const dvByteLength = getter(DataView.prototype, 'byteLength');
const regexpSource = getter(RegExp.prototype, 'source');

const isArrayBuffer = brand((v) => abByteLength.call(v));
const isSharedArrayBuffer = sabByteLength ? brand((v) => sabByteLength.call(v)) : () => false;
const isMap = brand((v) => Map.prototype.has.call(v));
const isSet = brand((v) => Set.prototype.has.call(v));
const isWeakMap = brand((v) => WeakMap.prototype.has.call(v, {}));
const isWeakSet = brand((v) => WeakSet.prototype.has.call(v, {}));

const fnTag = (v) => (typeof v === 'function' ? v[Symbol.toStringTag] : undefined);

const types = {
  isAnyArrayBuffer: (v) => isArrayBuffer(v) || isSharedArrayBuffer(v),
  isArrayBuffer,
  isSharedArrayBuffer,
  isArrayBufferView: (v) => ArrayBuffer.isView(v),
  isArgumentsObject: (v) => isObj(v) && toStr(v) === '[object Arguments]',
  isAsyncFunction: (v) => fnTag(v) === 'AsyncFunction' || fnTag(v) === 'AsyncGeneratorFunction',
  isGeneratorFunction: (v) => fnTag(v) === 'GeneratorFunction' || fnTag(v) === 'AsyncGeneratorFunction',
  isGeneratorObject: (v) => isObj(v) && toStr(v) === '[object Generator]',
  isBigInt64Array: (v) => typedTag(v) === 'BigInt64Array',
  isBigUint64Array: (v) => typedTag(v) === 'BigUint64Array',
  isFloat32Array: (v) => typedTag(v) === 'Float32Array',
  isFloat64Array: (v) => typedTag(v) === 'Float64Array',
  isInt8Array: (v) => typedTag(v) === 'Int8Array',
  isInt16Array: (v) => typedTag(v) === 'Int16Array',
  isInt32Array: (v) => typedTag(v) === 'Int32Array',
  isUint8Array: (v) => typedTag(v) === 'Uint8Array',
  isUint8ClampedArray: (v) => typedTag(v) === 'Uint8ClampedArray',
  isUint16Array: (v) => typedTag(v) === 'Uint16Array',
  isUint32Array: (v) => typedTag(v) === 'Uint32Array',
  isTypedArray: (v) => typedTag(v) !== undefined,
  isDataView: brand((v) => dvByteLength.call(v)),
  isDate: brand((v) => Date.prototype.getTime.call(v)),
  isRegExp: brand((v) => regexpSource.call(v)) ,
  isMap,
  isSet,
  isWeakMap,
  isWeakSet,
  isMapIterator: (v) => isObj(v) && toStr(v) === '[object Map Iterator]',
  isSetIterator: (v) => isObj(v) && toStr(v) === '[object Set Iterator]',
  isPromise: (v) => isObj(v) && toStr(v) === '[object Promise]',
  isNativeError: (v) => isObj(v) && (toStr(v) === '[object Error]' || v instanceof Error),
  isNumberObject: brand((v) => Number.prototype.valueOf.call(v)),
  isStringObject: brand((v) => String.prototype.valueOf.call(v)),
  isBooleanObject: brand((v) => Boolean.prototype.valueOf.call(v)),
  isBigIntObject: brand((v) => BigInt.prototype.valueOf.call(v)),
  isSymbolObject: brand((v) => Symbol.prototype.valueOf.call(v)),
  isBoxedPrimitive: (v) => types.isNumberObject(v) || types.isStringObject(v) || types.isBooleanObject(v) ||
    types.isBigIntObject(v) || types.isSymbolObject(v),
  isModuleNamespaceObject: (v) => isObj(v) && toStr(v) === '[object Module]',
  // Proxies cannot be detected from JavaScript; Node uses an engine hook.
  isProxy: () => false,
  isExternal: () => false,
  isKeyObject: (v) => isObj(v) && v[Symbol.for('shoal.crypto.KeyObject')] === true,
  isCryptoKey: (v) => isObj(v) && v[Symbol.for('shoal.crypto.CryptoKey')] === true,
};

// RegExp.prototype itself passes the `source` brand check; it is no RegExp.
const isRegExpBrand = types.isRegExp;
types.isRegExp = (v) => v !== RegExp.prototype && isRegExpBrand(v);

module.exports = types;
