// A session and download Function (nodejs26): cookies, response headers, content types
// and file downloads, all set through Express's res.
const SESSION_EXPIRY = new Date(Date.UTC(2030, 0, 1, 12, 0, 0));

function login(req, res) {
  const user = (req.body && req.body.user) || 'anonymous';
  res.cookie('session', `sess-${user}-42`, { httpOnly: true, secure: true, sameSite: 'strict', path: '/', expires: SESSION_EXPIRY });
  // An object value is stored as "j:" + JSON.
  res.cookie('prefs', { theme: 'dark', lang: 'de' }, { sameSite: 'lax' });
  res.cookie('tracking', 'no', { domain: 'shop.example.com', path: '/api', sameSite: 'none', secure: true, partitioned: true });
  // Values are percent-encoded (encodeURIComponent) unless the Function passes its own encode.
  res.cookie('note', 'hello world; äöü');
  res.cookie('raw', 'a:b', { encode: String });
  res.status(201).json({ loggedIn: user });
}

function remember(req, res) {
  // maxAge sets Max-Age (seconds) and an Expires from the clock.
  res.cookie('remember', '1', { maxAge: 7 * 24 * 3600 * 1000, httpOnly: true });
  res.json({ remembered: true });
}

function logout(req, res) {
  res.clearCookie('session', { path: '/', httpOnly: true, secure: true, sameSite: 'strict', maxAge: 1000 });
  res.clearCookie('prefs');
  res.sendStatus(204);
}

function headers(req, res) {
  res.set({ 'Cache-Control': 'no-store', 'X-Request-Id': req.get('x-request-id') || 'none' });
  res.set('X-Numbers', [1, 2, 3]);
  res.set('X-Count', 7);
  res.header('X-Powered-By-Function', 'nodejs26');
  res.append('Link', '<https://api.example.com/orders?page=2>; rel="next"');
  res.append('Link', ['<https://api.example.com/orders?page=9>; rel="last"']);
  res.append('Warning', '199 - "deprecated endpoint"');
  res.vary('Accept-Encoding');
  res.vary('Accept-Language');
  res.vary('accept-encoding');
  res.links({ first: 'https://api.example.com/orders?page=1' });
  res.location('/orders/17?view=full&q=a b');
  res.json({ headersSet: res.getHeaderNames().sort(), vary: res.get('Vary'), location: res.get('Location') });
}

function types(req, res) {
  const kind = req.query.type;
  if (kind === 'csv') return res.type('.csv').send('sku;qty\nA-100;2\n');
  if (kind === 'xml') return res.type('application/xml').send('<order id="17"/>');
  if (kind === 'vnd') return res.type('application/vnd.api+json').send(JSON.stringify({ data: { id: '17', type: 'orders' } }));
  if (kind === 'png') return res.type('png').send(Buffer.from('89504e470d0a1a0a', 'hex'));
  if (kind === 'html') return res.type('html').send('<h1>Order 17</h1>');
  if (kind === 'js') return res.type('js').send('console.log(17)');
  if (kind === 'set-header') {
    res.set('Content-Type', 'text/csv');
    return res.send('a,b\n1,2\n');
  }
  if (kind === 'set-header-charset') {
    res.setHeader('Content-Type', 'application/xml; charset=iso-8859-1');
    return res.send('<a/>');
  }
  if (kind === 'json-over-type') return res.type('text').json({ typed: 'text first' });
  return res.status(415).send(`unknown type ${kind}`);
}

function download(req, res) {
  const name = req.query.name || 'report.pdf';
  res.attachment(name);
  res.send(Buffer.from('%PDF-1.4 fake'));
}

function csvExport(req, res) {
  res.attachment();
  res.type('csv');
  res.send('id,total\n17,25.5\n');
}

const ROUTES = { login, remember, logout, headers, types, download, csvExport };

module.exports = {
  main: function (req, res) {
    const route = ROUTES[req.query.op];
    if (!route) {
      res.status(404).send('unknown operation');
      return;
    }
    route(req, res);
  },
};
