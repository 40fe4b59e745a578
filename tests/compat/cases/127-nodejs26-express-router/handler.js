// An Express app ported to a nodejs26 Function: the Function brings its own express
// (a dependency) and hands the runtime's req/res to an express.Router with route
// parameters, router-level middleware and an error handler.
const express = require('express');

const router = express.Router();
const customers = {
  c1: { id: 'c1', name: 'Ada Lovelace', orders: [17, 18] },
  c2: { id: 'c2', name: 'Grace Hopper', orders: [] },
};

// Already parsed by the runtime: express.json() sees req._body and leaves the body alone.
router.use(express.json());

router.use((req, res, next) => {
  res.set('X-Router', 'customers');
  if (req.method !== 'GET' && req.get('authorization') !== 'Bearer admin') {
    return res.status(403).json({ error: 'admin token required' });
  }
  next();
});

router.param('customerId', (req, res, next, id) => {
  req.customer = customers[id];
  if (!req.customer) return res.status(404).json({ error: `no customer ${id}` });
  next();
});

router.get('/customers', (req, res) => {
  res.json(Object.values(customers).map(({ id, name }) => ({ id, name })));
});

router.get('/customers/:customerId', (req, res) => {
  res.json({ ...req.customer, params: req.params, baseUrl: req.baseUrl, path: req.path, routePath: req.route.path });
});

router.get('/customers/:customerId/orders/:orderId', (req, res) => {
  const orderId = Number(req.params.orderId);
  if (!req.customer.orders.includes(orderId)) return res.status(404).json({ error: 'no such order' });
  res.json({ customer: req.customer.id, order: orderId, params: req.params });
});

router.get('/files/*rest', (req, res) => {
  res.json({ rest: req.params.rest, joined: req.params.rest.join('/') });
});

router.get('/search{/:term}', (req, res) => {
  res.json({ term: req.params.term ?? null });
});

router.post('/customers/:customerId/notes', (req, res) => {
  res.status(201).json({ customer: req.customer.id, note: req.body.note, bodyType: typeof req.body });
});

router.get('/boom', () => {
  throw new Error('handler failed');
});

router.get('/boom-async', async () => {
  await Promise.resolve();
  throw new Error('async handler failed');
});

// The router's error handler: four arguments.
router.use((err, req, res, next) => {
  res.status(500).json({ error: err.message, fromRouter: true });
});

module.exports = {
  main: function (req, res) {
    router(req, res, (err) => {
      // Nothing in the router matched (or an error escaped it).
      if (err) return res.status(500).send(`unhandled: ${err.message}`);
      res.status(404).json({ error: 'no route', method: req.method, path: req.path, params: req.params });
    });
  },
};
