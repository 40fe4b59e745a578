// node:util in everyday use: format for log lines, inspect for debugging, promisify.
const util = require('util');
const { promisify, types, inspect, format, isDeepStrictEqual } = require('node:util');

function legacyLookup(key, cb) {
  setTimeout(() => (key === 'missing' ? cb(new Error(`no ${key}`)) : cb(null, { key, value: key.length })), 2);
}
const lookup = promisify(legacyLookup);

module.exports = {
  main: async function () {
    const found = await lookup('region');
    let missing;
    try {
      await lookup('missing');
    } catch (err) {
      missing = err.message;
    }
    const order = { id: 7, customer: { name: 'Ada', tags: ['vip'] }, total: 12.5, paid: false, notes: null, extra: undefined };
    return {
      format: [
        format('%s ordered %d items for %i EUR', 'Ada', 3, 42.9),
        format('json %j', { a: 1 }),
        format('%o', [1]),
        format('%O', { x: { y: 1 } }),
        format('percent %% %s', 'x', 'extra', 1),
        format('%d', '12abc'),
        format(1, 'two', { three: 3 }),
      ],
      inspect: {
        order: inspect(order),
        nested: inspect({ a: { b: { c: { d: 1 } } } }),
        deep: inspect({ a: { b: { c: { d: 1 } } } }, { depth: 0 }),
        compact: inspect({ list: [1, 2, 3], s: 'str' }, { compact: true, breakLength: Infinity }),
        map: inspect(new Map([['k', 1]])),
        set: inspect(new Set(['a', 'b'])),
        date: inspect(new Date(Date.UTC(2024, 0, 2, 3, 4, 5))),
        string: inspect('quote\'s'),
        array: inspect(Array.from({ length: 3 }, (_, i) => i * 2)),
        fn: inspect(function namedFn() {}),
        err: inspect(new Error('boom')).split('\n')[0],
        symbol: inspect(Symbol('s')),
        bigint: inspect(10n),
        nul: inspect(null),
      },
      found,
      missing,
      types: {
        isDate: types.isDate(new Date()),
        isRegExp: types.isRegExp(/x/),
        isPromise: types.isPromise(Promise.resolve()),
        isUint8Array: types.isUint8Array(Buffer.from('x')),
        isAsyncFunction: types.isAsyncFunction(async () => {}),
      },
      deepEqual: [isDeepStrictEqual({ a: [1, 2] }, { a: [1, 2] }), isDeepStrictEqual({ a: 1 }, { a: '1' })],
      textCoders: new util.TextDecoder().decode(new util.TextEncoder().encode('üñî')),
      inherits: typeof util.inherits,
      deprecate: typeof util.deprecate(() => 1, 'old'),
    };
  },
};
