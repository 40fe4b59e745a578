//! `shoal-bench cluster`: Shoal on a real cluster, from a kubeconfig.
//! Three figures a new user meets first:
//! - **first answer**: one Function created through the API → its first
//!   200 through its Service's ClusterIP (and when it was built, and
//!   Running, on the way), several times, median;
//! - **scale**: N Functions created at once → all Running; builds per
//!   second, API writes per Function (apiserver_request_total, all
//!   clients), the peak memory of the controller and the build service;
//! - **node replacement**: a Function called 10 times a second while every
//!   node pod is deleted at once; failed calls and the longest gap.
//!
//! Run it where ClusterIPs route: in a pod, or on the test cluster of
//! `../shared/k8s` inside its network namespace
//! (`nsenter --net=/run/netns/shoalk8s shoal-bench cluster`).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use futures::{StreamExt, TryStreamExt};
use k8s_openapi::api::coordination::v1::Lease;
use k8s_openapi::api::core::v1::{Namespace, Pod, Service};
use kube::api::{Api, DeleteParams, ListParams, PostParams};
use kube::{Client, ResourceExt};
use serde_json::json;
use shoal_api::{ConditionStatus, Function, condition};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// What to measure.
#[derive(clap::Args)]
pub struct ClusterArgs {
    /// Namespace of the benchmark's Functions (made if missing; its
    /// Functions are deleted after each part).
    #[arg(long, default_value = "shoal-bench")]
    namespace: String,
    /// Shoal's namespace: the node pods, the controller, the build service.
    #[arg(long, default_value = "shoal-system")]
    system_namespace: String,
    /// Runs of create → first answer.
    #[arg(long, default_value_t = 5)]
    first_answer: usize,
    /// Function counts created at once (each its own run; 0: none).
    #[arg(long, value_delimiter = ',', default_value = "200")]
    counts: Vec<usize>,
    /// Seconds of calls at 10 per second around deleting every node pod
    /// (the pods go 5 s in; 0: skip).
    #[arg(long, default_value_t = 30)]
    node_restart_secs: u64,
}

/// Runs the parts asked for and prints their tables.
pub async fn run(args: &ClusterArgs) -> anyhow::Result<()> {
    let client = Client::try_default()
        .await
        .context("connecting to the cluster (KUBECONFIG or in-cluster)")?;
    let namespaces: Api<Namespace> = Api::all(client.clone());
    if namespaces.get_opt(&args.namespace).await?.is_none() {
        let ns: Namespace = serde_json::from_value(json!({"metadata": {"name": args.namespace}}))?;
        namespaces.create(&PostParams::default(), &ns).await?;
    }
    let bench = Bench {
        client,
        namespace: args.namespace.clone(),
        system: args.system_namespace.clone(),
        run: format!("{:x}", std::process::id()),
    };
    if args.first_answer > 0 {
        bench.first_answers(args.first_answer).await?;
    }
    for &count in args.counts.iter().filter(|c| **c > 0) {
        bench.scale(count).await?;
    }
    if args.node_restart_secs > 0 {
        bench.node_restart(args.node_restart_secs).await?;
    }
    Ok(())
}

struct Bench {
    client: Client,
    namespace: String,
    system: String,
    /// Labels this process's Functions, so parts clean up only their own.
    run: String,
}

/// A hello-world Function, its source unique so it is built afresh.
fn function(namespace: &str, name: &str, run: &str) -> anyhow::Result<Function> {
    Ok(serde_json::from_value(json!({
        "apiVersion": "serverless.kyma-project.io/v1alpha2", "kind": "Function",
        "metadata": {"name": name, "namespace": namespace, "labels": {"shoal-bench/run": run}},
        "spec": {"runtime": "nodejs22", "source": {"inline": {
            "source": format!("module.exports = {{ main: () => 'hello from {name}' }};\n")}}}
    }))?)
}

fn condition_true(function: &Function, type_: &str) -> bool {
    function.status.as_ref().is_some_and(|s| {
        s.conditions
            .iter()
            .any(|c| c.type_ == type_ && c.status == ConditionStatus::True)
    })
}

/// GET / on `address` with the Service's host name: the status code, or
/// nothing when no connection was made within 100 ms or no answer came in
/// `timeout`. A short connect timeout, retried, rather than one long one:
/// a SYN sent while the proxy rules change is lost and would cost a
/// retransmit second that says nothing about when the Service answers.
async fn get_status(address: &str, host: &str, timeout: Duration) -> Option<u16> {
    let connect = tokio::time::timeout(Duration::from_millis(100), tokio::net::TcpStream::connect(address));
    let mut stream = connect.await.ok()?.ok()?;
    let exchange = async {
        let request = format!("GET / HTTP/1.1\r\nhost: {host}\r\nconnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).await.ok()?;
        let mut head = [0u8; 12];
        stream.read_exact(&mut head).await.ok()?;
        std::str::from_utf8(&head[9..12]).ok()?.parse().ok()
    };
    tokio::time::timeout(timeout, exchange).await.ok()?
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

impl Bench {
    fn functions(&self) -> Api<Function> {
        Api::namespaced(self.client.clone(), &self.namespace)
    }

    /// Deletes this run's Functions and waits until they are gone.
    async fn clean_up(&self) -> anyhow::Result<()> {
        let selector = format!("shoal-bench/run={}", self.run);
        let params = ListParams::default().labels(&selector);
        self.functions()
            .delete_collection(&DeleteParams::default(), &params)
            .await?;
        let deadline = Instant::now() + Duration::from_secs(600);
        while !self.functions().list(&params).await?.items.is_empty() {
            anyhow::ensure!(
                Instant::now() < deadline,
                "this run's Functions were not gone within 10 minutes"
            );
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        Ok(())
    }

    async fn first_answers(&self, runs: usize) -> anyhow::Result<()> {
        let services: Api<Service> = Api::namespaced(self.client.clone(), &self.namespace);
        let mut rows = Vec::new();
        for i in 0..runs {
            let name = format!("first-{}-{i}", self.run);
            let started = Instant::now();
            self.functions()
                .create(&PostParams::default(), &function(&self.namespace, &name, &self.run)?)
                .await?;
            let (mut built, mut running, mut address) = (None, None, None);
            let host = format!("{name}.{}.svc.cluster.local", self.namespace);
            let mut last_look = Instant::now() - Duration::from_secs(1);
            let answered = loop {
                anyhow::ensure!(
                    started.elapsed() < Duration::from_secs(120),
                    "{name}: no 200 within 120 s"
                );
                if last_look.elapsed() >= Duration::from_millis(50) {
                    last_look = Instant::now();
                    if let Some(f) = self.functions().get_opt(&name).await? {
                        if built.is_none() && condition_true(&f, condition::BUILD_READY) {
                            built = Some(started.elapsed());
                        }
                        if running.is_none() && condition_true(&f, condition::RUNNING) {
                            running = Some(started.elapsed());
                        }
                    }
                    if address.is_none() {
                        address = services
                            .get_opt(&name)
                            .await?
                            .and_then(|s| s.spec?.cluster_ip)
                            .filter(|ip| !ip.is_empty() && ip != "None")
                            .map(|ip| format!("{ip}:80"));
                    }
                }
                if let Some(address) = &address
                    && get_status(address, &host, Duration::from_secs(1)).await == Some(200)
                {
                    break started.elapsed();
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            };
            let secs = |d: Option<Duration>| d.map_or("-".to_string(), |d| format!("{:.2}", d.as_secs_f64()));
            println!(
                "{name}: built {} s, Running {} s, first 200 {:.2} s",
                secs(built),
                secs(running),
                answered.as_secs_f64()
            );
            rows.push((built, running, answered));
        }
        let mut firsts: Vec<f64> = rows.iter().map(|r| r.2.as_secs_f64()).collect();
        let mut builts: Vec<f64> = rows.iter().filter_map(|r| r.0.map(|d| d.as_secs_f64())).collect();
        println!("\n| create → | median (s) | runs |");
        println!("|---|---|---|");
        println!(
            "| BuildReady True (seen) | {:.2} | {} |",
            median(&mut builts),
            builts.len()
        );
        println!(
            "| first 200 through the Service | {:.2} | {} |",
            median(&mut firsts),
            firsts.len()
        );
        let all: Vec<String> = rows.iter().map(|r| format!("{:.2}", r.2.as_secs_f64())).collect();
        println!("\nfirst 200, each run (s): {}\n", all.join(", "));
        self.clean_up().await
    }

    async fn scale(&self, count: usize) -> anyhow::Result<()> {
        let writes_before = self.api_writes().await?;
        let started = Instant::now();
        let run = format!("{}-{count}", self.run);
        let created = futures::stream::iter(0..count)
            .map(|i| {
                let api = self.functions();
                let function = function(&self.namespace, &format!("scale-{run}-{i}"), &self.run);
                async move {
                    api.create(&PostParams::default(), &function?).await?;
                    anyhow::Ok(())
                }
            })
            .buffer_unordered(16)
            .try_collect::<Vec<()>>();
        created.await?;
        let applied = started.elapsed();
        let selector = format!("shoal-bench/run={}", self.run);
        let (mut all_built, mut all_running) = (None, None);
        let mut first_built = None;
        let mut peaks = BTreeMap::<String, u64>::new();
        let mut last_sample = Instant::now() - Duration::from_secs(10);
        while all_running.is_none() {
            anyhow::ensure!(
                started.elapsed() < Duration::from_secs(1800),
                "{count} Functions not Running within 30 minutes"
            );
            let list = self.functions().list(&ListParams::default().labels(&selector)).await?;
            let built = list
                .items
                .iter()
                .filter(|f| condition_true(f, condition::BUILD_READY))
                .count();
            let running = list
                .items
                .iter()
                .filter(|f| condition_true(f, condition::RUNNING))
                .count();
            if built > 0 && first_built.is_none() {
                first_built = Some(started.elapsed());
            }
            if built == count && all_built.is_none() {
                all_built = Some(started.elapsed());
            }
            if running == count {
                all_running = Some(started.elapsed());
            }
            if last_sample.elapsed() >= Duration::from_secs(2) {
                last_sample = Instant::now();
                for (who, bytes) in self.memory().await.unwrap_or_default() {
                    let peak = peaks.entry(who).or_default();
                    *peak = (*peak).max(bytes);
                }
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        let writes = self.api_writes().await?.saturating_sub(writes_before);
        let secs = |d: Option<Duration>| d.map_or(f64::NAN, |d| d.as_secs_f64());
        let build_window = secs(all_built) - secs(first_built);
        println!("\n| {count} Functions created at once | |");
        println!("|---|---|");
        println!("| created (16 at a time) | {:.1} s |", applied.as_secs_f64());
        println!("| all BuildReady | {:.1} s |", secs(all_built));
        println!("| all Running | {:.1} s |", secs(all_running));
        println!(
            "| builds per second (first to last built) | {:.1} |",
            count as f64 / build_window.max(0.001)
        );
        println!(
            "| API writes per Function (all clients) | {:.1} |",
            writes as f64 / count as f64
        );
        for (who, bytes) in &peaks {
            println!("| peak working set, {who} | {:.0} MiB |", *bytes as f64 / 1048576.0);
        }
        println!();
        self.clean_up().await
    }

    /// Mutating requests the API server has answered so far.
    async fn api_writes(&self) -> anyhow::Result<u64> {
        let request = http::Request::get("/metrics").body(Vec::new())?;
        let text = self.client.request_text(request).await?;
        Ok(text
            .lines()
            .filter(|l| l.starts_with("apiserver_request_total{"))
            .filter(|l| {
                ["\"POST\"", "\"PUT\"", "\"PATCH\"", "\"DELETE\""]
                    .iter()
                    .any(|v| l.contains(&format!("verb={v}")))
            })
            .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
            .sum::<f64>() as u64)
    }

    /// The working set of the leading controller and of the build service
    /// pods (summed), from the kubelets' resource metrics.
    async fn memory(&self) -> anyhow::Result<Vec<(String, u64)>> {
        let leases: Api<Lease> = Api::namespaced(self.client.clone(), &self.system);
        let leader = leases
            .get_opt("shoal-controller")
            .await?
            .and_then(|l| l.spec?.holder_identity)
            .unwrap_or_default();
        let pods: Api<Pod> = Api::namespaced(self.client.clone(), &self.system);
        let nodes: std::collections::BTreeSet<String> = pods
            .list(&ListParams::default())
            .await?
            .items
            .iter()
            .filter_map(|p| p.spec.as_ref()?.node_name.clone())
            .collect();
        let (mut controller, mut builder) = (0u64, 0u64);
        for node in nodes {
            let request = http::Request::get(format!("/api/v1/nodes/{node}/proxy/metrics/resource")).body(Vec::new())?;
            let text = self.client.request_text(request).await?;
            for line in text
                .lines()
                .filter(|l| l.starts_with("container_memory_working_set_bytes{"))
            {
                let in_system = line.contains(&format!("namespace=\"{}\"", self.system));
                let value = line
                    .split_whitespace()
                    .nth(1)
                    .and_then(|v| v.parse::<f64>().ok())
                    .unwrap_or(0.0) as u64;
                if in_system && line.contains("container=\"controller\"") && line.contains(&format!("pod=\"{leader}\""))
                {
                    controller += value;
                } else if in_system && line.contains("container=\"builder\"") {
                    builder += value;
                }
            }
        }
        Ok(vec![
            ("controller (leader)".to_string(), controller),
            ("build service".to_string(), builder),
        ])
    }

    async fn node_restart(&self, seconds: u64) -> anyhow::Result<()> {
        let name = format!("restart-{}", self.run);
        self.functions()
            .create(&PostParams::default(), &function(&self.namespace, &name, &self.run)?)
            .await?;
        let services: Api<Service> = Api::namespaced(self.client.clone(), &self.namespace);
        let host = format!("{name}.{}.svc.cluster.local", self.namespace);
        let deadline = Instant::now() + Duration::from_secs(120);
        let address = loop {
            anyhow::ensure!(Instant::now() < deadline, "{name} did not answer within 120 s");
            let ip = services.get_opt(&name).await?.and_then(|s| s.spec?.cluster_ip);
            if let Some(ip) = ip {
                let address = format!("{ip}:80");
                if get_status(&address, &host, Duration::from_secs(1)).await == Some(200) {
                    break address;
                }
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        let pods: Api<Pod> = Api::namespaced(self.client.clone(), &self.system);
        let node_pods = ListParams::default().labels("app.kubernetes.io/component=node");
        let started = Instant::now();
        let mut deleted_at = None;
        let mut calls = Vec::new();
        let mut tick = tokio::time::interval(Duration::from_millis(100));
        while started.elapsed() < Duration::from_secs(seconds) {
            tick.tick().await;
            if deleted_at.is_none() && started.elapsed() >= Duration::from_secs(5) {
                let names: Vec<String> = pods
                    .list(&node_pods)
                    .await?
                    .items
                    .iter()
                    .map(ResourceExt::name_any)
                    .collect();
                for pod in &names {
                    pods.delete(pod, &DeleteParams::default()).await?;
                }
                println!(
                    "deleted {} node pods at {:.1} s",
                    names.len(),
                    started.elapsed().as_secs_f64()
                );
                deleted_at = Some(started.elapsed());
            }
            let at = started.elapsed();
            // A caller with a 1 s timeout: a call that fails counts once.
            let ok = get_status(&address, &host, Duration::from_secs(1)).await == Some(200);
            calls.push((at, ok));
        }
        let failed = calls.iter().filter(|(_, ok)| !ok).count();
        let mut longest = Duration::ZERO;
        let mut gap_start = None;
        for (at, ok) in &calls {
            match (ok, gap_start) {
                (false, None) => gap_start = Some(*at),
                (true, Some(start)) => {
                    longest = longest.max(*at - start);
                    gap_start = None;
                }
                _ => {}
            }
        }
        if let (Some(start), Some((end, _))) = (gap_start, calls.last()) {
            longest = longest.max(*end - start);
        }
        println!("\n| every node pod deleted at once, 10 calls/s for {seconds} s | |");
        println!("|---|---|");
        println!("| calls | {} |", calls.len());
        println!("| failed | {failed} |");
        println!("| longest gap without a 200 | {:.1} s |", longest.as_secs_f64());
        println!();
        self.clean_up().await
    }
}
