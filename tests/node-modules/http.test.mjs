// node:http without a socket: METHODS and STATUS_CODES (Node 22's), and
// OutgoingMessage/ServerResponse rendering a response as express does.
import { diff } from './harness/cases.mjs';

diff('http.METHODS and http.STATUS_CODES', 'return [M.http.METHODS, M.http.STATUS_CODES];');
// What express and test helpers build responses on, without a socket.
diff('http.ServerResponse without a socket', `
  const req = { method: 'GET', httpVersionMajor: 1, httpVersionMinor: 1, headers: {} };
  const res = new M.http.ServerResponse(req);
  const out = [res.statusCode, res.headersSent, res.writableEnded];
  res.setHeader('X-Trace', 'a');
  res.appendHeader('X-Trace', 'b');
  res.setHeader('Content-Type', 'text/plain');
  out.push({ ...res.getHeaders() }, res.getHeaderNames(), res.getRawHeaderNames(), res.hasHeader('content-type'), res.getHeader('x-trace'));
  res.removeHeader('content-type');
  for (const f of [() => res.setHeader('bad name', 1), () => res.setHeader('x', undefined), () => res.getHeader(1)]) {
    try { f(); out.push('ok'); } catch (e) { out.push([e.name, e.code]); }
  }
  res.statusCode = 201;
  res.end('hello');
  out.push(res.headersSent, res.writableEnded, res.finished, res._header.replace(/Date: .*\\r\\n/, ''), res.outputData.map((d) => String(d.data).replace(/Date: .*\\r\\n/, '')));
  try { res.setHeader('x-late', 1); } catch (e) { out.push([e.code, e.message]); }
  const head = new M.http.ServerResponse({ ...req, method: 'HEAD' });
  head.writeHead(404, { 'x-a': '1' });
  out.push(head._header.replace(/Date: .*\\r\\n/, ''), head.statusMessage, new M.http.OutgoingMessage().getHeaders());
  return out;`);
