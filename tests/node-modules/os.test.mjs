// node:os: what a Function's sandbox answers.
import { check } from './harness/cases.mjs';

check('os', `
  const o = M.os;
  return [o.EOL, o.platform(), o.type(), o.arch(), o.hostname(), o.tmpdir(), o.homedir(), o.endianness(), Array.isArray(o.cpus()),
    typeof o.totalmem(), typeof o.freemem(), typeof o.uptime(), o.userInfo().username, typeof o.networkInterfaces(), o.constants.signals.SIGTERM];`,
['\n', 'linux', 'Linux', 'wasm32', 'fn-1', '/tmp', '/', 'LE', true, 'number', 'number', 'number', 'node', 'object', 15]);
