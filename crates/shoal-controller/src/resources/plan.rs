//! What a build builds and with what: the plan (inline source or a Git
//! commit) and its hash, the resources and limits a build gets, and
//! whether the build service can take it.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::ResourceRequirements;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use kube::ResourceExt;
use shoal_api::{BuildInputs, Function, cluster};

use crate::reconcile::ControllerConfig;

/// The build resources: the Function's build preset or explicit resources.
pub(crate) fn build_resources(function: &Function) -> ResourceRequirements {
    let request = function
        .spec
        .resource_configuration
        .as_ref()
        .and_then(|r| r.build.as_ref());
    if let Some(resources) = request.and_then(|r| r.resources.clone()) {
        return resources;
    }
    let preset = request
        .and_then(|r| r.profile.as_deref())
        .and_then(shoal_api::build_preset)
        .or_else(|| shoal_api::build_preset(shoal_api::DEFAULT_BUILD_PRESET));
    let Some(preset) = preset else {
        return ResourceRequirements::default();
    };
    let pair = |cpu: &str, memory: &str| {
        BTreeMap::from([
            ("cpu".to_string(), Quantity(cpu.to_string())),
            ("memory".to_string(), Quantity(memory.to_string())),
        ])
    };
    ResourceRequirements {
        requests: Some(pair(preset.request_cpu, preset.request_memory)),
        limits: Some(pair(preset.limit_cpu, preset.limit_memory)),
        ..ResourceRequirements::default()
    }
}

/// The Secret whose `.npmrc` the Function's build uses, if any: the
/// Function's annotation, else the controller's default.
pub fn npmrc_secret(config: &ControllerConfig, function: &Function) -> Option<String> {
    function
        .annotations()
        .get(cluster::NPMRC_SECRET_ANNOTATION)
        .cloned()
        .or_else(|| config.npmrc_secret.clone())
        .filter(|s| !s.is_empty())
}

/// What one build of `function` may use: its build resources' memory
/// limit (the preset's when it sets none) and the build deadline.
pub fn build_limits(config: &ControllerConfig, function: &Function) -> shoal_builder::BuildLimits {
    let memory = build_resources(function)
        .limits
        .as_ref()
        .and_then(|limits| limits.get("memory"))
        .and_then(|q| shoal_api::parse_quantity(&q.0))
        .filter(|bytes| bytes.is_finite() && *bytes > 0.0)
        // A memory limit is a whole number of bytes well below 2^64.
        .map_or(u64::MAX, |bytes| bytes.min(u64::MAX as f64) as u64);
    shoal_builder::BuildLimits {
        memory_bytes: memory,
        deadline_secs: config.build_deadline.as_secs(),
    }
}

/// The build service's request for an inline Function's build, or `None`
/// when the service cannot take it and a Job builds it: a Git source (its
/// credentials stay in the Function's namespace), a private npm registry
/// (likewise), or limits above what the service gives.
pub fn service_build_request(
    config: &ControllerConfig,
    function: &Function,
    plan: &BuildPlan,
) -> Option<shoal_builder::BuildRequest> {
    let service = config.build_service.as_ref()?;
    let BuildPlan::Inline(inputs) = plan else {
        return None;
    };
    let limits = build_limits(config, function);
    let fits = limits.memory_bytes <= service.max_limits.memory_bytes
        && limits.deadline_secs <= service.max_limits.deadline_secs;
    if !fits || npmrc_secret(config, function).is_some() || !inputs.files.is_empty() {
        return None;
    }
    Some(shoal_builder::BuildRequest {
        namespace: function.namespace().unwrap_or_default(),
        name: function.name_any(),
        hash: inputs.hash(),
        runtime: inputs.runtime.clone(),
        source: inputs.source.clone(),
        dependencies: inputs.dependencies.clone(),
        limits,
    })
}

/// One commit of a Git source, to build.
#[derive(Debug, Clone, PartialEq)]
pub struct GitBuild {
    /// The repository.
    pub url: String,
    /// The branch, tag or commit the Function names.
    pub reference: String,
    /// The commit the reference names now.
    pub commit: String,
    /// The Function's folder.
    pub base_dir: String,
    /// The credentials' Secret, in the Function's namespace.
    pub auth: Option<shoal_api::RepositoryAuth>,
    /// The runtime.
    pub runtime: String,
}

impl GitBuild {
    /// A stable hash of what the build depends on (the commit, not the
    /// reference: a new commit is a new build).
    pub fn hash(&self) -> String {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        for part in [
            "git",
            &self.url,
            &self.commit,
            self.base_dir.trim_matches('/'),
            &self.runtime,
        ] {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part.as_bytes());
        }
        h.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// What a build Job builds: inline source (from the source ConfigMap) or a
/// Git commit (fetched by the Job).
#[derive(Debug, Clone)]
pub enum BuildPlan {
    /// Inline source.
    Inline(BuildInputs),
    /// A Git source's commit.
    Git(GitBuild),
}

impl BuildPlan {
    /// The build-input hash (Job name, artifact tag, `status.buildHash`).
    pub fn hash(&self) -> String {
        match self {
            BuildPlan::Inline(inputs) => inputs.hash(),
            BuildPlan::Git(git) => git.hash(),
        }
    }

    /// The runtime the build targets.
    pub(crate) fn runtime(&self) -> &str {
        match self {
            BuildPlan::Inline(inputs) => &inputs.runtime,
            BuildPlan::Git(git) => &git.runtime,
        }
    }
}
