// node:querystring: parse, stringify, escape and unescape.
import { diff } from './harness/cases.mjs';

for (const s of ['a=1&b=2&a=3', 'a', '=1', '&&', 'a=%zz&b=%E4%BD%A0', 'a+b=c+d', 'a==1', 'x=%', 'k=%C3', '__proto__=1&constructor=2']) {
  diff(`querystring.parse ${s}`, `return JSON.stringify(M.querystring.parse(${JSON.stringify(s)}));`);
}
diff('querystring.parse sep/eq/maxKeys', 'return [M.querystring.parse("a:1;b:2", ";", ":"), M.querystring.parse("a=1&b=2&c=3", null, null, { maxKeys: 2 })].map((o) => JSON.stringify(o));');
diff('querystring.stringify', `return [M.querystring.stringify({ a: [1, 2], b: "x y", c: null, d: true, e: 1n, f: NaN, "ü": "é", g: {} }),
  M.querystring.stringify({ a: 1 }, ";", ":"), M.querystring.escape("a b&c/é"), M.querystring.unescape("a%20b%zz"), M.querystring.stringify("x")];`);
