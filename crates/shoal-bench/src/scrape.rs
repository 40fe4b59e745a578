//! What a Prometheus scrape of a node costs at 10,000 loaded Functions:
//! the size of `/metrics`, its series, and how long it takes to answer.

use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;

use crate::children::{Child, Variant};
use crate::measure::{cold_requests, percentile};

/// One node's scrape.
pub struct ScrapeRow {
    /// Functions loaded (each called once).
    pub functions: usize,
    /// Bytes of one `/metrics` answer.
    pub bytes: usize,
    /// Sample lines in it.
    pub samples: usize,
    /// Scrape time, p50 of 20.
    pub p50: Duration,
    /// The slowest of those 20.
    pub max: Duration,
}

/// Loads `count` generated Functions into a node and scrapes it 20 times.
///
/// # Errors
/// When the node does not start or answers an error.
pub async fn run(count: usize) -> anyhow::Result<ScrapeRow> {
    let dir = tempfile::tempdir()?;
    crate::generate::functions(dir.path(), count).await?;
    let node = Child::node(dir.path(), count, Variant::default()).await?;
    cold_requests(node.addr, count).await?;
    let client: Client<_, Full<Bytes>> = Client::builder(TokioExecutor::new()).build_http();
    let mut times = Vec::new();
    let mut body = Bytes::new();
    for _ in 0..20 {
        let started = Instant::now();
        let response = client
            .request(http::Request::get(format!("http://{}/metrics", node.addr)).body(Full::default())?)
            .await?;
        anyhow::ensure!(response.status() == 200, "/metrics answered {}", response.status());
        body = response.into_body().collect().await?.to_bytes();
        times.push(started.elapsed());
    }
    times.sort();
    let text = String::from_utf8_lossy(&body);
    Ok(ScrapeRow {
        functions: count,
        bytes: body.len(),
        samples: text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).count(),
        p50: percentile(&times, 0.5),
        max: times.last().copied().unwrap_or_default(),
    })
}

/// The rows as markdown.
pub fn markdown(rows: &[ScrapeRow]) -> String {
    let mut out = String::from(
        "One node (`prometheus-client`, OpenMetrics text), every Function called once, `/metrics` fetched 20 times over loopback. Per-Function series: calls, failures, open connections, CPU throttling and a 14-bucket duration histogram; at most 10,000 Functions get their own (`--metrics-max-functions`), the rest are summed into one.\n\n| Functions loaded | /metrics size | samples | scrape p50 / max |\n|---|---|---|---|\n",
    );
    for r in rows {
        out.push_str(&format!(
            "| {} | {:.1} MiB | {} | {} / {} |\n",
            r.functions,
            r.bytes as f64 / (1 << 20) as f64,
            r.samples,
            crate::report::us(r.p50),
            crate::report::us(r.max)
        ));
    }
    out
}
