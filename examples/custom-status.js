// Custom status codes and headers: 201 with a Location for POST, 405 otherwise.
// curl: -i -X POST -H "Content-Type: application/json" -d '{"name":"pen"}'
// expect: 201 {"created":{"name":"pen"}}
module.exports = {
  main(event, context, sendResponse) {
    const req = event.extensions.request;
    if (req.method !== "POST") {
      sendResponse({ error: "use POST" }, 405, { Allow: "POST" });
      return;
    }
    const id = Math.floor(Date.now() % 100000);
    event.setResponseStatus(201);
    event.setResponseHeader("Location", `/items/${id}`);
    event.setResponseHeader("X-Request-Id", req.get("x-request-id") || `req-${id}`);
    return { id, created: event.data };
  },
};
