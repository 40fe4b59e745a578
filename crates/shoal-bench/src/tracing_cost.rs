//! What recording traces costs a hot Function: hello (nodejs24) under
//! `shoal up` with no collector (tracing off), with a collector on loopback
//! (a span per invocation, exported in batches), and, when
//! `SHOAL_BENCH_BASELINE` names a `shoal` binary built before tracing
//! existed, that one, in alternating rounds so the machine's drift falls
//! on every variant alike.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::children::{ready, shoal_up_with};
use crate::measure::{Load, Target, wrk};

const CONCURRENCY: usize = 64;

/// One variant's rounds.
#[derive(Debug, Clone)]
pub struct Variant {
    /// What ran.
    pub name: String,
    /// One load per round.
    pub rounds: Vec<Load>,
}

impl Variant {
    fn median_rps(&self) -> f64 {
        let mut rps: Vec<f64> = self.rounds.iter().map(|l| l.rps).collect();
        rps.sort_by(f64::total_cmp);
        rps.get(rps.len() / 2).copied().unwrap_or(0.0)
    }

    fn median_p50(&self) -> Duration {
        let mut p50: Vec<Duration> = self.rounds.iter().map(|l| l.p50).collect();
        p50.sort();
        p50.get(p50.len() / 2).copied().unwrap_or_default()
    }
}

/// The results and what the collector received.
pub struct Report {
    /// The variants, in the order they ran in each round.
    pub variants: Vec<Variant>,
    /// Export requests the collector received.
    pub exports: u64,
    /// Bytes of OTLP protobuf it received.
    pub bytes: u64,
}

/// A collector that takes every export and keeps count.
async fn start_sink() -> anyhow::Result<(SocketAddr, Arc<AtomicU64>, Arc<AtomicU64>)> {
    use http_body_util::{BodyExt, Full};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let exports = Arc::new(AtomicU64::new(0));
    let bytes = Arc::new(AtomicU64::new(0));
    let (e, b) = (exports.clone(), bytes.clone());
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let (e, b) = (e.clone(), b.clone());
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |req: hyper::Request<hyper::body::Incoming>| {
                    let (e, b) = (e.clone(), b.clone());
                    async move {
                        let body = req
                            .into_body()
                            .collect()
                            .await
                            .map(|c| c.to_bytes())
                            .unwrap_or_default();
                        e.fetch_add(1, Ordering::Relaxed);
                        b.fetch_add(body.len() as u64, Ordering::Relaxed);
                        Ok::<_, std::convert::Infallible>(hyper::Response::new(Full::new(bytes::Bytes::new())))
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    Ok((addr, exports, bytes))
}

/// Runs `rounds` rounds of every variant, `seconds` each.
pub async fn run(rounds: usize, seconds: Duration) -> anyhow::Result<Report> {
    crate::measure::require_wrk()?;
    let dir = tempfile::tempdir()?;
    std::fs::write(
        dir.path().join("hello.yaml"),
        "apiVersion: serverless.kyma-project.io/v1alpha2\nkind: Function\nmetadata:\n  name: hello\n  namespace: bench\nspec:\n  runtime: nodejs24\n  source:\n    inline:\n      source: |\n        module.exports = { main: () => 'hello' };\n",
    )?;
    let (sink, exports, bytes) = start_sink().await?;
    let endpoint = format!("http://{sink}/v1/traces");
    let current = std::env::var_os("SHOAL_BENCH_SHOAL")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate::children::workspace_root().join("target/release/shoal"));
    let mut setups: Vec<(String, PathBuf, Vec<String>)> = Vec::new();
    if let Some(baseline) = std::env::var_os("SHOAL_BENCH_BASELINE") {
        setups.push((
            "before tracing existed (baseline build)".into(),
            baseline.into(),
            Vec::new(),
        ));
    }
    setups.push(("tracing off (no collector)".into(), current.clone(), Vec::new()));
    setups.push((
        "tracing on (a span per request, exported)".into(),
        current,
        vec!["--trace-collector-endpoint".into(), endpoint],
    ));
    let mut variants: Vec<Variant> = setups
        .iter()
        .map(|(name, _, _)| Variant {
            name: name.clone(),
            rounds: Vec::new(),
        })
        .collect();
    for round in 0..rounds {
        for (i, (name, bin, args)) in setups.iter().enumerate() {
            eprintln!("== round {} of {rounds}: {name}", round + 1);
            let load = measure(bin, dir.path(), args, seconds).await?;
            variants[i].rounds.push(load);
        }
    }
    Ok(Report {
        variants,
        exports: exports.load(Ordering::Relaxed),
        bytes: bytes.load(Ordering::Relaxed),
    })
}

async fn measure(bin: &Path, dir: &Path, args: &[String], seconds: Duration) -> anyhow::Result<Load> {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (server, addr) = shoal_up_with(bin, dir, &args)?;
    ready(addr, "/bench/hello/").await?;
    let target = Target::Path("/bench/hello/".into());
    wrk(addr, &target, CONCURRENCY, Duration::from_secs(2))?;
    let load = wrk(addr, &target, CONCURRENCY, seconds)?;
    drop(server);
    Ok(load)
}

/// The results as a markdown table.
pub fn markdown(report: &Report) -> String {
    let off = report
        .variants
        .iter()
        .find(|v| v.name.starts_with("tracing off"))
        .map_or(1.0, Variant::median_rps);
    let mut rows = String::new();
    for v in &report.variants {
        let rounds: Vec<String> = v.rounds.iter().map(|l| format!("{:.0}", l.rps)).collect();
        rows.push_str(&format!(
            "| {} | {:.0} | {} | {:.0} µs | {:.2} |\n",
            v.name,
            v.median_rps(),
            rounds.join(", "),
            v.median_p50().as_secs_f64() * 1e6,
            v.median_rps() / off.max(1.0)
        ));
    }
    format!(
        "## Tracing's cost on the hot path: hello (nodejs24), wrk c={CONCURRENCY}, rounds alternating\n\n\
         | variant | median req/s | each round | median p50 | vs off |\n|---|---|---|---|---|\n{rows}\n\
         The collector (a loopback OTLP/HTTP receiver) took {} export requests, {:.1} MiB of protobuf.\n",
        report.exports,
        report.bytes as f64 / (1 << 20) as f64
    )
}
