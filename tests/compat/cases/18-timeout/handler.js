// FUNC_TIMEOUT=1: a request that takes longer gets 408 from the runtime.
const { setTimeout: sleep } = require('node:timers/promises');

module.exports = {
  main: async function (event) {
    const ms = Number(event.extensions.request.query.ms || '0');
    await sleep(ms);
    return { sleptMs: ms };
  },
};
