//! Keeps a node server's Function table in step with the cluster.
//!
//! A node watches Functions in every namespace. Each one whose status names
//! a built artifact (and is not scaled to zero) is put into the node's
//! [`FunctionTable`] with its env resolved (ConfigMap and Secret references
//! included, read through the Role the controller grants the node for that
//! Function's references only) and its secretMounts written to the node's
//! disk, and its module
//! is pulled and precompiled ahead of the first request. Mounted Secrets are
//! re-read periodically, so a changed Secret reaches the Function as a
//! kubelet-projected volume does. What the node then serves is published in
//! ConfigMaps named after the node pod, one per status shard (owned by the
//! pod, so they go when it goes; only a shard that changed is rewritten);
//! the controller reads them to fill each Function's EndpointSlice and
//! Running condition.
//!
//! The node reports ready ([`NodeSync::load_gate`]) once every Function of
//! the watch's first list is loaded or has failed to load.
//!
//! Functions are reconciled by kube's controller runtime (one pass at a
//! time per Function, bounded concurrency, retries), so two changes seen
//! together load a module once.
//!
//! With eventing on, [`subscriptions::follow`] also follows Subscriptions
//! and keeps the node delivering the events of those whose sink it serves.
//!
//! This crate never writes Functions and never builds: it only reads the
//! cluster's desired state and reports the node's actual state. The only
//! files it writes are the mounted Secrets under [`SyncConfig::secrets_dir`].

pub mod subscriptions;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::api::core::v1::{ConfigMap, EnvVar, Secret};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, OwnerReference};
use kube::api::{Api, Patch, PatchParams};
use kube::runtime::controller::{Action, Config as ControllerRuntime, Controller};
use kube::runtime::reflector::{self, ObjectRef, reflector};
use kube::runtime::{WatchStreamExt, watcher};
use kube::{Client, ResourceExt};
use shoal_api::Function;
use shoal_api::cluster::{self, ServedFunction};
use shoal_node::{FunctionConfig, FunctionDefaults, FunctionKey, FunctionTable, LoadGate, ModuleSource};
use shoal_runtime::Mount;
use tokio::sync::Notify;

/// What [`NodeSync::run`] watches: `(apiGroup, resource, cluster-wide)`.
pub const WATCHES: &[(&str, &str, bool)] = &[("serverless.kyma-project.io", "functions", true)];

/// Who this node is, and how Functions run on it.
#[derive(Debug, Clone)]
pub struct SyncConfig {
    /// The node pod's name (downward API).
    pub pod_name: String,
    /// The node pod's namespace, where its status ConfigMap lives.
    pub pod_namespace: String,
    /// The node pod's UID: the status ConfigMap's owner.
    pub pod_uid: Option<String>,
    /// Defaults a Function's env may override.
    pub defaults: FunctionDefaults,
    /// How often a changed served set is published, at most.
    pub publish_every: Duration,
    /// How often Functions that failed to load are tried again.
    pub retry_every: Duration,
    /// Functions loaded at once.
    pub concurrency: u16,
    /// Where mounted Secrets are written (one folder per Secret version).
    pub secrets_dir: PathBuf,
    /// How often mounted Secrets are re-read.
    pub secret_refresh_every: Duration,
}

/// Why a Function could not be put on this node.
#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    /// An env reference could not be resolved.
    #[error("env {name}: {reason}")]
    Env {
        /// The variable.
        name: String,
        /// What is missing.
        reason: String,
    },
    /// Reading a referenced ConfigMap or Secret failed.
    #[error("reading {what} failed")]
    Kube {
        /// The object read.
        what: String,
        /// The API error.
        #[source]
        source: kube::Error,
    },
    /// A mounted Secret could not be written to the node's disk.
    #[error("writing Secret {secret} for its secretMount: {source}")]
    SecretFiles {
        /// The Secret.
        secret: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The artifact could not be pulled or compiled.
    #[error("loading the module failed")]
    Load(#[from] shoal_node::LoadError),
}

/// A load error as the node publishes it for the controller: a missing
/// artifact is marked so the controller builds it again.
fn published_error(error: &SyncError) -> String {
    match error {
        SyncError::Load(shoal_node::LoadError::Missing(why)) => {
            format!("{}: {}", cluster::ARTIFACT_MISSING, shoal_runtime::causes(why.as_ref()))
        }
        other => shoal_runtime::causes(other),
    }
}

/// A Function the node was told to serve.
struct Desired {
    /// The Function as last applied (mounted Secrets are refreshed from it).
    function: Arc<Function>,
    /// What determines the entry: a change replaces it.
    fingerprint: String,
    /// The table entry's version when it was put in.
    version: u64,
    /// The digest this node answers with: the desired one once loaded, the
    /// previous one while a new build loads, none after a failed load.
    serving: Option<String>,
}

/// The node side of the cluster contract.
pub struct NodeSync {
    client: Client,
    table: Arc<FunctionTable>,
    config: SyncConfig,
    desired: Mutex<BTreeMap<FunctionKey, Desired>>,
    /// Functions that could not be put on this node, with why (published,
    /// and retried).
    failures: Mutex<BTreeMap<FunctionKey, (Arc<Function>, String)>>,
    /// What each status shard last published held: (served, errors).
    published: Mutex<BTreeMap<usize, (String, String)>>,
    changed: Notify,
    /// The first list of Functions and how far the node got with it.
    first_pass: Mutex<FirstPass>,
    loaded: LoadGate,
}

/// The node is ready once every Function of the watch's first list has
/// been put on it (loaded, or failed and reported): a Function that cannot
/// load must not keep its node out of service.
#[derive(Default)]
struct FirstPass {
    /// The first list, once the watch has delivered all of it.
    listed: Option<BTreeSet<FunctionKey>>,
    /// Functions whose first reconcile has finished.
    done: BTreeSet<FunctionKey>,
}

impl NodeSync {
    /// A sync for `table`, talking to the API server through `client`.
    pub fn new(client: Client, table: Arc<FunctionTable>, config: SyncConfig) -> Arc<Self> {
        Arc::new(Self {
            client,
            table,
            config,
            desired: Mutex::new(BTreeMap::new()),
            failures: Mutex::new(BTreeMap::new()),
            published: Mutex::new(BTreeMap::new()),
            changed: Notify::new(),
            first_pass: Mutex::new(FirstPass::default()),
            loaded: LoadGate::closed(),
        })
    }

    /// Opens once every Function the cluster had when the node started is
    /// loaded or has failed to load: the node's readiness.
    pub fn load_gate(&self) -> LoadGate {
        self.loaded.clone()
    }

    /// Notes that `key`'s first reconcile finished, or (with `listed`) that
    /// the watch's first list is complete, and opens the gate when both
    /// cover every listed Function.
    fn first_pass(&self, finished: Option<FunctionKey>, listed: Option<BTreeSet<FunctionKey>>) {
        if self.loaded.is_open() {
            return;
        }
        let mut pass = self.first_pass.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(key) = finished {
            pass.done.insert(key);
        }
        if let Some(listed) = listed
            && pass.listed.is_none()
        {
            pass.listed = Some(listed);
        }
        if let Some(listed) = &pass.listed
            && listed.is_subset(&pass.done)
        {
            tracing::info!(functions = listed.len(), "the node has put every Function on it: ready");
            self.loaded.let_through();
            *pass = FirstPass::default();
        }
    }

    /// Puts a Function on the node (or takes it off when it has no artifact
    /// or is scaled to zero), then loads its module. Returns once the module
    /// is loaded or failed to load. While a new build loads, the previous
    /// digest stays published; a failed load is unpublished and retried.
    pub async fn apply(&self, function: Arc<Function>) -> Result<(), SyncError> {
        let key = FunctionKey::new(function.namespace().unwrap_or_default(), function.name_any());
        let result = self.apply_once(function.clone()).await;
        let mut failures = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        let changed = match &result {
            Ok(()) => failures.remove(&key).is_some(),
            Err(e) => failures.insert(key, (function, published_error(e))).is_none(),
        };
        drop(failures);
        if changed {
            self.changed.notify_one();
        }
        result
    }

    async fn apply_once(&self, function: Arc<Function>) -> Result<(), SyncError> {
        let namespace = function.namespace().unwrap_or_default();
        let name = function.name_any();
        let key = FunctionKey::new(namespace.clone(), name.clone());
        let artifact = function.status.as_ref().and_then(|s| s.artifact.clone());
        let Some(artifact) = artifact.filter(|_| function.spec.replicas != Some(0)) else {
            self.remove(&namespace, &name);
            return Ok(());
        };
        let env = resolve_env(&self.client, &function).await?;
        let mounts = self.secret_mounts(&function).await?;
        let runtime = function.runtime().to_string();
        let memory_limit = shoal_api::function_memory_limit(&function.spec) as usize;
        let cpu_cores = FunctionConfig::cpu_cores_for(shoal_api::function_cpu_limit(&function.spec));
        let port = function
            .status
            .as_ref()
            .and_then(|s| s.serving_port)
            .and_then(|p| u16::try_from(p).ok())
            .filter(|p| *p > 0);
        let fingerprint = format!("{artifact}|{runtime}|{memory_limit}|{cpu_cores}|{port:?}|{env:?}|{mounts:?}");
        let digest = cluster::artifact_digest(&artifact).unwrap_or_default().to_string();

        let (unchanged, serving) = match self.lock().get(&key) {
            Some(d) => (
                d.fingerprint == fingerprint && d.serving.as_deref() == Some(digest.as_str()),
                d.serving.clone(),
            ),
            None => (false, None),
        };
        if unchanged {
            return Ok(());
        }
        let mut config = FunctionConfig::from_env(runtime, env, memory_limit, &self.config.defaults);
        config.mounts = mounts.clone();
        config.port = port;
        config.cpu_cores = cpu_cores;
        let entry = self.table.upsert(
            key.clone(),
            config,
            ModuleSource::Oci {
                reference: artifact.clone(),
                digest: (!digest.is_empty()).then(|| digest.clone()),
            },
        );
        self.lock().insert(
            key.clone(),
            Desired {
                function: function.clone(),
                fingerprint,
                version: entry.version,
                serving,
            },
        );
        self.changed.notify_one();
        // Requests now start with the new mounts: older Secret versions go.
        self.prune_secret_folders(&key, &mounts);
        let loaded = self.table.module(&entry).await;
        let mut desired = self.lock();
        if let Some(d) = desired.get_mut(&key)
            && d.version == entry.version
        {
            d.serving = loaded.is_ok().then(|| digest.clone());
        }
        drop(desired);
        self.changed.notify_one();
        match loaded {
            Ok(_) => {
                tracing::info!(%namespace, %name, %artifact, "Function loaded");
                Ok(())
            }
            Err(e) => {
                tracing::warn!(%namespace, %name, %artifact, error = %shoal_runtime::causes(&e), "Function failed to load");
                Err(e.into())
            }
        }
    }

    /// Takes a Function off the node.
    pub fn remove(&self, namespace: &str, name: &str) {
        let key = FunctionKey::new(namespace, name);
        self.failures.lock().unwrap_or_else(|p| p.into_inner()).remove(&key);
        let had = self.lock().remove(&key).is_some();
        self.prune_secret_folders(&key, &[]);
        if self.table.remove(&key) || had {
            tracing::info!(%namespace, %name, "Function unloaded");
            self.changed.notify_one();
        }
    }

    /// The Functions this node serves with a loaded module.
    pub fn served(&self) -> BTreeSet<ServedFunction> {
        self.lock()
            .iter()
            .filter_map(|(k, d)| {
                Some(ServedFunction {
                    namespace: k.namespace.clone(),
                    name: k.name.clone(),
                    digest: d.serving.clone()?,
                })
            })
            .collect()
    }

    /// Functions this node could not load, with why.
    pub fn errors(&self) -> BTreeMap<(String, String), String> {
        self.failures
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .map(|(k, (_, message))| ((k.namespace.clone(), k.name.clone()), message.clone()))
            .collect()
    }

    /// Writes the served set and the load failures into this node's status
    /// ConfigMaps: the shards whose content changed since the last publish
    /// (every shard the first time, so the controller knows this node).
    /// Returns how many it wrote.
    ///
    /// # Errors
    /// A write failed; the shards written before it count as published.
    pub async fn publish(&self) -> Result<usize, kube::Error> {
        let mut written = 0;
        let served = self.served();
        let errors = self.errors();
        let mut shards = vec![(BTreeSet::new(), BTreeMap::new()); cluster::NODE_STATUS_SHARDS];
        for f in served {
            shards[cluster::status_shard(&f.namespace, &f.name)].0.insert(f);
        }
        for (key, message) in errors {
            shards[cluster::status_shard(&key.0, &key.1)].1.insert(key, message);
        }
        let api: Api<ConfigMap> = Api::namespaced(self.client.clone(), &self.config.pod_namespace);
        let owner = self.config.pod_uid.as_ref().map(|uid| {
            vec![OwnerReference {
                api_version: "v1".into(),
                kind: "Pod".into(),
                name: self.config.pod_name.clone(),
                uid: uid.clone(),
                ..OwnerReference::default()
            }]
        });
        for (shard, (served, errors)) in shards.into_iter().enumerate() {
            let content = (cluster::render_served(&served), cluster::render_errors(&errors));
            if self.published.lock().unwrap_or_else(|p| p.into_inner()).get(&shard) == Some(&content) {
                continue;
            }
            let name = cluster::node_status_name(&self.config.pod_name, shard);
            let status = ConfigMap {
                metadata: ObjectMeta {
                    name: Some(name.clone()),
                    namespace: Some(self.config.pod_namespace.clone()),
                    labels: Some(BTreeMap::from([
                        (cluster::MANAGED_BY_LABEL.to_string(), cluster::MANAGED_BY.to_string()),
                        (cluster::ROLE_LABEL.to_string(), cluster::ROLE_NODE_STATUS.to_string()),
                        (cluster::NODE_POD_LABEL.to_string(), self.config.pod_name.clone()),
                    ])),
                    owner_references: owner.clone(),
                    ..ObjectMeta::default()
                },
                data: Some(BTreeMap::from([
                    (cluster::NODE_STATUS_KEY.to_string(), content.0.clone()),
                    (cluster::NODE_ERRORS_KEY.to_string(), content.1.clone()),
                    (cluster::NODE_POD_KEY.to_string(), self.config.pod_name.clone()),
                    (cluster::NODE_SHARD_KEY.to_string(), shard.to_string()),
                ])),
                ..ConfigMap::default()
            };
            let mut value = serde_json::to_value(&status).unwrap_or_default();
            value["apiVersion"] = "v1".into();
            value["kind"] = "ConfigMap".into();
            api.patch(
                &name,
                &PatchParams::apply(cluster::NODE_MANAGER).force(),
                &Patch::Apply(&value),
            )
            .await?;
            self.published
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .insert(shard, content);
            written += 1;
            tracing::debug!(shard, "node status published");
        }
        Ok(written)
    }

    /// Follows Functions until `shutdown` completes, publishing the served set
    /// as it changes and retrying failed loads.
    pub async fn run(self: Arc<Self>, shutdown: impl std::future::Future<Output = ()> + Send + Sync + 'static) {
        let api: Api<Function> = Api::all(self.client.clone());
        self.run_with(watcher(api, watcher::Config::default()).default_backoff(), shutdown)
            .await;
    }

    /// [`Self::run`] on `events`, a watch of Functions.
    ///
    /// Each Function is reconciled by kube's controller runtime: one pass
    /// at a time per Function, several changes seen during a pass make one
    /// more pass, at most [`SyncConfig::concurrency`] Functions are worked
    /// on at once, and a failed load is retried every
    /// [`SyncConfig::retry_every`]. A deleted Function is taken off the node
    /// as the watch reports it.
    pub async fn run_with<S>(
        self: Arc<Self>,
        events: S,
        shutdown: impl std::future::Future<Output = ()> + Send + Sync + 'static,
    ) where
        S: futures::Stream<Item = Result<watcher::Event<Function>, watcher::Error>> + Send + 'static,
    {
        let publisher = tokio::spawn(self.clone().publish_loop());
        let (refresh, refreshes) = tokio::sync::mpsc::channel::<ObjectRef<Function>>(1024);
        let secret_refresher = tokio::spawn(self.clone().secret_refresh_loop(refresh));
        let (reader, writer) = reflector::store();
        let removals = self.clone();
        let mut listed: Option<BTreeSet<FunctionKey>> = None;
        let events = reflector(writer, events)
            .inspect(move |event| removals.follow_removals(event, &mut listed))
            .touched_objects();
        let concurrency = self.config.concurrency;
        Controller::for_stream(events, reader)
            .reconcile_on(futures::stream::unfold(refreshes, |mut rx| async move {
                rx.recv().await.map(|r| (r, rx))
            }))
            .with_config(ControllerRuntime::default().concurrency(concurrency))
            .graceful_shutdown_on(shutdown)
            .run(
                |function, this: Arc<Self>| async move {
                    let (namespace, name) = (function.namespace().unwrap_or_default(), function.name_any());
                    let result = this.apply(function).await;
                    this.first_pass(Some(FunctionKey::new(namespace.clone(), name.clone())), None);
                    match result {
                        Ok(()) => Ok(Action::await_change()),
                        Err(e) => {
                            tracing::warn!(%namespace, %name, error = %shoal_runtime::causes(&e), "Function not served on this node");
                            Err(e)
                        }
                    }
                },
                |_, _, this: Arc<Self>| Action::requeue(this.config.retry_every),
                self.clone(),
            )
            .for_each(|_| async {})
            .await;
        publisher.abort();
        secret_refresher.abort();
    }

    /// Takes Functions off the node as the watch reports them gone: deleted,
    /// or missing from a re-list (deleted while the watch was down).
    fn follow_removals(
        &self,
        event: &Result<watcher::Event<Function>, watcher::Error>,
        listed: &mut Option<BTreeSet<FunctionKey>>,
    ) {
        let key = |f: &Function| FunctionKey::new(f.namespace().unwrap_or_default(), f.name_any());
        match event {
            Ok(watcher::Event::Init) => *listed = Some(BTreeSet::new()),
            Ok(watcher::Event::InitApply(f)) => {
                if let Some(seen) = listed.as_mut() {
                    seen.insert(key(f));
                }
            }
            Ok(watcher::Event::InitDone) => {
                let seen = listed.take().unwrap_or_default();
                self.first_pass(None, Some(seen.clone()));
                let gone: Vec<FunctionKey> = self.lock().keys().filter(|k| !seen.contains(k)).cloned().collect();
                for key in gone {
                    self.remove(&key.namespace, &key.name);
                }
            }
            Ok(watcher::Event::Delete(f)) => {
                self.remove(&f.namespace().unwrap_or_default(), &f.name_any());
                // Gone before its first reconcile: nothing left to wait for.
                self.first_pass(Some(key(f)), None);
            }
            Ok(watcher::Event::Apply(_)) => {}
            Err(e) => tracing::warn!(error = %e, "watching Functions"),
        }
    }

    async fn publish_loop(self: Arc<Self>) {
        loop {
            // At most one write per interval; a change after a quiet spell
            // is published at once (a new Function's endpoint waits for
            // it), and changes during the interval go out together after it.
            // A change that alters nothing published (a Function starting to
            // load) costs no interval.
            match self.publish().await {
                Ok(0) => {}
                Ok(_) => tokio::time::sleep(self.config.publish_every).await,
                Err(e) => {
                    tracing::warn!(error = %shoal_runtime::causes(&e), "publishing node status");
                    tokio::time::sleep(self.config.publish_every).await;
                }
            }
            tokio::select! {
                () = self.changed.notified() => {}
                () = tokio::time::sleep(Duration::from_secs(30)) => {}
            }
        }
    }

    /// Writes each Secret the Function mounts to a folder named after its
    /// content (so a changed Secret is a new folder and the table entry is
    /// replaced, never a half-written file) and returns the mounts.
    async fn secret_mounts(&self, function: &Function) -> Result<Vec<Mount>, SyncError> {
        let namespace = function.namespace().unwrap_or_default();
        let secrets: Api<Secret> = Api::namespaced(self.client.clone(), &namespace);
        let mut mounts = Vec::new();
        for mount in &function.spec.secret_mounts {
            let secret = secrets
                .get(&mount.secret_name)
                .await
                .map_err(|source| SyncError::Kube {
                    what: format!("Secret {} (secretMounts)", mount.secret_name),
                    source,
                })?;
            let files: BTreeMap<String, Vec<u8>> = secret
                .data
                .unwrap_or_default()
                .into_iter()
                .map(|(k, v)| (k, v.0))
                .chain(
                    secret
                        .string_data
                        .unwrap_or_default()
                        .into_iter()
                        .map(|(k, v)| (k, v.into_bytes())),
                )
                .collect();
            let version = {
                use sha2::Digest;
                let mut hash = sha2::Sha256::new();
                for (key, value) in &files {
                    hash.update((key.len() as u64).to_le_bytes());
                    hash.update(key.as_bytes());
                    hash.update((value.len() as u64).to_le_bytes());
                    hash.update(value);
                }
                hex::encode(&hash.finalize()[..8])
            };
            let folder = self
                .config
                .secrets_dir
                .join(&namespace)
                .join(function.name_any())
                .join(format!("{}-{version}", mount.secret_name));
            write_secret_folder(&folder, &files).map_err(|source| SyncError::SecretFiles {
                secret: mount.secret_name.clone(),
                source,
            })?;
            mounts.push(Mount {
                host: folder,
                guest: mount.mount_path.clone(),
            });
        }
        Ok(mounts)
    }

    /// Removes the Function's Secret folders other than `keep`.
    fn prune_secret_folders(&self, key: &FunctionKey, keep: &[Mount]) {
        let dir = self.config.secrets_dir.join(&key.namespace).join(&key.name);
        let Ok(entries) = std::fs::read_dir(&dir) else { return };
        for entry in entries.flatten() {
            let path = entry.path();
            if !keep.iter().any(|m| m.host == path) {
                let _ = std::fs::remove_dir_all(&path);
            }
        }
    }

    /// Re-reads the Secrets of every Function that mounts some; a changed
    /// Secret replaces the Function's entry with the new files mounted.
    pub async fn refresh_secret_mounts(&self) {
        for function in self.mounting() {
            let _ = self.apply(function).await;
        }
    }

    /// Functions that mount Secrets.
    fn mounting(&self) -> Vec<Arc<Function>> {
        self.lock()
            .values()
            .filter(|d| !d.function.spec.secret_mounts.is_empty())
            .map(|d| d.function.clone())
            .collect()
    }

    /// Asks the controller to reconcile each Function that mounts Secrets,
    /// every [`SyncConfig::secret_refresh_every`].
    async fn secret_refresh_loop(self: Arc<Self>, refresh: tokio::sync::mpsc::Sender<ObjectRef<Function>>) {
        loop {
            tokio::time::sleep(self.config.secret_refresh_every).await;
            for function in self.mounting() {
                if refresh.send(ObjectRef::from_obj(function.as_ref())).await.is_err() {
                    return;
                }
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<FunctionKey, Desired>> {
        self.desired.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Writes a Secret's keys as read-only files into `folder` (once: a folder
/// is named after its content), through a temporary folder renamed into
/// place so a reader never sees it half written.
fn write_secret_folder(folder: &std::path::Path, files: &BTreeMap<String, Vec<u8>>) -> std::io::Result<()> {
    if folder.is_dir() {
        return Ok(());
    }
    let parent = folder.parent().unwrap_or(folder);
    std::fs::create_dir_all(parent)?;
    let staging = tempfile::Builder::new().prefix(".staging-").tempdir_in(parent)?;
    for (key, value) in files {
        std::fs::write(staging.path().join(key), value)?;
    }
    match std::fs::rename(staging.path(), folder) {
        Ok(()) => {
            // Renamed away: nothing left for the TempDir to delete.
            let _ = staging.keep();
            Ok(())
        }
        // Another apply of the same Secret version got there first.
        Err(_) if folder.is_dir() => Ok(()),
        Err(e) => Err(e),
    }
}

/// A Function's `spec.env` as plain values, with `valueFrom` ConfigMap and
/// Secret keys read from its namespace and `fieldRef` to its own name and
/// namespace (what a pod's env would have held).
pub async fn resolve_env(client: &Client, function: &Function) -> Result<BTreeMap<String, String>, SyncError> {
    let namespace = function.namespace().unwrap_or_default();
    let config_maps: Api<ConfigMap> = Api::namespaced(client.clone(), &namespace);
    let secrets: Api<Secret> = Api::namespaced(client.clone(), &namespace);
    let mut env = BTreeMap::new();
    for var in &function.spec.env {
        if let Some(value) = resolve_one(var, function, &config_maps, &secrets).await? {
            env.insert(var.name.clone(), value);
        }
    }
    Ok(env)
}

async fn resolve_one(
    var: &EnvVar,
    function: &Function,
    config_maps: &Api<ConfigMap>,
    secrets: &Api<Secret>,
) -> Result<Option<String>, SyncError> {
    let missing = |reason: String| SyncError::Env {
        name: var.name.clone(),
        reason,
    };
    let Some(from) = &var.value_from else {
        return Ok(Some(var.value.clone().unwrap_or_default()));
    };
    if let Some(r) = &from.config_map_key_ref {
        let optional = r.optional.unwrap_or(false);
        let map = config_maps.get_opt(&r.name).await.map_err(|source| SyncError::Kube {
            what: format!("ConfigMap {}", r.name),
            source,
        })?;
        let value = map.as_ref().and_then(|m| {
            m.data.as_ref().and_then(|d| d.get(&r.key).cloned()).or_else(|| {
                m.binary_data
                    .as_ref()
                    .and_then(|d| d.get(&r.key))
                    .map(|b| String::from_utf8_lossy(&b.0).into_owned())
            })
        });
        return match value {
            Some(v) => Ok(Some(v)),
            None if optional => Ok(None),
            None => Err(missing(format!("ConfigMap {} has no key {:?}", r.name, r.key))),
        };
    }
    if let Some(r) = &from.secret_key_ref {
        let optional = r.optional.unwrap_or(false);
        let secret = secrets.get_opt(&r.name).await.map_err(|source| SyncError::Kube {
            what: format!("Secret {}", r.name),
            source,
        })?;
        let value = secret.as_ref().and_then(|s| {
            s.data
                .as_ref()
                .and_then(|d| d.get(&r.key))
                .map(|b| String::from_utf8_lossy(&b.0).into_owned())
                .or_else(|| s.string_data.as_ref().and_then(|d| d.get(&r.key).cloned()))
        });
        return match value {
            Some(v) => Ok(Some(v)),
            None if optional => Ok(None),
            None => Err(missing(format!("Secret {} has no key {:?}", r.name, r.key))),
        };
    }
    if let Some(field) = &from.field_ref {
        return match field.field_path.as_str() {
            "metadata.name" => Ok(Some(function.name_any())),
            "metadata.namespace" => Ok(Some(function.namespace().unwrap_or_default())),
            other => Err(missing(format!(
                "fieldRef {other:?} is not available to Shoal Functions"
            ))),
        };
    }
    Err(missing(
        "only value, configMapKeyRef, secretKeyRef and fieldRef metadata.name/namespace are supported".into(),
    ))
}
