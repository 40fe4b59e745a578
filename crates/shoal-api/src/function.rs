use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{EnvVar, ResourceRequirements};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use kube::CustomResource;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// API group of the Function resource, shared with Kyma.
pub const GROUP: &str = "serverless.kyma-project.io";
/// Label that may pick the function resource preset.
pub const PRESET_LABEL: &str = "serverless.kyma-project.io/function-resources-preset";

/// A Kyma Function: JavaScript source that Shoal builds to WebAssembly and
/// serves on its shared nodes.
// Each printcolumn(...) is a separate column, not a repeated attribute.
#[allow(clippy::duplicated_attributes)]
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[kube(
    group = "serverless.kyma-project.io",
    version = "v1alpha2",
    kind = "Function",
    namespaced,
    status = "FunctionStatus",
    shortname = "fn",
    shortname = "fns",
    category = "all",
    scale(
        spec_replicas_path = ".spec.replicas",
        status_replicas_path = ".status.replicas",
        label_selector_path = ".status.podSelector"
    ),
    printcolumn(
        name = "Configured",
        type_ = "string",
        json_path = ".status.conditions[?(@.type=='ConfigurationReady')].status"
    ),
    printcolumn(
        name = "Built",
        type_ = "string",
        json_path = ".status.conditions[?(@.type=='BuildReady')].status"
    ),
    printcolumn(
        name = "Running",
        type_ = "string",
        json_path = ".status.conditions[?(@.type=='Running')].status"
    ),
    printcolumn(name = "Runtime", type_ = "string", json_path = ".spec.runtime"),
    printcolumn(name = "Version", type_ = "integer", json_path = ".metadata.generation"),
    printcolumn(name = "Age", type_ = "date", json_path = ".metadata.creationTimestamp")
)]
#[serde(rename_all = "camelCase")]
pub struct FunctionSpec {
    /// `nodejs20` (deprecated), `nodejs22`, `nodejs24` (default) or
    /// `python312`. Shoal serves the Node.js runtimes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime: Option<String>,
    /// Accepted for compatibility; Shoal has no per-Function image.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime_image_override: Option<String>,
    /// Where the code comes from: exactly one of `inline` or `gitRepository`.
    pub source: Source,
    /// Environment for the code, as on a container.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<EnvVar>,
    /// Resources for the Function and its build.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_configuration: Option<ResourceConfiguration>,
    /// Desired replicas (scale subresource); 0 stops serving.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0))]
    pub replicas: Option<i32>,
    /// Deprecated in Kyma; accepted and ignored beyond validation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale_config: Option<ScaleConfig>,
    /// Secrets mounted into the Function.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub secret_mounts: Vec<SecretMount>,
    /// Labels for the Function's workload.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    /// Annotations for the Function's workload.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
}

/// The source of a Function.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(extend("x-kubernetes-validations" = [{
    "rule": "has(self.inline) != has(self.gitRepository)",
    "message": "source must have exactly one of inline or gitRepository"
}]))]
pub struct Source {
    /// Code written into the resource.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inline: Option<InlineSource>,
    /// Code in a git repository.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub git_repository: Option<GitRepositorySource>,
}

/// Inline JavaScript and its package.json.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct InlineSource {
    /// The handler's code.
    #[schemars(length(min = 1))]
    pub source: String,
    /// A package.json, as a string.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dependencies: Option<String>,
}

/// A git repository source.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GitRepositorySource {
    /// Repository URL.
    pub url: String,
    /// Folder holding the handler.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_dir: Option<String>,
    /// Branch, tag or commit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    /// Credentials.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auth: Option<RepositoryAuth>,
}

/// Git credentials, by Secret.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RepositoryAuth {
    /// `basic` or `key`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Secret holding the credentials.
    pub secret_name: String,
}

/// Resources for the Function and its build.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResourceConfiguration {
    /// The running Function.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function: Option<ResourceRequest>,
    /// The build Job.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build: Option<ResourceRequest>,
}

/// Either a named preset or explicit resources, not both.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(extend("x-kubernetes-validations" = [{
    "rule": "!(has(self.profile) && has(self.resources))",
    "message": "use profile or resources, not both"
}]))]
pub struct ResourceRequest {
    /// A preset name (XS..XL for functions, local-dev..fast for builds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    /// Explicit requests and limits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<ResourceRequirements>,
}

/// Deprecated autoscaling bounds.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScaleConfig {
    /// Lower bound.
    pub min_replicas: i32,
    /// Upper bound.
    pub max_replicas: i32,
}

/// A Secret mounted into the Function.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SecretMount {
    /// The Secret's name.
    #[schemars(length(min = 1, max = 253))]
    pub secret_name: String,
    /// Where it is mounted.
    #[schemars(length(min = 1))]
    pub mount_path: String,
}

/// Observed state of a Function.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FunctionStatus {
    /// The generation these conditions describe.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
    /// The runtime being served.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime: Option<String>,
    /// Nodes serving the Function (scale subresource).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// Selector of the pods serving the Function (scale subresource).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod_selector: Option<String>,
    /// The resolved function preset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function_resource_profile: Option<String>,
    /// ConfigurationReady, BuildReady, Running.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
    /// Git source as resolved (git sources only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub git_repository: Option<GitRepositoryStatus>,
    /// The built module: an OCI reference pinned by digest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artifact: Option<String>,
    /// Hash of the build inputs the artifact was built from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build_hash: Option<String>,
    /// The port node pods serve this Function on, assigned by the
    /// controller: its EndpointSlice points there, so a request reaches the
    /// Function whatever Host it carries (an APIRule's external host, a
    /// ClusterIP, a port-forward).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub serving_port: Option<i32>,
}

/// Resolved git source.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GitRepositoryStatus {
    /// Repository URL.
    pub url: String,
    /// Folder holding the handler.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_dir: Option<String>,
    /// Branch, tag or commit asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    /// The commit built.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
}

/// A status condition (Kyma's shape).
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Condition {
    /// ConfigurationReady, BuildReady or Running.
    #[serde(rename = "type")]
    pub type_: String,
    /// True, False or Unknown.
    pub status: String,
    /// Machine-readable reason (Kyma's names).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Human-readable detail, at most 32768 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = 32768))]
    pub message: Option<String>,
    /// When the status last changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_transition_time: Option<Time>,
}

/// Condition types.
pub mod condition {
    /// The spec is valid and its source stored.
    pub const CONFIGURATION_READY: &str = "ConfigurationReady";
    /// The module is built and pushed.
    pub const BUILD_READY: &str = "BuildReady";
    /// Nodes serve the Function.
    pub const RUNNING: &str = "Running";
}

/// JavaScript module system of a Function's code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModuleKind {
    /// `module.exports = { main }`.
    CommonJs,
    /// `export function main` (package.json says `"type": "module"`).
    Esm,
}

/// The inputs that determine a Function's built module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildInputs {
    /// The handler source.
    pub source: String,
    /// package.json, if any.
    pub dependencies: Option<String>,
    /// The runtime (after defaulting).
    pub runtime: String,
    /// The Function's other files, by path relative to handler.js (local
    /// modules, data): what a folder or a Git source brings besides
    /// handler.js and package.json. Empty for inline sources.
    pub files: BTreeMap<String, Vec<u8>>,
}

impl BuildInputs {
    /// Whether the package.json switches the code to ES modules.
    pub fn module_kind(&self) -> ModuleKind {
        let esm = self
            .dependencies
            .as_deref()
            .and_then(|d| serde_json::from_str::<serde_json::Value>(d).ok())
            .and_then(|v| v.get("type").and_then(|t| t.as_str()).map(|t| t == "module"))
            .unwrap_or(false);
        if esm { ModuleKind::Esm } else { ModuleKind::CommonJs }
    }

    /// A stable hash of everything a rebuild depends on.
    pub fn hash(&self) -> String {
        let mut h = Sha256::new();
        for part in [
            self.runtime.as_bytes(),
            self.source.as_bytes(),
            self.dependencies.as_deref().unwrap_or("").as_bytes(),
        ] {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part);
        }
        // Appended only when present, so a single-file Function's hash (and
        // so its artifact tag) is what it always was.
        for (path, content) in &self.files {
            for part in [path.as_bytes(), content.as_slice()] {
                h.update((part.len() as u64).to_le_bytes());
                h.update(part);
            }
        }
        hex::encode(h.finalize())
    }
}

impl Function {
    /// The runtime after defaulting.
    pub fn runtime(&self) -> &str {
        self.spec
            .runtime
            .as_deref()
            .filter(|r| !r.is_empty())
            .unwrap_or(crate::DEFAULT_RUNTIME)
    }

    /// The build inputs of an inline Function (git sources are resolved by
    /// the controller before they have any).
    pub fn build_inputs(&self) -> Option<BuildInputs> {
        self.spec.source.inline.as_ref().map(|inline| BuildInputs {
            source: inline.source.clone(),
            dependencies: inline.dependencies.clone().filter(|d| !d.trim().is_empty()),
            runtime: self.runtime().to_string(),
            files: Default::default(),
        })
    }

    /// Parses a Function from Kyma YAML, refusing anything else with a
    /// message that says what was found.
    pub fn from_yaml(yaml: &str) -> Result<Function, crate::ValidationError> {
        let value: serde_yaml::Value =
            serde_yaml::from_str(yaml).map_err(|e| crate::ValidationError::single(format!("not valid YAML: {e}")))?;
        let kind = value.get("kind").and_then(|k| k.as_str()).unwrap_or("");
        let api = value.get("apiVersion").and_then(|k| k.as_str()).unwrap_or("");
        if kind != "Function" || !api.starts_with(GROUP) {
            return Err(crate::ValidationError::single(format!(
                "expected a {GROUP}/v1alpha2 Function, found kind {kind:?} apiVersion {api:?}"
            )));
        }
        serde_yaml::from_value(value).map_err(|e| crate::ValidationError::single(format!("not a valid Function: {e}")))
    }
}
