// An intake Function (nodejs26) that accepts what clients post in any format and reports
// what Express's body parsers made of it: JSON (any value), text, forms, raw bytes.
const crypto = require('node:crypto');

function describeBody(req) {
  const body = req.body;
  if (body === undefined) return { kind: 'undefined' };
  if (Buffer.isBuffer(body)) {
    return {
      kind: 'buffer',
      length: body.length,
      base64: body.toString('base64'),
      sha256: crypto.createHash('sha256').update(body).digest('hex').slice(0, 16),
    };
  }
  if (body === null) return { kind: 'null' };
  if (Array.isArray(body)) return { kind: 'array', value: body };
  if (typeof body === 'object') {
    return { kind: 'object', prototype: Object.getPrototypeOf(body) === null ? 'null' : 'Object', value: body };
  }
  return { kind: typeof body, value: body };
}

module.exports = {
  main: function (req, res) {
    if (req.path === '/upload') {
      // A binary upload echoed back as base64, as an image-processing Function would.
      if (!Buffer.isBuffer(req.body)) return res.status(415).json({ error: 'send bytes', got: describeBody(req).kind });
      return res.json({ bytes: req.body.length, base64: req.body.toString('base64'), first: req.body[0] });
    }
    if (req.path === '/echo-bytes') {
      // Bytes back as bytes, with the type the client sent.
      return res.type(req.get('content-type') || 'bin').send(req.body);
    }
    res.json({
      method: req.method,
      contentType: req.get('content-type') || null,
      is: {
        json: req.is('json'),
        text: req.is('text/*'),
        form: req.is('urlencoded'),
        multipart: req.is('multipart'),
        cloudevent: req.is('application/cloudevents+json'),
      },
      hasBody: req.body !== undefined,
      body: describeBody(req),
    });
  },
};
