// node:util and node:util/types: inspect and format as Node prints them,
// isDeepStrictEqual, promisify/callbackify, types, parseEnv; TextEncoder
// and TextDecoder (also globals).
import { check, diff, underNode } from './harness/cases.mjs';

const inspectInputs = [
  '1', '-0', 'NaN', '123n', '"str"', '"it\'s"', '"a\\"b\'c"', '"line\\nbreak\\ttab\\u0001"', 'undefined', 'null', 'true',
  'Symbol("s")', '[]', '[1, 2, 3]', '["a", "b"]', '{}', '{ a: 1, b: "two", c: [3] }', '{ "a-b": 1, "1x": 2, _ok: 3 }',
  '{ a: { b: { c: { d: { e: 1 } } } } }', '[[1, [2, [3, [4, [5]]]]]]', 'new Date(0)', 'new Date(NaN)', '/ab+c/gi',
  'new Map([["a", 1], ["b", { c: 2 }]])', 'new Set([1, "2", [3]])', 'new Map()', 'new Set()',
  'new Uint8Array([1, 2, 3])', 'new Float64Array(2)', 'new ArrayBuffer(4)', 'new DataView(new ArrayBuffer(2))',
  'function foo() {}', '() => {}', 'async function bar() {}', 'function* gen() {}', 'class A {}', 'class B extends Array {}',
  'Object.assign(function f() {}, { x: 1 })', 'new (class Foo { constructor() { this.x = 1; } })()',
  'new (class Empty {})()', 'Object.create(null)', 'Object.assign(Object.create(null), { a: 1 })',
  '(() => { const o = { name: "o" }; o.self = o; return o; })()', '(() => { const a = [1]; a.push(a); return a; })()',
  '[1, , 3]', 'new Array(5)', '[undefined, null]', 'Array.from({ length: 30 }, (_, i) => i)',
  'Array.from({ length: 120 }, (_, i) => i * 1000)', 'Array.from({ length: 26 }, (_, i) => String.fromCharCode(97 + i).repeat(i % 5 + 1))',
  '{ arr: Array.from({ length: 10 }, (_, i) => ({ id: i, name: "item" + i })) }', '"x".repeat(200)',
  '{ long: "word ".repeat(30) }', '{ multi: "line one\\nline two\\nline three and some more text to make it long enough" }',
  '[new Error("boom")].map((e) => { e.stack = ""; return e; })[0]',
  '(() => { const e = new TypeError("bad"); e.stack = ""; e.code = "E_BAD"; return e; })()',
  '(() => { const e = new RangeError("r"); e.stack = ""; return { e }; })()',
  '(() => { class MyError extends Error {} const e = new MyError("m"); e.stack = ""; return e; })()',
  'new Number(3)', 'new String("ab")', 'new Boolean(false)', 'Object(1n)', 'Object(Symbol("q"))',
  '{ [Symbol("k")]: 1, regular: 2 }', '{ get g() { return 1; }, set s(v) {}, get gs() { return 1; }, set gs(v) {} }',
  '[1.5, -2, 3e21, 1e-7]', '{ a: [{ b: { c: [1, 2, { d: 3 }] } }] }', 'new WeakMap()', 'new WeakSet()',
  '(function () { return arguments; })(1, 2)', '{ __proto__: { inherited: 1 }, own: 2 }',
  '{ toString() { return "custom"; } }', 'Object.defineProperty({}, Symbol.toStringTag, { value: "Tagged" })',
  '{ [Symbol.for("nodejs.util.inspect.custom")]() { return "CUSTOM"; } }',
  '{ [Symbol.for("nodejs.util.inspect.custom")]() { return { replaced: true }; } }',
  'Array.from({ length: 7 }, (_, i) => "x".repeat(i * 7))', '[ -1, 10, 200, -3000, 4, 5, 66, 777, 8888 ]',
  'new Map([[{ k: 1 }, new Set([1])]])', '{ date: new Date(86400000), re: /x/, fn: function named() {} }',
];
for (const src of inspectInputs) diff(`util.inspect ${src}`, `return M.util.inspect(${src});`);
for (const opts of ['{ depth: 0 }', '{ depth: null }', '{ compact: false }', '{ compact: true }', '{ breakLength: 40 }',
  '{ sorted: true }', '{ showHidden: true }', '{ maxArrayLength: 2 }', '{ maxStringLength: 5 }', '{ getters: true }',
  '{ numericSeparator: true }', '{ colors: true }']) {
  diff(`util.inspect options ${opts}`,
    `return M.util.inspect({ b: [1, 2, 3, { x: { y: { z: 1 } } }], a: "long string value", n: 1234567.891, get g() { return 5; }, m: new Map([[1, { q: 2 }]]) }, ${opts});`);
}
const formatArgs = [
  '"%s", "str"', '"%s", 42', '"%s", -0', '"%s", 5n', '"%s", { a: 1 }', '"%s", [1, [2]]', '"%s", null', '"%s", Symbol("x")',
  '"%d", "42"', '"%d", 4.5', '"%d", {}', '"%i", "42.9"', '"%i", 7n', '"%f", "1.5e3"', '"%j", { a: [1] }',
  '"%j", (() => { const o = {}; o.o = o; return o; })()', '"%o", { a: 1, f() {} }', '"%O", { a: { b: { c: { d: 1 } } } }',
  '"100%% sure %s", "yes"', '"%s %s", "only one"', '"no placeholders", 1, "two", { three: 3 }', '1, 2, "three"',
  '"%c styled", "color: red"', '"%x unknown", 1', '"%s", Object.assign(new Error("e"), { stack: "" })', '"%s", new Date(0)',
  '"%s", { toString() { return "custom toString"; } }', '"%s", new (class Foo { toString() { return "Foo!"; } })()',
  '"a", "b"', '', '"%"', '"%s"',
];
for (const args of formatArgs) diff(`util.format(${args})`, `return M.util.format(${args});`);
diff('util.formatWithOptions', 'return M.util.formatWithOptions({ compact: false }, "%O", { a: [1] });');
diff('util.isDeepStrictEqual table', `
  const pairs = [[1, 1], [1, "1"], [NaN, NaN], [0, -0], [{ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }], [{ a: 1 }, { a: 1, b: undefined }],
    [[1, 2], [1, 2]], [[1, , 3], [1, undefined, 3]], [new Date(1), new Date(1)], [new Date(1), new Date(2)], [/a/g, /a/g], [/a/g, /a/i],
    [new Map([[1, { x: 1 }]]), new Map([[1, { x: 1 }]])], [new Set([1, 2]), new Set([2, 1])], [new Set([{ a: 1 }]), new Set([{ a: 1 }])],
    [new Uint8Array([1, 2]), new Uint8Array([1, 2])], [new Uint8Array([1]), new Int8Array([1])], [Object.create(null), {}],
    [new Error("x"), new Error("x")], [new Error("x"), new TypeError("x")], [new Number(1), new Number(1)], [[], {}],
    [{ [Symbol.for("s")]: 1 }, { [Symbol.for("s")]: 1 }], [{ [Symbol.for("s")]: 1 }, {}]];
  return pairs.map(([a, b]) => M.util.isDeepStrictEqual(a, b));`);
diff('util.promisify', `
  const fn = (a, b, cb) => setTimeout(() => cb(null, a + b), 1);
  return M.util.promisify(fn)(2, 3);`);
diff('util.promisify error', `
  const fn = (cb) => cb(new Error("nope"));
  return M.util.promisify(fn)().catch((e) => "rejected: " + e.message);`);
diff('util.promisify.custom', `
  const fn = () => {}; fn[M.util.promisify.custom] = () => Promise.resolve("custom");
  return [M.util.promisify.custom === Symbol.for("nodejs.util.promisify.custom"), M.util.promisify(fn) === fn[M.util.promisify.custom]];`);
diff('util.callbackify', `
  return new Promise((resolve) => M.util.callbackify(async (x) => x * 2)(21, (err, v) => resolve([err, v])));`);
diff('util.callbackify falsy rejection', `
  return new Promise((resolve) => M.util.callbackify(() => Promise.reject(null))((err) => resolve([err.code, err.message, err.reason])));`);
diff('util.inherits', `
  function A() {} A.prototype.hi = function () { return "hi"; };
  function B() {} M.util.inherits(B, A);
  return [new B().hi(), B.super_ === A, new B() instanceof A];`);
diff('util.types', `
  const t = M.util.types;
  return [t.isDate(new Date()), t.isDate({}), t.isRegExp(/a/), t.isRegExp(RegExp.prototype), t.isPromise(Promise.resolve()),
    t.isPromise({ then() {} }), t.isTypedArray(new Uint8Array()), t.isTypedArray(new DataView(new ArrayBuffer(1))),
    t.isUint8Array(new Uint8Array()), t.isUint8Array(new Int8Array()), t.isArrayBuffer(new ArrayBuffer(1)),
    t.isAnyArrayBuffer(new ArrayBuffer(1)), t.isMap(new Map()), t.isSet(new Set()), t.isWeakMap(new WeakMap()),
    t.isAsyncFunction(async () => {}), t.isAsyncFunction(() => {}), t.isGeneratorFunction(function* () {}),
    t.isNativeError(new TypeError()), t.isBoxedPrimitive(new String("")), t.isMapIterator(new Map().keys()),
    t.isArgumentsObject((function () { return arguments; })()), t.isDataView(new DataView(new ArrayBuffer(1)))];`);
diff('util/types module', 'return [typeof M["util/types"].isDate, M["util/types"].isDate(new Date())];');
diff('util.deprecate', `
  const f = M.util.deprecate((x) => x + 1, "old");
  return f(1);`);
diff('util.stripVTControlCharacters', 'return M.util.stripVTControlCharacters("\\u001b[31mred\\u001b[39m");');
diff('util.toUSVString', 'return M.util.toUSVString("a\\ud800b");');
diff('util.TextDecoder class', 'return new M.util.TextDecoder().decode(new M.util.TextEncoder().encode("héllo"));');
diff('util.isArray etc', 'return [M.util.isArray([]), M.util.isString("x"), M.util.isPrimitive({})];');

// ---------------------------------------------------------------- TextEncoder/TextDecoder
diff('TextEncoder', `
  const e = new G.TextEncoder();
  const dest = new Uint8Array(5);
  const r = e.encodeInto("a€😀", dest);
  return [Array.from(e.encode("héllo 😀")), e.encoding, r.read, r.written, Array.from(dest), Array.from(e.encode("\\ud800")), Array.from(e.encode())];`);
diff('TextDecoder utf-8', `
  const d = new G.TextDecoder();
  return [d.decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69])), d.encoding, d.fatal, d.ignoreBOM,
    new G.TextDecoder("utf-8", { ignoreBOM: true }).decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x68])),
    d.decode(new Uint8Array([0xe2, 0x82])), d.decode(new Uint8Array([0xf0, 0x80, 0x80, 0x80, 0x41])), d.decode(),
    d.decode(new Uint8Array([0x68, 0x69]).buffer)];`);
diff('TextDecoder stream', `
  const d = new G.TextDecoder();
  const bytes = new G.TextEncoder().encode("€😀é");
  let out = "";
  for (const b of bytes) out += d.decode(new Uint8Array([b]), { stream: true });
  out += d.decode();
  const d2 = new G.TextDecoder();
  return [out, d2.decode(new Uint8Array([0xe2]), { stream: true }), d2.decode(new Uint8Array([0x82]), { stream: true }), d2.decode(new Uint8Array([0xac]))];`);
diff('TextDecoder fatal', `
  try { new G.TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array([0xc3, 0x28])); } catch (e) { return [e.name, e.code, e.message]; }`);
diff('TextDecoder utf-16le', `
  const d = new G.TextDecoder("utf-16le");
  return [d.encoding, d.decode(new Uint8Array([0xff, 0xfe, 0x68, 0, 0x69, 0, 0x3d, 0xd8, 0, 0xde])), new G.TextDecoder("utf-16").encoding,
    new G.TextDecoder("utf-16le").decode(new Uint8Array([0x68, 0, 0x69]))];`);
diff('TextDecoder latin1', `
  const d = new G.TextDecoder("latin1");
  return [d.encoding, d.decode(new Uint8Array([0x41, 0xe9, 0xff, 0xa0])), new G.TextDecoder("ascii").encoding, new G.TextDecoder(" ISO-8859-1 ").encoding];`);
diff('TextDecoder unknown label', 'try { new G.TextDecoder("nope"); } catch (e) { return [e.name, e.code, e.message]; }');

// ---------------------------------------------------------------- parseEnv
// .env texts: Node's parser's edge cases (quotes, comments, export, newlines).
const DOTENV_SAMPLES = [
  'A=1\nB=2', 'A = spaced value  \n', 'export A=1\nexport  B = 2', '# comment\nA=1 # trailing\nB="quoted # not comment"',
  'A="multi\\nline"\nB=\'single\\n\'\nC=`back`', 'A="unterminated\nB=2', 'A=\nB=\n', '=novalue\nC=3', 'NOEQUALS\nD=4',
  'A="line1\nline2"\nB=x', "A='it''s'", 'A=a=b=c', '\r\nA=1\r\nB=2\r\n', 'A= "padded" ', 'A=#hash', 'A="x" # c\nB=y', 'A=`multi\nline`',
  'export A', 'A=1\nA=2', '  \t A=1', 'KEY="a\\\\nb"',
];

const parseEnv = `return ${JSON.stringify(DOTENV_SAMPLES)}.map((text) => M.util.parseEnv(text));`;
for (const major of [22, 24]) check(`util.parseEnv (Node ${major})`, parseEnv, underNode(major, ['util'], parseEnv));
