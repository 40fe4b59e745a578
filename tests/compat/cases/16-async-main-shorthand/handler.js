// `async main()` as a method shorthand: Kyma's loader misreads this form, Shoal must load it.
const { setTimeout: sleep } = require('node:timers/promises');

module.exports = {
  async main(event, context) {
    await sleep(5);
    return { loaded: true, name: context['function-name'], echo: event.data || null };
  },
};
