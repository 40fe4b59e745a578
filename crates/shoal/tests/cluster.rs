//! The whole cluster flow with real parts wherever a cluster is not needed:
//! Kyma's sample Functions go through the HTTPS webhooks, the reconciler
//! (against the tower-test mock API) sends their build to a `shoal builder`
//! process or creates their build Job, whose own command runs — this
//! `shoal` binary, building with npm/esbuild/Javy and pushing to a real
//! registry — and its termination message is handed back as the kubelet
//! would. A node then loads the artifact through the node
//! sync, publishes what it serves, and the Function answers over a real
//! socket at the address its EndpointSlice lists.

use std::collections::BTreeMap;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use futures::channel::mpsc::UnboundedReceiver;
use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::api::core::v1::{ConfigMap, Pod};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use kube::runtime::reflector::{self, ObjectRef};
use kube::runtime::watcher;
use serde_json::{Value, json};
use shoal_api::{Function, condition};
use shoal_controller::{Context, ControllerConfig, NodeView};
use shoal_node::{FunctionDefaults, FunctionTable, Node, NodeConfig, TableConfig};
use shoal_sync::{NodeSync, SyncConfig};
use shoal_tests::admission::Webhooks;
use shoal_tests::fake_kube::{FakeKube, object_path};
use shoal_tests::fake_watches::FakeWatches;
use shoal_tests::{TestRegistry, runtime};

const NS: &str = "kyma-samples";

struct Platform {
    fake: Arc<FakeKube>,
    ctx: Arc<Context>,
    watches: std::sync::Mutex<FakeWatches>,
    sync: Arc<NodeSync>,
    node_addr: std::net::SocketAddr,
    hooks: Webhooks,
    /// The build service, when builds go there rather than to Jobs.
    build_service: Option<(crate::builder::TestBuilder, UnboundedReceiver<ObjectRef<Function>>)>,
    _registry: TestRegistry,
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl Platform {
    /// Builds run as build Jobs.
    async fn start() -> Self {
        Self::start_with(false).await
    }

    /// Builds go to a `shoal builder` process.
    async fn with_build_service() -> Self {
        Self::start_with(true).await
    }

    async fn start_with(build_service: bool) -> Self {
        let registry = TestRegistry::start(None);
        let fake = FakeKube::new();

        // A node server on a real socket.
        let artifacts = tempfile::tempdir().expect("temp dir").keep();
        let table = Arc::new(FunctionTable::new(
            runtime(),
            TableConfig {
                memory_budget: 256 << 20,
                artifact_dir: Some(artifacts),
                credentials: shoal_oci::Credentials::Anonymous,
                // As the chart configures it: only each Function's own artifacts.
                artifact_prefix: Some(format!("{}/functions", registry.address)),
                warm: shoal_node::WarmConfig::default(),
            },
        ));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let node_addr = listener.local_addr().expect("addr");
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let node = Node::new(table.clone(), NodeConfig::default());
        tokio::spawn(async move {
            let _ = node
                .serve(listener, async move {
                    let _ = stopped.await;
                })
                .await;
        });
        let sync = NodeSync::new(
            fake.client(),
            table,
            SyncConfig {
                pod_name: "node-a".into(),
                pod_namespace: "shoal-system".into(),
                pod_uid: Some("uid-node-a".into()),
                defaults: FunctionDefaults::default(),
                publish_every: Duration::from_millis(100),
                retry_every: Duration::from_secs(30),
                concurrency: 16,
                secrets_dir: std::env::temp_dir().join(format!("shoal-secrets-{}", std::process::id())),
                secret_refresh_every: Duration::from_secs(30),
            },
        );

        // The controller sees one ready node pod at the node server's address.
        let (pod_store, mut pods) = reflector::store::<Pod>();
        let pod: Pod = serde_json::from_value(json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "node-a", "namespace": "shoal-system", "uid": "uid-node-a"},
            "spec": {"containers": [{"name": "node"}]},
            "status": {"podIP": node_addr.ip().to_string(), "conditions": [{"type": "Ready", "status": "True"}]}
        }))
        .expect("pod");
        pods.apply_watcher_event(&watcher::Event::Apply(pod));
        let (children, watches) = FakeWatches::new(&fake);
        let mut config = ControllerConfig {
            registry: format!("{}/functions", registry.address),
            node_port: i32::from(node_addr.port()),
            ..ControllerConfig::default()
        };
        let mut builders = None;
        let build_service = if build_service {
            let work = tempfile::tempdir().expect("temp dir").keep();
            let port = shoal_tests::free_port();
            let builder = crate::builder::TestBuilder::start(port, &work, &registry.address, "");
            builder.ready().await;
            let (service, sends, answers) = crate::builder::builders_at(port);
            config.build_service = Some(service);
            builders = Some(sends);
            Some((builder, answers))
        } else {
            None
        };
        let mut ctx = Context::new(fake.client(), config, NodeView::new(pod_store), children);
        if let Some(builders) = builders {
            ctx = ctx.with_builders(builders);
        }
        let ctx = Arc::new(ctx);
        Self {
            fake,
            ctx,
            watches: std::sync::Mutex::new(watches),
            sync,
            node_addr,
            hooks: Webhooks::start().await,
            build_service,
            _registry: registry,
            _stop: stop,
        }
    }

    fn function(&self, name: &str) -> Function {
        self.fake.function(NS, name).expect("function")
    }

    async fn reconcile(&self, name: &str) {
        let function = self.function(name);
        self.watches.lock().unwrap().sync();
        shoal_controller::reconcile(Arc::new(function), self.ctx.clone())
            .await
            .expect("reconcile");
    }

    fn condition(&self, name: &str, type_: &str) -> (String, String) {
        let status = self.function(name).status.unwrap_or_default();
        let c = status
            .conditions
            .iter()
            .find(|c| c.type_ == type_)
            .unwrap_or_else(|| panic!("{name}: no {type_} in {:?}", status.conditions));
        (c.status.to_string(), c.message.clone().unwrap_or_default())
    }

    /// Does what the Job controller and kubelet do with the build Job: lays
    /// out the ConfigMap volume, runs the container's command with its env,
    /// and records the termination message and the outcome on the Job.
    fn run_build_job(&self, function: &str) {
        let jobs = self.fake.list(&format!("/apis/batch/v1/namespaces/{NS}/jobs"));
        assert_eq!(jobs.len(), 1, "one build Job for {function}");
        let job: Job = serde_json::from_value(jobs[0].clone()).expect("job");
        let job_name = job.metadata.name.clone().expect("name");
        let pod = job.spec.clone().unwrap().template.spec.unwrap();
        let container = &pod.containers[0];

        let work = tempfile::tempdir().expect("temp dir");
        let source_dir = work.path().join("function");
        std::fs::create_dir(&source_dir).expect("mkdir");
        let volume = pod.volumes.unwrap().into_iter().find(|v| v.name == "source").unwrap();
        let projection = volume.config_map.unwrap();
        let map: ConfigMap = self
            .fake
            .get_as(&object_path("v1", "ConfigMap", Some(NS), &projection.name))
            .expect("source ConfigMap");
        let data = map.data.unwrap_or_default();
        for item in projection.items.unwrap_or_default() {
            std::fs::write(source_dir.join(&item.path), &data[&item.key]).expect("projecting a key");
        }
        let termination_log = work.path().join("termination-log");
        let args: Vec<String> = container
            .args
            .clone()
            .unwrap_or_default()
            .into_iter()
            .map(|a| match a.as_str() {
                "/function" => source_dir.display().to_string(),
                "/dev/termination-log" => termination_log.display().to_string(),
                _ => a,
            })
            .collect();
        let env: BTreeMap<String, String> = container
            .env
            .clone()
            .unwrap_or_default()
            .into_iter()
            .filter_map(|e| e.value.map(|v| (e.name, v)))
            .filter(|(k, _)| k != "HOME")
            .collect();
        let status = Command::new(env!("CARGO_BIN_EXE_shoal"))
            .args(&args)
            .envs(&env)
            .env("SHOAL_CACHE_DIR", work.path().join("cache"))
            .status()
            .expect("running the build Job's command");
        let message = std::fs::read_to_string(&termination_log).unwrap_or_default();
        assert!(status.success(), "the build Job failed: {message}");
        let uid = job.metadata.uid.clone().unwrap();
        self.fake.put(json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": format!("{job_name}-pod"), "namespace": NS, "labels": {"job-name": job_name},
                         "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": job_name, "uid": uid}]},
            "status": {"containerStatuses": [{"name": "build", "image": "b", "imageID": "", "ready": false,
                "restartCount": 0, "state": {"terminated": {"exitCode": 0, "message": message}}}]}
        }));
        self.fake
            .update(&object_path("batch/v1", "Job", Some(NS), &job_name), |j| {
                j["status"] = json!({"conditions": [{"type": "Complete", "status": "True"}], "succeeded": 1});
            });
    }

    /// The node sync loading the Function, publishing, and the controller's
    /// watch seeing the published status.
    async fn node_loads(&mut self, name: &str) {
        self.sync
            .apply(Arc::new(self.function(name)))
            .await
            .expect("node loads the artifact");
        self.sync.publish().await.expect("publishing node status");
        // The controller's watch of the node status ConfigMaps.
        for shard in 0..shoal_api::cluster::NODE_STATUS_SHARDS {
            let published: ConfigMap = self
                .fake
                .get_as(&object_path(
                    "v1",
                    "ConfigMap",
                    Some("shoal-system"),
                    &shoal_api::cluster::node_status_name("node-a", shard),
                ))
                .expect("node status ConfigMap");
            self.ctx.nodes.statuses.apply(&watcher::Event::Apply(published));
        }
    }

    /// Calls the Function the way its Service would route: to an address
    /// and port from its EndpointSlice, with the Service's host name.
    async fn call(&self, name: &str) -> (u16, String) {
        self.call_with_host(name, &format!("{name}.{NS}.svc.cluster.local"))
            .await
    }

    /// The Function's EndpointSlice address and port.
    fn endpoint(&self, name: &str) -> (String, u16) {
        let slice: EndpointSlice = self
            .fake
            .get_as(&object_path(
                "discovery.k8s.io/v1",
                "EndpointSlice",
                Some(NS),
                &format!("{name}-shoal"),
            ))
            .expect("EndpointSlice");
        let address = slice.endpoints.first().expect("an endpoint").addresses[0].clone();
        let port = slice.ports.unwrap()[0].port.unwrap();
        (address, u16::try_from(port).expect("a port"))
    }

    /// Calls the Function at its EndpointSlice address and port with any
    /// Host, as an Istio gateway forwards an APIRule's external host.
    async fn call_with_host(&self, name: &str, host: &str) -> (u16, String) {
        let (address, port) = self.endpoint(name);
        // The node opens a Function's port as soon as it knows the
        // Function; the test may be a moment ahead of it.
        let mut attempts = 0;
        let stream = loop {
            match tokio::net::TcpStream::connect((address.as_str(), port)).await {
                Ok(s) => break s,
                Err(e) if attempts < 250 => {
                    attempts += 1;
                    let _ = e;
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                Err(e) => panic!("connecting to {address}:{port}: {e}"),
            }
        };
        get_with_host(stream, host).await
    }

    /// Admission, reconcile, build, load, reconcile: to Running.
    async fn deploy(&mut self, object: Value) -> String {
        let name = object["metadata"]["name"].as_str().unwrap().to_string();
        let admitted = self.hooks.admit(object).await;
        self.fake.put(admitted);
        self.reconcile(&name).await;
        assert_eq!(
            self.condition(&name, condition::BUILD_READY).0,
            "Unknown",
            "build started"
        );
        match &mut self.build_service {
            None => self.run_build_job(&name),
            // The controller's next pass comes with the service's answer.
            Some((_, answers)) => {
                let answered = tokio::time::timeout(Duration::from_secs(180), answers.next()).await;
                assert!(answered.is_ok(), "the build service answered within 180 s");
                assert!(
                    self.fake
                        .list(&format!("/apis/batch/v1/namespaces/{NS}/jobs"))
                        .is_empty(),
                    "no build Job"
                );
            }
        }
        self.reconcile(&name).await;
        let (built, message) = self.condition(&name, condition::BUILD_READY);
        assert_eq!(built, "True", "{message}");
        self.node_loads(&name).await;
        self.reconcile(&name).await;
        let (running, message) = self.condition(&name, condition::RUNNING);
        assert_eq!(running, "True", "{message}");
        assert!(shoal_controller::reconcile::is_function_ready(&self.function(&name)));
        name
    }
}

/// GET / over `stream` with `host` as the Host header: status and body.
async fn get_with_host(stream: tokio::net::TcpStream, host: &str) -> (u16, String) {
    let (mut sender, connection) = hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
        .await
        .expect("handshake");
    tokio::spawn(connection);
    let request = http::Request::get("/")
        .header("host", host)
        .body(http_body_util::Empty::<bytes::Bytes>::new())
        .expect("request");
    let response = sender.send_request(request).await.expect("response");
    let status = response.status().as_u16();
    let body = http_body_util::BodyExt::collect(response.into_body())
        .await
        .expect("body")
        .to_bytes();
    (status, String::from_utf8_lossy(&body).into_owned())
}

fn kyma_function(name: &str, source: &str, dependencies: &str) -> Value {
    json!({
        "apiVersion": "serverless.kyma-project.io/v1alpha2",
        "kind": "Function",
        "metadata": {"name": name, "namespace": NS},
        "spec": {"runtime": "nodejs22", "source": {"inline": {"source": source, "dependencies": dependencies}}}
    })
}

#[tokio::test]
async fn kyma_lodash_samples_go_from_webhook_to_a_served_function() {
    // Built by the build service, as the chart does by default.
    let mut platform = Platform::with_build_service().await;
    let cjs = platform
        .deploy(kyma_function(
            "lodash-cjs",
            "const _ = require('lodash')\nmodule.exports = {\n  main: function(event, context) {\n    return _.kebabCase('Hello World from Node.js Function');\n  }\n}",
            r#"{ "name": "hellobasic", "version": "0.0.1", "dependencies": { "lodash": "^4.17.20" } }"#,
        ))
        .await;
    assert_eq!(
        platform.call(&cjs).await,
        (200, "hello-world-from-node-js-function".to_string())
    );

    let esm = platform
        .deploy(kyma_function(
            "lodash-esm",
            "import _ from \"lodash\";\nexport function main(event, context) {\n  return _.kebabCase('Hello World from Node.js Function');\n}",
            r#"{ "name": "hellobasic", "version": "0.0.1", "type": "module", "dependencies": { "lodash": "^4.17.20" } }"#,
        ))
        .await;
    assert_eq!(
        platform.call(&esm).await,
        (200, "hello-world-from-node-js-function".to_string())
    );
    // Both stay served side by side.
    assert_eq!(platform.call(&cjs).await.0, 200);
    assert_eq!(platform.function(&esm).status.unwrap().replicas, Some(1));
}

/// An APIRule exposes a Function under an external host and Istio forwards
/// to the Service without rewriting the authority: the node picks the
/// Function by the port its EndpointSlice names, not by the Host.
#[tokio::test]
async fn a_request_with_a_foreign_host_reaches_the_function_its_endpoint_port_names() {
    let mut platform = Platform::start().await;
    let orders = platform
        .deploy(kyma_function(
            "orders",
            "module.exports = { main: (event) => 'orders saw ' + event.extensions.request.hostname };",
            "",
        ))
        .await;
    let stock = platform
        .deploy(kyma_function("stock", "module.exports = { main: () => 'stock' };", ""))
        .await;
    let (orders_ip, orders_port) = platform.endpoint(&orders);
    let (stock_ip, stock_port) = platform.endpoint(&stock);
    // One node, one address, a port per Function; neither is the node's own.
    assert_eq!(orders_ip, stock_ip);
    assert_ne!(orders_port, stock_port);
    assert_ne!(orders_port, platform.node_addr.port());
    assert_eq!(
        platform.function(&orders).status.unwrap().serving_port,
        Some(i32::from(orders_port))
    );

    assert_eq!(
        platform.call_with_host(&orders, "orders.example.com").await,
        (200, "orders saw orders.example.com".to_string())
    );
    assert_eq!(
        platform.call_with_host(&stock, "orders.example.com").await,
        (200, "stock".to_string())
    );
    // A ClusterIP or port-forward caller: a bare address as Host.
    assert_eq!(
        platform.call_with_host(&stock, "10.96.0.17").await,
        (200, "stock".to_string())
    );

    // On the node's own port the Host still decides: the foreign host is
    // nobody's, the Service name is the Function's.
    let own_port = |host: &str| {
        let addr = platform.node_addr;
        let host = host.to_string();
        async move {
            let stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
            get_with_host(stream, &host).await.0
        }
    };
    assert_eq!(own_port("orders.example.com").await, 404);
    assert_eq!(own_port(&format!("stock.{NS}.svc.cluster.local")).await, 200);

    // Deleting a Function closes its port; the other keeps answering.
    let api: kube::Api<Function> = kube::Api::namespaced(platform.fake.client(), NS);
    api.delete(&orders, &Default::default()).await.expect("delete");
    platform.reconcile(&orders).await;
    platform.sync.remove(NS, &orders);
    let mut closed = false;
    for _ in 0..250 {
        if tokio::net::TcpStream::connect((orders_ip.as_str(), orders_port))
            .await
            .is_err()
        {
            closed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(closed, "the deleted Function's port still accepts connections");
    assert_eq!(
        platform.call_with_host(&stock, "orders.example.com").await,
        (200, "stock".to_string())
    );
}

#[tokio::test]
async fn env_from_a_config_map_and_a_secret_then_an_update_with_a_new_dependency() {
    let mut platform = Platform::start().await;
    platform.fake.put(json!({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "test-config", "namespace": NS},
        "data": {"value": "config-value"}
    }));
    platform.fake.put(json!({
        "apiVersion": "v1", "kind": "Secret",
        "metadata": {"name": "test-secret", "namespace": NS},
        "data": {"value": "c2VjcmV0LXZhbHVl"}
    }));
    let env = json!([
        {"name": "CM_VALUE", "valueFrom": {"configMapKeyRef": {"name": "test-config", "key": "value"}}},
        {"name": "SECRET_VALUE", "valueFrom": {"secretKeyRef": {"name": "test-secret", "key": "value"}}}
    ]);
    let mut object = json!({
        "apiVersion": "serverless.kyma-project.io/v1alpha2",
        "kind": "Function",
        "metadata": {"name": "env-test", "namespace": NS},
        "spec": {
            "source": {"inline": {"source":
                "module.exports = { main: () => process.env.CM_VALUE + '-' + process.env.SECRET_VALUE };"}},
            "env": env
        }
    });
    let name = platform.deploy(object.clone()).await;
    assert_eq!(
        platform.call(&name).await,
        (200, "config-value-secret-value".to_string())
    );

    // Kyma's update step: new source with a new npm dependency.
    object["spec"]["source"]["inline"] = json!({
        "source": "const _ = require('lodash');\nmodule.exports = { main: () => _.kebabCase(process.env.CM_VALUE + ' ' + process.env.SECRET_VALUE + ' v2') };",
        "dependencies": "{\"dependencies\": {\"lodash\": \"^4.17.21\"}}"
    });
    let admitted = platform.hooks.admit(object).await;
    platform.fake.put(admitted);
    platform.reconcile(&name).await;
    // The old version keeps answering while the new one builds.
    assert_eq!(
        platform.call(&name).await,
        (200, "config-value-secret-value".to_string())
    );
    platform.run_build_job(&name);
    platform.reconcile(&name).await;
    platform.node_loads(&name).await;
    platform.reconcile(&name).await;
    assert_eq!(platform.condition(&name, condition::RUNNING).0, "True");
    assert_eq!(
        platform.call(&name).await,
        (200, "config-value-secret-value-v-2".to_string())
    );
}

/// Kyma's secretMounts: the node writes the Secret's keys as read-only
/// files at the mount path, and a changed Secret reaches the Function.
#[tokio::test]
async fn a_mounted_secret_is_read_as_files_and_its_update_reaches_the_function() {
    let mut platform = Platform::start().await;
    let secret = |token: &str, region: &str| {
        use base64::Engine;
        let encode = |v: &str| base64::engine::general_purpose::STANDARD.encode(v);
        json!({
            "apiVersion": "v1", "kind": "Secret",
            "metadata": {"name": "commerce-binding", "namespace": NS},
            "data": {"token": encode(token), "region": encode(region)}
        })
    };
    platform.fake.put(secret("t-1", "eu10"));
    let name = platform
        .deploy(json!({
            "apiVersion": "serverless.kyma-project.io/v1alpha2",
            "kind": "Function",
            "metadata": {"name": "binding", "namespace": NS},
            "spec": {
                "source": {"inline": {"source": concat!(
                    "const fs = require('fs');\n",
                    "module.exports = { main: () => {\n",
                    "  const dir = '/bindings/commerce';\n",
                    "  const keys = fs.readdirSync(dir).join(',');\n",
                    "  let write = 'refused';\n",
                    "  try { fs.writeFileSync(dir + '/token', 'x'); write = 'allowed'; } catch (e) { write = e.code; }\n",
                    "  return `${keys} ${fs.readFileSync(dir + '/token', 'utf8')} ${fs.readFileSync(dir + '/region', 'utf8')} ${write} ${fs.existsSync('/etc/passwd')}`;\n",
                    "} };\n")}},
                "secretMounts": [{"secretName": "commerce-binding", "mountPath": "/bindings/commerce"}]
            }
        }))
        .await;
    assert_eq!(
        platform.call(&name).await,
        (200, "region,token t-1 eu10 EROFS false".to_string())
    );

    // The Secret changes: the node's next refresh mounts the new keys.
    platform.fake.put(secret("t-2", "us10"));
    platform.sync.refresh_secret_mounts().await;
    assert_eq!(
        platform.call(&name).await,
        (200, "region,token t-2 us10 EROFS false".to_string())
    );
}
