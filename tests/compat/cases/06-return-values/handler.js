// What the runtime does with each kind of return value.
module.exports = {
  main(event) {
    switch (event.extensions.request.query.kind) {
      case 'number': return 42;          // Kyma: res.end(42) throws -> 500 "Internal server error"
      case 'zero': return 0;             // falsy: empty 200
      case 'true': return true;          // res.end(true) throws -> 500
      case 'false': return false;        // falsy: empty 200
      case 'null': return null;          // empty 200
      case 'empty-string': return '';    // empty 200
      case 'string': return 'forty-two';
      case 'html': return '<h1>Hi</h1>';
      case 'array': return [1, 'two', { three: 3 }];
      case 'nested': return { a: { b: { c: [true, null, 1.5] } }, unicode: 'Zürich ✓' };
      case 'date': return { at: new Date(Date.UTC(2024, 0, 15, 9, 30)) };
      case 'undefined-fields': return { keep: 1, drop: undefined, fn: () => 1 };
      case 'promise-number': return Promise.resolve(7);
      case 'promise-string': return Promise.resolve('resolved');
      case 'bigint-json': return { big: 10n };    // JSON.stringify throws on BigInt -> 500
      default: return undefined;         // empty 200
    }
  },
};
