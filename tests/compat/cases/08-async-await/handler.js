// Async work: sequential and parallel awaits, retries with backoff.
const { setTimeout: sleep } = require('timers/promises');

async function loadPrice(sku) {
  await sleep(10);
  return { sku, price: sku.length * 1.25 };
}

async function withRetry(fn, attempts) {
  let lastError;
  for (let i = 1; i <= attempts; i++) {
    try {
      return { value: await fn(i), attempts: i };
    } catch (err) {
      lastError = err;
      await sleep(5 * i);
    }
  }
  throw lastError;
}

module.exports = {
  main: async function (event) {
    const skus = (event.data && event.data.skus) || ['A-100', 'B-2000'];
    const prices = await Promise.all(skus.map(loadPrice));
    const total = prices.reduce((sum, p) => sum + p.price, 0);
    const retried = await withRetry(async (attempt) => {
      if (attempt < 3) throw new Error(`attempt ${attempt} failed`);
      return 'done';
    }, 5);
    const settled = await Promise.allSettled([sleep(1, 'a'), Promise.reject(new Error('b'))]);
    const raced = await Promise.race([sleep(50, 'slow'), sleep(5, 'fast')]);
    const any = await Promise.any([Promise.reject(new Error('x')), sleep(2, 'first-ok')]);
    return {
      prices,
      total,
      retried,
      settled: settled.map((s) => s.status + ':' + (s.value || s.reason.message)),
      raced,
      any,
    };
  },
};
