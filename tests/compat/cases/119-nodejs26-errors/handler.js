// A payment-capture Function (nodejs26) and the ways it fails. The runtime catches a
// synchronous throw or a rejected promise, logs it and answers 500 itself, unless the
// response has already ended: with the thrown string, or "Internal server error".
const { setTimeout: sleep } = require('node:timers/promises');

class PaymentError extends Error {
  constructor(message, code) {
    super(message);
    this.name = 'PaymentError';
    this.code = code;
  }
}

async function capture(amount) {
  await sleep(5);
  if (amount > 1000) throw new PaymentError(`amount ${amount} exceeds the limit`, 'LIMIT');
  return { captured: amount, reference: `CAP-${amount}` };
}

module.exports = {
  main: function (req, res) {
    const mode = req.query.fail;
    switch (mode) {
      case 'sync-error':
        throw new Error('card number missing');
      case 'sync-string':
        throw 'card number missing';
      case 'sync-object':
        throw { code: 'E42', message: 'not an Error' };
      case 'sync-null':
        throw null;
      case 'type-error':
        // A real bug: reading a property of undefined.
        return res.json({ last4: req.body.card.number.slice(-4) });
      case 'async-error':
        return capture(5000).then((r) => res.json(r));
      case 'async-string':
        return (async () => {
          await sleep(5);
          throw 'gateway said no';
        })();
      case 'async-custom':
        return (async () => {
          try {
            res.json(await capture(Number(req.query.amount)));
          } catch (err) {
            // Handled by the Function: its own status and body.
            res.status(402).json({ error: err.name, code: err.code, message: err.message });
          }
        })();
      case 'after-send':
        res.status(202).json({ accepted: true });
        throw new Error('thrown after the answer');
      case 'after-send-async':
        return (async () => {
          res.send('captured');
          await sleep(5);
          throw 'rejected after the answer';
        })();
      case 'status-then-throw':
        // The status and headers set before the throw: the status is replaced by 500,
        // the headers stay, the content type too.
        res.status(409).set('X-Payment-Id', 'P-1').type('json');
        throw new Error('conflict handling failed');
      case 'string-status':
        // Express 5 refuses a status that is not an integer: a TypeError, so a 500.
        return res.status(req.query.code).send('never sent');
      case 'status-out-of-range':
        return res.status(1000).send('never sent');
      case 'timer-throw':
        // A throw from a timer after the answer: logged by the runtime, the process lives on.
        setTimeout(() => {
          throw new Error('late failure in a timer');
        }, 1);
        return res.send('answered before the timer fired');
      case 'unhandled-rejection':
        Promise.reject(new Error('nobody awaits this'));
        return res.send('answered; a stray rejection follows');
      default:
        return capture(Number(req.query.amount || 10)).then((r) => res.json(r));
    }
  },
};
