// Event-loop ordering: nextTick, microtasks, setImmediate, setTimeout, setInterval.
const { setTimeout: sleep, setImmediate: immediate } = require('timers/promises');

module.exports = {
  main: async function () {
    const order = [];
    await new Promise((resolve) => {
      setTimeout(() => order.push('timeout0'), 0);
      setImmediate(() => order.push('immediate'));
      process.nextTick(() => order.push('nextTick'));
      Promise.resolve().then(() => order.push('promise'));
      queueMicrotask(() => order.push('microtask'));
      order.push('sync');
      setTimeout(resolve, 20);
    });

    // From an I/O-free timer callback: setTimeout(0) vs setImmediate.
    const fromTimer = [];
    await new Promise((resolve) =>
      setTimeout(() => {
        setTimeout(() => fromTimer.push('timeout'), 0);
        setImmediate(() => fromTimer.push('immediate'));
        setTimeout(resolve, 15);
      }, 1),
    );

    let ticks = 0;
    await new Promise((resolve) => {
      const id = setInterval(() => {
        ticks += 1;
        if (ticks === 3) {
          clearInterval(id);
          resolve();
        }
      }, 5);
    });

    const cancelled = [];
    const t = setTimeout(() => cancelled.push('should not run'), 5);
    clearTimeout(t);
    const im = setImmediate(() => cancelled.push('should not run either'));
    clearImmediate(im);

    const value = await sleep(10, 'slept');
    const imm = await immediate('immediate-value');
    const handle = setTimeout(() => {}, 1);
    const handleInfo = { hasRef: typeof handle.hasRef === 'function' ? handle.hasRef() : null, unref: typeof handle.unref };
    clearTimeout(handle);

    const nested = [];
    await new Promise((resolve) => {
      Promise.resolve().then(() => {
        nested.push('p1');
        process.nextTick(() => nested.push('tick-from-p1'));
        Promise.resolve().then(() => nested.push('p2'));
      });
      setTimeout(() => resolve(), 5);
    });

    // Ticks before promise callbacks queued earlier by the same callback;
    // ticks queued by ticks in the same pass; ticks from promise callbacks
    // after every promise callback queued meanwhile.
    const mixed = [];
    await new Promise((resolve) => {
      setTimeout(() => {
        Promise.resolve().then(() => {
          mixed.push('promise-a');
          process.nextTick(() => mixed.push('tick-from-promise'));
          Promise.resolve().then(() => mixed.push('promise-c'));
        });
        process.nextTick(() => {
          mixed.push('tick-1');
          process.nextTick(() => mixed.push('tick-from-tick'));
          Promise.resolve().then(() => mixed.push('promise-from-tick'));
        });
        Promise.resolve().then(() => mixed.push('promise-b'));
        setTimeout(resolve, 5);
      }, 1);
    });
    const syncMain = [];
    Promise.resolve().then(() => syncMain.push('promise'));
    process.nextTick(() => syncMain.push('tick'));
    await new Promise((resolve) => setTimeout(resolve, 2));

    return { order, fromTimer, ticks, cancelled, value, imm, handleInfo, nested, mixed, syncMain };
  },
};
