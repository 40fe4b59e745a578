// A short-link and report Function (nodejs26): redirects to the target of a short code,
// and a report answered in the format the client asks for (Accept).
const LINKS = {
  docs: 'https://kyma-project.io/#/serverless-manager/user/README',
  shop: '/shop/checkout?step=1&coupon=10%off',
  umlaut: '/ü/straße',
  xss: '/search?q=<script>alert(1)</script>',
};

const REPORT = [
  { region: 'EMEA', orders: 120, revenue: 10500.5 },
  { region: 'APJ', orders: 75, revenue: 6400 },
];

module.exports = {
  main: function (req, res) {
    // /r/<code>[?permanent=1]
    if (req.path.startsWith('/r/')) {
      const code = req.path.slice(3);
      const target = LINKS[code];
      if (!target) return res.status(404).type('text').send(`no link ${code}`);
      if (req.query.permanent) return res.redirect(301, target);
      if (req.query.see) return res.redirect(303, target);
      if (req.query.temporary) return res.redirect(307, target);
      return res.redirect(target);
    }
    if (req.path === '/login') {
      // The classic "not logged in" bounce with the original URL as a parameter.
      return res.redirect(`/auth?return=${encodeURIComponent(req.originalUrl)}`);
    }
    if (req.path === '/report') {
      return res.format({
        'application/json': () => res.json({ report: REPORT }),
        'text/csv': () => res.send(['region,orders,revenue', ...REPORT.map((r) => `${r.region},${r.orders},${r.revenue}`)].join('\n') + '\n'),
        'text/plain': () => res.send(REPORT.map((r) => `${r.region}: ${r.orders} orders`).join('\n')),
        default: () => res.status(406).send('Not Acceptable'),
      });
    }
    if (req.path === '/report-strict') {
      // Without a default, res.format answers 406 by itself (an HttpError passed to next).
      return res.format({
        json: () => res.json({ report: REPORT.length }),
        html: () => res.send(`<ul>${REPORT.map((r) => `<li>${r.region}</li>`).join('')}</ul>`),
      });
    }
    if (req.path === '/preferred') {
      return res.json({
        accepts: req.accepts(['json', 'html', 'text']),
        acceptsCsv: req.accepts('text/csv'),
        all: req.accepts(),
        language: req.acceptsLanguages('de', 'en'),
        languages: req.acceptsLanguages(),
        encoding: req.acceptsEncodings('gzip', 'br'),
        charset: req.acceptsCharsets('utf-8', 'iso-8859-1'),
      });
    }
    return res.status(404).json({ error: 'not found', path: req.path });
  },
};
