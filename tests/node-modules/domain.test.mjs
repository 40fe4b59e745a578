// node:domain: errors thrown by what a domain runs, binds or intercepts,
// and its emitters' unhandled 'error' events.
import { check, diff } from './harness/cases.mjs';

diff('domain bind, intercept and emitters', `
  const domain = M.domain;
  const d = domain.create();
  const log = [];
  d.on('error', (e) => log.push(['error', e.message, e.domain === d, e.domainThrown, typeof e.domainBound, e.domainEmitter ? 'emitter' : null]));
  const intercepted = d.intercept((a, b) => { log.push(['intercepted', a, b, domain.active === d, process.domain === d]); return 'r'; });
  log.push(intercepted(null, 1, 2), intercepted(new Error('first arg error')));
  const bound = d.bind(function (x) { log.push(['bound', x, this && this.t, domain.active === d]); return x * 2; });
  log.push(bound.call({ t: 'this' }, 4), bound.domain === d);
  const ee = new M.events();
  d.add(ee);
  log.push(ee.domain === d, d.members.length);
  ee.emit('error', new Error('from emitter'));
  d.remove(ee);
  log.push(ee.domain, d.members.length);
  log.push(d.run((a) => ['ran', a, domain.active === d, domain._stack.length], 'arg'), domain.active, domain._stack.length);
  return log;`);
check('domain.run gives a thrown error to the domain', `
  const d = M.domain.create();
  const log = [];
  d.on('error', (e) => log.push([e.message, e.domainThrown, e.domain === d]));
  log.push(d.run(() => { throw new Error('thrown in run'); }));
  return log;`, [['thrown in run', true, true], null]);
