module.exports = {
  main: function (event, context) {
    const query = event.extensions.request.query;
    const name = (event.data && event.data.name) || query.name || 'world';
    return {
      message: `Hello, ${name}!`,
      method: event.extensions.request.method,
      function: context['function-name'],
    };
  },
};
