// Cases for what npm packages use while loading (the npm load test's
// causes, tests/npm-load/RESULTS.md): tty's color depth answered from the
// environment, process.stdout and process.stderr, http.METHODS, fs's
// surface, node:module's require() over the Function's files.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../..');

/**
 * What `code` (a function body using M.<module>) returns under the
 * official Node `major` (.ci/node/<major>, installed by .ci/setup): for
 * behaviour that changed since the Node running these tests.
 */
function underNode(major, modules, code) {
  const node = path.join(repoRoot, '.ci/node', String(major), 'bin/node');
  const program = `const M = {${modules.map((m) => `${JSON.stringify(m)}: require(${JSON.stringify(`node:${m}`)})`).join(', ')}};
    process.stdout.write(JSON.stringify((() => { ${code} })()));`;
  return JSON.parse(execFileSync(node, ['-e', program], { encoding: 'utf8', env: { PATH: process.env.PATH } }));
}

// Environments a color library may meet: every TERM Node names, CI
// services, terminal programs and the variables that force or disable colors.
function colorEnvironments() {
  const terms = ['eterm', 'cons25', 'console', 'cygwin', 'dtterm', 'gnome', 'hurd', 'jfbterm', 'konsole', 'kterm', 'mlterm', 'mosh',
    'putty', 'st', 'rxvt-unicode-24bit', 'terminator', 'xterm-kitty', 'xterm', 'xterm-256color', 'xterm-truecolor', 'screen-256color',
    'linux', 'ansi', 'vt100', 'vt220', 'con132x25', 'rxvt', 'dumb', 'unknown', 'XTERM', 'Eterm'];
  const envs = [{}];
  for (const TERM of terms) envs.push({ TERM });
  for (const FORCE_COLOR of ['', '0', '1', '2', '3', 'true', 'false', '4']) envs.push({ FORCE_COLOR }, { FORCE_COLOR, TERM: 'dumb' });
  for (const flag of ['NO_COLOR', 'NODE_DISABLE_COLORS']) envs.push({ [flag]: '1', TERM: 'xterm-256color' }, { [flag]: '', TERM: 'xterm-256color' });
  for (const ci of ['APPVEYOR', 'BUILDKITE', 'CIRCLECI', 'DRONE', 'GITHUB_ACTIONS', 'GITLAB_CI', 'TRAVIS', 'JENKINS']) envs.push({ CI: 'true', [ci]: '1' });
  envs.push({ CI: 'true', CI_NAME: 'codeship' }, { TMUX: '1' }, { TEAMCITY_VERSION: '9.1.0' }, { TEAMCITY_VERSION: '8.0' });
  for (const TERM_PROGRAM of ['iTerm.app', 'HyperTerm', 'MacTerm', 'Apple_Terminal', 'vscode']) envs.push({ TERM_PROGRAM }, { TERM_PROGRAM, TERM_PROGRAM_VERSION: '3.4' });
  for (const COLORTERM of ['truecolor', '24bit', '1', '']) envs.push({ COLORTERM }, { COLORTERM, TERM: 'xterm' });
  return envs;
}

export function addCases({ diff, check, nodeModules }) {
  nodeModules.tty = require('node:tty');
  nodeModules.http = require('node:http');

  diff('http.METHODS and http.STATUS_CODES', 'return [M.http.METHODS, M.http.STATUS_CODES];');
  // What express and test helpers build responses on, without a socket.
  diff('http.ServerResponse without a socket', `
    const req = { method: 'GET', httpVersionMajor: 1, httpVersionMinor: 1, headers: {} };
    const res = new M.http.ServerResponse(req);
    const out = [res.statusCode, res.headersSent, res.writableEnded];
    res.setHeader('X-Trace', 'a');
    res.appendHeader('X-Trace', 'b');
    res.setHeader('Content-Type', 'text/plain');
    out.push({ ...res.getHeaders() }, res.getHeaderNames(), res.getRawHeaderNames(), res.hasHeader('content-type'), res.getHeader('x-trace'));
    res.removeHeader('content-type');
    for (const f of [() => res.setHeader('bad name', 1), () => res.setHeader('x', undefined), () => res.getHeader(1)]) {
      try { f(); out.push('ok'); } catch (e) { out.push([e.name, e.code]); }
    }
    res.statusCode = 201;
    res.end('hello');
    out.push(res.headersSent, res.writableEnded, res.finished, res._header.replace(/Date: .*\\r\\n/, ''), res.outputData.map((d) => String(d.data).replace(/Date: .*\\r\\n/, '')));
    try { res.setHeader('x-late', 1); } catch (e) { out.push([e.code, e.message]); }
    const head = new M.http.ServerResponse({ ...req, method: 'HEAD' });
    head.writeHead(404, { 'x-a': '1' });
    out.push(head._header.replace(/Date: .*\\r\\n/, ''), head.statusMessage, new M.http.OutgoingMessage().getHeaders());
    return out;`);

  // Node 24 changed how empty NO_COLOR/NODE_DISABLE_COLORS count: the
  // runtime's Node line decides, as process.version says.
  const colors = `
    const proto = M.tty.WriteStream.prototype;
    const envs = ${JSON.stringify(colorEnvironments())};
    return envs.map((env) => [proto.getColorDepth(env), proto.hasColors(env), proto.hasColors(256, env), proto.hasColors(2 ** 24, env), proto.hasColors(2, env)]);`;
  for (const major of [22, 24]) {
    check(`tty.WriteStream color depth from the environment (Node ${major})`, `
      const version = process.version;
      process.version = 'v${major}.0.0';
      try { ${colors} } finally { process.version = version; }`, underNode(major, ['tty'], colors));
  }
  // fs over real files (the engine's fs primitives are Node's in these
  // runs): Node 22 added glob.
  const dir = JSON.stringify(path.join(repoRoot, 'crates/shoal-build/js/node'));
  const globs = `
    const dir = ${dir};
    const sorted = (list) => list.map(String).sort();
    return [
      sorted(M.fs.globSync('*.js', { cwd: dir + '/internal/dns' })),
      sorted(M.fs.globSync('internal/**/h*.js', { cwd: dir })),
      sorted(M.fs.globSync('internal/{dns,v8}/*', { cwd: dir })),
      sorted(M.fs.globSync('**', { cwd: dir + '/internal/dns' })),
      sorted(M.fs.globSync(dir + '/internal/dns/[hi]*.js')),
      sorted(M.fs.globSync(['internal/dns/*.js', 'internal/v8/*.js'], { cwd: dir, exclude: ['internal/dns/ip.js'] })),
      sorted(M.fs.globSync('internal/dns/?o*.js', { cwd: dir, exclude: (name) => name.endsWith('lookup.js') })),
      M.fs.globSync('internal/dns/h*.js', { cwd: dir, withFileTypes: true }).map((d) => [d.name, d.parentPath, d.isFile()]),
      sorted(M.fs.globSync('nothing/*', { cwd: dir })),
    ];`;
  check('fs.globSync (Node 22)', globs, underNode(22, ['fs'], globs));
  diff('fs.opendirSync, readlinkSync, statfsSync, readvSync', `
    const dir = ${dir} + '/internal/dns';
    const d = M.fs.opendirSync(dir);
    const names = [];
    for (let e = d.readSync(); e !== null; e = d.readSync()) names.push([e.name, e.isFile()]);
    d.closeSync();
    const out = [d.path, names.sort()];
    try { d.readSync(); } catch (e) { out.push(e.code); }
    for (const p of [dir + '/ip.js', dir + '/nope']) {
      try { M.fs.readlinkSync(p); } catch (e) { out.push([e.code, e.syscall, e.message]); }
    }
    out.push(Object.keys(M.fs.statfsSync(dir)), M.fs.statfsSync(dir).constructor.name, typeof M.fs.statfsSync(dir, { bigint: true }).bsize);
    const fd = M.fs.openSync(dir + '/ip.js');
    const a = new Uint8Array(5);
    const b = new Uint8Array(3);
    out.push(M.fs.readvSync(fd, [a, b], 0), Array.from(a), Array.from(b));
    M.fs.closeSync(fd);
    out.push(M.fs._toUnixTimestamp('12'), M.fs._toUnixTimestamp(new Date(5000)), M.fs.FileReadStream === M.fs.ReadStream);
    return out;`);
  diff('fs.opendir, promises.opendir and openAsBlob', `return (async () => {
    const dir = ${dir} + '/internal/dns';
    const viaCallback = await new Promise((resolve, reject) => M.fs.opendir(dir, (err, d) => (err ? reject(err) : resolve(d))));
    const names = [];
    for await (const e of viaCallback) names.push(e.name);
    const viaPromise = await M['fs-promises'].opendir(dir);
    const first = await viaPromise.read();
    await viaPromise.close();
    const blob = await M.fs.openAsBlob(dir + '/ip.js', { type: 'text/javascript' });
    return [names.sort(), typeof first.name, blob.size === M.fs.statSync(dir + '/ip.js').size, blob.type, (await blob.text()).slice(0, 12)];
  })();`);
  // Old packages read Node's constants binding while loading (tmp).
  const binding = `
    const c = M.process.binding('constants');
    const out = [Object.keys(c), c.os.errno.EBADF, c.fs.O_CREAT, c.os.signals.SIGTERM, Object.keys(c.zlib).length];
    try { M.process.binding('no_such_binding'); } catch (e) { out.push(e.message); }
    return out;`;
  check("process.binding('constants') (Node 22)", binding, underNode(22, ['process'], binding));
  // jsdom's @exodus/bytes refuses a Buffer polyfill by this marker.
  diff('Buffer is not a polyfill', 'return ["TYPED_ARRAY_SUPPORT" in M.buffer.Buffer, Object.keys(M.buffer).includes("TYPED_ARRAY_SUPPORT")];');

  const parseEnv = `return ${JSON.stringify(DOTENV_SAMPLES)}.map((text) => M.util.parseEnv(text));`;
  for (const major of [22, 24]) check(`util.parseEnv (Node ${major})`, parseEnv, underNode(major, ['util'], parseEnv));
  diff('tty.WriteStream#hasColors argument errors', `
    const proto = M.tty.WriteStream.prototype;
    const out = [];
    for (const args of [[1], [2.5], ['16'], [null, {}]]) {
      try { out.push(proto.hasColors(...args)); } catch (e) { out.push([e.name, e.code, e.message]); }
    }
    return out;`);
}

// .env texts: Node's parser's edge cases (quotes, comments, export, newlines).
export const DOTENV_SAMPLES = [
  'A=1\nB=2', 'A = spaced value  \n', 'export A=1\nexport  B = 2', '# comment\nA=1 # trailing\nB="quoted # not comment"',
  'A="multi\\nline"\nB=\'single\\n\'\nC=`back`', 'A="unterminated\nB=2', 'A=\nB=\n', '=novalue\nC=3', 'NOEQUALS\nD=4',
  'A="line1\nline2"\nB=x', "A='it''s'", 'A=a=b=c', '\r\nA=1\r\nB=2\r\n', 'A= "padded" ', 'A=#hash', 'A="x" # c\nB=y', 'A=`multi\nline`',
  'export A', 'A=1\nA=2', '  \t A=1', 'KEY="a\\\\nb"',
];
