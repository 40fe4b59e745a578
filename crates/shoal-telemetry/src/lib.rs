//! Traces of Function invocations, as Kyma's runtimes make them: the
//! trace context a request brings (W3C `traceparent`, B3) and the one an
//! outbound call carries ([`context`]), the spans an invocation produces
//! ([`Span`]), and their export to an OpenTelemetry collector over OTLP/HTTP
//! in batches, off the request path ([`export`]).
//!
//! This crate owns the span model and the exporter. It decides nothing
//! about which requests are traced (the node does, from its configuration)
//! and holds no Function state: a span names its Function by
//! [`FunctionKey`], which becomes the OTLP resource (`service.name` is the
//! Function's name, as in Kyma).

pub mod context;
pub mod export;
mod otlp;

use std::time::SystemTime;

pub use context::{SpanId, TraceId, TraceParent};
pub use export::{ExportStats, Exporter, ExporterConfig, SpanSink};
pub use shoal_envelope::FunctionKey;

/// Who made a span: the instrumentation scope it is exported under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// The node: an invocation's server span and its outbound client spans.
    Node,
    /// The Function's own code, through its tracer (`getTracer()`,
    /// `event.tracer`): Kyma's scope name.
    Function,
}

impl Scope {
    /// The OTLP instrumentation scope name.
    pub fn name(self) -> &'static str {
        match self {
            Scope::Node => "shoal-node",
            Scope::Function => "io.kyma-project.serverless",
        }
    }
}

/// OpenTelemetry's span kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpanKind {
    /// Work inside a component.
    Internal,
    /// Serving a request.
    Server,
    /// A request to another service.
    Client,
    /// Sending a message.
    Producer,
    /// Receiving a message.
    Consumer,
}

impl SpanKind {
    /// The kind `@opentelemetry/api` numbers `n` (0 internal ... 4 consumer).
    pub fn from_api_number(n: u8) -> Self {
        match n {
            1 => SpanKind::Server,
            2 => SpanKind::Client,
            3 => SpanKind::Producer,
            4 => SpanKind::Consumer,
            _ => SpanKind::Internal,
        }
    }
}

/// A span's outcome.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Status {
    /// Not set.
    #[default]
    Unset,
    /// Explicitly fine.
    Ok,
    /// Failed, with a message.
    Error(String),
}

/// An attribute value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A string.
    String(String),
    /// An integer.
    Int(i64),
    /// A floating-point number.
    Double(f64),
    /// A boolean.
    Bool(bool),
    /// An array of values.
    Array(Vec<Value>),
}

impl From<&str> for Value {
    fn from(v: &str) -> Self {
        Value::String(v.to_string())
    }
}

impl From<String> for Value {
    fn from(v: String) -> Self {
        Value::String(v)
    }
}

impl From<i64> for Value {
    fn from(v: i64) -> Self {
        Value::Int(v)
    }
}

impl From<bool> for Value {
    fn from(v: bool) -> Self {
        Value::Bool(v)
    }
}

impl Value {
    /// A value from JSON as a Function's tracer hands it over: strings,
    /// numbers, booleans and arrays of those; anything else is dropped.
    pub fn from_json(value: &serde_json::Value) -> Option<Value> {
        use serde_json::Value as J;
        match value {
            J::String(s) => Some(Value::String(s.clone())),
            J::Bool(b) => Some(Value::Bool(*b)),
            J::Number(n) => match n.as_i64() {
                Some(i) if n.is_i64() => Some(Value::Int(i)),
                _ => n.as_f64().map(Value::Double),
            },
            J::Array(items) => Some(Value::Array(items.iter().filter_map(Value::from_json).collect())),
            J::Null | J::Object(_) => None,
        }
    }
}

/// An event on a span.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// Its name.
    pub name: String,
    /// When it happened.
    pub time: SystemTime,
    /// Its attributes.
    pub attributes: Vec<(String, Value)>,
}

/// One finished span.
#[derive(Debug, Clone, PartialEq)]
pub struct Span {
    /// The trace.
    pub trace_id: TraceId,
    /// This span.
    pub span_id: SpanId,
    /// Its parent, when it has one.
    pub parent_span_id: Option<SpanId>,
    /// Its name.
    pub name: String,
    /// Its kind.
    pub kind: SpanKind,
    /// Who made it.
    pub scope: Scope,
    /// Start.
    pub start: SystemTime,
    /// End.
    pub end: SystemTime,
    /// Attributes.
    pub attributes: Vec<(String, Value)>,
    /// Outcome.
    pub status: Status,
    /// Events.
    pub events: Vec<Event>,
}

/// A time in milliseconds since the Unix epoch (as JavaScript gives it),
/// or the epoch itself for a value that is not one.
pub fn time_from_millis(ms: f64) -> SystemTime {
    if !ms.is_finite() || ms <= 0.0 {
        return SystemTime::UNIX_EPOCH;
    }
    // Whole nanoseconds fit u64 until the year 2554.
    let nanos = (ms * 1e6).min(u64::MAX as f64) as u64;
    SystemTime::UNIX_EPOCH + std::time::Duration::from_nanos(nanos)
}

impl Span {
    /// A span the Function ended, from its response head; None when its
    /// ids are not valid hex of the right length.
    pub fn from_guest(guest: &shoal_envelope::GuestSpan) -> Option<Span> {
        let status = match guest.status {
            1 => Status::Ok,
            2 => Status::Error(guest.message.clone()),
            _ => Status::Unset,
        };
        let attributes = |pairs: &[(String, serde_json::Value)]| {
            pairs
                .iter()
                .filter_map(|(k, v)| Value::from_json(v).map(|v| (k.clone(), v)))
                .collect::<Vec<_>>()
        };
        Some(Span {
            trace_id: TraceId::from_hex(&guest.trace)?,
            span_id: SpanId::from_hex(&guest.id)?,
            parent_span_id: if guest.parent.is_empty() {
                None
            } else {
                Some(SpanId::from_hex(&guest.parent)?)
            },
            name: guest.name.clone(),
            kind: SpanKind::from_api_number(guest.kind),
            scope: Scope::Function,
            start: time_from_millis(guest.start),
            end: time_from_millis(guest.end),
            attributes: attributes(&guest.attributes),
            status,
            events: guest
                .events
                .iter()
                .map(|e| Event {
                    name: e.name.clone(),
                    time: time_from_millis(e.time),
                    attributes: attributes(&e.attributes),
                })
                .collect(),
        })
    }
}
