//! Shoal's WebAssembly host: one wasmtime [`Engine`], Shoal's JavaScript
//! engine plugin compiled once, Function modules compiled once, and limited
//! sandboxes that serve requests.
//!
//! Lifetimes, from longest to shortest:
//! - [`Runtime`]: one per process. Owns the `Engine`, the epoch ticker that
//!   bounds CPU time, and the engine plugin's `InstancePre`.
//! - [`FunctionModule`]: one per Function version: a few KB of bytecode
//!   importing the engine, and the Function's snapshot once one is taken
//!   (the `snapshot` module: the engine's memory right after the module
//!   loaded, which later sandboxes start from instead of evaluating it).
//! - a sandbox (one `Store`): either fresh for one request
//!   ([`Runtime::invoke_with`]) or warm ([`Sandbox`]), serving one Function's
//!   requests one after another with its module evaluated once (or restored
//!   from the snapshot). A sandbox belongs to one Function version and ends
//!   at its first failure.
//!
//! This crate knows nothing about serving HTTP, Kubernetes, where modules
//! come from or when a sandbox is worth keeping (the node decides); it turns
//! a request (head and body) into a response or a typed failure. Outbound
//! calls a Function makes are counted and bounded here
//! (the `host` module) but performed by an [`Outbound`] implementation
//! (`shoal-outbound`), and the connections a sandbox opens are kept here
//! for as long as it lives; read-only mounts are WASI preopens. The shares
//! sandboxes draw on are made by the node and handed in with the
//! [`InvokeContext`]: a Function's cores ([`CpuShare`]) and the node's
//! account of buffered bytes ([`BufferAccount`]).

mod buffers;
pub use buffers::{BufferAccount, BufferCharge};
mod cache;
mod cpu;
pub use cpu::CpuShare;
mod host;
mod limits;
pub use limits::deadline_after;
pub mod outbound;
mod sandbox;
mod snapshot;
mod sockets;

use std::{
    path::PathBuf,
    sync::Arc,
    time::{Duration, Instant},
};

use bytes::Bytes;
use tokio::sync::{mpsc, oneshot};
use wasmtime::{
    Config, Engine, Extern, Instance, InstanceAllocationStrategy, InstancePre, Linker, Module, OptLevel,
    PoolingAllocationConfig, Store, UpdateDeadline,
};
use wasmtime_wasi::{WasiCtxBuilder, p1::WasiP1Ctx};

pub use cache::ModuleCache;
use limits::{DeadlineExceeded, GuestMemory, SandboxLimiter};
pub use outbound::{
    FunctionKey, Outbound, OutboundError, OutboundLimits, OutboundRequest, OutboundResponse, Redirect, TlsOptions,
};

use sandbox::{Delivery, LogPipe, Outcome, Serving, Shared};
pub use sandbox::{RequestLimits, Sandbox};
use snapshot::{Snapshot, SnapshotBudget, SnapshotRefusal, SnapshotSlot, Start};

/// An error and each of its causes, once each, joined by `: ` (as
/// anyhow's `{:#}` prints them): for logs and messages that must say why.
pub fn causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(e) = cause {
        text.push_str(": ");
        text.push_str(&e.to_string());
        cause = e.source();
    }
    text
}

/// Console output kept per request, in bytes.
const MAX_LOG_BYTES: usize = 64 * 1024;
/// A WebAssembly page.
const WASM_PAGE_BYTES: usize = 64 * 1024;

/// Native stack a guest may use; see [`Runtime::new`].
const MAX_WASM_STACK: usize = 8 << 20;
/// Stack the host functions a guest calls need beyond the guest's own.
const ASYNC_STACK_HEADROOM: usize = 1 << 20;

/// How often the epoch advances. Bounds how late a timeout fires and how
/// long a busy guest holds a worker thread before yielding: a neighbour's
/// request woken on that thread waits up to one tick, so the tick is what a
/// busy tenant adds to a neighbour's tail latency (`shoal-bench
/// isolation`). The ticker's cost is one wake-up per tick; a guest's cost
/// is one yield per tick while it is busy.
pub const EPOCH_TICK: Duration = Duration::from_millis(1);

/// Errors setting the runtime up or loading a module.
#[derive(Debug, thiserror::Error)]
pub enum RuntimeError {
    /// wasmtime refused the configuration.
    #[error("configuring wasmtime")]
    Config(#[source] wasmtime::Error),
    /// The bytes are not a module this runtime can run.
    #[error("the module cannot be loaded")]
    InvalidModule(#[source] wasmtime::Error),
    /// The precompiled-module cache failed.
    #[error("the module cache failed")]
    Cache(#[from] std::io::Error),
    /// JavaScript handed to [`Runtime::compile_js`] does not compile; the
    /// message is the engine's.
    #[error("{0}")]
    JsCompile(String),
    /// The engine failed while compiling JavaScript.
    #[error("the JavaScript engine failed while compiling")]
    Engine(#[source] wasmtime::Error),
}

/// Why a request did not produce a response. Cloned to every request a
/// failing sandbox had queued, so causes are kept as their text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvokeError {
    /// The guest ran past its deadline and was interrupted.
    #[error("the Function ran longer than its {0:?} timeout")]
    Timeout(Duration),
    /// The guest tried to grow its memory past the limit.
    #[error("the Function exceeded its memory limit of {limit} bytes")]
    MemoryExceeded {
        /// The limit in bytes.
        limit: usize,
    },
    /// The node's memory for Functions ([`RuntimeConfig::max_guest_memory_bytes`])
    /// is in use by other sandboxes: the request is refused, not the node.
    #[error("the node's memory for Functions ({limit} bytes) is in use")]
    NodeMemoryExhausted {
        /// The node's limit in bytes.
        limit: usize,
    },
    /// The guest trapped or failed; the message is wasmtime's.
    #[error("the Function trapped: {0}")]
    Trap(String),
    /// Every sandbox slot of the pool is in use.
    #[error("every sandbox slot is in use")]
    NoSlot,
    /// The sandbox could not be created for another reason (a mount that
    /// cannot be opened).
    #[error("no sandbox could be started: {0}")]
    Instantiate(String),
}

/// [`RuntimeConfig::snapshot_budget_bytes`] by default: some 840 small
/// Functions' snapshots (312 KiB each for a hello world).
pub const DEFAULT_SNAPSHOT_BUDGET: usize = 256 << 20;

/// The export that says a Function module's prelude can load without a
/// request and serve later (`__shoal_resume`), so its state after loading
/// can be a snapshot. Modules built before snapshots lack it and evaluate
/// with their first request.
pub const SNAPSHOT_EXPORT: &str = "shoal-snapshot-v1";

/// What a sandbox restored from a snapshot (or one that loaded to take it)
/// evaluates to serve: the prelude's request loop, resumed.
const RESUME_SOURCE: &str = "await globalThis.__shoal_resume();";

/// Engine-wide settings.
#[derive(Debug, Clone)]
pub struct RuntimeConfig {
    /// Use the pooling instance allocator (fast instantiation, preallocated
    /// slots) rather than on-demand mmap.
    pub pooling: bool,
    /// Concurrent sandboxes the pool holds; ignored without pooling.
    pub pool_slots: u32,
    /// Largest linear memory a sandbox may have, in bytes.
    pub max_memory_bytes: usize,
    /// Copy-on-write memory images for module data (instantiation maps the
    /// initial heap instead of copying it).
    pub copy_on_write: bool,
    /// Where precompiled modules are cached on disk; none disables the cache.
    pub cache_dir: Option<PathBuf>,
    /// Bytes of each pooled memory kept resident between requests and reset
    /// in place (only the pages a request dirtied, found with PAGEMAP_SCAN
    /// where the kernel has it) instead of being unmapped: a fresh request
    /// then takes no page faults on the engine's heap. Costs RSS per warm
    /// pool slot; 0 unmaps everything.
    pub keep_resident_bytes: usize,
    /// What all sandboxes together may grow their linear memory by, past
    /// the engine's shared initial memory: the node-wide bound under each
    /// Function's own limit. `usize::MAX`: no bound.
    pub max_guest_memory_bytes: usize,
    /// Bytes the Functions' snapshots ([`FunctionModule`]) may hold
    /// together; 0 turns snapshots off, so every fresh sandbox evaluates
    /// the prelude and the module again.
    pub snapshot_budget_bytes: usize,
}

impl Default for RuntimeConfig {
    fn default() -> Self {
        Self {
            pooling: true,
            pool_slots: 1000,
            max_memory_bytes: 2 << 30,
            copy_on_write: true,
            cache_dir: None,
            keep_resident_bytes: 8 << 20,
            max_guest_memory_bytes: usize::MAX,
            snapshot_budget_bytes: DEFAULT_SNAPSHOT_BUDGET,
        }
    }
}

/// Limits of a fresh sandbox serving one request.
#[derive(Debug, Clone, Copy)]
pub struct InvokeLimits {
    /// Wall-clock time the guest may run.
    pub timeout: Duration,
    /// Linear memory the guest may use, in bytes.
    pub memory_limit: usize,
    /// Largest response (head and body) accepted, in bytes.
    pub max_response_bytes: usize,
    /// Bounds on outbound HTTP.
    pub outbound: OutboundLimits,
}

impl InvokeLimits {
    /// The part that applies to each request of a warm sandbox.
    pub fn request(&self) -> RequestLimits {
        RequestLimits {
            timeout: self.timeout,
            max_response_bytes: self.max_response_bytes,
            outbound: self.outbound,
        }
    }
}

impl Default for InvokeLimits {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(180),
            memory_limit: 1 << 30,
            max_response_bytes: 64 << 20,
            outbound: OutboundLimits::default(),
        }
    }
}

/// A request as the guest takes it: its head as JSON
/// ([`shoal_envelope::RequestHead`]) and its body, each handed to the
/// guest as they are.
#[derive(Debug, Clone, Default)]
pub struct GuestRequest {
    /// The head, as JSON.
    pub head: Bytes,
    /// The body.
    pub body: Bytes,
    /// When the node records this request: the trace its outbound calls join.
    pub trace: Option<OutboundTrace>,
}

impl GuestRequest {
    /// `head` as JSON, and `body` (shared, not copied).
    pub fn new(head: &shoal_envelope::RequestHead, body: Bytes) -> Self {
        Self {
            head: Bytes::from(shoal_envelope::to_json(head)),
            body,
            trace: None,
        }
    }
}

/// The trace a recorded invocation's outbound HTTP calls join: each becomes
/// a client span under the span the guest's `traceparent` names (the
/// Function's active span) when it is of this trace, else under the
/// invocation's, and carries its own context onward.
#[derive(Debug, Clone)]
pub struct OutboundTrace {
    /// The invocation's trace.
    pub trace_id: shoal_telemetry::TraceId,
    /// The invocation's span.
    pub span_id: shoal_telemetry::SpanId,
    /// The Function, the spans' resource.
    pub function: Arc<FunctionKey>,
    /// Where the client spans go.
    pub sink: shoal_telemetry::SpanSink,
}

/// What a request produced.
#[derive(Debug, Clone)]
pub struct Invocation {
    /// The response head the guest handed back, as JSON
    /// ([`shoal_envelope::ResponseHead`]; empty on failure).
    pub head: Bytes,
    /// The response body (empty on failure).
    pub body: Bytes,
    /// What the guest wrote to stdout and stderr (console output) while
    /// serving this request, capped at 64 KiB.
    pub logs: Bytes,
    /// Set when the guest did not answer.
    pub error: Option<InvokeError>,
    /// Time to create the sandbox (zero for a warm sandbox's later requests).
    pub instantiate_time: Duration,
    /// Time the sandbox spent loading the Function before it took this
    /// request: the prelude and the module's top level, when it loaded to
    /// take the Function's snapshot (zero otherwise: a sandbox restored
    /// from the snapshot loads nothing, and one that evaluates the module
    /// with its first request counts that in `run_time`).
    pub load_time: Duration,
    /// Time the guest spent on the request, from taking it to answering.
    pub run_time: Duration,
}

impl Invocation {
    /// The response head, parsed.
    ///
    /// # Errors
    ///
    /// The guest handed back no head of this envelope version.
    pub fn response_head(&self) -> Result<shoal_envelope::ResponseHead, shoal_envelope::EnvelopeError> {
        shoal_envelope::from_json(&self.head)
    }

    fn failed(error: InvokeError) -> Self {
        Self {
            head: Bytes::new(),
            body: Bytes::new(),
            logs: Bytes::new(),
            error: Some(error),
            instantiate_time: Duration::ZERO,
            load_time: Duration::ZERO,
            run_time: Duration::ZERO,
        }
    }
}

/// Who an invocation runs for, and what it may reach besides its input.
#[derive(Debug, Clone, Default)]
pub struct InvokeContext {
    /// The Function (for outbound policies and logs).
    pub function: FunctionKey,
    /// Host folders the guest sees read-only (a Function's secretMounts).
    pub mounts: Vec<Mount>,
    /// Connections the Function's sandboxes hold open, counted up and down
    /// by every sandbox this context starts (for the node's metrics).
    pub open_connections: Arc<std::sync::atomic::AtomicUsize>,
    /// The cores the Function's busy guests share ([`CpuShare`]): every
    /// sandbox this context starts draws on it.
    pub cpu: CpuShare,
    /// The node's account of buffered bytes, which outbound bodies and
    /// results are charged to while the host holds them.
    pub buffers: BufferAccount,
}

/// A host folder shown read-only inside the sandbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mount {
    /// The folder on the node.
    pub host: PathBuf,
    /// Where the Function sees it (an absolute path).
    pub guest: String,
}

struct SandboxState {
    wasi: WasiP1Ctx,
    limiter: SandboxLimiter,
    /// When the request being served must be answered by.
    deadline: Instant,
    calls: host::HostCalls,
    serving: Serving,
    cpu: cpu::CpuTurn,
}

/// A compiled Function module, ready to be instantiated per request: the
/// module and the engine exports it imports (from
/// [`shoal_engine::IMPORT_NAMESPACE`]), in its import order.
///
/// Clones share the Function's snapshot: the memory of a sandbox right
/// after the module loaded, taken by the first fresh sandbox and restored
/// by later ones (`snapshot` module), so they skip the prelude and the
/// module's top level.
#[derive(Clone)]
pub struct FunctionModule {
    module: Module,
    imports: Arc<[String]>,
    /// The module's prelude can load first and serve later ([`SNAPSHOT_EXPORT`]).
    loads_apart: bool,
    snapshot: Arc<SnapshotSlot>,
    /// SHA-256 of the module's bytes, when the runtime has a cache to keep
    /// its snapshots in.
    digest: Option<Arc<str>>,
}

impl FunctionModule {
    /// Bytes of compiled code and data this module keeps mapped.
    pub fn code_bytes(&self) -> usize {
        let range = self.module.image_range();
        (range.end as usize).saturating_sub(range.start as usize)
    }

    /// Bytes the Function's snapshot holds (0 before one is taken).
    pub fn snapshot_bytes(&self) -> usize {
        self.snapshot.size_bytes()
    }
}

/// Set (to anything) to write perf's map of the compiled WebAssembly code.
pub const PERF_MAP_ENV: &str = "SHOAL_PERF_MAP";

/// The process-wide WebAssembly host.
pub struct Runtime {
    engine: Engine,
    js_engine: InstancePre<SandboxState>,
    /// The engine's initial linear memory, in bytes (see [`Sandbox::private_memory_bytes`]).
    engine_image_bytes: usize,
    cache: Option<ModuleCache>,
    outbound: Option<Arc<dyn Outbound>>,
    guest_memory: Arc<GuestMemory>,
    snapshots: Arc<Snapshots>,
    teardowns: Arc<Teardowns>,
    _ticker: EpochTicker,
}

/// The monotonic clock a sandbox sees (WASI's, under `performance.now()`
/// and `process.hrtime`): the machine's, counting from its boot, the same
/// in every sandbox and every process. WASI's default counts from each
/// sandbox's creation, which made `performance.now()` negative in a sandbox
/// restored from a snapshot (the engine subtracts its context's origin,
/// fixed when the engine was initialized) and would let a time the module
/// read at load, in the snapshot, come after one read in a later request,
/// also in a node restarted on the machine (snapshot files are kept per
/// boot, see [`Snapshots::dir`]).
struct SandboxClock;

impl wasmtime_wasi::HostMonotonicClock for SandboxClock {
    fn resolution(&self) -> u64 {
        1
    }

    fn now(&self) -> u64 {
        let now = rustix::time::clock_gettime(rustix::time::ClockId::Monotonic);
        u64::try_from(now.tv_sec)
            .unwrap_or(0)
            .saturating_mul(1_000_000_000)
            .saturating_add(u64::try_from(now.tv_nsec).unwrap_or(0))
    }
}

/// Fresh sandboxes that answered and are still returning and being torn
/// down, on tasks of their own.
#[derive(Default)]
struct Teardowns {
    running: std::sync::atomic::AtomicUsize,
    ended: tokio::sync::Notify,
}

/// How many teardowns a request finding no free slot waits for before it
/// gives up ([`InvokeError::NoSlot`]).
const MAX_TEARDOWN_WAITS: usize = 64;

/// What taking and restoring snapshots needs, shared by every sandbox.
struct Snapshots {
    budget: Arc<SnapshotBudget>,
    /// Where snapshots are kept as files (`<module sha256>.snap` in the
    /// module cache, under the machine's boot id), so a restarted node
    /// or a Function whose snapshot the budget dropped restores from the
    /// file instead of loading again.
    dir: Option<PathBuf>,
    /// Made by the first sandbox that takes a snapshot; None when that
    /// failed (snapshots are then off).
    tools: tokio::sync::OnceCell<Option<Arc<SnapshotTools>>>,
}

impl Snapshots {
    /// The file `function`'s snapshot is kept in: one per module, holding
    /// the load head it was taken with (a snapshot for another env replaces
    /// it, so the files stay one per Function version).
    fn file(&self, function: &FunctionModule) -> Option<PathBuf> {
        let dir = self.dir.as_ref()?;
        let digest = function.digest.as_deref()?;
        Some(dir.join(format!("{digest}.snap")))
    }
}

/// The engine's initial memory (what a snapshot is the difference from)
/// and the bytecode of [`RESUME_SOURCE`].
struct SnapshotTools {
    baseline: Box<[u8]>,
    resume: Vec<u8>,
    /// This process's page table, to compare only written pages
    /// ([`snapshot::written_pages`]); without it every page is compared.
    pagemap: Option<std::fs::File>,
}

impl Runtime {
    /// Builds the engine and compiles (or loads from the cache) the
    /// JavaScript engine plugin. Takes about a second without a cache.
    pub fn new(config: &RuntimeConfig) -> Result<Self, RuntimeError> {
        let mut wasm_config = Config::new();
        wasm_config
            // The JavaScript engine recurses on the native stack (each JS
            // call, each level of JSON): wasmtime's 512 KiB default stops a
            // Function near 1,000 levels, where Node allows about 11,000.
            .max_wasm_stack(MAX_WASM_STACK)
            .async_stack_size(MAX_WASM_STACK + ASYNC_STACK_HEADROOM)
            .epoch_interruption(true)
            .cranelift_opt_level(OptLevel::Speed)
            .memory_init_cow(config.copy_on_write)
            .parallel_compilation(true);
        // `perf record` then names the Functions' and the engine's code
        // (perf reads /tmp/perf-<pid>.map): how the README profiles.
        if std::env::var_os(PERF_MAP_ENV).is_some() {
            wasm_config.profiler(wasmtime::ProfilingStrategy::PerfMap);
        }
        if config.pooling {
            let mut pool = PoolingAllocationConfig::new();
            // A sandbox holds two core instances (the
            // engine and the Function) sharing the engine's one memory.
            pool.total_core_instances(config.pool_slots.saturating_mul(2))
                .total_memories(config.pool_slots)
                .total_tables(config.pool_slots.saturating_mul(2))
                .max_memory_size(config.max_memory_bytes)
                .max_core_instances_per_component(4)
                .linear_memory_keep_resident(config.keep_resident_bytes)
                .table_keep_resident(config.keep_resident_bytes.min(1 << 20))
                .pagemap_scan(wasmtime::Enabled::Auto);
            wasm_config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
        }
        let engine = Engine::new(&wasm_config).map_err(RuntimeError::Config)?;
        let cache = config
            .cache_dir
            .as_ref()
            .map(|dir| ModuleCache::new(&engine, dir.clone()))
            .transpose()?;

        let linker = host_linker(&engine).map_err(RuntimeError::Config)?;

        let engine_module = compile(&engine, cache.as_ref(), shoal_engine::ENGINE_WASM)?;
        let js_engine = linker
            .instantiate_pre(&engine_module)
            .map_err(|e| RuntimeError::InvalidModule(e.context("linking the JavaScript engine")))?;
        let engine_image_bytes = engine_module
            .exports()
            .find_map(|export| match export.ty() {
                wasmtime::ExternType::Memory(memory) => Some(memory.minimum()),
                _ => None,
            })
            .and_then(|pages| usize::try_from(pages).ok())
            .map_or(0, |pages| pages.saturating_mul(WASM_PAGE_BYTES));
        let ticker = EpochTicker::start(&engine);
        let snapshot_dir = match &cache {
            Some(cache) if config.snapshot_budget_bytes > 0 => {
                // Per boot: a snapshot holds times of the machine's
                // monotonic clock ([`SandboxClock`]), which restarts then.
                let boot = std::fs::read_to_string("/proc/sys/kernel/random/boot_id").unwrap_or_default();
                let dir = cache.dir().join("snapshots").join(boot.trim());
                std::fs::create_dir_all(&dir)?;
                Some(dir)
            }
            _ => None,
        };
        Ok(Self {
            engine,
            js_engine,
            engine_image_bytes,
            cache,
            outbound: None,
            guest_memory: GuestMemory::new(config.max_guest_memory_bytes),
            snapshots: Arc::new(Snapshots {
                budget: SnapshotBudget::new(config.snapshot_budget_bytes),
                dir: snapshot_dir,
                tools: tokio::sync::OnceCell::new(),
            }),
            teardowns: Arc::default(),
            _ticker: ticker,
        })
    }

    /// Bytes all sandboxes have grown their memory by now, and the bound
    /// ([`RuntimeConfig::max_guest_memory_bytes`]).
    pub fn guest_memory(&self) -> (usize, usize) {
        (self.guest_memory.used(), self.guest_memory.limit())
    }

    /// Lets Functions make outbound HTTP requests through `outbound`
    /// (without it, `fetch` rejects with "not enabled on this node").
    pub fn with_outbound(mut self, outbound: Arc<dyn Outbound>) -> Self {
        self.outbound = Some(outbound);
        self
    }

    /// The wasmtime engine (for callers that precompile).
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The on-disk cache of precompiled modules, if configured.
    pub fn cache(&self) -> Option<&ModuleCache> {
        self.cache.as_ref()
    }

    /// Compiles (or loads from the cache) a Function module and links it.
    pub fn load(&self, wasm: &[u8]) -> Result<FunctionModule, RuntimeError> {
        let Some(cache) = &self.cache else {
            let module = Module::new(&self.engine, wasm).map_err(RuntimeError::InvalidModule)?;
            return self.link(module, None);
        };
        let digest = shoal_engine::sha256_hex(wasm);
        let module = cache.load_or_compile_as(&self.engine, wasm, &digest)?;
        self.link(module, Some(digest.into()))
    }

    fn link(&self, module: Module, digest: Option<Arc<str>>) -> Result<FunctionModule, RuntimeError> {
        let mut imports = Vec::new();
        for import in module.imports() {
            if import.module() != shoal_engine::IMPORT_NAMESPACE {
                return Err(RuntimeError::InvalidModule(wasmtime::format_err!(
                    "a Function module may import only the engine ({}), not {}::{}",
                    shoal_engine::IMPORT_NAMESPACE,
                    import.module(),
                    import.name()
                )));
            }
            if self.js_engine.module().get_export(import.name()).is_none() {
                return Err(RuntimeError::InvalidModule(wasmtime::format_err!(
                    "the module needs {} from the engine, which this engine does not export (built for another engine version?)",
                    import.name()
                )));
            }
            imports.push(import.name().to_string());
        }
        if imports.is_empty() {
            return Err(RuntimeError::InvalidModule(wasmtime::Error::msg(
                "not a Shoal Function module: it does not import the engine",
            )));
        }
        let loads_apart = module.get_export(SNAPSHOT_EXPORT).is_some();
        Ok(FunctionModule {
            module,
            imports: imports.into(),
            loads_apart,
            snapshot: Arc::default(),
            digest,
        })
    }

    /// Runs one request in a fresh sandbox, dropped when it answers.
    pub async fn invoke(&self, function: &FunctionModule, request: GuestRequest, limits: InvokeLimits) -> Invocation {
        self.invoke_with(&InvokeContext::default(), function, request, limits)
            .await
    }

    /// [`Self::invoke`] for a known Function, with its mounts.
    pub async fn invoke_with(
        &self,
        context: &InvokeContext,
        function: &FunctionModule,
        request: GuestRequest,
        limits: InvokeLimits,
    ) -> Invocation {
        let mut invocation = self.invoke_once(context, function, request.clone(), limits).await;
        // Fresh sandboxes that answered hold their slots until their
        // teardown ends: a request finding no slot waits for those rather
        // than failing.
        let mut waits = 0;
        while matches!(invocation.error, Some(InvokeError::NoSlot))
            && waits < MAX_TEARDOWN_WAITS
            && self.teardown_ended().await
        {
            waits += 1;
            invocation = self.invoke_once(context, function, request.clone(), limits).await;
        }
        invocation
    }

    /// Waits until a fresh sandbox that has answered finishes its teardown
    /// and gives its pool slot back; false at once when none is running.
    pub async fn teardown_ended(&self) -> bool {
        let ended = self.teardowns.ended.notified();
        if self.teardowns.running.load(std::sync::atomic::Ordering::Acquire) == 0 {
            return false;
        }
        ended.await;
        true
    }

    async fn invoke_once(
        &self,
        context: &InvokeContext,
        function: &FunctionModule,
        request: GuestRequest,
        limits: InvokeLimits,
    ) -> Invocation {
        // A queue holding this one request, closed behind it: the guest
        // serves it and is then told there is no more.
        let (deliveries, queue) = mpsc::channel(1);
        let (reply, mut answer) = oneshot::channel();
        let delivery = Delivery {
            request,
            limits: limits.request(),
            reply,
            load: false,
        };
        if deliveries.try_send(delivery).is_err() {
            return Invocation::failed(InvokeError::Instantiate("the request could not be queued".into()));
        }
        drop(deliveries);
        let mut run = Box::pin(self.sandbox_parts().run(
            context.clone(),
            function.clone(),
            limits.memory_limit,
            queue,
            Shared::new(self.engine_image_bytes),
        ));
        // The guest runs on this task until it answers; what is left (the
        // guest returning, the store and its memory reset) finishes on a
        // task of its own, after the caller has its answer.
        let answered = tokio::select! {
            biased;
            answered = &mut answer => Some(answered),
            () = &mut run => None,
        };
        let answered = match answered {
            Some(answered) => {
                let teardowns = self.teardowns.clone();
                teardowns.running.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
                tokio::spawn(async move {
                    run.await;
                    teardowns.running.fetch_sub(1, std::sync::atomic::Ordering::AcqRel);
                    teardowns.ended.notify_waiters();
                });
                answered
            }
            None => answer.await,
        };
        match answered {
            Ok(Outcome::Served(invocation)) => invocation,
            Ok(Outcome::NotServed(_)) | Err(_) => {
                Invocation::failed(InvokeError::Trap("the Function ended before taking its request".into()))
            }
        }
    }

    /// A warm sandbox for `function`: it instantiates the Function at its
    /// first request and then serves the requests sent to it, one at a time,
    /// until it is dropped or fails. `memory_limit`
    /// bounds its linear memory over its whole life.
    pub fn start_sandbox(&self, context: &InvokeContext, function: &FunctionModule, memory_limit: usize) -> Sandbox {
        // Capacity 1: the owner sends one request at a time.
        let (deliveries, queue) = mpsc::channel(1);
        let shared = Shared::new(self.engine_image_bytes);
        let run = self
            .sandbox_parts()
            .run(context.clone(), function.clone(), memory_limit, queue, shared.clone());
        Sandbox::new(deliveries, shared, Box::pin(run))
    }

    /// Compiles a JavaScript module to the engine's bytecode, which a
    /// dynamically linked Function module carries and hands to the engine's
    /// `invoke`. Runs `compile-src` in a throwaway instance of the engine this
    /// runtime compiled once (and caches on disk), so a build does not
    /// compile the engine again.
    ///
    /// # Errors
    ///
    /// [`RuntimeError::JsCompile`] with the engine's message when the source
    /// does not compile, [`RuntimeError::Engine`] when the engine traps.
    pub async fn compile_js(&self, source: &[u8]) -> Result<Vec<u8>, RuntimeError> {
        self.sandbox_parts().compile_js(source).await
    }

    #[cfg(test)]
    fn tool_state(&self) -> SandboxState {
        self.sandbox_parts().tool_state()
    }

    fn sandbox_parts(&self) -> SandboxParts {
        SandboxParts {
            engine: self.engine.clone(),
            js_engine: self.js_engine.clone(),
            engine_image_bytes: self.engine_image_bytes,
            outbound: self.outbound.clone(),
            guest_memory: self.guest_memory.clone(),
            snapshots: self.snapshots.clone(),
        }
    }
}

/// What a sandbox needs from the runtime, owned so a warm sandbox can run
/// as its own task.
struct SandboxParts {
    engine: Engine,
    js_engine: InstancePre<SandboxState>,
    engine_image_bytes: usize,
    outbound: Option<Arc<dyn Outbound>>,
    guest_memory: Arc<GuestMemory>,
    snapshots: Arc<Snapshots>,
}

impl SandboxParts {
    /// The state of a store the runtime uses as a tool (compiling
    /// JavaScript): no requests, no outbound calls, two minutes.
    fn tool_state(&self) -> SandboxState {
        let (_deliveries, queue) = mpsc::channel(1);
        let shared = Shared::new(self.engine_image_bytes);
        SandboxState {
            wasi: WasiCtxBuilder::new().build_p1(),
            limiter: SandboxLimiter::new(1 << 30, shared.memory_bytes.clone(), self.guest_memory.clone()),
            deadline: Instant::now() + Duration::from_secs(120),
            calls: host::HostCalls::new(None, FunctionKey::default(), OutboundLimits::default()),
            serving: Serving::new(queue, LogPipe::new(MAX_LOG_BYTES), shared),
            cpu: cpu::CpuTurn::new(CpuShare::default()),
        }
    }

    /// A store with the engine alone, as a tool, and the engine's memory.
    async fn tool_engine(&self) -> Result<(Store<SandboxState>, Instance, wasmtime::Memory), RuntimeError> {
        let mut store = Store::new(&self.engine, self.tool_state());
        bound(&mut store);
        let engine = self
            .js_engine
            .instantiate_async(&mut store)
            .await
            .map_err(RuntimeError::Engine)?;
        let memory = engine
            .get_memory(&mut store, "memory")
            .ok_or_else(|| RuntimeError::InvalidModule(wasmtime::Error::msg("the engine exports no memory")))?;
        Ok((store, engine, memory))
    }

    /// See [`Runtime::compile_js`].
    async fn compile_js(&self, source: &[u8]) -> Result<Vec<u8>, RuntimeError> {
        let (mut store, engine, memory) = self.tool_engine().await?;
        let realloc = engine
            .get_typed_func::<(u32, u32, u32, u32), u32>(&mut store, "cabi_realloc")
            .map_err(RuntimeError::Engine)?;
        let compile = engine
            .get_typed_func::<(u32, u32), u32>(&mut store, "compile-src")
            .map_err(RuntimeError::Engine)?;
        let len = u32::try_from(source.len())
            .map_err(|_| RuntimeError::JsCompile("the bundle is larger than 4 GiB".into()))?;
        let at = realloc
            .call_async(&mut store, (0, 0, 1, len))
            .await
            .map_err(RuntimeError::Engine)?;
        memory
            .write(&mut store, at as usize, source)
            .map_err(|e| RuntimeError::Engine(e.into()))?;
        let result = compile
            .call_async(&mut store, (at, len))
            .await
            .map_err(RuntimeError::Engine)?;
        // A result<list<u8>, string>: discriminant, pointer, length.
        let mut ret = [0u8; 12];
        memory
            .read(&store, result as usize, &mut ret)
            .map_err(|e| RuntimeError::Engine(e.into()))?;
        let word = |i: usize| u32::from_le_bytes([ret[i], ret[i + 1], ret[i + 2], ret[i + 3]]) as usize;
        let mut out = vec![0u8; word(8)];
        memory
            .read(&store, word(4), &mut out)
            .map_err(|e| RuntimeError::Engine(e.into()))?;
        if word(0) != 0 {
            return Err(RuntimeError::JsCompile(String::from_utf8_lossy(&out).into_owned()));
        }
        Ok(out)
    }

    /// The engine's initial memory and the resume bytecode, made once per
    /// runtime; None (snapshots off) if the engine cannot make them.
    async fn snapshot_tools(&self) -> Option<Arc<SnapshotTools>> {
        self.snapshots
            .tools
            .get_or_init(|| async {
                let made = async {
                    let resume = self.compile_js(RESUME_SOURCE.as_bytes()).await?;
                    let (store, _, memory) = self.tool_engine().await?;
                    let baseline = memory.data(&store).into();
                    let pagemap = std::fs::File::open("/proc/self/pagemap").ok();
                    Ok::<_, RuntimeError>(SnapshotTools {
                        baseline,
                        resume,
                        pagemap,
                    })
                };
                match made.await {
                    Ok(tools) => Some(Arc::new(tools)),
                    Err(e) => {
                        tracing::warn!(error = %causes(&e), "snapshots are off: the engine could not prepare them");
                        None
                    }
                }
            })
            .await
            .clone()
    }

    /// Instantiates `function` in a new store and runs it until it has
    /// served `queue` (the guest returns when the queue closes) or fails.
    async fn run(
        self,
        context: InvokeContext,
        function: FunctionModule,
        memory_limit: usize,
        queue: mpsc::Receiver<Delivery>,
        shared: Arc<Shared>,
    ) {
        let started = Instant::now();
        let log = LogPipe::new(MAX_LOG_BYTES);
        let mut wasi = WasiCtxBuilder::new();
        wasi.stdout(log.clone())
            .stderr(log.clone())
            .monotonic_clock(SandboxClock);
        let mut mount_error = None;
        for mount in &context.mounts {
            if let Err(e) = wasi.preopened_dir(&mount.host, &mount.guest, wasmtime_wasi::FsPerms::ReadOnly) {
                mount_error = Some(InvokeError::Instantiate(format!(
                    "mounting {} at {}: {e:#}",
                    mount.host.display(),
                    mount.guest
                )));
            }
        }
        let mut store = Store::new(
            &self.engine,
            SandboxState {
                wasi: wasi.build_p1(),
                limiter: SandboxLimiter::new(memory_limit, shared.memory_bytes.clone(), self.guest_memory.clone()),
                // Set per request when the guest takes one.
                deadline: started + Duration::from_secs(3600),
                calls: host::HostCalls::new(
                    self.outbound.clone(),
                    context.function.clone(),
                    OutboundLimits::default(),
                )
                .counting_connections(context.open_connections.clone())
                .charging(context.buffers.clone()),
                serving: Serving::new(queue, log, shared),
                cpu: cpu::CpuTurn::new(context.cpu.clone()),
            },
        );
        if let Some(error) = mount_error {
            store.data_mut().serving.finish(Some(error), false);
            return;
        }
        bound(&mut store);

        // The first request decides how the sandbox starts: from the
        // Function's snapshot, loading to take it, or evaluating the module
        // with the request as before snapshots.
        let load_head = match store.data_mut().serving.first().await {
            None => {
                store.data_mut().serving.finish(None, true);
                return;
            }
            Some(first) if function.loads_apart && context.mounts.is_empty() && self.snapshots.budget.limit() > 0 => {
                snapshot::load_head(&first.request.head)
            }
            Some(_) => None,
        };
        let tools = match load_head {
            Some(_) => self.snapshot_tools().await,
            None => None,
        };
        let (Some(tools), Some(load_head)) = (tools, load_head) else {
            self.start_evaluated(&mut store, &function, started).await;
            return;
        };
        let file = self.snapshots.file(&function);
        let budget = &self.snapshots.budget;
        match function.snapshot.start(&load_head, budget) {
            Start::Restore(snapshot) => self.start_restored(&mut store, &tools, &snapshot, started).await,
            Start::Load(ticket) => {
                if let Some(read) = file
                    .as_deref()
                    .and_then(|file| read_snapshot(file, &load_head, Some(budget)))
                {
                    match ticket.offer(load_head, Ok(read)) {
                        Some(snapshot) => self.start_restored(&mut store, &tools, &snapshot, started).await,
                        None => self.start_evaluated(&mut store, &function, started).await,
                    }
                    return;
                }
                let taken = self
                    .start_loaded(&mut store, &function, &tools, load_head.clone(), started)
                    .await;
                let Some((snapshot, engine)) = taken else {
                    ticket.offer(load_head, Err(SnapshotRefusal::NotPortable));
                    return;
                };
                if let (Some(file), Ok(snapshot)) = (file, &snapshot) {
                    write_snapshot(file, snapshot.encode());
                }
                ticket.offer(load_head, snapshot);
                self.serve(&mut store, &engine, &tools).await;
            }
            // Not kept in memory (another sandbox loads it, or the budget did
            // not admit it): from its file when there is one, used once.
            Start::Evaluate => match file.as_deref().and_then(|file| read_snapshot(file, &load_head, None)) {
                Some(snapshot) => self.start_restored(&mut store, &tools, &snapshot, started).await,
                None => self.start_evaluated(&mut store, &function, started).await,
            },
        }
    }

    /// Starts the sandbox the way it was before snapshots: the module's
    /// `_start` evaluates the prelude and the module, which take the first
    /// request and serve the queue.
    async fn start_evaluated(&self, store: &mut Store<SandboxState>, function: &FunctionModule, started: Instant) {
        let entry = match self.instantiate(store, function).await {
            Ok((_, instance)) => instance.get_typed_func::<(), ()>(&mut *store, "_start"),
            Err(e) => Err(e),
        };
        let start = match entry {
            Ok(start) => start,
            Err(e) => {
                let error = classify(e, store);
                store.data_mut().serving.finish(Some(error), false);
                return;
            }
        };
        store.data_mut().serving.set_instantiate_time(started.elapsed());
        let error = start
            .call_async(&mut *store, ())
            .await
            .err()
            .map(|e| classify(e, store));
        store.data_mut().serving.finish(error, true);
    }

    /// Starts the sandbox from `snapshot`: the engine alone, its memory
    /// as the snapshot has it, then the prelude's request loop.
    async fn start_restored(
        &self,
        store: &mut Store<SandboxState>,
        tools: &SnapshotTools,
        snapshot: &Snapshot,
        started: Instant,
    ) {
        let restored = async {
            let engine = self.js_engine.instantiate_async(&mut *store).await?;
            let memory = engine
                .get_memory(&mut *store, "memory")
                .ok_or_else(|| wasmtime::Error::msg("the engine exports no memory"))?;
            let grow = snapshot.memory_bytes().saturating_sub(memory.data_size(&*store)) / WASM_PAGE_BYTES;
            memory.grow(&mut *store, grow as u64)?;
            snapshot.restore(memory.data_mut(&mut *store));
            Ok::<_, wasmtime::Error>(engine)
        };
        match restored.await {
            Ok(engine) => {
                store.data_mut().serving.set_instantiate_time(started.elapsed());
                self.serve(store, &engine, tools).await;
            }
            Err(e) => {
                let error = classify(e, store);
                store.data_mut().serving.finish(Some(error), false);
            }
        }
    }

    /// Loads the Function with a load-only delivery in front of the first
    /// request. When it loaded, returns the engine instance (to serve from)
    /// and the snapshot of its memory, or why there is none; when it did
    /// not, the first request has the load's failure and the sandbox ended.
    async fn start_loaded(
        &self,
        store: &mut Store<SandboxState>,
        function: &FunctionModule,
        tools: &SnapshotTools,
        load_head: Bytes,
        started: Instant,
    ) -> Option<(Result<Snapshot, SnapshotRefusal>, Instance)> {
        let instantiated = match self.instantiate(store, function).await {
            Ok((engine, instance)) => instance
                .get_typed_func::<(), ()>(&mut *store, "_start")
                .map(|start| (engine, start)),
            Err(e) => Err(e),
        };
        let (engine, start) = match instantiated {
            Ok(parts) => parts,
            Err(e) => {
                let error = classify(e, store);
                store.data_mut().serving.finish(Some(error), false);
                return None;
            }
        };
        store.data_mut().serving.set_instantiate_time(started.elapsed());
        let serving = &mut store.data_mut().serving;
        let limits = serving.first_limits()?;
        let (reply, mut answer) = oneshot::channel();
        serving.push_front(Delivery {
            request: GuestRequest {
                head: load_head.clone(),
                body: Bytes::new(),
                trace: None,
            },
            limits,
            reply,
            load: true,
        });
        let loading = Instant::now();
        let loaded = start.call_async(&mut *store, ()).await;
        store.data_mut().serving.set_load_time(loading.elapsed());
        if let Err(e) = loaded {
            let error = classify(e, store);
            store
                .data_mut()
                .serving
                .fail_load(Bytes::new(), Bytes::new(), Some(error));
            return None;
        }
        store.data_mut().serving.forget_load();
        // Unanswered: loaded, and all of its state is in its memory.
        let portable = match answer.try_recv() {
            Err(_) => true,
            Ok(Outcome::Served(load)) if load.error.is_none() && response_status(&load.head) == Some(204) => false,
            Ok(Outcome::Served(load)) => {
                store.data_mut().serving.fail_load(load.head, load.body, load.error);
                return None;
            }
            Ok(Outcome::NotServed(_)) => false,
        };
        let snapshot = if portable && !store.data().calls.made_calls() {
            match engine.get_memory(&mut *store, "memory") {
                Some(memory) => {
                    let memory = memory.data(&*store);
                    let written = tools
                        .pagemap
                        .as_ref()
                        .and_then(|pagemap| snapshot::written_pages(pagemap, memory).ok());
                    Snapshot::take(
                        memory,
                        &tools.baseline,
                        written.as_deref(),
                        load_head,
                        &self.snapshots.budget,
                    )
                }
                None => Err(SnapshotRefusal::NotPortable),
            }
        } else {
            Err(SnapshotRefusal::NotPortable)
        };
        Some((snapshot, engine))
    }

    /// Serves the queue from a loaded engine: evaluates [`RESUME_SOURCE`],
    /// which returns when the queue closes.
    async fn serve(&self, store: &mut Store<SandboxState>, engine: &Instance, tools: &SnapshotTools) {
        let resumed = async {
            let realloc = engine.get_typed_func::<(u32, u32, u32, u32), u32>(&mut *store, "cabi_realloc")?;
            let invoke = engine.get_typed_func::<(u32, u32, u32, u32, u32), ()>(&mut *store, "invoke")?;
            let memory = engine
                .get_memory(&mut *store, "memory")
                .ok_or_else(|| wasmtime::Error::msg("the engine exports no memory"))?;
            let len = u32::try_from(tools.resume.len())?;
            let at = realloc.call_async(&mut *store, (0, 0, 1, len)).await?;
            memory.write(&mut *store, at as usize, &tools.resume)?;
            invoke.call_async(&mut *store, (at, len, 0, 0, 0)).await
        };
        let error = resumed.await.err().map(|e| classify(e, store));
        store.data_mut().serving.finish(error, true);
    }

    /// The engine's instance and the Function's, linked.
    async fn instantiate(
        &self,
        store: &mut Store<SandboxState>,
        function: &FunctionModule,
    ) -> wasmtime::Result<(Instance, Instance)> {
        let js = self.js_engine.instantiate_async(&mut *store).await?;
        let mut externs: Vec<Extern> = Vec::with_capacity(function.imports.len());
        for name in function.imports.iter() {
            let export = js
                .get_export(&mut *store, name)
                .ok_or_else(|| wasmtime::format_err!("engine export {name} missing"))?;
            externs.push(export);
        }
        let instance = Instance::new_async(&mut *store, &function.module, &externs).await?;
        Ok((js, instance))
    }
}

/// The snapshot in `file` taken with `load_head`, if the file holds one
/// (counted in `budget` when given and it has room).
fn read_snapshot(file: &std::path::Path, load_head: &[u8], budget: Option<&Arc<SnapshotBudget>>) -> Option<Snapshot> {
    let bytes = Bytes::from(std::fs::read(file).ok()?);
    let snapshot = Snapshot::decode(bytes, load_head, budget);
    if snapshot.is_none() {
        tracing::warn!(file = %file.display(), "ignoring a snapshot file that does not read back");
    }
    snapshot
}

/// Writes a snapshot's file off the request path: to a temporary name,
/// then renamed into place, so a reader sees it whole or not at all.
fn write_snapshot(file: PathBuf, bytes: Vec<u8>) {
    tokio::task::spawn_blocking(move || {
        let tmp = file.with_extension(format!("{}.tmp", std::process::id()));
        let written = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, &file));
        if let Err(e) = written {
            tracing::warn!(file = %file.display(), error = %e, "a snapshot could not be kept as a file");
            let _ = std::fs::remove_file(&tmp);
        }
    });
}

/// The status of a response head, if it is one.
fn response_status(head: &[u8]) -> Option<u16> {
    shoal_envelope::from_json::<shoal_envelope::ResponseHead>(head)
        .ok()
        .map(|head| head.status)
}

/// What a sandbox's engine may import: WASI preview 1 and the host ABI
/// (`shoal_engine::abi`), nothing else.
fn host_linker(engine: &Engine) -> wasmtime::Result<Linker<SandboxState>> {
    let mut linker = Linker::new(engine);
    wasmtime_wasi::p1::add_to_linker_async(&mut linker, |s: &mut SandboxState| &mut s.wasi)?;
    host::add_to_linker(&mut linker)?;
    sandbox::add_to_linker(&mut linker)?;
    Ok(linker)
}

/// Applies the store's memory limiter, its deadline, checked at every
/// epoch tick, and its Function's CPU share.
fn bound(store: &mut Store<SandboxState>) {
    store.limiter(|s| &mut s.limiter);
    store.set_epoch_deadline(1);
    store.epoch_deadline_callback(|mut ctx| {
        let state = ctx.data_mut();
        if Instant::now() >= state.deadline {
            return Err(DeadlineExceeded.into());
        }
        // Still running at a tick: a busy guest goes on only on one of
        // its Function's turns; either way it yields, so one running guest
        // cannot starve the executor thread.
        Ok(match state.cpu.next(state.deadline) {
            cpu::Next::Run(resume) | cpu::Next::Wait(resume) => UpdateDeadline::YieldCustom(1, resume),
        })
    });
}

fn compile(engine: &Engine, cache: Option<&ModuleCache>, wasm: &[u8]) -> Result<Module, RuntimeError> {
    match cache {
        Some(cache) => cache.load_or_compile(engine, wasm),
        None => Module::new(engine, wasm).map_err(RuntimeError::InvalidModule),
    }
}

fn classify(e: wasmtime::Error, store: &Store<SandboxState>) -> InvokeError {
    if e.is::<DeadlineExceeded>() {
        return InvokeError::Timeout(store.data().serving.timeout());
    }
    if store.data().limiter.node_exhausted() {
        return InvokeError::NodeMemoryExhausted {
            limit: store.data().limiter.node_limit(),
        };
    }
    if store.data().limiter.exceeded() {
        return InvokeError::MemoryExceeded {
            limit: store.data().limiter.limit(),
        };
    }
    if let Some(exit) = e.downcast_ref::<wasmtime_wasi::I32Exit>() {
        return InvokeError::Trap(format!("the Function exited with code {}", exit.0));
    }
    if e.is::<wasmtime::PoolConcurrencyLimitError>() {
        return InvokeError::NoSlot;
    }
    InvokeError::Trap(format!("{e:#}"))
}

/// Advances the engine's epoch every [`EPOCH_TICK`] until the runtime is
/// dropped.
struct EpochTicker {
    stop: Arc<std::sync::atomic::AtomicBool>,
}

impl EpochTicker {
    fn start(engine: &Engine) -> Self {
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let weak = engine.weak();
        let flag = stop.clone();
        std::thread::Builder::new()
            .name("shoal-epoch".into())
            .spawn(move || {
                while !flag.load(std::sync::atomic::Ordering::Relaxed) {
                    std::thread::sleep(EPOCH_TICK);
                    match weak.upgrade() {
                        Some(engine) => engine.increment_epoch(),
                        None => break,
                    }
                }
            })
            .ok();
        Self { stop }
    }
}

impl Drop for EpochTicker {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shoal_engine::abi;
    use std::collections::BTreeMap;

    type Signature = (Vec<Option<abi::ValType>>, Vec<Option<abi::ValType>>);

    fn signature(ty: &wasmtime::FuncType) -> Signature {
        let val = |t: wasmtime::ValType| match t {
            wasmtime::ValType::I32 => Some(abi::ValType::I32),
            wasmtime::ValType::F64 => Some(abi::ValType::F64),
            _ => None,
        };
        (ty.params().map(val).collect(), ty.results().map(val).collect())
    }

    #[test]
    fn the_engine_imports_exactly_the_host_abi_and_the_runtime_defines_exactly_that() {
        let runtime = Runtime::new(&RuntimeConfig {
            pooling: false,
            ..RuntimeConfig::default()
        })
        .expect("a runtime");
        let declared: BTreeMap<String, Signature> = abi::IMPORTS
            .iter()
            .map(|import| {
                let types = |list: &[abi::ValType]| list.iter().copied().map(Some).collect();
                (import.name.to_string(), (types(import.params), types(import.results)))
            })
            .collect();
        let imported: BTreeMap<String, Signature> = runtime
            .js_engine
            .module()
            .imports()
            .filter(|import| import.module() == abi::MODULE)
            .map(|import| match import.ty() {
                wasmtime::ExternType::Func(ty) => (import.name().to_string(), signature(&ty)),
                other => panic!("the engine imports {} as {other:?}, not a function", import.name()),
            })
            .collect();
        assert_eq!(imported, declared, "the committed engine's imports of {}", abi::MODULE);

        let mut store = Store::new(&runtime.engine, runtime.tool_state());
        let linker = host_linker(&runtime.engine).expect("the runtime's linker");
        let host: Vec<(String, Extern)> = linker
            .iter(&mut store)
            .filter(|(module, _, _)| *module == abi::MODULE)
            .map(|(_, name, item)| (name.to_string(), item))
            .collect();
        let defined: BTreeMap<String, Signature> = host
            .into_iter()
            .map(|(name, item)| match item {
                Extern::Func(func) => (name, signature(&func.ty(&store))),
                other => panic!("the runtime defines {name} as {other:?}, not a function"),
            })
            .collect();
        assert_eq!(
            defined,
            declared,
            "what the runtime's linker defines in {}",
            abi::MODULE
        );
    }
}
