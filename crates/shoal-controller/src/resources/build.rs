//! What a build Job needs: the source ConfigMap, the Job and its way into
//! the registry.

use std::collections::BTreeMap;

use k8s_openapi::api::batch::v1::{
    Job, JobSpec, PodFailurePolicy, PodFailurePolicyOnPodConditionsPattern, PodFailurePolicyRule,
};
use k8s_openapi::api::core::v1::{
    Capabilities, ConfigMap, ConfigMapVolumeSource, Container, EmptyDirVolumeSource, EnvVar, EnvVarSource, KeyToPath,
    PodSecurityContext, PodSpec, PodTemplateSpec, SeccompProfile, Secret, SecretKeySelector, SecretVolumeSource,
    SecurityContext, Volume, VolumeMount,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube::ResourceExt;
use shoal_api::cluster::{self, source_keys};
use shoal_api::{BuildInputs, Function};

use crate::reconcile::ControllerConfig;

use super::owned_meta;
use super::plan::{BuildPlan, GitBuild, build_resources, npmrc_secret};

/// Name of the registry-credentials Secret copied into a Function's
/// namespace for its build Jobs.
pub const REGISTRY_SECRET_COPY: &str = "shoal-build-registry-credentials";
/// Where the build Job mounts the source ConfigMap.
const SOURCE_MOUNT: &str = "/function";

/// The ConfigMap holding a Function's source, dependencies and runtime; the
/// build Job mounts it.
pub fn source_config_map(function: &Function, inputs: &BuildInputs) -> ConfigMap {
    let mut meta = owned_meta(
        function,
        cluster::source_config_map_name(&function.name_any()),
        cluster::ROLE_SOURCE,
    );
    meta.annotations = Some(BTreeMap::from([(
        cluster::BUILD_HASH_ANNOTATION.to_string(),
        inputs.hash(),
    )]));
    let mut data = BTreeMap::from([
        (source_keys::SOURCE.to_string(), inputs.source.clone()),
        (source_keys::RUNTIME.to_string(), inputs.runtime.clone()),
    ]);
    if let Some(deps) = &inputs.dependencies {
        data.insert(source_keys::DEPENDENCIES.to_string(), deps.clone());
    }
    ConfigMap {
        metadata: meta,
        data: Some(data),
        ..ConfigMap::default()
    }
}

/// The OCI reference a build pushes to: one tag per build-input hash.
pub fn artifact_tag(config: &ControllerConfig, function: &Function, hash: &str) -> String {
    let short: String = hash.chars().take(16).collect();
    format!(
        "{}/{}/{}:{short}",
        config.registry.trim_end_matches('/'),
        function.namespace().unwrap_or_default(),
        function.name_any()
    )
}

/// Where a Git build Job mounts the auth Secret.
const GIT_AUTH_MOUNT: &str = "/git-auth";
/// Where a build Job mounts the `.npmrc` Secret.
const NPMRC_MOUNT: &str = "/npmrc";

/// The build Job for one build-input hash. It runs `shoal build` in the
/// builder image (on the source ConfigMap, or on the Git commit it
/// fetches), pushes to the registry and writes the pinned reference (or the
/// compiler's or Git's message) to its termination log.
pub fn build_job(config: &ControllerConfig, function: &Function, plan: &BuildPlan) -> Job {
    let name = function.name_any();
    let namespace = function.namespace().unwrap_or_default();
    let hash = plan.hash();
    let mut meta = owned_meta(function, cluster::build_job_name(&name, &hash), cluster::ROLE_BUILD);
    let short_hash: String = hash.chars().take(32).collect();
    if let Some(labels) = meta.labels.as_mut() {
        labels.insert(cluster::BUILD_HASH_LABEL.to_string(), short_hash);
    }
    meta.annotations = Some(BTreeMap::from([(
        cluster::BUILD_HASH_ANNOTATION.to_string(),
        hash.clone(),
    )]));

    let mut items = vec![KeyToPath {
        key: source_keys::SOURCE.into(),
        path: "handler.js".into(),
        ..KeyToPath::default()
    }];
    if let BuildPlan::Inline(inputs) = plan
        && inputs.dependencies.is_some()
    {
        items.push(KeyToPath {
            key: source_keys::DEPENDENCIES.into(),
            path: "package.json".into(),
            ..KeyToPath::default()
        });
    }
    let what = match plan {
        BuildPlan::Inline(_) => SOURCE_MOUNT.to_string(),
        BuildPlan::Git(git) => format!("git+{}#{}:{}", git.url, git.commit, git.base_dir),
    };
    let git_auth = match plan {
        BuildPlan::Git(GitBuild { auth: Some(auth), .. }) => Some(auth.clone()),
        _ => None,
    };
    // A private npm registry's .npmrc, from an optional Secret: a Function
    // without one builds as before.
    let npmrc_secret = npmrc_secret(config, function);
    let mut env = vec![
        plain_env("HOME", "/tmp"),
        plain_env("SHOAL_CACHE_DIR", "/tmp/shoal-cache"),
        plain_env("npm_config_cache", "/tmp/npm-cache"),
        plain_env("SHOAL_INSECURE_REGISTRIES", &config.insecure_registries.join(",")),
    ];
    let credentials = if config.registry_token_key.is_some() {
        Some(push_secret_name(&function.name_any()))
    } else {
        config
            .registry_secret
            .as_ref()
            .map(|_| REGISTRY_SECRET_COPY.to_string())
    };
    if let Some(secret) = credentials {
        for (var, key) in [
            ("SHOAL_REGISTRY_USER", "username"),
            ("SHOAL_REGISTRY_PASSWORD", "password"),
        ] {
            env.push(EnvVar {
                name: var.into(),
                value_from: Some(EnvVarSource {
                    secret_key_ref: Some(SecretKeySelector {
                        name: secret.clone(),
                        key: key.into(),
                        optional: Some(false),
                    }),
                    ..EnvVarSource::default()
                }),
                ..EnvVar::default()
            });
        }
    }
    let container = Container {
        name: "build".into(),
        image: Some(config.builder_image.clone()),
        image_pull_policy: config.builder_pull_policy.clone(),
        args: Some({
            let mut args = vec![
                "build".into(),
                what,
                "--name".into(),
                format!("{namespace}/{name}"),
                "--runtime".into(),
                plan.runtime().to_string(),
                "--push".into(),
                artifact_tag(config, function, &hash),
                "--result-file".into(),
                "/dev/termination-log".into(),
            ];
            if npmrc_secret.is_some() {
                args.extend(["--npmrc".into(), format!("{NPMRC_MOUNT}/.npmrc")]);
            }
            if let Some(auth) = &git_auth {
                args.extend([
                    "--git-auth-dir".into(),
                    GIT_AUTH_MOUNT.into(),
                    "--git-auth-type".into(),
                    auth.kind.clone(),
                ]);
            }
            args
        }),
        env: Some(env),
        resources: Some(build_resources(function)),
        termination_message_policy: Some("FallbackToLogsOnError".into()),
        volume_mounts: Some({
            let mut mounts = vec![VolumeMount {
                name: "tmp".into(),
                mount_path: "/tmp".into(),
                ..VolumeMount::default()
            }];
            match plan {
                BuildPlan::Inline(_) => mounts.push(VolumeMount {
                    name: "source".into(),
                    mount_path: SOURCE_MOUNT.into(),
                    read_only: Some(true),
                    ..VolumeMount::default()
                }),
                BuildPlan::Git(_) if git_auth.is_some() => mounts.push(VolumeMount {
                    name: "git-auth".into(),
                    mount_path: GIT_AUTH_MOUNT.into(),
                    read_only: Some(true),
                    ..VolumeMount::default()
                }),
                BuildPlan::Git(_) => {}
            }
            if npmrc_secret.is_some() {
                mounts.push(VolumeMount {
                    name: "npmrc".into(),
                    mount_path: NPMRC_MOUNT.into(),
                    read_only: Some(true),
                    ..VolumeMount::default()
                });
            }
            mounts
        }),
        security_context: Some(restricted_container()),
        ..Container::default()
    };
    Job {
        metadata: meta.clone(),
        spec: Some(JobSpec {
            backoff_limit: Some(config.build_backoff_limit),
            active_deadline_seconds: Some(config.build_deadline.as_secs() as i64),
            // An evicted or preempted build pod is not the build's fault:
            // retry it without spending the backoff budget.
            pod_failure_policy: Some(PodFailurePolicy {
                rules: vec![PodFailurePolicyRule {
                    action: "Ignore".into(),
                    on_pod_conditions: Some(vec![PodFailurePolicyOnPodConditionsPattern {
                        type_: "DisruptionTarget".into(),
                        status: shoal_api::ConditionStatus::True.to_string(),
                    }]),
                    ..PodFailurePolicyRule::default()
                }],
            }),
            template: PodTemplateSpec {
                metadata: Some(ObjectMeta {
                    labels: meta.labels.clone(),
                    annotations: Some(BTreeMap::from([(
                        "sidecar.istio.io/inject".to_string(),
                        "false".to_string(),
                    )])),
                    ..ObjectMeta::default()
                }),
                spec: Some(PodSpec {
                    restart_policy: Some("Never".into()),
                    automount_service_account_token: Some(false),
                    service_account_name: config.builder_service_account.clone(),
                    security_context: Some(PodSecurityContext {
                        run_as_non_root: Some(true),
                        run_as_user: Some(65532),
                        run_as_group: Some(65532),
                        // Mounted Secrets (Git credentials, .npmrc) belong to
                        // this group, so the non-root build can read them.
                        fs_group: Some(65532),
                        seccomp_profile: Some(SeccompProfile {
                            type_: "RuntimeDefault".into(),
                            ..SeccompProfile::default()
                        }),
                        ..PodSecurityContext::default()
                    }),
                    containers: vec![container],
                    volumes: Some({
                        let mut volumes = vec![Volume {
                            name: "tmp".into(),
                            empty_dir: Some(EmptyDirVolumeSource::default()),
                            ..Volume::default()
                        }];
                        match (plan, &git_auth) {
                            (BuildPlan::Inline(_), _) => volumes.push(Volume {
                                name: "source".into(),
                                config_map: Some(ConfigMapVolumeSource {
                                    name: cluster::source_config_map_name(&name),
                                    items: Some(items),
                                    ..ConfigMapVolumeSource::default()
                                }),
                                ..Volume::default()
                            }),
                            (BuildPlan::Git(_), Some(auth)) => volumes.push(Volume {
                                name: "git-auth".into(),
                                secret: Some(SecretVolumeSource {
                                    secret_name: Some(auth.secret_name.clone()),
                                    // Readable by the build's group (fsGroup): the
                                    // build copies the key to a file of its own
                                    // mode 0600 for ssh.
                                    default_mode: Some(0o440),
                                    ..SecretVolumeSource::default()
                                }),
                                ..Volume::default()
                            }),
                            (BuildPlan::Git(_), None) => {}
                        }
                        if let Some(secret) = &npmrc_secret {
                            volumes.push(Volume {
                                name: "npmrc".into(),
                                secret: Some(SecretVolumeSource {
                                    secret_name: Some(secret.clone()),
                                    items: Some(vec![KeyToPath {
                                        key: ".npmrc".into(),
                                        path: ".npmrc".into(),
                                        ..KeyToPath::default()
                                    }]),
                                    // Absent: npm uses the public registry.
                                    optional: Some(true),
                                    ..SecretVolumeSource::default()
                                }),
                                ..Volume::default()
                            });
                        }
                        volumes
                    }),
                    ..PodSpec::default()
                }),
            },
            ..JobSpec::default()
        }),
        ..Job::default()
    }
}

fn plain_env(name: &str, value: &str) -> EnvVar {
    EnvVar {
        name: name.into(),
        value: Some(value.into()),
        ..EnvVar::default()
    }
}

fn restricted_container() -> SecurityContext {
    SecurityContext {
        allow_privilege_escalation: Some(false),
        read_only_root_filesystem: Some(true),
        run_as_non_root: Some(true),
        capabilities: Some(Capabilities {
            drop: Some(vec!["ALL".into()]),
            ..Capabilities::default()
        }),
        ..SecurityContext::default()
    }
}

/// The registry credentials copied into a Function's namespace, because a
/// Job can only read Secrets of its own namespace.
pub fn registry_secret_copy(source: &Secret, namespace: &str) -> Secret {
    Secret {
        metadata: ObjectMeta {
            name: Some(REGISTRY_SECRET_COPY.into()),
            namespace: Some(namespace.into()),
            labels: Some(BTreeMap::from([(
                cluster::MANAGED_BY_LABEL.to_string(),
                cluster::MANAGED_BY.to_string(),
            )])),
            ..ObjectMeta::default()
        },
        data: source.data.clone(),
        type_: Some("Opaque".into()),
        ..Secret::default()
    }
}

/// The registry repository a Function's modules are pushed to
/// (`functions/<namespace>/<name>`): the registry address without its host.
pub fn repository(config: &ControllerConfig, function: &Function) -> String {
    let prefix = config
        .registry
        .trim_end_matches('/')
        .split_once('/')
        .map_or("", |(_, path)| path);
    let namespace = function.namespace().unwrap_or_default();
    let name = function.name_any();
    if prefix.is_empty() {
        format!("{namespace}/{name}")
    } else {
        format!("{prefix}/{namespace}/{name}")
    }
}

/// Name of the Secret holding a Function's build token.
pub fn push_secret_name(function: &str) -> String {
    format!("{function}-shoal-push")
}

/// The Secret a Function's build Job reads its registry token from
/// (`username`, `password`, as registry credentials): owned by the
/// Function, rewritten with a fresh token for each build.
pub fn push_secret(function: &Function, token: &str) -> Secret {
    use k8s_openapi::ByteString;
    Secret {
        metadata: owned_meta(function, push_secret_name(&function.name_any()), cluster::ROLE_BUILD),
        data: Some(BTreeMap::from([
            ("username".to_string(), ByteString(b"shoal-build".to_vec())),
            ("password".to_string(), ByteString(token.as_bytes().to_vec())),
        ])),
        type_: Some("Opaque".into()),
        ..Secret::default()
    }
}
