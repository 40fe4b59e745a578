'use strict';
// How many colours Node's tty.WriteStream says a terminal has, from the
// environment alone (Node's lib/internal/tty.js, getColorDepth). Color
// libraries ask tty.WriteStream.prototype.hasColors() while loading; the
// answer needs no terminal, so Shoal gives Node's.
const { invalidArgType, outOfRange } = require('../errors.js');

// The Node line of the Function's runtime (process.version).
const runtimeMajor = () => Number.parseInt(String(process.version).slice(1), 10) || 24;

const COLORS_2 = 1;
const COLORS_16 = 4;
const COLORS_256 = 8;
const COLORS_16m = 24;

const TERM_ENVS = {
  eterm: COLORS_16,
  cons25: COLORS_16,
  console: COLORS_16,
  cygwin: COLORS_16,
  dtterm: COLORS_16,
  gnome: COLORS_16,
  hurd: COLORS_16,
  jfbterm: COLORS_16,
  konsole: COLORS_16,
  kterm: COLORS_16,
  mlterm: COLORS_16,
  mosh: COLORS_16m,
  putty: COLORS_16,
  st: COLORS_16,
  'rxvt-unicode-24bit': COLORS_16m,
  terminator: COLORS_16m,
  'xterm-kitty': COLORS_16m,
};

const CI_ENVS = [
  ['APPVEYOR', COLORS_256],
  ['BUILDKITE', COLORS_256],
  ['CIRCLECI', COLORS_16m],
  ['DRONE', COLORS_256],
  ['GITEA_ACTIONS', COLORS_16m],
  ['GITHUB_ACTIONS', COLORS_16m],
  ['GITLAB_CI', COLORS_256],
  ['TRAVIS', COLORS_256],
];

const TERM_ENVS_REG_EXP = [/ansi/, /color/, /linux/, /direct/, /^con[0-9]*x[0-9]/, /^rxvt/, /^screen/, /^xterm/, /^vt100/, /^vt220/];

let warned = false;
function warnOnDeactivatedColors(env) {
  if (warned) return;
  let name = '';
  if (env.NO_COLOR !== undefined) name = 'NO_COLOR';
  else if (env.NODE_DISABLE_COLORS !== undefined) name = 'NODE_DISABLE_COLORS';
  if (name !== '') {
    process.emitWarning(`The '${name}' env is ignored due to the 'FORCE_COLOR' env being set.`, 'Warning');
    warned = true;
  }
}

function getColorDepth(env = process.env) {
  // Level 0-3, as chalk does.
  if (env.FORCE_COLOR !== undefined) {
    switch (env.FORCE_COLOR) {
      case '':
      case '1':
      case 'true':
        warnOnDeactivatedColors(env);
        return COLORS_16;
      case '2':
        warnOnDeactivatedColors(env);
        return COLORS_256;
      case '3':
        warnOnDeactivatedColors(env);
        return COLORS_16m;
      default:
        return COLORS_2;
    }
  }
  // Node 24 ignores these when empty; Node 22 does not.
  const set = (name) => env[name] !== undefined && (env[name] !== '' || runtimeMajor() < 24);
  if (set('NODE_DISABLE_COLORS') || set('NO_COLOR') || env.TERM === 'dumb') return COLORS_2;
  // Functions run on Linux: Node's Windows branch never applies.
  if (env.TMUX) return COLORS_16m;
  if (env.CI) {
    for (const [name, colors] of CI_ENVS) if (name in env) return colors;
    if (env.CI_NAME === 'codeship') return COLORS_256;
    return COLORS_2;
  }
  if ('TEAMCITY_VERSION' in env) return /^(9\.(0*[1-9]\d*)\.|\d{2,}\.)/.test(env.TEAMCITY_VERSION) ? COLORS_16 : COLORS_2;
  switch (env.TERM_PROGRAM) {
    case 'iTerm.app':
      if (!env.TERM_PROGRAM_VERSION || /^[0-2]\./.test(env.TERM_PROGRAM_VERSION)) return COLORS_256;
      return COLORS_16m;
    case 'HyperTerm':
    case 'MacTerm':
      return COLORS_16m;
    case 'Apple_Terminal':
      return COLORS_256;
  }
  if (env.COLORTERM === 'truecolor' || env.COLORTERM === '24bit') return COLORS_16m;
  if (env.TERM) {
    if (/truecolor/.test(env.TERM)) return COLORS_16m;
    if (/^xterm-256/.test(env.TERM)) return COLORS_256;
    const termEnv = env.TERM.toLowerCase();
    if (TERM_ENVS[termEnv]) return TERM_ENVS[termEnv];
    if (TERM_ENVS_REG_EXP.some((term) => term.test(termEnv))) return COLORS_16;
  }
  // 16 colours from COLORTERM come after 16m and 256.
  if (env.COLORTERM) return COLORS_16;
  return COLORS_2;
}

function hasColors(count, env) {
  if (env === undefined && (count === undefined || (typeof count === 'object' && count !== null))) {
    env = count;
    count = 16;
  } else {
    if (typeof count !== 'number') throw invalidArgType('count', 'number', count);
    if (!Number.isInteger(count)) throw outOfRange('count', 'an integer', count);
    if (count < 2 || count > Number.MAX_SAFE_INTEGER) throw outOfRange('count', `>= 2 && <= ${Number.MAX_SAFE_INTEGER}`, count);
  }
  return count <= 2 ** getColorDepth(env);
}

module.exports = { getColorDepth, hasColors };
