// A diagnostics Function (nodejs26, CommonJS): the `sdk` module replaces the legacy
// `context` object. It reports the Function's metadata, uses the body size limit to
// reject oversized imports itself, and logs with the Function's name.
const sdk = require('sdk');
const { getFunctionName, getNamespace, getRuntime, getTimeout, getBodySizeLimit, getTracer, getCloudEvent } = require('sdk');

const startedAs = `${getNamespace()}/${getFunctionName()}`;
console.log(`starting ${startedAs} on ${getRuntime()}`);

function info() {
  const tracer = getTracer();
  return {
    functionName: getFunctionName(),
    namespace: getNamespace(),
    runtime: getRuntime(),
    timeout: getTimeout(),
    timeoutType: typeof getTimeout(),
    bodySizeLimit: getBodySizeLimit(),
    bodySizeLimitType: typeof getBodySizeLimit(),
    startedAs,
    sameModule: sdk === require('sdk') && sdk.getFunctionName === getFunctionName,
    tracer: {
      present: tracer !== null && tracer !== undefined,
      startSpan: typeof tracer.startSpan,
      startActiveSpan: typeof tracer.startActiveSpan,
    },
    sdkFunctions: ['getTracer', 'getCloudEvent', 'emitCloudEvent', 'getFunctionName', 'getNamespace', 'getRuntime', 'getTimeout', 'getBodySizeLimit'].map(
      (name) => `${name}:${typeof sdk[name]}`,
    ),
    env: {
      FUNC_NAME: process.env.FUNC_NAME,
      FUNC_RUNTIME: process.env.FUNC_RUNTIME,
      SERVICE_NAMESPACE: process.env.SERVICE_NAMESPACE,
      FUNC_TIMEOUT: process.env.FUNC_TIMEOUT,
      FUNC_BODY_MB_LIMIT: process.env.FUNC_BODY_MB_LIMIT,
      API_BASE_URL: process.env.API_BASE_URL,
      LOG_LEVEL: process.env.LOG_LEVEL,
    },
  };
}

module.exports = {
  main: function (req, res) {
    if (req.path === '/import') {
      // The runtime already refused anything over the limit (413); report how close we got.
      const bytes = Number(req.get('content-length') || 0);
      const limitBytes = getBodySizeLimit() * 1024 * 1024;
      const rows = Array.isArray(req.body) ? req.body.length : 0;
      console.log(`[${getFunctionName()}] import of ${rows} rows, ${bytes} bytes`);
      return res.status(202).json({ rows, bytes, percentOfLimit: Math.round((bytes / limitBytes) * 100) });
    }
    if (req.path === '/event') {
      // Not a CloudEvent: the sdk says null.
      return res.json({ cloudEvent: getCloudEvent(req) });
    }
    res.json(info());
  },
};
