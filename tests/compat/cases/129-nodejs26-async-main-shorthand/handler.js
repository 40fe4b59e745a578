// A nodejs26 Function written with the async method shorthand. Node's export lexer reads
// `{ async main() {} }` as an export named "async", so a loader that takes only the named
// export `main` misses it (Kyma's nodejs26 server.mjs answers "User function not
// loaded"); the documented contract loads it, and so does the harness (module.exports'
// `main` through the default export), as for the legacy runtimes (16-async-main-shorthand).
const { setTimeout: sleep } = require('node:timers/promises');

module.exports = {
  async main(req, res) {
    await sleep(1);
    res.json({ loaded: true, greeting: `Hello ${req.query.name || 'there'}` });
  },
  helper() {
    return 'not the handler';
  },
};
