//! The publisher endpoint, compatible with Kyma's eventing publisher proxy:
//! `POST /publish` takes a CloudEvent (structured or binary mode) and
//! answers 204 once the bus has it; `POST /<application>/v1/events` takes
//! the legacy JSON event and answers 200 with its id; `/healthz` and
//! `/readyz` (ready while the bus is reachable).
//!
//! An event is kept on the subject Kyma's proxy would choose
//! (`kyma.<clean source>.<clean type>`), with the type given kept in the
//! `originaltype` extension, so Subscriptions match it exactly as they
//! would on Kyma.

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;

use bytes::Bytes;
use http::{HeaderMap, Method, Request, Response, StatusCode, header};
use http_body_util::{BodyExt, Full, Limited};
use hyper_util::rt::{TokioExecutor, TokioIo};
use serde_json::{Value, json};
use tokio::net::TcpListener;

use crate::bus::{Bus, BusError};
use crate::cloudevent::{CloudEvent, Data};

/// The largest event taken (the publisher proxy's `--max-request-size`).
pub const MAX_EVENT_BYTES: usize = 65_536;

/// See the module documentation.
pub struct Publisher {
    bus: Bus,
}

type Answer = Response<Full<Bytes>>;

impl Publisher {
    /// A publisher into `bus`.
    pub fn new(bus: Bus) -> Arc<Self> {
        Arc::new(Self { bus })
    }

    /// Answers one request.
    pub async fn handle(&self, method: &Method, path: &str, headers: &HeaderMap, body: Bytes) -> Answer {
        match (method, path) {
            (_, "/healthz") => text(StatusCode::OK, "OK"),
            (_, "/readyz") if self.bus.is_connected() => text(StatusCode::OK, "OK"),
            (_, "/readyz") => empty(StatusCode::INTERNAL_SERVER_ERROR),
            (&Method::POST, "/publish") => self.publish(headers, body).await,
            (&Method::POST, p) => match legacy_application(p) {
                Some(app) => self.publish_legacy(app, body).await,
                None => text(StatusCode::NOT_FOUND, "404 page not found"),
            },
            _ => text(StatusCode::NOT_FOUND, "404 page not found"),
        }
    }

    async fn publish(&self, headers: &HeaderMap, body: Bytes) -> Answer {
        let mut event = match CloudEvent::from_http(headers, &body) {
            Ok(e) => e,
            Err(e) => return text(StatusCode::BAD_REQUEST, &e.0),
        };
        event.take_trace_headers(headers);
        match self.keep(event).await {
            Ok(()) => empty(StatusCode::NO_CONTENT),
            Err(Refused::BadEvent(message)) => text(StatusCode::BAD_REQUEST, &message),
            Err(Refused::Bus(e)) => empty(bus_status(&e)),
        }
    }

    async fn publish_legacy(&self, application: &str, body: Bytes) -> Answer {
        let event = match legacy_event(application, &body) {
            Ok(e) => e,
            Err(answer) => return *answer,
        };
        let id = event.id.clone();
        match self.keep(event).await {
            Ok(()) => json_answer(StatusCode::OK, &json!({"event-id": id, "status": "", "reason": ""})),
            Err(Refused::BadEvent(message)) => json_answer(
                StatusCode::BAD_REQUEST,
                &json!({"status": 400, "type": "bad_payload_syntax", "message": message}),
            ),
            Err(Refused::Bus(e)) => {
                let status = bus_status(&e);
                json_answer(status, &json!({"status": status.as_u16(), "message": e.to_string()}))
            }
        }
    }

    /// Puts `event` on its subject.
    async fn keep(&self, mut event: CloudEvent) -> Result<(), Refused> {
        let subject =
            shoal_api::subscription::publish_subject(&event.source, &event.event_type).map_err(Refused::BadEvent)?;
        if !event
            .event_type
            .starts_with(shoal_api::subscription::LEGACY_TYPE_PREFIX)
        {
            event.extensions.insert(
                "originaltype".into(),
                std::mem::replace(&mut event.event_type, subject.clone()),
            );
        }
        let payload = Bytes::from(event.to_structured().to_string());
        let headers = [
            ("Content-Type", "application/cloudevents+json"),
            ("ce-specversion", event.spec_version.as_str()),
            ("ce-type", event.event_type.as_str()),
            ("ce-source", event.source.as_str()),
            ("ce-id", event.id.as_str()),
        ];
        let published = self.bus.publish(&subject, &headers, payload).await;
        match &published {
            Ok(()) => tracing::debug!(subject, id = event.id, "event published"),
            Err(e) => tracing::warn!(subject, id = event.id, error = %e, "event refused"),
        }
        published.map_err(Refused::Bus)
    }
}

enum Refused {
    BadEvent(String),
    Bus(BusError),
}

fn bus_status(e: &BusError) -> StatusCode {
    match e {
        BusError::Disconnected(_) => StatusCode::BAD_GATEWAY,
        BusError::TimedOut => StatusCode::GATEWAY_TIMEOUT,
        BusError::Full => StatusCode::INSUFFICIENT_STORAGE,
        BusError::NoConsumer(_) | BusError::Nats { .. } => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// `/<application>/v1/events` → the application.
fn legacy_application(path: &str) -> Option<&str> {
    let app = path.strip_prefix('/')?.strip_suffix("/v1/events")?;
    (!app.is_empty() && !app.contains('/')).then_some(app)
}

/// The legacy JSON event as a CloudEvent (`<event-type>.<event-type-version>`
/// from the application), or the 400 the publisher proxy answers.
fn legacy_event(application: &str, body: &Bytes) -> Result<CloudEvent, Box<Answer>> {
    let bad_syntax = |more: String| {
        Box::new(json_answer(
            StatusCode::BAD_REQUEST,
            &json!({"status": 400, "type": "bad_payload_syntax", "message": "Bad payload syntax", "moreInfo": more}),
        ))
    };
    if body.is_empty() {
        return Err(bad_syntax("request body is empty".into()));
    }
    let Ok(Value::Object(request)) = serde_json::from_slice::<Value>(body) else {
        return Err(bad_syntax("request body is not a JSON object".into()));
    };
    let field = |name: &str, problem: &str| {
        let message = if problem == "missing_field" {
            "Missing field"
        } else {
            "Invalid field"
        };
        Box::new(json_answer(
            StatusCode::BAD_REQUEST,
            &json!({"status": 400, "type": "validation_violation", "message": message,
                    "details": [{"field": name, "type": problem, "message": message}]}),
        ))
    };
    let string = |name: &str| request.get(name).and_then(Value::as_str).filter(|s| !s.is_empty());
    let event_type = string("event-type").ok_or_else(|| field("event-type", "missing_field"))?;
    let version = string("event-type-version").ok_or_else(|| field("event-type-version", "missing_field"))?;
    let time = string("event-time").ok_or_else(|| field("event-time", "missing_field"))?;
    let data = match request.get("data") {
        None | Some(Value::Null) => return Err(field("data", "missing_field")),
        Some(Value::String(s)) if s.is_empty() => return Err(field("data", "missing_field")),
        Some(v) => v.clone(),
    };
    if !version.bytes().any(|b| b.is_ascii_alphanumeric()) {
        return Err(field("event-type-version", "invalid_field"));
    }
    if time.parse::<jiff::Timestamp>().is_err() {
        return Err(field("event-time", "invalid_field"));
    }
    let id = match request.get("event-id") {
        None | Some(Value::Null) => uuid::Uuid::new_v4().to_string(),
        Some(Value::String(id)) if uuid::Uuid::try_parse(id).is_ok() => id.clone(),
        Some(_) => return Err(field("event-id", "invalid_field")),
    };
    Ok(CloudEvent {
        id,
        source: application.to_string(),
        event_type: format!("{event_type}.{version}"),
        spec_version: "1.0".into(),
        time: Some(time.to_string()),
        data_content_type: Some("application/json".into()),
        data_schema: None,
        subject: None,
        data: Data::Json(data),
        extensions: [("eventtypeversion".to_string(), version.to_string())].into(),
    })
}

fn text(status: StatusCode, body: &str) -> Answer {
    let mut r = Response::new(Full::new(Bytes::from(body.to_string())));
    *r.status_mut() = status;
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        http::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    r
}

fn empty(status: StatusCode) -> Answer {
    let mut r = Response::new(Full::default());
    *r.status_mut() = status;
    r
}

fn json_answer(status: StatusCode, value: &Value) -> Answer {
    let mut r = Response::new(Full::new(Bytes::from(value.to_string())));
    *r.status_mut() = status;
    r.headers_mut()
        .insert(header::CONTENT_TYPE, http::HeaderValue::from_static("application/json"));
    r
}

/// Serves the publisher on `listener` until `shutdown` completes.
///
/// # Errors
///
/// When accepting connections fails.
pub async fn serve(
    listener: TcpListener,
    publisher: Arc<Publisher>,
    shutdown: impl Future<Output = ()> + Send,
) -> std::io::Result<()> {
    let builder = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new());
    tokio::pin!(shutdown);
    loop {
        let (stream, _) = tokio::select! {
            accepted = listener.accept() => accepted?,
            _ = &mut shutdown => return Ok(()),
        };
        let _ = stream.set_nodelay(true);
        let publisher = publisher.clone();
        let builder = builder.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req: Request<hyper::body::Incoming>| {
                let publisher = publisher.clone();
                async move {
                    let (parts, body) = req.into_parts();
                    let body = match Limited::new(body, MAX_EVENT_BYTES).collect().await {
                        Ok(b) => b.to_bytes(),
                        Err(_) => {
                            return Ok::<_, Infallible>(text(StatusCode::PAYLOAD_TOO_LARGE, "request body too large"));
                        }
                    };
                    Ok(publisher
                        .handle(&parts.method, parts.uri.path(), &parts.headers, body)
                        .await)
                }
            });
            let _ = builder.serve_connection(TokioIo::new(stream), service).await;
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legacy_events_read_as_the_publisher_proxy_reads_them() {
        let e = legacy_event(
            "commerce",
            &Bytes::from_static(
                br#"{"event-type":"order.created","event-type-version":"v1","event-time":"2024-05-01T10:00:00Z","data":{"id":1}}"#,
            ),
        )
        .unwrap();
        assert_eq!(
            (e.source.as_str(), e.event_type.as_str()),
            ("commerce", "order.created.v1")
        );
        assert_eq!(
            shoal_api::subscription::publish_subject(&e.source, &e.event_type).unwrap(),
            "kyma.commerce.order.created.v1"
        );
        let missing = legacy_event("a", &Bytes::from_static(br#"{"event-type":"x.y","data":1}"#)).unwrap_err();
        assert_eq!(missing.status(), StatusCode::BAD_REQUEST);
        assert_eq!(legacy_application("/commerce/v1/events"), Some("commerce"));
        assert_eq!(legacy_application("/a/b/v1/events"), None);
    }
}
