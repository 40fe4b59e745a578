//! Warm sandboxes: which Functions keep evaluated instances, and how many.
//!
//! A request to a Function first looks for an idle warm sandbox of that
//! Function version (its module already evaluated: the request only runs the
//! handler). Without one, it starts a new warm sandbox if the Function is
//! under its cap, and otherwise runs in a fresh sandbox that is dropped
//! afterwards. After a request the sandbox goes back to the idle list unless
//! it failed, served its share of requests or grew past the heap threshold;
//! when idle sandboxes would pass the node's budget, the ones used least
//! recently (of any Function) are retired first. Idle sandboxes are also
//! retired after `idle_ttl`, so a Function that cools down returns to
//! costing only its loaded module.
//!
//! Sandboxes are per [`crate::FunctionEntry`], i.e. per Function *version*:
//! nothing is shared between Functions, and an update starts from fresh
//! instances. The pool owns its accounting: bytes come off the node-wide
//! budget whenever a sandbox leaves the idle list, by any path, including
//! the pool being dropped with its entry.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use crate::locks::lock;
use shoal_runtime::{FunctionModule, GuestRequest, Invocation, InvokeContext, RequestLimits, Runtime, Sandbox};

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
    /// A sandbox whose private memory (its linear memory beyond the
    /// engine's shared image) grew past this is not kept.
    pub max_sandbox_memory: usize,
    /// Idle sandboxes older than this are dropped.
    pub idle_ttl: Duration,
    /// Private memory all idle warm sandboxes of the node may hold (the
    /// engine's image, shared by all, is not counted).
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

/// The node-wide account of idle warm sandboxes, with their order of use:
/// when keeping one more would pass the limit, the least recently used idle
/// sandboxes of any Function make room, so Functions in use keep theirs
/// while the ones that went quiet give memory back.
#[derive(Debug, Default)]
pub struct WarmBudget {
    limit: usize,
    used: AtomicUsize,
    idle: AtomicUsize,
    next: AtomicU64,
    /// Idle sandboxes by when they went idle: sequence -> their pool.
    order: Mutex<BTreeMap<u64, Weak<PoolInner>>>,
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

    /// Charges `bytes` for a sandbox going idle in `pool`, evicting the
    /// least recently used idle sandboxes while that passes the limit; its
    /// sequence number, or none when it does not fit even then.
    fn admit(&self, bytes: usize, pool: &Arc<PoolInner>) -> Option<u64> {
        if bytes > self.limit {
            return None;
        }
        loop {
            let used = self.used.load(Ordering::Relaxed);
            if used.saturating_add(bytes) <= self.limit {
                if self
                    .used
                    .compare_exchange_weak(used, used + bytes, Ordering::AcqRel, Ordering::Relaxed)
                    .is_err()
                {
                    continue;
                }
                self.idle.fetch_add(1, Ordering::Relaxed);
                let seq = self.next.fetch_add(1, Ordering::Relaxed);
                lock(&self.order).insert(seq, Arc::downgrade(pool));
                return Some(seq);
            }
            if !self.evict_oldest() {
                return None;
            }
        }
    }

    /// Drops the least recently used idle sandbox; false when there is none.
    fn evict_oldest(&self) -> bool {
        let oldest = lock(&self.order).pop_first();
        let Some((seq, pool)) = oldest else { return false };
        if let Some(pool) = pool.upgrade() {
            pool.remove(seq);
        }
        true
    }

    /// Under pressure (a request found no free sandbox slot), retires the
    /// least recently used idle sandbox of any Function and waits until it
    /// has ended, so its slot is free; false when no sandbox is idle. A slot
    /// serves a request better than a quiet Function's warm state.
    pub async fn reclaim_one(&self) -> bool {
        loop {
            let oldest = lock(&self.order).pop_first();
            let Some((seq, pool)) = oldest else { return false };
            if let Some(sandbox) = pool.upgrade().and_then(|pool| pool.take_idle(seq)) {
                sandbox.retire().await;
                return true;
            }
        }
    }

    fn forget(&self, seq: u64) {
        lock(&self.order).remove(&seq);
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
    /// Its place in the budget's order of use.
    seq: u64,
    since: Instant,
}

/// The shared part of a pool: what the budget reaches when it evicts.
struct PoolInner {
    idle: Mutex<Vec<Idle>>,
    /// Sandboxes alive, idle or serving.
    live: Arc<AtomicUsize>,
    budget: Arc<WarmBudget>,
}

impl PoolInner {
    /// Retires the idle sandbox `seq` (evicted), if it is still idle here.
    fn remove(&self, seq: u64) {
        if let Some(sandbox) = self.take_idle(seq) {
            retire(sandbox);
        }
    }

    /// Takes the idle sandbox `seq` out of the pool and the budget, if it
    /// is still idle here; the caller retires it.
    fn take_idle(&self, seq: u64) -> Option<Sandbox> {
        let removed = {
            let mut idle = lock(&self.idle);
            let at = idle.iter().position(|i| i.seq == seq)?;
            idle.remove(at)
        };
        self.budget.release(removed.bytes);
        self.live.fetch_sub(1, Ordering::Relaxed);
        Some(removed.sandbox)
    }
}

/// One Function version's warm sandboxes.
pub struct WarmPool {
    inner: Arc<PoolInner>,
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
    /// Gives `request` back when the sandbox ended before taking it.
    pub async fn invoke(&self, request: GuestRequest, limits: RequestLimits) -> Result<Invocation, GuestRequest> {
        match &self.sandbox {
            Some(sandbox) => sandbox.invoke(request, limits).await,
            None => Err(request),
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
            inner: Arc::new(PoolInner {
                idle: Mutex::new(Vec::new()),
                live: Arc::new(AtomicUsize::new(0)),
                budget,
            }),
        }
    }

    /// The most recently used idle sandbox, if any.
    pub fn take(&self) -> Option<Lease> {
        let idle = lock(&self.inner.idle).pop()?;
        self.inner.budget.forget(idle.seq);
        self.inner.budget.release(idle.bytes);
        // `live` already counts it; the lease carries that count on.
        Some(Lease {
            sandbox: Some(idle.sandbox),
            live: self.inner.live.clone(),
        })
    }

    /// Starts a new warm sandbox when the Function is under `cap`; `None`
    /// otherwise (use a fresh sandbox). Memory is charged when it goes idle
    /// ([`Self::put_back`]).
    pub fn start(
        &self,
        runtime: &Runtime,
        context: &InvokeContext,
        module: &FunctionModule,
        memory_limit: usize,
        cap: usize,
    ) -> Option<Lease> {
        let live = &self.inner.live;
        let mut now = live.load(Ordering::Relaxed);
        loop {
            if now >= cap {
                return None;
            }
            match live.compare_exchange_weak(now, now + 1, Ordering::AcqRel, Ordering::Relaxed) {
                Ok(_) => break,
                Err(seen) => now = seen,
            }
        }
        Some(Lease {
            sandbox: Some(runtime.start_sandbox(context, module, memory_limit)),
            live: live.clone(),
        })
    }

    /// Returns a sandbox after a request, or retires it when it failed,
    /// served `max_requests`, grew past `max_sandbox_memory`, or does not
    /// fit the budget even after evicting what went unused longest.
    pub fn put_back(&self, mut lease: Lease, config: &WarmConfig) {
        let Some(sandbox) = lease.sandbox.as_ref() else { return };
        let bytes = sandbox.private_memory_bytes();
        let seq = if !sandbox.is_alive() || sandbox.served() >= config.max_requests || bytes > config.max_sandbox_memory
        {
            None
        } else {
            self.inner.budget.admit(bytes, &self.inner)
        };
        let Some(sandbox) = lease.sandbox.take() else { return };
        let Some(seq) = seq else {
            self.inner.live.fetch_sub(1, Ordering::Relaxed);
            retire(sandbox);
            return;
        };
        let idle = Idle {
            sandbox,
            bytes,
            seq,
            since: Instant::now(),
        };
        lock(&self.inner.idle).push(idle);
    }

    /// Retires idle sandboxes unused for `ttl`; returns how many.
    pub fn sweep(&self, ttl: Duration) -> usize {
        let mut idle = lock(&self.inner.idle);
        let (keep, expired): (Vec<Idle>, Vec<Idle>) = std::mem::take(&mut *idle)
            .into_iter()
            .partition(|i| i.since.elapsed() < ttl && i.sandbox.is_alive());
        *idle = keep;
        drop(idle);
        let dropped = expired.len();
        for i in expired {
            self.inner.budget.forget(i.seq);
            self.inner.budget.release(i.bytes);
            self.inner.live.fetch_sub(1, Ordering::Relaxed);
            retire(i.sandbox);
        }
        dropped
    }

    /// Retires every idle sandbox (the module is being unloaded).
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
