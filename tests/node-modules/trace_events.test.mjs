// node:trace_events: tracing objects load; enabling one is refused.
import { diff, refusal } from './harness/cases.mjs';

diff('trace_events', `
  const t = M.trace_events;
  const tracing = t.createTracing({ categories: ['node.perf', 'v8'] });
  const out = [t.getEnabledCategories(), tracing.categories, tracing.enabled, M.util.inspect(tracing), tracing.disable()];
  for (const f of [() => t.createTracing(), () => t.createTracing({}), () => t.createTracing({ categories: [] }), () => t.createTracing({ categories: [1] })]) {
    try { f(); out.push('made'); } catch (e) { out.push([e.name, e.code, e.message]); }
  }
  return out;`);

refusal('trace_events', 'M.trace_events.createTracing({ categories: ["v8"] }).enable()', 'ERR_METHOD_NOT_IMPLEMENTED', "trace_events.Tracing#enable() is not available in Shoal: Shoal's engine records no trace events");
