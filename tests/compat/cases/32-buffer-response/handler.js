// Serving binary content: an image, a CSV download, and a Buffer returned as is.
const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

module.exports = {
  main: function (event) {
    const what = event.extensions.request.query.what;
    const res = event.extensions.response;
    if (what === 'png') {
      event.setResponseContentType('image/png');
      event.setResponseHeader('Cache-Control', 'public, max-age=86400');
      res.send(Buffer.from(PIXEL_PNG, 'base64'));
      return;
    }
    if (what === 'csv') {
      res.set('Content-Disposition', 'attachment; filename="report.csv"');
      res.type('text/csv');
      res.end(Buffer.from('id;name\n1;Jörg\n2;Zoë\n', 'utf8'));
      return;
    }
    if (what === 'bytes') {
      event.setResponseContentType('application/octet-stream');
      event.extensions.response.write(Buffer.from([0, 1, 2, 254, 255]));
      event.extensions.response.end();
      return;
    }
    // Returned as is: the runtime's result mapping decides what a Buffer becomes.
    return Buffer.from('raw-bytes');
  },
};
