// The baseline: one Function in its own Node.js process under Express, doing
// the per-request work Kyma's Node.js runtime (server.mjs) does: the same body
// parsers and limits, CORS, /healthz, the event and context objects,
// sendResponse and result mapping. Tracing and metrics are left out, which
// only flatters the baseline.
//
//   PORT=8080 FUNC_ID=fn-000000000001 node server.js
const express = require("express");

const port = Number(process.env.PORT || 8080);
const bodySizeLimit = Number(process.env.REQ_MB_LIMIT || "1");
const id = process.env.FUNC_ID || "fn-000000000000";

// The same handler the Shoal benchmark serves: hello world, or with
// HANDLER=json|state one of ../handlers/*.js.
const handler = process.env.HANDLER ? require(`../handlers/${process.env.HANDLER}.js`) : { main: () => `hello from ${id}` };

const app = express();
app.use(express.json({ type: ["application/json", "application/cloudevents+json"], limit: `${bodySizeLimit}mb`, strict: false }));
app.use(express.text({ type: ["text/*"], limit: `${bodySizeLimit}mb` }));
app.use(express.urlencoded({ limit: `${bodySizeLimit}mb`, extended: true }));
app.use(express.raw({ limit: `${bodySizeLimit}mb`, type: () => true }));

app.get("/healthz", (req, res) => res.status(200).send("OK"));
app.get("/favicon.ico", (req, res) => res.status(204).end());

const ceFields = ["type", "source", "eventtypeversion", "specversion", "id", "time", "datacontenttype"];

app.all("*path", (req, res) => {
  res.header("Access-Control-Allow-Origin", "*");
  if (req.method === "OPTIONS") {
    res.header("Access-Control-Allow-Methods", req.headers["access-control-request-method"]);
    res.header("Access-Control-Allow-Headers", req.headers["access-control-request-headers"]);
    return res.end();
  }
  const event = { data: req.body, extensions: { request: req, response: res } };
  for (const f of ceFields) event[`ce-${f}`] = req.get(`ce-${f}`);
  event.setResponseHeader = (k, v) => res.set(k, v);
  event.setResponseContentType = (t) => res.type(t);
  event.setResponseStatus = (s) => res.status(s);
  const context = { "function-name": id, runtime: "nodejs22", namespace: "bench" };
  const sendResponse = (body, status, headers) => {
    if (res.writableEnded) return;
    if (headers) for (const k of Object.keys(headers)) res.set(k, headers[k]);
    if (body) {
      if (status) res.status(status);
      if (typeof body === "object") res.json(body);
      else res.end(body);
    } else if (status) res.sendStatus(status);
    else res.end();
  };
  try {
    const out = handler.main(event, context, sendResponse);
    if (out && typeof out.then === "function") {
      out.then(sendResponse, (err) => { res.status(500); sendResponse(typeof err === "string" ? err : "Internal server error"); });
    } else sendResponse(out);
  } catch (err) {
    res.status(500);
    sendResponse(typeof err === "string" ? err : "Internal server error");
  }
});

app.listen(port, "127.0.0.1");
