//! Posting the CloudEvents Functions emit. A guest has no sockets, so the
//! prelude returns emitted events in the response frame and the node posts
//! them, in structured mode, to the publisher proxy.

use std::{
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use bytes::Bytes;
use http_body_util::Full;
use hyper_util::{client::legacy::Client, rt::TokioExecutor};

use crate::functions::FunctionKey;

/// Posts events in the background; [`EventPublisher::flush`] waits for them.
pub struct EventPublisher {
    url: String,
    client: Client<hyper_util::client::legacy::connect::HttpConnector, Full<Bytes>>,
    pending: Arc<AtomicU64>,
    done: Arc<tokio::sync::Notify>,
}

impl EventPublisher {
    /// A publisher posting to `url`.
    pub fn new(url: String) -> Self {
        Self {
            url,
            client: Client::builder(TokioExecutor::new()).build_http(),
            pending: Arc::default(),
            done: Arc::default(),
        }
    }

    /// Posts `events` emitted by `function`, carrying the request's trace headers.
    pub fn publish(&self, function: &FunctionKey, events: Vec<serde_json::Value>, trace: Vec<(String, String)>) {
        for event in events {
            let request =
                http::Request::post(&self.url).header(http::header::CONTENT_TYPE, "application/cloudevents+json");
            let request = trace.iter().fold(request, |r, (k, v)| r.header(k.as_str(), v.as_str()));
            let Ok(request) = request.body(Full::new(Bytes::from(event.to_string()))) else {
                tracing::warn!(function = %function, url = %self.url, "cannot build the event request");
                continue;
            };
            let client = self.client.clone();
            let function = function.clone();
            let pending = self.pending.clone();
            let done = self.done.clone();
            pending.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(async move {
                let event_type = event.get("type").and_then(|t| t.as_str()).unwrap_or("").to_string();
                match tokio::time::timeout(Duration::from_secs(10), client.request(request)).await {
                    Ok(Ok(r)) if r.status().is_success() => {
                        tracing::debug!(function = %function, event_type, "event published")
                    }
                    Ok(Ok(r)) => {
                        tracing::warn!(function = %function, event_type, status = %r.status(), "the publisher proxy refused an event")
                    }
                    Ok(Err(e)) => {
                        tracing::warn!(function = %function, event_type, error = %e, "publishing an event failed")
                    }
                    Err(_) => tracing::warn!(function = %function, event_type, "publishing an event timed out"),
                }
                if pending.fetch_sub(1, Ordering::SeqCst) == 1 {
                    done.notify_waiters();
                }
            });
        }
    }

    /// Waits up to `timeout` for events still being posted.
    pub async fn flush(&self, timeout: Duration) {
        let deadline = tokio::time::Instant::now() + timeout;
        while self.pending.load(Ordering::SeqCst) > 0 {
            if tokio::time::timeout_at(deadline, self.done.notified()).await.is_err() {
                break;
            }
        }
    }
}
