//! Prometheus metrics, rendered by hand in the text exposition format: a
//! few atomic counters per Function do not need a metrics framework.

use std::{
    fmt::Write,
    sync::{
        Arc,
        atomic::{AtomicU64, AtomicUsize, Ordering},
    },
    time::Duration,
};

use crate::functions::{FunctionKey, FunctionTable};

/// Upper bounds of the duration histogram, in seconds.
const BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

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

/// Node-wide gauges the table does not know.
pub struct NodeGauges {
    /// Requests being served right now.
    pub in_flight: u64,
    /// Sandbox slots the pooling allocator holds.
    pub pool_slots: u64,
}

/// Renders the metrics: the node's and every Function's, or, for `only`
/// (a request on that Function's own port, which its callers and other
/// tenants reach), that Function's series alone, as its own pod would show.
pub fn render(table: &FunctionTable, gauges: &NodeGauges, only: Option<&FunctionKey>) -> String {
    let mut out = String::with_capacity(4096);
    let mut entries = table.list();
    if let Some(key) = only {
        entries.retain(|e| &e.key == key);
    }
    let _ = writeln!(
        out,
        "# HELP function_calls_total Requests handled by a Function.\n# TYPE function_calls_total counter"
    );
    for e in &entries {
        let _ = writeln!(out, "function_calls_total{{{}}} {}", labels(&e.key), e.metrics.calls());
    }
    let _ = writeln!(
        out,
        "# HELP shoal_function_open_connections Connections (net, tls, WebSocket) a Function's sandboxes hold open.\n# TYPE shoal_function_open_connections gauge"
    );
    for e in &entries {
        let _ = writeln!(
            out,
            "shoal_function_open_connections{{{}}} {}",
            labels(&e.key),
            e.metrics.open_connections.load(Ordering::Relaxed)
        );
    }
    let _ = writeln!(
        out,
        "# HELP shoal_function_cpu_throttled_total Times a busy request of a Function waited because the Function's CPU share was in use.\n# TYPE shoal_function_cpu_throttled_total counter"
    );
    for e in &entries {
        let _ = writeln!(
            out,
            "shoal_function_cpu_throttled_total{{{}}} {}",
            labels(&e.key),
            e.cpu.throttled()
        );
    }
    let _ = writeln!(
        out,
        "# HELP function_failures_total Requests a Function failed (5xx, timeout, trap).\n# TYPE function_failures_total counter"
    );
    for e in &entries {
        let _ = writeln!(
            out,
            "function_failures_total{{{}}} {}",
            labels(&e.key),
            e.metrics.failures()
        );
    }
    let _ = writeln!(
        out,
        "# HELP function_duration_seconds Time to answer a request.\n# TYPE function_duration_seconds histogram"
    );
    for e in &entries {
        let l = labels(&e.key);
        let mut cumulative = 0;
        for (bound, count) in BUCKETS.iter().zip(&e.metrics.buckets) {
            cumulative += count.load(Ordering::Relaxed);
            let _ = writeln!(
                out,
                "function_duration_seconds_bucket{{{l},le=\"{bound}\"}} {cumulative}"
            );
        }
        let calls = e.metrics.calls();
        let _ = writeln!(out, "function_duration_seconds_bucket{{{l},le=\"+Inf\"}} {calls}");
        let sum = e.metrics.duration_micros.load(Ordering::Relaxed) as f64 / 1e6;
        let _ = writeln!(
            out,
            "function_duration_seconds_sum{{{l}}} {sum}\nfunction_duration_seconds_count{{{l}}} {calls}"
        );
    }
    let s = &table.stats;
    let gauges_list: [(&str, &str, &str, u64); 12] = [
        (
            "shoal_functions",
            "gauge",
            "Functions known to this node.",
            entries.len() as u64,
        ),
        (
            "shoal_functions_loaded",
            "gauge",
            "Functions whose module is in memory.",
            entries.iter().filter(|e| e.is_loaded()).count() as u64,
        ),
        (
            "shoal_loaded_module_bytes",
            "gauge",
            "Approximate bytes of loaded modules.",
            table.loaded_bytes(),
        ),
        (
            "shoal_instances_in_use",
            "gauge",
            "Sandboxes running a request now.",
            gauges.in_flight,
        ),
        (
            "shoal_instance_pool_slots",
            "gauge",
            "Sandbox slots in the instance pool.",
            gauges.pool_slots,
        ),
        (
            "shoal_warm_sandboxes_idle",
            "gauge",
            "Warm sandboxes (evaluated Function instances) waiting for a request.",
            table.warm_budget().idle_sandboxes() as u64,
        ),
        (
            "shoal_warm_sandbox_bytes",
            "gauge",
            "Linear memory of the idle warm sandboxes, counted against the warm budget.",
            table.warm_budget().used_bytes() as u64,
        ),
        (
            "shoal_module_loads_total",
            "counter",
            "Cold loads of Function modules.",
            s.loads.load(Ordering::Relaxed),
        ),
        (
            "shoal_module_load_failures_total",
            "counter",
            "Failed loads.",
            s.load_failures.load(Ordering::Relaxed),
        ),
        (
            "shoal_module_evictions_total",
            "counter",
            "Modules evicted to stay within the memory budget.",
            s.evictions.load(Ordering::Relaxed),
        ),
        (
            "shoal_artifact_cache_hits_total",
            "counter",
            "Artifacts read from the local cache.",
            s.artifact_hits.load(Ordering::Relaxed),
        ),
        (
            "shoal_artifact_pulls_total",
            "counter",
            "Artifacts pulled from a registry.",
            s.artifact_pulls.load(Ordering::Relaxed),
        ),
    ];
    if only.is_some() {
        return out;
    }
    for (name, kind, help, value) in gauges_list {
        let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}");
    }
    out
}

fn labels(key: &FunctionKey) -> String {
    format!(
        "namespace=\"{}\",name=\"{}\"",
        escape(&key.namespace),
        escape(&key.name)
    )
}

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}
