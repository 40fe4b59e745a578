// A WebSocket client with the `ws` package (as chat, market-data and
// GraphQL-subscription SDKs use it): text, binary and JSON messages echoed
// by a local server over ws: and wss: (a private CA), a subprotocol, a
// close code the server chooses, a refused connection and a server that
// does not switch protocols.
const WebSocket = require('ws');

const wsUrl = process.env.UPSTREAM_URL.replace(/^http/, 'ws') + '/ws/echo';
const wssUrl = process.env.UPSTREAM_HTTPS_URL.replace(/^https/, 'wss') + '/ws/echo';

function conversation(url, options, messages) {
  return new Promise((resolve) => {
    const log = [];
    const ws = new WebSocket(url, ['chat'], { headers: { 'x-client': 'shoal-compat' }, ...options });
    let sent = 0;
    ws.on('open', () => log.push({ open: ws.protocol, readyState: ws.readyState }));
    ws.on('message', (data, isBinary) => {
      log.push(isBinary ? { binary: [...data] } : { text: data.toString() });
      if (sent < messages.length) {
        const next = messages[sent++];
        ws.send(next.binary ? Buffer.from(next.binary) : next.text);
      }
    });
    ws.on('close', (code, reason) => {
      log.push({ close: code, reason: reason.toString(), readyState: ws.readyState });
      resolve(log);
    });
    ws.on('error', (err) => log.push({ error: err.message }));
  });
}

function failure(url) {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    const events = [];
    ws.on('error', (err) => events.push({ error: err.code || err.message }));
    ws.on('close', (code) => {
      events.push({ close: code });
      resolve(events);
    });
  });
}

module.exports = {
  async main() {
    const script = [{ text: 'hello' }, { binary: [0, 1, 2, 253, 254, 255] }, { text: JSON.stringify({ n: 1, ok: true }) }, { text: 'close-me' }];
    return {
      plain: await conversation(wsUrl, {}, script),
      secure: await conversation(wssUrl, { ca: process.env.UPSTREAM_CA }, [{ text: 'über TLS' }, { text: 'close-me' }]),
      untrusted: await failure(wssUrl),
      refused: await failure(process.env.UPSTREAM_URL.replace(/^http/, 'ws').replace(/:\d+$/, ':1')),
      notSwitched: await failure(process.env.UPSTREAM_URL.replace(/^http/, 'ws') + '/carts/1'),
    };
  },
};
