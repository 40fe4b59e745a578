// Module-level state lives as long as the runtime: a counter and a small cache.
let invocations = 0;
const cache = new Map();
const startedAt = Date.now();

module.exports = {
  main: function (event) {
    invocations += 1;
    const key = event.extensions.request.query.key || 'default';
    const hit = cache.has(key);
    if (!hit) cache.set(key, { value: key.toUpperCase(), firstSeenAt: invocations });
    return {
      invocations,
      key,
      cacheHit: hit,
      entry: cache.get(key),
      cacheSize: cache.size,
      uptimeIsNumber: typeof (Date.now() - startedAt) === 'number',
    };
  },
};
