//! Locks that go on after a panic elsewhere.
//!
//! A thread that panicked while holding one of the node's locks poisons it.
//! Refusing the data from then on turned one panic into every Function
//! answering 404; the data these locks guard (maps of entries, idle
//! sandboxes, metrics) is never left half-written by a panic in between
//! their single-step updates, so they are taken as they are.

use std::sync::{Mutex, MutexGuard, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

/// Reads `lock`, poisoned or not.
pub(crate) fn read<T>(lock: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(PoisonError::into_inner)
}

/// Writes `lock`, poisoned or not.
pub(crate) fn write<T>(lock: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(PoisonError::into_inner)
}

/// Locks `mutex`, poisoned or not.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;
    use std::sync::Arc;

    #[test]
    fn a_poisoned_lock_still_gives_its_data() {
        let entries = Arc::new(RwLock::new(BTreeMap::from([("ns/hello", 1)])));
        let poisoner = entries.clone();
        let _ = std::thread::spawn(move || {
            let _guard = poisoner.write().unwrap_or_else(PoisonError::into_inner);
            panic!("a panic while the table is held");
        })
        .join();
        assert!(entries.is_poisoned());
        assert_eq!(read(&entries).get("ns/hello"), Some(&1));
        write(&entries).insert("ns/other", 2);
        assert_eq!(read(&entries).len(), 2);
    }
}
