// Node 22's global WebSocket (WHATWG): events and handler properties,
// binaryType, a subprotocol, the closing handshake with a code and reason
// from either side, and how a refused connection and a server that does not
// switch protocols are reported.
const wsUrl = process.env.UPSTREAM_URL.replace(/^http/, 'ws') + '/ws/echo';

function session(protocols, steps) {
  return new Promise((resolve) => {
    const log = [];
    const ws = new WebSocket(wsUrl, protocols);
    log.push({ constructed: ws.readyState, urlKept: ws.url === wsUrl, binaryType: ws.binaryType });
    ws.binaryType = 'arraybuffer';
    let step = 0;
    ws.onopen = (event) => log.push({ open: event.type, protocol: ws.protocol, readyState: ws.readyState });
    ws.addEventListener('message', (event) => {
      const data = event.data instanceof ArrayBuffer ? { bytes: [...new Uint8Array(event.data)] } : event.data;
      log.push({ message: data, originIsServer: event.origin === new URL(wsUrl).origin });
      const next = steps[step++];
      if (next === undefined) return;
      if (next.close) ws.close(next.close, next.reason);
      else if (next.bytes) ws.send(new Uint8Array(next.bytes));
      else ws.send(next.text);
    });
    ws.onclose = (event) => {
      log.push({ close: event.code, reason: event.reason, wasClean: event.wasClean, readyState: ws.readyState });
      resolve(log);
    };
    ws.onerror = (event) => log.push({ error: event.type });
  });
}

function failure(url) {
  return new Promise((resolve) => {
    const events = [];
    const ws = new WebSocket(url);
    ws.onerror = (event) => events.push({ error: event.type, readyState: ws.readyState });
    ws.onclose = (event) => {
      events.push({ close: event.code, wasClean: event.wasClean });
      resolve(events);
    };
  });
}

module.exports = {
  async main() {
    const invalid = [];
    for (const url of ['ftp://127.0.0.1/', 'file:///etc/passwd', 'not a url']) {
      try {
        new WebSocket(url);
      } catch (err) {
        invalid.push({ name: err.name, isDOMException: err instanceof DOMException });
      }
    }
    return {
      globals: [typeof WebSocket, WebSocket.CONNECTING, WebSocket.OPEN, WebSocket.CLOSING, WebSocket.CLOSED, typeof CloseEvent],
      clientCloses: await session(['chat', 'superchat'], [{ text: 'one' }, { bytes: [1, 2, 3, 255] }, { close: 4000, reason: 'bye' }]),
      serverCloses: await session([], [{ text: 'close-me' }]),
      invalid,
      refused: await failure(process.env.UPSTREAM_URL.replace(/^http/, 'ws').replace(/:\d+$/, ':1')),
      notSwitched: await failure(process.env.UPSTREAM_URL.replace(/^http/, 'ws') + '/carts/1'),
    };
  },
};
