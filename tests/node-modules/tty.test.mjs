// node:tty without a terminal: isatty, and WriteStream's color depth
// answered from the environment as Node 22's and Node 24's do.
import { check, diff, underNode } from './harness/cases.mjs';

diff('tty', `return [M.tty.isatty(-1), M.tty.isatty('x'), M.tty.WriteStream.prototype.isTTY, M.tty.WriteStream.prototype instanceof M.net.Socket];`);
// What Node says for a descriptor that is not a terminal; none is in a Function.
check('tty without a terminal', `
  const out = [M.tty.isatty(0), M.tty.isatty(1), M.tty.isatty(2)];
  try { new M.tty.WriteStream(1); } catch (e) { out.push([e.name, e.code, e.message]); }
  return out;`, [false, false, false, ['SystemError', 'ERR_TTY_INIT_FAILED', 'TTY initialization failed: uv_tty_init returned EINVAL (invalid argument)']]);

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

diff('tty.WriteStream#hasColors argument errors', `
  const proto = M.tty.WriteStream.prototype;
  const out = [];
  for (const args of [[1], [2.5], ['16'], [null, {}]]) {
    try { out.push(proto.hasColors(...args)); } catch (e) { out.push([e.name, e.code, e.message]); }
  }
  return out;`);
