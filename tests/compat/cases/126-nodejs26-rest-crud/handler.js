// A small REST resource (nodejs26): /todos and /todos/<id> with GET, POST, PUT, PATCH and
// DELETE, routed on req.method and the segments of the `*path` wildcard (req.params.path).
// The store lives at module level, so the requests build on each other.
const todos = new Map();
let nextId = 1;

function validate(input, partial) {
  const errors = [];
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return ['body must be a JSON object'];
  if (!partial || 'title' in input) {
    if (typeof input.title !== 'string' || input.title.trim() === '') errors.push('title must be a non-empty string');
  }
  if ('done' in input && typeof input.done !== 'boolean') errors.push('done must be a boolean');
  return errors;
}

function collection(req, res) {
  switch (req.method) {
    case 'GET': {
      let items = [...todos.values()];
      if (req.query.done !== undefined) items = items.filter((t) => String(t.done) === req.query.done);
      res.set('X-Total-Count', String(items.length));
      return res.json(items);
    }
    case 'POST': {
      const errors = validate(req.body, false);
      if (errors.length) return res.status(422).json({ errors });
      const todo = { id: nextId++, title: req.body.title.trim(), done: Boolean(req.body.done) };
      todos.set(todo.id, todo);
      return res.status(201).location(`/todos/${todo.id}`).json(todo);
    }
    default:
      return res.set('Allow', 'GET, POST').status(405).json({ error: `${req.method} not allowed on /todos` });
  }
}

function item(req, res, id) {
  const todo = todos.get(id);
  if (!todo) return res.status(404).json({ error: `todo ${id} not found` });
  switch (req.method) {
    case 'GET':
      return res.json(todo);
    case 'PUT':
    case 'PATCH': {
      const errors = validate(req.body, req.method === 'PATCH');
      if (errors.length) return res.status(422).json({ errors });
      const updated = req.method === 'PUT' ? { id, title: req.body.title, done: Boolean(req.body.done) } : { ...todo, ...req.body, id };
      todos.set(id, updated);
      return res.json(updated);
    }
    case 'DELETE':
      todos.delete(id);
      return res.status(204).end();
    default:
      return res.set('Allow', 'GET, PUT, PATCH, DELETE').sendStatus(405);
  }
}

module.exports = {
  main: function (req, res) {
    // '/todos/3' arrives as params.path ['', 'todos', '3'].
    const segments = req.params.path.filter(Boolean);
    if (segments[0] !== 'todos' || segments.length > 2) {
      return res.status(404).json({ error: 'not found', segments });
    }
    if (segments.length === 1) return collection(req, res);
    const id = Number(segments[1]);
    if (!Number.isInteger(id) || id < 1) return res.status(400).json({ error: `invalid id ${segments[1]}` });
    return item(req, res, id);
  },
};
