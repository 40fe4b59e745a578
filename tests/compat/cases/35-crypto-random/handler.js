// Random identifiers and tokens (values differ per run: compared by shape).
const crypto = require('crypto');

module.exports = {
  main: function () {
    const ints = new Uint32Array(4);
    crypto.getRandomValues(ints);
    const bytes = globalThis.crypto.getRandomValues(new Uint8Array(8));
    const dice = Array.from({ length: 5 }, () => crypto.randomInt(1, 7));
    return {
      requestId: crypto.randomUUID(),
      webUuid: globalThis.crypto.randomUUID(),
      token: crypto.randomBytes(16).toString('hex'),
      apiKey: crypto.randomBytes(24).toString('base64url'),
      otp: String(crypto.randomInt(0, 1000000)).padStart(6, '0'),
      dice,
      ints: Array.from(ints),
      bytes: Array.from(bytes),
      checks: {
        uuidFormat: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(crypto.randomUUID()),
        diceInRange: dice.every((d) => d >= 1 && d <= 6),
        randomBytesLength: crypto.randomBytes(32).length,
        distinct: crypto.randomBytes(16).equals(crypto.randomBytes(16)) === false,
        mathRandomInRange: Math.random() < 1,
      },
    };
  },
};
