//! How the controller builds and where Functions are served.

use std::collections::BTreeMap;
use std::time::Duration;

/// How the controller builds and where Functions are served.
#[derive(Debug, Clone)]
pub struct ControllerConfig {
    /// Namespace of the controller and the node pods.
    pub namespace: String,
    /// Image of the build Jobs (it holds `shoal` and the JS tooling).
    pub builder_image: String,
    /// `imagePullPolicy` of build Jobs.
    pub builder_pull_policy: Option<String>,
    /// ServiceAccount of build Jobs (they need no API access).
    pub builder_service_account: Option<String>,
    /// Registry and repository prefix modules are pushed to, e.g.
    /// `shoal-registry.shoal-system.svc.cluster.local:5000/functions`.
    pub registry: String,
    /// `host:port` registries reached over plain HTTP.
    pub insecure_registries: Vec<String>,
    /// Secret in [`Self::namespace`] with `username` and `password` for the
    /// registry, copied to each Function namespace for its build Jobs.
    pub registry_secret: Option<String>,
    /// Labels that select the node pods.
    pub node_labels: BTreeMap<String, String>,
    /// The node pods' own HTTP port (Host and path routing; health).
    pub node_port: i32,
    /// The ports given to Functions, one each: node pods serve a Function
    /// on its port, where its EndpointSlice points.
    pub serving_ports: std::ops::RangeInclusive<u16>,
    /// Build Jobs allowed to run at once, cluster-wide.
    pub max_concurrent_builds: usize,
    /// Retries of a failed build pod before the build is failed.
    pub build_backoff_limit: i32,
    /// A build running longer than this is failed.
    pub build_deadline: Duration,
    /// Presets for Functions that name none.
    pub defaults: shoal_api::Defaults,
    /// How often a Git source's reference is looked at for a new commit.
    pub git_poll_interval: Duration,
    /// A Secret (in each Function's namespace, optional) whose `.npmrc` key
    /// builds use for npm, unless the Function's
    /// `shoal.dev/npmrc-secret` annotation names another.
    pub npmrc_secret: Option<String>,
    /// The node pods' ServiceAccount (in [`Self::namespace`]). When set,
    /// each Function that references Secrets or ConfigMaps gets a Role
    /// letting that account get exactly those ([`resources::node_access`]);
    /// the account needs no right to read Secrets of its own.
    pub node_service_account: Option<String>,
    /// The key the in-cluster registry's gate checks build tokens with.
    /// When set, each build gets a token to push its own Function's
    /// repository only, for as long as the build may run
    /// ([`resources::push_secret`]), instead of registry credentials.
    pub registry_token_key: Option<shoal_oci::token::TokenKey>,
    /// The build service, when builds go there rather than to a Job each
    /// ([`super::builders`]); a Function it cannot take still gets a Job.
    pub build_service: Option<super::builders::BuildServiceConfig>,
}

impl Default for ControllerConfig {
    fn default() -> Self {
        Self {
            namespace: "shoal-system".into(),
            builder_image: "shoal-builder:latest".into(),
            builder_pull_policy: None,
            builder_service_account: None,
            registry: "localhost:5000/functions".into(),
            insecure_registries: Vec::new(),
            registry_secret: None,
            node_labels: BTreeMap::from([
                ("app.kubernetes.io/name".to_string(), "shoal".to_string()),
                ("app.kubernetes.io/component".to_string(), "node".to_string()),
            ]),
            node_port: 8080,
            serving_ports: DEFAULT_SERVING_PORTS,
            max_concurrent_builds: 5,
            build_backoff_limit: 2,
            build_deadline: Duration::from_secs(600),
            defaults: shoal_api::Defaults::default(),
            // Kyma's default.
            git_poll_interval: Duration::from_secs(300),
            npmrc_secret: None,
            node_service_account: None,
            registry_token_key: None,
            build_service: None,
        }
    }
}

/// Ports given to Functions unless configured: 16,384 of them (more than the
/// about 10,000 Services a cluster holds), above Istio's (15000-15090) and
/// below Linux's ephemeral range (32768-60999), so the node's own outbound
/// connections never hold a Function's port.
pub const DEFAULT_SERVING_PORTS: std::ops::RangeInclusive<u16> = 16384..=32767;

impl ControllerConfig {
    /// The node selector as a label-selector string (`k=v,k=v`).
    pub fn node_selector(&self) -> String {
        label_selector(&self.node_labels)
    }
}

/// Labels as a label-selector string (`k=v,k=v`).
pub fn label_selector(labels: &BTreeMap<String, String>) -> String {
    labels
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(",")
}
