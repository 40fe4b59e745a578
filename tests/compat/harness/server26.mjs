// A small Kyma-like Node.js runtime for the compat corpus: nodejs26, the "new API".
//
//   node server26.mjs <function-dir> <port>
//
// Written from a reading of kyma-project/serverless components/runtimes/nodejs26
// (server.mjs, lib/helper.js, lib/tracer.js, sdk/). The Function exports
// `main(req, res)` and gets Express 5's own request and response; what it returns is
// ignored. It reads its metadata, CloudEvents and tracer from the `sdk` module
// (./kyma-sdk, reached through a resolve hook, see below).
//
// What it reproduces:
//   - body parsers in Kyma's order and with its options: JSON (also
//     application/cloudevents+json, strict: false), text/*, urlencoded (extended), and raw
//     bytes for everything else, each limited to FUNC_BODY_MB_LIMIT megabytes;
//   - res.setTimeout(FUNC_TIMEOUT s) answering 408 through res.sendStatus;
//   - GET /healthz -> OK, GET /favicon.ico -> empty 204, every other method and path
//     (route `*path`) to the Function, with Access-Control-Allow-Origin: * and the runtime
//     answering OPTIONS preflights itself;
//   - a synchronous throw or a rejected promise is logged and, unless the response has
//     ended, answered with res.status(500).send(the error if it is a string, else
//     "Internal server error");
//   - OpenTelemetry as Kyma sets it up: NodeTracerProvider, ParentBased(AlwaysOn), W3C trace
//     context + B3 multi-header propagation, HTTP and Express instrumentation, an OTLP/HTTP
//     exporter only when TRACE_COLLECTOR_ENDPOINT is set.
// Where it deliberately differs from Kyma's code (which falls short of its own intent):
//   - express, body-parser and the sdk are loaded after the tracer is set up, as Kyma's own
//     comment asks ("require express must be called AFTER tracer was setup"). Kyma's
//     hoisted ESM imports load them first, so its HTTP instrumentation only takes effect
//     once something requires `http` later; without it an incoming traceparent is not
//     continued and, with no active span, Kyma's error handler itself throws;
//   - `module.exports = { async main() {} }` is loaded (Node's export lexer misreads it;
//     the harness falls back to the default export, as server.js does);
//   - the resource's service.name is FUNC_NAME (Kyma merges the default resource over it).
// Not reproduced: /metrics (Prometheus), Kyma's per-connection graceful shutdown.
//
// It listens on 127.0.0.1 only and prints `SHOAL_COMPAT_LISTENING <port>` once the
// Function's module has been loaded (or has failed to load).

import { createRequire, registerHooks } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);

const [functionDir, portArg] = process.argv.slice(2);
if (!functionDir || portArg === undefined) {
  console.error('usage: node server26.mjs <function-dir> <port>');
  process.exit(2);
}

// Errors thrown from the Function's own callbacks (timers, emitters) must not end the process.
process.on('uncaughtException', (err) => {
  console.error(`Caught exception: ${err}`);
});

const settings = {
  functionName: process.env.FUNC_NAME || '',
  namespace: process.env.SERVICE_NAMESPACE || '',
  runtime: process.env.FUNC_RUNTIME || 'nodejs26',
  bodySizeLimit: Number(process.env.FUNC_BODY_MB_LIMIT || '1'),
  timeout: Number(process.env.FUNC_TIMEOUT || '180'),
  traceCollectorEndpoint: process.env.TRACE_COLLECTOR_ENDPOINT || '',
  publisherProxyAddress: process.env.PUBLISHER_PROXY_ADDRESS || '',
};
const handlerPath = path.resolve(functionDir, 'handler.js');

console.log(`Importing function sources from ${handlerPath}:main`);
console.log(`Tracing configured with endpoint ${settings.traceCollectorEndpoint}`);
console.log(`Publisher Proxy available on address ${settings.publisherProxyAddress}`);

// ---------------------------------------------------------------------------------------
// Tracing. Must come before express and anything else that uses `http` is required: the
// instrumentations patch modules as they are required.

const otel = require('@opentelemetry/api');

// Requests the runtime answers itself, kept out of the traces.
const UNTRACED_PATHS = new Set(['/healthz', '/favicon.ico', '/metrics']);

function setUpTracing(serviceName, collectorEndpoint) {
  const { CompositePropagator, W3CTraceContextPropagator } = require('@opentelemetry/core');
  const { registerInstrumentations } = require('@opentelemetry/instrumentation');
  const { NodeTracerProvider, ParentBasedSampler, AlwaysOnSampler } = require('@opentelemetry/sdk-trace-node');
  const { SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-base');
  const { defaultResource, resourceFromAttributes } = require('@opentelemetry/resources');
  const { B3Propagator, B3InjectEncoding } = require('@opentelemetry/propagator-b3');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http');
  const { ExpressInstrumentation, ExpressLayerType } = require('@opentelemetry/instrumentation-express');
  const { ATTR_SERVICE_NAME } = require('@opentelemetry/semantic-conventions');

  // Spans leave the process only when a collector is configured.
  const spanProcessors = [];
  if (collectorEndpoint) {
    const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http');
    spanProcessors.push(new SimpleSpanProcessor(new OTLPTraceExporter({ url: collectorEndpoint })));
  }

  const provider = new NodeTracerProvider({
    resource: defaultResource().merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName })),
    // Follow the caller's sampling decision; sample every trace that starts here.
    sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    spanProcessors,
  });

  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.has(req.url) }),
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
    ],
  });

  // Global provider, AsyncLocalStorage context manager, and the propagators that read
  // (and write, on outgoing requests) traceparent/tracestate and the X-B3-* headers.
  provider.register({
    propagator: new CompositePropagator({
      propagators: [new W3CTraceContextPropagator(), new B3Propagator({ injectEncoding: B3InjectEncoding.MULTI_HEADER })],
    }),
  });

  return otel.trace.getTracer('io.kyma-project.serverless');
}

const tracer = setUpTracing(settings.functionName, settings.traceCollectorEndpoint);

// ---------------------------------------------------------------------------------------
// The `sdk` module. In Kyma it is a package of the runtime's own node_modules, which Node
// finds by walking up from the Function's folder, after the Function's own node_modules.
// Here: when normal resolution of the bare specifier `sdk` fails (for `import` and
// `require` alike), it resolves to ./kyma-sdk/index.js, the same file this server
// configures, so the Function and the server share one module instance.

const SDK_FILE = fileURLToPath(new URL('./kyma-sdk/index.js', import.meta.url));
const SDK_URL = pathToFileURL(SDK_FILE).href;

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (err) {
      if (specifier !== 'sdk' || (err.code !== 'ERR_MODULE_NOT_FOUND' && err.code !== 'MODULE_NOT_FOUND')) throw err;
      return { url: SDK_URL, format: 'commonjs', shortCircuit: true };
    }
  },
});

const sdk = require(SDK_FILE);
sdk.configure(
  tracer,
  settings.publisherProxyAddress,
  settings.functionName,
  settings.namespace,
  settings.runtime,
  settings.timeout,
  settings.bodySizeLimit,
);

// ---------------------------------------------------------------------------------------
// The HTTP server, loaded only now (see above).

const express = require('express');
const bodyParser = require('body-parser');

const app = express();
const limit = `${settings.bodySizeLimit}mb`;

app.use(bodyParser.json({ type: ['application/json', 'application/cloudevents+json'], limit, strict: false }));
app.use(bodyParser.text({ type: ['text/*'], limit }));
app.use(bodyParser.urlencoded({ limit, extended: true }));
app.use(bodyParser.raw({ limit, type: () => true }));

// Apache combined access log when SERVER_INTERNAL_LOGGER has any value, as in Kyma.
if (process.env.SERVER_INTERNAL_LOGGER) {
  app.use(require('morgan')('combined'));
}

// FUNC_TIMEOUT seconds of inactivity on the response answer 408 Request Timeout. As in
// Kyma the value is read per request, and there is no check whether headers went out.
app.use((req, res, next) => {
  const seconds = Number(process.env.FUNC_TIMEOUT || '180');
  res.setTimeout(seconds * 1000, () => res.sendStatus(408));
  next();
});

app.get('/healthz', (req, res) => res.status(200).send('OK'));
app.get('/favicon.ico', (req, res) => res.status(204).end());

let userFunction = null;

const isFunction = (value) => Boolean(value && value.constructor && value.call && value.apply);

/** Logs the error, marks the request's span failed and answers 500 unless already done. */
function failRequest(err, span, res) {
  console.error(err);
  const text = typeof err === 'string' ? err : 'Internal server error';
  if (span) {
    span.setStatus({ code: otel.SpanStatusCode.ERROR, message: text });
    span.setAttribute('error', text);
  }
  if (!res.writableEnded) res.status(500).send(text);
}

// Every other method and path (Express 5 needs the wildcard named) goes to the Function.
app.all('*path', (req, res) => {
  res.header('Access-Control-Allow-Origin', '*');

  if (req.method === 'OPTIONS') {
    // CORS preflight: allow whatever method and headers were asked for.
    res.header('Access-Control-Allow-Methods', req.headers['access-control-request-method']);
    res.header('Access-Control-Allow-Headers', req.headers['access-control-request-headers']);
    res.end();
    return;
  }

  if (!userFunction) {
    res.status(500).send('User function not loaded');
    return;
  }

  const span = otel.trace.getSpan(otel.context.active());
  try {
    const result = userFunction(req, res);
    // The value is ignored; only a rejection matters. (Kyma calls .catch on anything
    // with a .then, so a thenable without .catch throws here and answers 500.)
    if (result && typeof result.then === 'function') {
      result.catch((err) => failRequest(err, span, res));
    }
  } catch (err) {
    failRequest(err, span, res);
  }
});

async function loadFunction() {
  const started = process.hrtime.bigint();
  let mod;
  try {
    mod = await import(pathToFileURL(handlerPath).href);
  } catch (err) {
    console.error('Failed to load user function:', err);
    return;
  }
  // `import` of CommonJS exposes the names Node's export lexer finds, and the whole
  // module.exports as `default`; fall back to it for forms the lexer misreads.
  const main = isFunction(mod.main) ? mod.main : mod.default && mod.default.main;
  if (isFunction(main)) {
    userFunction = main;
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    console.log(`user code loaded in ${ms.toFixed(1)}ms`);
  } else {
    console.error("Content loaded is not a function. Make sure your function exports 'main' function");
  }
}

// Kyma listens first and imports the Function afterwards (requests in between get 500
// "User function not loaded"); the harness announces itself once both are done.
const server = app.listen(Number(portArg), '127.0.0.1', () => {
  console.log(`Starting ${settings.runtime} server 127.0.0.1:${server.address().port}`);
  loadFunction().then(() => {
    process.stdout.write(`SHOAL_COMPAT_LISTENING ${server.address().port}\n`);
  });
});

const shutdown = () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), 500).unref();
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
