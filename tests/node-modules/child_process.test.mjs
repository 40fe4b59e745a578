// node:child_process: starting a process fails as Node reports a process it
// could not start (asynchronously, with 'error' and 'close'); the sync
// forms throw.
import { check, diff, refusal } from './harness/cases.mjs';

refusal('child_process', 'M.child_process.execSync("id")', 'ERR_METHOD_NOT_IMPLEMENTED', 'child_process.execSync() is not available in Shoal: a Function cannot start processes');
refusal('child_process', 'new M.child_process.ChildProcess().spawn({ file: "x" })', 'ERR_METHOD_NOT_IMPLEMENTED', 'child_process.ChildProcess#spawn() is not available in Shoal: a Function cannot start processes');

// A process that cannot start fails as Node reports one: asynchronously.
check('child_process starts nothing, asynchronously', `
  const cp = M.child_process;
  const child = cp.spawn('ls', ['-l']);
  const events = [child instanceof cp.ChildProcess, child.spawnfile, child.spawnargs];
  return new Promise((resolve) => {
    child.on('error', (e) => events.push(['error', e.code, e.message]));
    child.on('close', (code) => {
      events.push(['close', code]);
      cp.exec('git rev-parse HEAD', { cwd: '/' }, (err, stdout, stderr) => {
        events.push(['exec', err.code, stdout, stderr]);
        const r = cp.spawnSync('ls');
        events.push(['spawnSync', r.status, r.error.code]);
        resolve(events);
      });
    });
  });`, [true, 'ls', ['ls', '-l'],
  ['error', 'ERR_METHOD_NOT_IMPLEMENTED', 'child_process.spawn() is not available in Shoal: a Function cannot start processes'], ['close', -2],
  ['exec', 'ERR_METHOD_NOT_IMPLEMENTED', '', ''], ['spawnSync', null, 'ERR_METHOD_NOT_IMPLEMENTED']]);
// Not kill(): Node's, on a child never spawned, signals the whole process group (pid undefined).
diff('child_process.ChildProcess before spawn', `
  const c = new M.child_process.ChildProcess();
  return [c instanceof M.events, c.pid, c.exitCode, c.signalCode, c.killed, c.connected, c.spawnfile, c.ref(), c.unref()];`);
