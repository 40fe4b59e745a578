// A Function configured by a YAML document (e.g. from a ConfigMap env var).
const YAML = require('yaml');

const config = YAML.parse(process.env.APP_CONFIG);

module.exports = {
  main: function (event) {
    // text/yaml arrives as a string, application/yaml as raw bytes (a Buffer).
    const body = Buffer.isBuffer(event.data) ? event.data.toString('utf8') : event.data;
    const doc = typeof body === 'string' && body.trim() ? YAML.parse(body) : null;
    const out = {
      config,
      routeCount: config.routes.length,
      adminLimits: config.routes[1].limits,
      posted: doc,
      dumped: YAML.stringify({ service: 'orders', replicas: 2, ports: [{ name: 'http', port: 80 }], note: 'multi\nline', empty: null }),
    };
    try {
      YAML.parse('a: [1, 2');
    } catch (err) {
      out.parseError = { name: err.name, code: err.code };
    }
    return out;
  },
};
