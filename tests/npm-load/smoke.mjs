// One smoke call per package, taken from the package's README (its first or main usage
// example), written so the result is deterministic and JSON-comparable (fixed dates and
// inputs, no randomness in what is returned, no network).
//
// Each is `(m) => result` (or a promise), its source pasted into the generated handler:
// `m` is what the Function loaded, `require(name)` for a CommonJS package, the module
// namespace for an ESM-only one. A smoke call may load a peer dependency the README
// example needs (postcss for its plugins) with `require` in a CommonJS Function or
// `import()` in an ESM one; nothing else is in scope. Packages without a call here (build tools, test runners, CLIs, browser-only
// libraries, network clients) are compared by export shape only.

export default {
  eslint: (m) =>
    new m.Linter().verify('var a = 1; if (a == 2) { a = 3; }', [{ rules: { 'no-var': 'error', eqeqeq: 'error' } }]).map((x) => [x.ruleId, x.line, x.column]),
  react: (m) => {
    const el = m.createElement('a', { href: '/x' }, 'link');
    return { type: el.type, props: el.props, valid: m.isValidElement(el) };
  },
  prettier: (m) => m.format('const a = {b:1}', { parser: 'babel' }),
  '@babel/core': (m) => m.transformSync('const f = (x) => x * 2;', { configFile: false, babelrc: false }).code,
  chai: (m) => {
    m.expect([1, 2]).to.have.lengthOf(2);
    try {
      m.assert.equal(3, 4);
      return 'no throw';
    } catch (e) {
      return e.message;
    }
  },
  lodash: (_) => [
    _.chunk(['a', 'b', 'c', 'd'], 2),
    _.defaults({ a: 1 }, { a: 3, b: 2 }),
    _.partition([1, 2, 3, 4], (n) => n % 2),
    _.template('hello <%= user %>!')({ user: 'fred' }),
    _.camelCase('Foo Bar'),
  ],
  chalk: (m) => new m.Chalk({ level: 1 }).red.bold('x'),
  tslib: (m) => m.__assign({ a: 1 }, { b: 2 }),
  axios: (m) => [
    m.getUri({ url: '/x', params: { a: 1, b: [2, 3] }, baseURL: 'https://example.com' }),
    m.AxiosHeaders.from('a: 1\nb: 2').toJSON(),
  ],
  vue: (m) => {
    const state = m.reactive({ n: 1 });
    const doubled = m.computed(() => state.n * 2);
    state.n = 5;
    return doubled.value;
  },
  express: (m) => {
    const app = m();
    app.set('title', 'My Site');
    return [app.get('title'), app.enabled('etag'), app.get('env')];
  },
  autoprefixer: async (m) =>
    (await require('postcss')([m({ overrideBrowserslist: ['chrome 20'] })]).process('a { display: flex }', { from: undefined })).css,
  commander: (m) => {
    const program = new m.Command();
    program.option('-d, --debug').option('-p, --pizza-type <type>');
    program.parse(['node', 'x', '-d', '-p', 'cheese']);
    return program.opts();
  },
  'fs-extra': (m) => m.pathExistsSync('/nonexistent-npm-load'),
  sinon: (m) => {
    const fake = m.fake.returns(42);
    fake(1, 2);
    return [fake.callCount, fake.lastArg, fake()];
  },
  'vue-template-compiler': (m) => m.compile('<div>{{ msg }}</div>').render,
  '@rollup/plugin-node-resolve': (m) => (m.nodeResolve || m.default)().name,
  '@rollup/plugin-commonjs': (m) => (m.default || m)().name,
  moment: (m) => [
    m.utc('2024-02-29T12:00:00Z').add(1, 'year').format('YYYY-MM-DD dddd'),
    m.duration(90, 'minutes').humanize(),
    m.utc('2020-01-01').from(m.utc('2020-03-01')),
  ],
  glob: (m) => [m.hasMagic('src/*.js'), m.hasMagic('src/a.js'), m.escape('a*b')],
  debug: (m) => {
    const log = m('npm-load');
    return [log.namespace, log.enabled, m.enabled('npm-load')];
  },
  'rollup-plugin-terser': (m) => m.terser().name,
  semver: (m) => [
    m.satisfies('1.2.3', '^1.0.0'),
    m.valid('1.2.3'),
    m.clean('  =v1.2.3   '),
    m.gt('1.2.3', '9.8.7'),
    m.minVersion('>=1.0.0').version,
    m.coerce('v2').version,
  ],
  yargs: (m) => {
    const argv = m.default(['-x', '3', '--fast']).parseSync();
    return [argv.x, argv.fast, argv._];
  },
  dotenv: (m) => m.parse('A=1\nB="two words"\n# comment\nC=\'x\''),
  rxjs: (m) => {
    const out = [];
    m.of(1, 2, 3)
      .pipe(
        m.map((x) => x * 10),
        m.filter((x) => x > 10),
      )
      .subscribe((v) => out.push(v));
    return out;
  },
  uuid: (m) => [
    m.validate('9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d'),
    m.version('9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d'),
    m.v5('hello', '6ba7b811-9dad-11d1-80b4-00c04fd430c8'),
    m.v3('hello', '6ba7b811-9dad-11d1-80b4-00c04fd430c8'),
    m.v4().length,
    m.NIL,
  ],
  less: async (m) => (await (m.default || m).render('@c: #f00; .a { color: @c; .b { width: (1 + 1) * 10px; } }')).css,
  postcss: (m) => [
    m.parse('a{color:red;b:c}').first.nodes.map((d) => [d.prop, d.value]),
    m([]).process('a { }', { from: undefined }).css,
  ],
  async: async (m) => [await m.mapLimit([1, 2, 3], 2, async (x) => x * 2), await m.series([async () => 'a', async () => 'b'])],
  classnames: (m) => m('foo', { bar: true, duck: false }, 'baz', { quux: true }),
  'node-fetch': (m) => {
    const headers = new m.Headers({ 'Content-Type': 'text/plain' });
    return [headers.get('content-type'), m.isRedirect(301), m.isRedirect(200)];
  },
  minimist: (m) => m(['-x', '3', '-y', '4', '-n5', '-abc', '--beep=boop', 'foo', 'bar', 'baz']),
  'webpack-merge': (m) => (m.merge || m)({ a: [1], b: { c: 1 } }, { a: [2], b: { d: 2 } }),
  jsdom: (m) => new m.JSDOM('<p class="x">Hello</p>').window.document.querySelector('p.x').textContent,
  bluebird: async (m) => [await m.map([1, 2, 3], (x) => m.delay(1).then(() => x * 2)), await m.props({ a: m.resolve(1), b: 2 })],
  should: (m) => {
    try {
      m(1).be.exactly(2);
      return 'no throw';
    } catch (e) {
      return e.message;
    }
  },
  colors: (m) => {
    m.enable();
    return [m.red('x'), m.stripColors(m.green('y'))];
  },
  'uglify-js': (m) => m.minify('function add(first, second) { return first + second; }').code,
  underscore: (m) => [m.map([1, 2, 3], (n) => n * 3), m.template('hello: <%= name %>')({ name: 'moe' }), m.uniq([1, 2, 1, 4, 1, 3])],
  'react-router-dom': (m) => m.matchPath('/users/:id', '/users/42').params,
  'react-router': (m) => m.matchPath('/users/:id', '/users/42').params,
  jsonwebtoken: (m) => {
    const token = m.sign({ sub: 'u1', iat: 1700000000 }, 'secret', { algorithm: 'HS256' });
    return [token, m.verify(token, 'secret', { clockTimestamp: 1700000001 }), m.decode(token, { complete: true }).header];
  },
  'reflect-metadata': () => {
    class Target {}
    Reflect.defineMetadata('key', 'value', Target);
    return [Reflect.getMetadata('key', Target), Reflect.hasMetadata('other', Target)];
  },
  redux: (m) => {
    const store = (m.legacy_createStore || m.createStore)((state = 0, action) => (action.type === 'inc' ? state + 1 : state));
    store.dispatch({ type: 'inc' });
    store.dispatch({ type: 'inc' });
    return store.getState();
  },
  'js-yaml': (m) => [m.load('a: 1\nb: [x, y]\nc: { d: true }'), m.dump({ a: 1, b: ['x', 'y'] })],
  path: (m) => [m.join('/a/b', '../c'), m.extname('x.tar.gz'), m.relative('/a/b', '/a/c/d')],
  cheerio: (m) => {
    const $ = m.load('<h2 class="title">Hello world</h2>');
    $('h2.title').text('Hello there!');
    $('h2').addClass('welcome');
    return $.html();
  },
  '@rollup/plugin-json': (m) => (m.default || m)().name,
  jshint: (m) => {
    m.JSHINT('var a = 1\nb == null;', { undef: true });
    return m.JSHINT.errors.map((e) => e && [e.code, e.line]);
  },
  ws: (m) => new m.WebSocketServer({ noServer: true }).clients.size,
  through2: (m) =>
    new Promise((resolve) => {
      const out = [];
      const upper = (m.default || m)((chunk, enc, cb) => cb(null, chunk.toString().toUpperCase()));
      upper.on('data', (d) => out.push(d.toString()));
      upper.on('end', () => resolve(out));
      upper.write('ab');
      upper.end('c');
    }),
  vuex: (m) => {
    const store = m.createStore({ state: { n: 1 }, mutations: { inc: (st) => st.n++ } });
    store.commit('inc');
    return store.state.n;
  },
  winston: (m) =>
    new Promise((resolve) => {
      const lines = [];
      const { Writable } = require('stream');
      const sink = new Writable({
        write(chunk, enc, cb) {
          lines.push(chunk.toString());
          cb();
        },
      });
      const logger = m.createLogger({
        format: m.format.combine(m.format.label({ label: 'npm-load' }), m.format.json()),
        transports: [new m.transports.Stream({ stream: sink })],
      });
      logger.info('hello', { a: 1 });
      logger.warn('careful');
      setTimeout(() => resolve(lines), 50);
    }),
  'coffee-script': (m) => m.compile('square = (x) -> x * x', { bare: true }),
  graphql: (m) =>
    m.graphql({ schema: m.buildSchema('type Query { hello: String }'), source: '{ hello }', rootValue: { hello: () => 'world' } }),
  qs: (m) => [m.parse('a[b][c]=d&e=1&e=2'), m.stringify({ a: { b: 'c' }, d: [1, 2] }, { encode: false })],
  handlebars: (m) => m.compile('Hi {{name}}, {{#each items}}[{{this}}]{{/each}}')({ name: 'Ann', items: [1, 2] }),
  ejs: (m) => m.render('<% if (user) { %><h2><%= user.name %></h2><% } %>', { user: { name: '<b>x</b>' } }),
  dayjs: (m) => [
    m('2018-08-08').format('YYYY-MM-DD'),
    m('2019-01-25').add(1, 'day').subtract(1, 'year').year(2009).toString(),
    m('2024-01-31').add(1, 'month').format('YYYY-MM-DD'),
  ],
  '@rollup/plugin-replace': (m) => (m.default || m)({ values: { a: 'b' }, preventAssignment: true }).name,
  ajv: (m) => {
    const Ajv = m.default || m;
    const validate = new Ajv().compile({
      type: 'object',
      properties: { foo: { type: 'integer' }, bar: { type: 'string' } },
      required: ['foo'],
      additionalProperties: false,
    });
    const good = validate({ foo: 1, bar: 'abc' });
    const bad = validate({ bar: 1 });
    return [good, bad, validate.errors.map((e) => e.message)];
  },
  mongoose: (m) => {
    const schema = new m.Schema({ name: { type: String, required: true }, age: Number });
    const Cat = m.model('Cat', schema);
    const cat = new Cat({ name: 'Zildjian', age: '3' });
    return [cat.name, cat.age, cat.validateSync() === undefined, new Cat({}).validateSync().errors.name.message];
  },
  deepmerge: (m) => m({ a: [1], b: { c: 1 } }, { a: [2], b: { d: 2 } }),
  cssnano: async (m) =>
    (await (await import('postcss')).default([m.default()]).process('a { color: #ff0000; margin: 0px 0px; }', { from: undefined })).css,
  'date-fns': (m) => [
    m.format(new Date(Date.UTC(2014, 1, 11)), 'yyyy-MM-dd'),
    m.compareAsc(new Date(1995, 6, 2), new Date(1987, 1, 11)),
    m.addDays(new Date(Date.UTC(2024, 1, 28)), 2).toISOString(),
    m.formatDistance(new Date(2020, 0, 1), new Date(2020, 2, 1)),
  ],
  cors: (m) =>
    new Promise((resolve) => {
      const headers = {};
      const res = {
        statusCode: 200,
        setHeader: (k, v) => {
          headers[k] = v;
        },
        getHeader: (k) => headers[k],
        end: () => resolve(headers),
      };
      m()({ method: 'GET', headers: { origin: 'https://a.example' } }, res, () => resolve(headers));
    }),
  ethers: (m) => {
    const wallet = new m.Wallet(`0x${'11'.repeat(32)}`);
    return [wallet.address, m.id('hello'), m.formatEther(1234567890000000000n), m.parseUnits('1.5', 9).toString()];
  },
  'object-assign': (m) => m({ foo: 0 }, { bar: 1 }, { baz: 2 }),
  'identity-obj-proxy': (m) => [m.foo, m['bar-baz']],
  marked: (m) => m.marked.parse('# Hello\n\n**bold** _it_'),
  '@vue/compiler-sfc': (m) => {
    const { descriptor } = m.parse('<template><div>{{ a }}</div></template>\n<script>export default {}</script>');
    return [descriptor.template.content, descriptor.script.content];
  },
  q: async (m) => [await m.all([m(1), m.delay(2, 5)]), await m.fcall(() => 3)],
  'crypto-js': (m) => [
    m.SHA256('Message').toString(),
    m.HmacSHA1('Message', 'Key').toString(),
    m.AES.decrypt(m.AES.encrypt('my message', 'secret key 123').toString(), 'secret key 123').toString(m.enc.Utf8),
  ],
  mongodb: (m) => [
    new m.ObjectId('507f1f77bcf86cd799439011').toHexString(),
    m.ObjectId.isValid('xyz'),
    new m.MongoClient('mongodb://localhost:27017/db').options.dbName,
  ],
  ramda: (R) => [R.map((x) => x * 2, [1, 2, 3]), R.pipe(R.add(1), R.multiply(3))(2), R.groupBy((x) => (x % 2 ? 'odd' : 'even'), [1, 2, 3, 4])],
  'highlight.js': (m) => m.highlight('const a = 1;', { language: 'javascript' }).value,
  'lodash-es': (m) => [m.chunk([1, 2, 3], 2), m.kebabCase('Foo Bar')],
  resolve: (m) => [m.isCore('fs'), m.isCore('npm-load')],
  co: (m) =>
    m(function* generator() {
      const a = yield Promise.resolve(1);
      const b = yield [Promise.resolve(2), 3];
      return [a, b];
    }),
  'socket.io': (m) => new m.Server().of('/chat').name,
  koa: (m) => {
    const app = new m();
    app.use(async (ctx) => {
      ctx.body = 'x';
    });
    return [app.middleware.length, app.env, typeof app.callback()];
  },
  figlet: (m) => m.textSync('Hi'),
  'react-is': (m) => [m.isValidElementType('div'), m.isValidElementType(123), m.isElement({})],
  'form-data': (m) => {
    const form = new m();
    form.append('a', '1');
    return [form.getHeaders()['content-type'].startsWith('multipart/form-data; boundary='), form.getLengthSync()];
  },
  'expect.js': (m) => {
    try {
      m(1).to.be(2);
      return 'no throw';
    } catch (e) {
      return e.message;
    }
  },
  minimatch: (m) => [m.minimatch('bar.foo', '*.foo'), m.minimatch('js/test.js', '**/*.+(js|ts)'), m.minimatch('a.b', '!*.b')],
  buffer: (m) => [m.Buffer.from('hi').toString('base64'), m.Buffer.byteLength('€')],
  assert: (m) => {
    try {
      m.deepStrictEqual({ a: 1 }, { a: 2 });
      return 'no throw';
    } catch (e) {
      return [e.code, e.name];
    }
  },
  'express-validator': async (m) => {
    const req = { body: { email: 'nope', n: '5' } };
    await m.body('email').isEmail().run(req);
    await m.body('n').isInt({ max: 3 }).run(req);
    return m
      .validationResult(req)
      .array()
      .map((e) => [e.path, e.msg]);
  },
  terser: async (m) => (await m.minify('function add(first, second) { return first + second; }')).code,
  immutable: (m) => {
    const map1 = m.Map({ a: 1, b: 2, c: 3 });
    const map2 = map1.set('b', 50);
    return [map1.get('b'), map2.get('b'), m.List([1, 2]).push(3).toJS(), m.is(m.Map({ a: 1 }), m.Map({ a: 1 }))];
  },
  xml2js: async (m) => [await m.parseStringPromise('<root><a x="1">t</a></root>'), new m.Builder().buildObject({ r: { a: 1 } })],
  pg: (m) => {
    const client = new m.Client({ connectionString: 'postgres://u:p@localhost:5432/db' });
    return [client.user, client.database, client.port, m.types.getTypeParser(23)('42')];
  },
  acorn: (m) => m.parse('let a = 1 + 2', { ecmaVersion: 2022 }).body[0].declarations[0].init,
  'socket.io-client': (m) => {
    const socket = m.io('http://127.0.0.1:1', { autoConnect: false });
    return [socket.connected, socket.io.opts.path];
  },
  'cookie-parser': (m) => m.JSONCookies({ a: 'j:{"b":1}', c: 'plain' }),
  redis: (m) => {
    const client = m.createClient({ url: 'redis://localhost:6379' });
    return [client.isOpen, client.isReady];
  },
  camelcase: (m) => [m.default('foo-bar'), m.default('Foo-Bar', { pascalCase: true }), m.default('--foo.bar')],
  morgan: (m) =>
    m.compile(':method :url :status')(
      m,
      { method: 'GET', url: '/x', originalUrl: '/x', headers: {} },
      { statusCode: 200, headersSent: true, getHeader: () => undefined },
    ),
  '@rollup/plugin-alias': (m) => (m.default || m)({ entries: [] }).name,
  'markdown-it': (m) => (m.default || m)().render('# markdown-it rulezz!\n\n*emph* `code`'),
  mime: (m) => [m.default.getType('txt'), m.default.getExtension('text/html'), m.default.getType('a/b/c.json')],
  'fast-glob': (m) => [m.isDynamicPattern('*.js'), m.isDynamicPattern('a.js'), m.escapePath('a*b')],
  stylus: (m) => m.render('.a\n  color red'),
  'loader-utils': (m) => [m.interpolateName({ resourcePath: '/a/b/file.png' }, '[name].[ext]', { content: 'x' }), m.urlToRequest('path/to/module.js')],
  expect: (m) => {
    const expect = m.expect || m.default || m;
    expect(1).toBe(1);
    try {
      expect({ a: 1 }).toEqual({ a: 2 });
      return 'no throw';
    } catch (e) {
      return 'threw';
    }
  },
  'http-proxy-middleware': (m) => typeof m.createProxyMiddleware({ target: 'http://127.0.0.1:1' }),
  mysql: (m) => [m.escape("O'Reilly"), m.format('SELECT * FROM ?? WHERE id = ?', ['users', 42]), m.escapeId('a.b')],
  joi: (m) => {
    const schema = m.object({
      username: m.string().alphanum().min(3).max(30).required(),
      birth_year: m.number().integer().min(1900).max(2013),
    });
    return [schema.validate({ username: 'abc', birth_year: 1994 }), schema.validate({ username: 'a' }).error.message];
  },
  'query-string': (m) => [m.default.parse('?foo=bar&a=1&a=2'), m.default.stringify({ b: 1, a: [2, 3] })],
  nanoid: (m) => [m.nanoid().length, m.customAlphabet('a', 5)(), m.urlAlphabet.length],
  clsx: (m) => (m.clsx || m.default || m)('foo', true && 'bar', { baz: false, bat: 1 }, ['hello', ['world']]),
  promise: async (m) => [await m.all([1, m.resolve(2)]), await m.denodeify((a, cb) => cb(null, a * 2))(21)],
  'prop-types': (m) => {
    const warnings = [];
    const original = console.error;
    console.error = (message) => warnings.push(message);
    try {
      m.checkPropTypes({ name: m.string.isRequired, age: m.number }, { age: 'x' }, 'prop', 'MyComponent');
    } finally {
      console.error = original;
    }
    return warnings;
  },
  'babel-core': (m) => m.transform('const a = 1;').code,
  'vue-router': (m) => {
    const router = m.createRouter({ history: m.createMemoryHistory(), routes: [{ path: '/users/:id', component: {} }] });
    return router.resolve('/users/7').params;
  },
  stylelint: async (m) =>
    (await m.default.lint({ code: 'a { color: #FFF; }', config: { rules: { 'color-hex-length': 'long' } } })).results[0].warnings.map((w) => w.text),
  '@commitlint/config-conventional': (m) => m.default.rules['type-enum'],
  'eslint-config-prettier': (m) => [m.rules.indent, m.rules['max-len']],
  shelljs: (m) => String(m.echo('hello')),
};
