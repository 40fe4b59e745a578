// Failing Functions: thrown strings are the answer's text, anything else is hidden.
class ValidationError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ValidationError';
    this.statusCode = 422;
  }
}

module.exports = {
  main: async function (event) {
    const kind = event.extensions.request.query.kind;
    if (kind === 'string') throw 'Order 17 is locked';
    if (kind === 'error') throw new Error('database connection refused');
    if (kind === 'custom') throw new ValidationError('qty must be positive');
    if (kind === 'reject-string') return Promise.reject('upstream said no');
    if (kind === 'type-error') return event.data.missing.field;
    if (kind === 'status-then-throw') {
      event.setResponseStatus(422);
      throw new Error('too late for 422');
    }
    if (kind === 'object') throw { code: 'E42', message: 'plain object' };
    if (kind === 'async-callback') {
      // Thrown outside the request's promise chain: logged, the request still answers.
      setTimeout(() => { throw new Error('from a timer'); }, 1);
      await new Promise((r) => setTimeout(r, 20));
      return { survived: true };
    }
    return { ok: true };
  },
};
