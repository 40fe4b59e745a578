// Per-request context (a correlation id) carried through async calls with AsyncLocalStorage.
const { AsyncLocalStorage } = require('async_hooks');

const als = new AsyncLocalStorage();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function log(msg) {
  const store = als.getStore();
  return `[${store ? store.correlationId : 'no-context'}] ${msg}`;
}

async function chargeCard(amount) {
  await sleep(3);
  return log(`charged ${amount}`);
}

module.exports = {
  main: async function (event) {
    const id = event.extensions.request.get('x-correlation-id') || 'generated-1';
    const outside = log('before run');
    const lines = await als.run({ correlationId: id }, async () => {
      const out = [log('start')];
      out.push(await chargeCard(10));
      const parallel = await Promise.all([
        als.run({ correlationId: `${id}/child` }, async () => {
          await sleep(2);
          return log('child task');
        }),
        (async () => {
          await sleep(1);
          return log('sibling task');
        })(),
      ]);
      out.push(...parallel);
      await new Promise((resolve) =>
        setTimeout(() => {
          out.push(log('inside setTimeout'));
          resolve();
        }, 1),
      );
      await new Promise((resolve) => setImmediate(() => resolve(out.push(log('inside setImmediate')))));
      return out;
    });
    return { outside, lines, after: log('after run') };
  },
};
