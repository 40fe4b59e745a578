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
    /// `nodejs20` (deprecated), `nodejs22` (deprecated), `nodejs24`
    /// (default), `nodejs26` (the `main(req, res)` API), `python312` or
    /// `python314`. Shoal serves the Node.js runtimes.
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
    pub status: ConditionStatus,
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

/// A condition's status, as Kubernetes spells it.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, JsonSchema)]
pub enum ConditionStatus {
    /// The condition holds.
    True,
    /// It does not, and the reason says why.
    False,
    /// Not known yet: work is under way (a build running, nodes loading).
    #[default]
    Unknown,
}

impl ConditionStatus {
    /// The status as written in the API.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::True => "True",
            Self::False => "False",
            Self::Unknown => "Unknown",
        }
    }

    /// Reads the status of any Kubernetes condition (a Pod's, a Job's),
    /// whose status is a plain string: anything but True or False is
    /// Unknown.
    pub fn parse(status: &str) -> Self {
        match status {
            "True" => Self::True,
            "False" => Self::False,
            _ => Self::Unknown,
        }
    }
}

impl std::fmt::Display for ConditionStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<&str> for ConditionStatus {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// Why a condition has its status: the names Kyma's Function controller
/// writes where Shoal does the same thing (tools and dashboards built for
/// Kyma read them), and Shoal's own where Kyma has no such state.
pub mod reason {
    /// ConfigurationReady True: the source was stored for the first time.
    pub const CONFIG_MAP_CREATED: &str = "ConfigMapCreated";
    /// ConfigurationReady True: the stored source was updated.
    pub const CONFIG_MAP_UPDATED: &str = "ConfigMapUpdated";
    /// ConfigurationReady True: a Git source resolved to a commit.
    pub const SOURCE_UPDATED: &str = "SourceUpdated";
    /// ConfigurationReady False: the source could not be read or stored.
    pub const SOURCE_UPDATE_FAILED: &str = "SourceUpdateFailed";
    /// ConfigurationReady False: the spec is invalid.
    pub const INVALID_FUNCTION_SPEC: &str = "InvalidFunctionSpec";
    /// BuildReady Unknown: the build Job was created.
    pub const JOB_CREATED: &str = "JobCreated";
    /// BuildReady Unknown: the build Job is running.
    pub const JOB_RUNNING: &str = "JobRunning";
    /// BuildReady True: the module is built and pushed.
    pub const JOB_FINISHED: &str = "JobFinished";
    /// BuildReady False: the build failed.
    pub const JOB_FAILED: &str = "JobFailed";
    /// BuildReady Unknown (Shoal): every build slot is taken.
    pub const JOB_QUEUED: &str = "JobQueued";
    /// BuildReady False (Shoal): a Job with the build's name exists but
    /// the Function does not own it.
    pub const JOB_NOT_OWNED: &str = "JobNotOwned";
    /// Running Unknown: waiting for the first build, or for nodes to load it.
    pub const DEPLOYMENT_WAITING: &str = "DeploymentWaiting";
    /// Running True: the nodes serve the Function.
    pub const DEPLOYMENT_READY: &str = "DeploymentReady";
    /// Running True: the nodes serve the previous build while they load
    /// the new one.
    pub const DEPLOYMENT_UPDATED: &str = "DeploymentUpdated";
    /// Running False: a node cannot load the Function.
    pub const DEPLOYMENT_FAILED: &str = "DeploymentFailed";
    /// Running False: no node server is ready.
    pub const MIN_REPLICAS_NOT_AVAILABLE: &str = "MinReplicasNotAvailable";
    /// Running False: the Service or its EndpointSlice could not be written.
    pub const SERVICE_FAILED: &str = "ServiceFailed";
    /// Running False (Shoal): the node pods could not be given read access
    /// to what the Function references.
    pub const NODE_ACCESS_FAILED: &str = "NodeAccessFailed";
    /// Running False (Shoal): every serving port is taken.
    pub const SERVING_PORT_UNAVAILABLE: &str = "ServingPortUnavailable";
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
