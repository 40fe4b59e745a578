//! The node-wide account of bytes held outside any guest's memory.
//!
//! A guest's linear memory is bounded by its Function's limit, but the
//! bytes the host holds for it are not in that memory: an inbound request
//! body while it is read, an outbound request body while the peer takes it,
//! an outbound response or socket read until the guest copies it in. A
//! tenant that keeps many of those in flight (fire-and-forget fetches with
//! large bodies) could grow the node past its own limit from a small
//! Function. Every such buffer is charged to one [`BufferAccount`] for as
//! long as it is held, and refused when the account is full, so they
//! cannot add up past what the operator set.

use std::sync::Arc;

use bytes::Bytes;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Bytes the node may hold in buffers at once, shared by the server and
/// every sandbox (clone it).
#[derive(Debug, Clone)]
pub struct BufferAccount {
    bytes: Arc<Semaphore>,
    capacity: usize,
}

/// Bytes charged to a [`BufferAccount`], given back on drop.
#[derive(Debug)]
pub struct BufferCharge(Option<OwnedSemaphorePermit>);

impl BufferAccount {
    /// An account of `capacity` bytes.
    pub fn new(capacity: usize) -> Self {
        let capacity = capacity.min(Semaphore::MAX_PERMITS);
        Self {
            bytes: Arc::new(Semaphore::new(capacity)),
            capacity,
        }
    }

    /// The bytes it may hold.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The bytes held now.
    pub fn held(&self) -> usize {
        self.capacity.saturating_sub(self.bytes.available_permits())
    }

    /// Charges `bytes`, or `None` when the account cannot hold them now.
    pub fn try_charge(&self, bytes: usize) -> Option<BufferCharge> {
        if bytes == 0 {
            return Some(BufferCharge(None));
        }
        let bytes = u32::try_from(bytes).ok()?;
        self.bytes
            .clone()
            .try_acquire_many_owned(bytes)
            .ok()
            .map(|p| BufferCharge(Some(p)))
    }
}

impl Default for BufferAccount {
    /// 512 MiB, the node's default.
    fn default() -> Self {
        Self::new(512 << 20)
    }
}

impl BufferCharge {
    /// A charge of no bytes.
    pub fn none() -> Self {
        Self(None)
    }

    /// `data`, holding this charge until the last clone of the returned
    /// bytes is dropped: however far the bytes travel (queued in an HTTP
    /// connection's write buffer for a slow reader), they stay counted.
    pub fn attach(self, data: Bytes) -> Bytes {
        if self.0.is_none() {
            return data;
        }
        Bytes::from_owner(Charged { data, _charge: self })
    }

    /// Adds `more` to this charge (a body read in chunks).
    pub fn merge(&mut self, more: BufferCharge) {
        match (&mut self.0, more.0) {
            (Some(held), Some(more)) => held.merge(more),
            (slot @ None, more) => *slot = more,
            (Some(_), None) => {}
        }
    }
}

/// Bytes with the charge for them.
struct Charged {
    data: Bytes,
    _charge: BufferCharge,
}

impl AsRef<[u8]> for Charged {
    fn as_ref(&self) -> &[u8] {
        &self.data
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charges_are_refused_past_the_capacity_and_given_back_on_drop() {
        let account = BufferAccount::new(100);
        let mut first = account.try_charge(60).expect("60 of 100");
        assert!(account.try_charge(50).is_none(), "110 of 100 held");
        first.merge(account.try_charge(30).expect("90 of 100"));
        assert_eq!(account.held(), 90);
        drop(first);
        assert_eq!(account.held(), 0);
        assert!(
            account.try_charge(usize::MAX).is_none(),
            "a size past u32 is refused, not wrapped"
        );
        assert!(account.try_charge(0).is_some());
    }

    #[test]
    fn attached_bytes_keep_their_charge_until_the_last_clone_is_dropped() {
        let account = BufferAccount::new(100);
        let charge = account.try_charge(5).expect("5 of 100");
        let data = charge.attach(Bytes::from_static(b"hello"));
        let tail = data.slice(1..);
        drop(data);
        assert_eq!(account.held(), 5, "a clone still holds the bytes");
        assert_eq!(&tail[..], b"ello");
        drop(tail);
        assert_eq!(account.held(), 0);
    }
}
