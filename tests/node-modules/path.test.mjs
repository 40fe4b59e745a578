// node:path, node:path/posix and node:path/win32 (path.win32 in full:
// path-win32.mjs, against Node's on ~290,000 inputs).
import { diff } from './harness/cases.mjs';

diff('path', `
  const p = M.path;
  return [p.join("/a", "b", "../c", "./d"), p.resolve("/a/b", "./c"), p.resolve("/r", "x", "../y"), p.normalize("/a//b/../c/."), p.dirname("/a/b/c.txt"),
    p.basename("/a/b/c.txt"), p.basename("/a/b/c.txt", ".txt"), p.extname("x.tar.gz"), p.isAbsolute("a"), p.relative("/a/b/c", "/a/d"),
    p.parse("/home/u/file.txt"), p.format({ dir: "/x", base: "y.z" }), p.sep, p.delimiter, p.posix === p, p.toNamespacedPath("/a")];`);
diff('path/posix', 'return M.path.posix.join("a", "b");');
// Here: that the bundle carries path.win32.
diff('path.win32', `
  const w = M.path.win32;
  return [w.basename("C:\\\\temp\\\\file.txt"), w.join("C:\\\\a", "..\\\\b", "c.txt"), w.resolve("C:x", "/y"), w.normalize("\\\\\\\\srv\\\\sh\\\\..\\\\x"),
    w.relative("C:\\\\a\\\\b", "c:\\\\A\\\\c"), w.parse("\\\\\\\\srv\\\\sh\\\\d\\\\f.tar.gz"), w.isAbsolute("C:"), w.toNamespacedPath("C:\\\\x"), w.sep, w.delimiter,
    w.win32 === w, w.posix === M.path, M.path.posix.win32 === w];`);
