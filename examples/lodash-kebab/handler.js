// Kyma's documented dependency sample: lodash, installed from npm and bundled.
const _ = require("lodash");

module.exports = {
  main: function (event, context) {
    const text = typeof event.data === "string" && event.data ? event.data : "Hello World from Node.js Function";
    return _.kebabCase(text);
  },
};
