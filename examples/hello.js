// The smallest Function: answers every request with a greeting.
module.exports = {
  main: function (event, context) {
    return `Hello from ${context["function-name"]} on Shoal!`;
  },
};
