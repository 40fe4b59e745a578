// The smallest Function: answers every request with a greeting.
// expect: 200 Hello from hello on Shoal!
module.exports = {
  main: function (event, context) {
    return `Hello from ${context["function-name"]} on Shoal!`;
  },
};
