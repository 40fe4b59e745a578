// JSON Schema validation of a webhook payload with ajv.
const Ajv = require('ajv');

const ajv = new Ajv({ allErrors: true, useDefaults: true, coerceTypes: false });
const validate = ajv.compile({
  type: 'object',
  required: ['event', 'payload'],
  additionalProperties: false,
  properties: {
    event: { type: 'string', enum: ['created', 'updated', 'deleted'] },
    version: { type: 'integer', minimum: 1, default: 1 },
    payload: {
      type: 'object',
      required: ['id'],
      properties: {
        id: { type: 'string', pattern: '^[a-z0-9-]+$' },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 3, uniqueItems: true },
        amount: { type: 'number', exclusiveMinimum: 0 },
      },
    },
  },
});

module.exports = {
  main: function (event) {
    const body = event.data;
    const valid = validate(body);
    if (!valid) {
      event.setResponseStatus(422);
      return {
        valid,
        errors: validate.errors.map((e) => ({ path: e.instancePath, keyword: e.keyword, message: e.message, params: e.params })),
        text: ajv.errorsText(validate.errors),
      };
    }
    return { valid, normalized: body };
  },
};
