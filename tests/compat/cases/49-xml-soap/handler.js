// Turning a legacy XML (SOAP-ish) message into JSON and answering in XML.
const { XMLParser, XMLBuilder, XMLValidator } = require('fast-xml-parser');

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: true, removeNSPrefix: true, isArray: (name) => name === 'Item' });
const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', format: true, indentBy: '  ' });

module.exports = {
  main: function (event) {
    const xml = typeof event.data === 'string' ? event.data : String(event.data || '');
    const valid = XMLValidator.validate(xml);
    if (valid !== true) {
      event.setResponseStatus(400);
      return { error: valid.err.code, line: valid.err.line };
    }
    const doc = parser.parse(xml);
    const order = doc.Envelope.Body.PurchaseOrder;
    const items = order.Items.Item.map((i) => ({ sku: i['@_sku'], qty: i.Qty, price: i.Price }));
    const reply = builder.build({
      '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
      Ack: { '@_order': order['@_id'], Status: 'ACCEPTED', Lines: items.length, Total: items.reduce((s, i) => s + i.qty * i.price, 0).toFixed(2) },
    });
    if (event.extensions.request.query.format === 'xml') {
      event.setResponseContentType('application/xml');
      return reply;
    }
    return { orderId: order['@_id'], buyer: order.Buyer, items, reply };
  },
};
