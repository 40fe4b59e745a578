//! Traces as a Kyma user sees them in their collector: `shoal up` with a
//! trace collector endpoint sends, over OTLP/HTTP, a span per invocation
//! that continues the caller's trace, a client span per outbound call
//! (whose context the called service receives), and the spans the
//! Function makes itself, through `event.tracer` (legacy runtimes) and the
//! `sdk` module's `getTracer()` (nodejs26). The collector here is a small
//! OTLP/HTTP receiver decoding the protobuf with OpenTelemetry's own
//! message definitions.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value;
use opentelemetry_proto::tonic::trace::v1::span::SpanKind;
use prost::Message;

use crate::cli::start_up;

/// One span as the collector received it.
#[derive(Debug, Clone)]
struct Received {
    service: String,
    scope: String,
    trace_id: String,
    span_id: String,
    parent_span_id: String,
    name: String,
    kind: i32,
    attributes: HashMap<String, String>,
}

/// What the loopback server saw: spans posted to /v1/traces, and the
/// `traceparent` of every other request (the Functions' outbound calls).
#[derive(Default)]
struct Seen {
    spans: Vec<Received>,
    exports: usize,
    traceparents: Vec<(String, Option<String>)>,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn value_text(value: &Option<opentelemetry_proto::tonic::common::v1::AnyValue>) -> String {
    match value.as_ref().and_then(|v| v.value.as_ref()) {
        Some(any_value::Value::StringValue(s)) => s.clone(),
        Some(any_value::Value::IntValue(i)) => i.to_string(),
        Some(any_value::Value::BoolValue(b)) => b.to_string(),
        Some(any_value::Value::DoubleValue(d)) => d.to_string(),
        other => format!("{other:?}"),
    }
}

/// Starts the collector-and-upstream on 127.0.0.1; its address.
fn start_collector(seen: Arc<Mutex<Seen>>) -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    continue;
                };
                let seen = seen.clone();
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(move |req: hyper::Request<hyper::body::Incoming>| {
                        let seen = seen.clone();
                        async move {
                            let path = req.uri().path().to_string();
                            let traceparent = req
                                .headers()
                                .get("traceparent")
                                .and_then(|v| v.to_str().ok())
                                .map(str::to_string);
                            let body = req
                                .into_body()
                                .collect()
                                .await
                                .map(|b| b.to_bytes())
                                .unwrap_or_default();
                            let mut seen = seen.lock().unwrap();
                            if path == "/v1/traces" {
                                let export =
                                    ExportTraceServiceRequest::decode(body.as_ref()).expect("an OTLP export request");
                                seen.exports += 1;
                                for resource in export.resource_spans {
                                    let service = resource
                                        .resource
                                        .iter()
                                        .flat_map(|r| r.attributes.iter())
                                        .find(|a| a.key == "service.name")
                                        .map(|a| value_text(&a.value))
                                        .unwrap_or_default();
                                    for scope in resource.scope_spans {
                                        let scope_name = scope.scope.map(|s| s.name).unwrap_or_default();
                                        for span in scope.spans {
                                            seen.spans.push(Received {
                                                service: service.clone(),
                                                scope: scope_name.clone(),
                                                trace_id: hex(&span.trace_id),
                                                span_id: hex(&span.span_id),
                                                parent_span_id: hex(&span.parent_span_id),
                                                name: span.name.clone(),
                                                kind: span.kind,
                                                attributes: span
                                                    .attributes
                                                    .iter()
                                                    .map(|a| (a.key.clone(), value_text(&a.value)))
                                                    .collect(),
                                            });
                                        }
                                    }
                                }
                            } else {
                                seen.traceparents.push((path, traceparent));
                            }
                            Ok::<_, std::convert::Infallible>(hyper::Response::new(Full::new(
                                bytes::Bytes::from_static(b"hi"),
                            )))
                        }
                    });
                    let io = hyper_util::rt::TokioIo::new(stream);
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(io, service)
                        .await;
                });
            }
        });
    });
    rx.recv().unwrap().to_string()
}

fn get(addr: &str, host: &str, path: &str, traceparent: Option<&str>) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let trace = traceparent.map(|t| format!("traceparent: {t}\r\n")).unwrap_or_default();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\n{trace}Connection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response.split_whitespace().nth(1).unwrap().parse().unwrap();
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

fn function(dir: &Path, name: &str, runtime: &str, env: &[(&str, String)], source: &str) {
    let env: String = env
        .iter()
        .map(|(k, v)| format!("    - name: {k}\n      value: \"{v}\"\n"))
        .collect();
    let source: String = source.lines().map(|l| format!("        {l}\n")).collect();
    std::fs::write(
        dir.join(format!("{name}.yaml")),
        format!(
            "apiVersion: serverless.kyma-project.io/v1alpha2\nkind: Function\nmetadata:\n  name: {name}\n  namespace: shop\nspec:\n  runtime: {runtime}\n  env:\n{env}  source:\n    inline:\n      source: |\n{source}"
        ),
    )
    .unwrap();
}

fn spans_of(seen: &Mutex<Seen>, trace_id: &str) -> Vec<Received> {
    seen.lock()
        .unwrap()
        .spans
        .iter()
        .filter(|s| s.trace_id == trace_id)
        .cloned()
        .collect()
}

/// Waits until the trace has `count` spans.
fn wait_for_spans(seen: &Mutex<Seen>, trace_id: &str, count: usize) -> Vec<Received> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let spans = spans_of(seen, trace_id);
        if spans.len() >= count || Instant::now() > deadline {
            return spans;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn one<'a>(spans: &'a [Received], what: &str, pick: impl Fn(&Received) -> bool) -> &'a Received {
    let found: Vec<&Received> = spans.iter().filter(|s| pick(s)).collect();
    assert_eq!(found.len(), 1, "exactly one {what} span expected in {spans:#?}");
    found[0]
}

#[test]
fn invocations_outbound_calls_and_the_functions_own_spans_reach_an_otlp_collector() {
    let seen = Arc::new(Mutex::new(Seen::default()));
    let collector = start_collector(seen.clone());
    let upstream = format!("http://{collector}");
    let dir = tempfile::tempdir().unwrap();
    function(
        dir.path(),
        "legacy",
        "nodejs24",
        &[("UPSTREAM", upstream.clone())],
        r#"module.exports = {
  main: async function (event, context) {
    const span = event.tracer.startSpan("lookup", { attributes: { "order.id": 42 } });
    const answer = await fetch(process.env.UPSTREAM + "/legacy");
    span.addEvent("fetched");
    span.end();
    return await answer.text();
  }
};"#,
    );
    function(
        dir.path(),
        "modern",
        "nodejs26",
        &[("UPSTREAM", upstream.clone())],
        r#"const { getTracer } = require("sdk");
module.exports = {
  main: async function (req, res) {
    await getTracer().startActiveSpan("compute", async (span) => {
      const answer = await fetch(process.env.UPSTREAM + "/modern");
      span.setAttribute("upstream.status", answer.status);
      span.end();
    });
    res.send("done");
  }
};"#,
    );
    let endpoint = format!("http://{collector}/v1/traces");
    let (_up, addr) = start_up(
        dir.path(),
        &[
            "--trace-collector-endpoint",
            &endpoint,
            "--trace-export-delay-ms",
            "100",
        ],
    );

    // Legacy runtime: event.tracer's span and the fetch are children of the invocation.
    let legacy_trace = "4bf92f3577b34da6a3ce929d0e0e4736";
    let caller_span = "00f067aa0ba902b7";
    let traceparent = format!("00-{legacy_trace}-{caller_span}-01");
    assert_eq!(
        get(&addr, "legacy.shop", "/orders", Some(&traceparent)),
        (200, "hi".to_string())
    );
    let spans = wait_for_spans(&seen, legacy_trace, 3);
    assert_eq!(spans.len(), 3, "{spans:#?}");
    let server = one(&spans, "server", |s| s.kind == SpanKind::Server as i32);
    assert_eq!(
        server.parent_span_id, caller_span,
        "the invocation continues the caller's span"
    );
    assert_eq!(server.service, "legacy");
    assert_eq!(server.attributes["http.response.status_code"], "200");
    assert_eq!(server.attributes["url.path"], "/orders");
    let own = one(&spans, "the Function's", |s| s.name == "lookup");
    assert_eq!(own.scope, "io.kyma-project.serverless");
    assert_eq!(own.parent_span_id, server.span_id);
    assert_eq!(own.attributes["order.id"], "42");
    let client = one(&spans, "client", |s| s.kind == SpanKind::Client as i32);
    assert_eq!(client.parent_span_id, server.span_id);
    assert_eq!(client.attributes["http.response.status_code"], "200");
    assert!(client.attributes["url.full"].ends_with("/legacy"), "{client:?}");
    let sent = seen
        .lock()
        .unwrap()
        .traceparents
        .iter()
        .find(|(path, _)| path == "/legacy")
        .and_then(|(_, t)| t.clone());
    assert_eq!(
        sent,
        Some(format!("00-{legacy_trace}-{}-01", client.span_id)),
        "the upstream continues the client span"
    );

    // nodejs26: getTracer()'s active span is the parent of the fetch made in it.
    let modern_trace = "80f198ee56343ba864fe8b2a57d3eff7";
    let traceparent = format!("00-{modern_trace}-{caller_span}-01");
    assert_eq!(
        get(&addr, "modern.shop", "/", Some(&traceparent)),
        (200, "done".to_string())
    );
    let spans = wait_for_spans(&seen, modern_trace, 3);
    assert_eq!(spans.len(), 3, "{spans:#?}");
    let server = one(&spans, "server", |s| s.kind == SpanKind::Server as i32);
    assert_eq!(server.parent_span_id, caller_span);
    assert_eq!(server.service, "modern");
    let own = one(&spans, "the Function's", |s| s.name == "compute");
    assert_eq!(own.parent_span_id, server.span_id);
    assert_eq!(own.attributes["upstream.status"], "200");
    let client = one(&spans, "client", |s| s.kind == SpanKind::Client as i32);
    assert_eq!(
        client.parent_span_id, own.span_id,
        "the fetch runs inside the active span"
    );

    // No caller context: a new trace, its root the invocation.
    let before: usize = seen.lock().unwrap().spans.len();
    assert_eq!(get(&addr, "legacy.shop", "/", None).0, 200);
    let deadline = Instant::now() + Duration::from_secs(20);
    while seen.lock().unwrap().spans.len() < before + 3 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let fresh: Vec<Received> = seen.lock().unwrap().spans[before..].to_vec();
    let server = one(&fresh, "server", |s| s.kind == SpanKind::Server as i32);
    assert!(server.parent_span_id.is_empty(), "a root span: {server:?}");
    assert!(
        fresh
            .iter()
            .all(|s| s.trace_id == server.trace_id && s.trace_id != legacy_trace)
    );

    // A caller that does not sample: nothing recorded, its context passed on unchanged.
    let unsampled = "0af7651916cd43dd8448eb211c80319c";
    let traceparent = format!("00-{unsampled}-b7ad6b7169203331-00");
    assert_eq!(get(&addr, "legacy.shop", "/", Some(&traceparent)).0, 200);
    std::thread::sleep(Duration::from_millis(500));
    assert!(spans_of(&seen, unsampled).is_empty());
    let passed_on = seen.lock().unwrap().traceparents.last().and_then(|(_, t)| t.clone());
    assert_eq!(passed_on, Some(traceparent));
    assert!(seen.lock().unwrap().exports >= 1);
}
