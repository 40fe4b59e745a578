// node:url and the URL and URLSearchParams globals: WHATWG URL parsing and
// setters (the engine's), searchParams, the legacy url.parse/format/
// resolve, file URLs and domain helpers.
import { diff } from './harness/cases.mjs';

const urlInputs = [
  ['https://user:pa ss@EXAMPLE.com:443/a/../b/./c?x=1 2&y=é#frag ment'], ['http://example.com:8080'], ['HTTP://[::1]:80/'],
  ['file:///tmp/a b'], ['mailto:someone@example.com'], ['data:text/plain,hello'], ['https://xn--espaol-zwa.com/'],
  ['https://español.com/ñ'], ['//host/path', 'https://base.com'], ['../x?q', 'http://a.com/b/c/d'], ['?only', 'http://a.com/p?old#h'],
  ['#h2', 'http://a.com/p?q'], ['not a url'], ['http://exa mple.com'], ['https://a.com/%7Efoo/%zz'], ['blob:https://a.com/uuid'],
  ['ws://a.com/socket'], ['http://1.2.3.4.5/'], ['http://0x7f.1/'], ['https://a.com?'], ['https://a.com#'], ['javascript:alert(1)'],
  ['http://a.com/\\\\x\\\\y'], ['  https://trim.com/  '], ['https://a.com/path;params?q=1;2'],
];
for (const [input, base] of urlInputs) {
  diff(`URL ${input}${base ? ` base ${base}` : ''}`, `
    const u = new G.URL(${JSON.stringify(input)}${base ? `, ${JSON.stringify(base)}` : ''});
    return [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash, String(u), u.toJSON()];`);
}
diff('URL invalid error', 'try { new G.URL("nope"); } catch (e) { return [e.name, e.code, e.message, e.input]; }');
diff('URL.canParse', 'return [G.URL.canParse("https://a"), G.URL.canParse("a"), G.URL.canParse("a", "https://b")];');
diff('URL setters', `
  const u = new G.URL("https://a.com/p?q=1#h");
  u.protocol = "http"; u.hostname = "b.org"; u.port = "8080"; u.pathname = "/new path"; u.search = "x=1&y=2"; u.hash = "top";
  u.username = "me"; u.password = "s3cr3t";
  const r1 = u.href;
  u.port = "80"; u.protocol = "ftp"; u.host = "c.net:21";
  const r2 = u.href;
  u.port = "abc"; u.protocol = "1nvalid";
  return [r1, r2, u.href, u.searchParams.get("x")];`);
diff('URL href setter invalid', 'const u = new G.URL("https://a.com"); try { u.href = "bad"; } catch (e) { return [e.name, e.code, u.href]; }');
diff('URL inspect', 'return M.util.inspect(new G.URL("https://a.b/c?d=1#e"));');
diff('URL searchParams live link', `
  const u = new G.URL("https://a.com/?a=1&b=2&a=3");
  const p = u.searchParams;
  p.append("c", "x y"); p.delete("b"); p.set("a", "é");
  const h1 = u.href;
  u.search = "?z=9";
  const h2 = [u.href, p.get("z"), p.get("a"), p.size];
  p.delete("z");
  return [h1, h2, u.href, u.search];`);
const uspInputs = ['"a=1&b=2&a=3"', '"?x=%20y+z&empty=&novalue&=v&&"', '"q=%zz%e4%bd%a0%E4"', '[["a", "1"], ["b", "x&y=z"]]',
  '{ k: "v", "sp ace": "é~*-._!\'()" }', '"a=%F0%9F%98%80"', 'new Map([["m", "1"]])', '""', 'undefined'];
for (const init of uspInputs) {
  diff(`URLSearchParams ${init}`, `
    const p = new G.URLSearchParams(${init});
    return [p.toString(), [...p], [...p.keys()], [...p.values()], p.size, p.get("a"), p.getAll("a"), p.has("a"), String(p)];`);
}
diff('URLSearchParams methods', `
  const p = new G.URLSearchParams("c=3&a=2&b=1&a=1");
  p.sort();
  const sorted = p.toString();
  p.delete("a", "1");
  const r = [sorted, p.toString(), p.has("a", "2"), p.has("a", "1")];
  const seen = []; p.forEach((v, k, o) => seen.push([k, v, o === p]));
  p.set("n", "\\u00a0 \\n+&"); r.push(p.toString(), seen);
  return r;`);
diff('URLSearchParams errors', 'try { new G.URLSearchParams([["a"]]); } catch (e) { return [e.name, e.code]; }');
diff('URLSearchParams inspect', 'return [M.util.inspect(new G.URLSearchParams("a=1&b=2")), M.util.inspect(new G.URLSearchParams())];');
const legacyUrls = ['http://user:pass@host.com:8080/p/a/t/h?query=string#hash', '/just/a/path?x=1', 'foo/bar', '//host/x',
  'HTTP://EXAMPLE.COM/A?B#C', 'mailto:a@b.com', 'http://a.com', 'https://a.com/sp ace/"q"', 'http://[::1]:3000/x',
  'javascript:alert(1)', 'file:///etc/passwd', 'http://a@b@c/d', 'http://x.com/a\\\\b?c\\\\d', '?q=1', '#h', '', ' http://trim.com ',
  'http://ex.com/ü?ä=ö', 'redis://:pw@cache:6379/0', 'postgres://u:p%40ss@db.example.com:5432/mydb?ssl=true'];
for (const s of legacyUrls) {
  diff(`url.parse ${JSON.stringify(s)}`, `const u = M.url.parse(${JSON.stringify(s)}); return [{ ...u }, M.url.format(u)];`);
}
diff('url.parse with query', 'const u = M.url.parse("http://a.com/p?x=1&y=2&x=3", true); return [JSON.stringify(u.query), u.search, M.url.format(u)];');
diff('url.parse slashesDenoteHost', 'return { ...M.url.parse("//foo/bar", false, true) };');
diff('url.format object', `
  return [M.url.format({ protocol: "https", hostname: "example.com", pathname: "/some/path", query: { page: 1, format: "json" } }),
    M.url.format({ protocol: "http:", host: "a.com:80", pathname: "x", hash: "h", search: "q=1" }),
    M.url.format({ protocol: "mailto", pathname: "a@b.c" }), M.url.format("http://a.com/b?c"),
    M.url.format({ protocol: "http", auth: "us er:p@ss", hostname: "h" }),
    M.url.format(new G.URL("https://u:p@ü.com/a?b#c"), { auth: false, fragment: false, unicode: true })];`);
const resolvePairs = [['/one/two/three', 'four'], ['http://example.com/', '/one'], ['http://example.com/one', '/two'],
  ['http://example.com/a/b', '../c'], ['http://example.com', 'http://other.com/x'], ['http://a.com/b?x=1', '?y=2'],
  ['http://a.com/b', '#h'], ['one/two', 'three'], ['http://a.com/b/c', './d/../e'], ['http://a.com/b', '//other.org/x']];
for (const [from, to] of resolvePairs) diff(`url.resolve(${from}, ${to})`, `return M.url.resolve(${JSON.stringify(from)}, ${JSON.stringify(to)});`);
diff('fileURLToPath/pathToFileURL', `
  return [M.url.fileURLToPath("file:///tmp/a%20b/c"), M.url.fileURLToPath(new G.URL("file:///x/%C3%A9")),
    M.url.pathToFileURL("/tmp/a b#?%/").href, M.url.pathToFileURL("/é").href];`);
diff('fileURLToPath errors', `
  const out = [];
  for (const u of ["http://a/b", "file://host/x", "file:///a%2fb"]) { try { M.url.fileURLToPath(u); } catch (e) { out.push([e.name, e.code, e.message]); } }
  return out;`);
diff('domainToASCII/Unicode', `
  return [M.url.domainToASCII("español.com"), M.url.domainToASCII("xn--iñvalid.com"), M.url.domainToUnicode("xn--espaol-zwa.com"),
    M.url.domainToUnicode("xn--fiqs8s.cn"), M.url.domainToASCII("EXAMPLE.com")];`);
diff('urlToHttpOptions', 'return M.url.urlToHttpOptions(new G.URL("https://a:b@[::1]:8443/p?q#h"));');
