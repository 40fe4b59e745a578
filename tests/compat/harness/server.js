'use strict';
// A small Kyma-like Node.js runtime (nodejs22/24 "legacy API") for the compat corpus.
//
//   node server.js <function-dir> <port>
//
// It behaves like Kyma's runtime server (Express 5, body-parser, cloudevents SDK),
// written from a reading of kyma-project/serverless components/runtimes/nodejs24,
// except where Kyma falls short of its own documentation (see ../README.md):
//   - any thrown non-string gives 500 "Internal server error" (Kyma's tracing code
//     turns it into an Express HTML error page),
//   - `module.exports = { async main() {} }` is loaded (Kyma's ESM import of CommonJS
//     misreads that form and answers "User function not loaded").
// It listens on 127.0.0.1 only and prints `SHOAL_COMPAT_LISTENING <port>` once the
// Function's module has been loaded (or has failed to load).

const path = require('node:path');
const { pathToFileURL } = require('node:url');
const express = require('express');
const bodyParser = require('body-parser');
const axios = require('axios');
const { HTTP, CloudEvent } = require('cloudevents');

const [functionDir, portArg] = process.argv.slice(2);
if (!functionDir || portArg === undefined) {
  console.error('usage: node server.js <function-dir> <port>');
  process.exit(2);
}

// Kyma: errors thrown from the Function's own async callbacks must not kill the pod.
process.on('uncaughtException', (err) => {
  console.error(`Caught exception: ${err}`);
});

const functionName = process.env.FUNC_NAME;
const serviceNamespace = process.env.SERVICE_NAMESPACE;
const bodySizeLimit = Number(process.env.REQ_MB_LIMIT || process.env.FUNC_BODY_MB_LIMIT || '1');
const timeout = Number(process.env.FUNC_TIMEOUT || '180');
const publisherProxyAddress =
  process.env.PUBLISHER_PROXY_ADDRESS || 'http://eventing-publisher-proxy.kyma-system.svc.cluster.local/publish';

let userFunction;

const app = express();

// The four parsers, in Kyma's order: JSON (also structured CloudEvents, any JSON value),
// text/*, urlencoded (extended: qs), and everything else as raw bytes.
app.use(bodyParser.json({ type: ['application/json', 'application/cloudevents+json'], limit: `${bodySizeLimit}mb`, strict: false }));
app.use(bodyParser.text({ type: ['text/*'], limit: `${bodySizeLimit}mb` }));
app.use(bodyParser.urlencoded({ limit: `${bodySizeLimit}mb`, extended: true }));
app.use(bodyParser.raw({ limit: `${bodySizeLimit}mb`, type: () => true }));

// FUNC_TIMEOUT seconds of socket inactivity answer 408 (Kyma uses res.setTimeout the same way).
app.use((req, res, next) => {
  res.setTimeout(timeout * 1000, () => {
    if (!res.headersSent) res.sendStatus(408);
  });
  next();
});

app.get('/healthz', (req, res) => {
  res.status(200).send('OK');
});

function isFunction(fn) {
  return Boolean(fn && fn.constructor && fn.call && fn.apply);
}

function isPromise(value) {
  return typeof value.then === 'function';
}

function resolveDataType(data) {
  switch (typeof data) {
    case 'object':
      return 'application/json';
    case 'string':
      return 'text/plain';
    default:
      return undefined;
  }
}

function isCloudEvent(req) {
  return req.is('application/cloudevents+json') || (req.get('ce-type') && req.get('ce-source'));
}

function cloudEventAttributes(req) {
  const received = HTTP.toEvent({ headers: req.headers, body: req.body });
  return {
    'ce-type': received.type,
    'ce-source': received.source,
    'ce-eventtypeversion': received.eventtypeversion,
    'ce-specversion': received.specversion,
    'ce-id': received.id,
    'ce-time': received.time,
    'ce-datacontenttype': received.datacontenttype,
    data: received.data,
  };
}

function emitCloudEvent(type, source, data, optionalAttributes) {
  const attributes = optionalAttributes || {};
  if (!attributes.datacontenttype) attributes.datacontenttype = resolveDataType(data);
  const cloudEvent = new CloudEvent(Object.assign({ type, source, data }, attributes));
  const message = HTTP.structured(cloudEvent);
  return axios({ method: 'post', baseURL: publisherProxyAddress, headers: message.headers, data: message.body });
}

function buildEvent(req, res) {
  let event = {
    extensions: { request: req, response: res },
    setResponseHeader: (key, value) => res.set(key, value),
    setResponseContentType: (type) => res.type(type),
    setResponseStatus: (status) => res.status(status),
    emitCloudEvent,
  };
  if (req.body && !req.is('multipart/*')) {
    if (isCloudEvent(req)) event = Object.assign(event, cloudEventAttributes(req));
    else event = Object.assign(event, { data: req.body });
  }
  return event;
}

// Generic route: every method and path goes to the Function.
app.all('*path', (req, res) => {
  res.header('Access-Control-Allow-Origin', '*');
  if (req.method === 'OPTIONS') {
    // CORS preflight: allow whatever was asked for.
    res.header('Access-Control-Allow-Methods', req.headers['access-control-request-method']);
    res.header('Access-Control-Allow-Headers', req.headers['access-control-request-headers']);
    res.end();
    return;
  }
  if (!userFunction) {
    res.status(500).send('User function not loaded');
    return;
  }

  const event = buildEvent(req, res);
  const context = {
    'function-name': functionName,
    runtime: process.env.FUNC_RUNTIME,
    namespace: serviceNamespace,
    timeout,
    'body-size-limit': bodySizeLimit,
  };

  // Kyma's mapping of a result, kept as is: a truthy object (a Buffer included) goes
  // through res.json, any other truthy value through Node's res.end (which throws for
  // numbers and booleans, and the throw becomes a 500 below); a falsy body ends empty.
  const sendResponse = (body, status, headers) => {
    if (res.writableEnded) return;
    if (headers) {
      for (const name of Object.keys(headers)) res.set(name, headers[name]);
    }
    if (body) {
      if (status) res.status(status);
      switch (typeof body) {
        case 'object':
          res.json(body);
          break;
        case 'undefined':
          res.end();
          break;
        default:
          res.end(body);
      }
    } else if (status) {
      res.sendStatus(status);
    } else {
      res.end();
    }
  };

  const handleError = (err) => {
    console.error(err);
    sendResponse(typeof err === 'string' ? err : 'Internal server error', 500);
  };

  try {
    const out = userFunction(event, context, sendResponse);
    if (out && isPromise(out)) {
      out.then((result) => sendResponse(result)).catch(handleError);
    } else {
      sendResponse(out);
    }
  } catch (err) {
    handleError(err);
  }
});

async function loadFunction() {
  const handlerPath = path.resolve(functionDir, 'handler.js');
  const started = process.hrtime.bigint();
  let mod;
  try {
    mod = await import(pathToFileURL(handlerPath).href);
  } catch (err) {
    console.error("The Function's code failed to load:", err);
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

loadFunction().then(() => {
  const server = app.listen(Number(portArg), '127.0.0.1', () => {
    process.stdout.write(`SHOAL_COMPAT_LISTENING ${server.address().port}\n`);
  });
  const shutdown = () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 500).unref();
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
});
