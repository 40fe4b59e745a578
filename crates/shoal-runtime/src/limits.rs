//! Per-sandbox resource limits.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A century: what "no deadline" means when a timeout is too large to add
/// to the clock.
const FOREVER: Duration = Duration::from_secs(100 * 365 * 24 * 3600);

/// The instant `timeout` from now, saturating: a timeout as large as a
/// tenant can write (`FUNC_TIMEOUT` near u64::MAX, `setTimeout(f, 1e300)`)
/// means "a long time", never an overflow.
pub fn deadline_after(timeout: Duration) -> Instant {
    let now = Instant::now();
    now.checked_add(timeout.min(FOREVER))
        .or_else(|| now.checked_add(Duration::from_secs(3600)))
        .unwrap_or(now)
}

/// `millis` (a JavaScript number: negative, NaN or huge alike) as a
/// duration, saturating at a century.
pub fn millis(millis: f64) -> Duration {
    if millis.is_nan() || millis <= 0.0 {
        return Duration::ZERO;
    }
    Duration::try_from_secs_f64(millis / 1000.0).map_or(FOREVER, |d| d.min(FOREVER))
}

/// The error an expired deadline raises inside the guest.
#[derive(Debug)]
pub(crate) struct DeadlineExceeded;

impl std::fmt::Display for DeadlineExceeded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("deadline exceeded")
    }
}

impl std::error::Error for DeadlineExceeded {}

/// The node-wide account of guests' memory growth: what every sandbox has
/// grown its linear memory by, past the engine's initial memory (which is
/// one copy-on-write image all sandboxes share). Each Function's own limit
/// bounds one sandbox; this bounds their sum, so several sandboxes each
/// within its Function's limit cannot together take the node past its own
/// (three 700 MiB requests used to take a 2 GiB node pod to 2.5 GiB).
#[derive(Debug)]
pub(crate) struct GuestMemory {
    used: AtomicUsize,
    limit: usize,
}

impl GuestMemory {
    pub(crate) fn new(limit: usize) -> Arc<Self> {
        Arc::new(Self {
            used: AtomicUsize::new(0),
            limit,
        })
    }

    fn try_charge(&self, bytes: usize) -> bool {
        self.used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                used.checked_add(bytes).filter(|total| *total <= self.limit)
            })
            .is_ok()
    }

    fn release(&self, bytes: usize) {
        // Never below zero: a sandbox gives back only what it was charged.
        let _ = self.used.fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
            Some(used.saturating_sub(bytes))
        });
    }

    pub(crate) fn used(&self) -> usize {
        self.used.load(Ordering::Relaxed)
    }

    pub(crate) fn limit(&self) -> usize {
        self.limit
    }
}

/// Caps linear memory and remembers which cap was hit, so a failed request
/// can be reported as a memory overrun (its own, or the node's) rather than
/// a generic trap.
pub(crate) struct SandboxLimiter {
    memory_limit: usize,
    exceeded: bool,
    node_exhausted: bool,
    /// The memory's current size, for whoever keeps the sandbox.
    memory_bytes: Arc<AtomicUsize>,
    node: Arc<GuestMemory>,
    /// What this sandbox's growth is charged to `node`, given back on drop.
    charged: usize,
}

impl SandboxLimiter {
    pub(crate) fn new(memory_limit: usize, memory_bytes: Arc<AtomicUsize>, node: Arc<GuestMemory>) -> Self {
        Self {
            memory_limit,
            exceeded: false,
            node_exhausted: false,
            memory_bytes,
            node,
            charged: 0,
        }
    }

    pub(crate) fn limit(&self) -> usize {
        self.memory_limit
    }

    pub(crate) fn exceeded(&self) -> bool {
        self.exceeded
    }

    pub(crate) fn node_exhausted(&self) -> bool {
        self.node_exhausted
    }

    pub(crate) fn node_limit(&self) -> usize {
        self.node.limit()
    }
}

impl Drop for SandboxLimiter {
    fn drop(&mut self) {
        self.node.release(self.charged);
    }
}

impl wasmtime::ResourceLimiter for SandboxLimiter {
    fn memory_growing(&mut self, current: usize, desired: usize, maximum: Option<usize>) -> wasmtime::Result<bool> {
        if desired > self.memory_limit || maximum.is_some_and(|m| desired > m) {
            self.exceeded = true;
            // Trap rather than fail the grow: QuickJS would otherwise turn
            // the failure into a catchable JS exception and carry on near
            // the limit; a trap ends the request with a clear reason.
            return Err(wasmtime::Error::msg(format!(
                "memory limit of {} bytes exceeded (wanted {desired})",
                self.memory_limit
            )));
        }
        // The initial memory (current 0) is the shared image; growth is
        // this sandbox's own and counts against the node.
        if current > 0 {
            let growth = desired.saturating_sub(current);
            if !self.node.try_charge(growth) {
                self.node_exhausted = true;
                return Err(wasmtime::Error::msg(format!(
                    "the node's memory for Functions ({} bytes) is in use",
                    self.node.limit()
                )));
            }
            self.charged = self.charged.saturating_add(growth);
        }
        self.memory_bytes.store(desired, Ordering::Relaxed);
        Ok(true)
    }

    fn table_growing(&mut self, _current: usize, desired: usize, maximum: Option<usize>) -> wasmtime::Result<bool> {
        Ok(maximum.is_none_or(|m| desired <= m) && desired <= 1 << 20)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_node_account_refuses_growth_past_its_limit_and_gets_it_back_on_drop() {
        use wasmtime::ResourceLimiter;
        let node = GuestMemory::new(100);
        let mut first = SandboxLimiter::new(1000, Arc::new(AtomicUsize::new(0)), node.clone());
        // The initial (shared) memory is not charged.
        assert!(first.memory_growing(0, 500, None).unwrap());
        assert!(first.memory_growing(500, 570, None).unwrap());
        let mut second = SandboxLimiter::new(1000, Arc::new(AtomicUsize::new(0)), node.clone());
        assert!(second.memory_growing(0, 500, None).unwrap());
        assert!(second.memory_growing(500, 560, None).is_err(), "70 + 60 > 100");
        assert!(second.node_exhausted() && !second.exceeded());
        drop(first);
        assert_eq!(node.used(), 0);
        assert!(second.memory_growing(500, 560, None).unwrap());
        assert_eq!(node.used(), 60);
    }

    #[test]
    fn deadlines_saturate_instead_of_overflowing() {
        let far = deadline_after(Duration::from_secs(u64::MAX));
        assert!(far > Instant::now() + Duration::from_secs(3600));
        assert_eq!(millis(1e300), FOREVER);
        assert_eq!(millis(f64::INFINITY), FOREVER);
        assert_eq!(millis(f64::NAN), Duration::ZERO);
        assert_eq!(millis(-5.0), Duration::ZERO);
        assert_eq!(millis(1500.0), Duration::from_millis(1500));
    }
}
