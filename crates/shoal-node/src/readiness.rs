//! When a node may take traffic.
//!
//! A node that reports ready before it has loaded its Functions would have
//! a rolling update remove the old nodes, which still hold the modules,
//! while the new ones answer "not loaded". A [`LoadGate`] stays closed until
//! whoever assigns Functions to the node (the cluster sync) has put every
//! one of them on it, loaded or failed; `/readyz` answers 200 only then.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Open once the node has loaded what it was assigned (clone it: every
/// clone is the same gate).
#[derive(Debug, Clone)]
pub struct LoadGate(Arc<AtomicBool>);

impl LoadGate {
    /// A gate that is open: nothing to wait for (local mode, tests).
    pub fn open() -> Self {
        Self(Arc::new(AtomicBool::new(true)))
    }

    /// A gate closed until [`Self::let_through`].
    pub fn closed() -> Self {
        Self(Arc::new(AtomicBool::new(false)))
    }

    /// Opens the gate, for good.
    pub fn let_through(&self) {
        self.0.store(true, Ordering::Release);
    }

    /// Whether the node has loaded what it was assigned.
    pub fn is_open(&self) -> bool {
        self.0.load(Ordering::Acquire)
    }
}

impl Default for LoadGate {
    fn default() -> Self {
        Self::open()
    }
}
