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

/// Caps linear memory and remembers whether the cap was hit, so a failed
/// request can be reported as a memory overrun rather than a generic trap.
pub(crate) struct RequestLimiter {
    memory_limit: usize,
    exceeded: bool,
    /// The memory's current size, for whoever keeps the sandbox.
    memory_bytes: Arc<AtomicUsize>,
}

impl RequestLimiter {
    pub(crate) fn new(memory_limit: usize, memory_bytes: Arc<AtomicUsize>) -> Self {
        Self {
            memory_limit,
            exceeded: false,
            memory_bytes,
        }
    }

    pub(crate) fn limit(&self) -> usize {
        self.memory_limit
    }

    pub(crate) fn exceeded(&self) -> bool {
        self.exceeded
    }
}

impl wasmtime::ResourceLimiter for RequestLimiter {
    fn memory_growing(&mut self, _current: usize, desired: usize, maximum: Option<usize>) -> wasmtime::Result<bool> {
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
