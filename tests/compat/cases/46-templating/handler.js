// Rendering an order-confirmation email with mustache and handlebars.
const Mustache = require('mustache');
const Handlebars = require('handlebars');

Handlebars.registerHelper('money', (n, currency) => `${Number(n).toFixed(2)} ${currency}`);
Handlebars.registerHelper('upper', (s) => String(s).toUpperCase());

const subjectTpl = 'Order {{orderId}} for {{customer.name}} ({{items.length}} items)';
const textTpl = '{{#items}}- {{qty}} x {{name}}\n{{/items}}{{^items}}(no items)\n{{/items}}Note: {{note}} / raw: {{{note}}}';
const htmlTpl = Handlebars.compile(
  '<h1>Hi {{upper customer.name}}</h1><ul>{{#each items}}<li>{{@index}}: {{name}} – {{money price ../currency}}{{#if @last}} (last){{/if}}</li>{{/each}}</ul>{{#unless paid}}<p>Payment pending</p>{{/unless}}{{> footer}}',
);
Handlebars.registerPartial('footer', '<footer>{{shop}}</footer>');

module.exports = {
  main: function (event) {
    const order = event.data || {
      orderId: 'A-17',
      customer: { name: 'Ada' },
      currency: 'EUR',
      paid: false,
      shop: 'Kyma Coffee & Co',
      note: '<b>leave at door</b>',
      items: [
        { name: 'Beans', qty: 2, price: 12.5 },
        { name: 'Mug', qty: 1, price: 8 },
      ],
    };
    const html = htmlTpl(order);
    if (event.extensions.request.query.format === 'html') {
      event.setResponseContentType('text/html; charset=utf-8');
      return html;
    }
    return {
      subject: Mustache.render(subjectTpl, order),
      text: Mustache.render(textTpl, order),
      html,
      escaped: Handlebars.escapeExpression('<a href="x">&</a>'),
      mustacheVersion: typeof Mustache.version,
    };
  },
};
