//! Prometheus metrics with `prometheus-client`, in the OpenMetrics text
//! format. Each Function's counts live in its table entry as plain atomics
//! (the request path takes no lock and looks nothing up); a
//! [`Collector`] reads them at scrape time. Per-Function series are
//! bounded: at most [`NodeGauges::max_function_series`] Functions get their
//! own (the most called first); the rest are summed into one series labelled
//! `namespace="*",name="*"`, so a node with more Functions than that never
//! grows its scrape.

use std::{
    sync::{
        Arc,
        atomic::{AtomicU64, AtomicUsize, Ordering},
    },
    time::Duration,
};

use prometheus_client::{
    collector::Collector,
    encoding::{DescriptorEncoder, EncodeMetric, NoLabelSet},
    metrics::{MetricType, counter::ConstCounter, gauge::ConstGauge},
    registry::Registry,
};

use crate::functions::{FunctionKey, FunctionTable};

/// Upper bounds of the duration histogram, in seconds.
const BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// The content type of [`render`]'s text.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// Calls, failures and durations of one Function.
#[derive(Debug, Default)]
pub struct FunctionMetrics {
    calls: AtomicU64,
    failures: AtomicU64,
    buckets: [AtomicU64; BUCKETS.len()],
    duration_micros: AtomicU64,
    /// Connections (net, tls, WebSocket) the Function's sandboxes hold
    /// open, kept by the runtime.
    pub open_connections: Arc<AtomicUsize>,
}

impl FunctionMetrics {
    /// Records one call.
    pub fn record(&self, elapsed: Duration, failed: bool) {
        self.calls.fetch_add(1, Ordering::Relaxed);
        if failed {
            self.failures.fetch_add(1, Ordering::Relaxed);
        }
        let secs = elapsed.as_secs_f64();
        if let Some(i) = BUCKETS.iter().position(|b| secs <= *b) {
            self.buckets[i].fetch_add(1, Ordering::Relaxed);
        }
        self.duration_micros
            .fetch_add(elapsed.as_micros() as u64, Ordering::Relaxed);
    }

    /// Calls so far.
    pub fn calls(&self) -> u64 {
        self.calls.load(Ordering::Relaxed)
    }

    /// Failed calls so far.
    pub fn failures(&self) -> u64 {
        self.failures.load(Ordering::Relaxed)
    }
}

/// One Function's figures at scrape time (or the sum of those beyond the
/// series bound).
#[derive(Debug, Clone, Default)]
struct FunctionSample {
    namespace: String,
    name: String,
    calls: u64,
    failures: u64,
    buckets: [u64; BUCKETS.len()],
    duration_micros: u64,
    open_connections: u64,
    cpu_throttled: u64,
}

impl FunctionSample {
    fn add(&mut self, other: &Self) {
        self.calls += other.calls;
        self.failures += other.failures;
        for (a, b) in self.buckets.iter_mut().zip(other.buckets) {
            *a += b;
        }
        self.duration_micros += other.duration_micros;
        self.open_connections += other.open_connections;
        self.cpu_throttled += other.cpu_throttled;
    }

    fn labels(&self) -> [(&'static str, &str); 2] {
        [("namespace", self.namespace.as_str()), ("name", self.name.as_str())]
    }
}

/// Node-wide figures the table does not know.
pub struct NodeGauges {
    /// Requests being served right now.
    pub in_flight: u64,
    /// Sandbox slots the pooling allocator holds.
    pub pool_slots: u64,
    /// Functions with series of their own at most.
    pub max_function_series: usize,
    /// Spans exported, dropped (queue full) and failed (collector refused
    /// or away), when the node records traces.
    pub spans: Option<[u64; 3]>,
}

/// Renders the metrics: the node's and every Function's, or, for `only`
/// (a request on that Function's own port, which its callers and other
/// tenants reach), that Function's series alone, as its own pod would show.
pub fn render(table: &FunctionTable, gauges: &NodeGauges, only: Option<&FunctionKey>) -> String {
    let mut entries = table.list();
    if let Some(key) = only {
        entries.retain(|e| &e.key == key);
    }
    let mut samples: Vec<FunctionSample> = entries
        .iter()
        .map(|e| {
            let m = &e.metrics;
            FunctionSample {
                namespace: e.key.namespace.clone(),
                name: e.key.name.clone(),
                calls: m.calls(),
                failures: m.failures(),
                buckets: std::array::from_fn(|i| m.buckets[i].load(Ordering::Relaxed)),
                duration_micros: m.duration_micros.load(Ordering::Relaxed),
                open_connections: m.open_connections.load(Ordering::Relaxed) as u64,
                cpu_throttled: e.cpu.throttled(),
            }
        })
        .collect();
    if samples.len() > gauges.max_function_series {
        // The most called keep their own series; the rest are summed.
        samples.sort_by_key(|s| std::cmp::Reverse(s.calls));
        let mut rest = FunctionSample {
            namespace: "*".into(),
            name: "*".into(),
            ..FunctionSample::default()
        };
        for s in samples.drain(gauges.max_function_series.saturating_sub(1)..) {
            rest.add(&s);
        }
        samples.push(rest);
    }
    let node = (only.is_none()).then(|| {
        let s = &table.stats;
        NodeSample {
            functions: entries.len() as u64,
            loaded: entries.iter().filter(|e| e.is_loaded()).count() as u64,
            loaded_bytes: table.loaded_bytes(),
            in_flight: gauges.in_flight,
            pool_slots: gauges.pool_slots,
            warm_idle: table.warm_budget().idle_sandboxes() as u64,
            warm_bytes: table.warm_budget().used_bytes() as u64,
            loads: s.loads.load(Ordering::Relaxed),
            load_failures: s.load_failures.load(Ordering::Relaxed),
            evictions: s.evictions.load(Ordering::Relaxed),
            artifact_hits: s.artifact_hits.load(Ordering::Relaxed),
            artifact_pulls: s.artifact_pulls.load(Ordering::Relaxed),
            spans: gauges.spans,
        }
    });
    let mut registry = Registry::default();
    registry.register_collector(Box::new(NodeCollector { samples, node }));
    let mut out = String::with_capacity(4096);
    // Writing into a String cannot fail.
    let _ = prometheus_client::encoding::text::encode(&mut out, &registry);
    out
}

/// Node-wide figures at scrape time.
#[derive(Debug)]
struct NodeSample {
    functions: u64,
    loaded: u64,
    loaded_bytes: u64,
    in_flight: u64,
    pool_slots: u64,
    warm_idle: u64,
    warm_bytes: u64,
    loads: u64,
    load_failures: u64,
    evictions: u64,
    artifact_hits: u64,
    artifact_pulls: u64,
    spans: Option<[u64; 3]>,
}

/// Encodes one scrape's samples.
#[derive(Debug)]
struct NodeCollector {
    samples: Vec<FunctionSample>,
    node: Option<NodeSample>,
}

impl NodeCollector {
    fn per_function(
        &self,
        encoder: &mut DescriptorEncoder,
        name: &str,
        help: &str,
        kind: MetricType,
        value: impl Fn(&FunctionSample) -> u64,
    ) -> Result<(), std::fmt::Error> {
        let mut family = encoder.encode_descriptor(name, help, None, kind)?;
        for s in &self.samples {
            let labels = s.labels();
            let encoder = family.encode_family(&labels)?;
            match kind {
                MetricType::Counter => ConstCounter::new(value(s)).encode(encoder)?,
                _ => ConstGauge::new(value(s) as i64).encode(encoder)?,
            }
        }
        Ok(())
    }
}

impl Collector for NodeCollector {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        self.per_function(
            &mut encoder,
            "function_calls",
            "Requests handled by a Function.",
            MetricType::Counter,
            |s| s.calls,
        )?;
        self.per_function(
            &mut encoder,
            "function_failures",
            "Requests a Function failed (5xx, timeout, trap).",
            MetricType::Counter,
            |s| s.failures,
        )?;
        self.per_function(
            &mut encoder,
            "shoal_function_open_connections",
            "Connections (net, tls, WebSocket) a Function's sandboxes hold open.",
            MetricType::Gauge,
            |s| s.open_connections,
        )?;
        self.per_function(
            &mut encoder,
            "shoal_function_cpu_throttled",
            "Times a busy request of a Function waited because the Function's CPU share was in use.",
            MetricType::Counter,
            |s| s.cpu_throttled,
        )?;
        let mut family = encoder.encode_descriptor(
            "function_duration_seconds",
            "Time to answer a request.",
            None,
            MetricType::Histogram,
        )?;
        for s in &self.samples {
            let labels = s.labels();
            let mut buckets: Vec<(f64, u64)> = BUCKETS.iter().copied().zip(s.buckets).collect();
            let counted: u64 = s.buckets.iter().sum();
            // Past the last bound: what no bucket holds.
            buckets.push((f64::MAX, s.calls.saturating_sub(counted)));
            family.encode_family(&labels)?.encode_histogram::<NoLabelSet>(
                s.duration_micros as f64 / 1e6,
                s.calls,
                &buckets,
                None,
            )?;
        }
        let Some(n) = &self.node else {
            return Ok(());
        };
        let node_figures: [(&str, &str, MetricType, u64); 12] = [
            (
                "shoal_functions",
                "Functions known to this node.",
                MetricType::Gauge,
                n.functions,
            ),
            (
                "shoal_functions_loaded",
                "Functions whose module is in memory.",
                MetricType::Gauge,
                n.loaded,
            ),
            (
                "shoal_loaded_module_bytes",
                "Approximate bytes of loaded modules.",
                MetricType::Gauge,
                n.loaded_bytes,
            ),
            (
                "shoal_instances_in_use",
                "Sandboxes running a request now.",
                MetricType::Gauge,
                n.in_flight,
            ),
            (
                "shoal_instance_pool_slots",
                "Sandbox slots in the instance pool.",
                MetricType::Gauge,
                n.pool_slots,
            ),
            (
                "shoal_warm_sandboxes_idle",
                "Warm sandboxes (evaluated Function instances) waiting for a request.",
                MetricType::Gauge,
                n.warm_idle,
            ),
            (
                "shoal_warm_sandbox_bytes",
                "Linear memory of the idle warm sandboxes, counted against the warm budget.",
                MetricType::Gauge,
                n.warm_bytes,
            ),
            (
                "shoal_module_loads",
                "Cold loads of Function modules.",
                MetricType::Counter,
                n.loads,
            ),
            (
                "shoal_module_load_failures",
                "Failed loads.",
                MetricType::Counter,
                n.load_failures,
            ),
            (
                "shoal_module_evictions",
                "Modules evicted to stay within the memory budget.",
                MetricType::Counter,
                n.evictions,
            ),
            (
                "shoal_artifact_cache_hits",
                "Artifacts read from the local cache.",
                MetricType::Counter,
                n.artifact_hits,
            ),
            (
                "shoal_artifact_pulls",
                "Artifacts pulled from a registry.",
                MetricType::Counter,
                n.artifact_pulls,
            ),
        ];
        for (name, help, kind, value) in node_figures {
            let metric = encoder.encode_descriptor(name, help, None, kind)?;
            match kind {
                MetricType::Counter => ConstCounter::new(value).encode(metric)?,
                _ => ConstGauge::new(value as i64).encode(metric)?,
            }
        }
        if let Some([exported, dropped, failed]) = n.spans {
            for (name, help, value) in [
                (
                    "shoal_trace_spans_exported",
                    "Spans the trace collector accepted.",
                    exported,
                ),
                (
                    "shoal_trace_spans_dropped",
                    "Spans dropped because the export queue was full.",
                    dropped,
                ),
                (
                    "shoal_trace_spans_failed",
                    "Spans in exports the collector refused or did not answer.",
                    failed,
                ),
            ] {
                ConstCounter::new(value).encode(encoder.encode_descriptor(name, help, None, MetricType::Counter)?)?;
            }
        }
        Ok(())
    }
}
