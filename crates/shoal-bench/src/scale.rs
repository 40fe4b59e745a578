//! The control plane at scale: N Functions applied at once, driven to
//! Running by the real reconciler against the recording API of the test
//! harness (`tests/harness/fake_kube.rs`).
//!
//! The loop plays the parts the cluster plays: the controller runtime
//! (every Function reconciled once applied, again after each change to it
//! and after each build answer, 16 at once as `RECONCILE_CONCURRENCY`), the
//! build service ([`crate::sim_builder`]: the real protocol over loopback,
//! each build answered after the wall time a real one takes), and two node
//! servers that load each built Function and publish their status shards,
//! which the controller's index maps back to the Functions whose line
//! changed. Every API call the controller makes is recorded by the fake, so
//! the figures are counts of real requests, not estimates; the time is the
//! reconciler's own work, the in-memory API's and the builds' wall time.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt;
use futures::channel::mpsc::UnboundedReceiver;
use k8s_openapi::api::core::v1::{ConfigMap, Pod};
use kube::runtime::reflector::ObjectRef;
use kube::runtime::reflector::{self, store::Writer};
use kube::runtime::watcher;
use serde_json::{Value, json};
use shoal_api::cluster;
use shoal_api::{Function, condition};
use shoal_builder::{BuildClient, BuildLimits};
use shoal_controller::reconcile::{BuildServiceConfig, Builders, NodePodChanges, RECONCILE_CONCURRENCY};
use shoal_controller::{Context, ControllerConfig, NodeView};
use shoal_tests::fake_kube::{Call, FakeKube, object_path};
use shoal_tests::fake_watches::FakeWatches;

use crate::sim_builder::{BUILD_COST, SimBuilder};

const NAMESPACES: usize = 10;
const SYSTEM: &str = "shoal-system";

type Id = (String, String);

/// What one run measured.
pub struct ScaleResult {
    pub functions: usize,
    pub converge: Duration,
    pub converge_writes: usize,
    pub converge_event_writes: usize,
    pub converge_reads: usize,
    pub reconciles: usize,
    pub rest_calls: usize,
    pub restart_writes: usize,
    pub restart_reads: usize,
    pub restart_reconciles: usize,
    pub largest_object: (usize, String),
    pub rss_mib: f64,
    /// Calls to converge by method and resource.
    pub breakdown: BTreeMap<(String, String), usize>,
}

struct Sim {
    fake: Arc<FakeKube>,
    ctx: Arc<Context>,
    builder: SimBuilder,
    /// Functions whose build the build service answered.
    answers: UnboundedReceiver<ObjectRef<Function>>,
    /// Builds the controller had sent before this run.
    builds_before: u64,
    /// The controller's watches of what it made, caught up before each
    /// round of passes.
    watches: FakeWatches,
    pods: Writer<Pod>,
    pod_changes: NodePodChanges,
    /// What each node pod serves, as it publishes it.
    served: BTreeMap<String, BTreeMap<Id, String>>,
    reconciles: usize,
}

fn function_path(id: &Id) -> String {
    object_path("serverless.kyma-project.io/v1alpha2", "Function", Some(&id.0), &id.1)
}

impl Sim {
    async fn new() -> anyhow::Result<Self> {
        let fake = FakeKube::new();
        let (pod_store, pods) = reflector::store::<Pod>();
        let (children, watches) = FakeWatches::new(&fake);
        let registry = "registry.shoal-system.svc:5000/functions";
        let builder = SimBuilder::start(registry).await?;
        let service = BuildServiceConfig {
            client: BuildClient::new(builder.key.clone()),
            builder_labels: BTreeMap::new(),
            port: builder.address.port(),
            max_limits: BuildLimits {
                memory_bytes: u64::MAX,
                deadline_secs: u64::MAX,
            },
        };
        let (builder_pods, mut builder_writer) = reflector::store::<Pod>();
        builder_writer.apply_watcher_event(&watcher::Event::Apply(serde_json::from_value(json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "builder-a", "namespace": SYSTEM},
            "spec": {"containers": [{"name": "builder"}]},
            "status": {"podIP": builder.address.ip().to_string(), "conditions": [{"type": "Ready", "status": "True"}]}
        }))?));
        let (answered, answers) = futures::channel::mpsc::unbounded();
        let builders = Arc::new(Builders::new(service.clone(), builder_pods, answered));
        let ctx = Context::new(
            fake.client(),
            ControllerConfig {
                namespace: SYSTEM.into(),
                registry: registry.into(),
                build_service: Some(service),
                ..ControllerConfig::default()
            },
            NodeView::new(pod_store),
            children,
        )
        .with_builders(builders);
        Ok(Self {
            fake,
            ctx: Arc::new(ctx),
            builder,
            answers,
            builds_before: shoal_controller::metrics::BUILDS_STARTED.get(),
            watches,
            pods,
            pod_changes: NodePodChanges::default(),
            served: BTreeMap::new(),
            reconciles: 0,
        })
    }

    /// The Functions whose build was answered since the last call, waiting
    /// for the first when `wait` and a build is still out.
    async fn answered(&mut self, wait: bool) -> BTreeSet<Id> {
        let mut ids = BTreeSet::new();
        let sent = shoal_controller::metrics::BUILDS_STARTED
            .get()
            .saturating_sub(self.builds_before);
        let out = sent > self.builder.answered() as u64;
        if wait && out {
            // A build answered after its cost, with room for a busy machine.
            let first = tokio::time::timeout(BUILD_COST * 20, self.answers.next()).await;
            if let Ok(Some(function)) = first {
                ids.insert((function.namespace.unwrap_or_default(), function.name));
            }
        }
        while let Ok(function) = self.answers.try_recv() {
            ids.insert((function.namespace.unwrap_or_default(), function.name));
        }
        ids
    }

    /// A node pod, ready or not; true when that changes endpoints.
    fn node_pod(&mut self, name: &str, ip: &str, ready: bool) -> bool {
        let pod: Pod = serde_json::from_value(json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": SYSTEM, "uid": format!("uid-{name}"),
                         "labels": {"app.kubernetes.io/name": "shoal", "app.kubernetes.io/component": "node"}},
            "spec": {"containers": [{"name": "node"}], "nodeName": "worker-1"},
            "status": {"podIP": ip, "conditions": [{"type": "Ready", "status": if ready { "True" } else { "False" }}]}
        }))
        .expect("pod");
        let event = watcher::Event::Apply(pod);
        self.pods.apply_watcher_event(&event);
        self.pod_changes.apply(&event)
    }

    fn remove_node_pod(&mut self, name: &str) -> BTreeSet<Id> {
        let pod: Pod = serde_json::from_value(json!({
            "apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": SYSTEM}
        }))
        .expect("pod");
        let event = watcher::Event::Delete(pod);
        self.pods.apply_watcher_event(&event);
        self.pod_changes.apply(&event);
        self.served.remove(name);
        // Its status ConfigMaps go with it (owned by the pod).
        let mut changed = BTreeSet::new();
        for shard in 0..cluster::NODE_STATUS_SHARDS {
            let cm: ConfigMap = serde_json::from_value(json!({
                "apiVersion": "v1", "kind": "ConfigMap",
                "metadata": {"name": cluster::node_status_name(name, shard), "namespace": SYSTEM}
            }))
            .expect("config map");
            changed.extend(ids(self.ctx.nodes.statuses.apply(&watcher::Event::Delete(cm))));
        }
        changed
    }

    /// A node publishing the shards that hold `touched` (all when None);
    /// the Functions whose status line changed, as the controller's index
    /// reports them.
    fn publish(&mut self, pod: &str, touched: Option<&BTreeSet<Id>>) -> BTreeSet<Id> {
        let served = self.served.entry(pod.to_string()).or_default().clone();
        let shards: BTreeSet<usize> = match touched {
            None => (0..cluster::NODE_STATUS_SHARDS).collect(),
            Some(ids) => ids.iter().map(|(ns, n)| cluster::status_shard(ns, n)).collect(),
        };
        let mut changed = BTreeSet::new();
        for shard in shards {
            let set = served
                .iter()
                .filter(|((ns, n), _)| cluster::status_shard(ns, n) == shard)
                .map(|((ns, n), digest)| cluster::ServedFunction {
                    namespace: ns.clone(),
                    name: n.clone(),
                    digest: digest.clone(),
                })
                .collect();
            let cm = json!({
                "apiVersion": "v1", "kind": "ConfigMap",
                "metadata": {"name": cluster::node_status_name(pod, shard), "namespace": SYSTEM,
                             "labels": {"shoal.dev/role": "node-status", "shoal.dev/node-pod": pod}},
                "data": {"functions": cluster::render_served(&set), "errors": "", "pod": pod, "shard": shard.to_string()}
            });
            self.fake.put(cm.clone());
            let cm: ConfigMap = serde_json::from_value(cm).expect("config map");
            changed.extend(ids(self.ctx.nodes.statuses.apply(&watcher::Event::Apply(cm))));
        }
        changed
    }

    /// Reconciles `queue` (16 at once); returns the Functions the
    /// controller runtime would reconcile again because their object changed
    /// (a finalizer or status write is a watch event too).
    async fn reconcile(&mut self, queue: BTreeSet<Id>) -> BTreeSet<Id> {
        self.reconciles += queue.len();
        self.watches.sync();
        let fake = self.fake.clone();
        let ctx = self.ctx.clone();
        futures::stream::iter(queue)
            .map(|id| {
                let (fake, ctx) = (fake.clone(), ctx.clone());
                async move {
                    let function: Function = fake.get_as(&function_path(&id))?;
                    let before = function.metadata.resource_version.clone();
                    if let Err(e) = shoal_controller::reconcile(Arc::new(function), ctx).await {
                        eprintln!("reconcile {}/{}: {e}", id.0, id.1);
                    }
                    let after: Function = fake.get_as(&function_path(&id))?;
                    (after.metadata.resource_version != before).then_some(id)
                }
            })
            .buffer_unordered(usize::from(RECONCILE_CONCURRENCY))
            .filter_map(|changed| async move { changed })
            .collect()
            .await
    }

    /// The node pods load every built Function (their NodeSync) and
    /// publish the shards that changed. Returns the Functions to reconcile.
    fn nodes_load(&mut self, pods: &[&str], candidates: &BTreeSet<Id>) -> BTreeSet<Id> {
        let mut loaded = BTreeSet::new();
        for id in candidates {
            let Some(function) = self.fake.get_as::<Function>(&function_path(id)) else {
                continue;
            };
            let Some(artifact) = function.status.and_then(|s| s.artifact) else {
                continue;
            };
            let digest = cluster::artifact_digest(&artifact).unwrap_or_default().to_string();
            for pod in pods {
                let served = self.served.entry(pod.to_string()).or_default();
                if served.get(id) != Some(&digest) {
                    served.insert(id.clone(), digest.clone());
                    loaded.insert(id.clone());
                }
            }
        }
        let mut changed = BTreeSet::new();
        if !loaded.is_empty() {
            for pod in pods {
                changed.extend(self.publish(pod, Some(&loaded)));
            }
        }
        changed
    }

    fn all(&self) -> BTreeSet<Id> {
        (0..NAMESPACES)
            .flat_map(|ns| {
                self.fake.list(&format!(
                    "/apis/serverless.kyma-project.io/v1alpha2/namespaces/ns-{ns}/functions"
                ))
            })
            .map(|f| {
                (
                    f["metadata"]["namespace"].as_str().unwrap_or_default().to_string(),
                    f["metadata"]["name"].as_str().unwrap_or_default().to_string(),
                )
            })
            .collect()
    }

    fn running(&self) -> usize {
        self.all()
            .iter()
            .filter_map(|id| self.fake.get_as::<Function>(&function_path(id)))
            .filter(|f| {
                f.status.as_ref().is_some_and(|s| {
                    s.conditions
                        .iter()
                        .any(|c| c.type_ == condition::RUNNING && c.status == shoal_api::ConditionStatus::True)
                })
            })
            .count()
    }

    /// Drives everything queued (and what it triggers, builds answered
    /// included) until nothing moves.
    async fn settle(&mut self, mut queue: BTreeSet<Id>, pods: &[&str]) {
        loop {
            let reconciled = queue.clone();
            let mut next = self.reconcile(queue).await;
            next.extend(self.nodes_load(pods, &reconciled));
            let idle = next.is_empty();
            next.extend(self.answered(idle).await);
            if next.is_empty() {
                return;
            }
            queue = next;
        }
    }
}

fn ids(refs: Vec<kube::runtime::reflector::ObjectRef<Function>>) -> BTreeSet<Id> {
    refs.into_iter()
        .map(|r| (r.namespace.unwrap_or_default(), r.name))
        .collect()
}

fn split(calls: &[Call]) -> (usize, usize, usize) {
    let reads = calls.iter().filter(|c| c.method == http::Method::GET).count();
    let events = calls
        .iter()
        .filter(|c| c.method != http::Method::GET && c.path.contains("/events"))
        .count();
    (calls.len() - reads - events, events, reads)
}

fn breakdown(calls: &[Call]) -> BTreeMap<(String, String), usize> {
    let mut out = BTreeMap::new();
    for call in calls {
        let segments: Vec<&str> = call.path.trim_matches('/').split('/').collect();
        // The resource is the segment after the namespace, or after the
        // version for cluster-wide paths; a subresource is kept.
        let resource = match segments.iter().position(|s| *s == "namespaces") {
            Some(i) => segments[i + 2..]
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != 1)
                .map(|(_, s)| *s)
                .collect::<Vec<_>>()
                .join("/"),
            None => segments.last().copied().unwrap_or_default().to_string(),
        };
        *out.entry((call.method.to_string(), resource)).or_default() += 1;
    }
    out
}

fn rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|kb| kb.parse::<f64>().ok()))
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

/// One run with `functions` Functions.
pub async fn run_one(functions: usize) -> anyhow::Result<ScaleResult> {
    let mut sim = Sim::new().await?;
    sim.node_pod("node-a", "10.0.0.1", true);
    sim.node_pod("node-b", "10.0.0.2", true);
    sim.publish("node-a", None);
    sim.publish("node-b", None);
    for i in 0..functions {
        sim.fake.put(json!({
            "apiVersion": "serverless.kyma-project.io/v1alpha2", "kind": "Function",
            "metadata": {"name": format!("fn-{i}"), "namespace": format!("ns-{}", i % NAMESPACES)},
            "spec": {"runtime": "nodejs22", "source": {"inline": {
                "source": format!("module.exports = {{ main: () => 'function {i}' }};")}}}
        }));
    }

    // Applied at once, to Running.
    let calls = sim.fake.calls().len();
    let started = Instant::now();
    let all = sim.all();
    sim.settle(all.clone(), &["node-a", "node-b"]).await;
    let converge = started.elapsed();
    let running = sim.running();
    anyhow::ensure!(
        running == functions,
        "only {running} of {functions} Functions are Running"
    );
    let (converge_writes, converge_event_writes, converge_reads) = split(&sim.fake.calls()[calls..]);
    let breakdown = breakdown(&sim.fake.calls()[calls..]);
    let converge_reconciles = sim.reconciles;

    // At rest: the periodic pass over every Function.
    let calls = sim.fake.calls().len();
    sim.reconcile(all.clone()).await;
    let rest_calls = sim.fake.calls().len() - calls;

    // One node pod restarts: it goes unready and away, a new one (new name,
    // new address) comes up, loads everything and publishes.
    let calls = sim.fake.calls().len();
    sim.reconciles = 0;
    let mut queue = BTreeSet::new();
    if sim.node_pod("node-b", "10.0.0.2", false) {
        queue.extend(all.iter().cloned());
    }
    sim.settle(queue, &["node-a"]).await;
    let gone = sim.remove_node_pod("node-b");
    sim.settle(gone, &["node-a"]).await;
    let mut queue = BTreeSet::new();
    if sim.node_pod("node-c", "10.0.0.3", true) {
        queue.extend(all.iter().cloned());
    }
    sim.served.insert("node-c".into(), sim.served["node-a"].clone());
    queue.extend(sim.publish("node-c", None));
    sim.settle(queue, &["node-a", "node-c"]).await;
    let (restart_writes, restart_events, restart_reads) = split(&sim.fake.calls()[calls..]);
    let restart_reconciles = sim.reconciles;

    let largest_object = sim
        .fake
        .all()
        .iter()
        .map(|(_, o): &(String, Value)| {
            let size = serde_json::to_vec(o).map(|b| b.len()).unwrap_or(0);
            (size, o["kind"].as_str().unwrap_or_default().to_string())
        })
        .max()
        .unwrap_or_default();
    Ok(ScaleResult {
        functions,
        converge,
        converge_writes,
        converge_event_writes,
        converge_reads,
        reconciles: converge_reconciles,
        rest_calls,
        restart_writes: restart_writes + restart_events,
        restart_reads,
        restart_reconciles,
        largest_object,
        rss_mib: rss_mib(),
        breakdown,
    })
}

/// Runs the scale benchmark for each count and prints a table.
pub async fn run(counts: &[usize]) -> anyhow::Result<()> {
    println!(
        "| Functions | to Running | writes/Function (+ Events) | reads/Function | reconciles/Function | calls/Function/min at rest | node restart: writes/Function, reads | largest object | process RSS |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut last = None;
    for &n in counts {
        let r = run_one(n).await?;
        let per = |x: usize| x as f64 / r.functions as f64;
        println!(
            "| {} | {:.2} s | {:.1} (+ {:.1}) | {:.1} | {:.1} | {:.2} | {:.1}, {:.1} ({} reconciles) | {:.1} KiB ({}) | {:.0} MiB |",
            r.functions,
            r.converge.as_secs_f64(),
            per(r.converge_writes),
            per(r.converge_event_writes),
            per(r.converge_reads),
            per(r.reconciles),
            // The periodic pass runs every 300 s.
            per(r.rest_calls) / 5.0,
            per(r.restart_writes),
            per(r.restart_reads),
            r.restart_reconciles,
            r.largest_object.0 as f64 / 1024.0,
            r.largest_object.1,
            r.rss_mib,
        );
        last = Some(r);
    }
    if let Some(r) = last {
        println!(
            "\nCalls to converge per Function ({} Functions), by call:\n",
            r.functions
        );
        println!("| call | per Function |");
        println!("|---|---|");
        for ((method, resource), count) in &r.breakdown {
            println!("| {method} {resource} | {:.2} |", *count as f64 / r.functions as f64);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    /// The benchmark's claims at a size a test can afford: everything
    /// reaches Running, a settled Function costs nothing, a node restart
    /// costs each Function its two EndpointSlice updates, and no object
    /// comes near 1 MiB.
    #[tokio::test]
    async fn a_few_hundred_functions_converge_cheaply_and_cost_nothing_at_rest() {
        let r = super::run_one(300).await.expect("converges");
        assert_eq!(r.rest_calls, 0, "calls at rest");
        assert!(r.converge_writes <= 9 * r.functions, "{} writes", r.converge_writes);
        assert_eq!(r.converge_event_writes, 3 * r.functions);
        assert_eq!(r.restart_reads, 0);
        assert_eq!(r.restart_writes, 2 * r.functions, "a node restart");
        assert!(r.largest_object.0 < 64 << 10, "{:?}", r.largest_object);
    }
}
