//! Serving ports: each Function gets a port of its own on the node pods.
//!
//! The port is recorded in the Function's `status.servingPort`, which is
//! where nodes learn it and where a restarted controller finds it again:
//! the allocator is rebuilt from the Functions before it hands out a port.
//! A Function keeps its port for life, so its EndpointSlice never changes
//! because of another Function.

use std::collections::HashMap;
use std::ops::RangeInclusive;

use sha2::{Digest, Sha256};

pub use shoal_envelope::FunctionKey;

/// Which Function holds which port.
#[derive(Debug)]
pub struct PortAllocator {
    range: RangeInclusive<u16>,
    by_port: HashMap<u16, FunctionKey>,
    by_function: HashMap<FunctionKey, u16>,
}

/// Every port of the range is taken.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("all {size} serving ports ({start}-{end}) are taken: widen the controller's --serving-ports range")]
pub struct PortsExhausted {
    start: u16,
    end: u16,
    size: usize,
}

impl PortAllocator {
    /// An allocator handing out ports of `range`.
    pub fn new(range: RangeInclusive<u16>) -> Self {
        Self {
            range,
            by_port: HashMap::new(),
            by_function: HashMap::new(),
        }
    }

    /// The port of `function`: the one it records when that is in range and
    /// held by no other Function, else a free one (first tried: a port
    /// derived from its name, so allocations spread and rarely collide).
    ///
    /// # Errors
    /// When every port of the range is held.
    pub fn claim(&mut self, function: &FunctionKey, recorded: Option<i32>) -> Result<u16, PortsExhausted> {
        if let Some(&port) = self.by_function.get(function) {
            return Ok(port);
        }
        let recorded = recorded
            .and_then(|p| u16::try_from(p).ok())
            .filter(|p| self.range.contains(p) && !self.by_port.contains_key(p));
        let port = match recorded {
            Some(p) => p,
            None => self.free_port(function)?,
        };
        self.by_port.insert(port, function.clone());
        self.by_function.insert(function.clone(), port);
        Ok(port)
    }

    /// Gives the Function's port back (the Function was deleted).
    pub fn release(&mut self, function: &FunctionKey) {
        if let Some(port) = self.by_function.remove(function) {
            self.by_port.remove(&port);
        }
    }

    /// Ports held.
    pub fn len(&self) -> usize {
        self.by_port.len()
    }

    /// Whether no port is held.
    pub fn is_empty(&self) -> bool {
        self.by_port.is_empty()
    }

    fn free_port(&self, function: &FunctionKey) -> Result<u16, PortsExhausted> {
        let start = u32::from(*self.range.start());
        let size = u32::from(*self.range.end()) - start + 1;
        let digest = Sha256::digest(function.to_string().as_bytes());
        let offset = u32::from_be_bytes([digest[0], digest[1], digest[2], digest[3]]) % size;
        (0..size)
            .map(|i| (start + (offset + i) % size) as u16)
            .find(|p| !self.by_port.contains_key(p))
            .ok_or(PortsExhausted {
                start: *self.range.start(),
                end: *self.range.end(),
                size: size as usize,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(name: &str) -> FunctionKey {
        FunctionKey::new("shop", name)
    }

    #[test]
    fn a_recorded_port_is_kept_and_a_taken_one_is_replaced() {
        let mut ports = PortAllocator::new(20000..=20009);
        assert_eq!(ports.claim(&id("a"), Some(20003)), Ok(20003));
        // Asking again gives the same port, whatever is recorded.
        assert_eq!(ports.claim(&id("a"), None), Ok(20003));
        // b records a's port (say, a copy of a's status): it gets another.
        let b = ports.claim(&id("b"), Some(20003)).unwrap();
        assert_ne!(b, 20003);
        // Out of range: replaced.
        let c = ports.claim(&id("c"), Some(8080)).unwrap();
        assert!((20000..=20009).contains(&c));
        ports.release(&id("a"));
        assert_eq!(ports.claim(&id("d"), Some(20003)), Ok(20003));
    }

    #[test]
    fn every_port_of_the_range_is_used_before_it_is_exhausted() {
        let mut ports = PortAllocator::new(30000..=30099);
        let mut seen = std::collections::BTreeSet::new();
        for i in 0..100 {
            assert!(seen.insert(ports.claim(&id(&format!("f{i}")), None).unwrap()));
        }
        assert_eq!(ports.len(), 100);
        let err = ports.claim(&id("one-too-many"), None).unwrap_err();
        assert!(
            err.to_string()
                .contains("all 100 serving ports (30000-30099) are taken"),
            "{err}"
        );
    }
}
