//! Warm sandboxes: which Functions keep evaluated instances, and how many.
//!
//! A request to a Function first looks for an idle warm sandbox of that
//! Function version (its module already evaluated: the request only runs the
//! handler). Without one, it starts a new warm sandbox if the Function is
//! under its cap and the node under its warm-memory budget, and otherwise
//! runs in a fresh sandbox that is dropped afterwards, as every request did
//! before. After a request the sandbox goes back to the idle list unless it
//! failed, served its share of requests, grew past the heap threshold, or
//! the budget is spent. Idle sandboxes are dropped after `idle_ttl`, so a
//! Function that cools down returns to costing only its loaded module.
//!
//! Sandboxes are per [`crate::FunctionEntry`], i.e. per Function *version*:
//! nothing is shared between Functions, and an update starts from fresh
//! instances. The pool owns its accounting: bytes come off the node-wide
//! budget whenever a sandbox leaves the idle list, by any path, including
//! the pool being dropped with its entry.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use shoal_runtime::{FunctionModule, Invocation, InvokeContext, RequestLimits, Runtime, Sandbox};

/// When Functions get warm sandboxes.
#[derive(Debug, Clone)]
pub struct WarmConfig {
    /// Off: every request gets a fresh sandbox and module state never
    /// persists (for operators who want that isolation).
    pub enabled: bool,
    /// Warm sandboxes one Function version may have (also bounded by its
    /// concurrency limit).
    pub max_per_function: usize,
    /// Requests a sandbox serves before it is recycled.
    pub max_requests: u64,
    /// A sandbox whose linear memory grew past this is not kept.
    pub max_sandbox_memory: usize,
    /// Idle sandboxes older than this are dropped.
    pub idle_ttl: Duration,
    /// Linear memory all idle warm sandboxes of the node may hold.
    pub memory_budget: usize,
}

impl Default for WarmConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            max_per_function: 64,
            max_requests: 10_000,
            max_sandbox_memory: 128 << 20,
            idle_ttl: Duration::from_secs(60),
            memory_budget: 256 << 20,
        }
    }
}

/// The node-wide account of idle warm sandboxes.
#[derive(Debug, Default)]
pub struct WarmBudget {
    limit: usize,
    used: AtomicUsize,
    idle: AtomicUsize,
}

impl WarmBudget {
    /// A budget of `limit` bytes.
    pub fn new(limit: usize) -> Arc<Self> {
        Arc::new(Self {
            limit,
            ..Self::default()
        })
    }

    /// Bytes of linear memory idle warm sandboxes hold now.
    pub fn used_bytes(&self) -> usize {
        self.used.load(Ordering::Relaxed)
    }

    /// Idle warm sandboxes now.
    pub fn idle_sandboxes(&self) -> usize {
        self.idle.load(Ordering::Relaxed)
    }

    fn has_room(&self) -> bool {
        self.used_bytes() < self.limit
    }

    fn try_add(&self, bytes: usize) -> bool {
        let mut used = self.used.load(Ordering::Relaxed);
        loop {
            if used.saturating_add(bytes) > self.limit {
                return false;
            }
            match self
                .used
                .compare_exchange_weak(used, used + bytes, Ordering::AcqRel, Ordering::Relaxed)
            {
                Ok(_) => {
                    self.idle.fetch_add(1, Ordering::Relaxed);
                    return true;
                }
                Err(now) => used = now,
            }
        }
    }

    fn release(&self, bytes: usize) {
        self.used.fetch_sub(bytes, Ordering::AcqRel);
        self.idle.fetch_sub(1, Ordering::Relaxed);
    }
}

struct Idle {
    sandbox: Sandbox,
    /// What it was charged to the budget.
    bytes: usize,
    since: Instant,
}

/// One Function version's warm sandboxes.
pub struct WarmPool {
    idle: Mutex<Vec<Idle>>,
    /// Sandboxes alive, idle or serving.
    live: Arc<AtomicUsize>,
    budget: Arc<WarmBudget>,
}

/// A warm sandbox taken out of its pool for one request. Dropping it
/// without [`WarmPool::put_back`] drops the sandbox.
pub struct Lease {
    /// Taken out when the sandbox goes back to the pool.
    sandbox: Option<Sandbox>,
    live: Arc<AtomicUsize>,
}

impl Lease {
    /// Serves one request on the sandbox.
    ///
    /// # Errors
    ///
    /// Gives `input` back when the sandbox ended before taking it.
    pub async fn invoke(&self, input: Bytes, limits: RequestLimits) -> Result<Invocation, Bytes> {
        match &self.sandbox {
            Some(sandbox) => sandbox.invoke(input, limits).await,
            None => Err(input),
        }
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        // A sandbox still here is being dropped, not returned.
        if self.sandbox.is_some() {
            self.live.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

impl WarmPool {
    /// An empty pool charging idle sandboxes to `budget`.
    pub fn new(budget: Arc<WarmBudget>) -> Self {
        Self {
            idle: Mutex::new(Vec::new()),
            live: Arc::new(AtomicUsize::new(0)),
            budget,
        }
    }

    /// Sandboxes alive now, idle or serving.
    pub fn live(&self) -> usize {
        self.live.load(Ordering::Relaxed)
    }

    /// The most recently used idle sandbox, if any.
    pub fn take(&self) -> Option<Lease> {
        let idle = self.idle.lock().ok()?.pop()?;
        self.budget.release(idle.bytes);
        // `live` already counts it; the lease carries that count on.
        Some(Lease {
            sandbox: Some(idle.sandbox),
            live: self.live.clone(),
        })
    }

    /// Starts a new warm sandbox when the Function is under `cap` and the
    /// node has budget left; `None` otherwise (use a fresh sandbox).
    pub fn start(
        &self,
        runtime: &Runtime,
        context: &InvokeContext,
        module: &FunctionModule,
        memory_limit: usize,
        cap: usize,
    ) -> Option<Lease> {
        if !self.budget.has_room() {
            return None;
        }
        let mut live = self.live.load(Ordering::Relaxed);
        loop {
            if live >= cap {
                return None;
            }
            match self
                .live
                .compare_exchange_weak(live, live + 1, Ordering::AcqRel, Ordering::Relaxed)
            {
                Ok(_) => break,
                Err(now) => live = now,
            }
        }
        Some(Lease {
            sandbox: Some(runtime.start_sandbox(context, module, memory_limit)),
            live: self.live.clone(),
        })
    }

    /// Returns a sandbox after a request, or retires it when it failed,
    /// served `max_requests`, grew past `max_sandbox_memory`, or the budget
    /// is spent.
    pub fn put_back(&self, mut lease: Lease, config: &WarmConfig) {
        let Some(sandbox) = lease.sandbox.as_ref() else { return };
        let bytes = sandbox.memory_bytes();
        if !sandbox.is_alive()
            || sandbox.served() >= config.max_requests
            || bytes > config.max_sandbox_memory
            || !self.budget.try_add(bytes)
        {
            if let Some(sandbox) = lease.sandbox.take() {
                self.live.fetch_sub(1, Ordering::Relaxed);
                retire(sandbox);
            }
            return;
        }
        let Ok(mut idle) = self.idle.lock() else {
            self.budget.release(bytes);
            return;
        };
        // Taken out of the lease, the sandbox keeps its place in `live`.
        if let Some(sandbox) = lease.sandbox.take() {
            idle.push(Idle {
                sandbox,
                bytes,
                since: Instant::now(),
            });
        }
    }

    /// Drops idle sandboxes unused for `ttl`; returns how many.
    pub fn sweep(&self, ttl: Duration) -> usize {
        let Ok(mut idle) = self.idle.lock() else { return 0 };
        let (keep, expired): (Vec<Idle>, Vec<Idle>) = std::mem::take(&mut *idle)
            .into_iter()
            .partition(|i| i.since.elapsed() < ttl && i.sandbox.is_alive());
        *idle = keep;
        drop(idle);
        let dropped = expired.len();
        for i in expired {
            self.budget.release(i.bytes);
            self.live.fetch_sub(1, Ordering::Relaxed);
            retire(i.sandbox);
        }
        dropped
    }

    /// Drops every idle sandbox (the module is being unloaded).
    pub fn clear(&self) {
        self.sweep(Duration::ZERO);
    }
}

/// Lets a sandbox's guest return in the background (see
/// [`Sandbox::retire`]); outside a tokio runtime it is just dropped.
fn retire(sandbox: Sandbox) {
    if let Ok(runtime) = tokio::runtime::Handle::try_current() {
        runtime.spawn(sandbox.retire());
    }
}

impl Drop for WarmPool {
    fn drop(&mut self) {
        self.clear();
    }
}
