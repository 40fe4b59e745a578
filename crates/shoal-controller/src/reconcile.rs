//! The Function reconciler.
//!
//! One pass, in order: validate (ConfigurationReady), store the source in a
//! ConfigMap, make sure the module for this exact source exists (BuildReady:
//! one deterministic Job per build-input hash, so restarts and retries never
//! start a second build), then publish it (Running: the Service and the
//! EndpointSlice listing the node pods that serve the built digest). Status
//! is written with server-side apply; conditions keep their transition time
//! while their status holds.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::api::core::v1::{ConfigMap, Pod, Secret, Service};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use k8s_openapi::api::rbac::v1::{Role, RoleBinding};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams, PostParams, PropagationPolicy};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::events::{Event, EventType, Recorder, Reporter};
use kube::runtime::finalizer::{Event as Finalizer, finalizer};
use kube::runtime::reflector::{ObjectRef, Store};
use kube::runtime::{WatchStreamExt, reflector, watcher};
use kube::{Client, Resource, ResourceExt};
use serde::Deserialize;
use shoal_api::cluster;
use shoal_api::{Condition, Function, FunctionStatus, condition};

use crate::git::{GitPoller, RefKey};
use crate::resources::{self, BuildPlan, GitBuild};

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
        self.node_labels
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// What the reconciler knows about node pods and what they serve, from
/// watches shared by all reconciles.
#[derive(Clone)]
pub struct NodeView {
    /// Node pods.
    pub pods: Store<Pod>,
    /// What each node publishes, indexed by Function.
    pub statuses: Arc<NodeStatuses>,
}

impl NodeView {
    /// A view of `pods` with nothing published yet.
    pub fn new(pods: Store<Pod>) -> Self {
        Self {
            pods,
            statuses: Arc::new(NodeStatuses::default()),
        }
    }

    /// Ready node pods that have published their status, by name.
    fn ready_with_status(&self) -> BTreeMap<String, Arc<Pod>> {
        let statuses = self.statuses.lock();
        self.pods
            .state()
            .into_iter()
            .filter(|pod| is_ready(pod) && statuses.shards_by_pod.contains_key(&pod.name_any()))
            .map(|pod| (pod.name_any(), pod))
            .collect()
    }

    /// Ready node pods with an IP that serve `function`: at `digest` when
    /// given, else at any digest (a node still serving the previous build).
    pub fn serving(&self, namespace: &str, name: &str, digest: Option<&str>) -> Vec<Arc<Pod>> {
        let ready = self.ready_with_status();
        let statuses = self.statuses.lock();
        let Some(by_pod) = statuses.serving.get(&(namespace.to_string(), name.to_string())) else {
            return Vec::new();
        };
        by_pod
            .iter()
            .filter(|(_, served)| digest.is_none_or(|d| served.as_str() == d))
            .filter_map(|(pod, _)| ready.get(pod).cloned())
            .collect()
    }

    /// Why ready node pods could not load `function`: `(pod, message)`.
    pub fn load_errors(&self, namespace: &str, name: &str) -> Vec<(String, String)> {
        let ready = self.ready_with_status();
        let statuses = self.statuses.lock();
        statuses
            .errors
            .get(&(namespace.to_string(), name.to_string()))
            .into_iter()
            .flatten()
            .filter(|(pod, _)| ready.contains_key(*pod))
            .map(|(pod, message)| (pod.clone(), message.clone()))
            .collect()
    }

    /// Ready node pods.
    pub fn ready_nodes(&self) -> usize {
        self.pods.state().iter().filter(|p| is_ready(p)).count()
    }
}

/// The node status ConfigMaps, indexed by Function, fed from their watch.
#[derive(Default)]
pub struct NodeStatuses {
    index: std::sync::Mutex<StatusIndex>,
}

type FunctionId = (String, String);

#[derive(Default)]
struct StatusIndex {
    /// Each status ConfigMap as last seen: its pod, what it serves (at
    /// which digest) and what failed (with why).
    shards: HashMap<String, Shard>,
    /// Status ConfigMaps per node pod.
    shards_by_pod: HashMap<String, usize>,
    serving: HashMap<FunctionId, BTreeMap<String, String>>,
    errors: HashMap<FunctionId, BTreeMap<String, String>>,
    /// Shards seen since a re-list began (the others are gone).
    relisted: Option<HashSet<String>>,
}

#[derive(Default, Clone, PartialEq)]
struct Shard {
    pod: String,
    served: BTreeMap<FunctionId, String>,
    errors: BTreeMap<FunctionId, String>,
}

impl NodeStatuses {
    fn lock(&self) -> std::sync::MutexGuard<'_, StatusIndex> {
        self.index.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Takes in one watch event of the node status ConfigMaps and returns
    /// the Functions whose serving state it changed (only those need a
    /// reconcile).
    pub fn apply(&self, event: &watcher::Event<ConfigMap>) -> Vec<ObjectRef<Function>> {
        let mut index = self.lock();
        let mut changed = BTreeSet::new();
        match event {
            watcher::Event::Init => index.relisted = Some(HashSet::new()),
            watcher::Event::InitApply(cm) | watcher::Event::Apply(cm) => {
                let name = cm.name_any();
                if let Some(seen) = index.relisted.as_mut() {
                    seen.insert(name.clone());
                }
                index.put(name, Some(Shard::from_config_map(cm)), &mut changed);
            }
            watcher::Event::InitDone => {
                let seen = index.relisted.take().unwrap_or_default();
                let gone: Vec<String> = index.shards.keys().filter(|n| !seen.contains(*n)).cloned().collect();
                for name in gone {
                    index.put(name, None, &mut changed);
                }
            }
            watcher::Event::Delete(cm) => index.put(cm.name_any(), None, &mut changed),
        }
        changed
            .into_iter()
            .map(|(namespace, name)| ObjectRef::new(&name).within(&namespace))
            .collect()
    }
}

impl Shard {
    fn from_config_map(cm: &ConfigMap) -> Self {
        let data = cm.data.clone().unwrap_or_default();
        let text = |key: &str| data.get(key).map(String::as_str).unwrap_or("");
        Self {
            pod: text(cluster::NODE_POD_KEY).to_string(),
            served: cluster::parse_served(text(cluster::NODE_STATUS_KEY))
                .into_iter()
                .map(|f| ((f.namespace, f.name), f.digest))
                .collect(),
            errors: cluster::parse_errors(text(cluster::NODE_ERRORS_KEY)),
        }
    }
}

impl StatusIndex {
    /// Replaces (or removes) one shard, noting the Functions whose entry
    /// differs.
    fn put(&mut self, name: String, shard: Option<Shard>, changed: &mut BTreeSet<FunctionId>) {
        let old = self.shards.remove(&name);
        if old == shard {
            if let Some(shard) = shard {
                self.shards.insert(name, shard);
            }
            return;
        }
        if let Some(old) = &old {
            if let Some(count) = self.shards_by_pod.get_mut(&old.pod) {
                *count -= 1;
                if *count == 0 {
                    self.shards_by_pod.remove(&old.pod);
                }
            }
            for (id, digest) in &old.served {
                let still = shard.as_ref().and_then(|s| s.served.get(id));
                if still != Some(digest) || shard.as_ref().is_some_and(|s| s.pod != old.pod) {
                    changed.insert(id.clone());
                }
                remove_entry(&mut self.serving, id, &old.pod);
            }
            for (id, message) in &old.errors {
                if shard.as_ref().and_then(|s| s.errors.get(id)) != Some(message) {
                    changed.insert(id.clone());
                }
                remove_entry(&mut self.errors, id, &old.pod);
            }
        }
        if let Some(shard) = shard {
            *self.shards_by_pod.entry(shard.pod.clone()).or_default() += 1;
            for (id, digest) in &shard.served {
                if old.as_ref().and_then(|o| o.served.get(id)) != Some(digest) {
                    changed.insert(id.clone());
                }
                self.serving
                    .entry(id.clone())
                    .or_default()
                    .insert(shard.pod.clone(), digest.clone());
            }
            for (id, message) in &shard.errors {
                if old.as_ref().and_then(|o| o.errors.get(id)) != Some(message) {
                    changed.insert(id.clone());
                }
                self.errors
                    .entry(id.clone())
                    .or_default()
                    .insert(shard.pod.clone(), message.clone());
            }
            self.shards.insert(name, shard);
        }
    }
}

fn remove_entry(map: &mut HashMap<FunctionId, BTreeMap<String, String>>, id: &FunctionId, pod: &str) {
    if let Some(by_pod) = map.get_mut(id) {
        by_pod.remove(pod);
        if by_pod.is_empty() {
            map.remove(id);
        }
    }
}

/// Follows node pods and tells when one's serving state (ready, address)
/// changed: only then do Functions' endpoints change.
#[derive(Default)]
pub struct NodePodChanges {
    known: HashMap<String, (bool, Option<String>)>,
    relisted: Option<HashSet<String>>,
}

impl NodePodChanges {
    /// Takes in one watch event of the node pods; true when a pod became
    /// ready or unready, changed address, or went.
    pub fn apply(&mut self, event: &watcher::Event<Pod>) -> bool {
        let state = |pod: &Pod| (is_ready(pod), pod.status.as_ref().and_then(|s| s.pod_ip.clone()));
        match event {
            watcher::Event::Init => {
                self.relisted = Some(HashSet::new());
                false
            }
            watcher::Event::InitApply(pod) | watcher::Event::Apply(pod) => {
                if let Some(seen) = self.relisted.as_mut() {
                    seen.insert(pod.name_any());
                }
                self.known.insert(pod.name_any(), state(pod)) != Some(state(pod))
            }
            watcher::Event::InitDone => {
                let seen = self.relisted.take().unwrap_or_default();
                let before = self.known.len();
                self.known.retain(|name, _| seen.contains(name));
                self.known.len() != before
            }
            watcher::Event::Delete(pod) => self.known.remove(&pod.name_any()).is_some(),
        }
    }
}

/// A pod that is Ready, has an IP and is not being deleted.
pub fn is_ready(pod: &Pod) -> bool {
    pod.metadata.deletion_timestamp.is_none()
        && pod.status.as_ref().is_some_and(|s| {
            s.pod_ip.is_some()
                && s.conditions
                    .iter()
                    .flatten()
                    .any(|c| c.type_ == "Ready" && c.status == "True")
        })
}

/// Shared state of all reconciles.
pub struct Context {
    /// The API client.
    pub client: Client,
    /// Configuration.
    pub config: ControllerConfig,
    /// Node pods and what they serve.
    pub nodes: NodeView,
    /// Build Jobs running now, counted against the cap.
    build_slots: std::sync::Mutex<BuildSlots>,
    /// What each object the controller applies was last applied as (a hash
    /// of the desired object, and the resourceVersion the write gave it):
    /// an unchanged one is not written again unless someone else changed
    /// or deleted it since ([`Context::observed`]).
    applied: std::sync::Mutex<HashMap<String, (u64, Option<String>)>>,
    /// Functions whose build Jobs for a hash are known to be deleted.
    jobs_cleaned: std::sync::Mutex<HashSet<(String, String, String)>>,
    /// Records Kubernetes Events on Functions.
    recorder: Recorder,
    /// Git references, polled.
    pub git: GitPoller,
    /// Serving ports by Function.
    ports: std::sync::Mutex<Ports>,
    /// All Functions (the controller's watch cache), from which the port
    /// allocator learns the ports already recorded before it hands any out.
    functions: Option<Store<Function>>,
}

/// How [`Context::apply_if_changed`] keys what it applied.
fn applied_key(kind: &str, namespace: &str, name: &str) -> String {
    format!("{kind}/{namespace}/{name}")
}

struct Ports {
    allocator: crate::ports::PortAllocator,
    seeded: bool,
}

/// The build Jobs counted against `max_concurrent_builds`: a counting
/// semaphore whose permits are Jobs, taken when a Job is created and given
/// back when it is seen finished or gone. Learned from one list of the
/// build Jobs when first needed (after a restart, Jobs may be running).
#[derive(Default)]
struct BuildSlots {
    running: HashSet<(String, String)>,
    seeded: bool,
}

impl Context {
    /// Applies `object` (server-side apply) unless it was last applied
    /// exactly so; true when it wrote.
    async fn apply_if_changed<K>(&self, api: &Api<K>, name: &str, object: &K) -> Result<bool, kube::Error>
    where
        K: kube::Resource + Clone + serde::Serialize + serde::de::DeserializeOwned + std::fmt::Debug,
        K::DynamicType: Default,
    {
        let key = applied_key(
            &K::kind(&K::DynamicType::default()),
            object.meta().namespace.as_deref().unwrap_or(""),
            name,
        );
        let hash = {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            serde_json::to_string(object).unwrap_or_default().hash(&mut h);
            h.finish()
        };
        if self
            .applied
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&key)
            .map(|a| a.0)
            == Some(hash)
        {
            return Ok(false);
        }
        let written = api.patch(name, &apply_params(), &Patch::Apply(object)).await?;
        self.applied
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(key, (hash, written.meta().resource_version.clone()));
        Ok(true)
    }

    /// Takes the record that `name` (of kind `K`) was applied out; true
    /// when there was one.
    fn take_applied<K>(&self, namespace: &str, name: &str) -> bool
    where
        K: kube::Resource,
        K::DynamicType: Default,
    {
        let key = applied_key(&K::kind(&K::DynamicType::default()), namespace, name);
        self.applied
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&key)
            .is_some()
    }

    /// Takes in a watch event of a Service or EndpointSlice the controller
    /// applies: when it is gone, or changed by someone else, it is no
    /// longer as applied, and its Function (returned) needs a pass.
    pub fn observed<K>(&self, event: &watcher::Event<K>) -> Vec<ObjectRef<Function>>
    where
        K: kube::Resource,
        K::DynamicType: Default,
    {
        let (object, deleted) = match event {
            watcher::Event::Apply(o) | watcher::Event::InitApply(o) => (o, false),
            watcher::Event::Delete(o) => (o, true),
            watcher::Event::Init | watcher::Event::InitDone => return Vec::new(),
        };
        let meta = object.meta();
        let namespace = meta.namespace.clone().unwrap_or_default();
        let key = applied_key(
            &K::kind(&K::DynamicType::default()),
            &namespace,
            meta.name.as_deref().unwrap_or(""),
        );
        let mut applied = self.applied.lock().unwrap_or_else(|p| p.into_inner());
        let stale = match applied.get(&key) {
            Some((_, written)) => deleted || written.as_ref() != meta.resource_version.as_ref(),
            None => deleted,
        };
        if !stale {
            return Vec::new();
        }
        applied.remove(&key);
        meta.labels
            .as_ref()
            .and_then(|l| l.get(cluster::FUNCTION_LABEL))
            .map(|function| vec![ObjectRef::new(function).within(&namespace)])
            .unwrap_or_default()
    }

    /// Forgets what was applied for a deleted Function.
    fn forget_applied(&self, namespace: &str, name: &str) {
        let mut applied = self.applied.lock().unwrap_or_else(|p| p.into_inner());
        for key in [
            applied_key("Service", namespace, name),
            applied_key("EndpointSlice", namespace, &cluster::endpoint_slice_name(name)),
            applied_key("ConfigMap", namespace, &cluster::source_config_map_name(name)),
            applied_key("Role", namespace, &cluster::node_access_name(name)),
            applied_key("RoleBinding", namespace, &cluster::node_access_name(name)),
        ] {
            applied.remove(&key);
        }
    }
}

impl Context {
    /// A context for reconciles.
    pub fn new(client: Client, config: ControllerConfig, nodes: NodeView) -> Self {
        let reporter = Reporter {
            controller: cluster::CONTROLLER_MANAGER.into(),
            // The pod's name where the downward API gives it.
            instance: std::env::var("POD_NAME")
                .or_else(|_| std::env::var("HOSTNAME"))
                .ok()
                .or_else(|| Some(cluster::CONTROLLER_MANAGER.into())),
        };
        Self {
            recorder: Recorder::new(client.clone(), reporter),
            git: GitPoller::new(config.git_poll_interval),
            client,
            ports: std::sync::Mutex::new(Ports {
                allocator: crate::ports::PortAllocator::new(config.serving_ports.clone()),
                seeded: false,
            }),
            config,
            nodes,
            build_slots: std::sync::Mutex::new(BuildSlots::default()),
            applied: std::sync::Mutex::new(HashMap::new()),
            jobs_cleaned: std::sync::Mutex::new(HashSet::new()),
            functions: None,
        }
    }

    /// The same context, reading the Functions' recorded ports from `store`
    /// before giving out new ones.
    pub fn with_functions(mut self, store: Store<Function>) -> Self {
        self.functions = Some(store);
        self
    }

    /// The Function's serving port.
    async fn serving_port(&self, function: &Function) -> Result<u16, crate::ports::PortsExhausted> {
        if let Some(store) = &self.functions {
            // Ports recorded by Functions not reconciled yet must be known
            // before one is handed out.
            let _ = store.wait_until_ready().await;
        }
        let mut ports = self.ports.lock().unwrap_or_else(|p| p.into_inner());
        if !ports.seeded
            && let Some(store) = &self.functions
        {
            let mut recorded: Vec<Arc<Function>> = store
                .state()
                .into_iter()
                .filter(|f| f.status.as_ref().is_some_and(|s| s.serving_port.is_some()))
                .collect();
            // Should two record one port, the older Function keeps it.
            recorded.sort_by_key(|f| {
                (
                    f.metadata.creation_timestamp.as_ref().map(|t| t.0),
                    f.namespace(),
                    f.name_any(),
                )
            });
            for f in recorded {
                let id = (f.namespace().unwrap_or_default(), f.name_any());
                let _ = ports
                    .allocator
                    .claim(&id, f.status.as_ref().and_then(|s| s.serving_port));
            }
            ports.seeded = true;
        }
        let id = (function.namespace().unwrap_or_default(), function.name_any());
        ports
            .allocator
            .claim(&id, function.status.as_ref().and_then(|s| s.serving_port))
    }

    fn release_port(&self, function: &Function) {
        let id = (function.namespace().unwrap_or_default(), function.name_any());
        self.ports
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .allocator
            .release(&id);
    }
}

/// Why a reconcile failed (it is retried with backoff).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An API call failed.
    #[error("Kubernetes API: {0}")]
    Kube(#[from] kube::Error),
    /// Adding or removing the finalizer failed, or cleanup did.
    #[error("finalizer: {0}")]
    Finalizer(#[source] Box<kube::runtime::finalizer::Error<Error>>),
    /// The Function has no namespace (not a namespaced object).
    #[error("Function without a namespace")]
    NoNamespace,
}

/// Reconciles one Function (the kube-runtime entry point).
pub async fn reconcile(function: Arc<Function>, ctx: Arc<Context>) -> Result<Action, Error> {
    crate::metrics::RECONCILES.inc();
    let namespace = function.namespace().ok_or(Error::NoNamespace)?;
    let api: Api<Function> = Api::namespaced(ctx.client.clone(), &namespace);
    finalizer(&api, cluster::FINALIZER, function, |event| async {
        match event {
            Finalizer::Apply(function) => apply(&function, &ctx).await,
            Finalizer::Cleanup(function) => cleanup(&function, &ctx).await,
        }
    })
    .await
    .map_err(|e| Error::Finalizer(Box::new(e)))
}

/// Retry a failed reconcile after a pause (kube-runtime's error policy).
pub fn error_policy(function: Arc<Function>, error: &Error, _ctx: Arc<Context>) -> Action {
    crate::metrics::RECONCILE_ERRORS.inc();
    tracing::warn!(
        namespace = function.namespace().unwrap_or_default(),
        name = function.name_any(),
        %error,
        "reconcile failed; retrying"
    );
    Action::requeue(Duration::from_secs(10))
}

/// Builds the status one condition at a time, keeping transition times of
/// conditions whose status did not change, and knows what the API server
/// holds so it writes only differences.
struct StatusWriter {
    previous: Vec<Condition>,
    status: FunctionStatus,
    /// The status as last read from or written to the API server.
    on_server: Option<FunctionStatus>,
}

impl StatusWriter {
    fn new(function: &Function) -> Self {
        let previous = function.status.clone().unwrap_or_default();
        Self {
            previous: previous.conditions.clone(),
            on_server: function.status.clone(),
            status: FunctionStatus {
                conditions: Vec::new(),
                ..previous
            },
        }
    }

    fn set(&mut self, type_: &str, status: &str, reason: &str, message: impl Into<String>) {
        let mut message: String = message.into();
        if message.len() > 32768 {
            let mut cut = 32000;
            while !message.is_char_boundary(cut) {
                cut -= 1;
            }
            message.truncate(cut);
            message.push_str(" …(truncated)");
        }
        let kept = self
            .previous
            .iter()
            .find(|c| c.type_ == type_ && c.status == status)
            .and_then(|c| c.last_transition_time.clone());
        self.status.conditions.retain(|c| c.type_ != type_);
        self.status.conditions.push(Condition {
            type_: type_.into(),
            status: status.into(),
            reason: Some(reason.into()),
            message: Some(message),
            last_transition_time: Some(kept.unwrap_or_else(|| Time(k8s_openapi::jiff::Timestamp::now()))),
        });
    }

    /// Marks `type_` False because an API call failed, with the API
    /// server's own message, and hands the error back for the retry.
    fn failed(&mut self, type_: &str, reason: &str, what: &str, error: kube::Error) -> Error {
        let message = match &error {
            kube::Error::Api(status) => status.message.clone(),
            other => other.to_string(),
        };
        self.set(type_, "False", reason, format!("{what}: {message}"));
        Error::Kube(error)
    }

    fn previous(&self, type_: &str) -> Option<&Condition> {
        self.previous.iter().find(|c| c.type_ == type_)
    }

    /// The status so far; conditions not set in this pass keep their
    /// previous value.
    fn snapshot(&self) -> FunctionStatus {
        let mut status = self.status.clone();
        for c in &self.previous {
            if !status.conditions.iter().any(|n| n.type_ == c.type_) {
                status.conditions.push(c.clone());
            }
        }
        let order = |t: &str| match t {
            condition::CONFIGURATION_READY => 0,
            condition::BUILD_READY => 1,
            _ => 2,
        };
        status.conditions.sort_by_key(|c| order(&c.type_));
        status
    }

    /// Writes the status so far if the API server holds something else.
    async fn persist(&mut self, function: &Function, ctx: &Context) -> Result<(), Error> {
        let status = self.snapshot();
        if self.on_server.as_ref() == Some(&status) {
            return Ok(());
        }
        let api: Api<Function> = Api::namespaced(ctx.client.clone(), &function.namespace().unwrap_or_default());
        let patch = serde_json::json!({
            "apiVersion": "serverless.kyma-project.io/v1alpha2",
            "kind": "Function",
            "status": status,
        });
        api.patch_status(
            &function.name_any(),
            &PatchParams::apply(cluster::CONTROLLER_MANAGER).force(),
            &Patch::Apply(&patch),
        )
        .await?;
        let before = self.on_server.replace(status.clone());
        let earlier = before.map(|s| s.conditions).unwrap_or_default();
        for event in events_between(&earlier, &status.conditions) {
            if let Err(e) = ctx.recorder.publish(&event, &function.object_ref(&())).await {
                tracing::warn!(namespace = %function.namespace().unwrap_or_default(), name = %function.name_any(), error = %e, reason = %event.reason, "recording an Event");
            }
        }
        Ok(())
    }
}

/// The Kubernetes Events a status change is worth: build started,
/// succeeded or failed, deployed, and a node failing to load the Function.
fn events_between(before: &[Condition], after: &[Condition]) -> Vec<Event> {
    let find = |conditions: &[Condition], type_: &str| {
        conditions.iter().find(|c| c.type_ == type_).map(|c| {
            (
                c.status.clone(),
                c.reason.clone().unwrap_or_default(),
                c.message.clone().unwrap_or_default(),
            )
        })
    };
    let mut events = Vec::new();
    for (type_, status, reason, event_reason, action, warning) in [
        (
            condition::BUILD_READY,
            "Unknown",
            "JobCreated",
            "BuildStarted",
            "Build",
            false,
        ),
        (
            condition::BUILD_READY,
            "True",
            "JobFinished",
            "BuildSucceeded",
            "Build",
            false,
        ),
        (
            condition::BUILD_READY,
            "False",
            "JobFailed",
            "BuildFailed",
            "Build",
            true,
        ),
        (
            condition::RUNNING,
            "True",
            "DeploymentReady",
            "Deployed",
            "Deploy",
            false,
        ),
        (
            condition::RUNNING,
            "False",
            "DeploymentFailed",
            "LoadFailed",
            "Deploy",
            true,
        ),
    ] {
        let now = find(after, type_);
        let was = find(before, type_);
        let matches =
            |c: &Option<(String, String, String)>| c.as_ref().is_some_and(|(s, r, _)| s == status && r == reason);
        if matches(&now) && !matches(&was) {
            events.push(Event {
                type_: if warning { EventType::Warning } else { EventType::Normal },
                reason: event_reason.into(),
                note: now.map(|(_, _, message)| message),
                action: action.into(),
                secondary: None,
            });
        }
    }
    events
}

fn apply_params() -> PatchParams {
    PatchParams::apply(cluster::CONTROLLER_MANAGER).force()
}

async fn apply(function: &Function, ctx: &Context) -> Result<Action, Error> {
    let namespace = function.namespace().ok_or(Error::NoNamespace)?;
    let name = function.name_any();
    let mut status = StatusWriter::new(function);
    status.status.observed_generation = function.metadata.generation;

    // The webhooks normally did this already; doing it again keeps a Function
    // that bypassed them from being built with other defaults.
    let mut defaulted = function.clone();
    shoal_api::apply_defaults_with(&mut defaulted, &ctx.config.defaults);
    status.status.runtime = Some(defaulted.runtime().to_string());
    status.status.function_resource_profile = defaulted
        .spec
        .resource_configuration
        .as_ref()
        .and_then(|r| r.function.as_ref())
        .and_then(|f| {
            f.profile
                .clone()
                .or_else(|| f.resources.as_ref().map(|_| "custom".into()))
        });

    if let Err(e) = shoal_api::validate(&defaulted) {
        tracing::info!(%namespace, %name, reason = %e, "Function spec invalid");
        status.set(
            condition::CONFIGURATION_READY,
            "False",
            "InvalidFunctionSpec",
            e.to_string(),
        );
        status.persist(function, ctx).await?;
        return Ok(Action::await_change());
    }
    let plan = match (defaulted.build_inputs(), &defaulted.spec.source.git_repository) {
        (Some(inputs), _) => BuildPlan::Inline(inputs),
        (None, Some(git)) => match resolve_git(&defaulted, git, ctx).await {
            Ok(build) => {
                status.status.git_repository = Some(shoal_api::GitRepositoryStatus {
                    url: git.url.clone(),
                    base_dir: git.base_dir.clone(),
                    reference: git.reference.clone(),
                    commit: Some(build.commit.clone()),
                });
                BuildPlan::Git(build)
            }
            Err(e) => {
                tracing::info!(%namespace, %name, error = %e, "Git source not resolved");
                status.set(
                    condition::CONFIGURATION_READY,
                    "False",
                    "SourceUpdateFailed",
                    e.to_string(),
                );
                status.persist(function, ctx).await?;
                return Ok(Action::requeue(ctx.git.interval()));
            }
        },
        (None, None) => {
            status.set(
                condition::CONFIGURATION_READY,
                "False",
                "SourceUpdateFailed",
                "the Function has no source",
            );
            status.persist(function, ctx).await?;
            return Ok(Action::await_change());
        }
    };
    let hash = plan.hash();
    match ctx.serving_port(function).await {
        Ok(port) => status.status.serving_port = Some(i32::from(port)),
        Err(exhausted) => {
            tracing::warn!(%namespace, %name, error = %exhausted, "no serving port for the Function");
            status.set(
                condition::RUNNING,
                "False",
                "ServingPortUnavailable",
                exhausted.to_string(),
            );
            status.persist(function, ctx).await?;
            return Ok(Action::requeue(Duration::from_secs(60)));
        }
    }

    // Each step marks its own condition when an API call fails; the status
    // is written whatever happened, so a failure shows on the Function with
    // the API server's message, not only in the controller's log.
    // A Git source is polled: its reference is looked at again after one
    // interval (shared by the Functions naming it).
    let at_rest = match &plan {
        BuildPlan::Inline(_) => Duration::from_secs(300),
        BuildPlan::Git(_) => ctx.git.interval(),
    };
    let outcome = async {
        match &plan {
            BuildPlan::Inline(inputs) => store_source(&defaulted, ctx, inputs, &mut status).await?,
            BuildPlan::Git(git) => {
                status.set(
                    condition::CONFIGURATION_READY,
                    "True",
                    "SourceUpdated",
                    format!("commit {} of {}", git.commit, git.reference),
                );
            }
        }
        let build_wait = build(&defaulted, ctx, &plan, &hash, &mut status).await?;
        serve(&defaulted, ctx, &mut status).await?;
        Ok(build_wait.unwrap_or_else(|| Action::requeue(at_rest)))
    }
    .await;
    status.persist(function, ctx).await?;
    outcome
}

/// The commit of a Git source to build now: its reference resolved (one
/// listing per interval, shared) and the commit checked for `baseDir` and
/// `handler.js` (once per commit).
async fn resolve_git(
    function: &Function,
    git: &shoal_api::GitRepositorySource,
    ctx: &Context,
) -> Result<GitBuild, shoal_git::GitError> {
    let namespace = function.namespace().unwrap_or_default();
    let key = RefKey {
        url: git.url.clone(),
        reference: git
            .reference
            .clone()
            .unwrap_or_else(|| shoal_git::DEFAULT_REFERENCE.into()),
        secret: git
            .auth
            .as_ref()
            .map(|a| (namespace.clone(), a.secret_name.clone(), a.kind.clone())),
    };
    let credentials = || read_git_auth(ctx, &namespace, git.auth.as_ref());
    let commit = ctx.git.commit(&key, credentials).await?;
    let base_dir = git.base_dir.clone().unwrap_or_else(|| "/".into());
    ctx.git
        .check_folder(&key, &commit, &base_dir, || {
            read_git_auth(ctx, &namespace, git.auth.as_ref())
        })
        .await?;
    Ok(GitBuild {
        url: git.url.clone(),
        reference: key.reference.clone(),
        commit,
        base_dir,
        auth: git.auth.clone(),
        runtime: function.runtime().to_string(),
    })
}

/// The credentials in the Function's auth Secret.
async fn read_git_auth(
    ctx: &Context,
    namespace: &str,
    auth: Option<&shoal_api::RepositoryAuth>,
) -> Result<shoal_git::GitAuth, shoal_git::GitError> {
    let Some(auth) = auth else {
        return Ok(shoal_git::GitAuth::None);
    };
    let secrets: Api<Secret> = Api::namespaced(ctx.client.clone(), namespace);
    let secret = secrets
        .get_opt(&auth.secret_name)
        .await
        .map_err(|e| shoal_git::GitError::AuthFailed(format!("reading Secret {}: {e}", auth.secret_name)))?
        .ok_or_else(|| shoal_git::GitError::AuthFailed(format!("Secret {} does not exist", auth.secret_name)))?;
    let data: BTreeMap<String, Vec<u8>> = secret
        .data
        .unwrap_or_default()
        .into_iter()
        .map(|(k, v)| (k, v.0))
        .collect();
    shoal_git::GitAuth::from_secret(&auth.kind, &data)
}

/// Stores the source in the ConfigMap the build Job mounts
/// (ConfigurationReady).
async fn store_source(
    function: &Function,
    ctx: &Context,
    inputs: &shoal_api::BuildInputs,
    status: &mut StatusWriter,
) -> Result<(), Error> {
    let namespace = function.namespace().unwrap_or_default();
    let map_name = cluster::source_config_map_name(&function.name_any());
    let config_maps: Api<ConfigMap> = Api::namespaced(ctx.client.clone(), &namespace);
    let source_map = resources::source_config_map(function, inputs);
    // Only a build reads the ConfigMap: once this source is built there is
    // nothing to store (and nothing to write at rest).
    let built = status.status.build_hash.as_deref() == Some(inputs.hash().as_str()) && status.status.artifact.is_some();
    let stored = if built {
        Ok(false)
    } else {
        ctx.apply_if_changed(&config_maps, &map_name, &source_map).await
    };
    if let Err(e) = stored {
        return Err(status.failed(
            condition::CONFIGURATION_READY,
            "SourceUpdateFailed",
            &format!("storing the source in ConfigMap {map_name}"),
            e,
        ));
    }
    let configured_before = status
        .previous(condition::CONFIGURATION_READY)
        .is_some_and(|c| c.status == "True");
    let reason = if configured_before {
        "ConfigMapUpdated"
    } else {
        "ConfigMapCreated"
    };
    status.set(
        condition::CONFIGURATION_READY,
        "True",
        reason,
        format!("source stored in ConfigMap {map_name}"),
    );
    Ok(())
}

/// What a finished build Job leaves in its termination message.
#[derive(Deserialize)]
struct BuildResult {
    artifact: String,
}

/// Makes sure the module for `hash` is built; returns a sooner requeue when
/// a build is waiting or running.
async fn build(
    function: &Function,
    ctx: &Context,
    plan: &BuildPlan,
    hash: &str,
    status: &mut StatusWriter,
) -> Result<Option<Action>, Error> {
    let namespace = function.namespace().unwrap_or_default();
    let name = function.name_any();
    let jobs: Api<Job> = Api::namespaced(ctx.client.clone(), &namespace);
    let job_name = cluster::build_job_name(&name, hash);

    // Built, unless the nodes find the artifact gone from the registry
    // (its storage was lost): then the same build runs again and pushes it
    // back, under the same digest, as builds are reproducible.
    let lost = status.status.artifact.is_some()
        && ctx
            .nodes
            .load_errors(&namespace, &name)
            .iter()
            .any(|(_, message)| message.starts_with(cluster::ARTIFACT_MISSING));
    if lost {
        // The rebuild's Job is cleaned up at rest like the first one. The
        // nodes go on reporting the artifact missing until the rebuild is
        // pushed and loaded: only the pass that starts it warns.
        let starts = ctx.jobs_cleaned.lock().unwrap_or_else(|p| p.into_inner()).remove(&(
            namespace.clone(),
            name.clone(),
            hash.to_string(),
        ));
        if starts {
            tracing::warn!(%namespace, %name, "the registry lost the Function's artifact; building it again");
        } else {
            tracing::debug!(%namespace, %name, "the Function's artifact is being built again");
        }
    }
    if status.status.build_hash.as_deref() == Some(hash) && status.status.artifact.is_some() && !lost {
        let cleaned = (namespace.clone(), name.clone(), hash.to_string());
        if !ctx
            .jobs_cleaned
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .contains(&cleaned)
        {
            delete_jobs(&jobs, &name, |_| true).await?;
            ctx.jobs_cleaned
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .insert(cleaned);
        }
        status.set(
            condition::BUILD_READY,
            "True",
            "JobFinished",
            format!("built {}", status.status.artifact.clone().unwrap_or_default()),
        );
        return Ok(None);
    }

    let Some(job) = jobs.get_opt(&job_name).await? else {
        // A build for older source is pointless now.
        delete_jobs(&jobs, &name, |j| j.name_any() != job_name).await?;
        let slot = (namespace.clone(), job_name.clone());
        ctx.seed_build_slots().await?;
        let running = {
            let mut slots = ctx.build_slots.lock().unwrap_or_else(|p| p.into_inner());
            // Gone (deleted by someone): its slot is free again.
            slots.running.remove(&slot);
            let running = slots.running.len();
            if running < ctx.config.max_concurrent_builds {
                slots.running.insert(slot.clone());
            }
            running
        };
        if running >= ctx.config.max_concurrent_builds {
            tracing::info!(%namespace, %name, running, "build queued: all build slots busy");
            status.set(
                condition::BUILD_READY,
                "Unknown",
                "JobQueued",
                format!(
                    "waiting for a build slot ({running} of {} builds running)",
                    ctx.config.max_concurrent_builds
                ),
            );
            return Ok(Some(Action::requeue(Duration::from_secs(10))));
        }
        let give_back = || {
            ctx.build_slots
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .running
                .remove(&slot);
        };
        if let Err(e) = registry_access(ctx, function).await {
            give_back();
            return Err(status.failed(
                condition::BUILD_READY,
                "JobFailed",
                "copying the registry credentials for the build",
                e,
            ));
        }
        let job = resources::build_job(&ctx.config, function, plan);
        match jobs.create(&PostParams::default(), &job).await {
            Ok(_) => {
                crate::metrics::BUILDS_STARTED.inc();
                tracing::info!(%namespace, %name, job = %job_name, "build Job created");
            }
            Err(kube::Error::Api(e)) if e.is_already_exists() => {}
            Err(e) => {
                give_back();
                return Err(status.failed(
                    condition::BUILD_READY,
                    "JobFailed",
                    &format!("creating build Job {job_name}"),
                    e,
                ));
            }
        }
        status.set(
            condition::BUILD_READY,
            "Unknown",
            "JobCreated",
            format!("build Job {job_name} created"),
        );
        return Ok(Some(Action::requeue(Duration::from_secs(60))));
    };

    // The Job's name is deterministic, so anyone allowed to create Jobs in
    // the namespace could make one first: only a Job this Function owns
    // (by UID) is trusted to report a build.
    let owned = job
        .metadata
        .owner_references
        .iter()
        .flatten()
        .any(|r| function.metadata.uid.is_some() && r.uid == function.metadata.uid.clone().unwrap_or_default());
    if !owned {
        status.set(
            condition::BUILD_READY,
            "False",
            "JobNotOwned",
            format!("a Job named {job_name} exists in {namespace} but this Function does not own it; its result is not trusted (delete it to build)"),
        );
        return Ok(Some(Action::requeue(Duration::from_secs(60))));
    }

    let job_status = job.status.clone().unwrap_or_default();
    let finished = |type_: &str| {
        job_status
            .conditions
            .iter()
            .flatten()
            .any(|c| c.type_ == type_ && c.status == "True")
    };
    if finished("Complete") || finished("Failed") {
        ctx.build_slots
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .running
            .remove(&(namespace.clone(), job_name.clone()));
    }
    if finished("Complete") {
        let message = termination_message(ctx, &namespace, &job).await?;
        let own_repository = format!("{}/{namespace}/{name}@", ctx.config.registry.trim_end_matches('/'));
        match message.as_deref().map(serde_json::from_str::<BuildResult>) {
            // A build reports only its own Function's artifact, pinned by
            // digest, in the registry this controller pushes to.
            Some(Ok(result))
                if !cluster::is_own_artifact(&result.artifact, &ctx.config.registry, &namespace, &name) =>
            {
                status.set(
                    condition::BUILD_READY,
                    "False",
                    "JobFailed",
                    format!(
                        "build Job {job_name} reported {:?}, which is not this Function's artifact ({own_repository}sha256:<digest>); delete the Job to retry",
                        result.artifact.chars().take(300).collect::<String>()
                    ),
                );
            }
            Some(Ok(result)) => {
                crate::metrics::BUILDS_SUCCEEDED.inc();
                tracing::info!(%namespace, %name, artifact = %result.artifact, "build finished");
                status.status.artifact = Some(result.artifact.clone());
                status.status.build_hash = Some(hash.to_string());
                status.set(
                    condition::BUILD_READY,
                    "True",
                    "JobFinished",
                    format!("built {}", result.artifact),
                );
                // The Job is deleted by a later pass, once this status (with
                // the artifact) is on the API server: the Job is the only
                // other record of the artifact, and one write at the end of
                // this pass records both the build and what serving it
                // looks like.
            }
            _ => {
                status.set(
                    condition::BUILD_READY,
                    "False",
                    "JobFailed",
                    format!(
                        "build Job {job_name} completed without reporting its artifact{}; delete the Job to retry",
                        message.map(|m| format!(": {m}")).unwrap_or_default()
                    ),
                );
            }
        }
        Ok(None)
    } else if finished("Failed") {
        let reason = job_status
            .conditions
            .iter()
            .flatten()
            .find(|c| c.type_ == "Failed")
            .and_then(|c| c.message.clone().or(c.reason.clone()))
            .unwrap_or_default();
        let message = termination_message(ctx, &namespace, &job)
            .await?
            .unwrap_or_else(|| reason.clone());
        if status
            .previous(condition::BUILD_READY)
            .is_none_or(|c| c.reason.as_deref() != Some("JobFailed"))
        {
            crate::metrics::BUILDS_FAILED.inc();
        }
        tracing::info!(%namespace, %name, job = %job_name, %message, "build failed");
        status.set(
            condition::BUILD_READY,
            "False",
            "JobFailed",
            format!("build Job {job_name} failed: {}", message.trim()),
        );
        // The failed Job is kept (its logs explain the failure) and marks
        // this source as tried: no rebuild until the source changes or the
        // Job is deleted.
        Ok(None)
    } else {
        status.set(
            condition::BUILD_READY,
            "Unknown",
            "JobRunning",
            format!("build Job {job_name} is running"),
        );
        Ok(Some(Action::requeue(Duration::from_secs(60))))
    }
}

impl Context {
    /// Learns the build Jobs running in the cluster, once: one list of the
    /// build Jobs (after a restart some may be running).
    async fn seed_build_slots(&self) -> Result<(), Error> {
        if self.build_slots.lock().unwrap_or_else(|p| p.into_inner()).seeded {
            return Ok(());
        }
        let jobs: Api<Job> = Api::all(self.client.clone());
        let selector = format!(
            "{}={},{}={}",
            cluster::MANAGED_BY_LABEL,
            cluster::MANAGED_BY,
            cluster::ROLE_LABEL,
            cluster::ROLE_BUILD
        );
        let list = jobs.list(&ListParams::default().labels(&selector)).await?;
        let mut slots = self.build_slots.lock().unwrap_or_else(|p| p.into_inner());
        if !slots.seeded {
            for job in &list.items {
                let done = job
                    .status
                    .as_ref()
                    .and_then(|s| s.conditions.as_ref())
                    .into_iter()
                    .flatten()
                    .any(|c| (c.type_ == "Complete" || c.type_ == "Failed") && c.status == "True");
                if !done {
                    slots
                        .running
                        .insert((job.namespace().unwrap_or_default(), job.name_any()));
                }
            }
            slots.seeded = true;
        }
        Ok(())
    }
}

/// The newest termination message of the Job's pods: the build's result on
/// success, the compiler's message on failure.
/// The newest termination message of the Job's own pods: the label finds
/// them, the owner reference (the Job's UID) proves they are its, since
/// anyone who can create pods in the namespace can copy a label.
async fn termination_message(ctx: &Context, namespace: &str, job: &Job) -> Result<Option<String>, Error> {
    let pods: Api<Pod> = Api::namespaced(ctx.client.clone(), namespace);
    let list = pods
        .list(&ListParams::default().labels(&format!("job-name={}", job.name_any())))
        .await?;
    let job_uid = job.metadata.uid.clone().unwrap_or_default();
    let mut messages: Vec<(Option<Time>, String)> = list
        .items
        .iter()
        .filter(|pod| !job_uid.is_empty() && pod.metadata.owner_references.iter().flatten().any(|r| r.uid == job_uid))
        .flat_map(|pod| pod.status.iter().flat_map(|s| s.container_statuses.iter().flatten()))
        .filter_map(|cs| {
            let terminated = cs.state.as_ref()?.terminated.as_ref()?;
            let message = terminated.message.clone().filter(|m| !m.trim().is_empty())?;
            Some((terminated.finished_at.clone(), message))
        })
        .collect();
    messages.sort_by(|a, b| a.0.as_ref().map(|t| t.0).cmp(&b.0.as_ref().map(|t| t.0)));
    Ok(messages.pop().map(|(_, m)| m))
}

async fn delete_jobs(jobs: &Api<Job>, function: &str, which: impl Fn(&Job) -> bool) -> Result<(), Error> {
    let selector = format!(
        "{}={function},{}={}",
        cluster::FUNCTION_LABEL,
        cluster::ROLE_LABEL,
        cluster::ROLE_BUILD
    );
    let params = DeleteParams {
        propagation_policy: Some(PropagationPolicy::Background),
        ..DeleteParams::default()
    };
    for job in jobs.list(&ListParams::default().labels(&selector)).await?.items {
        if which(&job) && job.metadata.deletion_timestamp.is_none() {
            match jobs.delete(&job.name_any(), &params).await {
                Err(kube::Error::Api(status)) if status.is_not_found() => {}
                Err(e) => return Err(e.into()),
                Ok(_) => {}
            }
        }
    }
    Ok(())
}

/// Gives the build Job about to start its way into the registry: a fresh
/// token for its own Function's repository (the in-cluster registry), or a
/// copy of the registry's credentials (an external one).
async fn registry_access(ctx: &Context, function: &Function) -> Result<(), kube::Error> {
    let namespace = function.namespace().unwrap_or_default();
    if let Some(key) = &ctx.config.registry_token_key {
        let grant = shoal_oci::token::Grant {
            repository: resources::repository(&ctx.config, function),
            // The build may run its deadline, plus time to be scheduled.
            expires: shoal_oci::token::now().saturating_add(ctx.config.build_deadline.as_secs().saturating_add(600)),
        };
        let secret = resources::push_secret(function, &key.mint(&grant));
        let secrets: Api<Secret> = Api::namespaced(ctx.client.clone(), &namespace);
        secrets
            .patch(
                &resources::push_secret_name(&function.name_any()),
                &apply_params(),
                &Patch::Apply(&secret),
            )
            .await?;
        return Ok(());
    }
    copy_registry_secret(ctx, &namespace).await
}

async fn copy_registry_secret(ctx: &Context, namespace: &str) -> Result<(), kube::Error> {
    let Some(secret_name) = &ctx.config.registry_secret else {
        return Ok(());
    };
    let source: Api<Secret> = Api::namespaced(ctx.client.clone(), &ctx.config.namespace);
    let secret = source.get(secret_name).await?;
    let copy = resources::registry_secret_copy(&secret, namespace);
    let target: Api<Secret> = Api::namespaced(ctx.client.clone(), namespace);
    target
        .patch(resources::REGISTRY_SECRET_COPY, &apply_params(), &Patch::Apply(&copy))
        .await?;
    Ok(())
}

/// Publishes a built Function: its Service, its EndpointSlice and Running.
/// Lets the node pods read what the Function references (a Role and
/// RoleBinding of its own), before any node is told to load it; takes that
/// away when the Function no longer references anything.
async fn grant_node_access(function: &Function, ctx: &Context, status: &mut StatusWriter) -> Result<(), Error> {
    let namespace = function.namespace().unwrap_or_default();
    let access_name = cluster::node_access_name(&function.name_any());
    let roles: Api<Role> = Api::namespaced(ctx.client.clone(), &namespace);
    let bindings: Api<RoleBinding> = Api::namespaced(ctx.client.clone(), &namespace);
    let applied = match resources::node_access(&ctx.config, function) {
        Some((role, binding)) => async {
            ctx.apply_if_changed(&roles, &access_name, &role).await?;
            ctx.apply_if_changed(&bindings, &access_name, &binding).await
        }
        .await
        .map(drop),
        // Nothing referenced: a grant made earlier (this controller
        // remembers what it applied) is withdrawn; a Function's grants
        // also go with it through their owner reference.
        None if ctx.take_applied::<Role>(&namespace, &access_name) => {
            async {
                ctx.take_applied::<RoleBinding>(&namespace, &access_name);
                for deleted in [
                    bindings.delete(&access_name, &DeleteParams::default()).await.map(drop),
                    roles.delete(&access_name, &DeleteParams::default()).await.map(drop),
                ] {
                    match deleted {
                        Err(kube::Error::Api(status)) if status.is_not_found() => {}
                        other => other?,
                    }
                }
                Ok(())
            }
            .await
        }
        None => Ok(()),
    };
    applied.map_err(|e| {
        status.failed(
            condition::RUNNING,
            "NodeAccessFailed",
            &format!("granting the node pods read access to what the Function references (Role {access_name})"),
            e,
        )
    })
}

async fn serve(function: &Function, ctx: &Context, status: &mut StatusWriter) -> Result<(), Error> {
    let namespace = function.namespace().unwrap_or_default();
    let name = function.name_any();
    grant_node_access(function, ctx, status).await?;
    status.status.pod_selector = Some(ctx.config.node_selector());
    let Some(artifact) = status.status.artifact.clone() else {
        status.status.replicas = Some(0);
        status.set(
            condition::RUNNING,
            "Unknown",
            "DeploymentWaiting",
            "waiting for the first build",
        );
        return Ok(());
    };
    let digest = cluster::artifact_digest(&artifact).unwrap_or_default().to_string();
    let port = status.status.serving_port.unwrap_or(ctx.config.node_port);
    let scaled_to_zero = function.spec.replicas == Some(0);
    let current = if scaled_to_zero {
        Vec::new()
    } else {
        ctx.nodes.serving(&namespace, &name, Some(&digest))
    };
    // Until some node has loaded a new build, the nodes still serving the
    // previous one keep the Service answering: an update is no outage.
    let previous = if current.is_empty() && !scaled_to_zero {
        ctx.nodes.serving(&namespace, &name, None)
    } else {
        Vec::new()
    };
    let serving = if current.is_empty() { &previous } else { &current };
    let serving_refs: Vec<&Pod> = serving.iter().map(|p| p.as_ref()).collect();

    // No EndpointSlice until some node serves the Function: an empty one
    // routes nowhere, as no slice does. Once one has had endpoints
    // (replicas recorded), an empty one is written to take them away.
    let never_served = function.status.as_ref().and_then(|s| s.replicas).is_none_or(|r| r == 0);
    let services: Api<Service> = Api::namespaced(ctx.client.clone(), &namespace);
    if let Err(e) = ctx
        .apply_if_changed(&services, &name, &resources::service(function, port))
        .await
    {
        return Err(status.failed(
            condition::RUNNING,
            "ServiceFailed",
            &format!("applying Service {name}"),
            e,
        ));
    }
    let slices: Api<EndpointSlice> = Api::namespaced(ctx.client.clone(), &namespace);
    let slice_name = cluster::endpoint_slice_name(&name);
    let slice = resources::endpoint_slice(function, port, &serving_refs);
    let applied = if serving_refs.is_empty() && never_served {
        Ok(false)
    } else {
        ctx.apply_if_changed(&slices, &slice_name, &slice).await
    };
    if let Err(e) = applied {
        return Err(status.failed(
            condition::RUNNING,
            "ServiceFailed",
            &format!("applying EndpointSlice {slice_name} (the nodes serving Service {name})"),
            e,
        ));
    }

    // Every node serves every Function: while it is served, it has the
    // replicas it asks for. Not the number of node pods, which changes
    // with each node restart and would rewrite every Function's status.
    status.status.replicas = Some(if serving.is_empty() {
        0
    } else {
        function.spec.replicas.unwrap_or(1)
    });
    let ready = ctx.nodes.ready_nodes();
    if scaled_to_zero {
        status.set(
            condition::RUNNING,
            "True",
            "DeploymentReady",
            "spec.replicas is 0: no node serves the Function",
        );
    } else if !current.is_empty() {
        status.set(
            condition::RUNNING,
            "True",
            "DeploymentReady",
            // No node counts here: a node pod restarting changes the
            // endpoints, not what this says.
            format!("served by the node servers behind Service {name}"),
        );
    } else if !previous.is_empty() {
        status.set(
            condition::RUNNING,
            "True",
            "DeploymentUpdated",
            format!("the node servers serve the previous build while they load {artifact}"),
        );
    } else if ready == 0 {
        status.set(
            condition::RUNNING,
            "False",
            "MinReplicasNotAvailable",
            "no node server is ready",
        );
    } else if let [(pod, message), ..] = ctx.nodes.load_errors(&namespace, &name).as_slice() {
        status.set(
            condition::RUNNING,
            "False",
            "DeploymentFailed",
            format!("node {pod} cannot load {artifact}: {message}"),
        );
    } else {
        status.set(
            condition::RUNNING,
            "Unknown",
            "DeploymentWaiting",
            format!("waiting for {ready} ready nodes to load {artifact}"),
        );
    }
    Ok(())
}

/// Removes what the Function owns. Owner references would do it too, but
/// only once the garbage collector gets to it; build pods are stopped now.
async fn cleanup(function: &Function, ctx: &Context) -> Result<Action, Error> {
    let namespace = function.namespace().unwrap_or_default();
    let name = function.name_any();
    let jobs: Api<Job> = Api::namespaced(ctx.client.clone(), &namespace);
    delete_jobs(&jobs, &name, |_| true).await?;
    delete_if_present::<EndpointSlice>(ctx, &namespace, &cluster::endpoint_slice_name(&name)).await?;
    delete_if_present::<Service>(ctx, &namespace, &name).await?;
    delete_if_present::<ConfigMap>(ctx, &namespace, &cluster::source_config_map_name(&name)).await?;
    ctx.release_port(function);
    ctx.forget_applied(&namespace, &name);
    ctx.jobs_cleaned
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .retain(|(ns, n, _)| !(ns == &namespace && n == &name));
    tracing::info!(%namespace, %name, "Function deleted: its Jobs, Service, EndpointSlice and ConfigMap removed");
    Ok(Action::await_change())
}

/// A resource [`run`] watches: `(apiGroup, resource, cluster-wide)`; a
/// watch that is not cluster-wide is in the controller's own namespace.
/// Kept next to `run` so the chart's RBAC test sees what it really watches.
pub const WATCHES: &[(&str, &str, bool)] = &[
    ("serverless.kyma-project.io", "functions", true),
    ("batch", "jobs", true),
    ("", "services", true),
    ("discovery.k8s.io", "endpointslices", true),
    ("", "pods", false),
    ("", "configmaps", false),
];

async fn delete_if_present<K>(ctx: &Context, namespace: &str, name: &str) -> Result<(), Error>
where
    K: kube::Resource<Scope = k8s_openapi::NamespaceResourceScope, DynamicType = ()>
        + Clone
        + serde::de::DeserializeOwned
        + std::fmt::Debug,
{
    let api: Api<K> = Api::namespaced(ctx.client.clone(), namespace);
    match api.delete(name, &DeleteParams::default()).await {
        Err(kube::Error::Api(status)) if status.is_not_found() => Ok(()),
        Err(e) => Err(e.into()),
        Ok(_) => Ok(()),
    }
}

/// Runs the controller until `shutdown` completes: watches Functions, their
/// build Jobs, the node pods and the nodes' status ConfigMaps.
pub async fn run(
    client: Client,
    config: ControllerConfig,
    shutdown: impl std::future::Future<Output = ()> + Send + Sync + 'static,
) {
    let node_pods: Api<Pod> = Api::namespaced(client.clone(), &config.namespace);
    let node_statuses: Api<ConfigMap> = Api::namespaced(client.clone(), &config.namespace);
    let pods_config = watcher::Config::default().labels(&config.node_selector());
    let status_config =
        watcher::Config::default().labels(&format!("{}={}", cluster::ROLE_LABEL, cluster::ROLE_NODE_STATUS));

    let (pod_store, pod_writer) = reflector::store();
    let nodes = NodeView::new(pod_store);
    // The context, for watch mappers built before it.
    let ctx_cell: Arc<std::sync::OnceLock<Arc<Context>>> = Arc::default();
    let statuses = nodes.statuses.clone();

    let functions: Api<Function> = Api::all(client.clone());
    let jobs: Api<Job> = Api::all(client.clone());
    let job_config = watcher::Config::default().labels(&format!("{}={}", cluster::ROLE_LABEL, cluster::ROLE_BUILD));
    let controller = Controller::new(functions, watcher::Config::default());
    let function_store = controller.store();
    // A node pod becoming ready or unready, or moving, changes every
    // Function's endpoints (every node serves every Function); other pod
    // updates change nothing.
    let mut pod_changes = NodePodChanges::default();
    let pod_triggers = reflector(pod_writer, watcher(node_pods, pods_config))
        .default_backoff()
        .filter_map(move |event| {
            let changed = event.as_ref().is_ok_and(|e| pod_changes.apply(e));
            std::future::ready(changed.then_some(()))
        })
        .flat_map(move |()| {
            futures::stream::iter(
                function_store
                    .state()
                    .iter()
                    .map(|f| ObjectRef::from_obj(f.as_ref()))
                    .collect::<Vec<_>>(),
            )
        });
    // A Service or EndpointSlice changed or deleted by someone else is
    // applied again by its Function's next pass.
    let managed = watcher::Config::default().labels(&format!("{}={}", cluster::MANAGED_BY_LABEL, cluster::MANAGED_BY));
    let (service_ctx, slice_ctx) = (ctx_cell.clone(), ctx_cell.clone());
    let service_triggers = watcher(Api::<Service>::all(client.clone()), managed.clone())
        .default_backoff()
        .flat_map(move |event| {
            futures::stream::iter(match (event, service_ctx.get()) {
                (Ok(event), Some(ctx)) => ctx.observed(&event),
                _ => Vec::new(),
            })
        });
    let slice_triggers = watcher(Api::<EndpointSlice>::all(client.clone()), managed)
        .default_backoff()
        .flat_map(move |event| {
            futures::stream::iter(match (event, slice_ctx.get()) {
                (Ok(event), Some(ctx)) => ctx.observed(&event),
                _ => Vec::new(),
            })
        });
    // A node's status change maps to the Functions whose line changed.
    let status_triggers = watcher(node_statuses, status_config)
        .default_backoff()
        .flat_map(move |event| {
            futures::stream::iter(match event {
                Ok(event) => statuses.apply(&event),
                Err(_) => Vec::new(),
            })
        });
    let ctx = Arc::new(Context::new(client, config, nodes).with_functions(controller.store()));
    let _ = ctx_cell.set(ctx.clone());
    controller
        .owns(jobs, job_config)
        .reconcile_on(pod_triggers)
        .reconcile_on(status_triggers)
        .reconcile_on(service_triggers)
        .reconcile_on(slice_triggers)
        .with_config(
            kube::runtime::controller::Config::default()
                .debounce(Duration::from_millis(500))
                .concurrency(RECONCILE_CONCURRENCY),
        )
        .graceful_shutdown_on(shutdown)
        .run(reconcile, error_policy, ctx)
        .for_each(|result| async move {
            if let Err(e) = result {
                tracing::debug!(error = %e, "reconcile loop");
            }
        })
        .await;
}

/// Functions reconciled at once: enough to keep the API server busy, few
/// enough not to flood it when every Function needs a pass (a node pod
/// coming or going).
pub const RECONCILE_CONCURRENCY: u16 = 16;

/// Whether a Function is Ready as Kyma defines it: all three conditions True.
pub fn is_function_ready(function: &Function) -> bool {
    let conditions = function.status.as_ref().map(|s| s.conditions.as_slice()).unwrap_or(&[]);
    [
        condition::CONFIGURATION_READY,
        condition::BUILD_READY,
        condition::RUNNING,
    ]
    .iter()
    .all(|t| conditions.iter().any(|c| c.type_ == *t && c.status == "True"))
}
