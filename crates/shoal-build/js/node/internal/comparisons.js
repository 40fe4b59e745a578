'use strict';
// Deep equality as Node.js defines it for assert.deepEqual (loose) and
// assert.deepStrictEqual / util.isDeepStrictEqual (strict); a port of the
// algorithm in Node's lib/internal/util/comparisons.js.

const types = require('../util/types');

const kNoIterator = 0;
const kIsArray = 1;
const kIsSet = 2;
const kIsMap = 3;

const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
const isEnumerable = (o, k) => Object.prototype.propertyIsEnumerable.call(o, k);
const toStr = (v) => Object.prototype.toString.call(v);

function nonIndexKeys(val, strict) {
  const keys = Object.keys(val).filter((k) => !/^(0|[1-9][0-9]*)$/.test(k) || Number(k) >= 2 ** 32 - 1);
  if (strict) for (const s of Object.getOwnPropertySymbols(val)) if (isEnumerable(val, s)) keys.push(s);
  return keys;
}

function bytesOf(v) {
  return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
}

function equalBytes(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function isEqualBoxedPrimitive(val1, val2) {
  if (types.isNumberObject(val1)) {
    return types.isNumberObject(val2) && Object.is(Number.prototype.valueOf.call(val1), Number.prototype.valueOf.call(val2));
  }
  if (types.isStringObject(val1)) {
    return types.isStringObject(val2) && String.prototype.valueOf.call(val1) === String.prototype.valueOf.call(val2);
  }
  if (types.isBooleanObject(val1)) {
    return types.isBooleanObject(val2) && Boolean.prototype.valueOf.call(val1) === Boolean.prototype.valueOf.call(val2);
  }
  if (types.isBigIntObject(val1)) {
    return types.isBigIntObject(val2) && BigInt.prototype.valueOf.call(val1) === BigInt.prototype.valueOf.call(val2);
  }
  if (types.isSymbolObject(val1)) {
    return types.isSymbolObject(val2) && Symbol.prototype.valueOf.call(val1) === Symbol.prototype.valueOf.call(val2);
  }
  return false;
}

const isErrorLike = (v) => types.isNativeError(v) || v instanceof Error;

function innerDeepEqual(val1, val2, strict, memos) {
  if (val1 === val2) {
    if (val1 !== 0) return true;
    return strict ? Object.is(val1, val2) : true;
  }
  if (strict) {
    if (typeof val1 !== 'object') return typeof val1 === 'number' && Number.isNaN(val1) && Number.isNaN(val2);
    if (typeof val2 !== 'object' || val1 === null || val2 === null) return false;
    if (Object.getPrototypeOf(val1) !== Object.getPrototypeOf(val2)) return false;
  } else {
    if (val1 === null || typeof val1 !== 'object') {
      if (val2 === null || typeof val2 !== 'object') {
        // eslint-disable-next-line eqeqeq
        return val1 == val2 || (Number.isNaN(val1) && Number.isNaN(val2));
      }
      return false;
    }
    if (val2 === null || typeof val2 !== 'object') return false;
  }
  const val1Tag = toStr(val1);
  const val2Tag = toStr(val2);
  if (val1Tag !== val2Tag) return false;

  if (Array.isArray(val1)) {
    if (!Array.isArray(val2) || val1.length !== val2.length) return false;
    const keys1 = nonIndexKeys(val1, strict);
    const keys2 = nonIndexKeys(val2, strict);
    if (keys1.length !== keys2.length) return false;
    return keyCheck(val1, val2, strict, memos, kIsArray, keys1);
  } else if (val1Tag === '[object Object]') {
    return keyCheck(val1, val2, strict, memos, kNoIterator);
  } else if (types.isDate(val1)) {
    if (!types.isDate(val2) || Date.prototype.getTime.call(val1) !== Date.prototype.getTime.call(val2)) return false;
  } else if (types.isRegExp(val1)) {
    if (!types.isRegExp(val2) || val1.source !== val2.source || val1.flags !== val2.flags ||
        val1.lastIndex !== val2.lastIndex) return false;
  } else if (isErrorLike(val1)) {
    if (!isErrorLike(val2) || val1.message !== val2.message || val1.name !== val2.name) return false;
  } else if (ArrayBuffer.isView(val1)) {
    if (!strict && (types.isFloat32Array(val1) || types.isFloat64Array(val1))) {
      if (val1.byteLength !== val2.byteLength) return false;
      for (let i = 0; i < val1.length; i++) if (val1[i] !== val2[i]) return false;
    } else if (!equalBytes(bytesOf(val1), bytesOf(val2))) {
      return false;
    }
    const keys1 = nonIndexKeys(val1, strict);
    const keys2 = nonIndexKeys(val2, strict);
    if (keys1.length !== keys2.length) return false;
    return keyCheck(val1, val2, strict, memos, kNoIterator, keys1);
  } else if (types.isSet(val1)) {
    if (!types.isSet(val2) || val1.size !== val2.size) return false;
    return keyCheck(val1, val2, strict, memos, kIsSet);
  } else if (types.isMap(val1)) {
    if (!types.isMap(val2) || val1.size !== val2.size) return false;
    return keyCheck(val1, val2, strict, memos, kIsMap);
  } else if (types.isAnyArrayBuffer(val1)) {
    if (!types.isAnyArrayBuffer(val2) || !equalBytes(new Uint8Array(val1), new Uint8Array(val2))) return false;
  } else if (types.isBoxedPrimitive(val1)) {
    if (!isEqualBoxedPrimitive(val1, val2)) return false;
  } else if (Array.isArray(val2) || ArrayBuffer.isView(val2) || types.isSet(val2) || types.isMap(val2) ||
      types.isDate(val2) || types.isRegExp(val2) || types.isAnyArrayBuffer(val2) || types.isBoxedPrimitive(val2) ||
      isErrorLike(val2)) {
    return false;
  }
  return keyCheck(val1, val2, strict, memos, kNoIterator);
}

function keyCheck(val1, val2, strict, memos, iterationType, aKeys) {
  const explicitKeys = aKeys !== undefined;
  if (!explicitKeys) {
    aKeys = Object.keys(val1);
    const bKeys = Object.keys(val2);
    if (aKeys.length !== bKeys.length) return false;
  }
  for (let i = 0; i < aKeys.length; i++) {
    if (typeof aKeys[i] === 'string' && !hasOwn(val2, aKeys[i])) return false;
    if (typeof aKeys[i] === 'symbol' && !isEnumerable(val2, aKeys[i])) return false;
  }
  if (strict && !explicitKeys) {
    const symbolKeysA = Object.getOwnPropertySymbols(val1);
    if (symbolKeysA.length !== 0) {
      let count = 0;
      for (const key of symbolKeysA) {
        if (isEnumerable(val1, key)) {
          if (!isEnumerable(val2, key)) return false;
          aKeys.push(key);
          count++;
        } else if (isEnumerable(val2, key)) {
          return false;
        }
      }
      const symbolKeysB = Object.getOwnPropertySymbols(val2);
      if (symbolKeysA.length !== symbolKeysB.length && symbolKeysB.filter((k) => isEnumerable(val2, k)).length !== count) {
        return false;
      }
    } else {
      const symbolKeysB = Object.getOwnPropertySymbols(val2);
      if (symbolKeysB.length !== 0 && symbolKeysB.some((k) => isEnumerable(val2, k))) return false;
    }
  }
  if (aKeys.length === 0 &&
      (iterationType === kNoIterator || (iterationType === kIsArray && val1.length === 0) || val1.size === 0)) {
    return true;
  }
  // Memos break cycles: a pair already being compared at the same
  // position counts as equal.
  if (memos === undefined) {
    memos = { val1: new Map(), val2: new Map(), position: 0 };
  } else {
    const val2MemoA = memos.val1.get(val1);
    if (val2MemoA !== undefined) {
      const val2MemoB = memos.val2.get(val2);
      if (val2MemoB !== undefined) return val2MemoA === val2MemoB;
    }
    memos.position++;
  }
  memos.val1.set(val1, memos.position);
  memos.val2.set(val2, memos.position);
  const areEq = objEquiv(val1, val2, strict, aKeys, memos, iterationType);
  memos.val1.delete(val1);
  memos.val2.delete(val2);
  return areEq;
}

function setHasEqualElement(set, val1, strict, memo) {
  for (const val2 of set) {
    if (innerDeepEqual(val1, val2, strict, memo)) {
      set.delete(val2);
      return true;
    }
  }
  return false;
}

// Loose equality lets 1 and '1' (and null and undefined) match in Sets
// and Maps; these helpers find such partners.
function findLooseMatchingPrimitives(prim) {
  switch (typeof prim) {
    case 'undefined':
      return null;
    case 'object':
      return undefined;
    case 'symbol':
      return false;
    case 'string':
      prim = +prim;
    // falls through
    case 'number':
      if (Number.isNaN(prim)) return false;
  }
  return true;
}

function setMightHaveLoosePrim(a, b, prim) {
  const altValue = findLooseMatchingPrimitives(prim);
  if (altValue != null) return altValue;
  return b.has(altValue) && !a.has(altValue);
}

function mapMightHaveLoosePrim(a, b, prim, item, memo) {
  const altValue = findLooseMatchingPrimitives(prim);
  if (altValue != null) return altValue;
  const curB = b.get(altValue);
  if ((curB === undefined && !b.has(altValue)) || !innerDeepEqual(item, curB, false, memo)) return false;
  return !a.has(altValue) && innerDeepEqual(item, curB, false, memo);
}

function setEquiv(a, b, strict, memo) {
  let set = null;
  for (const val of a) {
    if (typeof val === 'object' && val !== null) {
      if (set === null) set = new Set();
      set.add(val);
    } else if (!b.has(val)) {
      if (strict) return false;
      if (!setMightHaveLoosePrim(a, b, val)) return false;
      if (set === null) set = new Set();
      set.add(val);
    }
  }
  if (set !== null) {
    for (const val of b) {
      if (typeof val === 'object' && val !== null) {
        if (!setHasEqualElement(set, val, strict, memo)) return false;
      } else if (!strict && !a.has(val) && !setHasEqualElement(set, val, strict, memo)) {
        return false;
      }
    }
    return set.size === 0;
  }
  return true;
}

function mapHasEqualEntry(set, map, key1, item1, strict, memo) {
  for (const key2 of set) {
    if (innerDeepEqual(key1, key2, strict, memo) && innerDeepEqual(item1, map.get(key2), strict, memo)) {
      set.delete(key2);
      return true;
    }
  }
  return false;
}

function mapEquiv(a, b, strict, memo) {
  let set = null;
  for (const [key, item1] of a) {
    if (typeof key === 'object' && key !== null) {
      if (set === null) set = new Set();
      set.add(key);
    } else {
      const item2 = b.get(key);
      if ((item2 === undefined && !b.has(key)) || !innerDeepEqual(item1, item2, strict, memo)) {
        if (strict) return false;
        if (!mapMightHaveLoosePrim(a, b, key, item1, memo)) return false;
        if (set === null) set = new Set();
        set.add(key);
      }
    }
  }
  if (set !== null) {
    for (const [key, item] of b) {
      if (typeof key === 'object' && key !== null) {
        if (!mapHasEqualEntry(set, a, key, item, strict, memo)) return false;
      } else if (!strict && (!a.has(key) || !innerDeepEqual(a.get(key), item, false, memo)) &&
                 !mapHasEqualEntry(set, a, key, item, false, memo)) {
        return false;
      }
    }
    return set.size === 0;
  }
  return true;
}

function objEquiv(a, b, strict, keys, memos, iterationType) {
  let i = 0;
  if (iterationType === kIsSet) {
    if (!setEquiv(a, b, strict, memos)) return false;
  } else if (iterationType === kIsMap) {
    if (!mapEquiv(a, b, strict, memos)) return false;
  } else if (iterationType === kIsArray) {
    for (; i < a.length; i++) {
      if (hasOwn(a, i)) {
        if (!hasOwn(b, i) || !innerDeepEqual(a[i], b[i], strict, memos)) return false;
      } else if (hasOwn(b, i)) {
        return false;
      } else {
        const keysA = Object.keys(a);
        for (; i < keysA.length; i++) {
          const key = keysA[i];
          if (!hasOwn(b, key) || !innerDeepEqual(a[key], b[key], strict, memos)) return false;
        }
        return keysA.length === Object.keys(b).length;
      }
    }
  }
  for (i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (!innerDeepEqual(a[key], b[key], strict, memos)) return false;
  }
  return true;
}

module.exports = {
  isDeepEqual: (a, b) => innerDeepEqual(a, b, false),
  isDeepStrictEqual: (a, b) => innerDeepEqual(a, b, true),
};
