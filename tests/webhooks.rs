//! The admission webhooks over real HTTPS: AdmissionReview requests as the
//! API server sends them, to the server the controller runs, verified
//! against the CA the controller made. Each rule is asserted as allowed,
//! denied (with its message) or patched.

use serde_json::{Value, json};
use shoal_controller::webhook::{MUTATE_PATH, VALIDATE_PATH};
use shoal_tests::admission::{Webhooks, apply_patch};

fn function(spec: Value) -> Value {
    json!({
        "apiVersion": "serverless.kyma-project.io/v1alpha2",
        "kind": "Function",
        "metadata": {"name": "hello", "namespace": "default"},
        "spec": spec
    })
}

fn inline(source: &str) -> Value {
    json!({"inline": {"source": source}})
}

const HANDLER: &str = "module.exports = { main: () => 'hi' }";

#[tokio::test]
async fn defaulting_patches_runtime_replicas_and_presets() {
    let hooks = Webhooks::start().await;
    let object = function(json!({"source": inline(HANDLER)}));
    let response = hooks.review(MUTATE_PATH, "CREATE", object.clone()).await;
    assert_eq!(response["allowed"], true);
    assert_eq!(response["patchType"], "JSONPatch");
    let patched = apply_patch(&object, &response);
    assert_eq!(patched["spec"]["runtime"], "nodejs24");
    assert_eq!(patched["spec"]["replicas"], 1);
    assert_eq!(patched["spec"]["resourceConfiguration"]["function"]["profile"], "L");
    assert_eq!(patched["spec"]["resourceConfiguration"]["build"]["profile"], "normal");
    assert_eq!(
        patched["spec"]["source"], object["spec"]["source"],
        "the source is untouched"
    );

    // The patched Function then passes validation, and defaulting it again
    // changes nothing.
    assert_eq!(hooks.validate(patched.clone()).await["allowed"], true);
    let again = hooks.review(MUTATE_PATH, "UPDATE", patched).await;
    assert_eq!(again["allowed"], true);
    assert!(again.get("patch").is_none(), "nothing left to default: {again}");
}

#[tokio::test]
async fn defaulting_takes_the_preset_label_and_keeps_explicit_resources() {
    let hooks = Webhooks::start().await;
    let mut object = function(json!({"runtime": "nodejs22", "source": inline(HANDLER)}));
    object["metadata"]["labels"] = json!({"serverless.kyma-project.io/function-resources-preset": "S"});
    let patched = apply_patch(&object, &hooks.review(MUTATE_PATH, "CREATE", object.clone()).await);
    assert_eq!(patched["spec"]["runtime"], "nodejs22", "an explicit runtime is kept");
    assert_eq!(patched["spec"]["resourceConfiguration"]["function"]["profile"], "S");

    let object = function(json!({
        "source": inline(HANDLER),
        "resourceConfiguration": {"function": {"resources": {"limits": {"memory": "128Mi"}}}}
    }));
    let patched = apply_patch(&object, &hooks.review(MUTATE_PATH, "CREATE", object.clone()).await);
    assert!(
        patched["spec"]["resourceConfiguration"]["function"]
            .get("profile")
            .is_none(),
        "explicit resources get no profile: {patched}"
    );
}

#[tokio::test]
async fn validation_allows_good_functions_and_deletes() {
    let hooks = Webhooks::start().await;
    for runtime in ["nodejs20", "nodejs22", "nodejs24"] {
        let response = hooks
            .validate(function(json!({"runtime": runtime, "source": inline(HANDLER)})))
            .await;
        assert_eq!(response["allowed"], true, "{runtime}: {response}");
    }
    let full = function(json!({
        "runtime": "nodejs22",
        "source": {"inline": {"source": HANDLER, "dependencies": "{\"dependencies\": {\"lodash\": \"^4.17.21\"}}"}},
        "env": [{"name": "GREETING", "value": "hi"},
                {"name": "FROM_MAP", "valueFrom": {"configMapKeyRef": {"name": "cm", "key": "k"}}}],
        "resourceConfiguration": {"function": {"profile": "XS"}, "build": {"resources": {
            "requests": {"cpu": "200m", "memory": "200Mi"}, "limits": {"cpu": "1", "memory": "1Gi"}}}},
        "labels": {"team": "orders"},
        "annotations": {"example.com/owner": "orders"},
        "secretMounts": [{"secretName": "creds", "mountPath": "/creds"}],
        "replicas": 2
    }));
    assert_eq!(hooks.validate(full.clone()).await["allowed"], true);
    let delete = hooks.review(VALIDATE_PATH, "DELETE", full).await;
    assert_eq!(delete["allowed"], true);
}

#[tokio::test]
async fn validation_refuses_each_kyma_rule_with_its_message() {
    let hooks = Webhooks::start().await;
    let mut bad_name = function(json!({"source": inline(HANDLER)}));
    bad_name["metadata"]["name"] = json!("Hello_World");
    hooks.assert_denied(bad_name, "DNS-1035").await;

    let cases: Vec<(Value, &str)> = vec![
        (json!({"runtime": "nodejs12", "source": inline(HANDLER)}), "is unknown"),
        (json!({"source": {}}), "exactly one of inline or gitRepository"),
        (
            json!({"source": {"inline": {"source": HANDLER}, "gitRepository": {"url": "https://x/y.git"}}}),
            "not both",
        ),
        (json!({"source": inline("   ")}), "is empty"),
        (
            json!({"source": {"inline": {"source": HANDLER, "dependencies": "lodash"}}}),
            "start with '{' and end with '}'",
        ),
        (
            json!({"source": {"inline": {"source": HANDLER, "dependencies": "{\"dependencies\": [\"lodash\"]}"}}}),
            "must be an object",
        ),
        (
            json!({"source": inline(HANDLER), "env": [{"name": "FUNC_HANDLER", "value": "x"}]}),
            "reserved",
        ),
        (
            json!({"source": inline(HANDLER), "env": [{"name": "NODE_PATH", "value": "x"}]}),
            "reserved",
        ),
        (
            json!({"source": inline(HANDLER), "labels": {"serverless.kyma-project.io/x": "y"}}),
            "reserved",
        ),
        (
            json!({"source": inline(HANDLER), "labels": {"team": "x".repeat(64)}}),
            "shorter than 64",
        ),
        (
            json!({"source": inline(HANDLER), "annotations": {"proxy.istio.io/config": "{}"}}),
            "not allowed",
        ),
        (
            json!({"source": inline(HANDLER), "annotations": {"serverless.kyma-project.io/a": "b"}}),
            "reserved",
        ),
        (
            json!({"source": inline(HANDLER), "resourceConfiguration": {"function": {"profile": "M",
                "resources": {"limits": {"memory": "128Mi"}}}}}),
            "profile or resources, not both",
        ),
        (
            json!({"source": inline(HANDLER), "resourceConfiguration": {"function": {"profile": "XXL"}}}),
            "unknown",
        ),
        (
            json!({"source": inline(HANDLER), "resourceConfiguration": {"build": {"profile": "turbo"}}}),
            "unknown",
        ),
        (
            json!({"source": inline(HANDLER), "resourceConfiguration": {"function": {"resources": {
                "requests": {"memory": "8Mi"}}}}}),
            "below the minimum",
        ),
        (
            json!({"source": inline(HANDLER), "resourceConfiguration": {"build": {"resources": {
                "requests": {"cpu": "100m"}}}}}),
            "below the minimum",
        ),
        (
            json!({"source": inline(HANDLER), "resourceConfiguration": {"function": {"resources": {
                "requests": {"cpu": "500m"}, "limits": {"cpu": "200m"}}}}}),
            "exceeds its limit",
        ),
        (json!({"source": inline(HANDLER), "replicas": -1}), "0 or more"),
        (
            json!({"source": inline(HANDLER), "secretMounts": [{"secretName": "", "mountPath": "/x"}]}),
            "secretName",
        ),
    ];
    for (spec, expected) in cases {
        hooks.assert_denied(function(spec), expected).await;
    }
}

#[tokio::test]
async fn python_is_refused_with_a_message_saying_shoal_serves_node_only() {
    let hooks = Webhooks::start().await;
    hooks
        .assert_denied(
            function(json!({"runtime": "python312", "source": inline("def main(event, context):\n  return 'hi'")})),
            "Shoal runs Node.js Functions only",
        )
        .await;
}

#[tokio::test]
async fn a_malformed_object_is_denied_naming_the_field_and_other_paths_404() {
    let hooks = Webhooks::start().await;
    hooks
        .assert_denied(
            function(json!({"source": inline(HANDLER), "replicas": "three"})),
            "not a valid Function",
        )
        .await;
    // An unknown path answers 404 rather than admitting anything.
    let (status, _) = hooks.post("/admit-anything", b"{}".to_vec()).await;
    assert_eq!(status, 404);
}

#[test]
fn the_committed_crd_matches_the_types() {
    let generated = shoal_controller::crd::crd_yaml().expect("CRD YAML");
    let path = shoal_tests::workspace_root().join("charts/shoal/crds/functions.serverless.kyma-project.io.yaml");
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{} is out of date with crates/shoal-api: regenerate it with\n  cargo run -p shoal -- crd > {}",
        path.display(),
        path.display()
    );
}

#[test]
fn the_crd_carries_kyma_names_columns_subresources_and_rules() {
    let crd: Value = serde_json::to_value(shoal_controller::crd::crd()).expect("CRD");
    assert_eq!(crd["metadata"]["name"], "functions.serverless.kyma-project.io");
    assert_eq!(crd["spec"]["names"]["shortNames"], json!(["fn", "fns"]));
    let version = &crd["spec"]["versions"][0];
    assert_eq!(version["name"], "v1alpha2");
    assert_eq!(version["subresources"]["status"], json!({}));
    assert_eq!(version["subresources"]["scale"]["specReplicasPath"], ".spec.replicas");
    assert_eq!(
        version["subresources"]["scale"]["statusReplicasPath"],
        ".status.replicas"
    );
    assert_eq!(
        version["subresources"]["scale"]["labelSelectorPath"],
        ".status.podSelector"
    );
    let columns: Vec<&str> = version["additionalPrinterColumns"]
        .as_array()
        .expect("columns")
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    for column in ["Configured", "Running", "Runtime", "Version", "Age"] {
        assert!(
            columns.contains(&column),
            "missing printer column {column}: {columns:?}"
        );
    }
    let spec = &version["schema"]["openAPIV3Schema"]["properties"]["spec"];
    let source_rules = spec["properties"]["source"]["x-kubernetes-validations"].to_string();
    assert!(
        source_rules.contains("has(self.inline) != has(self.gitRepository)"),
        "{source_rules}"
    );
    assert_eq!(spec["properties"]["replicas"]["minimum"].as_f64(), Some(0.0));
    assert_eq!(
        spec["properties"]["source"]["properties"]["inline"]["properties"]["source"]["minLength"],
        1
    );
}
