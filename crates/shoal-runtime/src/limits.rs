//! Per-sandbox resource limits.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

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
