// Kyma's documented dependency sample: lodash, installed from npm and bundled.
// curl: -d "Shoal runs Kyma Functions" -H "Content-Type: text/plain"
// expect: 200 shoal-runs-kyma-functions
const _ = require("lodash");

module.exports = {
  main: function (event, context) {
    const text = typeof event.data === "string" && event.data ? event.data : "Hello World from Node.js Function";
    return _.kebabCase(text);
  },
};
