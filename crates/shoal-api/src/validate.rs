//! Kyma's Function rules plus Shoal's own, shared by the admission webhooks,
//! the reconciler and `shoal build`.

use std::fmt;

use k8s_openapi::api::core::v1::ResourceRequirements;

use crate::{
    BUILD_MINIMUM, DEFAULT_BUILD_PRESET, DEFAULT_FUNCTION_PRESET, DEFAULT_RUNTIME, FUNCTION_MINIMUM, Function,
    FunctionSpec, KYMA_ONLY_RUNTIMES, PRESET_LABEL, Preset, ResourceConfiguration, ResourceRequest, SERVED_RUNTIMES,
    build_preset, function_preset, parse_quantity,
};

/// Environment names the runtime reserves for itself.
pub const RESERVED_ENV: &[&str] = &[
    "FUNC_RUNTIME",
    "FUNC_HANDLER",
    "FUNC_PORT",
    "FUNC_HANDLER_SOURCE",
    "FUNC_HANDLER_DEPENDENCIES",
    "MOD_NAME",
    "NODE_PATH",
    "PYTHONPATH",
];
const RESERVED_PREFIX: &str = "serverless.kyma-project.io/";

/// Everything wrong with a Function, each as a sentence naming the field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationError {
    /// One message per broken rule.
    pub errors: Vec<String>,
}

impl ValidationError {
    /// An error with one message.
    pub fn single(message: impl Into<String>) -> Self {
        Self {
            errors: vec![message.into()],
        }
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.errors.join("; "))
    }
}

impl std::error::Error for ValidationError {}

/// Checks a whole Function: its name, its labels and its spec.
pub fn validate(function: &Function) -> Result<(), ValidationError> {
    let mut errors = Vec::new();
    if let Some(name) = function.metadata.name.as_deref()
        && let Err(e) = check_dns1035(name)
    {
        errors.push(format!("metadata.name {name:?} {e}"));
    }
    if let Some(preset) = function.metadata.labels.as_ref().and_then(|l| l.get(PRESET_LABEL))
        && function_preset(preset).is_none()
    {
        errors.push(format!(
            "label {PRESET_LABEL} names unknown preset {preset:?}: expected one of {}",
            preset_names(true)
        ));
    }
    validate_spec(&function.spec, &mut errors);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(ValidationError { errors })
    }
}

/// Checks that a runtime is one Shoal serves.
pub fn check_runtime(runtime: &str) -> Result<(), String> {
    if SERVED_RUNTIMES.contains(&runtime) {
        Ok(())
    } else if KYMA_ONLY_RUNTIMES.contains(&runtime) {
        Err(format!(
            "spec.runtime {runtime:?} is not served by Shoal: Shoal runs Node.js Functions only ({})",
            SERVED_RUNTIMES.join(", ")
        ))
    } else {
        Err(format!(
            "spec.runtime {runtime:?} is unknown: expected one of {}",
            SERVED_RUNTIMES.join(", ")
        ))
    }
}

/// Checks a package.json given as `inline.dependencies`.
pub fn check_dependencies(deps: &str) -> Result<(), String> {
    let trimmed = deps.trim();
    if trimmed.is_empty() {
        return Ok(());
    }
    if !trimmed.starts_with('{') || !trimmed.ends_with('}') {
        return Err(
            "spec.source.inline.dependencies must be a package.json: it has to start with '{' and end with '}'".into(),
        );
    }
    match serde_json::from_str::<serde_json::Value>(trimmed) {
        Ok(v) if v.is_object() => {
            if let Some(d) = v.get("dependencies")
                && !d.is_object()
            {
                return Err(
                    "spec.source.inline.dependencies: \"dependencies\" must be an object of package names to versions"
                        .into(),
                );
            }
            Ok(())
        }
        Ok(_) => Err("spec.source.inline.dependencies must be a JSON object".into()),
        Err(e) => Err(format!("spec.source.inline.dependencies is not valid JSON: {e}")),
    }
}

fn validate_spec(spec: &FunctionSpec, errors: &mut Vec<String>) {
    let runtime = spec
        .runtime
        .as_deref()
        .filter(|r| !r.is_empty())
        .unwrap_or(DEFAULT_RUNTIME);
    if let Err(e) = check_runtime(runtime) {
        errors.push(e);
    }

    match (&spec.source.inline, &spec.source.git_repository) {
        (Some(_), Some(_)) => {
            errors.push("spec.source must have exactly one of inline or gitRepository, not both".into())
        }
        (None, None) => errors.push("spec.source must have exactly one of inline or gitRepository".into()),
        (Some(inline), None) => {
            if inline.source.trim().is_empty() {
                errors.push("spec.source.inline.source is empty: a Function needs code that exports main".into());
            }
            if let Some(deps) = &inline.dependencies
                && let Err(e) = check_dependencies(deps)
            {
                errors.push(e);
            }
        }
        (None, Some(git)) => {
            if git.url.trim().is_empty() {
                errors.push("spec.source.gitRepository.url is empty".into());
            }
            if let Some(auth) = &git.auth {
                if auth.kind != "basic" && auth.kind != "key" {
                    errors.push(format!(
                        "spec.source.gitRepository.auth.type {:?} must be basic or key",
                        auth.kind
                    ));
                }
                if auth.secret_name.trim().is_empty() {
                    errors.push("spec.source.gitRepository.auth.secretName is empty".into());
                }
            }
        }
    }

    for (i, env) in spec.env.iter().enumerate() {
        if env.name.is_empty() {
            errors.push(format!("spec.env[{i}].name is empty"));
        } else if RESERVED_ENV.contains(&env.name.as_str()) {
            errors.push(format!("spec.env[{i}].name {:?} is reserved by the runtime", env.name));
        } else if !env.name.chars().all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c))
            || env.name.starts_with(|c: char| c.is_ascii_digit())
        {
            errors.push(format!(
                "spec.env[{i}].name {:?} is not a valid environment variable name",
                env.name
            ));
        }
        if env.value.is_some() && env.value_from.is_some() {
            errors.push(format!(
                "spec.env[{i}] ({}) must have value or valueFrom, not both",
                env.name
            ));
        }
    }

    if let Some(rc) = &spec.resource_configuration {
        validate_resources(rc, errors);
    }

    if let Some(r) = spec.replicas
        && r < 0
    {
        errors.push(format!("spec.replicas {r} must be 0 or more"));
    }
    if let Some(sc) = &spec.scale_config
        && (sc.min_replicas < 0 || sc.max_replicas < sc.min_replicas)
    {
        errors.push(format!(
            "spec.scaleConfig needs 0 <= minReplicas <= maxReplicas (got {} and {})",
            sc.min_replicas, sc.max_replicas
        ));
    }

    for (i, m) in spec.secret_mounts.iter().enumerate() {
        if m.secret_name.is_empty() || m.secret_name.len() > 253 {
            errors.push(format!(
                "spec.secretMounts[{i}].secretName must have 1 to 253 characters"
            ));
        }
        if m.mount_path.is_empty() {
            errors.push(format!("spec.secretMounts[{i}].mountPath is empty"));
        }
    }

    for (key, value) in &spec.labels {
        check_metadata_key("spec.labels", key, errors);
        if value.len() >= 64 {
            errors.push(format!("spec.labels[{key}] value must be shorter than 64 characters"));
        }
    }
    for key in spec.annotations.keys() {
        check_metadata_key("spec.annotations", key, errors);
        if key == "proxy.istio.io/config" {
            errors.push("spec.annotations[proxy.istio.io/config] is not allowed".into());
        }
    }
}

fn check_metadata_key(field: &str, key: &str, errors: &mut Vec<String>) {
    if key.starts_with(RESERVED_PREFIX) {
        errors.push(format!(
            "{field}[{key}]: keys with prefix {RESERVED_PREFIX} are reserved"
        ));
        return;
    }
    let (prefix, name) = match key.rsplit_once('/') {
        Some((p, n)) => (Some(p), n),
        None => (None, key),
    };
    let name_ok = !name.is_empty()
        && name.len() <= 63
        && name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name.ends_with(|c: char| c.is_ascii_alphanumeric());
    let prefix_ok = prefix
        .is_none_or(|p| !p.is_empty() && p.len() <= 253 && p.split('.').all(|part| check_dns1123_label(part).is_ok()));
    if !name_ok || !prefix_ok {
        errors.push(format!("{field}[{key}]: not a valid qualified name"));
    }
}

fn validate_resources(rc: &ResourceConfiguration, errors: &mut Vec<String>) {
    let parts: [(&str, &Option<ResourceRequest>, bool); 2] =
        [("function", &rc.function, true), ("build", &rc.build, false)];
    for (part, request, is_function) in parts {
        let Some(request) = request else { continue };
        let field = format!("spec.resourceConfiguration.{part}");
        match (&request.profile, &request.resources) {
            (Some(_), Some(_)) => errors.push(format!("{field} must have profile or resources, not both")),
            (Some(profile), None) => {
                let known = if is_function {
                    function_preset(profile).is_some()
                } else {
                    build_preset(profile).is_some()
                };
                if !known {
                    errors.push(format!(
                        "{field}.profile {profile:?} is unknown: expected one of {}",
                        preset_names(is_function)
                    ));
                }
            }
            (None, Some(resources)) => {
                let minimum = if is_function { FUNCTION_MINIMUM } else { BUILD_MINIMUM };
                check_requirements(&field, resources, minimum, errors);
            }
            (None, None) => {}
        }
    }
}

fn check_requirements(
    field: &str,
    r: &ResourceRequirements,
    (min_cpu_m, min_mem): (f64, f64),
    errors: &mut Vec<String>,
) {
    let get =
        |map: &Option<std::collections::BTreeMap<String, k8s_openapi::apimachinery::pkg::api::resource::Quantity>>,
         key: &str| {
            map.as_ref()
                .and_then(|m| m.get(key))
                .map(|q| (q.0.clone(), parse_quantity(&q.0)))
        };
    for (kind, map) in [("requests", &r.requests), ("limits", &r.limits)] {
        for (resource, min, unit) in [
            ("cpu", min_cpu_m / 1000.0, format!("{min_cpu_m}m")),
            ("memory", min_mem, format!("{}Mi", min_mem / 1048576.0)),
        ] {
            match get(map, resource) {
                Some((raw, None)) => {
                    errors.push(format!("{field}.resources.{kind}.{resource} {raw:?} is not a quantity"))
                }
                Some((raw, Some(v))) if v < min => errors.push(format!(
                    "{field}.resources.{kind}.{resource} {raw} is below the minimum {unit}"
                )),
                _ => {}
            }
        }
    }
    for resource in ["cpu", "memory"] {
        if let (Some((rq, Some(request))), Some((lq, Some(limit)))) =
            (get(&r.requests, resource), get(&r.limits, resource))
            && request > limit
        {
            errors.push(format!(
                "{field}.resources: {resource} request {rq} exceeds its limit {lq}"
            ));
        }
    }
}

fn preset_names(function: bool) -> String {
    let presets = if function {
        crate::FUNCTION_PRESETS
    } else {
        crate::BUILD_PRESETS
    };
    presets.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
}

fn check_dns1123_label(s: &str) -> Result<(), String> {
    let ok = !s.is_empty()
        && s.len() <= 63
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !s.starts_with('-')
        && !s.ends_with('-');
    if ok {
        Ok(())
    } else {
        Err("must be a DNS-1123 label".into())
    }
}

/// A DNS-1035 label: what Kubernetes requires of a Service name.
pub fn check_dns1035(s: &str) -> Result<(), String> {
    if s.is_empty() || s.len() > 63 {
        return Err("must have 1 to 63 characters".into());
    }
    let ok = s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !s.ends_with('-');
    if ok {
        Ok(())
    } else {
        Err("must be a DNS-1035 label: lower-case letters, digits and '-', starting with a letter and not ending with '-'".into())
    }
}

/// The presets a Function gets when it names none (Kyma's defaults unless
/// an operator chose others).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Defaults {
    /// Function preset (XS..XL).
    pub function_preset: String,
    /// Build preset (local-dev, slow, normal, fast).
    pub build_preset: String,
}

impl Default for Defaults {
    fn default() -> Self {
        Self {
            function_preset: DEFAULT_FUNCTION_PRESET.into(),
            build_preset: DEFAULT_BUILD_PRESET.into(),
        }
    }
}

impl Defaults {
    /// Checks that both presets exist.
    pub fn check(&self) -> Result<(), String> {
        if function_preset(&self.function_preset).is_none() {
            return Err(format!(
                "default function preset {:?} is unknown: expected one of {}",
                self.function_preset,
                preset_names(true)
            ));
        }
        if build_preset(&self.build_preset).is_none() {
            return Err(format!(
                "default build preset {:?} is unknown: expected one of {}",
                self.build_preset,
                preset_names(false)
            ));
        }
        Ok(())
    }
}

/// Fills in what Kyma's defaulting webhook fills in, with Kyma's presets.
/// Returns whether anything changed.
pub fn apply_defaults(function: &mut Function) -> bool {
    apply_defaults_with(function, &Defaults::default())
}

/// [`apply_defaults`] with chosen default presets.
pub fn apply_defaults_with(function: &mut Function, defaults: &Defaults) -> bool {
    let before = function.spec.clone();
    let spec = &mut function.spec;
    if spec.runtime.as_deref().is_none_or(str::is_empty) {
        spec.runtime = Some(DEFAULT_RUNTIME.to_string());
    }
    if spec.replicas.is_none() {
        spec.replicas = Some(spec.scale_config.as_ref().map_or(1, |s| s.min_replicas.max(0)));
    }
    let label_preset = function
        .metadata
        .labels
        .as_ref()
        .and_then(|l| l.get(PRESET_LABEL))
        .filter(|p| function_preset(p).is_some())
        .cloned();
    let rc = spec.resource_configuration.get_or_insert_with(Default::default);
    let f = rc.function.get_or_insert_with(Default::default);
    if f.profile.is_none() && f.resources.is_none() {
        f.profile = Some(label_preset.unwrap_or_else(|| defaults.function_preset.clone()));
    }
    let b = rc.build.get_or_insert_with(Default::default);
    if b.profile.is_none() && b.resources.is_none() {
        b.profile = Some(defaults.build_preset.clone());
    }
    function.spec != before
}

/// The memory limit in bytes a Function runs under: its preset's limit, or
/// its explicit `resources.limits.memory`.
pub fn function_memory_limit(spec: &FunctionSpec) -> u64 {
    function_limit(spec, "memory", |p| p.limit_memory).unwrap_or(1024.0 * 1024.0 * 1024.0) as u64
}

/// The CPU (cores) a Function may use in all: its CPU limit (explicit
/// `resources.limits.cpu`, else its preset's, the default preset's when it
/// names none) times the replicas Kyma would give it at most
/// (`scaleConfig.maxReplicas`, else `replicas`, at least one).
pub fn function_cpu_limit(spec: &FunctionSpec) -> f64 {
    let per_replica = function_limit(spec, "cpu", |p| p.limit_cpu).unwrap_or(1.0);
    let replicas = spec
        .scale_config
        .as_ref()
        .map(|s| s.max_replicas)
        .or(spec.replicas)
        .unwrap_or(1)
        .max(1);
    per_replica * f64::from(replicas)
}

fn function_limit(spec: &FunctionSpec, resource: &str, of_preset: fn(&Preset) -> &'static str) -> Option<f64> {
    let request = spec.resource_configuration.as_ref().and_then(|r| r.function.as_ref());
    let explicit = request
        .and_then(|r| r.resources.as_ref())
        .and_then(|r| r.limits.as_ref())
        .and_then(|l| l.get(resource))
        .and_then(|q| parse_quantity(&q.0));
    let preset = request
        .and_then(|r| r.profile.as_deref())
        .and_then(function_preset)
        .or_else(|| function_preset(DEFAULT_FUNCTION_PRESET))
        .and_then(|p| parse_quantity(of_preset(p)));
    explicit.or(preset)
}
