// An in-process event bus for an order workflow.
const EventEmitter = require('events');
const { once } = require('node:events');

class OrderBus extends EventEmitter {}

module.exports = {
  main: async function (event) {
    const bus = new OrderBus();
    const log = [];
    bus.on('order', (o) => log.push(`audit:${o.id}`));
    bus.prependListener('order', (o) => log.push(`validate:${o.id}`));
    bus.once('order', (o) => log.push(`welcome:${o.id}`));
    bus.on('error', (err) => log.push(`error:${err.message}`));

    const hadListeners = bus.emit('order', { id: 1 });
    bus.emit('order', { id: 2 });
    bus.emit('error', new Error('payment declined'));
    const noListeners = bus.emit('unknown');

    setTimeout(() => bus.emit('shipped', { id: 1, carrier: 'DHL' }, 'extra'), 5);
    const shippedArgs = await once(bus, 'shipped');

    const counter = new EventEmitter();
    let count = 0;
    const inc = () => count++;
    counter.on('tick', inc);
    counter.emit('tick');
    counter.off('tick', inc);
    counter.emit('tick');

    let unhandled;
    try {
      new EventEmitter().emit('error', new Error('nobody listens'));
    } catch (err) {
      unhandled = err.message;
    }

    const target = new EventTarget();
    const seen = [];
    target.addEventListener('ping', (e) => seen.push(`${e.type}:${e.detail ? e.detail.n : '-'}`));
    target.dispatchEvent(new Event('ping'));
    target.dispatchEvent(new CustomEvent('ping', { detail: { n: 7 } }));

    return {
      log,
      hadListeners,
      noListeners,
      shippedArgs,
      listenerCount: bus.listenerCount('order'),
      eventNames: bus.eventNames(),
      count,
      unhandled,
      defaultMaxListeners: EventEmitter.defaultMaxListeners,
      eventTarget: seen,
      input: event.data || null,
    };
  },
};
