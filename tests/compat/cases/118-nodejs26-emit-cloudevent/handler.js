// An order validator (nodejs26): it validates an incoming order and publishes follow-up
// CloudEvents through Kyma's eventing publisher proxy with the sdk's emitCloudEvent. In the
// corpus the publisher proxy is the local upstream, which records what it received; the
// Function answers with what was published (minus generated ids and times).
const { emitCloudEvent, getCloudEvent } = require('sdk');

const UPSTREAM = process.env.UPSTREAM_URL;

function stable(recorded) {
  const { headers, body } = recorded;
  if (typeof body !== 'object' || body === null) return { headers, body };
  const { id, time, ...rest } = body;
  return {
    contentType: headers['content-type'],
    ceHeaders: Object.keys(headers).filter((h) => h.startsWith('ce-')),
    idGenerated: typeof id === 'string' && id.length === 36,
    id: id.length === 36 ? '(uuid)' : id,
    time: time && time.startsWith('2024') ? time : typeof time,
    ...rest,
  };
}

async function published() {
  const r = await fetch(`${UPSTREAM}/published`);
  const { count, events } = await r.json();
  return { count, events: events.map(stable) };
}

module.exports = {
  main: async function (req, res) {
    if (req.path === '/published') return res.json(await published());

    if (req.path === '/validate') {
      const ce = getCloudEvent(req);
      const order = ce ? ce.data : req.body;
      const valid = Boolean(order && order.id && order.qty > 0);
      const response = await emitCloudEvent('sap.kyma.custom.shop.order.validated.v1', '/shop/validator', { orderId: order.id, valid });
      await emitCloudEvent('sap.kyma.custom.shop.audit.v1', '/shop/validator', `validated ${order.id}: ${valid}`, {
        eventtypeversion: 'v1',
        subject: `order/${order.id}`,
      });
      return res.status(valid ? 200 : 422).json({
        valid,
        publisherStatus: response.status,
        publisherData: response.data,
        publisherContentType: response.headers['content-type'] ?? null,
      });
    }

    if (req.path === '/variants') {
      // Fixed id and time, an explicit content type, extensions, other data types.
      await emitCloudEvent('sap.kyma.custom.shop.export.v1', '/shop/export', '<export id="9"/>', {
        id: 'EXP-9',
        time: '2024-05-06T07:08:09Z',
        datacontenttype: 'application/xml',
        dataschema: 'https://schemas.example.com/export.xsd',
        tenant: 't17',
      });
      await emitCloudEvent('sap.kyma.custom.shop.counter.v1', '/shop/counter', 42, { id: 'CNT-1', time: '2024-05-06T07:08:10.5Z' });
      await emitCloudEvent('sap.kyma.custom.shop.list.v1', '/shop/list', ['a', 'b'], { id: 'LST-1', time: '2024-05-06T07:08:11Z' });
      await emitCloudEvent('sap.kyma.custom.shop.empty.v1', '/shop/empty', null, { id: 'NUL-1', time: '2024-05-06T07:08:12Z' });
      await emitCloudEvent('sap.kyma.custom.shop.nothing.v1', '/shop/nothing', undefined, { id: 'UND-1', time: '2024-05-06T07:08:13Z' });
      return res.sendStatus(204);
    }

    if (req.path === '/invalid') {
      // The cloudevents SDK validates before anything is sent.
      try {
        await emitCloudEvent(req.query.type, '/shop/invalid', { x: 1 }, req.query.ext ? { 'Bad-Name': 'x' } : undefined);
        return res.json({ sent: true });
      } catch (err) {
        return res.status(400).json({ sent: false, error: err.name, message: String(err.message).split('\n')[0] });
      }
    }
    res.status(404).send('unknown');
  },
};
