// Custom status codes and headers, as in Kyma's "Custom HTTP Responses" docs.
module.exports = {
  main: function (event, context) {
    const query = event.extensions.request.query;
    if (query.id === undefined) {
      const res = event.extensions.response;
      res.status(400);
      return;
    }
    if (query.format === 'xml') {
      event.setResponseContentType('application/xml');
      event.setResponseHeader('Cache-Control', 'max-age=60');
      return `<order id="${query.id}"><status>shipped</status></order>`;
    }
    if (query.format === 'created') {
      event.setResponseStatus(201);
      event.setResponseHeader('Location', `/orders/${query.id}`);
      event.setResponseHeader('X-Request-Id', 'req-' + query.id);
      return { id: query.id, created: true };
    }
    if (query.format === 'text') {
      event.setResponseContentType('text');
      return `order ${query.id}`;
    }
    if (query.format === 'gone') {
      event.setResponseStatus(410);
      return 'order archived';
    }
    return { id: query.id };
  },
};
