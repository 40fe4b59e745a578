// Publishing a follow-up event through Kyma's eventing publisher proxy.
module.exports = {
  main: async function (event) {
    const order = event.data || {};
    await event.emitCloudEvent('sap.kyma.custom.shop.order.validated.v1', '/shop/validator', {
      orderId: order.id,
      valid: order.qty > 0,
    });
    await event.emitCloudEvent('sap.kyma.custom.shop.audit.v1', '/shop/validator', `validated ${order.id}`, {
      eventtypeversion: 'v1',
    });
    // The publisher proxy in the corpus is the local upstream; read back what it got.
    const published = await (await fetch(`${process.env.UPSTREAM_URL}/published`)).json();
    return {
      count: published.count,
      events: published.events.map((e) => ({
        contentType: e.headers['content-type'],
        type: e.body.type,
        source: e.body.source,
        specversion: e.body.specversion,
        datacontenttype: e.body.datacontenttype,
        eventtypeversion: e.body.eventtypeversion || null,
        data: e.body.data,
        hasId: typeof e.body.id === 'string' && e.body.id.length > 0,
        hasTime: typeof e.body.time === 'string',
      })),
    };
  },
};
