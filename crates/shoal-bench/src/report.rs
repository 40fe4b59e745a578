//! The results table.

use std::{fmt::Write, time::Duration};

use crate::{
    generate::Template,
    measure::{HandlerRow, Inside, NodeBaseline, NodeRow, VariantRow},
};

/// Everything one run measured.
#[derive(Default)]
pub struct Report {
    /// The machine.
    pub machine: String,
    /// The template build.
    pub build: Option<Template>,
    /// Time inside the server.
    pub inside: Option<Inside>,
    /// One row per Function count.
    pub nodes: Vec<NodeRow>,
    /// Design variants.
    pub variants: Vec<VariantRow>,
    /// Raw hyper.
    pub hyper: Option<VariantRow>,
    /// One Node.js process per Function.
    pub node_baseline: Option<NodeBaseline>,
    /// Handlers side by side with Node.js.
    pub handlers: Vec<HandlerRow>,
}

pub fn us(d: Duration) -> String {
    let us = d.as_secs_f64() * 1e6;
    if us >= 10_000.0 {
        format!("{:.1} ms", us / 1000.0)
    } else {
        format!("{us:.0} µs")
    }
}

fn kib(bytes: f64) -> String {
    format!("{:.1} KiB", bytes / 1024.0)
}

impl Report {
    /// An empty report.
    pub fn new() -> Self {
        Self::default()
    }

    /// The markdown table.
    pub fn markdown(&self) -> String {
        let mut o = String::new();
        let _ = writeln!(o, "# Shoal benchmark results\n");
        let _ = writeln!(
            o,
            "Machine: {}. Reproduce: `crates/shoal-bench/run.sh`. Load: `wrk` over loopback on the same 2 cores as the server.\n",
            self.machine
        );
        if let Some(b) = &self.build {
            let _ = writeln!(
                o,
                "Hello-world module: {} bytes, built in {:.2} s.\n",
                b.module_bytes,
                b.build_time.as_secs_f64()
            );
        }
        if let Some(i) = &self.inside {
            let _ = writeln!(o, "## Inside the server (hello world, in-process, sequential)\n");
            let _ = writeln!(
                o,
                "| hot (warm sandbox): handling p50 / p99 | of which JavaScript p50 | fresh sandbox per request, from the snapshot: handling p50 | of which: sandbox creation and restore p50 | JavaScript (the request) p50 | snapshots off: creation p50 | JavaScript (prelude + module + request) p50 | minor page faults per fresh request |\n|---|---|---|---|---|---|---|---|"
            );
            let _ = writeln!(
                o,
                "| {} / {} | {} | {} | {} | {} | {} | {} | {:.1} |\n",
                us(i.handle_p50),
                us(i.handle_p99),
                us(i.warm_run_p50),
                us(i.fresh_handle_p50),
                us(i.instantiate_p50),
                us(i.run_p50),
                us(i.evaluated_instantiate_p50),
                us(i.evaluated_run_p50),
                i.faults_per_request
            );
            let c = &i.cold;
            let _ = writeln!(
                o,
                "Cold: the first request to each of {} Functions never run on this node (modules in the cache), in-process, p50:\n\n| module from the cache | sandbox creation | load (prelude, module top level, snapshot) | the request | first request in all | next fresh sandbox, from the snapshot | snapshot per Function |\n|---|---|---|---|---|---|---|\n| {} | {} | {} | {} | {} | {} | {:.0} KiB |\n",
                crate::measure::COLD_FUNCTIONS,
                us(c.module_p50),
                us(c.instantiate_p50),
                us(c.load_p50),
                us(c.run_p50),
                us(c.total_p50),
                us(c.second_p50),
                c.snapshot_bytes as f64 / 1024.0
            );
            let _ = writeln!(
                o,
                "The JSON handler (POST a 2 KB order), hot: handling p50 {}, of which JavaScript (body decoding, event, handler, answer encoding) {}.\n",
                us(i.json_handle_p50),
                us(i.json_run_p50)
            );
        }
        if !self.handlers.is_empty() {
            let _ = writeln!(
                o,
                "## Hot Functions: Shoal vs Node.js, same handler, concurrency 64, side by side\n\nhello: `() => \"hello from …\"`; json: `handlers/json.js` (POST a 2 KB order, parse, transform, answer JSON); state: `handlers/state.js` (module-level counter and Map). Shoal: one node serving the three; Node.js: one Express process per handler.\n"
            );
            let _ = writeln!(
                o,
                "| handler | Shoal req/s | Shoal p50 / p99 | Node.js req/s | Node.js p50 / p99 | Shoal / Node.js |\n|---|---|---|---|---|---|"
            );
            for h in &self.handlers {
                let _ = writeln!(
                    o,
                    "| {} | {:.0} | {} / {} | {:.0} | {} / {} | {:.2}× |",
                    h.name,
                    h.shoal.rps,
                    us(h.shoal.p50),
                    us(h.shoal.p99),
                    h.node.rps,
                    us(h.node.p50),
                    us(h.node.p99),
                    h.shoal.rps / h.node.rps.max(1.0)
                );
            }
            o.push('\n');
        }
        if !self.nodes.is_empty() {
            let _ = writeln!(o, "## One node, N distinct Functions\n");
            let _ = writeln!(
                o,
                "| Functions | RSS idle | RSS all loaded | RSS per loaded Function | load all (sequential first requests) | cold first request p50 / p99 | hello c=1 p50 / p99 | hello c=64 p50 / p99, req/s | random Functions c=64 p50 / p99, req/s |"
            );
            let _ = writeln!(o, "|---|---|---|---|---|---|---|---|---|");
            for r in &self.nodes {
                let _ = writeln!(
                    o,
                    "| {} | {} MiB | {} MiB | {} | {:.2} s | {} / {} | {} / {} | {} / {}, {:.0} | {} / {}, {:.0} |",
                    r.count,
                    r.rss_idle >> 20,
                    r.rss_loaded >> 20,
                    kib(r.rss_per_function()),
                    r.load_all.as_secs_f64(),
                    us(r.cold_p50),
                    us(r.cold_p99),
                    us(r.hello_c1.p50),
                    us(r.hello_c1.p99),
                    us(r.hello_c64.p50),
                    us(r.hello_c64.p99),
                    r.hello_c64.rps,
                    us(r.random_c64.p50),
                    us(r.random_c64.p99),
                    r.random_c64.rps,
                );
            }
            o.push('\n');
            let _ = writeln!(
                o,
                "### The long tail: random traffic over all loaded Functions, next to one hot Function (c=64)\n"
            );
            let _ = writeln!(
                o,
                "| Functions | one hot Function req/s | uniform: req/s, p50 / p99 | uniform / hot | Zipf s={}: req/s, p50 / p99 | Zipf / hot |",
                crate::measure::ZIPF_SKEW
            );
            let _ = writeln!(o, "|---|---|---|---|---|---|");
            for r in &self.nodes {
                let hot = r.hello_c64.rps.max(1.0);
                let _ = writeln!(
                    o,
                    "| {} | {:.0} | {:.0}, {} / {} | {:.0} % | {:.0}, {} / {} | {:.0} % |",
                    r.count,
                    r.hello_c64.rps,
                    r.random_c64.rps,
                    us(r.random_c64.p50),
                    us(r.random_c64.p99),
                    100.0 * r.random_c64.rps / hot,
                    r.zipf_c64.rps,
                    us(r.zipf_c64.p50),
                    us(r.zipf_c64.p99),
                    100.0 * r.zipf_c64.rps / hot,
                );
            }
            o.push('\n');
        }
        if let Some(b) = &self.node_baseline {
            let _ = writeln!(
                o,
                "## Baseline: one Node.js process per Function (Express, Kyma's runtime work per request)\n"
            );
            let _ = writeln!(
                o,
                "| processes | RSS per Function | spawn to first 200 p50 / max | c=1 p50 / p99 | c=64 p50 / p99 | c=64 req/s |\n|---|---|---|---|---|---|"
            );
            let _ = writeln!(
                o,
                "| {} | {:.1} MiB | {} / {} | {} / {} | {} / {} | {:.0} |\n",
                b.processes,
                b.rss_per_process / 1048576.0,
                us(b.spawn_p50),
                us(b.spawn_max),
                us(b.c1.p50),
                us(b.c1.p99),
                us(b.c64.p50),
                us(b.c64.p99),
                b.c64.rps
            );
            if let Some(best) = self.nodes.iter().max_by_key(|r| r.count) {
                let hyper_rps = self.hyper.as_ref().map_or(0.0, |h| h.c64.rps);
                let _ = writeln!(o, "## Ratios, measured side by side in this run\n");
                let _ = writeln!(o, "| ratio | value |\n|---|---|");
                let _ = writeln!(
                    o,
                    "| memory per Function: Node.js process / Shoal ({} Functions loaded) | {:.0}× less |",
                    best.count,
                    b.rss_per_process / best.rss_per_function().max(1.0)
                );
                let _ = writeln!(
                    o,
                    "| throughput c=64, one Function: Shoal / Node.js | {:.2}× |",
                    best.hello_c64.rps / b.c64.rps.max(1.0)
                );
                let _ = writeln!(
                    o,
                    "| throughput c=64: Shoal / raw hyper hello world | {:.3}× |",
                    best.hello_c64.rps / hyper_rps.max(1.0)
                );
                let _ = writeln!(
                    o,
                    "| start: Node.js spawn-to-first-200 / Shoal cold first request (p50) | {:.0}× faster |\n",
                    b.spawn_p50.as_secs_f64() / best.cold_p50.as_secs_f64().max(1e-9)
                );
            }
        }
        if !self.variants.is_empty() || self.hyper.is_some() {
            let _ = writeln!(o, "## Variants and the ceiling\n");
            let _ = writeln!(
                o,
                "| server | Functions | RSS per loaded Function | cold p50 | c=1 p50 / p99 | c=64 p50 / p99 | c=64 req/s |\n|---|---|---|---|---|---|---|"
            );
            for v in self.variants.iter().chain(self.hyper.iter()) {
                let rss = if v.count == 1 {
                    format!("{} MiB (whole process)", (v.rss_per_function as u64) >> 20)
                } else {
                    kib(v.rss_per_function)
                };
                let _ = writeln!(
                    o,
                    "| {} | {} | {} | {} | {} / {} | {} / {} | {:.0} |",
                    v.name,
                    v.count,
                    rss,
                    us(v.cold_p50),
                    us(v.c1.p50),
                    us(v.c1.p99),
                    us(v.c64.p50),
                    us(v.c64.p99),
                    v.c64.rps
                );
            }
            o.push('\n');
        }
        o
    }

    /// The same figures as JSON.
    pub fn json(&self) -> serde_json::Value {
        let load = |l: &crate::measure::Load| serde_json::json!({"p50_us": l.p50.as_secs_f64() * 1e6, "p99_us": l.p99.as_secs_f64() * 1e6, "rps": l.rps});
        serde_json::json!({
            "machine": self.machine,
            "inside": self.inside.as_ref().map(|i| serde_json::json!({
                "handle_p50_us": i.handle_p50.as_secs_f64() * 1e6, "handle_p99_us": i.handle_p99.as_secs_f64() * 1e6,
                "warm_run_p50_us": i.warm_run_p50.as_secs_f64() * 1e6, "fresh_handle_p50_us": i.fresh_handle_p50.as_secs_f64() * 1e6,
                "evaluated_instantiate_p50_us": i.evaluated_instantiate_p50.as_secs_f64() * 1e6, "evaluated_run_p50_us": i.evaluated_run_p50.as_secs_f64() * 1e6,
                "cold_module_p50_us": i.cold.module_p50.as_secs_f64() * 1e6, "cold_instantiate_p50_us": i.cold.instantiate_p50.as_secs_f64() * 1e6,
                "cold_load_p50_us": i.cold.load_p50.as_secs_f64() * 1e6, "cold_run_p50_us": i.cold.run_p50.as_secs_f64() * 1e6,
                "cold_total_p50_us": i.cold.total_p50.as_secs_f64() * 1e6, "cold_second_p50_us": i.cold.second_p50.as_secs_f64() * 1e6,
                "snapshot_bytes": i.cold.snapshot_bytes,
                "instantiate_p50_us": i.instantiate_p50.as_secs_f64() * 1e6, "run_p50_us": i.run_p50.as_secs_f64() * 1e6,
                "json_handle_p50_us": i.json_handle_p50.as_secs_f64() * 1e6, "json_run_p50_us": i.json_run_p50.as_secs_f64() * 1e6,
            })),
            "nodes": self.nodes.iter().map(|r| serde_json::json!({
                "count": r.count, "rss_idle": r.rss_idle, "rss_loaded": r.rss_loaded, "rss_per_function": r.rss_per_function(),
                "load_all_s": r.load_all.as_secs_f64(), "cold_p50_us": r.cold_p50.as_secs_f64() * 1e6, "cold_p99_us": r.cold_p99.as_secs_f64() * 1e6,
                "hello_c1": load(&r.hello_c1), "hello_c64": load(&r.hello_c64), "random_c64": load(&r.random_c64), "zipf_c64": load(&r.zipf_c64), "zipf_skew": crate::measure::ZIPF_SKEW,
            })).collect::<Vec<_>>(),
            "node_baseline": self.node_baseline.as_ref().map(|b| serde_json::json!({
                "processes": b.processes, "rss_per_process": b.rss_per_process, "spawn_p50_us": b.spawn_p50.as_secs_f64() * 1e6,
                "spawn_max_us": b.spawn_max.as_secs_f64() * 1e6, "c1": load(&b.c1), "c64": load(&b.c64),
            })),
            "handlers": self.handlers.iter().map(|h| serde_json::json!({"name": h.name, "shoal": load(&h.shoal), "node": load(&h.node)})).collect::<Vec<_>>(),
            "variants": self.variants.iter().chain(self.hyper.iter()).map(|v| serde_json::json!({
                "name": v.name, "count": v.count, "rss_per_function": v.rss_per_function, "cold_p50_us": v.cold_p50.as_secs_f64() * 1e6,
                "c1": load(&v.c1), "c64": load(&v.c64),
            })).collect::<Vec<_>>(),
        })
    }
}
