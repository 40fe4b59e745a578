//! The reconciler against kube's tower-test mock service, backed by an
//! in-memory API (tests/harness/fake_kube.rs). Each test plays the parts
//! the cluster would (the Job controller finishing a Job, the kubelet
//! writing a termination message, node pods becoming ready) and asserts what
//! a user sees: conditions, status, the objects made, and the API calls
//! that were *not* made (no duplicate builds).

use std::sync::Arc;

use http::Method;
use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::api::core::v1::{ConfigMap, Pod, Service};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use kube::runtime::reflector::{self, store::Writer};
use kube::runtime::watcher;
use serde_json::{Value, json};
use shoal_api::cluster;
use shoal_api::{Function, condition};
use shoal_controller::{Context, ControllerConfig, NodeView, reconcile};
use shoal_tests::fake_kube::{FakeKube, object_path};
use shoal_tests::fake_watches::FakeWatches;

const NS: &str = "orders";
const HANDLER: &str = "module.exports = { main: () => 'hi' }";
const JOBS: &str = "/apis/batch/v1/namespaces/orders/jobs";

struct Cluster {
    fake: Arc<FakeKube>,
    ctx: Arc<Context>,
    pods: Writer<Pod>,
    watches: std::sync::Mutex<FakeWatches>,
}

impl Cluster {
    fn new(config: ControllerConfig) -> Self {
        let fake = FakeKube::new();
        let (pod_store, pods) = reflector::store();
        let (children, watches) = FakeWatches::new(&fake);
        let ctx = Arc::new(Context::new(fake.client(), config, NodeView::new(pod_store), children));
        Self {
            fake,
            ctx,
            pods,
            watches: std::sync::Mutex::new(watches),
        }
    }

    /// The controller's watches catching up with the API.
    fn sync(&self) {
        self.watches.lock().unwrap().sync();
    }

    fn default() -> Self {
        Self::new(ControllerConfig {
            namespace: "shoal-system".into(),
            builder_image: "registry.example/shoal-builder:1".into(),
            registry: "registry.shoal-system.svc:5000/functions".into(),
            ..ControllerConfig::default()
        })
    }

    /// A restarted controller: same API, fresh memory.
    fn restarted(&self) -> Self {
        let (pod_store, pods) = reflector::store();
        let (children, watches) = FakeWatches::new(&self.fake);
        Self {
            fake: self.fake.clone(),
            ctx: Arc::new(Context::new(
                self.fake.client(),
                self.ctx.config.clone(),
                NodeView::new(pod_store),
                children,
            )),
            pods,
            watches: std::sync::Mutex::new(watches),
        }
    }

    fn apply_function(&self, name: &str, spec: Value) {
        self.fake.put(json!({
            "apiVersion": "serverless.kyma-project.io/v1alpha2",
            "kind": "Function",
            "metadata": {"name": name, "namespace": NS},
            "spec": spec
        }));
    }

    fn function(&self, name: &str) -> Option<Function> {
        self.fake.get_as(&function_path(name))
    }

    /// Runs a reconcile the way the controller would after each change (the
    /// first pass of a new Function adds the finalizer and goes on).
    async fn reconcile(&self, name: &str) {
        let Some(function) = self.function(name) else { return };
        self.sync();
        reconcile(Arc::new(function), self.ctx.clone())
            .await
            .expect("reconcile");
    }

    /// One reconcile pass that may fail (an API error is retried by the
    /// controller with backoff).
    async fn try_reconcile(&self, name: &str) -> Result<(), shoal_controller::reconcile::Error> {
        let function = self.function(name).expect("function");
        self.sync();
        reconcile(Arc::new(function), self.ctx.clone()).await.map(|_| ())
    }

    fn condition(&self, name: &str, type_: &str) -> (String, String, String) {
        let function = self.function(name).expect("function");
        let c = function
            .status
            .unwrap_or_default()
            .conditions
            .into_iter()
            .find(|c| c.type_ == type_)
            .unwrap_or_else(|| panic!("no {type_} condition"));
        (
            c.status.to_string(),
            c.reason.unwrap_or_default(),
            c.message.unwrap_or_default(),
        )
    }

    fn jobs(&self) -> Vec<Job> {
        self.fake
            .list(JOBS)
            .into_iter()
            .map(|v| serde_json::from_value(v).expect("job"))
            .collect()
    }

    /// The Job controller and kubelet finishing a build: a pod with the
    /// termination message, and the Job's condition.
    fn finish_job(&self, job: &Job, succeeded: bool, message: &str) {
        let name = job.metadata.name.clone().expect("job name");
        let uid = job.metadata.uid.clone().expect("job uid");
        self.fake.put(json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": format!("{name}-x1"), "namespace": NS,
                         "labels": {"job-name": name},
                         "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": name, "uid": uid}]},
            "status": {"phase": if succeeded { "Succeeded" } else { "Failed" },
                "containerStatuses": [{"name": "build", "image": "b", "imageID": "", "ready": false,
                    "restartCount": 0, "state": {"terminated": {"exitCode": if succeeded { 0 } else { 1 },
                    "message": message, "finishedAt": "2026-11-21T10:01:00Z"}}}]}
        }));
        let type_ = if succeeded { "Complete" } else { "Failed" };
        self.fake
            .update(&object_path("batch/v1", "Job", Some(NS), &name), |job| {
                job["status"] = json!({"conditions": [{"type": type_, "status": "True",
                "message": if succeeded { "" } else { "Job has reached the specified backoff limit" }}]});
            });
    }

    fn node_pod(&mut self, name: &str, ip: &str, ready: bool) {
        let pod: Pod = serde_json::from_value(json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": "shoal-system", "uid": format!("uid-{name}"),
                         "labels": {"app.kubernetes.io/name": "shoal", "app.kubernetes.io/component": "node"}},
            "spec": {"containers": [{"name": "node"}], "nodeName": "worker-1"},
            "status": {"podIP": ip, "conditions": [{"type": "Ready", "status": if ready { "True" } else { "False" }}]}
        }))
        .expect("pod");
        self.pods.apply_watcher_event(&watcher::Event::Apply(pod));
    }

    fn remove_node_pod(&mut self, name: &str) {
        let pod: Pod = serde_json::from_value(json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": "shoal-system"}
        }))
        .expect("pod");
        self.pods.apply_watcher_event(&watcher::Event::Delete(pod));
    }

    /// A node publishing that it cannot load a Function (in the Function's
    /// status shard, as nodes do).
    fn node_fails(&mut self, pod: &str, name: &str, message: &str) {
        let errors = std::collections::BTreeMap::from([((NS.to_string(), name.to_string()), message.to_string())]);
        self.publish_shard(
            pod,
            cluster::status_shard(NS, name),
            "",
            &cluster::render_errors(&errors),
        );
    }

    /// A node publishing what it serves: every shard, as a node does.
    fn node_serves(&mut self, pod: &str, served: &[(&str, &str, &str)]) {
        for shard in 0..cluster::NODE_STATUS_SHARDS {
            let set = served
                .iter()
                .filter(|(ns, name, _)| cluster::status_shard(ns, name) == shard)
                .map(|(ns, name, digest)| cluster::ServedFunction {
                    namespace: ns.to_string(),
                    name: name.to_string(),
                    digest: digest.to_string(),
                })
                .collect();
            self.publish_shard(pod, shard, &cluster::render_served(&set), "");
        }
    }

    fn publish_shard(&mut self, pod: &str, shard: usize, served: &str, errors: &str) {
        let status: ConfigMap = serde_json::from_value(json!({
            "apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": cluster::node_status_name(pod, shard), "namespace": "shoal-system",
                         "labels": {"shoal.dev/role": "node-status"}},
            "data": {"functions": served, "errors": errors, "pod": pod, "shard": shard.to_string()}
        }))
        .expect("config map");
        self.ctx.nodes.statuses.apply(&watcher::Event::Apply(status));
    }

    /// The addresses the Function's EndpointSlice lists (none until the
    /// first node serves it, when the slice is first written).
    fn slice_addresses(&self, name: &str) -> Vec<String> {
        let slice: Option<EndpointSlice> = self.fake.get_as(&object_path(
            "discovery.k8s.io/v1",
            "EndpointSlice",
            Some(NS),
            &cluster::endpoint_slice_name(name),
        ));
        slice
            .map(|s| s.endpoints.iter().flat_map(|e| e.addresses.clone()).collect())
            .unwrap_or_default()
    }
}

fn function_path(name: &str) -> String {
    object_path("serverless.kyma-project.io/v1alpha2", "Function", Some(NS), name)
}

/// The digest of [`ARTIFACT`], and of a later build.
const DIGEST: &str = "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const NEW_DIGEST: &str = "sha256:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
const ARTIFACT: &str = "registry.shoal-system.svc:5000/functions/orders/hello@sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";

/// Drives a Function to a finished build.
async fn built(cluster: &Cluster, name: &str) {
    cluster.apply_function(name, json!({"source": {"inline": {"source": HANDLER}}}));
    cluster.reconcile(name).await;
    let job = cluster.jobs().into_iter().next().expect("a build Job");
    let artifact = ARTIFACT.replace("/hello@", &format!("/{name}@"));
    cluster.finish_job(&job, true, &json!({"artifact": artifact, "digest": DIGEST}).to_string());
    cluster.reconcile(name).await;
    // The status write brings the next pass, which removes the Job.
    cluster.reconcile(name).await;
}

#[tokio::test]
async fn a_new_function_gets_a_finalizer_a_source_config_map_and_one_build_job() {
    let cluster = Cluster::default();
    cluster.apply_function(
        "hello",
        json!({"source": {"inline": {"source": HANDLER, "dependencies": "{\"dependencies\":{\"lodash\":\"4.17.21\"}}"}}}),
    );
    cluster.reconcile("hello").await;

    let function = cluster.function("hello").expect("function");
    assert_eq!(function.metadata.finalizers, Some(vec![cluster::FINALIZER.to_string()]));

    let map: ConfigMap = cluster
        .fake
        .get_as(&object_path("v1", "ConfigMap", Some(NS), "hello-shoal-source"))
        .expect("source ConfigMap");
    let data = map.data.expect("data");
    assert_eq!(data["source"], HANDLER);
    assert!(data["dependencies"].contains("lodash"));
    assert_eq!(data["runtime"], "nodejs24", "the runtime is defaulted");

    let jobs = cluster.jobs();
    assert_eq!(jobs.len(), 1, "exactly one build Job");
    let job = &jobs[0];
    let owner = &job.metadata.owner_references.as_ref().expect("owner")[0];
    assert_eq!((owner.kind.as_str(), owner.name.as_str()), ("Function", "hello"));
    let job_spec = job.spec.as_ref().unwrap();
    assert_eq!(job_spec.backoff_limit, Some(2));
    // An evicted build pod is retried without spending the backoff budget.
    let rule = &job_spec.pod_failure_policy.as_ref().expect("pod failure policy").rules[0];
    assert_eq!(rule.action, "Ignore");
    assert_eq!(rule.on_pod_conditions.as_ref().unwrap()[0].type_, "DisruptionTarget");
    let pod = job_spec.template.spec.as_ref().unwrap();
    assert_eq!(pod.restart_policy.as_deref(), Some("Never"));
    assert_eq!(
        pod.automount_service_account_token,
        Some(false),
        "builds need no API access"
    );
    let container = &pod.containers[0];
    assert_eq!(container.image.as_deref(), Some("registry.example/shoal-builder:1"));
    let args = container.args.clone().unwrap_or_default().join(" ");
    assert!(
        args.starts_with("build /function --name orders/hello --runtime nodejs24 --push "),
        "{args}"
    );
    assert!(
        args.contains("registry.shoal-system.svc:5000/functions/orders/hello:"),
        "{args}"
    );
    assert!(args.ends_with("--result-file /dev/termination-log"), "{args}");
    // The default build preset "normal": 500m/700Mi → 1100m/1100Mi.
    let resources = container.resources.clone().unwrap();
    assert_eq!(resources.requests.unwrap()["memory"].0, "700Mi");
    assert_eq!(resources.limits.unwrap()["cpu"].0, "1100m");
    let volume = pod
        .volumes
        .as_ref()
        .unwrap()
        .iter()
        .find(|v| v.name == "source")
        .unwrap();
    let items = volume.config_map.as_ref().unwrap().items.clone().unwrap();
    assert_eq!(
        items.iter().map(|i| i.path.as_str()).collect::<Vec<_>>(),
        ["handler.js", "package.json"]
    );

    assert_eq!(cluster.condition("hello", condition::CONFIGURATION_READY).0, "True");
    let (status, reason, _) = cluster.condition("hello", condition::BUILD_READY);
    assert_eq!((status.as_str(), reason.as_str()), ("Unknown", "JobCreated"));
    assert_eq!(cluster.condition("hello", condition::RUNNING).1, "DeploymentWaiting");
    let function = cluster.function("hello").unwrap();
    assert_eq!(function.status.unwrap().observed_generation, Some(1));
}

#[tokio::test]
async fn a_running_build_is_reported_and_never_started_twice() {
    let cluster = Cluster::default();
    cluster.apply_function("hello", json!({"source": {"inline": {"source": HANDLER}}}));
    cluster.reconcile("hello").await;
    let job = cluster.jobs().remove(0);
    cluster.fake.update(
        &object_path("batch/v1", "Job", Some(NS), job.metadata.name.as_deref().unwrap()),
        |j| j["status"] = json!({"active": 1}),
    );
    for _ in 0..3 {
        cluster.reconcile("hello").await;
    }
    let (status, reason, message) = cluster.condition("hello", condition::BUILD_READY);
    assert_eq!((status.as_str(), reason.as_str()), ("Unknown", "JobRunning"));
    assert!(message.contains(job.metadata.name.as_deref().unwrap()));

    // A controller restarted mid-build finds the same Job.
    let restarted = cluster.restarted();
    restarted.reconcile("hello").await;
    assert_eq!(cluster.fake.count(Method::POST, JOBS), 1, "one Job created in all");
    assert_eq!(cluster.jobs().len(), 1);
}

#[tokio::test]
async fn a_failed_build_surfaces_the_compiler_message_and_is_not_retried_in_a_loop() {
    let cluster = Cluster::default();
    cluster.apply_function(
        "broken",
        json!({"source": {"inline": {"source": "module.exports = { main( }"}}}),
    );
    cluster.reconcile("broken").await;
    let job = cluster.jobs().remove(0);
    cluster.finish_job(&job, false, "handler.js:1:27: ERROR: Unexpected \"}\"");
    for _ in 0..3 {
        cluster.reconcile("broken").await;
    }
    let (status, reason, message) = cluster.condition("broken", condition::BUILD_READY);
    assert_eq!((status.as_str(), reason.as_str()), ("False", "JobFailed"));
    assert!(message.contains("handler.js:1:27: ERROR: Unexpected"), "{message}");
    assert_eq!(
        cluster.fake.count(Method::POST, JOBS),
        1,
        "the failed source is not rebuilt"
    );
    assert_eq!(cluster.jobs().len(), 1, "the failed Job is kept for its logs");
    assert!(cluster.function("broken").unwrap().status.unwrap().artifact.is_none());

    // Deleting the failed Job asks for a retry: exactly one new Job.
    let name = job.metadata.name.clone().unwrap();
    let jobs_before = cluster.fake.count(Method::POST, JOBS);
    // Remove it the way `kubectl delete job` would.
    let client = cluster.fake.client();
    let api: kube::Api<Job> = kube::Api::namespaced(client, NS);
    api.delete(&name, &Default::default()).await.expect("delete job");
    cluster.reconcile("broken").await;
    assert_eq!(cluster.fake.count(Method::POST, JOBS), jobs_before + 1);
}

/// Forged build results (the isolation issue): a Job this Function does
/// not own, a pod that only copies the Job's label, and an artifact outside
/// the Function's own repository are never recorded.
#[tokio::test]
async fn only_the_functions_own_job_and_its_own_artifact_are_trusted() {
    let cluster = Cluster::default();
    cluster.apply_function("hello", json!({"source": {"inline": {"source": HANDLER}}}));
    cluster.reconcile("hello").await;
    let job = cluster.jobs().into_iter().next().expect("a build Job");
    let job_name = job.metadata.name.clone().unwrap();
    let forged = json!({"artifact": ARTIFACT.replace("/hello@", "/billing@")}).to_string();

    // A pod carrying the Job's label, not owned by it, reports first.
    cluster.fake.put(json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "impostor", "namespace": NS, "labels": {"job-name": job_name}},
        "status": {"containerStatuses": [{"name": "build", "image": "b", "imageID": "", "ready": false,
            "restartCount": 0, "state": {"terminated": {"exitCode": 0, "finishedAt": "2026-11-21T11:00:00Z",
            "message": json!({"artifact": ARTIFACT}).to_string()}}}]}
    }));
    // The Job's own pod reports another Function's artifact.
    cluster.finish_job(&job, true, &forged);
    cluster.reconcile("hello").await;
    let (s, reason, message) = cluster.condition("hello", condition::BUILD_READY);
    assert_eq!((s.as_str(), reason.as_str()), ("False", "JobFailed"), "{message}");
    assert!(message.contains("not this Function's artifact"), "{message}");
    assert!(cluster.function("hello").unwrap().status.unwrap().artifact.is_none());

    // Registries, digests: only `<registry>/<ns>/<name>@sha256:<64 hex>`.
    for artifact in [
        ARTIFACT.replace("registry.shoal-system.svc:5000", "evil.example"),
        ARTIFACT.replace(&"a".repeat(64), "../../evil"),
        ARTIFACT.replace(&format!("@sha256:{}", "a".repeat(64)), ":latest"),
    ] {
        let other = Cluster::default();
        other.apply_function("hello", json!({"source": {"inline": {"source": HANDLER}}}));
        other.reconcile("hello").await;
        let job = other.jobs().into_iter().next().expect("a build Job");
        other.finish_job(&job, true, &json!({"artifact": artifact}).to_string());
        other.reconcile("hello").await;
        let (_, reason, _) = other.condition("hello", condition::BUILD_READY);
        assert_eq!(reason, "JobFailed", "{artifact}");
        assert!(
            other.function("hello").unwrap().status.unwrap().artifact.is_none(),
            "{artifact}"
        );
    }

    // A Job with the build's name that the Function does not own (made
    // by someone else first) is not trusted at all.
    let squatted = Cluster::default();
    squatted.apply_function("hello", json!({"source": {"inline": {"source": HANDLER}}}));
    squatted.reconcile("hello").await;
    let job = squatted.jobs().into_iter().next().expect("a build Job");
    let path = object_path("batch/v1", "Job", Some(NS), job.metadata.name.as_deref().unwrap());
    squatted.fake.update(&path, |j| {
        j["metadata"]["ownerReferences"] = json!([]);
    });
    let job = squatted.jobs().into_iter().next().unwrap();
    squatted.finish_job(&job, true, &json!({"artifact": ARTIFACT}).to_string());
    squatted.reconcile("hello").await;
    let (s, reason, message) = squatted.condition("hello", condition::BUILD_READY);
    assert_eq!((s.as_str(), reason.as_str()), ("False", "JobNotOwned"), "{message}");
    assert!(squatted.function("hello").unwrap().status.unwrap().artifact.is_none());
}

#[tokio::test]
async fn a_finished_build_records_the_artifact_cleans_up_and_creates_the_service() {
    let mut cluster = Cluster::default();
    cluster.node_pod("node-a", "10.0.0.11", true);
    built(&cluster, "hello").await;

    let function = cluster.function("hello").unwrap();
    let status = function.status.clone().unwrap();
    assert_eq!(status.artifact.as_deref(), Some(ARTIFACT));
    assert!(status.build_hash.is_some());
    let (s, reason, message) = cluster.condition("hello", condition::BUILD_READY);
    assert_eq!((s.as_str(), reason.as_str()), ("True", "JobFinished"));
    assert!(message.contains(ARTIFACT));
    assert!(cluster.jobs().is_empty(), "the finished Job is deleted");
    assert!(
        cluster.fake.list("/api/v1/namespaces/orders/pods").is_empty(),
        "and its pod with it"
    );

    let service: Service = cluster
        .fake
        .get_as(&object_path("v1", "Service", Some(NS), "hello"))
        .expect("a Service named after the Function");
    let spec = service.spec.unwrap();
    assert!(
        spec.selector.is_none(),
        "no selector: the controller owns the endpoints"
    );
    let port = &spec.ports.unwrap()[0];
    assert_eq!((port.name.as_deref(), port.port), (Some("http"), 80));
    // Port 80 leads to the Function's own serving port on the nodes.
    let serving_port = cluster
        .function("hello")
        .and_then(|f| f.status?.serving_port)
        .expect("a serving port in status");
    assert!(
        shoal_controller::reconcile::DEFAULT_SERVING_PORTS.contains(&u16::try_from(serving_port).unwrap()),
        "{serving_port}"
    );
    assert_eq!(
        port.target_port,
        Some(k8s_openapi::apimachinery::pkg::util::intstr::IntOrString::Int(
            serving_port
        ))
    );

    // Built but no node has loaded it yet.
    assert!(cluster.slice_addresses("hello").is_empty());
    let (s, reason, _) = cluster.condition("hello", condition::RUNNING);
    assert_eq!((s.as_str(), reason.as_str()), ("Unknown", "DeploymentWaiting"));
}

#[tokio::test]
async fn the_endpoint_slice_follows_node_pods_that_serve_the_function() {
    let mut cluster = Cluster::default();
    cluster.node_pod("node-a", "10.0.0.11", true);
    cluster.node_pod("node-b", "10.0.0.12", true);
    cluster.node_pod("node-c", "10.0.0.13", false);
    built(&cluster, "hello").await;

    cluster.node_serves("node-a", &[(NS, "hello", DIGEST)]);
    cluster.node_serves("node-b", &[(NS, "hello", "sha256:old")]);
    cluster.node_serves("node-c", &[(NS, "hello", DIGEST)]);
    cluster.reconcile("hello").await;
    assert_eq!(
        cluster.slice_addresses("hello"),
        ["10.0.0.11"],
        "only ready nodes serving the built digest"
    );
    let slice: EndpointSlice = cluster
        .fake
        .get_as(&object_path(
            "discovery.k8s.io/v1",
            "EndpointSlice",
            Some(NS),
            "hello-shoal",
        ))
        .unwrap();
    let labels = slice.metadata.labels.unwrap();
    assert_eq!(labels["kubernetes.io/service-name"], "hello");
    assert_eq!(slice.ports.unwrap()[0].name.as_deref(), Some("http"));
    let (s, reason, _) = cluster.condition("hello", condition::RUNNING);
    assert_eq!((s.as_str(), reason.as_str()), ("True", "DeploymentReady"));
    let status = cluster.function("hello").unwrap().status.unwrap();
    assert_eq!(status.replicas, Some(1));
    assert_eq!(
        status.pod_selector.as_deref(),
        Some("app.kubernetes.io/component=node,app.kubernetes.io/name=shoal")
    );

    // A new node loads it: it joins.
    cluster.node_serves("node-b", &[(NS, "hello", DIGEST)]);
    cluster.reconcile("hello").await;
    assert_eq!(cluster.slice_addresses("hello"), ["10.0.0.11", "10.0.0.12"]);
    // Its replicas are its own (spec.replicas, 1), not the node count: a
    // node joining or restarting does not rewrite every Function's status.
    assert_eq!(cluster.function("hello").unwrap().status.unwrap().replicas, Some(1));

    // Nodes go away: they leave, and with none left Running says why.
    cluster.remove_node_pod("node-a");
    cluster.reconcile("hello").await;
    assert_eq!(cluster.slice_addresses("hello"), ["10.0.0.12"]);
    cluster.remove_node_pod("node-b");
    cluster.remove_node_pod("node-c");
    cluster.reconcile("hello").await;
    assert!(cluster.slice_addresses("hello").is_empty());
    let (s, reason, _) = cluster.condition("hello", condition::RUNNING);
    assert_eq!((s.as_str(), reason.as_str()), ("False", "MinReplicasNotAvailable"));
}

#[tokio::test]
async fn unchanged_source_is_never_rebuilt_and_changed_source_is_rebuilt_once() {
    let mut cluster = Cluster::default();
    cluster.node_pod("node-a", "10.0.0.11", true);
    built(&cluster, "hello").await;
    for _ in 0..5 {
        cluster.reconcile("hello").await;
    }
    assert_eq!(cluster.fake.count(Method::POST, JOBS), 1, "unchanged: no new build");
    let first_hash = cluster.function("hello").unwrap().status.unwrap().build_hash;

    // An edit that does not touch the build inputs (an env var) builds nothing.
    cluster.apply_function(
        "hello",
        json!({"source": {"inline": {"source": HANDLER}}, "env": [{"name": "A", "value": "1"}]}),
    );
    cluster.reconcile("hello").await;
    assert_eq!(cluster.fake.count(Method::POST, JOBS), 1);

    // New source: exactly one new build, while the old artifact keeps serving.
    cluster.node_serves("node-a", &[(NS, "hello", DIGEST)]);
    cluster.apply_function(
        "hello",
        json!({"source": {"inline": {"source": "module.exports = { main: () => 'v2' }"}}}),
    );
    for _ in 0..3 {
        cluster.reconcile("hello").await;
    }
    assert_eq!(cluster.fake.count(Method::POST, JOBS), 2, "one rebuild");
    let status = cluster.function("hello").unwrap().status.unwrap();
    assert_eq!(
        status.artifact.as_deref(),
        Some(ARTIFACT),
        "the old module serves meanwhile"
    );
    assert_eq!(status.observed_generation, Some(3));
    assert_eq!(cluster.slice_addresses("hello"), ["10.0.0.11"]);
    let map: ConfigMap = cluster
        .fake
        .get_as(&object_path("v1", "ConfigMap", Some(NS), "hello-shoal-source"))
        .unwrap();
    assert!(
        map.data.unwrap()["source"].contains("v2"),
        "the ConfigMap holds the new source"
    );
    assert_eq!(
        cluster.condition("hello", condition::CONFIGURATION_READY).1,
        "ConfigMapUpdated"
    );

    let job = cluster.jobs().remove(0);
    cluster.finish_job(
        &job,
        true,
        &json!({"artifact": "registry.shoal-system.svc:5000/functions/orders/hello@sha256:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"}).to_string(),
    );
    cluster.reconcile("hello").await;
    let status = cluster.function("hello").unwrap().status.unwrap();
    assert!(
        status
            .artifact
            .unwrap()
            .ends_with("@sha256:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb")
    );
    assert_ne!(status.build_hash, first_hash);
    // No node has loaded the new build yet: the one serving the previous
    // build stays in the slice, so the update is no outage.
    assert_eq!(cluster.slice_addresses("hello"), ["10.0.0.11"]);
    let (s, reason, message) = cluster.condition("hello", condition::RUNNING);
    assert_eq!(
        (s.as_str(), reason.as_str()),
        ("True", "DeploymentUpdated"),
        "{message}"
    );
    // Once the node has loaded it, Running says so.
    cluster.node_serves("node-a", &[(NS, "hello", NEW_DIGEST)]);
    cluster.reconcile("hello").await;
    assert_eq!(cluster.slice_addresses("hello"), ["10.0.0.11"]);
    assert_eq!(cluster.condition("hello", condition::RUNNING).1, "DeploymentReady");
}

#[tokio::test]
async fn deleting_a_function_removes_its_objects_and_the_finalizer() {
    let mut cluster = Cluster::default();
    cluster.node_pod("node-a", "10.0.0.11", true);
    built(&cluster, "hello").await;
    // A second build in flight, to see it stopped.
    cluster.apply_function(
        "hello",
        json!({"source": {"inline": {"source": "module.exports = { main: () => 2 }"}}}),
    );
    cluster.reconcile("hello").await;
    assert_eq!(cluster.jobs().len(), 1);

    let api: kube::Api<Function> = kube::Api::namespaced(cluster.fake.client(), NS);
    api.delete("hello", &Default::default()).await.expect("delete");
    assert!(cluster.function("hello").is_some(), "held by the finalizer");
    cluster.reconcile("hello").await;

    assert!(cluster.function("hello").is_none(), "finalizer removed, Function gone");
    assert!(cluster.jobs().is_empty());
    for (api_version, kind, name) in [
        ("v1", "Service", "hello"),
        ("v1", "ConfigMap", "hello-shoal-source"),
        ("discovery.k8s.io/v1", "EndpointSlice", "hello-shoal"),
    ] {
        assert!(
            cluster
                .fake
                .get(&object_path(api_version, kind, Some(NS), name))
                .is_none(),
            "{kind} {name} should be gone"
        );
    }
}

#[tokio::test]
async fn an_invalid_function_that_slipped_past_the_webhook_is_caught() {
    let cluster = Cluster::default();
    cluster.apply_function(
        "py",
        json!({"runtime": "python312", "source": {"inline": {"source": "def main(e, c): return 1"}}}),
    );
    cluster.reconcile("py").await;
    let (s, reason, message) = cluster.condition("py", condition::CONFIGURATION_READY);
    assert_eq!((s.as_str(), reason.as_str()), ("False", "InvalidFunctionSpec"));
    assert!(message.contains("Node.js"), "{message}");
    assert_eq!(cluster.fake.count(Method::POST, JOBS), 0);
    assert!(
        cluster
            .fake
            .get(&object_path("v1", "ConfigMap", Some(NS), "py-shoal-source"))
            .is_none()
    );
}

#[tokio::test]
async fn builds_wait_for_a_slot_when_the_concurrency_cap_is_reached() {
    let cluster = Cluster::new(ControllerConfig {
        max_concurrent_builds: 1,
        ..ControllerConfig::default()
    });
    cluster.apply_function("first", json!({"source": {"inline": {"source": HANDLER}}}));
    cluster.apply_function(
        "second",
        json!({"source": {"inline": {"source": "module.exports={main(){return 2}}"}}}),
    );
    cluster.reconcile("first").await;
    cluster.reconcile("second").await;
    assert_eq!(cluster.jobs().len(), 1);
    let (s, reason, message) = cluster.condition("second", condition::BUILD_READY);
    assert_eq!((s.as_str(), reason.as_str()), ("Unknown", "JobQueued"));
    assert!(message.contains("1 of 1"), "{message}");

    let job = cluster.jobs().remove(0);
    cluster.finish_job(&job, true, &json!({"artifact": "localhost:5000/functions/orders/first@sha256:1111111111111111111111111111111111111111111111111111111111111111"}).to_string());
    // The pass recording the artifact, then the one its status write brings.
    cluster.reconcile("first").await;
    cluster.reconcile("first").await;
    cluster.reconcile("second").await;
    let jobs = cluster.jobs();
    assert_eq!(jobs.len(), 1);
    assert!(jobs[0].metadata.name.as_deref().unwrap().starts_with("second-build-"));
}

/// A build slot is the Job's, not the controller's memory of it: a Job
/// deleted before the watch ever showed it (its Function deleted at once)
/// used to hold its slot for good, and every later build waited.
#[tokio::test]
async fn a_build_job_gone_before_the_watch_showed_it_gives_its_slot_back() {
    let cluster = Cluster::new(ControllerConfig {
        max_concurrent_builds: 1,
        ..ControllerConfig::default()
    });
    cluster.apply_function("first", json!({"source": {"inline": {"source": HANDLER}}}));
    cluster.reconcile("first").await;
    assert_eq!(cluster.jobs().len(), 1);
    // The Job goes (deleted by hand) and so does its Function, all before
    // the controller's watch saw the Job.
    let jobs: kube::Api<Job> = kube::Api::namespaced(cluster.fake.client(), NS);
    jobs.delete(cluster.jobs()[0].metadata.name.as_deref().unwrap(), &Default::default())
        .await
        .unwrap();
    let functions: kube::Api<Function> = kube::Api::namespaced(cluster.fake.client(), NS);
    functions.delete("first", &Default::default()).await.unwrap();
    let deleted = cluster.function("first").expect("held by the finalizer");
    reconcile(Arc::new(deleted), cluster.ctx.clone())
        .await
        .expect("cleanup");

    cluster.apply_function("second", json!({"source": {"inline": {"source": HANDLER}}}));
    cluster.reconcile("second").await;
    let (s, reason, message) = cluster.condition("second", condition::BUILD_READY);
    assert_eq!((s.as_str(), reason.as_str()), ("Unknown", "JobCreated"), "{message}");
    assert_eq!(cluster.jobs().len(), 1);
}

/// A finished build's slot is free for the next Function even when no
/// other build asked for one while the first ran (the controller counted a
/// Job it had created until a later Function's pass saw the watch show it,
/// which on a quiet cluster never came).
#[tokio::test]
async fn a_finished_build_frees_its_slot_for_a_function_applied_later() {
    let cluster = Cluster::new(ControllerConfig {
        max_concurrent_builds: 1,
        ..Cluster::default().ctx.config.clone()
    });
    built(&cluster, "first").await;
    assert_eq!(cluster.condition("first", condition::BUILD_READY).1, "JobFinished");
    assert!(cluster.jobs().is_empty(), "the finished build's Job is cleaned up");
    cluster.apply_function("second", json!({"source": {"inline": {"source": HANDLER}}}));
    cluster.reconcile("second").await;
    let (_, reason, message) = cluster.condition("second", condition::BUILD_READY);
    assert_eq!(reason, "JobCreated", "{message}");
}

#[tokio::test]
async fn registry_credentials_are_copied_for_the_build_job() {
    let cluster = Cluster::new(ControllerConfig {
        registry_secret: Some("shoal-registry".into()),
        ..ControllerConfig::default()
    });
    cluster.fake.put(json!({
        "apiVersion": "v1", "kind": "Secret",
        "metadata": {"name": "shoal-registry", "namespace": "shoal-system"},
        "data": {"username": "dXNlcg==", "password": "cGFzcw=="}
    }));
    cluster.apply_function("hello", json!({"source": {"inline": {"source": HANDLER}}}));
    cluster.reconcile("hello").await;
    let copy = cluster
        .fake
        .get(&object_path(
            "v1",
            "Secret",
            Some(NS),
            "shoal-build-registry-credentials",
        ))
        .expect("credentials copied into the Function's namespace");
    assert_eq!(copy["data"]["username"], "dXNlcg==");
    let job = cluster.jobs().remove(0);
    let env = job.spec.unwrap().template.spec.unwrap().containers[0]
        .env
        .clone()
        .unwrap();
    let password = env
        .iter()
        .find(|e| e.name == "SHOAL_REGISTRY_PASSWORD")
        .expect("password env");
    let reference = password.value_from.as_ref().unwrap().secret_key_ref.as_ref().unwrap();
    assert_eq!(
        (reference.name.as_str(), reference.key.as_str()),
        ("shoal-build-registry-credentials", "password")
    );
}

#[tokio::test]
async fn a_node_that_cannot_load_the_artifact_says_why_in_running() {
    let mut cluster = Cluster::default();
    cluster.node_pod("node-a", "10.0.0.11", true);
    built(&cluster, "hello").await;
    cluster.node_fails(
        "node-a",
        "hello",
        "loading the module: pulling registry/hello: connection refused",
    );
    cluster.reconcile("hello").await;
    let (s, reason, message) = cluster.condition("hello", condition::RUNNING);
    assert_eq!((s.as_str(), reason.as_str()), ("False", "DeploymentFailed"));
    assert!(
        message.contains("node node-a cannot load") && message.contains("connection refused"),
        "{message}"
    );

    // The registry is back and the node's retry loads it.
    cluster.node_serves("node-a", &[(NS, "hello", DIGEST)]);
    cluster.reconcile("hello").await;
    assert_eq!(cluster.condition("hello", condition::RUNNING).0, "True");
    assert_eq!(cluster.slice_addresses("hello"), ["10.0.0.11"]);
}

/// The registry keeps modules on an emptyDir by default: when it restarts,
/// the nodes find the artifact gone and say so, and the controller runs the
/// same build again (reproducible, so the same digest comes back), as the
/// chart's values promise. Once the nodes load it, the Function is Running
/// and the rebuild's Job is cleaned up.
#[tokio::test]
async fn an_artifact_the_registry_lost_is_built_again() {
    let mut cluster = Cluster::default();
    cluster.node_pod("node-a", "10.0.0.11", true);
    built(&cluster, "hello").await;
    assert!(cluster.jobs().is_empty(), "the first build's Job is cleaned up");
    cluster.reconcile("hello").await;
    assert!(
        cluster.jobs().is_empty(),
        "a node that only failed to reach the registry is no reason to rebuild"
    );

    cluster.node_fails(
        "node-a",
        "hello",
        &format!(
            "{}: registry registry.shoal-system.svc:5000 does not have {ARTIFACT}",
            shoal_api::cluster::ARTIFACT_MISSING
        ),
    );
    cluster.reconcile("hello").await;
    let jobs = cluster.jobs();
    assert_eq!(jobs.len(), 1, "one rebuild");
    cluster.finish_job(
        &jobs[0],
        true,
        &json!({"artifact": ARTIFACT, "digest": DIGEST}).to_string(),
    );
    cluster.reconcile("hello").await;
    assert_eq!(
        cluster.jobs().len(),
        1,
        "never a second rebuild while the nodes catch up"
    );

    cluster.node_serves("node-a", &[(NS, "hello", DIGEST)]);
    cluster.reconcile("hello").await;
    assert_eq!(cluster.condition("hello", condition::RUNNING).0, "True");
    cluster.reconcile("hello").await;
    assert!(cluster.jobs().is_empty(), "the rebuild's Job is cleaned up at rest");
}

#[tokio::test]
async fn the_fake_api_refuses_what_the_api_server_refuses_with_its_message() {
    use k8s_openapi::api::discovery::v1::{Endpoint, EndpointPort};
    let cluster = Cluster::default();
    let slices: kube::Api<EndpointSlice> = kube::Api::namespaced(cluster.fake.client(), NS);
    let mut slice = EndpointSlice {
        metadata: kube::api::ObjectMeta {
            name: Some("hello-shoal".into()),
            labels: Some(std::collections::BTreeMap::from([(
                "endpointslice.kubernetes.io/managed-by".to_string(),
                "shoal.dev/controller".to_string(),
            )])),
            ..Default::default()
        },
        address_type: "IPv4".into(),
        endpoints: vec![Endpoint {
            addresses: vec!["10.0.0.11".into()],
            ..Default::default()
        }],
        ports: Some(vec![EndpointPort {
            name: Some("http".into()),
            port: Some(8080),
            ..Default::default()
        }]),
    };
    let refused = slices
        .create(&Default::default(), &slice)
        .await
        .expect_err("the old label value is refused");
    let kube::Error::Api(status) = refused else {
        panic!("not an API answer: {refused}")
    };
    assert_eq!(status.code, 422);
    // The message a v1.36 API server gave for Shoal's old label.
    assert!(
        status.message.starts_with(
            "EndpointSlice.discovery.k8s.io \"hello-shoal\" is invalid: metadata.labels: Invalid value: \"shoal.dev/controller\": \
             a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', \
             and must start and end with an alphanumeric character"
        ),
        "{}",
        status.message
    );

    // The value the controller writes now, and other rules a cluster enforces.
    slice.metadata.labels.as_mut().unwrap().insert(
        "endpointslice.kubernetes.io/managed-by".into(),
        cluster::ENDPOINT_SLICE_MANAGER.into(),
    );
    slices
        .create(&Default::default(), &slice)
        .await
        .expect("a valid slice is accepted");
    slice.metadata.name = Some("ipv6-in-ipv4".into());
    slice.endpoints[0].addresses = vec!["fd00::1".into()];
    let message = slices
        .create(&Default::default(), &slice)
        .await
        .unwrap_err()
        .to_string();
    assert!(message.contains("must be a valid IPv4 address"), "{message}");

    let services: kube::Api<Service> = kube::Api::namespaced(cluster.fake.client(), NS);
    let bad_service: Service = serde_json::from_value(json!({
        "metadata": {"name": "9lives"},
        "spec": {"ports": [{"name": "HTTP", "port": 80}, {"name": "b", "port": 70000}]}
    }))
    .unwrap();
    let message = services
        .create(&Default::default(), &bad_service)
        .await
        .unwrap_err()
        .to_string();
    for expected in [
        "Service \"9lives\" is invalid: [metadata.name: Invalid value: \"9lives\": a DNS-1035 label",
        "spec.ports[0].name: Invalid value: \"HTTP\": a lowercase RFC 1123 label",
        "spec.ports[1].port: Invalid value: 70000: must be between 1 and 65535, inclusive",
    ] {
        assert!(message.contains(expected), "{expected:?} not in {message}");
    }

    let annotations: std::collections::BTreeMap<String, String> =
        std::collections::BTreeMap::from([("big".to_string(), "x".repeat(300 * 1024))]);
    let maps: kube::Api<ConfigMap> = kube::Api::namespaced(cluster.fake.client(), NS);
    let map = ConfigMap {
        metadata: kube::api::ObjectMeta {
            name: Some("UPPER".into()),
            annotations: Some(annotations),
            ..Default::default()
        },
        data: Some(std::collections::BTreeMap::from([("a/b".to_string(), "x".to_string())])),
        ..Default::default()
    };
    let message = maps.create(&Default::default(), &map).await.unwrap_err().to_string();
    for expected in [
        "metadata.name: Invalid value: \"UPPER\": a lowercase RFC 1123 subdomain",
        "metadata.annotations: Too long: may not be more than 262144 bytes",
        "data[a/b]: Invalid value: \"a/b\": a valid config key",
    ] {
        assert!(message.contains(expected), "{expected:?} not in {message}");
    }

    // An events.k8s.io/v1 Event without what v1 requires, and a TLS Secret
    // without its key.
    let events: kube::Api<k8s_openapi::api::events::v1::Event> = kube::Api::namespaced(cluster.fake.client(), NS);
    let event = k8s_openapi::api::events::v1::Event {
        metadata: kube::api::ObjectMeta {
            name: Some("hello.1".into()),
            ..Default::default()
        },
        reason: Some("BuildStarted".into()),
        type_: Some("Info".into()),
        ..Default::default()
    };
    let message = events
        .create(&Default::default(), &event)
        .await
        .unwrap_err()
        .to_string();
    for expected in [
        "eventTime: Required value",
        "reportingInstance: Required value",
        "type: Unsupported value",
    ] {
        assert!(message.contains(expected), "{expected:?} not in {message}");
    }
    let secrets: kube::Api<k8s_openapi::api::core::v1::Secret> = kube::Api::namespaced(cluster.fake.client(), NS);
    let secret: k8s_openapi::api::core::v1::Secret = serde_json::from_value(json!({
        "metadata": {"name": "tls"}, "type": "kubernetes.io/tls", "data": {"tls.crt": "Y2VydA=="}
    }))
    .unwrap();
    let message = secrets
        .create(&Default::default(), &secret)
        .await
        .unwrap_err()
        .to_string();
    assert!(message.contains("data[tls.key]: Required value"), "{message}");
}

#[tokio::test]
async fn every_object_for_a_function_with_the_longest_name_is_valid() {
    // 63 characters: the most a Function name (a DNS-1035 label) may have.
    let name = format!("f{}", "x".repeat(61)) + "9";
    assert_eq!(name.len(), 63);
    let mut cluster = Cluster::new(ControllerConfig {
        registry_secret: Some("registry-credentials".into()),
        ..Cluster::default().ctx.config.clone()
    });
    cluster.fake.put(json!({
        "apiVersion": "v1", "kind": "Secret",
        "metadata": {"name": "registry-credentials", "namespace": "shoal-system"},
        "data": {"username": "dXNlcg==", "password": "cGFzcw=="}
    }));
    cluster.node_pod("node-a", "10.0.0.11", true);
    let dependencies = "{\"dependencies\":{\"lodash\":\"4.17.21\"}}";
    cluster.apply_function(
        &name,
        json!({"source": {"inline": {"source": HANDLER, "dependencies": dependencies}},
               "labels": {"team": "orders"}, "annotations": {"example.com/owner": "orders"}}),
    );
    // Every write goes through the fake's validation: a refused object fails
    // the reconcile here.
    cluster.reconcile(&name).await;
    let job = cluster.jobs().remove(0);
    assert!(job.metadata.name.as_ref().unwrap().len() <= 63);
    let artifact = ARTIFACT.replace("/hello@", &format!("/{name}@"));
    cluster.finish_job(&job, true, &json!({"artifact": artifact}).to_string());
    cluster.reconcile(&name).await;
    cluster.node_serves("node-a", &[(NS, &name, DIGEST)]);
    cluster.reconcile(&name).await;
    assert_eq!(cluster.condition(&name, condition::RUNNING).0, "True");
    assert_eq!(cluster.slice_addresses(&name), ["10.0.0.11"]);
}

#[tokio::test]
async fn a_failing_step_after_the_build_keeps_the_artifact_shows_the_failure_and_recovers_without_rebuilding() {
    let mut cluster = Cluster::default();
    cluster.node_pod("node-a", "10.0.0.11", true);
    cluster.apply_function("hello", json!({"source": {"inline": {"source": HANDLER}}}));
    cluster.reconcile("hello").await;
    let job = cluster.jobs().remove(0);
    cluster.finish_job(&job, true, &json!({"artifact": ARTIFACT}).to_string());

    // The EndpointSlice cannot be written (as when the API server refused
    // Shoal's label): the pass that sees the finished build fails after it.
    let slices = "/apis/discovery.k8s.io/v1/namespaces/orders/endpointslices";
    let refusal = "admission webhook \"quota.example.com\" denied the request: endpointslices over quota";
    cluster.fake.refuse_writes(slices, 403, refusal);
    cluster.node_serves("node-a", &[(NS, "hello", DIGEST)]);
    for _ in 0..3 {
        let result = cluster.try_reconcile("hello").await;
        assert!(result.is_err(), "the failure is returned for a retry with backoff");
    }

    let status = cluster.function("hello").unwrap().status.unwrap();
    assert_eq!(status.artifact.as_deref(), Some(ARTIFACT), "the artifact is durable");
    let (s, reason, _) = cluster.condition("hello", condition::BUILD_READY);
    assert_eq!((s.as_str(), reason.as_str()), ("True", "JobFinished"));
    let (s, reason, message) = cluster.condition("hello", condition::RUNNING);
    assert_eq!((s.as_str(), reason.as_str()), ("False", "ServiceFailed"));
    assert!(
        message.contains("EndpointSlice hello-shoal") && message.contains(refusal),
        "the API server's message is on the Function: {message}"
    );
    assert!(cluster.jobs().is_empty(), "the Job went once its result was stored");
    assert_eq!(cluster.fake.count(Method::POST, JOBS), 1, "no second build");

    // The failure clears: Running without a rebuild.
    cluster.fake.heal();
    cluster.node_serves("node-a", &[(NS, "hello", DIGEST)]);
    cluster
        .try_reconcile("hello")
        .await
        .expect("reconcile after the outage");
    let (s, reason, _) = cluster.condition("hello", condition::RUNNING);
    assert_eq!((s.as_str(), reason.as_str()), ("True", "DeploymentReady"));
    assert_eq!(cluster.slice_addresses("hello"), ["10.0.0.11"]);
    assert_eq!(cluster.fake.count(Method::POST, JOBS), 1, "still one build in all");
}

#[tokio::test]
async fn a_build_job_the_api_server_refuses_fails_build_ready_with_its_message() {
    let cluster = Cluster::default();
    cluster.apply_function("hello", json!({"source": {"inline": {"source": HANDLER}}}));
    cluster
        .fake
        .refuse_writes(JOBS, 403, "exceeded quota: compute, requested: limits.cpu=1100m");
    assert!(cluster.try_reconcile("hello").await.is_err());
    let (s, reason, message) = cluster.condition("hello", condition::BUILD_READY);
    assert_eq!((s.as_str(), reason.as_str()), ("False", "JobFailed"));
    assert!(message.contains("exceeded quota: compute"), "{message}");
    cluster.fake.heal();
    cluster.try_reconcile("hello").await.expect("retry");
    assert_eq!(cluster.condition("hello", condition::BUILD_READY).1, "JobCreated");
}

/// The Events `kubectl describe function` shows, oldest first:
/// `(type, reason, note)`.
fn events(cluster: &Cluster, name: &str) -> Vec<(String, String, String)> {
    cluster
        .fake
        .list(&format!("/apis/events.k8s.io/v1/namespaces/{NS}/events"))
        .into_iter()
        .filter(|e| e["regarding"]["name"] == name)
        .map(|e| {
            let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
            (text(&e["type"]), text(&e["reason"]), text(&e["note"]))
        })
        .collect()
}

#[tokio::test]
async fn build_and_deploy_steps_are_recorded_as_events_on_the_function() {
    let mut cluster = Cluster::default();
    cluster.node_pod("node-a", "10.0.0.11", true);
    built(&cluster, "hello").await;
    cluster.node_serves("node-a", &[(NS, "hello", DIGEST)]);
    cluster.reconcile("hello").await;
    // Steady state: more passes record nothing new.
    cluster.reconcile("hello").await;
    let recorded = events(&cluster, "hello");
    let reasons: Vec<&str> = recorded.iter().map(|(_, r, _)| r.as_str()).collect();
    assert_eq!(reasons, ["BuildStarted", "BuildSucceeded", "Deployed"], "{recorded:?}");
    assert!(recorded.iter().all(|(t, _, _)| t == "Normal"));
    assert!(recorded[1].2.contains(DIGEST), "{recorded:?}");

    // A failed build and a node that cannot load are Warnings, with why.
    cluster.apply_function(
        "broken",
        json!({"source": {"inline": {"source": "module.exports = { main( }"}}}),
    );
    cluster.reconcile("broken").await;
    let job = cluster
        .jobs()
        .into_iter()
        .find(|j| j.metadata.name.as_deref().is_some_and(|n| n.starts_with("broken")))
        .unwrap();
    cluster.finish_job(&job, false, "handler.js:1:27: ERROR: Unexpected \"}\"");
    cluster.reconcile("broken").await;
    let failed = events(&cluster, "broken");
    assert_eq!(
        failed.last().map(|(t, r, _)| (t.as_str(), r.as_str())),
        Some(("Warning", "BuildFailed"))
    );
    assert!(failed.last().unwrap().2.contains("Unexpected"), "{failed:?}");

    let mut cluster = Cluster::default();
    cluster.node_pod("node-a", "10.0.0.11", true);
    built(&cluster, "unloadable").await;
    cluster.node_fails("node-a", "unloadable", "pulling the artifact: connection refused");
    cluster.reconcile("unloadable").await;
    let load = events(&cluster, "unloadable");
    assert_eq!(
        load.last().map(|(t, r, _)| (t.as_str(), r.as_str())),
        Some(("Warning", "LoadFailed"))
    );
    assert!(load.last().unwrap().2.contains("connection refused"), "{load:?}");
}

#[tokio::test]
async fn leadership_goes_to_one_replica_and_is_handed_over_when_it_stops() {
    use shoal_controller::leader::{LeaderElector, LeaseConfig};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    let fake = FakeKube::new();
    let config = |identity: &str| LeaseConfig {
        lease_duration: Duration::from_secs(2),
        renew_every: Duration::from_millis(100),
        ..LeaseConfig::new("shoal-system", identity)
    };
    let holder = |fake: &FakeKube| {
        fake.get(&object_path(
            "coordination.k8s.io/v1",
            "Lease",
            Some("shoal-system"),
            "shoal-controller",
        ))
        .and_then(|l| l["spec"]["holderIdentity"].as_str().map(str::to_string))
    };
    // Two replicas run the election; each counts while it leads.
    let leading = Arc::new(AtomicUsize::new(0));
    let mut stops = Vec::new();
    let mut tasks = Vec::new();
    for identity in ["controller-a", "controller-b"] {
        let elector = LeaderElector::new(fake.client(), config(identity));
        let leading = leading.clone();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        stops.push((identity, Some(stop)));
        tasks.push(tokio::spawn(async move {
            elector
                .run(
                    async {
                        leading.fetch_add(1, Ordering::SeqCst);
                        std::future::pending::<()>().await;
                    },
                    async {
                        let _ = stopped.await;
                    },
                )
                .await
        }));
    }
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(leading.load(Ordering::SeqCst), 1, "exactly one replica leads");
    let first = holder(&fake).expect("a holder");

    // The leader stops (a rollout): it steps down and the other takes over
    // well within one lease duration.
    let (_, stop) = stops.iter_mut().find(|(id, _)| *id == first).unwrap();
    let _ = stop.take().unwrap().send(());
    let deadline = tokio::time::Instant::now() + Duration::from_secs(1);
    while holder(&fake).as_deref() == Some(first.as_str()) || holder(&fake).is_none() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "no handover: {:?}",
            holder(&fake)
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let second = holder(&fake).unwrap();
    assert_ne!(second, first);
    assert_eq!(leading.load(Ordering::SeqCst), 2);

    // The new leader crashes (no step-down): a third replica waits for the
    // lease to run out, then takes over.
    for task in &tasks {
        task.abort();
    }
    let third = LeaderElector::new(fake.client(), config("controller-c"));
    assert!(
        !third.try_acquire_or_renew().await.expect("try"),
        "the lease is still fresh"
    );
    tokio::time::sleep(Duration::from_millis(2100)).await;
    assert!(third.try_acquire_or_renew().await.expect("take over"));
    assert_eq!(holder(&fake).as_deref(), Some("controller-c"));
    let lease = fake
        .get(&object_path(
            "coordination.k8s.io/v1",
            "Lease",
            Some("shoal-system"),
            "shoal-controller",
        ))
        .unwrap();
    assert_eq!(lease["spec"]["leaseTransitions"], 2);
}

/// Writes (anything but a read) recorded so far.
fn writes(cluster: &Cluster) -> usize {
    cluster.fake.calls().iter().filter(|c| c.method != Method::GET).count()
}

#[tokio::test]
async fn a_function_at_rest_costs_no_api_calls_and_a_deleted_service_comes_back() {
    let mut cluster = Cluster::default();
    cluster.node_pod("node-a", "10.0.0.11", true);
    built(&cluster, "hello").await;
    cluster.node_serves("node-a", &[(NS, "hello", DIGEST)]);
    cluster.reconcile("hello").await;
    assert_eq!(cluster.condition("hello", condition::RUNNING).0, "True");

    // The periodic pass of a settled Function: no reads, no writes.
    let calls = cluster.fake.calls().len();
    for _ in 0..3 {
        cluster.reconcile("hello").await;
    }
    assert_eq!(
        cluster.fake.calls().len(),
        calls,
        "{:?}",
        &cluster.fake.calls()[calls..]
    );

    // Someone deletes the Service: the watch shows it gone, and the next
    // pass writes it again, and nothing else.
    let services: kube::Api<Service> = kube::Api::namespaced(cluster.fake.client(), NS);
    services.delete("hello", &Default::default()).await.expect("delete");
    let before = writes(&cluster);
    cluster.reconcile("hello").await;
    assert_eq!(writes(&cluster), before + 1, "only the Service is written again");
    assert!(
        cluster
            .fake
            .get(&object_path("v1", "Service", Some(NS), "hello"))
            .is_some()
    );

    // Someone edits the Service's port: the next pass sets it back.
    cluster
        .fake
        .update(&object_path("v1", "Service", Some(NS), "hello"), |service| {
            service["spec"]["ports"][0]["port"] = json!(8080);
        });
    cluster.reconcile("hello").await;
    assert_eq!(writes(&cluster), before + 2);
    let service: Service = cluster
        .fake
        .get_as(&object_path("v1", "Service", Some(NS), "hello"))
        .unwrap();
    assert_eq!(service.spec.unwrap().ports.unwrap()[0].port, 80);

    // A restarted controller reads what exists from its watches: no
    // rewrite of a settled Function.
    let mut restarted = cluster.restarted();
    restarted.node_pod("node-a", "10.0.0.11", true);
    restarted.node_serves("node-a", &[(NS, "hello", DIGEST)]);
    let calls = restarted.fake.calls().len();
    restarted.reconcile("hello").await;
    assert_eq!(
        restarted.fake.calls().len(),
        calls,
        "{:?}",
        &restarted.fake.calls()[calls..]
    );
}

/// A Kyma Function with a gitRepository source and basic auth.
fn git_function(cluster: &Cluster, name: &str, url: &str, base_dir: &str, reference: &str) {
    cluster.apply_function(
        name,
        json!({"source": {"gitRepository": {"url": url, "baseDir": base_dir, "reference": reference,
            "auth": {"type": "basic", "secretName": "git-creds"}}}}),
    );
}

fn git_creds(cluster: &Cluster, password: &str) {
    use base64::Engine;
    let b64 = |v: &str| base64::engine::general_purpose::STANDARD.encode(v);
    cluster.fake.put(json!({"apiVersion": "v1", "kind": "Secret",
        "metadata": {"name": "git-creds", "namespace": NS},
        "data": {"username": b64("dev"), "password": b64(password)}}));
}

#[tokio::test]
async fn git_functions_poll_a_shared_reference_once_per_interval_and_a_new_commit_builds_once() {
    use shoal_tests::git_server::{GitHttpServer, Repo};
    let server = GitHttpServer::start("dev", "t0ken-9f2").await;
    let repo = Repo::create(server.root.path(), "functions.git");
    let first = repo.commit(
        &[
            ("orders/handler.js", "module.exports = { main: () => 'orders v1' };\n"),
            (
                "payments/handler.js",
                "module.exports = { main: () => 'payments v1' };\n",
            ),
        ],
        "v1",
    );
    let url = format!("{}/functions.git", server.base);
    let cluster = Cluster::new(ControllerConfig {
        // Long enough that the steps below fit inside one interval on a
        // busy machine.
        git_poll_interval: std::time::Duration::from_secs(3),
        ..ControllerConfig::default()
    });
    git_creds(&cluster, "t0ken-9f2");
    let names = ["orders-a", "orders-b", "payments"];
    for name in names {
        let dir = if name == "payments" { "payments" } else { "orders" };
        git_function(&cluster, name, &url, dir, "main");
    }
    for _ in 0..2 {
        for name in names {
            cluster.reconcile(name).await;
        }
    }
    assert_eq!(cluster.ctx.git.listings(), 1, "one ref listing for three Functions");
    let jobs = cluster.jobs();
    assert_eq!(jobs.len(), 3, "one build per Function");
    for job in &jobs {
        let args = job.spec.clone().unwrap().template.spec.unwrap().containers[0]
            .args
            .clone()
            .unwrap();
        assert!(
            args.iter().any(|a| a.starts_with(&format!("git+{url}#{first}:"))),
            "{args:?}"
        );
        assert!(args.contains(&"--git-auth-dir".to_string()), "{args:?}");
    }
    let status = cluster.function("orders-a").unwrap().status.unwrap();
    let git = status.git_repository.clone().expect("status.gitRepository");
    assert_eq!(
        (git.url.as_str(), git.commit.as_deref()),
        (url.as_str(), Some(first.as_str()))
    );
    let (s, reason, _) = cluster.condition("orders-a", condition::CONFIGURATION_READY);
    assert_eq!((s.as_str(), reason.as_str()), ("True", "SourceUpdated"));

    // The builds finish; the artifacts are recorded.
    for job in jobs {
        let function = job.metadata.labels.as_ref().unwrap()[cluster::FUNCTION_LABEL].clone();
        cluster.finish_job(
            &job,
            true,
            &json!({"artifact": format!("localhost:5000/functions/orders/{function}@sha256:1111111111111111111111111111111111111111111111111111111111111111")}).to_string(),
        );
    }
    for _ in 0..2 {
        for name in names {
            cluster.reconcile(name).await;
        }
    }
    assert!(cluster.jobs().is_empty());
    let posted = cluster.fake.count(Method::POST, JOBS);

    // A new commit on main: nothing happens until the interval is over...
    repo.commit(
        &[("orders/handler.js", "module.exports = { main: () => 'orders v2' };\n")],
        "v2",
    );
    for name in names {
        cluster.reconcile(name).await;
    }
    assert_eq!(cluster.fake.count(Method::POST, JOBS), posted);
    // ...then one listing notices it, and each Function builds it once.
    tokio::time::sleep(std::time::Duration::from_millis(3100)).await;
    for _ in 0..3 {
        for name in names {
            cluster.reconcile(name).await;
        }
    }
    assert_eq!(cluster.ctx.git.listings(), 2);
    assert_eq!(
        cluster.fake.count(Method::POST, JOBS),
        posted + 3,
        "one new build per Function"
    );
    // The previous build serves until the new one is built.
    let status = cluster.function("orders-a").unwrap().status.unwrap();
    assert_eq!(
        status.artifact.as_deref(),
        Some(
            "localhost:5000/functions/orders/orders-a@sha256:1111111111111111111111111111111111111111111111111111111111111111"
        )
    );
    assert_ne!(status.git_repository.unwrap().commit.as_deref(), Some(first.as_str()));
    // Built: the new artifact is what nodes load next.
    for job in cluster.jobs() {
        let function = job.metadata.labels.as_ref().unwrap()[cluster::FUNCTION_LABEL].clone();
        cluster.finish_job(
            &job,
            true,
            &json!({"artifact": format!("localhost:5000/functions/orders/{function}@sha256:2222222222222222222222222222222222222222222222222222222222222222")}).to_string(),
        );
    }
    for name in names {
        cluster.reconcile(name).await;
    }
    let status = cluster.function("orders-a").unwrap().status.unwrap();
    assert_eq!(
        status.artifact.as_deref(),
        Some(
            "localhost:5000/functions/orders/orders-a@sha256:2222222222222222222222222222222222222222222222222222222222222222"
        )
    );
    assert_eq!(
        cluster.fake.count(Method::POST, JOBS),
        posted + 3,
        "still one build per commit"
    );
}

#[tokio::test]
async fn git_source_failures_say_why_and_never_show_the_secret() {
    use shoal_tests::git_server::{GitHttpServer, Repo};
    let server = GitHttpServer::start("dev", "t0ken-9f2").await;
    let repo = Repo::create(server.root.path(), "functions.git");
    repo.commit(
        &[("orders/handler.js", "module.exports = { main: () => 'v1' };\n")],
        "v1",
    );
    let url = format!("{}/functions.git", server.base);

    let check = |cluster: &Cluster, name: &str, expected: &str| {
        let (s, reason, message) = cluster.condition(name, condition::CONFIGURATION_READY);
        assert_eq!(
            (s.as_str(), reason.as_str()),
            ("False", "SourceUpdateFailed"),
            "{message}"
        );
        assert!(message.contains(expected), "{name}: {message}");
        let status = serde_json::to_string(&cluster.function(name).unwrap().status).unwrap();
        assert!(!status.contains("t0ken") && !status.contains("wrong-pw"), "{status}");
    };
    // Everything the controller logs meanwhile, at every level.
    let logs = LogCapture::default();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(logs.clone())
        .finish();
    let _logging = tracing::subscriber::set_default(subscriber);

    let cluster = Cluster::default();
    git_creds(&cluster, "wrong-pw");
    git_function(&cluster, "bad-password", &url, "orders", "main");
    cluster.reconcile("bad-password").await;
    check(&cluster, "bad-password", "authentication failed");

    let cluster = Cluster::default();
    git_creds(&cluster, "t0ken-9f2");
    git_function(&cluster, "bad-reference", &url, "orders", "release-7");
    git_function(&cluster, "bad-folder", &url, "billing", "main");
    git_function(&cluster, "no-handler", &url, "/", "main");
    for name in ["bad-reference", "bad-folder", "no-handler"] {
        cluster.reconcile(name).await;
    }
    check(&cluster, "bad-reference", "reference \"release-7\" not found");
    check(&cluster, "bad-folder", "baseDir \"billing\" does not exist");
    check(&cluster, "no-handler", "has no handler.js");
    assert!(cluster.jobs().is_empty(), "nothing is built from a broken source");
    let mut unreachable = Cluster::default();
    unreachable.node_pod("node-a", "10.0.0.11", true);
    git_creds(&unreachable, "t0ken-9f2");
    git_function(
        &unreachable,
        "gone",
        &format!("http://127.0.0.1:{}/x.git", shoal_tests::free_port()),
        "/",
        "main",
    );
    unreachable.reconcile("gone").await;
    check(&unreachable, "gone", "unreachable");

    let logged = logs.text();
    assert!(
        logged.contains("authentication failed"),
        "the failure is logged: {logged}"
    );
    assert!(
        !logged.contains("wrong-pw") && !logged.contains("t0ken-9f2"),
        "{logged}"
    );
}

/// A log writer keeping what was written.
#[derive(Clone, Default)]
struct LogCapture(Arc<std::sync::Mutex<Vec<u8>>>);

impl LogCapture {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

impl std::io::Write for LogCapture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for LogCapture {
    type Writer = LogCapture;
    fn make_writer(&'a self) -> Self::Writer {
        self.clone()
    }
}

#[tokio::test]
async fn a_build_job_gets_the_npmrc_secret_the_function_names() {
    let cluster = Cluster::new(ControllerConfig {
        npmrc_secret: Some("npm-default".into()),
        ..ControllerConfig::default()
    });
    cluster.fake.put(json!({
        "apiVersion": "serverless.kyma-project.io/v1alpha2", "kind": "Function",
        "metadata": {"name": "private-deps", "namespace": NS, "annotations": {"shoal.dev/npmrc-secret": "npm-acme"}},
        "spec": {"source": {"inline": {"source": HANDLER, "dependencies": "{\"dependencies\": {\"@acme/greet\": \"1.0.0\"}}"}}}
    }));
    cluster.apply_function(
        "plain",
        json!({"source": {"inline": {"source": "module.exports = { main: () => 2 }"}}}),
    );
    cluster.reconcile("private-deps").await;
    cluster.reconcile("plain").await;
    let npmrc_of = |function: &str| {
        let job = cluster
            .jobs()
            .into_iter()
            .find(|j| j.metadata.name.as_deref().is_some_and(|n| n.starts_with(function)))
            .expect("a build Job");
        let pod = job.spec.unwrap().template.spec.unwrap();
        let args = pod.containers[0].args.clone().unwrap();
        assert!(args.windows(2).any(|w| w == ["--npmrc", "/npmrc/.npmrc"]), "{args:?}");
        let volume = pod
            .volumes
            .unwrap()
            .into_iter()
            .find(|v| v.name == "npmrc")
            .expect("npmrc volume");
        let secret = volume.secret.unwrap();
        // Optional: a namespace without the Secret builds from the public registry.
        assert_eq!(secret.optional, Some(true));
        secret.secret_name.unwrap()
    };
    assert_eq!(npmrc_of("private-deps"), "npm-acme");
    assert_eq!(npmrc_of("plain"), "npm-default");
}
