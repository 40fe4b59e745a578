// A product lookup Function on the nodejs26 runtime (new API): it answers through
// Express's own `res`, in every form people use, picked by ?as=. What main returns is
// ignored by the runtime; only what goes through `res` counts.
const { setTimeout: sleep } = require('node:timers/promises');

const PRODUCT = { sku: 'A-100', name: 'Coffee beans 1kg', price: 12.5, tags: ['coffee', 'beans'], discontinued: false };

async function lookUpLater(res) {
  await sleep(5);
  res.json({ async: true, product: PRODUCT.sku });
  return { ignored: true };
}

module.exports = {
  main: function (req, res) {
    switch (req.query.as) {
      case 'text':
        res.send(`Product ${PRODUCT.sku}: ${PRODUCT.name} costs ${PRODUCT.price} EUR`);
        break;
      case 'unicode':
        res.send('Grüße aus Walldorf – ☕ 😀');
        break;
      case 'object':
        res.send(PRODUCT);
        break;
      case 'array':
        res.send([PRODUCT.sku, 'B-200']);
        break;
      case 'buffer':
        res.send(Buffer.from(`sku,price\n${PRODUCT.sku},${PRODUCT.price}\n`));
        break;
      case 'bytes':
        res.send(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]));
        break;
      case 'uint8array':
        res.send(new TextEncoder().encode('from a Uint8Array'));
        break;
      case 'number':
        res.send(42);
        break;
      case 'zero':
        res.send(0);
        break;
      case 'boolean':
        res.send(false);
        break;
      case 'null':
        res.send(null);
        break;
      case 'nothing':
        res.send();
        break;
      case 'json':
        res.json(PRODUCT);
        break;
      case 'json-string':
        res.json('in stock');
        break;
      case 'json-null':
        res.json(null);
        break;
      case 'json-date':
        res.json({ at: new Date(Date.UTC(2024, 4, 6, 7, 8, 9)), missing: undefined, nan: NaN });
        break;
      case 'created':
        res.status(201).send({ ...PRODUCT, id: 7 });
        break;
      case 'bad-request':
        res.status(400).send('sku is required');
        break;
      case 'not-found-json':
        res.status(404).json({ error: 'product not found', sku: req.query.sku || null });
        break;
      case 'no-content':
        res.sendStatus(204);
        break;
      case 'accepted':
        res.sendStatus(202);
        break;
      case 'teapot':
        res.sendStatus(418);
        break;
      case 'unknown-status':
        res.sendStatus(299);
        break;
      case 'status-204-with-body':
        res.status(204).send('this body is dropped');
        break;
      case 'reset-content':
        res.status(205).send('dropped too');
        break;
      case 'end':
        res.end('ended without a type');
        break;
      case 'end-empty':
        res.status(202).end();
        break;
      case 'typed-text':
        res.type('text').send('plain text, typed');
        break;
      case 'returns-too':
        res.send('sent through res');
        return { ignored: true };
      case 'async':
        // A promise is not awaited for its value either: only a rejection would matter.
        return lookUpLater(res);
      default:
        res.status(400).json({ error: 'unknown ?as', as: req.query.as ?? null });
    }
    return 'the runtime ignores this';
  },
};
