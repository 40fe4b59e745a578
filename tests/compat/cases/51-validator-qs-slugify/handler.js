// Sanitising a contact form: validator, qs (nested query strings) and slugify.
const validator = require('validator');
const qs = require('qs');
const slugify = require('slugify');

module.exports = {
  main: function (event) {
    const form = event.data || {};
    const email = String(form.email || '');
    const checks = {
      email: validator.isEmail(email),
      normalizedEmail: validator.normalizeEmail(email),
      url: validator.isURL(String(form.website || ''), { require_protocol: true }),
      phone: validator.isMobilePhone(String(form.phone || ''), 'de-DE'),
      uuid: validator.isUUID('6ba7b811-9dad-11d1-80b4-00c04fd430c8'),
      ip: [validator.isIP('127.0.0.1'), validator.isIP('::1', 6), validator.isIP('999.1.1.1')],
      postal: validator.isPostalCode('69190', 'DE'),
      escaped: validator.escape(String(form.message || '')),
      trimmed: validator.trim('  padded  '),
      isInt: validator.isInt('42', { min: 1, max: 100 }),
      toBoolean: [validator.toBoolean('true'), validator.toBoolean('0'), validator.toBoolean('yes', true)],
    };
    // The raw query string, parsed with qs the way Express 4 used to.
    const raw = event.extensions.request.originalUrl.split('?')[1] || '';
    const parsed = qs.parse(raw);
    const built = qs.stringify({ filter: { status: ['open', 'new'], owner: 'me' }, page: 2 }, { encodeValuesOnly: true });
    return {
      checks,
      parsed,
      built,
      builtBrackets: qs.stringify({ a: ['x', 'y'] }, { arrayFormat: 'brackets' }),
      slug: slugify(String(form.title || 'Grüße aus Köln & Zürich!'), { lower: true, strict: true }),
      slugDefault: slugify('Crème Brûlée: 100% ©'),
      slugLocale: slugify('Ärger über Öl', { locale: 'de', lower: true }),
    };
  },
};
