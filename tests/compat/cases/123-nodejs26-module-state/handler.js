// A stock lookup with a per-key quota (nodejs26): state kept at module level lives as long
// as the Function's process, across requests: a lazily initialised client, a response
// cache, per-API-key counters and a quota answered with 429.
const UPSTREAM = process.env.UPSTREAM_URL;
const QUOTA = 3;

let initCount = 0;
let clientPromise = null;
const cache = new Map();
const usage = new Map();
const stats = { requests: 0, cacheHits: 0, cacheMisses: 0, rejected: 0 };

function client() {
  // Created on first use, shared by every later request.
  clientPromise ??= (async () => {
    initCount += 1;
    return {
      async stock(sku) {
        const r = await fetch(`${UPSTREAM}/stock?sku=${encodeURIComponent(sku)}`);
        return r.json();
      },
    };
  })();
  return clientPromise;
}

module.exports = {
  main: async function (req, res) {
    stats.requests += 1;
    if (req.path === '/stats') {
      return res.json({ ...stats, initCount, cachedSkus: [...cache.keys()].sort(), usage: Object.fromEntries(usage) });
    }
    if (req.method === 'DELETE' && req.path === '/cache') {
      const dropped = cache.size;
      cache.clear();
      return res.json({ dropped });
    }

    const key = req.get('x-api-key');
    if (!key) return res.status(401).set('WWW-Authenticate', 'ApiKey').json({ error: 'x-api-key required' });
    const used = (usage.get(key) || 0) + 1;
    usage.set(key, used);
    res.set('X-RateLimit-Limit', String(QUOTA));
    res.set('X-RateLimit-Remaining', String(Math.max(QUOTA - used, 0)));
    if (used > QUOTA) {
      stats.rejected += 1;
      return res.status(429).set('Retry-After', '60').json({ error: 'quota exceeded', key, used });
    }

    const sku = req.query.sku;
    if (!sku) return res.status(400).json({ error: 'sku required' });
    let entry = cache.get(sku);
    const hit = entry !== undefined;
    if (hit) {
      stats.cacheHits += 1;
    } else {
      stats.cacheMisses += 1;
      entry = await (await client()).stock(sku);
      cache.set(sku, entry);
    }
    res.set('X-Cache', hit ? 'HIT' : 'MISS');
    res.json({ sku: entry.sku, available: entry.available, warehouse: entry.warehouse });
  },
};
