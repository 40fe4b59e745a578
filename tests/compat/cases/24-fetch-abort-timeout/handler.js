// Guarding slow backends: AbortSignal.timeout and a manual AbortController.
module.exports = {
  main: async function (event) {
    const base = process.env.UPSTREAM_URL;
    const outcome = {};

    try {
      const res = await fetch(`${base}/slow?ms=500`, { signal: AbortSignal.timeout(50) });
      outcome.timeout = { ok: true, body: await res.json() };
    } catch (err) {
      outcome.timeout = { ok: false, name: err.name };
    }

    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 30);
    try {
      await fetch(`${base}/slow?ms=400`, { signal: controller.signal });
      outcome.manual = { ok: true };
    } catch (err) {
      outcome.manual = { ok: false, name: err.name, aborted: controller.signal.aborted };
    } finally {
      clearTimeout(timer);
    }

    const fast = await fetch(`${base}/slow?ms=10`, { signal: AbortSignal.timeout(2000) });
    outcome.fast = { status: fast.status, body: await fast.json() };

    const already = AbortSignal.abort();
    try {
      await fetch(`${base}/carts/1`, { signal: already });
    } catch (err) {
      outcome.preAborted = { name: err.name };
    }
    return outcome;
  },
};
