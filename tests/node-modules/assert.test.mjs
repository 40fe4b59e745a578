// node:assert and node:assert/strict: each assertion's outcome, the
// AssertionError's message (Node's diffs), code and operator.
import { diff } from './harness/cases.mjs';

const assertCases = [
  'M.assert.strictEqual(1, 2)', 'M.assert.strictEqual("a", "b")', 'M.assert.strictEqual("hello world", "hello there")',
  'M.assert.strictEqual({ a: 1 }, { a: 1 })', 'M.assert.deepStrictEqual({ a: 1, b: [1, 2] }, { a: 1, b: [1, 3] })',
  'M.assert.deepStrictEqual([1, 2, 3], [1, 2, 3, 4])', 'M.assert.deepStrictEqual({ a: 1 }, { a: "1" })',
  'M.assert.deepStrictEqual({ x: { y: { z: [1, 2, 3, 4, 5, 6, 7, 8] } }, k: 1 }, { x: { y: { z: [1, 2, 3, 4, 5, 6, 7, 9] } }, k: 1 })',
  'M.assert.deepEqual({ a: 1 }, { a: 2 })', 'M.assert.deepEqual({ a: 1 }, { a: "1" })', 'M.assert.equal(1, 2)', 'M.assert.equal(1, "1")',
  'M.assert.notEqual(1, "1")', 'M.assert.notStrictEqual(1, 1)', 'M.assert.notStrictEqual("long string here", "long string here")',
  'M.assert.notDeepStrictEqual({ a: 1 }, { a: 1 })', 'M.assert.notDeepEqual([1], ["1"])', 'M.assert.ok()', 'M.assert.ok(true)',
  'M.assert(1)', 'M.assert.ok(false, "custom message")', 'M.assert.fail()', 'M.assert.fail("boom")', 'M.assert.fail(1, 2)',
  'M.assert.throws(() => {})', 'M.assert.throws(() => { throw new TypeError("t"); }, TypeError)',
  'M.assert.throws(() => { throw new TypeError("t"); }, RangeError)', 'M.assert.throws(() => { throw new Error("abc"); }, /abc/)',
  'M.assert.throws(() => { throw new Error("abc"); }, /xyz/)', 'M.assert.throws(() => { throw new Error("abc"); }, { message: "abc" })',
  'M.assert.throws(() => { throw new Error("abc"); }, { message: "abd" })', 'M.assert.throws(() => {}, TypeError, "msg")',
  'M.assert.doesNotThrow(() => { throw new Error("oops"); })', 'M.assert.match("abc", /x/)', 'M.assert.match("abc", /b/)',
  'M.assert.doesNotMatch("abc", /b/)', 'M.assert.ifError(null)', 'M.assert.ifError(new Error("if"))', 'M.assert.strictEqual(NaN, NaN)',
  'M.assert.deepStrictEqual(new Set([1]), new Set([2]))', 'M.assert.deepStrictEqual(new Map([[1, 2]]), new Map([[1, 2]]))',
  'M.assert.strictEqual(1, 2, "my message")', 'M.assert.strictEqual(1, 2, new TypeError("own error"))',
  'M["assert/strict"].equal(1, "1")', 'M["assert/strict"].deepEqual({ a: 1 }, { a: "1" })',
  'M.assert.deepStrictEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [1, 2, 3, 4, 5, 6, 7, 8, 9, 11])',
];
for (const c of assertCases) {
  diff(`assert ${c}`, `try { ${c}; return "passed"; } catch (e) { return [e.name, e.code, e.message, e.generatedMessage, e.operator, String(e).split("\\n")[0]]; }`);
}
diff('assert.rejects', `
  return Promise.all([
    M.assert.rejects(Promise.reject(new Error("r")), /r/).then(() => "ok"),
    M.assert.rejects(Promise.resolve(1)).catch((e) => e.message),
    M.assert.rejects(async () => { throw new TypeError("x"); }, TypeError).then(() => "ok2"),
    M.assert.doesNotReject(Promise.reject(new Error("no"))).catch((e) => e.message)]);`);
diff('AssertionError class', `
  const e = new M.assert.AssertionError({ actual: 1, expected: 2, operator: "strictEqual" });
  return [e.name, e.code, e.message, e.actual, e.expected, e.operator, e instanceof Error, e.generatedMessage];`);
