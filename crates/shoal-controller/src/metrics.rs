//! The controller's Prometheus metrics (`prometheus-client`: counters and
//! a reconcile-duration histogram) and its plain-HTTP `/metrics` and
//! `/healthz` endpoint (the webhooks have their own TLS port).

use std::convert::Infallible;
use std::future::Future;
use std::sync::LazyLock;

use bytes::Bytes;
use http::{Request, Response, StatusCode};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;
use tokio::net::TcpListener;

/// Reconciles run.
pub static RECONCILES: LazyLock<Counter> = LazyLock::new(Counter::default);
/// Reconciles that failed and were retried.
pub static RECONCILE_ERRORS: LazyLock<Counter> = LazyLock::new(Counter::default);
/// How long a reconcile pass took, 1 ms to about 16 s.
pub static RECONCILE_DURATION: LazyLock<Histogram> =
    LazyLock::new(|| Histogram::new(exponential_buckets(0.001, 2.0, 15)));
/// Build Jobs created.
pub static BUILDS_STARTED: LazyLock<Counter> = LazyLock::new(Counter::default);
/// Builds that produced an artifact.
pub static BUILDS_SUCCEEDED: LazyLock<Counter> = LazyLock::new(Counter::default);
/// Builds that failed.
pub static BUILDS_FAILED: LazyLock<Counter> = LazyLock::new(Counter::default);
/// Admission reviews allowed.
pub static ADMISSIONS_ALLOWED: LazyLock<Counter> = LazyLock::new(Counter::default);
/// Admission reviews denied.
pub static ADMISSIONS_DENIED: LazyLock<Counter> = LazyLock::new(Counter::default);

/// The content type of [`render`]'s text.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// Every metric, registered once.
static REGISTRY: LazyLock<Registry> = LazyLock::new(|| {
    let mut r = Registry::with_prefix("shoal_controller");
    r.register("reconciles", "Reconciles run.", RECONCILES.clone());
    r.register(
        "reconcile_errors",
        "Reconciles that failed and were retried.",
        RECONCILE_ERRORS.clone(),
    );
    r.register(
        "reconcile_duration_seconds",
        "How long a Function's reconcile pass took.",
        RECONCILE_DURATION.clone(),
    );
    r.register("builds_started", "Build Jobs created.", BUILDS_STARTED.clone());
    r.register(
        "builds_succeeded",
        "Builds that produced an artifact.",
        BUILDS_SUCCEEDED.clone(),
    );
    r.register("builds_failed", "Builds that failed.", BUILDS_FAILED.clone());
    r.register(
        "admissions_allowed",
        "Admission reviews allowed.",
        ADMISSIONS_ALLOWED.clone(),
    );
    r.register(
        "admissions_denied",
        "Admission reviews denied.",
        ADMISSIONS_DENIED.clone(),
    );
    r
});

/// The metrics in the OpenMetrics text format.
pub fn render() -> String {
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = prometheus_client::encoding::text::encode(&mut out, &REGISTRY);
    out
}

/// Serves `/metrics` and `/healthz` until `shutdown` completes.
pub async fn serve(listener: TcpListener, shutdown: impl Future<Output = ()>) -> std::io::Result<()> {
    tokio::pin!(shutdown);
    loop {
        let (stream, _) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    tracing::warn!(error = %e, "accepting a metrics connection");
                    continue;
                }
            },
            () = &mut shutdown => return Ok(()),
        };
        tokio::spawn(async move {
            let service = hyper::service::service_fn(|req: Request<Incoming>| async move {
                let (status, body, content_type) = match req.uri().path() {
                    "/metrics" => (StatusCode::OK, render(), CONTENT_TYPE),
                    "/healthz" => (StatusCode::OK, "OK".to_string(), "text/plain"),
                    _ => (StatusCode::NOT_FOUND, "not found".to_string(), "text/plain"),
                };
                let mut response = Response::new(Full::new(Bytes::from(body)));
                *response.status_mut() = status;
                response
                    .headers_mut()
                    .insert(http::header::CONTENT_TYPE, http::HeaderValue::from_static(content_type));
                Ok::<_, Infallible>(response)
            });
            let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_is_openmetrics_with_the_reconcile_histogram() {
        RECONCILES.inc();
        RECONCILE_DURATION.observe(0.003);
        let text = render();
        assert!(
            text.contains("# TYPE shoal_controller_reconcile_duration_seconds histogram"),
            "{text}"
        );
        assert!(
            text.contains(r#"shoal_controller_reconcile_duration_seconds_bucket{le="0.004"} "#),
            "{text}"
        );
        assert!(text.contains("shoal_controller_reconciles_total "), "{text}");
        assert!(text.ends_with("# EOF\n"), "{text}");
    }
}
