// Redirects, compressed bodies, error statuses and binary downloads with fetch.
module.exports = {
  main: async function () {
    const base = process.env.UPSTREAM_URL;

    const redirected = await fetch(`${base}/redirect`);
    const manual = await fetch(`${base}/redirect`, { redirect: 'manual' });
    const gz = await fetch(`${base}/gzip`);
    const missing = await fetch(`${base}/status/404`);
    const failing = await fetch(`${base}/status/503`);
    const big = await fetch(`${base}/big?kb=64`);
    const bigText = await big.text();
    const bytes = new Uint8Array(await (await fetch(`${base}/bytes`)).arrayBuffer());
    const text = await (await fetch(`${base}/text`)).text();
    const blob = await (await fetch(`${base}/bytes`)).blob();

    let connectError;
    try {
      const closedPort = new URL(base);
      closedPort.port = '1'; // nothing listens there
      await fetch(new URL('/unreachable', closedPort));
    } catch (err) {
      connectError = { name: err.name, message: err.message };
    }

    return {
      redirect: { status: redirected.status, redirected: redirected.redirected, path: new URL(redirected.url).pathname, cartId: (await redirected.json()).id },
      manualRedirect: { status: manual.status, location: manual.headers.get('location') },
      gzip: { status: gz.status, body: await gz.json() },
      missing: { ok: missing.ok, status: missing.status, statusText: missing.statusText, body: await missing.json() },
      failing: { ok: failing.ok, status: failing.status },
      big: { length: bigText.length, head: bigText.slice(0, 8), contentLength: big.headers.get('content-length') },
      bytes: { length: bytes.length, first: bytes[0], last: bytes[255], sum: bytes.reduce((s, b) => s + b, 0) },
      blob: { size: blob.size, type: blob.type },
      text,
      connectError,
    };
  },
};
