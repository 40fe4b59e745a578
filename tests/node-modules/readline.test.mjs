// node:readline and node:readline/promises without a terminal: lines from
// a Readable, question(), async iteration, the cursor functions.
import { check, diff, refusal } from './harness/cases.mjs';

const rl = 'const readline = M.readline; const { Readable, PassThrough } = M.stream;';
const lines = JSON.stringify(['first line\nsec', 'ond\r\nthird\rfourth\r', '\nfifth\n\nlast without ending']);
diff('readline line events', `${rl}
  const input = Readable.from(${lines});
  const r = readline.createInterface({ input, crlfDelay: Infinity });
  const log = [];
  r.on('line', (line) => log.push(['line', line]));
  r.on('pause', () => log.push('pause'));
  return new Promise((resolve) => r.on('close', () => { log.push(['close', r.closed, r.line, r.terminal]); resolve(log); }));`);
diff('readline async iteration', `${rl}
  const r = readline.createInterface({ input: Readable.from(${lines}), crlfDelay: Infinity });
  const got = [];
  for await (const line of r) got.push(line);
  const again = readline.createInterface({ input: Readable.from(['a\\nb\\nc\\n']) });
  const firstOnly = [];
  for await (const line of again) { firstOnly.push(line); break; }
  return [got, firstOnly, again.closed];`.replace(/^/, 'return (async () => {').concat('})();'));
diff('readline question and prompt', `${rl}
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.on('data', (d) => { written += d; });
  const r = readline.createInterface({ input, output, prompt: '$ ' });
  const log = [r.getPrompt(), r.terminal];
  r.on('line', (line) => log.push(['line', line]));
  r.prompt();
  r.setPrompt('> ');
  log.push(r.getPrompt());
  return new Promise((resolve) => {
    r.question('name? ', (answer) => {
      log.push(['answer', answer, r.getPrompt()]);
      input.write('after the question\\n');
      setTimeout(() => { r.close(); log.push(written); resolve(log); }, 5);
    });
    input.write('Ada\\n');
  });`);
diff('readline/promises question', `
  const rp = M['readline/promises']; const { PassThrough } = M.stream;
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.on('data', (d) => { written += d; });
  const r = rp.createInterface({ input, output });
  const pending = r.question('color? ');
  input.write('blue\\nred\\n');
  const answer = await pending;
  const ac = new G.AbortController();
  const aborted = r.question('never? ', { signal: ac.signal }).catch((e) => [e.name, e.code]);
  ac.abort();
  const result = [answer, await aborted, written, r instanceof M.readline.Interface];
  r.close();
  return result;`.replace(/^/, 'return (async () => {').concat('})();'));
diff('readline write and crlfDelay', `${rl}
  const input = new PassThrough();
  const r = readline.createInterface({ input });
  const log = [];
  r.on('line', (l) => log.push(l));
  r.write('typed\\r');
  r.write('\\nnext\\n');
  input.write('from input\\r\\n');
  input.end('end');
  return new Promise((resolve) => r.on('close', () => resolve(log)));`);
diff('readline cursor functions', `${rl}
  const out = [];
  const stream = new M.stream.Writable({ write(data, encoding, cb) { out.push(JSON.stringify(String(data))); cb(); } });
  const results = [readline.cursorTo(stream, 3), readline.cursorTo(stream, 3, 4), readline.moveCursor(stream, -2, 3), readline.moveCursor(stream, 1, -1),
    readline.clearLine(stream, -1), readline.clearLine(stream, 1), readline.clearLine(stream, 0), readline.clearScreenDown(stream),
    readline.cursorTo(null, 1), readline.moveCursor(stream, 0, 0)];
  const errors = [];
  for (const f of [() => readline.cursorTo(stream, NaN), () => readline.cursorTo(stream, undefined, 2), () => readline.clearLine(stream, 0, 'x')]) {
    try { f(); } catch (e) { errors.push([e.code, e.message]); }
  }
  const { Readline } = M['readline/promises'];
  const rl2 = new Readline(stream);
  rl2.cursorTo(1, 2).moveCursor(3, -1).clearLine(1).clearScreenDown();
  return rl2.commit().then(() => [results, out, errors]);`);
check('readline refuses a terminal', `
  try { M.readline.createInterface({ input: new M.stream.PassThrough(), terminal: true }); return 'made'; }
  catch (e) { return [e.code, e.message]; }`,
['ERR_METHOD_NOT_IMPLEMENTED', 'readline.createInterface({ terminal: true }) is not available in Shoal: a Function has no terminal']);

refusal('readline', 'M.readline.emitKeypressEvents({})', 'ERR_METHOD_NOT_IMPLEMENTED', 'readline.emitKeypressEvents() is not available in Shoal: a Function has no terminal');
