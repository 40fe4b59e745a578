// A pricing Function (nodejs26) that traces its work with the tracer from the sdk: a span
// around the calculation, continued from the caller's trace (W3C traceparent or B3
// headers), and the trace context passed on to a downstream call. It answers with the
// stable facts of the trace: the ids' lengths and whether they match the caller's.
const { trace, context, propagation, SpanStatusCode } = require('@opentelemetry/api');
const { getTracer } = require('sdk');
const { setTimeout: sleep } = require('node:timers/promises');

const HEX32 = /^[0-9a-f]{32}$/;
const HEX16 = /^[0-9a-f]{16}$/;

function incomingTraceId(req) {
  const tp = req.get('traceparent');
  if (tp) return tp.split('-')[1] ?? null;
  if (req.get('x-b3-traceid')) return req.get('x-b3-traceid');
  if (req.get('b3')) return req.get('b3').split('-')[0];
  return null;
}

function facts(span) {
  const sc = span.spanContext();
  return { traceIdOk: HEX32.test(sc.traceId), spanIdOk: HEX16.test(sc.spanId), traceFlags: sc.traceFlags, recording: span.isRecording() };
}

module.exports = {
  main: async function (req, res) {
    const tracer = getTracer();
    const callerTrace = incomingTraceId(req);
    const active = trace.getActiveSpan();

    await tracer.startActiveSpan('price-order', { attributes: { 'order.items': Number(req.query.items || 1) } }, async (span) => {
      try {
        await sleep(2);
        const child = tracer.startSpan('load-prices');
        child.setAttribute('cache', 'miss');
        child.end();

        // The headers a downstream call would carry.
        const carrier = {};
        propagation.inject(context.active(), carrier);
        const [, outTrace, outSpan, outFlags] = (carrier.traceparent || '---').split('-');

        span.setStatus({ code: SpanStatusCode.OK });
        const sc = span.spanContext();
        res.json({
          callerTrace,
          span: facts(span),
          continuesCallerTrace: callerTrace === null ? null : sc.traceId === callerTrace,
          sameTraceAsRuntimeSpan: active ? sc.traceId === active.spanContext().traceId : null,
          runtimeSpan: active ? facts(active) : null,
          hasParent: Boolean(span.parentSpanContext),
          parentIsRuntimeSpan: Boolean(active && span.parentSpanContext && span.parentSpanContext.spanId === active.spanContext().spanId),
          childSameTrace: child.spanContext().traceId === sc.traceId,
          outgoing: {
            headers: Object.keys(carrier).sort(),
            traceparentTraceIsOurs: outTrace === sc.traceId,
            traceparentSpanIsOurs: outSpan === sc.spanId,
            traceparentFlags: outFlags,
            tracestate: carrier.tracestate ?? null,
            b3TraceIsOurs: carrier['x-b3-traceid'] === sc.traceId,
            b3Sampled: carrier['x-b3-sampled'] ?? null,
          },
        });
      } finally {
        span.end();
      }
    });
  },
};
