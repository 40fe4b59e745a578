// Fetch API classes without the network: Headers, Request, Response, Blob, FormData.
module.exports = {
  main: async function () {
    const h = new Headers({ 'Content-Type': 'application/json' });
    h.append('X-Multi', 'a');
    h.append('x-multi', 'b');
    h.set('Accept', 'text/plain');

    const req = new Request('https://api.example.com/v1/items?limit=5', {
      method: 'POST',
      headers: h,
      body: JSON.stringify({ name: 'widget' }),
    });
    const reqBody = await req.clone().json();

    const res = new Response(JSON.stringify({ ok: true }), { status: 201, statusText: 'Created', headers: { 'content-type': 'application/json' } });
    const resJson = await res.json();
    const json = Response.json({ a: 1 }, { status: 202 });

    const blob = new Blob(['hello ', 'world'], { type: 'text/plain' });
    const form = new FormData();
    form.append('name', 'Ada');
    form.append('tag', 'x');
    form.append('tag', 'y');

    const streamed = await new Response(new Blob(['chunk-1|', 'chunk-2'])).text();

    return {
      headers: [...h.entries()],
      headerGet: h.get('x-multi'),
      request: { method: req.method, url: req.url, contentType: req.headers.get('content-type'), body: reqBody, bodyUsed: req.bodyUsed },
      response: { status: res.status, statusText: res.statusText, ok: res.ok, json: resJson, bodyUsed: res.bodyUsed },
      responseJson: { status: json.status, contentType: json.headers.get('content-type'), body: await json.text() },
      blob: { size: blob.size, type: blob.type, text: await blob.text(), slice: await blob.slice(6).text() },
      form: { name: form.get('name'), tags: form.getAll('tag'), has: form.has('missing') },
      streamed,
    };
  },
};
