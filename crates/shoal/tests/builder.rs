//! The build service with real parts: `shoal builder` processes on
//! loopback building with npm (from a registry on 127.0.0.1), esbuild and
//! Javy, pushing to a real OCI registry; the controller sending builds to
//! them, reading everything else from the fake API.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures::StreamExt;
use futures::channel::mpsc::UnboundedReceiver;
use k8s_openapi::api::core::v1::Pod;
use kube::runtime::reflector::{self, ObjectRef};
use kube::runtime::watcher;
use serde_json::{Value, json};
use shoal_api::{Function, condition};
use shoal_builder::{BuildClient, BuildKey, BuildLimits, BuildOutcome, BuildRequest, ClientError};
use shoal_controller::reconcile::{BuildServiceConfig, Builders};
use shoal_controller::{Context, ControllerConfig, NodeView};
use shoal_tests::fake_kube::{FakeKube, object_path};
use shoal_tests::fake_watches::FakeWatches;
use shoal_tests::npm_registry::{Package, TestNpmRegistry};
use shoal_tests::{TestRegistry, free_port};

const KEY: &str = "a-test-build-service-key-of-48-characters-000000";
const NS: &str = "shop";

/// A `shoal builder` process on 127.0.0.1.
pub(crate) struct TestBuilder {
    child: Child,
    port: u16,
    work: PathBuf,
    registry: String,
    npm: String,
}

impl TestBuilder {
    /// Starts a builder on `port`, keeping builds and caches under `work`,
    /// pushing to `registry`, installing from `npm` (npm's own default
    /// when empty).
    pub(crate) fn start(port: u16, work: &Path, registry: &str, npm: &str) -> Self {
        let key_file = work.join("key");
        std::fs::write(&key_file, KEY).expect("writing the key");
        let mut command = Command::new(env!("CARGO_BIN_EXE_shoal"));
        if !npm.is_empty() {
            command.env("npm_config_registry", npm);
        }
        let child = command
            .args(["builder", "--listen", &format!("127.0.0.1:{port}")])
            .arg("--key-file")
            .arg(&key_file)
            .args(["--registry", &format!("{registry}/functions"), "--concurrency", "2"])
            .arg("--work-dir")
            .arg(work.join("builds"))
            .arg("--cache-dir")
            .arg(work.join("cache"))
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("starting shoal builder");
        Self {
            child,
            port,
            work: work.to_path_buf(),
            registry: registry.to_string(),
            npm: npm.to_string(),
        }
    }

    /// Stops this builder as [`TestBuilder::kill`] does and starts another
    /// in its place (same address, folders, registry and npm).
    fn restart(mut self) -> Self {
        self.kill();
        Self::start(self.port, &self.work, &self.registry, &self.npm)
    }

    fn address(&self) -> std::net::SocketAddr {
        std::net::SocketAddr::from(([127, 0, 0, 1], self.port))
    }

    /// Waits until the builder has warmed up and reports ready.
    pub(crate) async fn ready(&self) {
        let deadline = Instant::now() + Duration::from_secs(120);
        while Instant::now() < deadline {
            if get(self.port, "/readyz").await.is_some_and(|(status, _)| status == 200) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("shoal builder on {} was not ready within 120 s", self.port);
    }

    /// What the service counted (`/v1/status`).
    async fn counts(&self) -> Value {
        let (_, body) = get(self.port, "/v1/status").await.expect("builder status");
        serde_json::from_str(&body).expect("status JSON")
    }

    /// Stops the builder as its container's end would: it and every build
    /// process working in its folders, at once.
    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let builds = self.work.join("builds");
        for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let in_builds = std::fs::read_link(entry.path().join("cwd")).is_ok_and(|cwd| cwd.starts_with(&builds));
            if in_builds {
                let _ = Command::new("kill")
                    .args(["-9", &entry.file_name().to_string_lossy()])
                    .status();
            }
        }
    }
}

impl Drop for TestBuilder {
    fn drop(&mut self) {
        self.kill();
    }
}

/// GET `path` on 127.0.0.1:`port`: status and body, or nothing when no one
/// answers.
async fn get(port: u16, path: &str) -> Option<(u16, String)> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port)).await.ok()?;
    let request = format!("GET {path} HTTP/1.1\r\nhost: builder\r\nconnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.ok()?;
    let mut response = String::new();
    stream.read_to_string(&mut response).await.ok()?;
    let status = response.split_whitespace().nth(1)?.parse().ok()?;
    let body = response.split_once("\r\n\r\n").map(|(_, b)| b.to_string())?;
    Some((status, body))
}

/// The build service's key and its one builder pod at 127.0.0.1:`port`,
/// as the controller sees them; answers are announced on the receiver.
pub(crate) fn builders_at(
    port: u16,
) -> (
    BuildServiceConfig,
    Arc<Builders>,
    UnboundedReceiver<ObjectRef<Function>>,
) {
    let (builder_pods, mut writer) = reflector::store::<Pod>();
    let pod: Pod = serde_json::from_value(json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "builder-a", "namespace": "shoal-system"},
        "spec": {"containers": [{"name": "builder"}]},
        "status": {"podIP": "127.0.0.1", "conditions": [{"type": "Ready", "status": "True"}]}
    }))
    .expect("pod");
    writer.apply_watcher_event(&watcher::Event::Apply(pod));
    let service = BuildServiceConfig {
        client: BuildClient::new(BuildKey::new(KEY.as_bytes()).expect("key")),
        builder_labels: Default::default(),
        port,
        max_limits: BuildLimits {
            memory_bytes: 1536 << 20,
            deadline_secs: 900,
        },
    };
    let (answered, answers) = futures::channel::mpsc::unbounded();
    let builders = Arc::new(Builders::new(service.clone(), builder_pods, answered));
    (service, builders, answers)
}

/// The controller, with its builds going to one builder pod at 127.0.0.1.
struct Controller {
    fake: Arc<FakeKube>,
    ctx: Arc<Context>,
    watches: Mutex<FakeWatches>,
    answers: UnboundedReceiver<ObjectRef<Function>>,
    node_pods: reflector::store::Writer<Pod>,
}

impl Controller {
    fn new(fake: &Arc<FakeKube>, registry: &str, builder_port: u16, build_deadline: Duration) -> Self {
        let (service, builders, answers) = builders_at(builder_port);
        let config = ControllerConfig {
            registry: format!("{registry}/functions"),
            build_deadline,
            build_service: Some(service),
            ..ControllerConfig::default()
        };
        let (node_pod_store, node_pods) = reflector::store();
        let (children, watches) = FakeWatches::new(fake);
        let ctx = Context::new(fake.client(), config, NodeView::new(node_pod_store), children).with_builders(builders);
        Self {
            fake: fake.clone(),
            ctx: Arc::new(ctx),
            watches: Mutex::new(watches),
            answers,
            node_pods,
        }
    }

    /// A ready node pod, publishing `served` (Function, digest) and
    /// `errors` (Function, message) for the Functions of this test.
    fn node_publishes(&mut self, served: &[(&str, &str)], errors: &[(&str, &str)]) {
        use shoal_api::cluster;
        let pod: Pod = serde_json::from_value(json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "node-a", "namespace": "shoal-system", "uid": "uid-node-a"},
            "spec": {"containers": [{"name": "node"}]},
            "status": {"podIP": "10.0.0.11", "conditions": [{"type": "Ready", "status": "True"}]}
        }))
        .expect("pod");
        self.node_pods.apply_watcher_event(&watcher::Event::Apply(pod));
        for shard in 0..cluster::NODE_STATUS_SHARDS {
            let in_shard = |name: &&str| cluster::status_shard(NS, name) == shard;
            let served = served
                .iter()
                .filter(|(name, _)| in_shard(name))
                .map(|(name, digest)| cluster::ServedFunction {
                    namespace: NS.into(),
                    name: name.to_string(),
                    digest: digest.to_string(),
                })
                .collect();
            let errors = errors
                .iter()
                .filter(|(name, _)| in_shard(name))
                .map(|(name, message)| ((NS.to_string(), name.to_string()), message.to_string()))
                .collect();
            let status: k8s_openapi::api::core::v1::ConfigMap = serde_json::from_value(json!({
                "apiVersion": "v1", "kind": "ConfigMap",
                "metadata": {"name": cluster::node_status_name("node-a", shard), "namespace": "shoal-system"},
                "data": {"functions": cluster::render_served(&served), "errors": cluster::render_errors(&errors),
                         "pod": "node-a", "shard": shard.to_string()}
            }))
            .expect("config map");
            self.ctx.nodes.statuses.apply(&watcher::Event::Apply(status));
        }
    }

    fn apply(&self, name: &str, source: &str, dependencies: Option<&str>, build_resources: Option<Value>) {
        let mut spec = json!({"runtime": "nodejs22", "source": {"inline": {"source": source}}});
        if let Some(deps) = dependencies {
            spec["source"]["inline"]["dependencies"] = json!(deps);
        }
        if let Some(resources) = build_resources {
            spec["resourceConfiguration"] = json!({"build": {"resources": resources}});
        }
        self.fake.put(json!({
            "apiVersion": "serverless.kyma-project.io/v1alpha2", "kind": "Function",
            "metadata": {"name": name, "namespace": NS}, "spec": spec
        }));
    }

    fn function(&self, name: &str) -> Function {
        self.fake.function(NS, name).expect("function")
    }

    async fn reconcile(&self, name: &str) {
        let function = self.function(name);
        self.watches.lock().expect("watches").sync();
        shoal_controller::reconcile(Arc::new(function), self.ctx.clone())
            .await
            .expect("reconcile");
    }

    fn build_ready(&self, name: &str) -> (String, String) {
        let status = self.function(name).status.unwrap_or_default();
        status
            .conditions
            .iter()
            .find(|c| c.type_ == condition::BUILD_READY)
            .map(|c| (c.status.to_string(), c.message.clone().unwrap_or_default()))
            .unwrap_or_default()
    }

    /// Passes as the controller makes them (on each answer, and on the
    /// requeue it asks for) until BuildReady of each of `names` is settled.
    async fn until_built(&mut self, names: &[&str]) {
        let deadline = Instant::now() + Duration::from_secs(180);
        loop {
            for name in names {
                self.reconcile(name).await;
            }
            if names.iter().all(|n| self.build_ready(n).0 != "Unknown") {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "builds not settled: {:?}",
                names.iter().map(|n| self.build_ready(n)).collect::<Vec<_>>()
            );
            let _ = tokio::time::timeout(Duration::from_millis(500), self.answers.next()).await;
        }
    }
}

/// A ready builder on a free port pushing to `registry` and installing
/// from `npm`, and the folder it works in.
async fn builder_for(registry: &TestRegistry, npm: &TestNpmRegistry) -> (tempfile::TempDir, TestBuilder) {
    let work = tempfile::tempdir().expect("temp dir");
    let builder = TestBuilder::start(free_port(), work.path(), &registry.address, &npm.url);
    builder.ready().await;
    (work, builder)
}

fn slow_registry() -> TestNpmRegistry {
    TestNpmRegistry::start(
        &[Package {
            name: "slow-dep",
            version: "1.0.0",
            files: &[("index.js", "module.exports = (x) => `slow ${x}`;\n")],
        }],
        None,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_build_service_restart_mid_build_loses_nothing_and_builds_nothing_twice() {
    let registry = TestRegistry::start(None);
    let npm = slow_registry();
    let (_work, first) = builder_for(&registry, &npm).await;
    let port = first.port;

    let fake = FakeKube::new();
    let mut controller = Controller::new(&fake, &registry.address, port, Duration::from_secs(600));
    // The build will wait in npm install until the test lets it go.
    npm.hold_tarballs();
    controller.apply(
        "checkout",
        "const slow = require('slow-dep');\nmodule.exports = { main: () => slow('checkout') };\n",
        Some(r#"{"dependencies": {"slow-dep": "1.0.0"}}"#),
        None,
    );
    controller.reconcile("checkout").await;
    let (status, message) = controller.build_ready("checkout");
    assert_eq!(status, "Unknown");
    assert!(message.contains("build service"), "{message}");
    let deadline = Instant::now() + Duration::from_secs(60);
    while npm.tarball_requests() == 0 {
        assert!(Instant::now() < deadline, "the build never reached npm install");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // The builder dies mid-build and comes back on the same address.
    let second = first.restart();
    npm.release_tarballs();
    second.ready().await;
    controller.until_built(&["checkout"]).await;
    let (status, message) = controller.build_ready("checkout");
    assert_eq!(status, "True", "{message}");
    let artifact = controller
        .function("checkout")
        .status
        .unwrap_or_default()
        .artifact
        .expect("artifact");
    assert!(
        artifact.starts_with(&format!("{}/functions/{NS}/checkout@sha256:", registry.address)),
        "{artifact}"
    );
    assert_eq!(second.counts().await["buildsRun"], 1, "one build ran to the end");

    // The controller asks again (it restarted before writing the status, or
    // the connection broke): the finished build answers, nothing is built.
    let function = controller.function("checkout");
    let inline = function.spec.source.inline.clone().expect("inline");
    let request = BuildRequest {
        namespace: NS.into(),
        name: "checkout".into(),
        hash: function.build_inputs().expect("inputs").hash(),
        runtime: "nodejs22".into(),
        source: inline.source,
        dependencies: inline.dependencies,
        limits: BuildLimits {
            memory_bytes: 700 << 20,
            deadline_secs: 600,
        },
    };
    let client = BuildClient::new(BuildKey::new(KEY.as_bytes()).expect("key"));
    let again = client
        .build(second.address(), &request, Duration::from_secs(60))
        .await
        .expect("answer");
    assert_eq!(
        again,
        BuildOutcome::Built {
            artifact: artifact.clone(),
            reused: false
        }
    );
    assert_eq!(second.counts().await["buildsRun"], 1);

    // And after the builder restarted too, the registry's copy answers.
    let third = second.restart();
    third.ready().await;
    let again = client
        .build(third.address(), &request, Duration::from_secs(60))
        .await
        .expect("answer");
    assert_eq!(again, BuildOutcome::Built { artifact, reused: true });
    assert_eq!(third.counts().await["buildsRun"], 0, "nothing built again");
}

/// A package whose module is 28 MB of data: bundling and compiling it
/// takes far more than 200 MiB.
fn huge_module() -> String {
    let mut text = String::from("module.exports = [\n");
    for i in 0..600_000 {
        text.push_str(&format!("{{id:{i},name:\"item{i}\",tags:[\"a{}\",\"b\"]}},\n", i % 97));
    }
    text.push_str("];\n");
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_build_over_its_memory_or_time_limit_fails_that_function_only() {
    let registry = TestRegistry::start(None);
    let huge = huge_module();
    let npm = TestNpmRegistry::start(
        &[
            Package {
                name: "huge-data",
                version: "1.0.0",
                files: &[("index.js", &huge)],
            },
            Package {
                name: "slow-dep",
                version: "1.0.0",
                files: &[("index.js", "module.exports = 1;\n")],
            },
        ],
        None,
    );
    // slow-dep's install never ends.
    npm.hold_tarballs();
    npm.release_tarballs_matching("huge-data");
    let (_work, builder) = builder_for(&registry, &npm).await;
    let port = builder.port;
    let fake = FakeKube::new();
    let mut controller = Controller::new(&fake, &registry.address, port, Duration::from_secs(15));
    controller.apply(
        "greedy",
        "const data = require('huge-data');\nmodule.exports = { main: () => String(data.length) };\n",
        Some(r#"{"dependencies": {"huge-data": "1.0.0"}}"#),
        Some(json!({"requests": {"cpu": "200m", "memory": "200Mi"}, "limits": {"cpu": "400m", "memory": "200Mi"}})),
    );
    controller.apply(
        "stuck",
        "const s = require('slow-dep');\nmodule.exports = { main: () => String(s) };\n",
        Some(r#"{"dependencies": {"slow-dep": "1.0.0"}}"#),
        None,
    );
    controller.apply("hello", "module.exports = { main: () => 'hello' };\n", None, None);
    for name in ["greedy", "stuck", "hello"] {
        controller.reconcile(name).await;
    }
    controller.until_built(&["hello"]).await;
    let (status, message) = controller.build_ready("hello");
    assert_eq!(
        status, "True",
        "a neighbour builds while the others go over their limits: {message}"
    );
    controller.until_built(&["greedy", "stuck"]).await;
    let (status, message) = controller.build_ready("greedy");
    assert_eq!(status, "False");
    assert!(message.contains("memory limit of 200 MiB"), "{message}");
    let (status, message) = controller.build_ready("stuck");
    assert_eq!(status, "False");
    assert!(message.contains("longer than its limit of 15 s"), "{message}");
    let counts = builder.counts().await;
    assert_eq!(counts["failed"], 2, "{counts}");
    assert_eq!(counts["running"], 0, "nothing left running: {counts}");
    assert!(
        message.contains(shoal_api::cluster::REBUILD_ANNOTATION),
        "says how to retry: {message}"
    );
    // A failed build is not retried in a loop; the rebuild annotation
    // retries it once.
    let requests = counts["requests"].as_u64().expect("requests");
    controller.reconcile("greedy").await;
    assert_eq!(builder.counts().await["requests"], requests, "no retry by itself");
    fake.update(
        &object_path("serverless.kyma-project.io/v1alpha2", "Function", Some(NS), "greedy"),
        |f| f["metadata"]["annotations"] = json!({(shoal_api::cluster::REBUILD_ANNOTATION): "1"}),
    );
    controller.reconcile("greedy").await;
    assert_eq!(controller.build_ready("greedy").0, "Unknown", "sent again");
    controller.until_built(&["greedy"]).await;
    assert_eq!(builder.counts().await["requests"], requests + 1);
    assert_eq!(
        builder.counts().await["failed"],
        3,
        "built again, and over its limit again"
    );
    // The builder lives on and builds the next Function.
    controller.apply("after", "module.exports = { main: () => 'after' };\n", None, None);
    controller.until_built(&["after"]).await;
    assert_eq!(controller.build_ready("after").0, "True");
}

/// A stand-in for a builder pod's address that answers every build with
/// `answer`, signed with `key` (or not at all).
async fn impostor(answer: Value, key: Option<&'static str>) -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let port = listener.local_addr().expect("address").port();
    shoal_tests::serve_http(listener, answer, move |_req, answer: Value| async move {
        let body = answer.to_string();
        let mut response = hyper::Response::builder().status(200);
        if let Some(key) = key {
            let key = BuildKey::new(key.as_bytes()).expect("key");
            response = response.header(
                shoal_builder::protocol::SIGNATURE_HEADER,
                key.sign(shoal_builder::protocol::Purpose::Answer, body.as_bytes()),
            );
        }
        response
            .body(http_body_util::Full::new(bytes::Bytes::from(body)))
            .expect("response")
    });
    port
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forged_build_answers_and_unsigned_requests_are_refused() {
    let registry = "registry.test:5000";
    let fake = FakeKube::new();
    let source = "module.exports = { main: () => 'hi' };\n";
    // Whoever holds a builder's address answers for the victim with an
    // artifact in its own repository.
    let forged = |name: &str| {
        json!({"namespace": NS, "name": name, "hash": "", "outcome": {
            "outcome": "built", "artifact": format!("{registry}/functions/{NS}/{name}@sha256:{}", "0".repeat(64)), "reused": false}})
    };
    for (case, key, answer_for) in [
        ("unsigned", None, "victim"),
        (
            "wrong-key",
            Some("someone-elses-key-that-is-long-enough-to-sign-with"),
            "victim",
        ),
        ("another-function", Some(KEY), "other"),
    ] {
        let mut answer = forged(answer_for);
        let controller_port;
        {
            // The answer names the build asked for, hash included (the
            // impostor read it from the request it could see).
            let probe = Controller::new(&fake, registry, 1, Duration::from_secs(600));
            probe.apply("victim", source, None, None);
            let hash = probe.function("victim").build_inputs().expect("inputs").hash();
            answer["hash"] = json!(hash);
            controller_port = impostor(answer, key).await;
        }
        let mut controller = Controller::new(&fake, registry, controller_port, Duration::from_secs(600));
        controller.reconcile("victim").await;
        let _ = tokio::time::timeout(Duration::from_secs(10), controller.answers.next()).await;
        controller.reconcile("victim").await;
        let (status, message) = controller.build_ready("victim");
        assert_eq!(status, "Unknown", "{case}: {message}");
        let refused = match case {
            "another-function" => "not the build asked for",
            _ => "not signed with the build service's key",
        };
        assert!(message.contains(refused), "{case}: {message}");
        assert_eq!(
            controller.function("victim").status.unwrap_or_default().artifact,
            None,
            "{case}"
        );
    }

    // The real service builds nothing for a request it cannot verify.
    let registry = TestRegistry::start(None);
    let npm = slow_registry();
    let (_work, builder) = builder_for(&registry, &npm).await;
    let request = BuildRequest {
        namespace: NS.into(),
        name: "victim".into(),
        hash: "ab".repeat(32),
        runtime: "nodejs22".into(),
        source: source.into(),
        dependencies: None,
        limits: BuildLimits {
            memory_bytes: 700 << 20,
            deadline_secs: 600,
        },
    };
    let stranger = BuildClient::new(BuildKey::new(b"someone-elses-key-that-is-long-enough-to-sign-with").expect("key"));
    match stranger
        .build(builder.address(), &request, Duration::from_secs(30))
        .await
    {
        Err(ClientError::Refused { status, .. }) => assert_eq!(status, 401),
        other => panic!("a request signed with another key: {other:?}"),
    }
    assert_eq!(builder.counts().await["buildsRun"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_artifact_the_registry_lost_is_built_again_once() {
    let registry = TestRegistry::start(None);
    let npm = slow_registry();
    let (_work, builder) = builder_for(&registry, &npm).await;
    let port = builder.port;
    let fake = FakeKube::new();
    let mut controller = Controller::new(&fake, &registry.address, port, Duration::from_secs(600));
    controller.apply("hello", "module.exports = { main: () => 'hello' };\n", None, None);
    controller.until_built(&["hello"]).await;
    let artifact = controller
        .function("hello")
        .status
        .unwrap_or_default()
        .artifact
        .expect("built");
    let digest = shoal_api::cluster::artifact_digest(&artifact)
        .expect("digest")
        .to_string();
    controller.node_publishes(&[("hello", &digest)], &[]);
    controller.reconcile("hello").await;
    assert_eq!(builder.counts().await["requests"], 1);

    // The registry's storage goes; the nodes say so.
    registry.wipe();
    let missing = format!(
        "{}: registry {} does not have {artifact}",
        shoal_api::cluster::ARTIFACT_MISSING,
        registry.address
    );
    controller.node_publishes(&[], &[("hello", &missing)]);
    controller.reconcile("hello").await;
    let _ = tokio::time::timeout(Duration::from_secs(60), controller.answers.next()).await;
    // Passes go on (each node status change brings one) while the nodes
    // have not loaded the rebuild yet: it is not sent again.
    for _ in 0..5 {
        controller.reconcile("hello").await;
    }
    let counts = builder.counts().await;
    assert_eq!(counts["requests"], 2, "one rebuild request: {counts}");
    assert_eq!(
        counts["buildsRun"], 2,
        "built again, not answered from the lost push: {counts}"
    );
    assert_eq!(controller.build_ready("hello").0, "True");
    let rebuilt = controller.function("hello").status.unwrap_or_default().artifact;
    assert_eq!(rebuilt.as_deref(), Some(artifact.as_str()), "builds are reproducible");
    let pulled = shoal_oci::Registry::for_reference(&artifact, shoal_oci::Credentials::Anonymous)
        .pull(&artifact, None)
        .await;
    assert!(pulled.is_ok(), "the artifact is back in the registry: {pulled:?}");

    controller.node_publishes(&[("hello", &digest)], &[]);
    controller.reconcile("hello").await;
    let running = controller.function("hello").status.unwrap_or_default();
    assert!(
        shoal_controller::reconcile::is_function_ready(&controller.function("hello")),
        "{running:?}"
    );
}
