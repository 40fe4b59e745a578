// A browser-called API: the runtime answers CORS preflights itself.
module.exports = {
  main: function (event) {
    const req = event.extensions.request;
    return { method: req.method, origin: req.get('origin') || null, body: event.data || null };
  },
};
