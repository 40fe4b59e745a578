// Building storage keys and links: node:path, node:url, URL, querystring.
const path = require('path');
const url = require('url');
const querystring = require('querystring');

module.exports = {
  main: function (event) {
    const file = (event.data && event.data.file) || '/uploads/2024/invoices/INV-001.final.pdf';
    const u = new URL('https://user:pw@shop.example.com:8443/api/v1/orders/../items?b=2&a=1&a=3#frag');
    u.searchParams.append('q', 'grüne tee & co');
    u.searchParams.sort();
    const params = new URLSearchParams({ page: '2', filter: 'status:open' });
    params.set('sort', '-date');
    const legacy = url.parse('http://example.com:8080/p/a/t/h?query=string&x=1#hash', true);
    return {
      path: {
        basename: path.basename(file),
        basenameNoExt: path.basename(file, '.pdf'),
        extname: path.extname(file),
        dirname: path.dirname(file),
        join: path.join('/data', 'tenant-a', '..', 'tenant-b', './file.json'),
        resolve: path.resolve('/srv/app', 'static', '../public', 'index.html'),
        relative: path.relative('/data/orders/2024', '/data/invoices/2024/01'),
        parse: path.parse(file),
        format: path.format({ dir: '/tmp/out', name: 'report', ext: '.csv' }),
        normalize: path.normalize('/a//b/../c/./d/'),
        isAbsolute: [path.isAbsolute('/x'), path.isAbsolute('x/y')],
        sep: path.sep,
        posixJoin: path.posix.join('a', 'b', 'c.txt'),
        win32Basename: path.win32.basename('C:\\temp\\file.txt'),
      },
      url: {
        href: u.href,
        origin: u.origin,
        host: u.host,
        pathname: u.pathname,
        search: u.search,
        hash: u.hash,
        username: u.username,
        a: u.searchParams.getAll('a'),
        fileURLToPath: url.fileURLToPath('file:///srv/app/handler%20v2.js'),
        pathToFileURL: url.pathToFileURL('/srv/app/my file#1.js').href,
        relative: new URL('../img/logo.png', 'https://cdn.example.com/assets/css/site.css').href,
        idn: new URL('https://bücher.example/straße').href,
        canParse: typeof URL.canParse === 'function' ? URL.canParse('not a url') : 'n/a',
        legacy: { host: legacy.host, pathname: legacy.pathname, query: legacy.query, hash: legacy.hash },
        format: url.format({ protocol: 'https', hostname: 'api.example.com', pathname: '/v2/items', query: { limit: 10, tag: ['a', 'b'] } }),
      },
      params: params.toString(),
      paramsEntries: [...new URLSearchParams('x=1&y=%20two+words&x=3').entries()],
      querystring: {
        parse: querystring.parse('name=Ada%20Lovelace&lang=en&lang=de&empty='),
        stringify: querystring.stringify({ q: 'a b&c', list: ['1', '2'], n: 5 }),
        escape: querystring.escape('ä ö/ü?'),
      },
    };
  },
};
