//! The controller's Prometheus metrics and its plain-HTTP `/metrics` and
//! `/healthz` endpoint (the webhooks have their own TLS port).

use std::convert::Infallible;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};

use bytes::Bytes;
use http::{Request, Response, StatusCode};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::net::TcpListener;

/// A monotonically increasing count.
pub struct Counter(AtomicU64);

impl Counter {
    const fn new() -> Self {
        Self(AtomicU64::new(0))
    }

    /// Adds one.
    pub fn inc(&self) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }

    /// The current count.
    pub fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// Reconciles run.
pub static RECONCILES: Counter = Counter::new();
/// Reconciles that failed and were retried.
pub static RECONCILE_ERRORS: Counter = Counter::new();
/// Build Jobs created.
pub static BUILDS_STARTED: Counter = Counter::new();
/// Builds that produced an artifact.
pub static BUILDS_SUCCEEDED: Counter = Counter::new();
/// Builds that failed.
pub static BUILDS_FAILED: Counter = Counter::new();
/// Admission reviews allowed.
pub static ADMISSIONS_ALLOWED: Counter = Counter::new();
/// Admission reviews denied.
pub static ADMISSIONS_DENIED: Counter = Counter::new();

/// The metrics in Prometheus text format.
pub fn render() -> String {
    let rows: [(&str, &str, &Counter); 7] = [
        ("shoal_controller_reconciles_total", "Reconciles run.", &RECONCILES),
        (
            "shoal_controller_reconcile_errors_total",
            "Reconciles that failed and were retried.",
            &RECONCILE_ERRORS,
        ),
        (
            "shoal_controller_builds_started_total",
            "Build Jobs created.",
            &BUILDS_STARTED,
        ),
        (
            "shoal_controller_builds_succeeded_total",
            "Builds that produced an artifact.",
            &BUILDS_SUCCEEDED,
        ),
        (
            "shoal_controller_builds_failed_total",
            "Builds that failed.",
            &BUILDS_FAILED,
        ),
        (
            "shoal_controller_admissions_allowed_total",
            "Admission reviews allowed.",
            &ADMISSIONS_ALLOWED,
        ),
        (
            "shoal_controller_admissions_denied_total",
            "Admission reviews denied.",
            &ADMISSIONS_DENIED,
        ),
    ];
    let mut out = String::new();
    for (name, help, counter) in rows {
        out.push_str(&format!(
            "# HELP {name} {help}\n# TYPE {name} counter\n{name} {}\n",
            counter.get()
        ));
    }
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
                let (status, body) = match req.uri().path() {
                    "/metrics" => (StatusCode::OK, render()),
                    "/healthz" => (StatusCode::OK, "OK".to_string()),
                    _ => (StatusCode::NOT_FOUND, "not found".to_string()),
                };
                let mut response = Response::new(Full::new(Bytes::from(body)));
                *response.status_mut() = status;
                Ok::<_, Infallible>(response)
            });
            let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
