//! The Helm chart, checked with a real helm binary (`.ci/setup` installs it
//! into .ci/bin): lint and template with the default values and with
//! `charts/shoal/ci/external-istio-values.yaml`, then the rendered manifests:
//! every kind present, the CRD equal to the generated one, the webhook wiring
//! consistent with the controller, labels and selectors consistent, and RBAC
//! equal to the API calls the controller and node code make — recorded by
//! running them against the mock API — with no wildcards.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use http::Method;
use k8s_openapi::api::core::v1::Pod;
use kube::runtime::reflector;
use serde::Deserialize;
use serde_json::{Value, json};
use shoal_api::Function;
use shoal_controller::{Context, ControllerConfig, NodeView};
use shoal_tests::fake_kube::{Call, FakeKube, object_path};
use shoal_tests::fake_watches::FakeWatches;

const RELEASE_NS: &str = "shoal-system";
const NON_DEFAULT: &str = "charts/shoal/ci/external-istio-values.yaml";
/// A digest in the only form Shoal accepts (sha256, 64 lowercase hex digits).
const DIGEST: &str = "sha256:1111111111111111111111111111111111111111111111111111111111111111";

fn helm() -> PathBuf {
    let local = shoal_tests::workspace_root().join(".ci/bin/helm");
    assert!(
        local.exists(),
        "helm is missing: run .ci/setup (it installs helm into .ci/bin)"
    );
    local
}

fn helm_run(args: &[&str]) -> String {
    let out = Command::new(helm())
        .args(args)
        .current_dir(shoal_tests::workspace_root())
        .output()
        .expect("running helm");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "helm {args:?} failed:\n{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

struct Rendered {
    objects: Vec<Value>,
}

impl Rendered {
    fn render(values: Option<&str>) -> Self {
        let mut args = vec![
            "template",
            "shoal",
            "charts/shoal",
            "--namespace",
            RELEASE_NS,
            "--include-crds",
        ];
        if let Some(v) = values {
            args.extend(["--values", v]);
        }
        let text = helm_run(&args);
        let objects = serde_yaml::Deserializer::from_str(&text)
            .filter_map(|doc| {
                let value = Value::deserialize(doc).ok()?;
                (!value.is_null()).then_some(value)
            })
            .collect();
        Self { objects }
    }

    fn kinds(&self) -> BTreeMap<String, usize> {
        let mut kinds = BTreeMap::new();
        for o in &self.objects {
            *kinds.entry(o["kind"].as_str().unwrap_or("").to_string()).or_default() += 1;
        }
        kinds
    }

    fn find(&self, kind: &str, name: &str) -> &Value {
        self.objects
            .iter()
            .find(|o| o["kind"] == kind && o["metadata"]["name"] == name)
            .unwrap_or_else(|| panic!("no {kind} {name} rendered"))
    }

    fn all(&self, kind: &str) -> Vec<&Value> {
        self.objects.iter().filter(|o| o["kind"] == kind).collect()
    }
}

fn container<'a>(deployment: &'a Value, name: &str) -> &'a Value {
    deployment["spec"]["template"]["spec"]["containers"]
        .as_array()
        .expect("containers")
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no container {name}"))
}

fn env<'a>(container: &'a Value, name: &str) -> &'a Value {
    container["env"]
        .as_array()
        .expect("env")
        .iter()
        .find(|e| e["name"] == name)
        .unwrap_or_else(|| panic!("no env {name}"))
}

fn env_value(container: &Value, name: &str) -> String {
    env(container, name)["value"].as_str().unwrap_or("").to_string()
}

fn port_named(container: &Value, name: &str) -> i64 {
    container["ports"]
        .as_array()
        .expect("ports")
        .iter()
        .find(|p| p["name"] == name)
        .and_then(|p| p["containerPort"].as_i64())
        .unwrap_or_else(|| panic!("no port {name}"))
}

fn labels_subset(selector: &Value, labels: &Value) -> bool {
    selector
        .as_object()
        .is_some_and(|s| !s.is_empty() && s.iter().all(|(k, v)| labels[k] == *v))
}

#[test]
fn helm_lint_passes_for_default_and_non_default_values() {
    let out = helm_run(&["lint", "charts/shoal"]);
    assert!(out.contains("0 chart(s) failed"), "{out}");
    let out = helm_run(&["lint", "charts/shoal", "--values", NON_DEFAULT]);
    assert!(out.contains("0 chart(s) failed"), "{out}");
}

#[test]
fn default_values_render_every_kind_with_consistent_wiring() {
    let rendered = Rendered::render(None);
    let kinds = rendered.kinds();
    for (kind, at_least) in [
        ("CustomResourceDefinition", 1),
        ("Deployment", 3),
        ("ServiceAccount", 3),
        ("ClusterRole", 2),
        ("ClusterRoleBinding", 2),
        ("Role", 3),
        ("RoleBinding", 3),
        ("Service", 4),
        ("MutatingWebhookConfiguration", 1),
        ("ValidatingWebhookConfiguration", 1),
        ("HorizontalPodAutoscaler", 1),
        ("PodDisruptionBudget", 1),
        ("Pod", 1),
    ] {
        assert!(kinds.get(kind).copied().unwrap_or(0) >= at_least, "{kind}: {kinds:?}");
    }

    // The CRD the chart installs is the one the types generate.
    let crd = rendered.find("CustomResourceDefinition", "functions.serverless.kyma-project.io");
    assert_eq!(*crd, serde_json::to_value(shoal_controller::crd::crd()).unwrap());

    check_webhook_wiring(&rendered);
    check_selectors(&rendered);

    // The in-cluster registry is what builds push to and nodes pull from.
    let controller = container(rendered.find("Deployment", "shoal-controller"), "controller");
    let registry_host = "shoal-registry.shoal-system.svc.cluster.local:5000";
    assert_eq!(
        env_value(controller, "SHOAL_REGISTRY"),
        format!("{registry_host}/functions")
    );
    assert_eq!(env_value(controller, "SHOAL_INSECURE_REGISTRIES"), registry_host);
    let service = rendered.find("Service", "shoal-registry");
    assert_eq!(service["spec"]["ports"][0]["port"], 5000);
    // No one deletes a module from the in-cluster registry.
    let registry = container(rendered.find("Deployment", "shoal-registry"), "registry");
    assert_eq!(env_value(registry, "REGISTRY_STORAGE_DELETE_ENABLED"), "false");
    let node = container(rendered.find("Deployment", "shoal-node"), "node");
    assert_eq!(env_value(node, "SHOAL_INSECURE_REGISTRIES"), registry_host);
    // Nodes serve each Function only from its own artifact there.
    assert_eq!(
        env_value(node, "SHOAL_ARTIFACT_PREFIX"),
        format!("{registry_host}/functions")
    );
    assert_eq!(
        env_value(controller, "SHOAL_BUILDER_IMAGE"),
        "ghcr.io/shoal-dev/shoal-builder:0.1.0"
    );

    // Alive on /healthz, ready on /readyz (once its Functions are loaded);
    // every Shoal container non-root with a read-only root.
    for (probe, path) in [("readinessProbe", "/readyz"), ("livenessProbe", "/healthz")] {
        assert_eq!(node[probe]["httpGet"]["path"], path);
        assert_eq!(node[probe]["httpGet"]["port"], "http");
    }
    for deployment in rendered.all("Deployment") {
        for c in deployment["spec"]["template"]["spec"]["containers"].as_array().unwrap() {
            assert_eq!(c["securityContext"]["readOnlyRootFilesystem"], true, "{}", c["name"]);
            assert_eq!(c["securityContext"]["allowPrivilegeEscalation"], false);
        }
        assert_eq!(
            deployment["spec"]["template"]["spec"]["securityContext"]["runAsNonRoot"],
            true
        );
    }
    let hpa = rendered.find("HorizontalPodAutoscaler", "shoal-node");
    assert_eq!(
        (hpa["spec"]["minReplicas"].as_i64(), hpa["spec"]["maxReplicas"].as_i64()),
        (Some(2), Some(10))
    );
    assert_eq!(
        rendered.find("Deployment", "shoal-node")["spec"]["template"]["metadata"]["labels"]["sidecar.istio.io/inject"],
        "false"
    );

    // The helm test hook runs the smoke test.
    let test = rendered.find("Pod", "shoal-smoke-test");
    assert_eq!(test["metadata"]["annotations"]["helm.sh/hook"], "test");
    assert_eq!(test["spec"]["containers"][0]["args"][0], "smoke-test");
}

#[test]
fn non_default_values_render_external_registry_istio_and_hpa_bounds() {
    let rendered = Rendered::render(Some(NON_DEFAULT));
    assert!(
        !rendered
            .all("Deployment")
            .iter()
            .any(|d| d["metadata"]["name"] == "shoal-registry"),
        "no in-cluster registry with an external one"
    );
    check_webhook_wiring(&rendered);
    check_selectors(&rendered);

    let secret = rendered.find("Secret", "shoal-registry-credentials");
    assert_eq!(secret["stringData"]["username"], "shoal-pusher");
    assert_eq!(secret["stringData"]["password"], "s3cret");
    let controller = container(rendered.find("Deployment", "shoal-controller"), "controller");
    assert_eq!(
        env_value(controller, "SHOAL_REGISTRY"),
        "registry.example.com/platform/functions"
    );
    assert_eq!(
        env_value(controller, "SHOAL_REGISTRY_SECRET"),
        "shoal-registry-credentials"
    );
    assert_eq!(env_value(controller, "SHOAL_INSECURE_REGISTRIES"), "");
    assert_eq!(env_value(controller, "SHOAL_DEFAULT_FUNCTION_PRESET"), "M");
    assert_eq!(env_value(controller, "SHOAL_MAX_CONCURRENT_BUILDS"), "2");
    assert_eq!(
        env_value(controller, "SHOAL_BUILDER_IMAGE"),
        "registry.example.com/platform/shoal-builder:1.2.3"
    );
    let node_deployment = rendered.find("Deployment", "shoal-node");
    let node = container(node_deployment, "node");
    for (var, key) in [
        ("SHOAL_REGISTRY_USER", "username"),
        ("SHOAL_REGISTRY_PASSWORD", "password"),
    ] {
        let from = &env(node, var)["valueFrom"]["secretKeyRef"];
        assert_eq!(
            (from["name"].as_str(), from["key"].as_str()),
            (Some("shoal-registry-credentials"), Some(key))
        );
    }
    assert_eq!(env_value(node, "FUNC_TIMEOUT"), "30");
    assert_eq!(env_value(node, "REQ_MB_LIMIT"), "4");
    assert_eq!(
        env_value(node, "TRACE_COLLECTOR_ENDPOINT"),
        "http://telemetry-otlp-traces.kyma-system:4318/v1/traces",
        "nodes export traces to Kyma's collector"
    );
    assert!(
        node["args"]
            .as_array()
            .unwrap()
            .contains(&json!("--memory-budget-mb=1024"))
    );

    let template = &node_deployment["spec"]["template"];
    assert_eq!(template["metadata"]["labels"]["sidecar.istio.io/inject"], "true");
    assert_eq!(
        template["metadata"]["annotations"]["sidecar.istio.io/rewriteAppHTTPProbers"],
        "true"
    );
    assert_eq!(template["spec"]["imagePullSecrets"][0]["name"], "platform-pull");
    // The controller never gets a sidecar: the API server calls it directly.
    assert_eq!(
        rendered.find("Deployment", "shoal-controller")["spec"]["template"]["metadata"]["labels"]["sidecar.istio.io/inject"],
        "false"
    );
    let hpa = rendered.find("HorizontalPodAutoscaler", "shoal-node");
    assert_eq!(
        (hpa["spec"]["minReplicas"].as_i64(), hpa["spec"]["maxReplicas"].as_i64()),
        (Some(3), Some(25))
    );
    assert_eq!(
        hpa["spec"]["metrics"][0]["resource"]["target"]["averageUtilization"].as_i64(),
        Some(60)
    );
    assert_eq!(
        rendered.find("PodDisruptionBudget", "shoal-node")["spec"]["minAvailable"],
        2
    );
}

fn check_webhook_wiring(rendered: &Rendered) {
    let deployment = rendered.find("Deployment", "shoal-controller");
    let controller = container(deployment, "controller");
    let listen = env_value(controller, "SHOAL_WEBHOOK_LISTEN");
    let listen_port: i64 = listen.rsplit(':').next().unwrap().parse().unwrap();
    assert_eq!(port_named(controller, "webhook"), listen_port);
    let service_name = env_value(controller, "SHOAL_WEBHOOK_SERVICE");
    let service = rendered.find("Service", &service_name);
    assert!(labels_subset(
        &service["spec"]["selector"],
        &deployment["spec"]["template"]["metadata"]["labels"]
    ));
    for (kind, env_name, path) in [
        (
            "MutatingWebhookConfiguration",
            "SHOAL_MUTATING_WEBHOOK",
            shoal_controller::webhook::MUTATE_PATH,
        ),
        (
            "ValidatingWebhookConfiguration",
            "SHOAL_VALIDATING_WEBHOOK",
            shoal_controller::webhook::VALIDATE_PATH,
        ),
    ] {
        let config = rendered.find(kind, &env_value(controller, env_name));
        let webhook = &config["webhooks"][0];
        let target = &webhook["clientConfig"]["service"];
        assert_eq!(
            target["name"],
            service_name.as_str(),
            "{kind} names the webhook Service"
        );
        assert_eq!(target["namespace"], RELEASE_NS);
        assert_eq!(target["path"], path, "{kind} path matches the controller's handler");
        let port = service["spec"]["ports"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["port"] == target["port"])
            .unwrap_or_else(|| panic!("{kind} port {} is not on the Service", target["port"]));
        assert_eq!(
            port["targetPort"], "webhook",
            "the Service forwards to the webhook port"
        );
        assert_eq!(webhook["rules"][0]["resources"], json!(["functions"]));
        assert_eq!(webhook["sideEffects"], "None");
    }
}

fn check_selectors(rendered: &Rendered) {
    for deployment in rendered.all("Deployment") {
        assert!(
            labels_subset(
                &deployment["spec"]["selector"]["matchLabels"],
                &deployment["spec"]["template"]["metadata"]["labels"]
            ),
            "{} selects its own pods",
            deployment["metadata"]["name"]
        );
    }
    for service in rendered.all("Service") {
        let selects_something = rendered.all("Deployment").iter().any(|d| {
            labels_subset(
                &service["spec"]["selector"],
                &d["spec"]["template"]["metadata"]["labels"],
            )
        });
        assert!(
            selects_something,
            "Service {} selects no pods",
            service["metadata"]["name"]
        );
    }
    let node = rendered.find("Deployment", "shoal-node");
    let node_labels = &node["spec"]["template"]["metadata"]["labels"];
    let pdb = rendered.find("PodDisruptionBudget", "shoal-node");
    assert!(labels_subset(&pdb["spec"]["selector"]["matchLabels"], node_labels));
    let hpa = rendered.find("HorizontalPodAutoscaler", "shoal-node");
    assert_eq!(hpa["spec"]["scaleTargetRef"]["name"], "shoal-node");
    let controller = container(rendered.find("Deployment", "shoal-controller"), "controller");
    let selector: Value = env_value(controller, "SHOAL_NODE_SELECTOR")
        .split(',')
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap();
            (k.to_string(), json!(v))
        })
        .collect::<serde_json::Map<_, _>>()
        .into();
    assert!(
        labels_subset(&selector, node_labels),
        "the controller's node selector matches the node pods"
    );
    assert_eq!(
        env_value(controller, "SHOAL_NODE_PORT").parse::<i64>().unwrap(),
        port_named(container(node, "node"), "http"),
        "Function Services target the node's http port"
    );
    // The per-node ServiceAccounts are the ones the RBAC binds.
    for (deployment, role) in [("shoal-controller", "shoal-controller"), ("shoal-node", "shoal-node")] {
        let account = rendered.find("Deployment", deployment)["spec"]["template"]["spec"]["serviceAccountName"].clone();
        let binding = rendered.find("ClusterRoleBinding", role);
        assert_eq!(binding["subjects"][0]["name"], account);
        assert_eq!(binding["subjects"][0]["namespace"], RELEASE_NS);
    }
}

/// One permission: (apiGroup, resource, verb), optionally for one name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Permission {
    group: String,
    resource: String,
    verb: String,
    /// Namespace of the call; None for cluster-wide.
    namespace: Option<String>,
    name: Option<String>,
}

/// Turns recorded REST calls into the permissions they need.
fn permissions(calls: &[Call]) -> BTreeSet<Permission> {
    let mut out = BTreeSet::new();
    for call in calls {
        let segments: Vec<&str> = call.path.trim_matches('/').split('/').collect();
        let (group, rest) = match segments.as_slice() {
            ["api", "v1", rest @ ..] => (String::new(), rest.to_vec()),
            ["apis", group, _version, rest @ ..] => (group.to_string(), rest.to_vec()),
            _ => panic!("unexpected path {}", call.path),
        };
        let (namespace, rest) = match rest.as_slice() {
            ["namespaces", ns, rest @ ..] => (Some(ns.to_string()), rest.to_vec()),
            _ => (None, rest),
        };
        let (resource, name, sub) = match rest.as_slice() {
            [resource] => (resource.to_string(), None, None),
            [resource, name] => (resource.to_string(), Some(name.to_string()), None),
            [resource, name, sub] => (resource.to_string(), Some(name.to_string()), Some(sub.to_string())),
            _ => panic!("unexpected path {}", call.path),
        };
        let resource = match sub {
            Some(sub) => format!("{resource}/{sub}"),
            None => resource,
        };
        let apply = call.query.contains("fieldManager=") && call.method == Method::PATCH;
        let verbs: Vec<&str> = match (&call.method, &name) {
            (&Method::GET, Some(_)) => vec!["get"],
            (&Method::GET, None) => vec!["list"],
            (&Method::POST, _) => vec!["create"],
            // Server-side apply creates what does not exist yet.
            (&Method::PATCH, _) if apply && !resource.contains('/') => vec!["patch", "create"],
            (&Method::PATCH, _) => vec!["patch"],
            (&Method::DELETE, _) => vec!["delete"],
            (&Method::PUT, Some(_)) => vec!["update"],
            (m, _) => panic!("unexpected method {m}"),
        };
        for verb in verbs {
            out.insert(Permission {
                group: group.clone(),
                resource: resource.clone(),
                verb: verb.to_string(),
                namespace: namespace.clone(),
                name: name.clone(),
            });
        }
    }
    out
}

fn watches(list: &[(&str, &str, bool)], own_namespace: &str) -> BTreeSet<Permission> {
    list.iter()
        .flat_map(|(group, resource, cluster_wide)| {
            ["list", "watch"].map(|verb| Permission {
                group: group.to_string(),
                resource: resource.to_string(),
                verb: verb.to_string(),
                namespace: (!cluster_wide).then(|| own_namespace.to_string()),
                name: None,
            })
        })
        .collect()
}

/// The rules bound to a ServiceAccount: (rule, namespace of a Role or None).
fn rules_for<'a>(rendered: &'a Rendered, account: &str) -> Vec<(&'a Value, Option<String>)> {
    let mut out = Vec::new();
    for (binding_kind, role_kind) in [("ClusterRoleBinding", "ClusterRole"), ("RoleBinding", "Role")] {
        for binding in rendered.all(binding_kind) {
            if !binding["subjects"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s["kind"] == "ServiceAccount" && s["name"] == account)
            {
                continue;
            }
            let role = rendered.find(role_kind, binding["roleRef"]["name"].as_str().unwrap());
            let namespace = role["metadata"]["namespace"].as_str().map(str::to_string);
            for rule in role["rules"].as_array().unwrap() {
                out.push((rule, namespace.clone()));
            }
        }
    }
    out
}

fn allows(rule: &Value, scope: &Option<String>, p: &Permission) -> bool {
    let has = |field: &str, value: &str| rule[field].as_array().is_some_and(|a| a.iter().any(|v| v == value));
    let in_scope = match (scope, &p.namespace) {
        (None, _) => true,
        (Some(role_ns), Some(ns)) => role_ns == ns,
        (Some(_), None) => false,
    };
    let name_ok = match rule["resourceNames"].as_array() {
        None => true,
        Some(names) => p.name.as_ref().is_some_and(|n| names.iter().any(|v| v == n.as_str())),
    };
    in_scope && name_ok && has("apiGroups", &p.group) && has("resources", &p.resource) && has("verbs", &p.verb)
}

/// Asserts the account's RBAC grants every permission and nothing unused.
fn assert_exact_rbac(rendered: &Rendered, account: &str, needed: &BTreeSet<Permission>) {
    let rules = rules_for(rendered, account);
    assert!(!rules.is_empty(), "{account} has no rules bound");
    for (rule, _) in &rules {
        for field in ["apiGroups", "resources", "verbs", "resourceNames"] {
            if let Some(values) = rule[field].as_array() {
                assert!(
                    !values.iter().any(|v| v == "*"),
                    "{account}: wildcard in {field}: {rule}"
                );
            }
        }
    }
    for p in needed {
        assert!(
            rules.iter().any(|(rule, scope)| allows(rule, scope, p)),
            "{account} may not {} {}{} {} (a call the code makes)",
            p.verb,
            if p.group.is_empty() {
                String::new()
            } else {
                format!("{}/", p.group)
            },
            p.resource,
            p.namespace
                .as_deref()
                .map(|ns| format!("in {ns}"))
                .unwrap_or_else(|| "cluster-wide".into())
        );
    }
    for (rule, scope) in &rules {
        for group in rule["apiGroups"].as_array().unwrap() {
            for resource in rule["resources"].as_array().unwrap() {
                for verb in rule["verbs"].as_array().unwrap() {
                    let used = needed.iter().any(|p| {
                        p.group == group.as_str().unwrap()
                            && p.resource == resource.as_str().unwrap()
                            && p.verb == verb.as_str().unwrap()
                            && allows(rule, scope, p)
                    });
                    assert!(
                        used,
                        "{account} is granted {verb} {group}/{resource} but the code never needs it"
                    );
                }
            }
        }
    }
}

/// What the controller made for Function `f` on the way, besides its
/// calls: the Role and RoleBinding granting the node pods read access to
/// what `f` references.
struct NodeAccess {
    role: Value,
    binding: Value,
}

/// Runs the controller code through every path that touches the API and
/// returns the calls it made.
async fn controller_calls(registry_secret: Option<&str>) -> (Vec<Call>, NodeAccess) {
    let fake = FakeKube::new();
    let (pods, mut pod_writer) = reflector::store::<Pod>();
    let (children, watches) = FakeWatches::new(&fake);
    let watches = std::sync::Mutex::new(watches);
    let ctx = Arc::new(Context::new(
        fake.client(),
        ControllerConfig {
            namespace: RELEASE_NS.into(),
            registry_secret: registry_secret.map(str::to_string),
            node_service_account: Some("shoal-node".into()),
            // As the chart wires it: the in-cluster registry's builds get
            // tokens, an external registry's get its credentials.
            registry_token_key: registry_secret
                .is_none()
                .then(|| shoal_oci::token::TokenKey::new(&[1; 32]).unwrap()),
            ..ControllerConfig::default()
        },
        NodeView::new(pods),
        children,
    ));
    if let Some(name) = registry_secret {
        fake.put(json!({"apiVersion": "v1", "kind": "Secret",
            "metadata": {"name": name, "namespace": RELEASE_NS}, "data": {"username": "dQ==", "password": "cA=="}}));
    }
    for kind in ["MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"] {
        let name = if kind.starts_with("Mutating") {
            "shoal-function-defaulting"
        } else {
            "shoal-function-validation"
        };
        fake.put(json!({"apiVersion": "admissionregistration.k8s.io/v1", "kind": kind,
            "metadata": {"name": name}, "webhooks": [{"name": "x.functions.serverless.kyma-project.io",
            "admissionReviewVersions": ["v1"], "sideEffects": "None", "clientConfig": {}}]}));
    }
    shoal_controller::webhook::patch_ca_bundle(
        fake.client(),
        "shoal-function-defaulting",
        "shoal-function-validation",
        "PEM",
    )
    .await
    .expect("caBundle");

    let path = object_path("serverless.kyma-project.io/v1alpha2", "Function", Some("apps"), "f");
    fake.put(
        json!({"apiVersion": "serverless.kyma-project.io/v1alpha2", "kind": "Function",
        "metadata": {"name": "f", "namespace": "apps"},
        "spec": {"source": {"inline": {"source": "module.exports = { main: () => 1 }"}}, "env": [
            {"name": "A", "valueFrom": {"configMapKeyRef": {"name": "cm", "key": "k"}}},
            {"name": "B", "valueFrom": {"secretKeyRef": {"name": "s", "key": "k"}}}]}}),
    );
    let reconcile = |fake: &Arc<FakeKube>| {
        let function: Function = fake.get_as(&path).expect("function");
        watches.lock().unwrap().sync();
        shoal_controller::reconcile(Arc::new(function), ctx.clone())
    };
    reconcile(&fake).await.expect("finalizer");
    reconcile(&fake).await.expect("build started");
    let jobs = fake.list("/apis/batch/v1/namespaces/apps/jobs");
    let job_path = object_path(
        "batch/v1",
        "Job",
        Some("apps"),
        jobs[0]["metadata"]["name"].as_str().unwrap(),
    );
    fake.update(&job_path, |j| {
        j["status"] = json!({"conditions": [{"type": "Failed", "status": "True"}]});
    });
    reconcile(&fake).await.expect("build failed");
    // A user deletes the failed Job to retry: the same build starts again,
    // and its Event is a repeat (an Event series, patched).
    let jobs_api: kube::Api<k8s_openapi::api::batch::v1::Job> = kube::Api::namespaced(fake.client(), "apps");
    jobs_api
        .delete(jobs[0]["metadata"]["name"].as_str().unwrap(), &Default::default())
        .await
        .expect("delete the failed Job");
    let test_delete = fake.calls().len() - 1;
    reconcile(&fake).await.expect("build started again");
    fake.update(&job_path, |j| {
        j["status"] = json!({"conditions": [{"type": "Complete", "status": "True"}]});
    });
    let job_uid = fake.get(&job_path).expect("the build Job")["metadata"]["uid"].clone();
    fake.put(json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "build-pod", "namespace": "apps", "labels": {"job-name": jobs[0]["metadata"]["name"]},
                     "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": jobs[0]["metadata"]["name"], "uid": job_uid}]},
        "status": {"containerStatuses": [{"name": "build", "image": "b", "imageID": "", "ready": false,
            "restartCount": 0, "state": {"terminated": {"exitCode": 0,
            "message": json!({"artifact": format!("localhost:5000/functions/apps/f@{DIGEST}")}).to_string()}}}]}}));
    // A ready node pod that serves the build.
    let pod: Pod = serde_json::from_value(json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "node-a", "namespace": RELEASE_NS},
        "status": {"podIP": "10.0.0.9", "conditions": [{"type": "Ready", "status": "True"}]}}))
    .unwrap();
    pod_writer.apply_watcher_event(&kube::runtime::watcher::Event::Apply(pod));
    let served = std::collections::BTreeSet::from([shoal_api::cluster::ServedFunction {
        namespace: "apps".into(),
        name: "f".into(),
        digest: DIGEST.into(),
    }]);
    let shard: k8s_openapi::api::core::v1::ConfigMap =
        serde_json::from_value(json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": shoal_api::cluster::node_status_name("node-a", 0), "namespace": RELEASE_NS},
        "data": {"functions": shoal_api::cluster::render_served(&served), "pod": "node-a"}}))
        .unwrap();
    ctx.nodes.statuses.apply(&kube::runtime::watcher::Event::Apply(shard));
    reconcile(&fake).await.expect("built and served");
    // The next pass, once the artifact is recorded, deletes the build Job.
    reconcile(&fake).await.expect("at rest");
    let access_name = shoal_api::cluster::node_access_name("f");
    let role_path = object_path("rbac.authorization.k8s.io/v1", "Role", Some("apps"), &access_name);
    let binding_path = object_path(
        "rbac.authorization.k8s.io/v1",
        "RoleBinding",
        Some("apps"),
        &access_name,
    );
    let access = NodeAccess {
        role: fake.get(&role_path).expect("the node's Role for f"),
        binding: fake.get(&binding_path).expect("the node's RoleBinding for f"),
    };
    // f stops referencing anything: the grant is withdrawn.
    fake.update(&path, |f| {
        f["spec"]["env"] = json!([]);
        f["metadata"]["generation"] = json!(2);
    });
    reconcile(&fake).await.expect("no more references");
    assert!(fake.get(&role_path).is_none() && fake.get(&binding_path).is_none());
    // A Function from a private Git repository: its auth Secret is read.
    let server = shoal_tests::git_server::GitHttpServer::start("dev", "t0ken").await;
    let repo = shoal_tests::git_server::Repo::create(server.root.path(), "fns.git");
    repo.commit(&[("g/handler.js", "module.exports = { main: () => 'g' };")], "g");
    fake.put(
        json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "git-creds", "namespace": "apps"},
        "data": {"username": "ZGV2", "password": "dDBrZW4="}}),
    );
    let git_path = object_path("serverless.kyma-project.io/v1alpha2", "Function", Some("apps"), "g");
    fake.put(
        json!({"apiVersion": "serverless.kyma-project.io/v1alpha2", "kind": "Function",
        "metadata": {"name": "g", "namespace": "apps"},
        "spec": {"source": {"gitRepository": {"url": format!("{}/fns.git", server.base), "baseDir": "g",
            "reference": "main", "auth": {"type": "basic", "secretName": "git-creds"}}}}}),
    );
    for _ in 0..2 {
        let function: Function = fake.get_as(&git_path).expect("function");
        watches.lock().unwrap().sync();
        shoal_controller::reconcile(Arc::new(function), ctx.clone())
            .await
            .expect("git Function");
    }
    assert_eq!(
        fake.get_as::<Function>(&git_path)
            .unwrap()
            .status
            .unwrap()
            .git_repository
            .unwrap()
            .url,
        format!("{}/fns.git", server.base)
    );

    let api: kube::Api<Function> = kube::Api::namespaced(fake.client(), "apps");
    api.delete("f", &Default::default()).await.expect("delete");
    let before_test_delete = fake.calls().len();
    reconcile(&fake).await.expect("cleanup");
    let mut calls = fake.calls();
    // The test's own deletes are not the controller's calls.
    calls.remove(before_test_delete - 1);
    calls.remove(test_delete);

    // Replicas share one webhook certificate, and one of them leads.
    shoal_controller::tls::WebhookCertificate::shared(fake.client(), RELEASE_NS, &["localhost".to_string()])
        .await
        .expect("webhook certificate");
    let elector = shoal_controller::leader::LeaderElector::new(
        fake.client(),
        shoal_controller::leader::LeaseConfig::new(RELEASE_NS, "controller-a"),
    );
    assert!(elector.try_acquire_or_renew().await.expect("acquire"));
    assert!(elector.try_acquire_or_renew().await.expect("renew"));
    elector.step_down().await.expect("step down");
    calls.extend(fake.calls().into_iter().skip(calls.len() + 2));
    // Events were recorded, and a repeat was patched.
    assert!(
        calls
            .iter()
            .any(|c| c.method == Method::POST && c.path.ends_with("/events"))
    );
    assert!(
        calls
            .iter()
            .any(|c| c.method == Method::PATCH && c.path.contains("/events/"))
    );
    (calls, access)
}

/// The permissions a Role grants, as the calls that use them would need
/// (one per named object, in the Role's namespace).
fn granted(role: &Value) -> BTreeSet<Permission> {
    let namespace = role["metadata"]["namespace"].as_str().map(str::to_string);
    let mut out = BTreeSet::new();
    for rule in role["rules"].as_array().expect("rules") {
        let strings = |field: &str| -> Vec<String> {
            rule[field]
                .as_array()
                .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect())
                .unwrap_or_default()
        };
        for group in strings("apiGroups") {
            for resource in strings("resources") {
                for verb in strings("verbs") {
                    for name in strings("resourceNames") {
                        out.insert(Permission {
                            group: group.clone(),
                            resource: resource.clone(),
                            verb: verb.clone(),
                            namespace: namespace.clone(),
                            name: Some(name),
                        });
                    }
                }
            }
        }
    }
    out
}

/// Runs the node sync through loading (env from a ConfigMap and a Secret)
/// and publishing, and returns its calls.
async fn node_calls() -> Vec<Call> {
    let fake = FakeKube::new();
    fake.put(json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm", "namespace": "apps"}, "data": {"k": "v"}}));
    fake.put(json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s", "namespace": "apps"}, "data": {"k": "dg=="}}));
    let function: Function = serde_json::from_value(json!({
        "apiVersion": "serverless.kyma-project.io/v1alpha2", "kind": "Function",
        "metadata": {"name": "f", "namespace": "apps"},
        "spec": {"source": {"inline": {"source": "x"}}, "env": [
            {"name": "A", "valueFrom": {"configMapKeyRef": {"name": "cm", "key": "k"}}},
            {"name": "B", "valueFrom": {"secretKeyRef": {"name": "s", "key": "k"}}}]},
        "status": {"artifact": format!("127.0.0.1:{}/apps/f@{DIGEST}", shoal_tests::free_port())}
    }))
    .unwrap();
    let table = Arc::new(shoal_node::FunctionTable::new(
        shoal_tests::runtime(),
        shoal_node::TableConfig {
            memory_budget: 64 << 20,
            artifact_dir: None,
            credentials: shoal_oci::Credentials::Anonymous,
            artifact_prefix: None,
            warm: shoal_node::WarmConfig::default(),
        },
    ));
    let sync = shoal_sync::NodeSync::new(
        fake.client(),
        table,
        shoal_sync::SyncConfig {
            pod_name: "node-a".into(),
            pod_namespace: RELEASE_NS.into(),
            pod_uid: Some("u".into()),
            defaults: Default::default(),
            publish_every: Duration::from_secs(1),
            retry_every: Duration::from_secs(30),
            concurrency: 16,
            secrets_dir: std::env::temp_dir().join(format!("shoal-secrets-{}", std::process::id())),
            secret_refresh_every: Duration::from_secs(30),
        },
    );
    // Nothing listens at the artifact's registry: the load fails, the env
    // reads and the publish still happen.
    assert!(sync.apply(Arc::new(function)).await.is_err());
    sync.publish().await.expect("publish");
    // The failure is published for the controller, with why.
    let status = fake
        .get(&object_path(
            "v1",
            "ConfigMap",
            Some(RELEASE_NS),
            &shoal_api::cluster::node_status_name("node-a", shoal_api::cluster::status_shard("apps", "f")),
        ))
        .expect("node status");
    let errors = status["data"]["errors"].as_str().unwrap_or_default();
    assert!(errors.starts_with("apps/f loading the module"), "{errors}");
    fake.calls()
}

#[tokio::test]
async fn rendered_rbac_is_exactly_the_api_calls_the_code_makes() {
    // Default values: no registry credentials to read. The controller
    // must also hold what the Roles it writes grant (Kubernetes refuses a
    // Role granting more than its writer has).
    let (calls, access) = controller_calls(None).await;
    let mut needed = permissions(&calls);
    needed.extend(watches(shoal_controller::reconcile::WATCHES, RELEASE_NS));
    needed.extend(granted(&access.role));
    let rendered = Rendered::render(None);
    assert_exact_rbac(&rendered, "shoal-controller", &needed);

    // With an external registry the controller also reads (only) its Secret.
    let (calls, _) = controller_calls(Some("shoal-registry-credentials")).await;
    let mut needed = permissions(&calls);
    needed.extend(watches(shoal_controller::reconcile::WATCHES, RELEASE_NS));
    needed.extend(granted(&access.role));
    assert!(needed.iter().any(|p| p.resource == "secrets" && p.verb == "get"));
    assert_exact_rbac(&Rendered::render(Some(NON_DEFAULT)), "shoal-controller", &needed);

    // The node reads a Function's Secrets and ConfigMaps only through the
    // Role the controller wrote for that Function, which grants exactly
    // those reads to the node's ServiceAccount; the chart grants the node
    // the rest, and no Secret at all.
    let mut needed = permissions(&node_calls().await);
    needed.extend(watches(shoal_sync::WATCHES, RELEASE_NS));
    let (through_role, from_chart): (BTreeSet<Permission>, BTreeSet<Permission>) = needed.into_iter().partition(|p| {
        p.namespace.as_deref() == Some("apps") && ["secrets", "configmaps"].contains(&p.resource.as_str())
    });
    assert_eq!(
        through_role,
        granted(&access.role),
        "the Role grants exactly the node's reads"
    );
    assert_eq!(
        access.binding["subjects"],
        json!([{"kind": "ServiceAccount", "name": "shoal-node", "namespace": RELEASE_NS}])
    );
    assert_eq!(access.binding["roleRef"]["name"], access.role["metadata"]["name"]);
    assert_exact_rbac(&rendered, "shoal-node", &from_chart);
    assert!(
        !rules_for(&rendered, "shoal-node")
            .iter()
            .any(|(rule, _)| rule["resources"].as_array().unwrap().iter().any(|r| r == "secrets")),
        "the node's own RBAC reads no Secret"
    );
}

fn controller_deployment(rendered: &Rendered) -> &Value {
    rendered.find("Deployment", "shoal-controller")
}

/// The NetworkPolicies guard the pods the chart runs, on the ports those
/// pods listen on: Functions' ports open to callers, the node's own port
/// (metrics) and the controller's metrics to the release namespace, the
/// registry to node pods and build Jobs only. Off by a value.
#[test]
fn network_policies_guard_the_node_controller_and_registry_ports() {
    let rendered = Rendered::render(None);
    let policy_for = |component: &str| {
        let policy = rendered.find("NetworkPolicy", &format!("shoal-{component}"));
        let deployment = rendered.find("Deployment", &format!("shoal-{component}"));
        assert!(
            labels_subset(
                &policy["spec"]["podSelector"]["matchLabels"],
                &deployment["spec"]["template"]["metadata"]["labels"]
            ),
            "the {component} policy selects the {component} pods"
        );
        assert_eq!(policy["spec"]["policyTypes"], serde_json::json!(["Ingress"]));
        (policy, deployment)
    };

    let (node_policy, node) = policy_for("node");
    let node_container = container(node, "node");
    let rules = node_policy["spec"]["ingress"].as_array().unwrap();
    let serving = env_value(
        container(controller_deployment(&rendered), "controller"),
        "SHOAL_SERVING_PORTS",
    );
    let (first, last) = serving.split_once('-').expect("a FIRST-LAST range");
    assert!(rules[0]["from"].is_null(), "Functions' ports are open to every caller");
    assert_eq!(rules[0]["ports"][0]["port"].as_i64().unwrap().to_string(), first);
    assert_eq!(rules[0]["ports"][0]["endPort"].as_i64().unwrap().to_string(), last);
    assert_eq!(rules[1]["from"], serde_json::json!([{"podSelector": {}}]));
    assert_eq!(
        rules[1]["ports"][0]["port"].as_i64(),
        Some(port_named(node_container, "http"))
    );

    let (controller_policy, controller) = policy_for("controller");
    let controller_container = container(controller, "controller");
    let rules = controller_policy["spec"]["ingress"].as_array().unwrap();
    assert_eq!(
        rules[0]["ports"][0]["port"].as_i64(),
        Some(port_named(controller_container, "webhook"))
    );
    assert_eq!(
        rules[1]["ports"][0]["port"].as_i64(),
        Some(port_named(controller_container, "http-metrics"))
    );
    assert_eq!(rules[1]["from"], serde_json::json!([{"podSelector": {}}]));

    let (registry_policy, registry) = policy_for("registry");
    let rule = &registry_policy["spec"]["ingress"][0];
    assert_eq!(
        rule["ports"][0]["port"].as_i64(),
        Some(port_named(container(registry, "gate"), "http-registry"))
    );
    let from = rule["from"].as_array().unwrap();
    assert_eq!(
        from.len(),
        3,
        "node pods, build Jobs and the build service, nobody else: {from:?}"
    );
    assert!(labels_subset(
        &from[0]["podSelector"]["matchLabels"],
        &node["spec"]["template"]["metadata"]["labels"]
    ));
    assert_eq!(
        from[1]["podSelector"]["matchLabels"][shoal_api::cluster::ROLE_LABEL],
        shoal_api::cluster::ROLE_BUILD
    );
    let (builder_policy, builder) = policy_for("builder");
    assert!(labels_subset(
        &from[2]["podSelector"]["matchLabels"],
        &builder["spec"]["template"]["metadata"]["labels"]
    ));
    // Only the controller sends builds.
    let rule = &builder_policy["spec"]["ingress"][0];
    assert_eq!(builder_policy["spec"]["ingress"].as_array().map(Vec::len), Some(1));
    assert!(labels_subset(
        &rule["from"][0]["podSelector"]["matchLabels"],
        &controller["spec"]["template"]["metadata"]["labels"]
    ));
    assert_eq!(
        rule["ports"][0]["port"].as_i64(),
        Some(port_named(container(builder, "builder"), "builds"))
    );

    let values = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(values.path(), "networkPolicy:\n  enabled: false\n").unwrap();
    let off = Rendered::render(values.path().to_str());
    assert!(off.all("NetworkPolicy").is_empty());
}

/// The build service runs without API access, as non-root on a read-only
/// root, holding the registry's push key; it and the controller share one
/// key Secret; the controller finds its pods and port as rendered, and
/// agrees on the memory a build may ask for. Off by a value: no builder,
/// every build a Job.
#[test]
fn the_build_service_is_wired_to_the_controller_and_holds_the_push_key_alone() {
    let rendered = Rendered::render(None);
    let builder = rendered.find("Deployment", "shoal-builder");
    let pod = &builder["spec"]["template"]["spec"];
    assert_eq!(pod["automountServiceAccountToken"], false);
    assert_eq!(pod["securityContext"]["runAsNonRoot"], true);
    let container_ = container(builder, "builder");
    assert_eq!(container_["args"], serde_json::json!(["builder"]));
    assert_eq!(container_["securityContext"]["readOnlyRootFilesystem"], true);
    assert_eq!(container_["readinessProbe"]["httpGet"]["path"], "/readyz");
    let controller = container(controller_deployment(&rendered), "controller");
    let selector: BTreeMap<String, String> = env_value(controller, "SHOAL_BUILDER_SELECTOR")
        .split(',')
        .filter_map(|pair| pair.split_once('=').map(|(k, v)| (k.to_string(), v.to_string())))
        .collect();
    assert!(labels_subset(
        &serde_json::to_value(&selector).unwrap(),
        &builder["spec"]["template"]["metadata"]["labels"]
    ));
    assert_eq!(
        env_value(controller, "SHOAL_BUILDER_PORT").parse::<i64>().ok(),
        Some(port_named(container_, "builds"))
    );
    assert_eq!(
        env_value(controller, "SHOAL_BUILDER_MAX_MEMORY_MIB"),
        env_value(container_, "SHOAL_BUILDER_MAX_MEMORY_MIB")
    );
    // One key Secret, mounted where each side reads it.
    let key_secret = |deployment: &Value, file: &str| {
        let volumes = deployment["spec"]["template"]["spec"]["volumes"].as_array().unwrap();
        let volume = volumes
            .iter()
            .find(|v| v["name"] == "builder-key")
            .expect("builder-key volume");
        let mount = container(deployment, file)["volumeMounts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["name"] == "builder-key")
            .expect("builder-key mount")
            .clone();
        (volume["secret"]["secretName"].clone(), mount["mountPath"].clone())
    };
    let (controller_secret, controller_mount) = key_secret(controller_deployment(&rendered), "controller");
    let (builder_secret, builder_mount) = key_secret(builder, "builder");
    assert_eq!(controller_secret, builder_secret);
    assert!(env_value(controller, "SHOAL_BUILDER_KEY_FILE").starts_with(controller_mount.as_str().unwrap()));
    assert!(env_value(container_, "SHOAL_BUILDER_KEY_FILE").starts_with(builder_mount.as_str().unwrap()));
    let secret = rendered.find("Secret", controller_secret.as_str().unwrap());
    assert!(secret["data"]["key"].as_str().is_some_and(|v| v.len() >= 40));
    // The push key: the build service mints each build's token.
    assert_eq!(
        env_value(container_, "SHOAL_REGISTRY_TOKEN_KEY_FILE"),
        "/etc/shoal-registry-auth/token-key"
    );

    let values = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(values.path(), "build:\n  service:\n    enabled: false\n").unwrap();
    let off = Rendered::render(values.path().to_str());
    assert!(!off.objects.iter().any(|o| o["metadata"]["name"] == "shoal-builder"));
    let controller = container(controller_deployment(&off), "controller");
    assert!(
        !controller["env"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["name"] == "SHOAL_BUILDER_KEY_FILE"),
        "without the service every build is a Job"
    );
}

/// The in-cluster registry is reached only through its gate: the registry
/// listens on its pod's loopback, the gate on the Service's port forwards to
/// it, the node pods present the gate's node password and the controller
/// holds the key it signs build tokens with, all from one Secret.
#[test]
fn the_registry_is_reached_only_through_its_gate() {
    let rendered = Rendered::render(None);
    let registry = rendered.find("Deployment", "shoal-registry");
    let upstream = env_value(container(registry, "registry"), "REGISTRY_HTTP_ADDR");
    assert!(upstream.starts_with("127.0.0.1:"), "{upstream}");
    let gate = container(registry, "gate");
    assert_eq!(gate["args"], serde_json::json!(["registry-gate"]));
    assert_eq!(env_value(gate, "SHOAL_GATE_UPSTREAM"), upstream);
    let service = rendered.find("Service", "shoal-registry");
    // The Service reaches the gate's port, never the registry's.
    assert_eq!(service["spec"]["ports"][0]["targetPort"], "http-registry");
    assert!(port_named(gate, "http-registry") > 0);
    assert!(container(registry, "registry")["ports"].is_null());
    let secret = rendered.find("Secret", "shoal-registry-auth");
    for key in ["node-password", "token-key"] {
        assert!(secret["data"][key].as_str().is_some_and(|v| v.len() >= 40), "{key}");
    }
    let node = container(rendered.find("Deployment", "shoal-node"), "node");
    assert_eq!(env_value(node, "SHOAL_REGISTRY_USER"), shoal_oci::gate::NODE_USER);
    assert_eq!(
        env(node, "SHOAL_REGISTRY_PASSWORD")["valueFrom"]["secretKeyRef"],
        serde_json::json!({"name": "shoal-registry-auth", "key": "node-password"})
    );
    let controller = container(controller_deployment(&rendered), "controller");
    assert_eq!(
        env_value(controller, "SHOAL_REGISTRY_TOKEN_KEY_FILE"),
        "/etc/shoal-registry-auth/token-key"
    );
}

#[tokio::test]
async fn eventing_renders_the_subscription_crd_nats_the_publisher_and_exactly_the_rbac_it_uses() {
    let off = Rendered::render(None);
    assert!(
        !off.objects
            .iter()
            .any(|o| o["metadata"]["name"] == "subscriptions.eventing.kyma-project.io"),
        "no Subscription CRD unless eventing is on"
    );
    assert!(
        off.all("Deployment")
            .iter()
            .all(|d| d["metadata"]["name"] != "shoal-nats")
    );

    let on = Rendered::render(Some("charts/shoal/ci/eventing-values.yaml"));
    let crd = on.find("CustomResourceDefinition", "subscriptions.eventing.kyma-project.io");
    assert_eq!(
        *crd,
        serde_json::to_value(shoal_controller::crd::subscription_crd()).unwrap()
    );

    let nats_url = format!("nats://shoal-nats.{RELEASE_NS}.svc:4222");
    let node = container(on.find("Deployment", "shoal-node"), "node");
    assert_eq!(env_value(node, "SHOAL_NATS_URL"), nats_url);
    assert_eq!(
        env_value(node, "PUBLISHER_PROXY_ADDRESS"),
        format!("http://shoal-publisher.{RELEASE_NS}.svc.cluster.local/publish"),
        "emitCloudEvent posts to Shoal's publisher"
    );
    assert!(
        node["ports"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == "publisher")
    );
    let publisher = on.find("Service", "shoal-publisher");
    assert_eq!(publisher["spec"]["ports"][0]["targetPort"], "publisher");
    let controller = container(on.find("Deployment", "shoal-controller"), "controller");
    assert_eq!(env_value(controller, "SHOAL_NATS_URL"), nats_url);
    let nats = container(on.find("Deployment", "shoal-nats"), "nats");
    assert!(
        nats["args"].as_array().unwrap().iter().any(|a| a == "-js"),
        "JetStream on"
    );

    // The controller: everything it needed before, and exactly what the
    // Subscription reconciler's calls and watches need.
    let (calls, access) = controller_calls(None).await;
    let mut needed = permissions(&calls);
    needed.extend(watches(shoal_controller::reconcile::WATCHES, RELEASE_NS));
    needed.extend(granted(&access.role));
    needed.extend(permissions(&crate::subscriptions::subscription_calls().await));
    needed.extend(watches(shoal_controller::subscriptions::WATCHES, RELEASE_NS));
    assert_exact_rbac(&on, "shoal-controller", &needed);
    // The node follows Subscriptions.
    let node_rules = rules_for(&on, "shoal-node");
    for p in watches(shoal_sync::subscriptions::WATCHES, RELEASE_NS) {
        assert!(
            node_rules.iter().any(|(rule, scope)| allows(rule, scope, &p)),
            "node may not {p:?}"
        );
    }
}

/// Busola's resource-extension rules for the sections it validates (from
/// its `public/schemas/schema-{general,list,details,form,dataSources}.yaml`,
/// extension version 0.5): the widgets each section may name and the keys
/// each entry needs.
mod busola {
    use serde_json::Value;

    /// Widgets of list columns and details entries.
    pub const VIEW_WIDGETS: &[&str] = &[
        "Alert",
        "Badge",
        "CodeViewer",
        "Columns",
        "ControlledBy",
        "EventList",
        "ExternalLink",
        "JoinedArray",
        "Labels",
        "Panel",
        "Plain",
        "ResourceLink",
        "ResourceList",
        "ResourceRefs",
        "Table",
        "Tabs",
        "Text",
    ];
    /// View widgets that show a `source`.
    pub const NEED_SOURCE: &[&str] = &[
        "Alert",
        "Badge",
        "CodeViewer",
        "ControlledBy",
        "ExternalLink",
        "JoinedArray",
        "ResourceLink",
        "ResourceList",
        "ResourceRefs",
        "Table",
        "Text",
    ];
    /// Widgets of form fields.
    pub const FORM_WIDGETS: &[&str] = &[
        "Alert",
        "CodeEditor",
        "FormGroup",
        "GenericList",
        "KeyValuePair",
        "Name",
        "Resource",
        "ResourceRef",
        "SimpleList",
        "Text",
    ];

    /// What is wrong with one list or details entry (and its children).
    pub fn view_entry(entry: &Value, at: &str, problems: &mut Vec<String>) {
        let widget = entry["widget"].as_str().unwrap_or_default();
        if !VIEW_WIDGETS.contains(&widget) {
            problems.push(format!("{at}: widget {widget:?} is not one of Busola's"));
        }
        if NEED_SOURCE.contains(&widget) && entry["source"].as_str().is_none() {
            problems.push(format!("{at}: {widget} needs a source"));
        }
        if widget == "ResourceRefs" && entry["kind"].as_str().is_none() {
            problems.push(format!("{at}: ResourceRefs needs a kind"));
        }
        for (i, child) in entry["children"].as_array().into_iter().flatten().enumerate() {
            view_entry(child, &format!("{at}.children[{i}]"), problems);
        }
    }

    /// What is wrong with one form field (and its children).
    pub fn form_entry(entry: &Value, at: &str, problems: &mut Vec<String>) {
        if entry["path"].as_str().is_none() {
            problems.push(format!("{at}: a form field needs a path"));
        }
        let widget = entry["widget"].as_str().unwrap_or_default();
        if !FORM_WIDGETS.contains(&widget) {
            problems.push(format!("{at}: form widget {widget:?} is not one of Busola's"));
        }
        for (i, child) in entry["children"].as_array().into_iter().flatten().enumerate() {
            form_entry(child, &format!("{at}.children[{i}]"), problems);
        }
    }
}

#[test]
fn the_busola_extension_follows_busolas_extension_schema() {
    let off = Rendered::render(None);
    assert!(
        off.all("ConfigMap")
            .iter()
            .all(|c| c["metadata"]["name"] != "shoal-busola-functions")
    );
    let path = std::env::temp_dir().join(format!("busola-values-{}.yaml", std::process::id()));
    std::fs::write(&path, "busola:\n  enabled: true\n").unwrap();
    let on = Rendered::render(Some(path.to_str().unwrap()));
    let _ = std::fs::remove_file(&path);
    let cm = on.find("ConfigMap", "shoal-busola-functions");
    assert_eq!(cm["metadata"]["labels"]["busola.io/extension"], "resource");
    assert_eq!(cm["metadata"]["labels"]["busola.io/extension-version"], "0.5");
    let section = |name: &str| -> Value {
        let text = cm["data"][name].as_str().unwrap_or_else(|| panic!("no {name} section"));
        serde_yaml::from_str(text).unwrap_or_else(|e| panic!("{name} is not YAML: {e}"))
    };
    let general = section("general");
    assert_eq!(
        general["resource"],
        json!({"kind": "Function", "group": "serverless.kyma-project.io", "version": "v1alpha2"})
    );
    assert_eq!(
        (general["scope"].as_str(), general["urlPath"].as_str()),
        (Some("namespace"), Some("functions"))
    );

    let mut problems = Vec::new();
    for (i, e) in section("list").as_array().expect("list is an array").iter().enumerate() {
        busola::view_entry(e, &format!("list[{i}]"), &mut problems);
    }
    let details = section("details");
    for part in ["header", "body"] {
        for (i, e) in details[part]
            .as_array()
            .unwrap_or_else(|| panic!("details.{part}"))
            .iter()
            .enumerate()
        {
            busola::view_entry(e, &format!("details.{part}[{i}]"), &mut problems);
        }
    }
    for (i, e) in section("form").as_array().expect("form is an array").iter().enumerate() {
        busola::form_entry(e, &format!("form[{i}]"), &mut problems);
    }
    let sources = section("dataSources");
    for (name, source) in sources.as_object().expect("dataSources is a map") {
        if source["resource"]["kind"].as_str().is_none() || source["resource"]["version"].as_str().is_none() {
            problems.push(format!("dataSources.{name}: resource needs kind and version"));
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");

    // Every data source a view calls exists, and the Function's Service,
    // APIRules and Subscriptions are among them.
    let views = format!("{}{}", cm["data"]["list"], cm["data"]["details"]);
    for name in ["services", "apiRules", "subscriptions"] {
        assert!(views.contains(&format!("${name}()")), "{name} is shown");
        assert!(sources.get(name).is_some(), "{name} is defined");
    }
    // The form edits the runtime among those Shoal serves, with the code editor.
    let form = section("form");
    let runtime = form
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "spec.runtime")
        .expect("runtime field");
    for r in runtime["enum"].as_array().unwrap() {
        assert!(
            shoal_api::SERVED_RUNTIMES.contains(&r.as_str().unwrap()),
            "{r} is served"
        );
    }
    assert!(
        form.as_array()
            .unwrap()
            .iter()
            .any(|f| f["path"] == "spec.source.inline.source" && f["widget"] == "CodeEditor")
    );
    assert!(section("translations")["en"].is_object());
}
