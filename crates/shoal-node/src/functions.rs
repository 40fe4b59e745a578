//! The set of Functions a node knows, loaded lazily and evicted
//! least-recently-used beyond a memory budget.
//!
//! Each Function is an immutable [`FunctionEntry`] behind an `Arc`. An update
//! swaps the `Arc` in the table: requests already running keep the entry
//! (and module) they started with, new requests get the new one.

use std::{
    collections::{BTreeMap, HashMap},
    path::PathBuf,
    sync::{
        Arc, Mutex, RwLock,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use shoal_oci::{Credentials, Digest, Registry};
use shoal_runtime::{FunctionModule, Runtime};
use tokio::sync::Semaphore;

use crate::locks::{lock, read, write};
use crate::metrics::FunctionMetrics;
use crate::warm::{WarmBudget, WarmConfig, WarmPool};

pub use shoal_runtime::FunctionKey;

/// How a Function runs: everything but its code.
#[derive(Debug, Clone)]
pub struct FunctionConfig {
    /// Kyma runtime name (`nodejs22`, ...).
    pub runtime: String,
    /// `spec.env` after resolution (plain values).
    pub env: BTreeMap<String, String>,
    /// FUNC_TIMEOUT.
    pub timeout: Duration,
    /// Memory limit per request, from the Function's preset.
    pub memory_limit: usize,
    /// Requests the Function may run at once before the node answers 503.
    pub max_concurrency: usize,
    /// Cores the Function's busy guests may use at once
    /// ([`FunctionConfig::cpu_cores_for`]).
    pub cpu_cores: u32,
    /// Largest request body accepted.
    pub body_limit: usize,
    /// Folders shown read-only in the sandbox (the Function's secretMounts).
    pub mounts: Vec<shoal_runtime::Mount>,
    /// The port whose connections are this Function's whatever their Host
    /// (in a cluster, where its EndpointSlice points); None: reached by Host
    /// or path on the node's own port only.
    pub port: Option<u16>,
}

impl Default for FunctionConfig {
    fn default() -> Self {
        Self {
            runtime: "nodejs24".into(),
            env: BTreeMap::new(),
            timeout: Duration::from_secs(180),
            // Kyma's default preset L limits memory to 1024Mi.
            memory_limit: 1024 << 20,
            max_concurrency: 64,
            cpu_cores: 1,
            body_limit: 1 << 20,
            mounts: Vec::new(),
            port: None,
        }
    }
}

/// Node-wide settings a Function's own env may override.
#[derive(Debug, Clone)]
pub struct FunctionDefaults {
    /// FUNC_TIMEOUT when the Function sets none.
    pub timeout: Duration,
    /// Body limit when the Function sets neither REQ_MB_LIMIT nor FUNC_BODY_MB_LIMIT.
    pub body_limit: usize,
    /// Requests one Function may run at once.
    pub max_concurrency: usize,
    /// The longest FUNC_TIMEOUT a Function may set: the operator's
    /// ceiling, which a tenant's env cannot raise.
    pub max_timeout: Duration,
    /// The largest body limit a Function may set (REQ_MB_LIMIT), likewise.
    pub max_body_limit: usize,
}

impl Default for FunctionDefaults {
    fn default() -> Self {
        let config = FunctionConfig::default();
        Self {
            timeout: config.timeout,
            body_limit: config.body_limit,
            max_concurrency: config.max_concurrency,
            max_timeout: Duration::from_secs(DEFAULT_MAX_TIMEOUT_SECS),
            max_body_limit: DEFAULT_MAX_BODY_MB << 20,
        }
    }
}

/// The default ceiling on FUNC_TIMEOUT, in seconds (Kyma's own default is 180).
pub const DEFAULT_MAX_TIMEOUT_SECS: u64 = 1800;
/// The default ceiling on a Function's body limit, in MB.
pub const DEFAULT_MAX_BODY_MB: usize = 32;

impl FunctionConfig {
    /// A Function's config from its resolved env and memory limit: Kyma's
    /// FUNC_TIMEOUT (seconds) and REQ_MB_LIMIT / FUNC_BODY_MB_LIMIT (MB)
    /// override the node's defaults, up to the node's ceilings (a larger
    /// value is cut to the ceiling, and said so in the log).
    pub fn from_env(
        runtime: impl Into<String>,
        env: BTreeMap<String, String>,
        memory_limit: usize,
        defaults: &FunctionDefaults,
    ) -> Self {
        let number = |k: &str| env.get(k).and_then(|v| v.trim().parse::<u64>().ok());
        let timeout = number("FUNC_TIMEOUT").map_or(defaults.timeout, Duration::from_secs);
        let body_limit = number("REQ_MB_LIMIT")
            .or(number("FUNC_BODY_MB_LIMIT"))
            .map_or(defaults.body_limit, |mb| {
                usize::try_from(mb)
                    .ok()
                    .and_then(|mb| mb.checked_mul(1 << 20))
                    .unwrap_or(usize::MAX)
            });
        if timeout > defaults.max_timeout || body_limit > defaults.max_body_limit {
            tracing::warn!(
                timeout_s = timeout.as_secs(),
                body_limit,
                max_timeout_s = defaults.max_timeout.as_secs(),
                max_body_limit = defaults.max_body_limit,
                "the Function's FUNC_TIMEOUT or body limit is over the node's ceiling; the ceiling applies"
            );
        }
        let timeout = timeout.min(defaults.max_timeout);
        let body_limit = body_limit.min(defaults.max_body_limit);
        Self {
            runtime: runtime.into(),
            env,
            timeout,
            memory_limit,
            max_concurrency: defaults.max_concurrency,
            cpu_cores: 1,
            body_limit,
            mounts: Vec::new(),
            port: None,
        }
    }
}

impl FunctionConfig {
    /// The cores a Function with a CPU limit of `limit` (cores, as its
    /// preset or resources say) gets on this node: the limit rounded up,
    /// at least one, and never every core the node has, so no one Function
    /// can keep every executor thread busy.
    pub fn cpu_cores_for(limit: f64) -> u32 {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let ceiling = u32::try_from(cores.saturating_sub(1)).unwrap_or(u32::MAX).max(1);
        if !limit.is_finite() || limit <= 0.0 {
            return 1;
        }
        // `as` saturates: a huge limit is cut to the ceiling below.
        (limit.ceil() as u32).clamp(1, ceiling)
    }
}

/// Where a Function's module comes from.
#[derive(Debug, Clone)]
pub enum ModuleSource {
    /// Built in this process (local mode).
    Bytes(Arc<Vec<u8>>),
    /// An OCI artifact, pulled once and verified against `digest`.
    Oci {
        /// The reference to pull.
        reference: String,
        /// The manifest digest the module must have.
        digest: Option<String>,
    },
}

impl ModuleSource {
    /// A short description for logs.
    pub fn describe(&self) -> String {
        match self {
            Self::Bytes(b) => format!("{} bytes built locally", b.len()),
            Self::Oci { reference, digest } => match digest {
                Some(d) => format!("{reference} ({d})"),
                None => reference.clone(),
            },
        }
    }
}

/// Errors loading a Function's module. Cloned to every request waiting on
/// the load, so causes are shared.
#[derive(Debug, Clone, thiserror::Error)]
pub enum LoadError {
    /// The module's reference is not the Function's own artifact under the
    /// node's artifact prefix.
    #[error("refusing {reference}: this node serves {function} only from {expected}sha256:<digest>")]
    Refused {
        /// The reference asked for.
        reference: String,
        /// The Function.
        function: FunctionKey,
        /// The repository its artifact must come from.
        expected: String,
    },
    /// Pulling the artifact failed.
    #[error("pulling the module failed")]
    Pull(#[source] Arc<shoal_oci::OciError>),
    /// The registry does not have the artifact: it must be built again.
    #[error("the registry does not have the module")]
    Missing(#[source] Arc<shoal_oci::OciError>),
    /// The module does not compile or link.
    #[error("the module does not load")]
    Invalid(#[source] Arc<shoal_runtime::RuntimeError>),
    /// Compiling the module panicked.
    #[error("the module loader panicked: {0}")]
    LoaderPanicked(String),
}

/// One version of one Function.
pub struct FunctionEntry {
    /// Which Function.
    pub key: FunctionKey,
    /// How it runs.
    pub config: FunctionConfig,
    /// Its code.
    pub source: ModuleSource,
    /// Bumped on every update of this key, for logs.
    pub version: u64,
    /// Request counters, shared across versions.
    pub metrics: Arc<FunctionMetrics>,
    /// Caps concurrent requests.
    pub permits: Arc<Semaphore>,
    /// The cores its busy guests share.
    pub cpu: shoal_runtime::CpuShare,
    /// This version's warm sandboxes.
    pub warm: WarmPool,
    loaded: RwLock<Option<Loaded>>,
    load_lock: tokio::sync::Mutex<()>,
    last_used: AtomicU64,
}

struct Loaded {
    module: FunctionModule,
    /// The module's share of the table's memory account, given back when
    /// the module is dropped: unloaded, evicted, or its entry replaced.
    charge: MemoryCharge,
}

/// Bytes counted in [`FunctionTable::loaded_bytes`] for as long as this
/// lives. Tying the count to the module's lifetime keeps it exact however
/// the module goes, including a load that finishes after its entry was
/// replaced.
struct MemoryCharge {
    bytes: usize,
    account: Arc<AtomicU64>,
}

impl MemoryCharge {
    fn new(bytes: usize, account: &Arc<AtomicU64>) -> Self {
        account.fetch_add(bytes as u64, Ordering::Relaxed);
        Self {
            bytes,
            account: account.clone(),
        }
    }
}

impl Drop for MemoryCharge {
    fn drop(&mut self) {
        self.account.fetch_sub(self.bytes as u64, Ordering::Relaxed);
    }
}

impl FunctionEntry {
    /// Whether the module is in memory now.
    pub fn is_loaded(&self) -> bool {
        read(&self.loaded).is_some()
    }

    fn touch(&self, now: u64) {
        self.last_used.store(now, Ordering::Relaxed);
    }

    /// Drops the module (its memory charge with it).
    fn unload(&self) {
        self.warm.clear();
        let dropped = write(&self.loaded).take();
        drop(dropped);
    }
}

/// Settings of the table.
#[derive(Debug, Clone)]
pub struct TableConfig {
    /// Approximate bytes of loaded modules kept before evicting idle ones.
    pub memory_budget: usize,
    /// Where pulled modules are kept, by digest.
    pub artifact_dir: Option<PathBuf>,
    /// Credentials for pulling.
    pub credentials: Credentials,
    /// The registry and repository prefix artifacts must come from
    /// (`host:port/prefix`): a Function `ns/name` is pulled only from
    /// `<prefix>/ns/name@sha256:...`. None accepts any reference (local
    /// use, where the operator names each one).
    pub artifact_prefix: Option<String>,
    /// Which Functions keep warm sandboxes.
    pub warm: WarmConfig,
}

impl Default for TableConfig {
    fn default() -> Self {
        Self {
            memory_budget: 512 << 20,
            artifact_dir: None,
            credentials: Credentials::Anonymous,
            artifact_prefix: None,
            warm: WarmConfig::default(),
        }
    }
}

/// All Functions this node serves.
pub struct FunctionTable {
    runtime: Arc<Runtime>,
    config: TableConfig,
    entries: RwLock<HashMap<FunctionKey, Arc<FunctionEntry>>>,
    metrics: Mutex<HashMap<FunctionKey, Arc<FunctionMetrics>>>,
    versions: AtomicU64,
    clock: AtomicU64,
    loaded_bytes: Arc<AtomicU64>,
    warm_budget: Arc<WarmBudget>,
    /// Bumped on every upsert and removal (the node follows it to open and
    /// close Function ports).
    changes: tokio::sync::watch::Sender<u64>,
    /// Loads, evictions and cache counters for /metrics.
    pub stats: TableStats,
}

/// Counters of loading activity.
#[derive(Debug, Default)]
pub struct TableStats {
    /// Cold loads (module compiled or read from the cache).
    pub loads: AtomicU64,
    /// Loads that failed.
    pub load_failures: AtomicU64,
    /// Modules dropped to stay within the budget.
    pub evictions: AtomicU64,
    /// Pulls served from the artifact directory.
    pub artifact_hits: AtomicU64,
    /// Pulls that went to a registry.
    pub artifact_pulls: AtomicU64,
}

impl FunctionTable {
    /// An empty table running modules on `runtime`.
    pub fn new(runtime: Arc<Runtime>, config: TableConfig) -> Self {
        Self {
            warm_budget: WarmBudget::new(config.warm.memory_budget),
            runtime,
            config,
            entries: RwLock::default(),
            metrics: Mutex::default(),
            versions: AtomicU64::new(0),
            clock: AtomicU64::new(0),
            loaded_bytes: Arc::new(AtomicU64::new(0)),
            changes: tokio::sync::watch::Sender::new(0),
            stats: TableStats::default(),
        }
    }

    /// Notified whenever a Function is added, replaced or removed.
    pub fn subscribe(&self) -> tokio::sync::watch::Receiver<u64> {
        self.changes.subscribe()
    }

    /// The Functions with a port of their own, by port. Should two claim one
    /// port (a reassignment seen half-way), the later version wins.
    pub fn ports(&self) -> BTreeMap<u16, FunctionKey> {
        let mut claims: Vec<(u16, u64, FunctionKey)> = read(&self.entries)
            .values()
            .filter_map(|e| Some((e.config.port?, e.version, e.key.clone())))
            .collect();
        claims.sort();
        claims.into_iter().map(|(port, _, key)| (port, key)).collect()
    }

    /// The runtime requests run on.
    pub fn runtime(&self) -> &Arc<Runtime> {
        &self.runtime
    }

    /// When Functions keep warm sandboxes.
    pub fn warm_config(&self) -> &WarmConfig {
        &self.config.warm
    }

    /// The node-wide account of idle warm sandboxes.
    pub fn warm_budget(&self) -> &Arc<WarmBudget> {
        &self.warm_budget
    }

    /// Drops warm sandboxes idle longer than the configured TTL; returns how
    /// many.
    pub fn sweep_warm(&self) -> usize {
        let ttl = self.config.warm.idle_ttl;
        self.list().iter().map(|e| e.warm.sweep(ttl)).sum()
    }

    /// Adds or replaces a Function. Requests running on the previous version
    /// finish on it.
    pub fn upsert(&self, key: FunctionKey, config: FunctionConfig, source: ModuleSource) -> Arc<FunctionEntry> {
        let metrics = self.metrics_for(&key);
        let entry = Arc::new(FunctionEntry {
            permits: Arc::new(Semaphore::new(config.max_concurrency.max(1))),
            cpu: shoal_runtime::CpuShare::new(config.cpu_cores),
            warm: WarmPool::new(self.warm_budget.clone()),
            key: key.clone(),
            config,
            source,
            version: self.versions.fetch_add(1, Ordering::Relaxed) + 1,
            metrics,
            loaded: RwLock::new(None),
            load_lock: tokio::sync::Mutex::new(()),
            last_used: AtomicU64::new(0),
        });
        let previous = write(&self.entries).insert(key.clone(), entry.clone());
        self.changes.send_modify(|n| *n += 1);
        if let Some(old) = previous {
            old.unload();
            tracing::info!(function = %key, version = entry.version, source = %entry.source.describe(), "Function updated");
        } else {
            tracing::info!(function = %key, version = entry.version, source = %entry.source.describe(), "Function added");
        }
        entry
    }

    /// Removes a Function; requests already running finish.
    pub fn remove(&self, key: &FunctionKey) -> bool {
        let removed = write(&self.entries).remove(key);
        if let Some(old) = &removed {
            self.changes.send_modify(|n| *n += 1);
            old.unload();
            lock(&self.metrics).remove(key);
            tracing::info!(function = %key, "Function removed");
        }
        removed.is_some()
    }

    /// Looks a Function up.
    pub fn get(&self, key: &FunctionKey) -> Option<Arc<FunctionEntry>> {
        read(&self.entries).get(key).cloned()
    }

    /// The namespaces holding a Function with this name.
    pub fn namespaces_of(&self, name: &str) -> Vec<String> {
        read(&self.entries)
            .keys()
            .filter(|k| k.name == name)
            .map(|k| k.namespace.clone())
            .collect()
    }

    /// Every Function, sorted by key.
    pub fn list(&self) -> Vec<Arc<FunctionEntry>> {
        let mut all: Vec<_> = read(&self.entries).values().cloned().collect();
        all.sort_by(|a, b| a.key.cmp(&b.key));
        all
    }

    /// Number of Functions known.
    pub fn len(&self) -> usize {
        read(&self.entries).len()
    }

    /// Whether no Function is known.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Approximate bytes held by loaded modules.
    pub fn loaded_bytes(&self) -> u64 {
        self.loaded_bytes.load(Ordering::Relaxed)
    }

    /// Number of Functions whose module is in memory.
    pub fn loaded_count(&self) -> usize {
        self.list().iter().filter(|e| e.is_loaded()).count()
    }

    /// The entry's module, loading it first if needed (the cold start).
    pub async fn module(&self, entry: &FunctionEntry) -> Result<FunctionModule, LoadError> {
        entry.touch(self.clock.fetch_add(1, Ordering::Relaxed));
        if let Some(l) = read(&entry.loaded).as_ref() {
            return Ok(l.module.clone());
        }
        let _serialised = entry.load_lock.lock().await;
        if let Some(l) = read(&entry.loaded).as_ref() {
            return Ok(l.module.clone());
        }
        let started = Instant::now();
        let result = self.load(entry).await;
        match result {
            Ok(loaded) => {
                self.stats.loads.fetch_add(1, Ordering::Relaxed);
                let module = loaded.module.clone();
                let bytes = loaded.charge.bytes;
                let current = self.get(&entry.key).is_some_and(|e| e.version == entry.version);
                if current {
                    *write(&entry.loaded) = Some(loaded);
                }
                // A replaced or removed entry does not keep its module: the
                // request that asked for it runs, and the charge goes with it.
                tracing::info!(function = %entry.key, version = entry.version, bytes, elapsed_us = started.elapsed().as_micros() as u64, "Function loaded");
                self.evict_beyond_budget(&entry.key);
                Ok(module)
            }
            Err(e) => {
                self.stats.load_failures.fetch_add(1, Ordering::Relaxed);
                tracing::error!(function = %entry.key, version = entry.version, error = %shoal_runtime::causes(&e), "Function failed to load");
                Err(e)
            }
        }
    }

    async fn load(&self, entry: &FunctionEntry) -> Result<Loaded, LoadError> {
        let wasm = match &entry.source {
            ModuleSource::Bytes(bytes) => bytes.clone(),
            ModuleSource::Oci { reference, digest } => {
                self.check_origin(&entry.key, reference)?;
                Arc::new(self.pull(reference, digest.as_deref()).await?)
            }
        };
        let runtime = self.runtime.clone();
        let wasm_for_load = wasm.clone();
        // Compiling is CPU-bound; keep it off the request-serving workers.
        let module = tokio::task::spawn_blocking(move || runtime.load(&wasm_for_load))
            .await
            .map_err(|e| LoadError::LoaderPanicked(e.to_string()))?
            .map_err(|e| LoadError::Invalid(Arc::new(e)))?;
        Ok(Loaded {
            charge: MemoryCharge::new(wasm.len() + module.code_bytes(), &self.loaded_bytes),
            module,
        })
    }

    /// With an artifact prefix, a Function's module must be its own,
    /// digest-pinned artifact under that prefix: a build result naming
    /// another registry or another Function's repository is refused before
    /// any request is made.
    fn check_origin(&self, key: &FunctionKey, reference: &str) -> Result<(), LoadError> {
        let Some(prefix) = &self.config.artifact_prefix else {
            return Ok(());
        };
        let expected = format!("{}/{}/{}@", prefix.trim_end_matches('/'), key.namespace, key.name);
        let pinned = reference
            .strip_prefix(&expected)
            .is_some_and(|digest| Digest::parse(digest).is_ok());
        if pinned {
            Ok(())
        } else {
            Err(LoadError::Refused {
                reference: reference.to_string(),
                function: key.clone(),
                expected,
            })
        }
    }

    async fn pull(&self, reference: &str, digest: Option<&str>) -> Result<Vec<u8>, LoadError> {
        let digest = digest
            .map(Digest::parse)
            .transpose()
            .map_err(|e| LoadError::Pull(Arc::new(e)))?;
        // The cache is addressed by the checked digest's hex digits only, and
        // what it holds is verified like a pull before it is used.
        let cached = match (&self.config.artifact_dir, &digest) {
            (Some(dir), Some(d)) => Some((
                dir.join(format!("sha256-{}.wasm", d.hex())),
                dir.join(format!("sha256-{}.manifest", d.hex())),
            )),
            _ => None,
        };
        if let (Some((wasm_path, manifest_path)), Some(d)) = (&cached, &digest)
            && let (Ok(wasm), Ok(manifest)) = (tokio::fs::read(wasm_path).await, tokio::fs::read(manifest_path).await)
        {
            match shoal_oci::verify_cached(reference, d.as_str(), &manifest, wasm) {
                Ok(verified) => {
                    self.stats.artifact_hits.fetch_add(1, Ordering::Relaxed);
                    return Ok(verified.wasm);
                }
                Err(e) => {
                    tracing::warn!(%reference, error = %e, "cached artifact failed verification; pulling it again");
                    let _ = tokio::fs::remove_file(wasm_path).await;
                    let _ = tokio::fs::remove_file(manifest_path).await;
                }
            }
        }
        self.stats.artifact_pulls.fetch_add(1, Ordering::Relaxed);
        let registry = Registry::for_reference(reference, self.config.credentials.clone());
        let pulled = registry
            .pull(reference, digest.as_ref().map(Digest::as_str))
            .await
            .map_err(|e| match e {
                missing @ shoal_oci::OciError::Missing { .. } => LoadError::Missing(Arc::new(missing)),
                other => LoadError::Pull(Arc::new(other)),
            })?;
        if let Some((wasm_path, manifest_path)) = &cached {
            // Written beside, then renamed: a reader never sees half a file.
            for (path, bytes) in [(manifest_path, &pulled.manifest), (wasm_path, &pulled.wasm)] {
                let tmp = path.with_extension(format!("{}.tmp", std::process::id()));
                if tokio::fs::write(&tmp, bytes).await.is_ok() {
                    let _ = tokio::fs::rename(&tmp, path).await;
                }
            }
        }
        Ok(pulled.wasm)
    }

    fn evict_beyond_budget(&self, keep: &FunctionKey) {
        if self.loaded_bytes() as usize <= self.config.memory_budget {
            return;
        }
        let started = Instant::now();
        let mut loaded: Vec<Arc<FunctionEntry>> = self
            .list()
            .into_iter()
            .filter(|e| e.is_loaded() && &e.key != keep)
            .collect();
        loaded.sort_by_key(|e| e.last_used.load(Ordering::Relaxed));
        let mut evicted = 0;
        for entry in loaded {
            if self.loaded_bytes() as usize <= self.config.memory_budget {
                break;
            }
            entry.unload();
            evicted += 1;
            self.stats.evictions.fetch_add(1, Ordering::Relaxed);
            tracing::info!(function = %entry.key, "Function evicted (least recently used)");
        }
        if evicted > 0 {
            tracing::info!(
                evicted,
                elapsed_us = started.elapsed().as_micros() as u64,
                loaded_bytes = self.loaded_bytes(),
                "memory budget enforced"
            );
        }
    }

    fn metrics_for(&self, key: &FunctionKey) -> Arc<FunctionMetrics> {
        lock(&self.metrics).entry(key.clone()).or_default().clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(env: &[(&str, &str)]) -> FunctionConfig {
        let env = env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        FunctionConfig::from_env("nodejs24", env, 256 << 20, &FunctionDefaults::default())
    }

    // A tenant's env sets its timeout and body limit up to the operator's
    // ceilings, never past them, and absurd values neither wrap nor panic.
    #[test]
    fn a_functions_env_cannot_raise_its_limits_past_the_nodes_ceilings() {
        let defaults = FunctionDefaults::default();
        let own = config(&[("FUNC_TIMEOUT", "30"), ("REQ_MB_LIMIT", "4")]);
        assert_eq!((own.timeout, own.body_limit), (Duration::from_secs(30), 4 << 20));
        for (timeout, body) in [
            ("18446744073709551615", "18446744073709551615"),
            ("100000", "150"),
            ("1801", "17592186044416"),
        ] {
            let capped = config(&[("FUNC_TIMEOUT", timeout), ("REQ_MB_LIMIT", body)]);
            assert_eq!(capped.timeout, defaults.max_timeout, "{timeout}");
            assert_eq!(capped.body_limit, defaults.max_body_limit, "{body}");
        }
        let kyma26 = config(&[("FUNC_BODY_MB_LIMIT", "999999")]);
        assert_eq!(kyma26.body_limit, defaults.max_body_limit);
    }

    #[test]
    fn a_functions_cores_are_its_cpu_limit_rounded_up_and_never_every_core() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let ceiling = u32::try_from(cores.saturating_sub(1)).unwrap_or(u32::MAX).max(1);
        assert_eq!(FunctionConfig::cpu_cores_for(0.15), 1);
        assert_eq!(FunctionConfig::cpu_cores_for(1.6), 2.min(ceiling));
        assert_eq!(FunctionConfig::cpu_cores_for(1e30), ceiling);
        assert_eq!(FunctionConfig::cpu_cores_for(f64::NAN), 1);
        assert_eq!(FunctionConfig::cpu_cores_for(-3.0), 1);
    }
}
