//! The span of one invocation, when the node records traces: it continues
//! the caller's trace context (W3C `traceparent` or B3) or starts a trace,
//! respects a caller that did not sample (as Kyma's ParentBased sampler),
//! names the Function in the guest's head so the Function's own spans and
//! its outbound calls join it, and is exported, with the Function's spans,
//! once the answer is made. Nothing here runs for a node without a
//! collector.

use std::sync::Arc;
use std::time::SystemTime;

use http::StatusCode;
use shoal_envelope::{FunctionKey, GuestSpan, TraceHead};
use shoal_runtime::OutboundTrace;
use shoal_telemetry::{Scope, Span, SpanId, SpanKind, SpanSink, Status, TraceId, TraceParent, Value};

/// A recorded invocation's span, from the request's arrival to its answer.
pub(crate) struct InvocationSpan {
    sink: SpanSink,
    function: Arc<FunctionKey>,
    span: Span,
    guest_spans: Vec<GuestSpan>,
}

impl InvocationSpan {
    /// The span of a request of `function`; None when its caller's context
    /// says it is not sampled. `delivery` marks an event the node delivers
    /// itself (a Subscription) rather than a call over HTTP.
    pub(crate) fn start(
        sink: &SpanSink,
        function: &FunctionKey,
        parts: &http::request::Parts,
        delivery: bool,
    ) -> Option<InvocationSpan> {
        let parent = TraceParent::from_headers(&parts.headers);
        if parent.is_some_and(|p| !p.sampled) {
            return None;
        }
        let mut attributes = vec![
            ("http.request.method".to_string(), Value::from(parts.method.as_str())),
            ("url.path".to_string(), Value::from(parts.uri.path())),
            (
                "faas.trigger".to_string(),
                Value::from(if delivery { "pubsub" } else { "http" }),
            ),
        ];
        if let Some(host) = parts.headers.get(http::header::HOST).and_then(|h| h.to_str().ok()) {
            attributes.push(("server.address".to_string(), Value::from(host)));
        }
        let now = SystemTime::now();
        Some(InvocationSpan {
            sink: sink.clone(),
            function: Arc::new(function.clone()),
            span: Span {
                trace_id: parent.map_or_else(TraceId::random, |p| p.trace_id),
                span_id: SpanId::random(),
                parent_span_id: parent.map(|p| p.span_id),
                name: parts.method.as_str().to_string(),
                kind: if delivery { SpanKind::Consumer } else { SpanKind::Server },
                scope: Scope::Node,
                start: now,
                end: now,
                attributes,
                status: Status::Unset,
                events: Vec::new(),
            },
            guest_spans: Vec::new(),
        })
    }

    /// What the guest's head carries: the trace and this span.
    pub(crate) fn head(&self) -> TraceHead {
        TraceHead {
            id: self.span.trace_id.to_string(),
            span: self.span.span_id.to_string(),
        }
    }

    /// What the sandbox's outbound calls join.
    pub(crate) fn outbound(&self) -> OutboundTrace {
        OutboundTrace {
            trace_id: self.span.trace_id,
            span_id: self.span.span_id,
            function: Arc::clone(&self.function),
            sink: self.sink.clone(),
        }
    }

    /// Spans the Function ended, from its response head.
    pub(crate) fn add_guest_spans(&mut self, spans: Vec<GuestSpan>) {
        self.guest_spans = spans;
    }

    /// Ends the span with the answer's status and hands it, and the
    /// Function's spans, to the exporter.
    pub(crate) fn finish(mut self, status: StatusCode) {
        self.span.end = SystemTime::now();
        self.span.attributes.push((
            "http.response.status_code".to_string(),
            Value::Int(i64::from(status.as_u16())),
        ));
        if status.is_server_error() {
            self.span.status = Status::Error(String::new());
            self.span
                .attributes
                .push(("error.type".to_string(), Value::from(status.as_u16().to_string())));
        }
        for guest in &self.guest_spans {
            match Span::from_guest(guest) {
                Some(span) => self.sink.record(&self.function, span),
                None => tracing::debug!(function = %self.function, "a span the Function handed back has invalid ids"),
            }
        }
        self.sink.record(&self.function, self.span);
    }
}
