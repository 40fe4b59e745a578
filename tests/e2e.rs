//! End-to-end on a real cluster: install the chart, apply Kyma Functions,
//! wait for Running, call them through their Services, update the source,
//! delete. Shaped like Kyma's own integration test.
//!
//! Runs only when `SHOAL_E2E_KUBECONFIG` names a kubeconfig; otherwise it
//! prints why it skipped. What it needs from the cluster:
//! - Kubernetes ≥ 1.30 (CRD validation rules, EndpointSlices, Job pod
//!   failure policy), and permission to install cluster-scoped objects (CRD,
//!   ClusterRoles, webhook configurations);
//! - the three Shoal images pushed where the cluster can pull them:
//!   `$SHOAL_E2E_IMAGE_REGISTRY/shoal-{controller,node,builder}:$SHOAL_E2E_IMAGE_TAG`
//!   (built by `crates/shoal/images/build.sh`);
//! - an image with `curl` the cluster can pull (`SHOAL_E2E_CURL_IMAGE`,
//!   default `curlimages/curl:8.11.1`), to call Services from inside;
//! - with `SHOAL_E2E_NPM_EGRESS=1`, egress to the npm registry from the
//!   build service: the update then adds a dependency (lodash), as Kyma's
//!   test does;
//!   without it the update changes the source only;
//! - `helm` and `kubectl` on PATH or in `.ci/bin` (`.ci/tools` puts them there).
//!
//! - with `SHOAL_E2E_EVENTING=1`, the chart is installed with Shoal's
//!   eventing on (`eventing.enabled`, the NATS server it runs, from
//!   `SHOAL_E2E_NATS_IMAGE` when set), and a Subscription carries an event
//!   one Function emits with `emitCloudEvent` to another.
//!
//! Set `SHOAL_E2E_SKIP_INSTALL=1` to test an existing installation.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::Service;
use k8s_openapi::api::discovery::v1::EndpointSlice;
use kube::api::Api;
use shoal_api::{Function, condition};

const RELEASE: &str = "shoal";
const SYSTEM_NAMESPACE: &str = "shoal-system";

struct Cluster {
    kubeconfig: PathBuf,
    namespace: String,
    client: kube::Client,
}

fn tool(name: &str) -> PathBuf {
    let local = shoal_tests::workspace_root().join(".ci/bin").join(name);
    if local.exists() { local } else { PathBuf::from(name) }
}

impl Cluster {
    fn run(&self, program: &str, args: &[&str], stdin: Option<&str>) -> (bool, String) {
        let mut command = Command::new(tool(program));
        command
            .args(args)
            .env("KUBECONFIG", &self.kubeconfig)
            .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = command
            .spawn()
            .unwrap_or_else(|e| panic!("running {program}: {e} (run .ci/tools to install it)"));
        if let Some(input) = stdin {
            use std::io::Write;
            child
                .stdin
                .take()
                .expect("stdin")
                .write_all(input.as_bytes())
                .expect("writing stdin");
        }
        let out = child.wait_with_output().expect("waiting");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out.status.success(), text)
    }

    fn kubectl(&self, args: &[&str], stdin: Option<&str>) -> String {
        let (ok, out) = self.run("kubectl", args, stdin);
        assert!(ok, "kubectl {args:?} failed:\n{out}");
        out
    }

    fn functions(&self) -> Api<Function> {
        Api::namespaced(self.client.clone(), &self.namespace)
    }

    async fn wait_running(&self, name: &str, generation_at_least: i64) -> Function {
        let deadline = Instant::now() + Duration::from_secs(300);
        loop {
            let function = self.functions().get(name).await.expect("get Function");
            let status = function.status.clone().unwrap_or_default();
            let current = status.observed_generation.unwrap_or(0) >= generation_at_least;
            if current && shoal_controller::reconcile::is_function_ready(&function) {
                return function;
            }
            if let Some(failed) = status
                .conditions
                .iter()
                .find(|c| c.status == "False" && c.type_ != condition::RUNNING)
            {
                panic!("{name} failed: {:?} {:?}", failed.reason, failed.message);
            }
            assert!(
                Instant::now() < deadline,
                "{name} not Running within 5 minutes: {:?}",
                status.conditions
            );
            tokio::time::sleep(Duration::from_secs(3)).await;
        }
    }

    /// Calls a Function's Service from a pod inside the cluster until the
    /// body equals `expected` (or 5 minutes pass). Each call is a pod run to
    /// completion and read from its log: attaching to a container that
    /// exits at once is racy (kubectl then falls back to the log and may
    /// print the body twice).
    fn curl_until(&self, name: &str, expected: &str) {
        self.curl_with_host_until(name, None, expected);
    }

    /// [`Self::curl_until`] with a Host header of the caller's choosing, as
    /// an Istio gateway forwards an APIRule's external host.
    fn curl_with_host_until(&self, name: &str, host: Option<&str>, expected: &str) {
        let url = format!("http://{name}.{}.svc.cluster.local/", self.namespace);
        let host = format!(
            "Host: {}",
            host.unwrap_or(&format!("{name}.{}.svc.cluster.local", self.namespace))
        );
        let deadline = Instant::now() + Duration::from_secs(300);
        let mut attempt = 0;
        loop {
            attempt += 1;
            let (phase, body) = self.curl_once(&format!("curl-{name}-{attempt}"), &["-H", &host, &url]);
            if phase == "Succeeded" && body == expected {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{url} never answered {expected:?}; last answer {body:?} (curl pod {phase})"
            );
            std::thread::sleep(Duration::from_secs(5));
        }
    }

    /// Runs curl once in a pod of the test namespace (a tenant's view of
    /// the cluster) with `args`: the pod's last phase and what curl printed.
    fn curl_once(&self, pod: &str, args: &[&str]) -> (String, String) {
        let image = std::env::var("SHOAL_E2E_CURL_IMAGE").unwrap_or_else(|_| "curlimages/curl:8.11.1".into());
        let mut command = vec![
            "run",
            pod,
            "-n",
            &self.namespace,
            "--restart=Never",
            "--image",
            &image,
            "--command",
            "--",
            "curl",
            "-s",
            "-m",
            "10",
        ];
        command.extend_from_slice(args);
        self.kubectl(&command, None);
        let phase = self.wait_pod_finished(pod, Duration::from_secs(120));
        let out = self.kubectl(&["logs", pod, "-n", &self.namespace], None);
        self.kubectl(&["delete", "pod", pod, "-n", &self.namespace, "--wait=false"], None);
        (phase, out)
    }

    /// Waits until a pod has run to completion; its phase (`Succeeded`,
    /// `Failed`, or the last one seen when `within` ran out).
    fn wait_pod_finished(&self, pod: &str, within: Duration) -> String {
        let deadline = Instant::now() + within;
        loop {
            let (_, phase) = self.run(
                "kubectl",
                &[
                    "get",
                    "pod",
                    pod,
                    "-n",
                    &self.namespace,
                    "-o",
                    "jsonpath={.status.phase}",
                ],
                None,
            );
            let phase = phase.trim().to_string();
            if phase == "Succeeded" || phase == "Failed" || Instant::now() >= deadline {
                return phase;
            }
            std::thread::sleep(Duration::from_secs(1));
        }
    }
}

fn function_yaml(namespace: &str, name: &str, source: &str, dependencies: Option<&str>) -> String {
    let indent = |s: &str| s.lines().map(|l| format!("        {l}")).collect::<Vec<_>>().join("\n");
    let deps = dependencies
        .map(|d| format!("      dependencies: |\n{}\n", indent(d)))
        .unwrap_or_default();
    format!(
        r#"apiVersion: serverless.kyma-project.io/v1alpha2
kind: Function
metadata:
  name: {name}
  namespace: {namespace}
spec:
  runtime: nodejs22
  source:
    inline:
      source: |
{}
{deps}  env:
    - name: CM_VALUE
      valueFrom:
        configMapKeyRef:
          name: e2e-config
          key: value
    - name: SECRET_VALUE
      valueFrom:
        secretKeyRef:
          name: e2e-secret
          key: value
"#,
        indent(source)
    )
}

#[tokio::test]
async fn kyma_functions_install_serve_update_and_delete_on_a_real_cluster() {
    let Some(kubeconfig) = std::env::var_os("SHOAL_E2E_KUBECONFIG").map(PathBuf::from) else {
        // Straight to the stderr handle: libtest captures eprintln! of a
        // passing test, and this line must be seen.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "SKIP e2e: SHOAL_E2E_KUBECONFIG is not set. Point it at a kubeconfig of a cluster \
             (and set SHOAL_E2E_IMAGE_REGISTRY / SHOAL_E2E_IMAGE_TAG to pullable images) to run it; \
             see tests/e2e.rs for what the cluster needs."
        );
        return;
    };
    let config = kube::Config::from_custom_kubeconfig(
        kube::config::Kubeconfig::read_from(&kubeconfig).expect("reading SHOAL_E2E_KUBECONFIG"),
        &kube::config::KubeConfigOptions::default(),
    )
    .await
    .expect("kubeconfig");
    let client = kube::Client::try_from(config).expect("client");
    let suffix = std::process::id();
    let cluster = Cluster {
        kubeconfig,
        namespace: format!("shoal-e2e-{suffix}"),
        client,
    };

    if std::env::var_os("SHOAL_E2E_SKIP_INSTALL").is_none() {
        let registry = std::env::var("SHOAL_E2E_IMAGE_REGISTRY").expect("SHOAL_E2E_IMAGE_REGISTRY");
        let tag = std::env::var("SHOAL_E2E_IMAGE_TAG").unwrap_or_else(|_| "dev".into());
        let chart = shoal_tests::workspace_root().join("charts/shoal");
        let mut args: Vec<String> = [
            "upgrade",
            "--install",
            RELEASE,
            chart.to_str().expect("path"),
            "--namespace",
            SYSTEM_NAMESPACE,
            "--create-namespace",
            "--set",
            &format!("image.registry={registry}"),
            "--set",
            &format!("image.tag={tag}"),
            "--wait",
            "--timeout",
            "5m",
        ]
        .map(str::to_string)
        .to_vec();
        if eventing() {
            args.extend(["--set".into(), "eventing.enabled=true".into()]);
            if let Ok(image) = std::env::var("SHOAL_E2E_NATS_IMAGE") {
                args.extend(["--set".into(), format!("eventing.nats.image={image}")]);
            }
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (ok, out) = cluster.run("helm", &args, None);
        assert!(ok, "helm install failed:\n{out}");
        // The chart's own check: a hello Function applied, Running, called.
        let (ok, out) = cluster.run(
            "helm",
            &[
                "test",
                RELEASE,
                "--namespace",
                SYSTEM_NAMESPACE,
                "--timeout",
                "6m",
                "--logs",
            ],
            None,
        );
        assert!(ok, "helm test failed:\n{out}");
    }

    let ns = cluster.namespace.clone();
    cluster.kubectl(&["create", "namespace", &ns], None);
    cluster.kubectl(
        &[
            "create",
            "configmap",
            "e2e-config",
            "-n",
            &ns,
            "--from-literal=value=config-value",
        ],
        None,
    );
    cluster.kubectl(
        &[
            "create",
            "secret",
            "generic",
            "e2e-secret",
            "-n",
            &ns,
            "--from-literal=value=secret-value",
        ],
        None,
    );

    // A Shoal-refused runtime is refused at apply time, with the reason.
    let python = format!(
        "apiVersion: serverless.kyma-project.io/v1alpha2\nkind: Function\nmetadata:\n  name: py\n  namespace: {ns}\nspec:\n  runtime: python312\n  source:\n    inline:\n      source: |\n        def main(event, context):\n          return 'hi'\n"
    );
    let (ok, out) = cluster.run("kubectl", &["apply", "-f", "-"], Some(&python));
    assert!(
        !ok && out.contains("Shoal runs Node.js Functions only"),
        "python was not refused:\n{out}"
    );

    // Kyma's integration test: env from a ConfigMap and a Secret.
    let source = "module.exports = {\n  main: function (event, context) {\n    return process.env.CM_VALUE + '-' + process.env.SECRET_VALUE;\n  }\n};";
    cluster.kubectl(
        &["apply", "-f", "-"],
        Some(&function_yaml(&ns, "env-test", source, None)),
    );
    let function = cluster.wait_running("env-test", 1).await;
    let status = function.status.expect("status");
    assert!(status.artifact.as_deref().is_some_and(|a| a.contains("@sha256:")));
    assert_eq!(status.runtime.as_deref(), Some("nodejs22"));
    let service: Service = Api::namespaced(cluster.client.clone(), &ns)
        .get("env-test")
        .await
        .expect("Service named after the Function");
    let port = &service.spec.expect("spec").ports.expect("ports")[0];
    assert_eq!((port.name.as_deref(), port.port), (Some("http"), 80));
    cluster.curl_until("env-test", "config-value-secret-value");
    // The node pods read exactly what the Function references: its Secret
    // and ConfigMap, and no other Secret in its namespace or elsewhere.
    let node_account = format!("system:serviceaccount:{SYSTEM_NAMESPACE}:{RELEASE}-node");
    for (object, namespace, expected) in [
        ("secret/e2e-secret", ns.as_str(), "yes"),
        ("configmap/e2e-config", ns.as_str(), "yes"),
        ("secret/unreferenced", ns.as_str(), "no"),
        ("secrets", ns.as_str(), "no"),
        ("secrets", "kube-system", "no"),
        ("secret/shoal-webhook-tls", SYSTEM_NAMESPACE, "no"),
    ] {
        let (_, answer) = cluster.run(
            "kubectl",
            &["auth", "can-i", "get", object, "-n", namespace, "--as", &node_account],
            None,
        );
        assert_eq!(
            answer.trim(),
            expected,
            "may the node's ServiceAccount get {object} in {namespace}?"
        );
    }
    // Behind an APIRule the request keeps its external Host.
    cluster.curl_with_host_until("env-test", Some("orders.example.com"), "config-value-secret-value");

    // Update, as Kyma's test does: with a new npm dependency where builds
    // can reach the npm registry, else with new source only (the
    // clusters this suite runs on may give pods no route out).
    if std::env::var_os("SHOAL_E2E_NPM_EGRESS").is_some() {
        let updated = "const _ = require('lodash');\nmodule.exports = {\n  main: function (event, context) {\n    return _.kebabCase(process.env.CM_VALUE + ' ' + process.env.SECRET_VALUE + ' v2');\n  }\n};";
        cluster.kubectl(
            &["apply", "-f", "-"],
            Some(&function_yaml(
                &ns,
                "env-test",
                updated,
                Some("{\n  \"dependencies\": {\n    \"lodash\": \"^4.17.21\"\n  }\n}"),
            )),
        );
        cluster.wait_running("env-test", 2).await;
        cluster.curl_until("env-test", "config-value-secret-value-v-2");
    } else {
        let updated = "module.exports = {\n  main: function (event, context) {\n    return [process.env.CM_VALUE, process.env.SECRET_VALUE, 'v2'].join('-');\n  }\n};";
        cluster.kubectl(
            &["apply", "-f", "-"],
            Some(&function_yaml(&ns, "env-test", updated, None)),
        );
        cluster.wait_running("env-test", 2).await;
        cluster.curl_until("env-test", "config-value-secret-value-v2");
    }

    // Kyma's newest runtime: nodejs26's main(req, res) and its sdk module.
    let modern = "const { getFunctionName, getNamespace } = require('sdk');\nmodule.exports = {\n  main: function (req, res) {\n    res.send(`${getNamespace()}/${getFunctionName()}: ${process.env.CM_VALUE} ${req.query.who || 'anyone'}`);\n  }\n};";
    cluster.kubectl(
        &["apply", "-f", "-"],
        Some(&function_yaml(&ns, "modern", modern, None).replace("runtime: nodejs22", "runtime: nodejs26")),
    );
    let function = cluster.wait_running("modern", 1).await;
    assert_eq!(function.status.and_then(|s| s.runtime).as_deref(), Some("nodejs26"));
    cluster.curl_until("modern", &format!("{ns}/modern: config-value anyone"));

    // A tenant's pod reaching the registry gets nothing without
    // credentials: no catalog, no module, no delete.
    let registry = format!("http://{RELEASE}-registry.{SYSTEM_NAMESPACE}.svc.cluster.local:5000");
    for (pod, method, path) in [
        ("registry-catalog", "GET", "/v2/_catalog".to_string()),
        (
            "registry-manifest",
            "GET",
            format!("/v2/functions/{ns}/env-test/manifests/latest"),
        ),
        (
            "registry-delete",
            "DELETE",
            format!("/v2/functions/{ns}/env-test/manifests/latest"),
        ),
    ] {
        let (_, code) = cluster.curl_once(
            pod,
            &[
                "-o",
                "/dev/null",
                "-w",
                "%{http_code}",
                "-X",
                method,
                &format!("{registry}{path}"),
            ],
        );
        assert_eq!(code.trim(), "401", "{method} {path} from a tenant's pod");
    }

    // A tenant's pod that finds a builder pod builds nothing: the request
    // is not signed with the controller's key. The builder pod holds no
    // API token.
    let pods: Api<k8s_openapi::api::core::v1::Pod> = Api::namespaced(cluster.client.clone(), SYSTEM_NAMESPACE);
    let builders = pods
        .list(&kube::api::ListParams::default().labels("app.kubernetes.io/component=builder"))
        .await
        .expect("builder pods");
    let builder = builders.items.first().expect("a builder pod");
    let builder_ip = builder
        .status
        .as_ref()
        .and_then(|s| s.pod_ip.clone())
        .expect("builder IP");
    let spec = builder.spec.as_ref().expect("builder spec");
    assert_eq!(spec.automount_service_account_token, Some(false));
    assert!(
        spec.volumes.iter().flatten().all(|v| v.projected.is_none()),
        "no projected (token) volume on the builder pod"
    );
    let request = serde_json::json!({"namespace": ns, "name": "env-test", "hash": "ab", "runtime": "nodejs22",
        "source": "module.exports = { main: () => 'forged' };", "limits": {"memory_bytes": 1, "deadline_secs": 1}});
    let (_, code) = cluster.curl_once(
        "builder-unsigned",
        &[
            "-o",
            "/dev/null",
            "-w",
            "%{http_code}",
            "-X",
            "POST",
            "-H",
            "content-type: application/json",
            "--data",
            &request.to_string(),
            &format!("http://{builder_ip}:8090/v1/builds"),
        ],
    );
    assert_eq!(code.trim(), "401", "an unsigned build request from a tenant's pod");

    // Isolation: a Function reaches none of the cluster's insides. The
    // egress policy decides on resolved addresses before connecting, so
    // every one of these is refused without a packet sent.
    let slices: Api<EndpointSlice> = Api::namespaced(cluster.client.clone(), &ns);
    let slice = slices.get("env-test-shoal").await.expect("env-test's EndpointSlice");
    let node_ip = slice.endpoints[0].addresses[0].clone();
    let function_port = slice.ports.as_ref().and_then(|p| p[0].port).expect("a port");
    let targets = serde_json::json!({
        "apiserver": "https://kubernetes.default.svc/version",
        "registry": format!("http://{RELEASE}-registry.{SYSTEM_NAMESPACE}.svc:5000/v2/"),
        "function-pod": format!("http://{node_ip}:{function_port}/"),
        "node-port": format!("http://{node_ip}:8080/metrics"),
    });
    let probe = format!(
        "const targets = {targets};\nmodule.exports = {{\n  main: async function () {{\n    const out = [];\n    for (const [name, url] of Object.entries(targets)) {{\n      try {{ const r = await fetch(url); out.push(name + ':reached(' + r.status + ')'); }}\n      catch (e) {{ const m = e.message + ' ' + (e.cause ? e.cause.message : ''); out.push(name + (/egress policy/.test(m) ? ':refused' : ':failed(' + m + ')')); }}\n    }}\n    return out.join(' ');\n  }}\n}};"
    );
    cluster.kubectl(&["apply", "-f", "-"], Some(&function_yaml(&ns, "probe", &probe, None)));
    cluster.wait_running("probe", 1).await;
    // (The targets come back in the JSON object's key order.)
    cluster.curl_until(
        "probe",
        "apiserver:refused function-pod:refused node-port:refused registry:refused",
    );

    // Delete: the Service and EndpointSlice go with it.
    cluster.kubectl(
        &[
            "delete",
            "function",
            "env-test",
            "-n",
            &ns,
            "--wait=true",
            "--timeout=120s",
        ],
        None,
    );
    let services: Api<Service> = Api::namespaced(cluster.client.clone(), &ns);
    let deadline = Instant::now() + Duration::from_secs(120);
    while services.get_opt("env-test").await.expect("get").is_some()
        || slices.get_opt("env-test-shoal").await.expect("get").is_some()
    {
        assert!(Instant::now() < deadline, "Service or EndpointSlice left behind");
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
    if eventing() {
        events_between_functions(&cluster).await;
    }
    cluster.kubectl(&["delete", "namespace", &ns, "--wait=false"], None);
}

fn eventing() -> bool {
    std::env::var_os("SHOAL_E2E_EVENTING").is_some()
}

/// A Subscription, a Function emitting with `emitCloudEvent` and one
/// receiving: the receiver's answer shows the event it was delivered.
async fn events_between_functions(cluster: &Cluster) {
    let ns = &cluster.namespace;
    let emitter = "module.exports = {\n  main: async function (event) {\n    await event.emitCloudEvent('order.created.v1', 'shop', { orderCode: event.extensions.request.query.code }, {});\n    return 'emitted';\n  }\n};";
    let receiver = "let last = 'nothing yet';\nmodule.exports = {\n  main: function (event) {\n    if (event['ce-type']) last = event['ce-type'] + ' from ' + event['ce-source'] + ': ' + JSON.stringify(event.data);\n    return last;\n  }\n};";
    cluster.kubectl(
        &["apply", "-f", "-"],
        Some(&function_yaml(ns, "emitter", emitter, None)),
    );
    cluster.kubectl(
        &["apply", "-f", "-"],
        Some(&function_yaml(ns, "receiver", receiver, None)),
    );
    let subscription = format!(
        "apiVersion: eventing.kyma-project.io/v1alpha2\nkind: Subscription\nmetadata:\n  name: orders\n  namespace: {ns}\nspec:\n  sink: http://receiver.{ns}.svc.cluster.local\n  source: shop\n  types:\n    - order.created.v1\n"
    );
    cluster.kubectl(&["apply", "-f", "-"], Some(&subscription));
    cluster.wait_running("emitter", 1).await;
    cluster.wait_running("receiver", 1).await;
    let subscriptions: Api<shoal_api::Subscription> = Api::namespaced(cluster.client.clone(), ns);
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let s = subscriptions.get("orders").await.expect("the Subscription");
        if s.status.as_ref().is_some_and(|st| st.ready) {
            break;
        }
        assert!(Instant::now() < deadline, "Subscription never ready: {:?}", s.status);
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    // The emitter's answer says the publisher took the event; the receiver's
    // shows it once delivered (any node pod may have served it: asked until
    // one that did answers).
    let emitter_url = format!("http://emitter.{ns}.svc.cluster.local/?code=e2e-42");
    let (phase, out) = cluster.curl_once("emit", &[&emitter_url]);
    assert!(
        out.contains("emitted"),
        "the emitter answered {out:?} (curl pod {phase})"
    );
    cluster.curl_until("receiver", r#"order.created.v1 from shop: {"orderCode":"e2e-42"}"#);
}
