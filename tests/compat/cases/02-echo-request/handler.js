// Reports what the runtime parsed for each content type.
module.exports = {
  main(event) {
    const req = event.extensions.request;
    const data = event.data;
    let kind = typeof data;
    if (Buffer.isBuffer(data)) kind = 'buffer';
    else if (Array.isArray(data)) kind = 'array';
    else if (data === null) kind = 'null';
    return {
      method: req.method,
      path: req.path,
      originalUrl: req.originalUrl,
      query: req.query,
      contentType: req.get('content-type') || null,
      is: { json: Boolean(req.is('application/json')), text: Boolean(req.is('text/*')) },
      xTenant: req.headers['x-tenant'] || null,
      hostname: req.hostname,
      kind,
      data: Buffer.isBuffer(data) ? { length: data.length, hex: data.toString('hex') } : data === undefined ? '(undefined)' : data,
    };
  },
};
