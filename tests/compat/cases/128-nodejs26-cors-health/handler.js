// A public API Function (nodejs26) called from browsers: the runtime answers CORS
// preflights (OPTIONS) and /healthz itself and adds Access-Control-Allow-Origin: * to
// everything else; the Function narrows CORS for credentialed calls.
const ALLOWED = new Set(['https://shop.example.com', 'https://admin.example.com']);

module.exports = {
  main: function (req, res) {
    const origin = req.get('origin');
    if (req.path === '/account') {
      // Credentialed requests need a specific origin instead of the runtime's '*'.
      if (origin && ALLOWED.has(origin)) {
        res.set('Access-Control-Allow-Origin', origin);
        res.set('Access-Control-Allow-Credentials', 'true');
        res.vary('Origin');
      } else {
        res.removeHeader('Access-Control-Allow-Origin');
      }
      return res.json({ account: 'acc-1', origin: origin ?? null });
    }
    if (req.method === 'OPTIONS') {
      // Never reached: the runtime answers every OPTIONS request itself.
      return res.status(500).send('the Function saw OPTIONS');
    }
    res.set('Access-Control-Expose-Headers', 'X-Api-Version');
    res.set('X-Api-Version', '2');
    res.json({ method: req.method, path: req.path, origin: origin ?? null });
  },
};
