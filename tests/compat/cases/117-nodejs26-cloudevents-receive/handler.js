// An event subscriber (nodejs26): Kyma Eventing delivers CloudEvents in binary mode
// (ce-* headers) or structured mode (application/cloudevents+json); getCloudEvent(req)
// from the sdk turns either into a CloudEvent object, or null for a plain request.
const { getCloudEvent } = require('sdk');

function orderTotal(data) {
  return (data.entries || []).reduce((sum, e) => sum + e.qty * e.price, 0);
}

module.exports = {
  main: function (req, res) {
    const ce = getCloudEvent(req);
    if (req.query.view === 'raw') {
      // The whole event as JSON (CloudEvent#toJSON).
      return res.json(ce);
    }
    if (!ce) {
      return res.status(400).json({ error: 'expected a CloudEvent', contentType: req.get('content-type') || null });
    }
    console.log(`received ${ce.type} ${ce.id} from ${ce.source}`);
    if (ce.type === 'sap.kyma.custom.commerce.order.created.v1') {
      return res.json({
        handled: 'order.created',
        id: ce.id,
        source: ce.source,
        specversion: ce.specversion,
        time: ce.time,
        datacontenttype: ce.datacontenttype,
        eventtypeversion: ce.eventtypeversion ?? null,
        subject: ce.subject ?? null,
        dataType: typeof ce.data,
        orderCode: ce.data.orderCode,
        total: orderTotal(ce.data),
      });
    }
    res.json({
      handled: 'other',
      type: ce.type,
      id: ce.id,
      source: ce.source ?? null,
      specversion: ce.specversion,
      time: ce.time ?? null,
      dataType: Buffer.isBuffer(ce.data) ? 'buffer' : typeof ce.data,
      data: Buffer.isBuffer(ce.data) ? ce.data.toString('base64') : ce.data ?? null,
      data_base64: ce.data_base64 ?? null,
      dataClass: ce.data == null ? null : ce.data.constructor.name,
      extensions: Object.entries(ce)
        .filter(([k, v]) => v !== undefined && !['type', 'source', 'id', 'time', 'specversion', 'datacontenttype', 'data', 'data_base64', 'subject'].includes(k))
        .map(([k, v]) => `${k}=${v}`)
        .sort(),
      traceparentExt: ce.traceparent ?? null,
    });
  },
};
