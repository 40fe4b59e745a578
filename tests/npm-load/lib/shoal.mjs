// Runs every generated Function under Shoal at once: one `shoal up DIR`, which builds
// each Function (two at a time) and then serves them all, and one GET per Function.
import fs from 'node:fs';
import net from 'node:net';
import { spawn } from 'node:child_process';

// A build that makes no progress (no ✓ or ✗ line) for this long means shoal up is stuck.
const STALL_TIMEOUT_MS = 15 * 60 * 1000;
const REQUEST_TIMEOUT_MS = 60 * 1000;
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;
const TRACING_LINE = /^\s*\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/;

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts `shoal up dir` and resolves once it serves: { child, port, built: Set<name>,
 * failures: Map<name, message> }. A Function's build failure is a `✗ default/<name>: ...`
 * block on stderr (the message may take several lines); `✓ built default/<name>` on
 * stdout is a success. `onProgress(done)` is called per finished build.
 */
export async function startShoal(bin, dir, { env = process.env, onProgress = () => {}, log = () => {} } = {}) {
  const port = await freePort();
  const child = spawn(bin, ['up', dir, '--listen', `127.0.0.1:${port}`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const built = new Set();
  const failures = new Map();
  // The node's log line when a Function's module throws while it is evaluated: what a
  // 500 "User function not loaded" does not say.
  const loadErrors = new Map();
  let current = null;
  let stderrRest = '';
  let stdoutRest = '';
  return new Promise((resolve, reject) => {
    let settled = false;
    let stall;
    const progress = () => {
      clearTimeout(stall);
      stall = setTimeout(() => finish(new Error(`shoal up made no progress for ${STALL_TIMEOUT_MS / 60000} minutes`)), STALL_TIMEOUT_MS);
      onProgress(built.size + failures.size);
    };
    const finish = (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(stall);
      if (error) {
        child.kill('SIGKILL');
        reject(error);
      } else {
        resolve({ child, port, built, failures, loadErrors });
      }
    };
    progress();
    child.stdout.on('data', (chunk) => {
      const lines = (stdoutRest + chunk.toString('utf8')).split('\n');
      stdoutRest = lines.pop();
      for (const raw of lines) {
        log(raw);
        const line = raw.replace(ANSI, '');
        const loadError = /failed to load: (.*?) function=[^/\s]+\/([a-z0-9-]+)/.exec(line);
        if (loadError) loadErrors.set(loadError[2], loadError[1]);
        const ok = /^✓ (?:re)?built [^/\s]+\/(\S+) in/.exec(line);
        if (ok) {
          built.add(ok[1]);
          current = null;
          progress();
        }
        if (/^Shoal is serving \d+ Functions/.test(line)) finish();
      }
    });
    child.stderr.on('data', (chunk) => {
      const lines = (stderrRest + chunk.toString('utf8')).split('\n');
      stderrRest = lines.pop();
      for (const raw of lines) {
        log(raw);
        const line = raw.replace(ANSI, '');
        const loadError = /failed to load: (.*?) function=[^/\s]+\/([a-z0-9-]+)/.exec(line);
        if (loadError) {
          loadErrors.set(loadError[2], loadError[1]);
          continue;
        }
        // The node's own log lines (timestamped) interleave with a build's message.
        if (TRACING_LINE.test(line)) continue;
        const failed = /^✗ [^/\s]+\/([a-z0-9-]+): ?(.*)$/.exec(line);
        if (failed) {
          current = failed[1];
          failures.set(current, failed[2]);
          progress();
        } else if (/^[!✓✗]/.test(line)) {
          current = null;
        } else if (current && line.trim()) {
          failures.set(current, `${failures.get(current)}\n${line}`);
        }
      }
    });
    child.on('exit', (code, signal) => finish(new Error(`shoal up exited (code ${code}, signal ${signal})`)));
  });
}

/** GET one Function: { status: 'ok', body } for a 200 with JSON, else { status: 'error', http, text }. */
export async function callFunction(port, name) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  try {
    const res = await fetch(`http://127.0.0.1:${port}/default/${name}/`, { signal: controller.signal });
    const text = await res.text();
    if (res.status === 200) {
      try {
        return { status: 'ok', body: JSON.parse(text) };
      } catch {
        return { status: 'error', http: res.status, text: `not JSON: ${text.slice(0, 500)}` };
      }
    }
    return { status: 'error', http: res.status, text: text.slice(0, 2000) };
  } catch (error) {
    return { status: 'error', http: null, text: `request failed: ${error.cause ? error.cause.message : error.message}` };
  } finally {
    clearTimeout(timer);
  }
}

/** A folder holding exactly the given Function folders' names, emptied of others first. */
export function prepareUpDir(dir, keep) {
  fs.mkdirSync(dir, { recursive: true });
  for (const ent of fs.readdirSync(dir)) {
    if (!keep.has(ent)) fs.rmSync(`${dir}/${ent}`, { recursive: true, force: true });
  }
}
