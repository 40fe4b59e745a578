// A report generator (nodejs26) with FUNC_TIMEOUT=1: the runtime answers 408 when the
// response sees no activity for that long (res.setTimeout). A Function that forgets to
// answer, or answers only by returning a value, runs into it as well.
const { setTimeout: sleep } = require('node:timers/promises');

module.exports = {
  main: async function (req, res) {
    const ms = Number(req.query.ms || 0);
    switch (req.query.mode) {
      case 'forget':
        // Returns the result instead of sending it: nodejs26 ignores return values.
        return { rows: 3 };
      case 'stream':
        // Progress lines keep the response active: a long total time is fine.
        res.type('text');
        for (let i = 1; i <= 5; i++) {
          res.write(`step ${i}/5\n`);
          await sleep(ms);
        }
        return res.end('done\n');
      case 'headers-then-wait':
        // The 408 still comes when only headers were set, nothing sent.
        res.set('X-Report-Id', 'R-7');
        res.status(202);
        await sleep(ms);
        return res.json({ late: true });
      default:
        await sleep(ms);
        return res.json({ sleptMs: ms, generated: true });
    }
  },
};
