// JSON in, JSON out: echoes the body with a little arithmetic on it.
// curl: -X POST -H "Content-Type: application/json" -d '{"numbers":[1,2,3]}'
// expect: 200 {"received":{"numbers":[1,2,3]},"count":3,"sum":6,"method":"POST"}
module.exports = {
  main(event) {
    const data = event.data || {};
    const numbers = Array.isArray(data.numbers) ? data.numbers : [];
    return {
      received: data,
      count: numbers.length,
      sum: numbers.reduce((a, b) => a + b, 0),
      method: event.extensions.request.method,
    };
  },
};
