// An order-search API (nodejs26) that works from Express's request: query string (the
// Express 5 "simple" parser), the path the `*path` route captured, headers, content
// negotiation and conditional requests.
const CATALOG = { version: 42, updated: 'Mon, 06 May 2024 07:08:09 GMT', items: ['A-100', 'B-200', 'C-300'] };

function requestFacts(req) {
  return {
    method: req.method,
    url: req.url,
    originalUrl: req.originalUrl,
    baseUrl: req.baseUrl,
    path: req.path,
    params: req.params,
    route: req.route && req.route.path,
    query: req.query,
    queryPrototype: Object.getPrototypeOf(req.query) === null ? 'null' : 'Object',
    hostname: req.hostname,
    host: req.host,
    subdomains: req.subdomains,
    protocol: req.protocol,
    secure: req.secure,
    xhr: req.xhr,
    ips: req.ips,
    userAgent: req.get('User-Agent') || null,
    authorization: req.header('authorization') || null,
    referrer: req.get('referrer') || null,
    tenant: req.headers['x-tenant-id'] || null,
    headerNames: Object.keys(req.headers).filter((h) => h.startsWith('x-')).sort(),
    contentLength: req.get('content-length') || null,
    range: req.range(1000) === undefined ? null : req.range(1000),
  };
}

module.exports = {
  main: function (req, res) {
    if (req.path === '/catalog') {
      // Weak ETag from Express, or the Function's own version tag and Last-Modified.
      if (req.query.versioned) {
        res.set('ETag', `"v${CATALOG.version}"`);
        res.set('Last-Modified', CATALOG.updated);
      }
      res.set('Cache-Control', 'max-age=60');
      return res.json({ fresh: req.fresh, stale: req.stale, catalog: CATALOG });
    }
    if (req.path === '/orders/search') {
      // Typical filtering on a flat query: ?status=open&status=paid&limit=10&sort=-date
      const statuses = [].concat(req.query.status || []);
      const limit = Math.min(Number.parseInt(req.query.limit, 10) || 20, 100);
      return res.json({ statuses, limit, sort: req.query.sort || 'date', filterKeys: Object.keys(req.query).sort() });
    }
    res.json(requestFacts(req));
  },
};
