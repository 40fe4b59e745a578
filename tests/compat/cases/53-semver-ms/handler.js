// Client version gating with semver, durations with ms.
const semver = require('semver');
const ms = require('ms');

const MIN_CLIENT = '2.3.0';

module.exports = {
  main: function (event) {
    const client = event.extensions.request.get('x-client-version') || '0.0.0';
    const coerced = semver.coerce(client);
    const supported = coerced !== null && semver.gte(coerced, MIN_CLIENT);
    if (!supported) event.setResponseStatus(426);
    const versions = ['1.2.3', '2.10.0', '2.9.1', '3.0.0-beta.2', '3.0.0', '2.10.0-rc.1'];
    return {
      client,
      coerced: coerced && coerced.version,
      supported,
      sorted: semver.sort([...versions]),
      maxSatisfying: semver.maxSatisfying(versions, '^2.0.0'),
      satisfies: [semver.satisfies('2.4.1', '~2.4.0'), semver.satisfies('3.0.0-beta.2', '>=2'), semver.satisfies('1.9.9', '1.x || >=2.5.0')],
      inc: [semver.inc('1.2.3', 'minor'), semver.inc('1.2.3', 'prerelease', 'rc'), semver.inc('1.2.3-rc.0', 'patch')],
      diff: semver.diff('1.2.3', '1.3.0'),
      valid: [semver.valid('1.2.3'), semver.valid('v1.2.3'), semver.valid('1.2')],
      durations: { cacheTtlMs: ms('2 days'), timeout: ms('1.5h'), short: ms(90000), long: ms(90000, { long: true }), year: ms('1y'), invalid: ms('soon') === undefined },
    };
  },
};
