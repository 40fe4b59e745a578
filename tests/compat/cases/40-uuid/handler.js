// Ids with the uuid package: random v4 (shape) and name-based v5 (deterministic).
const { v4: uuidv4, v5: uuidv5, validate, version, NIL, parse, stringify } = require('uuid');

const ORDER_NAMESPACE = '6ba7b811-9dad-11d1-80b4-00c04fd430c8'; // the URL namespace

module.exports = {
  main: function (event) {
    const mode = event.extensions.request.query.mode;
    if (mode === 'random') {
      const id = uuidv4();
      return { id, valid: validate(id), version: version(id), bytes: parse(id).length };
    }
    const name = (event.data && event.data.url) || 'https://shop.example.com/orders/42';
    const id = uuidv5(name, ORDER_NAMESPACE);
    const dns = uuidv5('kyma-project.io', uuidv5.DNS);
    return {
      id,
      dns,
      valid: validate(id),
      version: version(id),
      invalid: validate('not-a-uuid'),
      nil: NIL,
      roundTrip: stringify(parse(id)) === id,
    };
  },
};
