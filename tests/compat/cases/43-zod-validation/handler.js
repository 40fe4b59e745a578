// Validating an incoming order with zod.
const { z } = require('zod');

const Order = z.object({
  customerId: z.string().min(3),
  email: z.string().email(),
  items: z.array(z.object({ sku: z.string().regex(/^[A-Z]-\d{3}$/), qty: z.number().int().positive() })).min(1),
  coupon: z.string().optional(),
  priority: z.enum(['normal', 'express']).default('normal'),
});

module.exports = {
  main: function (event) {
    const result = Order.safeParse(event.data);
    if (!result.success) {
      event.setResponseStatus(400);
      return {
        valid: false,
        issues: result.error.issues.map((i) => ({ path: i.path.join('.'), code: i.code, message: i.message })),
      };
    }
    const order = result.data;
    let thrown;
    try {
      z.number().max(10).parse(99);
    } catch (err) {
      thrown = { name: err.name, isZodError: err instanceof z.ZodError, message: err.issues[0].message };
    }
    return { valid: true, order, units: order.items.reduce((s, i) => s + i.qty, 0), thrown };
  },
};
