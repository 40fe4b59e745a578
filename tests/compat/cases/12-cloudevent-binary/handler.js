// An event subscriber: Kyma delivers CloudEvents in binary mode (ce-* headers).
module.exports = {
  main: function (event) {
    const order = event.data || {};
    console.log(`received ${event['ce-type']} ${event['ce-id']} from ${event['ce-source']}`);
    return {
      type: event['ce-type'],
      source: event['ce-source'],
      id: event['ce-id'],
      specversion: event['ce-specversion'],
      eventtypeversion: event['ce-eventtypeversion'],
      time: event['ce-time'],
      datacontenttype: event['ce-datacontenttype'],
      orderId: order.orderCode,
      dataType: typeof event.data,
      total: (order.entries || []).reduce((s, e) => s + e.qty * e.price, 0),
    };
  },
};
