//! The span exporter: a bounded queue that the request path only ever
//! `try_send`s into, and one task that drains it in batches and POSTs each
//! batch to the collector as an OTLP `ExportTraceServiceRequest`
//! (protobuf over HTTP, `application/x-protobuf`), the way
//! OpenTelemetry's batch span processor works. A full queue drops the span
//! and counts it; a collector that is down or slow costs dropped batches,
//! never a request's time.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::{FunctionKey, Span, otlp};

/// Why the exporter cannot start.
#[derive(Debug, thiserror::Error)]
pub enum ExporterError {
    /// The endpoint is not an `http://` URL.
    #[error(
        "the trace collector endpoint {endpoint:?} is not an http:// URL (OTLP/HTTP, e.g. http://collector:4318/v1/traces)"
    )]
    Endpoint {
        /// What was given.
        endpoint: String,
    },
}

/// How the exporter batches and sends.
#[derive(Debug, Clone)]
pub struct ExporterConfig {
    /// The collector's OTLP/HTTP traces URL (Kyma's `TRACE_COLLECTOR_ENDPOINT`,
    /// e.g. `http://telemetry-otlp-traces.kyma-system:4318/v1/traces`).
    pub endpoint: String,
    /// Spans waiting at most; more are dropped (OpenTelemetry's default 2048).
    pub max_queue: usize,
    /// Spans per export at most (OpenTelemetry's default 512).
    pub max_batch: usize,
    /// How long a span waits for its batch to fill before the batch goes
    /// anyway (OpenTelemetry's default 5 s).
    pub delay: Duration,
    /// How long one export may take.
    pub timeout: Duration,
}

impl ExporterConfig {
    /// OpenTelemetry's batch defaults for `endpoint`.
    pub fn new(endpoint: impl Into<String>) -> Self {
        Self {
            endpoint: endpoint.into(),
            max_queue: 2048,
            max_batch: 512,
            delay: Duration::from_secs(5),
            timeout: Duration::from_secs(10),
        }
    }
}

/// What the exporter did, for the node's metrics.
#[derive(Debug, Default)]
pub struct ExportStats {
    /// Spans the collector accepted.
    pub exported: AtomicU64,
    /// Spans dropped because the queue was full.
    pub dropped: AtomicU64,
    /// Spans in batches the collector refused or did not answer.
    pub failed: AtomicU64,
}

/// Where finished spans go: cheap to clone, never blocks.
#[derive(Clone, Debug)]
pub struct SpanSink {
    queue: mpsc::Sender<(Arc<FunctionKey>, Span)>,
    stats: Arc<ExportStats>,
}

impl SpanSink {
    /// Queues `span` of `function` for export, or drops and counts it when
    /// the queue is full.
    pub fn record(&self, function: &Arc<FunctionKey>, span: Span) {
        if self.queue.try_send((Arc::clone(function), span)).is_err() {
            self.stats.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The exporter's counts.
    pub fn stats(&self) -> &ExportStats {
        &self.stats
    }
}

/// The running exporter: its sink and its task.
pub struct Exporter {
    /// Where spans go.
    pub sink: SpanSink,
    /// The batching task; it ends once every sink is dropped and the last
    /// batch is sent.
    pub task: JoinHandle<()>,
}

impl Exporter {
    /// Starts the exporter on the current Tokio runtime.
    ///
    /// # Errors
    /// The endpoint is not an `http://` URL.
    pub fn start(config: ExporterConfig) -> Result<Exporter, ExporterError> {
        let uri: http::Uri = config.endpoint.parse().map_err(|_| ExporterError::Endpoint {
            endpoint: config.endpoint.clone(),
        })?;
        if uri.scheme_str() != Some("http") || uri.host().is_none() {
            return Err(ExporterError::Endpoint {
                endpoint: config.endpoint.clone(),
            });
        }
        let (queue, spans) = mpsc::channel(config.max_queue.max(1));
        let stats = Arc::new(ExportStats::default());
        let task = tokio::spawn(run(config, uri, spans, Arc::clone(&stats)));
        Ok(Exporter {
            sink: SpanSink { queue, stats },
            task,
        })
    }
}

async fn run(
    config: ExporterConfig,
    uri: http::Uri,
    mut spans: mpsc::Receiver<(Arc<FunctionKey>, Span)>,
    stats: Arc<ExportStats>,
) {
    let client: Client<HttpConnector, Full<Bytes>> = Client::builder(TokioExecutor::new()).build_http();
    let max_batch = config.max_batch.max(1);
    let mut batch = Vec::with_capacity(max_batch);
    loop {
        // Wait for a first span, then for the batch to fill or the delay to pass.
        match spans.recv().await {
            Some(first) => batch.push(first),
            None => return,
        }
        let deadline = tokio::time::Instant::now() + config.delay;
        let mut closed = false;
        while batch.len() < max_batch {
            match tokio::time::timeout_at(deadline, spans.recv()).await {
                Ok(Some(span)) => batch.push(span),
                Ok(None) => {
                    closed = true;
                    break;
                }
                Err(_) => break,
            }
        }
        let count = batch.len() as u64;
        let body = otlp::encode(&batch);
        batch.clear();
        match send(&client, &uri, body, config.timeout).await {
            Ok(()) => {
                stats.exported.fetch_add(count, Ordering::Relaxed);
            }
            Err(reason) => {
                stats.failed.fetch_add(count, Ordering::Relaxed);
                tracing::warn!(endpoint = %uri, spans = count, "exporting spans failed: {reason}");
            }
        }
        if closed {
            return;
        }
    }
}

async fn send(
    client: &Client<HttpConnector, Full<Bytes>>,
    uri: &http::Uri,
    body: Vec<u8>,
    timeout: Duration,
) -> Result<(), String> {
    let request = http::Request::post(uri.clone())
        .header(http::header::CONTENT_TYPE, "application/x-protobuf")
        .body(Full::new(Bytes::from(body)))
        .map_err(|e| e.to_string())?;
    let response = tokio::time::timeout(timeout, client.request(request))
        .await
        .map_err(|_| format!("no answer within {timeout:?}"))?
        .map_err(|e| e.to_string())?;
    let status = response.status();
    // Read the answer so the connection goes back to the pool.
    let _ = tokio::time::timeout(timeout, response.into_body().collect()).await;
    if status.is_success() {
        Ok(())
    } else {
        Err(format!("the collector answered {status}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_endpoints_it_cannot_post_to() {
        for bad in ["", "collector:4318", "https://collector/v1/traces", "ftp://x/y"] {
            assert!(Exporter::start(ExporterConfig::new(bad)).is_err(), "{bad}");
        }
    }
}
