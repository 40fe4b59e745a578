//! A batch of spans as an OTLP `ExportTraceServiceRequest`: one resource
//! per Function (`service.name` its name, as Kyma's runtime names it, and
//! its namespace), one scope per [`Scope`] under it.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::SystemTime;

use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::{AnyValue, ArrayValue, InstrumentationScope, KeyValue, any_value};
use opentelemetry_proto::tonic::resource::v1::Resource;
use opentelemetry_proto::tonic::trace::v1::{self as proto, ResourceSpans, ScopeSpans, span, status};
use prost::Message;

use crate::{FunctionKey, Scope, Span, SpanKind, Status, Value};

fn unix_nanos(time: SystemTime) -> u64 {
    time.duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

fn any_value(value: &Value) -> AnyValue {
    let value = match value {
        Value::String(s) => any_value::Value::StringValue(s.clone()),
        Value::Int(i) => any_value::Value::IntValue(*i),
        Value::Double(d) => any_value::Value::DoubleValue(*d),
        Value::Bool(b) => any_value::Value::BoolValue(*b),
        Value::Array(items) => any_value::Value::ArrayValue(ArrayValue {
            values: items.iter().map(any_value).collect(),
        }),
    };
    AnyValue { value: Some(value) }
}

fn key_values(pairs: &[(String, Value)]) -> Vec<KeyValue> {
    pairs
        .iter()
        .map(|(k, v)| KeyValue {
            key: k.clone(),
            value: Some(any_value(v)),
            ..Default::default()
        })
        .collect()
}

fn string_attribute(key: &str, value: &str) -> KeyValue {
    KeyValue {
        key: key.to_string(),
        value: Some(any_value(&Value::String(value.to_string()))),
        ..Default::default()
    }
}

fn proto_span(span: &Span) -> proto::Span {
    let kind = match span.kind {
        SpanKind::Internal => span::SpanKind::Internal,
        SpanKind::Server => span::SpanKind::Server,
        SpanKind::Client => span::SpanKind::Client,
        SpanKind::Producer => span::SpanKind::Producer,
        SpanKind::Consumer => span::SpanKind::Consumer,
    };
    let status = match &span.status {
        Status::Unset => None,
        Status::Ok => Some(proto::Status {
            message: String::new(),
            code: status::StatusCode::Ok as i32,
        }),
        Status::Error(message) => Some(proto::Status {
            message: message.clone(),
            code: status::StatusCode::Error as i32,
        }),
    };
    proto::Span {
        trace_id: span.trace_id.0.to_vec(),
        span_id: span.span_id.0.to_vec(),
        parent_span_id: span.parent_span_id.map(|p| p.0.to_vec()).unwrap_or_default(),
        name: span.name.clone(),
        kind: kind as i32,
        start_time_unix_nano: unix_nanos(span.start),
        end_time_unix_nano: unix_nanos(span.end),
        attributes: key_values(&span.attributes),
        events: span
            .events
            .iter()
            .map(|e| span::Event {
                time_unix_nano: unix_nanos(e.time),
                name: e.name.clone(),
                attributes: key_values(&e.attributes),
                dropped_attributes_count: 0,
            })
            .collect(),
        status,
        // W3C sampled: every exported span was sampled.
        flags: 0x100 | 1,
        ..Default::default()
    }
}

/// One Function's spans of a batch, by scope, in the order first seen.
type ScopedSpans = Vec<(Scope, Vec<proto::Span>)>;

/// The protobuf body for `batch`.
pub(crate) fn encode(batch: &[(Arc<FunctionKey>, Span)]) -> Vec<u8> {
    let mut by_function: Vec<(&FunctionKey, ScopedSpans)> = Vec::new();
    let mut index: HashMap<&FunctionKey, usize> = HashMap::new();
    for (function, span) in batch {
        let at = *index.entry(function.as_ref()).or_insert_with(|| {
            by_function.push((function.as_ref(), Vec::new()));
            by_function.len() - 1
        });
        let scopes = &mut by_function[at].1;
        let spans = match scopes.iter().position(|(scope, _)| *scope == span.scope) {
            Some(i) => &mut scopes[i].1,
            None => {
                scopes.push((span.scope, Vec::new()));
                let last = scopes.len() - 1;
                &mut scopes[last].1
            }
        };
        spans.push(proto_span(span));
    }
    let request = ExportTraceServiceRequest {
        resource_spans: by_function
            .into_iter()
            .map(|(function, scopes)| ResourceSpans {
                resource: Some(Resource {
                    attributes: vec![
                        string_attribute("service.name", &function.name),
                        string_attribute("service.namespace", &function.namespace),
                        string_attribute("k8s.namespace.name", &function.namespace),
                        string_attribute("faas.name", &function.name),
                    ],
                    ..Default::default()
                }),
                scope_spans: scopes
                    .into_iter()
                    .map(|(scope, spans)| ScopeSpans {
                        scope: Some(InstrumentationScope {
                            name: scope.name().to_string(),
                            ..Default::default()
                        }),
                        spans,
                        schema_url: String::new(),
                    })
                    .collect(),
                schema_url: String::new(),
            })
            .collect(),
    };
    request.encode_to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{SpanId, TraceId};

    #[test]
    fn groups_spans_by_function_and_scope() {
        let trace_id = TraceId::random();
        let span = |name: &str, scope| Span {
            trace_id,
            span_id: SpanId::random(),
            parent_span_id: None,
            name: name.into(),
            kind: SpanKind::Server,
            scope,
            start: SystemTime::UNIX_EPOCH + std::time::Duration::from_millis(1),
            end: SystemTime::UNIX_EPOCH + std::time::Duration::from_millis(2),
            attributes: vec![("http.response.status_code".into(), Value::Int(200))],
            status: Status::Error("boom".into()),
            events: Vec::new(),
        };
        let a = Arc::new(FunctionKey::new("ns", "a"));
        let b = Arc::new(FunctionKey::new("ns", "b"));
        let body = encode(&[
            (a.clone(), span("1", Scope::Node)),
            (b.clone(), span("2", Scope::Node)),
            (a.clone(), span("3", Scope::Function)),
            (a, span("4", Scope::Node)),
        ]);
        let decoded = ExportTraceServiceRequest::decode(body.as_slice()).unwrap();
        assert_eq!(decoded.resource_spans.len(), 2);
        let first = &decoded.resource_spans[0];
        let service = &first.resource.as_ref().unwrap().attributes[0];
        assert_eq!(service.key, "service.name");
        assert_eq!(
            service.value.as_ref().unwrap().value,
            Some(any_value::Value::StringValue("a".into()))
        );
        let names: Vec<Vec<&str>> = first
            .scope_spans
            .iter()
            .map(|s| s.spans.iter().map(|s| s.name.as_str()).collect())
            .collect();
        assert_eq!(names, vec![vec!["1", "4"], vec!["3"]]);
        let one = &first.scope_spans[0].spans[0];
        assert_eq!(one.trace_id, trace_id.0.to_vec());
        assert_eq!(one.start_time_unix_nano, 1_000_000);
        assert_eq!(one.status.as_ref().unwrap().message, "boom");
    }
}
