// Express's Router, http-errors and body-parser used as libraries inside a
// Function: routing a path with parameters, turning failures into HTTP
// errors. All three load depd, which reads V8's stack-trace API (CallSite
// objects from Error.prepareStackTrace) while loading.
const express = require('express');
const createError = require('http-errors');
const bodyParser = require('body-parser');

const router = express.Router();
router.get('/items/:id', (req, res, next) => {
  if (req.params.id === '0') return next(createError(404, 'no item 0'));
  return res.done({ item: req.params.id, path: req.path });
});
router.post('/items', (req, res) => res.done({ created: true, method: req.method }));
router.use((err, req, res, next) => next(err));

function dispatch(method, url) {
  return new Promise((resolve) => {
    const req = { method, url, headers: {} };
    const res = { done: (body) => resolve({ status: 200, body }) };
    router.handle(req, res, (err) => {
      if (err) resolve({ status: err.status, message: err.message, name: err.name, expose: err.expose });
      else resolve({ status: 404, message: `no route for ${method} ${url}` });
    });
  });
}

module.exports = {
  main: async () => {
    const routed = [];
    for (const [method, url] of [['GET', '/items/7'], ['GET', '/items/0'], ['POST', '/items'], ['DELETE', '/items/7']]) {
      routed.push(await dispatch(method, url));
    }
    const errors = [createError(400), createError(503, 'down for maintenance'), new createError.NotFound(), createError(418)].map((e) => ({
      status: e.status, statusCode: e.statusCode, name: e.name, message: e.message, expose: e.expose, isHttpError: createError.isHttpError(e),
    }));
    return {
      routed,
      errors,
      parsers: ['json', 'urlencoded', 'raw', 'text'].map((name) => typeof bodyParser[name]({})),
      appKeys: ['Router', 'Route', 'json', 'static', 'urlencoded'].map((name) => typeof express[name]),
    };
  },
};
