// Decoding chunked UTF-8 safely, and using assert for invariants in business code.
const { StringDecoder } = require('string_decoder');
const assert = require('assert');

module.exports = {
  main: function (event) {
    const bytes = Buffer.from('€uro ☕ 🚀', 'utf8');
    const decoder = new StringDecoder('utf8');
    const pieces = [];
    for (let i = 0; i < bytes.length; i += 2) pieces.push(decoder.write(bytes.subarray(i, i + 2)));
    pieces.push(decoder.end());
    const naive = [];
    for (let i = 0; i < bytes.length; i += 2) naive.push(bytes.subarray(i, i + 2).toString('utf8'));

    const order = event.data || { id: 1, lines: [{ sku: 'A', qty: 1 }] };
    const checks = {};
    try {
      assert.deepStrictEqual(order.lines, [{ sku: 'A', qty: 1 }]);
      checks.deepStrictEqual = 'passed';
    } catch (err) {
      checks.deepStrictEqual = { name: err.name, code: err.code, operator: err.operator, generatedMessage: err.generatedMessage };
    }
    try {
      assert.strictEqual(order.id, 1, 'order id must be 1');
      checks.strictEqual = 'passed';
    } catch (err) {
      checks.strictEqual = { message: err.message, actual: err.actual, expected: err.expected };
    }
    try {
      assert.ok(order.lines.length > 0);
      checks.ok = 'passed';
    } catch (err) {
      checks.ok = { code: err.code, operator: err.operator };
    }
    try {
      assert.throws(() => JSON.parse('{'), SyntaxError);
      checks.throws = 'passed';
    } catch (err) {
      checks.throws = err.message;
    }
    try {
      assert.strictEqual(1, 2);
    } catch (err) {
      checks.generated = { message: err.message, isAssertionError: err instanceof assert.AssertionError };
    }
    return { pieces, joined: pieces.join(''), naiveJoinedOk: naive.join('') === bytes.toString(), checks };
  },
};
