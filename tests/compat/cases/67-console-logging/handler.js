// Logging: everything goes to the Function's log; the response only says "ok".
module.exports = {
  main: function (event, context) {
    const order = { id: 42, customer: { name: 'Ada', tier: 'gold' }, lines: [{ sku: 'A', qty: 2 }] };
    console.log('processing order', order.id, 'for', context['function-name']);
    console.log('order: %j', order);
    console.log('object:', order);
    console.info('info level', { ok: true });
    console.warn('warning: stock low for %s (%d left)', 'A-100', 3);
    console.error('error level', new Error('simulated failure').message);
    console.debug('debug level');
    console.table([{ sku: 'A', qty: 2 }, { sku: 'B', qty: 5 }]);
    console.dir({ deep: { deeper: { deepest: { bottom: 1 } } } }, { depth: 0 });
    console.group('group');
    console.log('indented');
    console.groupEnd();
    console.count('calls');
    console.count('calls');
    console.countReset('calls');
    console.time('work');
    for (let i = 0; i < 1000; i++);
    console.timeEnd('work');
    console.assert(1 === 2, 'assertion message is logged, not thrown');
    console.log(Buffer.from('hi'), new Map([['a', 1]]), Symbol('s'), 10n, null, undefined);
    return 'ok';
  },
};
