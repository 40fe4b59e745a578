// node:http2: the settings helpers and constants; sessions and servers are
// refused.
import { diff, refusal } from './harness/cases.mjs';

diff('http2 settings', `
  const h = M.http2;
  const out = [h.getDefaultSettings(), h.getPackedSettings().toString('hex'),
    h.getPackedSettings({ headerTableSize: 1, enablePush: true, initialWindowSize: 3, maxFrameSize: 16385, maxConcurrentStreams: 5, maxHeaderListSize: 6, enableConnectProtocol: true }).toString('hex'),
    h.getPackedSettings({ enablePush: false }).toString('hex'),
    h.getUnpackedSettings(G.Buffer.from('000100000001000200000001000600000007000900000005', 'hex')), h.constants.HTTP2_HEADER_STATUS, h.constants.NGHTTP2_CANCEL,
    Object.keys(h.constants).length, typeof h.sensitiveHeaders];
  for (const f of [() => h.getPackedSettings({ maxFrameSize: 1 }), () => h.getPackedSettings({ enablePush: 1 }), () => h.getPackedSettings(5),
    () => h.getUnpackedSettings(G.Buffer.alloc(5)), () => h.getUnpackedSettings('x')]) {
    try { f(); out.push('ok'); } catch (e) { out.push([e.name, e.code, e.message]); }
  }
  return out;`);

refusal('http2', 'M.http2.connect("https://example.com")', 'ERR_METHOD_NOT_IMPLEMENTED', 'http2.connect() is not available in Shoal: outbound HTTP/2 goes through fetch, http and https, performed by the node');
refusal('http2', 'M.http2.createServer()', 'ERR_METHOD_NOT_IMPLEMENTED', "http2.createServer() is not available in Shoal: a Function does not listen: Shoal's node serves it");
