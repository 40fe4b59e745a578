// Sign-up form validation with joi.
const Joi = require('joi');

const schema = Joi.object({
  username: Joi.string().alphanum().min(3).max(20).required(),
  email: Joi.string().email({ tlds: { allow: false } }).required(),
  age: Joi.number().integer().min(18).max(120),
  password: Joi.string().pattern(/^[a-zA-Z0-9]{8,30}$/).required(),
  repeatPassword: Joi.ref('password'),
  country: Joi.string().valid('DE', 'FR', 'PL').default('DE'),
}).with('password', 'repeatPassword');

module.exports = {
  main: function (event) {
    const { error, value } = schema.validate(event.data, { abortEarly: false, convert: true });
    if (error) {
      event.setResponseStatus(400);
      return { ok: false, message: error.message, details: error.details.map((d) => ({ path: d.path, type: d.type, message: d.message })) };
    }
    delete value.password;
    delete value.repeatPassword;
    return { ok: true, user: value };
  },
};
