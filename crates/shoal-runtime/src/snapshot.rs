//! Snapshots of loaded Functions: a sandbox's memory right after the
//! prelude and the Function's module top level ran, kept so that later
//! sandboxes of the Function start from it instead of evaluating both again.
//!
//! A snapshot is the 4 KiB pages of the engine's linear memory that differ
//! from the engine's own initial memory (the copy-on-write image every
//! sandbox starts from), and the memory's size. Restoring one is
//! instantiating the engine (copy-on-write, microseconds) and writing
//! those pages back: a hello world's is 78 pages. The rest of a sandbox's
//! state is the same in every sandbox of the engine: the engine's only
//! mutable global is its shadow stack pointer, back at its initial value
//! once the load returns, and its tables never change (both checked against
//! the committed engine by this module's tests).
//!
//! What a snapshot holds is decided with the guest: the host sends a
//! load-only first delivery (the Function's identity and environment, no
//! request), the prelude loads the module and returns, and answers that
//! delivery only when its state cannot be carried to another sandbox
//! (pending timers or host calls). A snapshot is used only for exactly the
//! load head it was taken with, so a Function's environment at load is the
//! one its snapshot saw.
//!
//! A snapshot is also kept as a file (its [`Snapshot::encode`]d form,
//! `<module sha256>.snap` in the module cache, per machine boot): a
//! Function whose snapshot the budget does not hold, or any Function after
//! the node restarts, restores from it ([`Snapshot::decode`] checks it is
//! whole and taken with the same load head).
//!
//! This module owns the pages, their file form and the budget; when to
//! take or restore one, and where the files live, is `SandboxParts`'s
//! (`lib.rs`).

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};

use bytes::Bytes;

/// The granularity a snapshot records changes at (the host's page size).
pub(crate) const SNAPSHOT_PAGE: usize = 4096;

/// Head fields that describe one request rather than the Function: a load
/// head leaves them out.
const REQUEST_FIELDS: [&str; 4] = ["method", "path", "query", "headers"];

/// The head of a load-only delivery for a sandbox whose first request has
/// `first_head`: the same JSON without the request's own fields, marked
/// `"load": true`. None when the first request is not one a snapshot may
/// start from (the build's probe, or a head that is not a JSON object).
pub(crate) fn load_head(first_head: &[u8]) -> Option<Bytes> {
    let serde_json::Value::Object(mut head) = serde_json::from_slice(first_head).ok()? else {
        return None;
    };
    if head.contains_key("probe") {
        return None;
    }
    for field in REQUEST_FIELDS {
        head.remove(field);
    }
    head.insert("load".into(), serde_json::Value::Bool(true));
    serde_json::to_vec(&head).ok().map(Bytes::from)
}

/// Bytes all snapshots of a runtime may hold. When a new snapshot does
/// not fit, snapshots not restored lately make room: a clock sweep over
/// the Functions holding one, each restore setting its slot's reference
/// bit (the second-chance approximation of least recently used, at a
/// constant cost per eviction).
///
/// Once the budget is full, a Function only takes a snapshot when it
/// starts fresh sandboxes more often than the one the sweep would drop
/// (each slot counts its starts, halved at every aging epoch): with
/// traffic spread evenly over more Functions than the budget holds,
/// snapshots would otherwise replace each other before any is restored,
/// and each costs a load plus the comparison (measured: uniform traffic
/// over 10,000 Functions got slower with snapshots than without).
pub(crate) struct SnapshotBudget {
    used: AtomicUsize,
    limit: usize,
    clock: Mutex<Clock>,
    /// Snapshots alive.
    snapshots: AtomicUsize,
    /// Fresh starts counted so far, and the aging epoch they make.
    starts: AtomicU64,
    epoch: AtomicU32,
}

/// Starts per aging epoch, per snapshot the budget holds (at least
/// [`MIN_AGING_PERIOD`]).
const AGING_STARTS_PER_SNAPSHOT: u64 = 8;
const MIN_AGING_PERIOD: u64 = 1024;

/// The Functions holding a snapshot, and where the sweep stands.
#[derive(Default)]
struct Clock {
    slots: Vec<Weak<SnapshotSlot>>,
    hand: usize,
}

impl SnapshotBudget {
    pub(crate) fn new(limit: usize) -> Arc<Self> {
        Arc::new(Self {
            used: AtomicUsize::new(0),
            limit,
            clock: Mutex::new(Clock::default()),
            snapshots: AtomicUsize::new(0),
            starts: AtomicU64::new(0),
            epoch: AtomicU32::new(0),
        })
    }

    /// Counts a fresh start; every so many, frequencies age by half.
    fn count_start(&self) -> u32 {
        let period = (self.snapshots.load(Ordering::Relaxed) as u64)
            .saturating_mul(AGING_STARTS_PER_SNAPSHOT)
            .max(MIN_AGING_PERIOD);
        let starts = self.starts.fetch_add(1, Ordering::Relaxed).wrapping_add(1);
        if starts.is_multiple_of(period) {
            self.epoch.fetch_add(1, Ordering::AcqRel).wrapping_add(1)
        } else {
            self.epoch.load(Ordering::Acquire)
        }
    }

    /// Whether a Function starting fresh sandboxes `frequency` times (aged)
    /// should take a snapshot now: always while the budget has room for
    /// one more of the average size, otherwise only when it is more
    /// frequent than the snapshot the sweep would drop next.
    fn admits(&self, frequency: u32) -> bool {
        if self.limit == 0 {
            return false;
        }
        let used = self.used.load(Ordering::Relaxed);
        let average = used / self.snapshots.load(Ordering::Relaxed).max(1);
        if used.saturating_add(average) <= self.limit {
            return true;
        }
        let epoch = self.epoch.load(Ordering::Acquire);
        let mut clock = self.clock.lock().unwrap_or_else(PoisonError::into_inner);
        while !clock.slots.is_empty() {
            if clock.hand >= clock.slots.len() {
                clock.hand = 0;
            }
            let hand = clock.hand;
            match clock.slots[hand].upgrade() {
                Some(victim) => return victim.frequency(epoch) < frequency,
                None => {
                    clock.slots.swap_remove(hand);
                }
            }
        }
        true
    }

    /// Reserves `bytes`, evicting snapshots not restored lately until they
    /// fit; false when they cannot.
    fn reserve_evicting(&self, bytes: usize) -> bool {
        if bytes > self.limit {
            return false;
        }
        loop {
            if self.reserve(bytes) {
                return true;
            }
            if !self.evict_one() {
                return false;
            }
        }
    }

    /// Drops one snapshot, passing over (and clearing) those restored since
    /// the sweep last came by; false when none is left to drop.
    fn evict_one(&self) -> bool {
        let mut clock = self.clock.lock().unwrap_or_else(PoisonError::into_inner);
        // Twice round: the first pass may only clear reference bits.
        let mut steps = clock.slots.len().saturating_mul(2);
        while steps > 0 && !clock.slots.is_empty() {
            steps -= 1;
            if clock.hand >= clock.slots.len() {
                clock.hand = 0;
            }
            let hand = clock.hand;
            let Some(slot) = clock.slots[hand].upgrade() else {
                clock.slots.swap_remove(hand);
                continue;
            };
            if slot.referenced.swap(false, Ordering::AcqRel) {
                clock.hand += 1;
                continue;
            }
            clock.slots.swap_remove(hand);
            if slot.evict() {
                return true;
            }
        }
        false
    }

    fn register(&self, slot: Weak<SnapshotSlot>) {
        self.clock
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .slots
            .push(slot);
    }

    pub(crate) fn limit(&self) -> usize {
        self.limit
    }

    #[cfg(test)]
    fn used(&self) -> usize {
        self.used.load(Ordering::Relaxed)
    }

    fn reserve(&self, bytes: usize) -> bool {
        self.used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                used.checked_add(bytes).filter(|total| *total <= self.limit)
            })
            .is_ok()
    }

    fn release(&self, bytes: usize) {
        self.used.fetch_sub(bytes, Ordering::AcqRel);
    }
}

/// A loaded Function's memory, as pages that differ from the engine's.
pub(crate) struct Snapshot {
    /// The load head it was taken with.
    load_head: Bytes,
    /// The linear memory's size, in bytes.
    memory_bytes: usize,
    /// Indexes of the pages that differ, ascending.
    pages: Vec<u32>,
    /// Their contents, [`SNAPSHOT_PAGE`] bytes each, in `pages` order (for
    /// a snapshot read from its file, a slice of the bytes read).
    data: Bytes,
    /// The budget it is counted in; none for a snapshot used once and not
    /// kept (the budget had no room, or did not admit it).
    budget: Option<Arc<SnapshotBudget>>,
}

impl Snapshot {
    /// The pages of `memory` that differ from `baseline` (the engine's
    /// initial memory; past its end, from zeros), counted in `budget` if it
    /// has room (see [`Self::is_kept`]). `written`, where known, says which
    /// pages the process may have written ([`written_pages`]); only those
    /// are compared.
    pub(crate) fn take(
        memory: &[u8],
        baseline: &[u8],
        written: Option<&[bool]>,
        load_head: Bytes,
        budget: &Arc<SnapshotBudget>,
    ) -> Result<Self, SnapshotRefusal> {
        let zeros = [0u8; SNAPSHOT_PAGE];
        let mut pages = Vec::new();
        for (index, page) in memory.chunks(SNAPSHOT_PAGE).enumerate() {
            if written.is_some_and(|written| !written.get(index).copied().unwrap_or(true)) {
                continue;
            }
            let at = index * SNAPSHOT_PAGE;
            let before = baseline.get(at..at + page.len()).unwrap_or(&zeros[..page.len()]);
            if page != before {
                pages.push(u32::try_from(index).map_err(|_| SnapshotRefusal::TooLarge)?);
            }
        }
        let size = pages.len() * SNAPSHOT_PAGE;
        let mut data = Vec::with_capacity(size);
        for &index in &pages {
            let at = index as usize * SNAPSHOT_PAGE;
            let page = &memory[at..(at + SNAPSHOT_PAGE).min(memory.len())];
            data.extend_from_slice(page);
            data.resize(data.len() + (SNAPSHOT_PAGE - page.len()), 0);
        }
        Ok(Self {
            load_head,
            memory_bytes: memory.len(),
            pages,
            data: Bytes::from(data),
            budget: None,
        }
        .counted_in(budget))
    }

    /// Counts the snapshot in `budget` when it has room (evicting others as
    /// it does); otherwise it stays uncounted, to be used and dropped.
    fn counted_in(mut self, budget: &Arc<SnapshotBudget>) -> Self {
        if self.budget.is_none() && budget.reserve_evicting(self.data.len()) {
            budget.snapshots.fetch_add(1, Ordering::Relaxed);
            self.budget = Some(budget.clone());
        }
        self
    }

    /// Whether the budget counts it, so a Function may keep it.
    pub(crate) fn is_kept(&self) -> bool {
        self.budget.is_some()
    }

    /// The snapshot as a file: a header, its load head, the page indexes
    /// and the pages.
    pub(crate) fn encode(&self) -> Vec<u8> {
        let mut out =
            Vec::with_capacity(FILE_MAGIC.len() + 16 + self.load_head.len() + self.pages.len() * 4 + self.data.len());
        out.extend_from_slice(FILE_MAGIC);
        out.extend_from_slice(&(self.memory_bytes as u64).to_le_bytes());
        out.extend_from_slice(&(self.pages.len() as u32).to_le_bytes());
        out.extend_from_slice(&(self.load_head.len() as u32).to_le_bytes());
        out.extend_from_slice(&self.load_head);
        for index in &self.pages {
            out.extend_from_slice(&index.to_le_bytes());
        }
        out.extend_from_slice(&self.data);
        out
    }

    /// A snapshot read from [`Self::encode`]'s bytes, if they are one,
    /// whole, and taken with exactly `load_head`; counted in `budget` when
    /// given and it has room.
    pub(crate) fn decode(bytes: Bytes, load_head: &[u8], budget: Option<&Arc<SnapshotBudget>>) -> Option<Self> {
        let rest = bytes.strip_prefix(FILE_MAGIC)?;
        let (memory_bytes, rest) = rest.split_first_chunk::<8>()?;
        let (count, rest) = rest.split_first_chunk::<4>()?;
        let (head_len, rest) = rest.split_first_chunk::<4>()?;
        let memory_bytes = usize::try_from(u64::from_le_bytes(*memory_bytes)).ok()?;
        let count = u32::from_le_bytes(*count) as usize;
        let head_len = u32::from_le_bytes(*head_len) as usize;
        let (head, rest) = rest.split_at_checked(head_len)?;
        if head != load_head {
            return None;
        }
        let (indexes, data) = rest.split_at_checked(count.checked_mul(4)?)?;
        if data.len() != count.checked_mul(SNAPSHOT_PAGE)? {
            return None;
        }
        let pages: Vec<u32> = indexes
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        let in_bounds = pages.windows(2).all(|w| w[0] < w[1])
            && pages
                .last()
                .is_none_or(|&last| (last as usize) < memory_bytes.div_ceil(SNAPSHOT_PAGE));
        if !in_bounds {
            return None;
        }
        let snapshot = Self {
            load_head: Bytes::copy_from_slice(load_head),
            memory_bytes,
            pages,
            data: bytes.slice_ref(data),
            budget: None,
        };
        Some(match budget {
            Some(budget) => snapshot.counted_in(budget),
            None => snapshot,
        })
    }

    /// The linear memory's size the snapshot needs, in bytes.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.memory_bytes
    }

    /// Writes the snapshot's pages into `memory`: a fresh instance of the
    /// engine already grown to [`Self::memory_bytes`].
    pub(crate) fn restore(&self, memory: &mut [u8]) {
        for (&index, page) in self.pages.iter().zip(self.data.chunks(SNAPSHOT_PAGE)) {
            let at = index as usize * SNAPSHOT_PAGE;
            let end = (at + SNAPSHOT_PAGE).min(memory.len());
            if let (Some(target), Some(source)) = (memory.get_mut(at..end), page.get(..end.saturating_sub(at))) {
                target.copy_from_slice(source);
            }
        }
    }

    /// Bytes the snapshot holds.
    pub(crate) fn size_bytes(&self) -> usize {
        self.data.len()
    }
}

impl Drop for Snapshot {
    fn drop(&mut self) {
        if let Some(budget) = &self.budget {
            budget.release(self.data.len());
            budget.snapshots.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

/// What a snapshot file starts with (its format's version).
const FILE_MAGIC: &[u8] = b"SHOALSNAP1\n";

/// Which 4 KiB pages of `memory` (a mapping of this process) may differ
/// from what they were mapped from, by the kernel's page table
/// (`/proc/self/pagemap`): a page the process wrote is a private
/// anonymous copy, present or swapped. A page still backed by the engine's
/// copy-on-write image, or never touched, is not. Comparing only those
/// takes a hello world's snapshot in a tenth of the time of comparing all
/// 19 MB. Pages the pool reset in place after an earlier sandbox are
/// anonymous too: they are compared and found equal.
///
/// # Errors
///
/// The page table cannot be read (no procfs): compare everything.
pub(crate) fn written_pages(pagemap: &std::fs::File, memory: &[u8]) -> std::io::Result<Vec<bool>> {
    use std::os::unix::fs::FileExt;
    const PRESENT: u64 = 1 << 63;
    const SWAPPED: u64 = 1 << 62;
    const FILE_OR_SHARED: u64 = 1 << 61;
    const ENTRIES_PER_READ: usize = 4096;
    let start = memory.as_ptr() as usize;
    if !start.is_multiple_of(SNAPSHOT_PAGE) {
        return Err(std::io::Error::other("the memory is not page-aligned"));
    }
    let pages = memory.len().div_ceil(SNAPSHOT_PAGE);
    let mut written = Vec::with_capacity(pages);
    let mut buffer = vec![0u8; ENTRIES_PER_READ * 8];
    while written.len() < pages {
        let count = (pages - written.len()).min(ENTRIES_PER_READ);
        let offset = (start / SNAPSHOT_PAGE + written.len()) as u64 * 8;
        let chunk = &mut buffer[..count * 8];
        pagemap.read_exact_at(chunk, offset)?;
        for entry in chunk.chunks_exact(8) {
            let mut word = [0u8; 8];
            word.copy_from_slice(entry);
            let entry = u64::from_le_bytes(word);
            written.push((entry & PRESENT != 0 && entry & FILE_OR_SHARED == 0) || entry & SWAPPED != 0);
        }
    }
    Ok(written)
}

/// Why a loaded sandbox was not kept as a snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SnapshotRefusal {
    /// The memory has more pages than a snapshot can number.
    TooLarge,
    /// The load left state that lives outside the memory (a timer, an
    /// outbound call or connection) or failed.
    NotPortable,
}

/// What a Function version's sandboxes do at their start.
pub(crate) enum Start {
    /// Restore this snapshot and serve.
    Restore(Arc<Snapshot>),
    /// Load the Function with a load-only delivery and offer the result as
    /// the snapshot ([`LoadTicket::offer`]).
    Load(LoadTicket),
    /// Evaluate the module with the first request, as without snapshots.
    Evaluate,
}

enum SlotState {
    Empty,
    /// A sandbox is loading to take the snapshot.
    Loading,
    Taken(Arc<Snapshot>),
    /// Loading with this head left no snapshot; not tried again for it.
    Refused(Bytes),
}

/// The snapshot of one Function version (shared by the clones of its
/// [`crate::FunctionModule`], dropped with the last of them).
pub(crate) struct SnapshotSlot {
    state: Mutex<SlotState>,
    /// Restored since the budget's sweep last passed ([`SnapshotBudget`]).
    referenced: AtomicBool,
    /// Fresh starts, halved for each aging epoch since `aged_at`.
    starts: AtomicU32,
    aged_at: AtomicU32,
}

impl Default for SnapshotSlot {
    fn default() -> Self {
        Self {
            state: Mutex::new(SlotState::Empty),
            referenced: AtomicBool::new(false),
            starts: AtomicU32::new(0),
            aged_at: AtomicU32::new(0),
        }
    }
}

impl SnapshotSlot {
    /// How a sandbox loading with `load_head` starts. One sandbox at a time
    /// loads to take the snapshot; the others meanwhile evaluate.
    pub(crate) fn start(self: &Arc<Self>, load_head: &[u8], budget: &SnapshotBudget) -> Start {
        let epoch = budget.count_start();
        let frequency = self.frequency(epoch);
        self.starts.fetch_add(1, Ordering::Relaxed);
        {
            let state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            match &*state {
                SlotState::Taken(snapshot) if snapshot.load_head == load_head => {
                    self.referenced.store(true, Ordering::Release);
                    return Start::Restore(snapshot.clone());
                }
                SlotState::Refused(head) if head == load_head => return Start::Evaluate,
                SlotState::Loading => return Start::Evaluate,
                _ => {}
            }
        }
        // Not under this slot's lock: the sweep locks the clock, then slots.
        if !budget.admits(frequency.saturating_add(1)) {
            return Start::Evaluate;
        }
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        match &*state {
            SlotState::Taken(snapshot) if snapshot.load_head == load_head => {
                self.referenced.store(true, Ordering::Release);
                Start::Restore(snapshot.clone())
            }
            SlotState::Refused(head) if head == load_head => Start::Evaluate,
            SlotState::Loading => Start::Evaluate,
            // Empty, or a snapshot (or refusal) of another environment.
            _ => {
                *state = SlotState::Loading;
                Start::Load(LoadTicket {
                    slot: Some(self.clone()),
                })
            }
        }
    }

    /// The slot's fresh starts, aged to `epoch`.
    fn frequency(&self, epoch: u32) -> u32 {
        let lag = epoch.wrapping_sub(self.aged_at.swap(epoch, Ordering::AcqRel));
        if lag > 0 {
            let shift = lag.min(31);
            let _ = self
                .starts
                .fetch_update(Ordering::AcqRel, Ordering::Acquire, |starts| Some(starts >> shift));
        }
        self.starts.load(Ordering::Acquire)
    }

    /// Drops the slot's snapshot (the next sandbox takes one again); false
    /// when it held none.
    fn evict(&self) -> bool {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if matches!(*state, SlotState::Taken(_)) {
            *state = SlotState::Empty;
            true
        } else {
            false
        }
    }

    /// Bytes the slot's snapshot holds.
    pub(crate) fn size_bytes(&self) -> usize {
        match &*self.state.lock().unwrap_or_else(PoisonError::into_inner) {
            SlotState::Taken(snapshot) => snapshot.size_bytes(),
            _ => 0,
        }
    }
}

/// The right to take a Function's snapshot. Dropped without an offer (the
/// loading sandbox was dropped half-way), it lets the next sandbox try.
pub(crate) struct LoadTicket {
    slot: Option<Arc<SnapshotSlot>>,
}

impl LoadTicket {
    /// The outcome of the load: the snapshot, or why there is none. The
    /// snapshot comes back to be used, kept by the Function or not.
    pub(crate) fn offer(
        mut self,
        load_head: Bytes,
        snapshot: Result<Snapshot, SnapshotRefusal>,
    ) -> Option<Arc<Snapshot>> {
        let slot = self.slot.take()?;
        let (budget, offered) = match snapshot {
            Ok(snapshot) if snapshot.is_kept() => {
                let budget = snapshot.budget.clone();
                let snapshot = Arc::new(snapshot);
                *slot.state.lock().unwrap_or_else(PoisonError::into_inner) = SlotState::Taken(snapshot.clone());
                (budget, Some(snapshot))
            }
            // No room in the budget: another Function's snapshot may be
            // dropped later, and this one tries again then.
            Ok(snapshot) => {
                *slot.state.lock().unwrap_or_else(PoisonError::into_inner) = SlotState::Empty;
                (None, Some(Arc::new(snapshot)))
            }
            Err(refusal) => {
                tracing::debug!(?refusal, "no snapshot of this Function");
                *slot.state.lock().unwrap_or_else(PoisonError::into_inner) = SlotState::Refused(load_head);
                (None, None)
            }
        };
        if let Some(budget) = budget {
            budget.register(Arc::downgrade(&slot));
        }
        offered
    }
}

impl Drop for LoadTicket {
    fn drop(&mut self) {
        if let Some(slot) = self.slot.take() {
            let mut state = slot.state.lock().unwrap_or_else(PoisonError::into_inner);
            if matches!(*state, SlotState::Loading) {
                *state = SlotState::Empty;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_load_head_keeps_the_function_and_its_env_and_drops_the_request() {
        let head = br#"{"v":1,"method":"POST","path":"/x","query":"a=1","headers":[["a","b"]],"function":{"name":"f"},"env":{"K":"V"}}"#;
        let load = load_head(head).expect("a load head");
        let parsed: serde_json::Value = serde_json::from_slice(&load).expect("JSON");
        assert_eq!(
            parsed,
            serde_json::json!({"v": 1, "function": {"name": "f"}, "env": {"K": "V"}, "load": true})
        );
        assert_eq!(load_head(br#"{"v":1,"probe":true}"#), None, "the build's probe");
        assert_eq!(load_head(b"[1]"), None);
    }

    #[test]
    fn a_snapshot_holds_the_changed_pages_and_restores_them() {
        let baseline = vec![7u8; 4 * SNAPSHOT_PAGE];
        let mut memory = baseline.clone();
        memory[SNAPSHOT_PAGE + 5] = 1;
        memory.extend(std::iter::repeat_n(0u8, SNAPSHOT_PAGE));
        memory.extend(std::iter::repeat_n(3u8, SNAPSHOT_PAGE));
        let budget = SnapshotBudget::new(1 << 20);
        let snapshot = Snapshot::take(&memory, &baseline, None, Bytes::new(), &budget).expect("a snapshot");
        assert_eq!(
            snapshot.size_bytes(),
            2 * SNAPSHOT_PAGE,
            "one changed page and one grown non-zero page"
        );
        assert_eq!(budget.used(), 2 * SNAPSHOT_PAGE);
        let mut restored = baseline.clone();
        restored.resize(snapshot.memory_bytes(), 0);
        snapshot.restore(&mut restored);
        assert_eq!(restored, memory);
        drop(snapshot);
        assert_eq!(budget.used(), 0, "a dropped snapshot gives its bytes back");

        let small = SnapshotBudget::new(SNAPSHOT_PAGE);
        let uncounted = Snapshot::take(&memory, &baseline, None, Bytes::new(), &small).expect("a snapshot");
        assert!(!uncounted.is_kept(), "no room: used once, not kept");
        assert_eq!(small.used(), 0);
    }

    #[test]
    fn a_snapshot_file_reads_back_only_whole_and_for_its_own_load_head() {
        let baseline = vec![0u8; 8 * SNAPSHOT_PAGE];
        let mut memory = baseline.clone();
        memory[2 * SNAPSHOT_PAGE] = 9;
        memory[7 * SNAPSHOT_PAGE + 1] = 4;
        let budget = SnapshotBudget::new(1 << 20);
        let head = Bytes::from_static(b"{\"load\":true}");
        let taken = Snapshot::take(&memory, &baseline, None, head.clone(), &budget).expect("a snapshot");
        let file = taken.encode();
        let file = Bytes::from(file);
        let read = Snapshot::decode(file.clone(), &head, Some(&budget)).expect("read back");
        assert!(read.is_kept());
        let mut restored = baseline.clone();
        read.restore(&mut restored);
        assert_eq!(restored, memory);
        assert!(
            Snapshot::decode(file.clone(), b"{\"load\":false}", None).is_none(),
            "another load head"
        );
        assert!(
            Snapshot::decode(file.slice(..file.len() - 1), &head, None).is_none(),
            "cut short"
        );
        let mut bad = file.to_vec();
        bad[..4].copy_from_slice(b"XXXX");
        assert!(
            Snapshot::decode(Bytes::from(bad), &head, None).is_none(),
            "not a snapshot"
        );
    }

    /// What makes memory alone a sandbox's state: the engine's only mutable
    /// global is its shadow stack pointer (back where it started when a
    /// call returns), and nothing changes its tables or drops its segments.
    #[test]
    fn the_engine_keeps_all_of_its_state_in_its_memory() {
        use wasmparser::{Operator, Payload};
        let mut mutable_globals = 0;
        let mut bodies = 0;
        let mut changes = Vec::new();
        for payload in wasmparser::Parser::new(0).parse_all(shoal_engine::ENGINE_WASM) {
            match payload.expect("the engine parses") {
                Payload::GlobalSection(globals) => {
                    for global in globals {
                        if global.expect("a global").ty.mutable {
                            mutable_globals += 1;
                        }
                    }
                }
                Payload::ImportSection(imports) => {
                    for import in imports.into_imports() {
                        let import = import.expect("an import");
                        assert!(
                            matches!(import.ty, wasmparser::TypeRef::Func(_)),
                            "the engine imports only functions, not {}::{}",
                            import.module,
                            import.name
                        );
                    }
                }
                Payload::CodeSectionEntry(body) => {
                    bodies += 1;
                    let mut reader = body.get_operators_reader().expect("a body");
                    while !reader.eof() {
                        let op = reader.read().expect("an operator");
                        if matches!(
                            op,
                            Operator::TableGrow { .. }
                                | Operator::TableSet { .. }
                                | Operator::TableFill { .. }
                                | Operator::TableCopy { .. }
                                | Operator::TableInit { .. }
                                | Operator::ElemDrop { .. }
                                | Operator::DataDrop { .. }
                                | Operator::MemoryInit { .. }
                        ) {
                            changes.push(format!("{op:?}"));
                        }
                    }
                }
                _ => {}
            }
        }
        assert!(bodies > 1000, "read the engine's {bodies} functions");
        assert_eq!(mutable_globals, 1, "the shadow stack pointer alone");
        assert_eq!(
            changes,
            Vec::<String>::new(),
            "instructions that change state outside memory"
        );
    }

    #[test]
    fn a_full_budget_admits_only_a_more_frequent_function_and_drops_the_one_not_restored_lately() {
        let page = |fill: u8| vec![fill; SNAPSHOT_PAGE];
        let budget = SnapshotBudget::new(2 * SNAPSHOT_PAGE);
        let slots: Vec<Arc<SnapshotSlot>> = (0..3).map(|_| Arc::new(SnapshotSlot::default())).collect();
        let offer = |ticket: LoadTicket| {
            let snapshot = Snapshot::take(&page(1), &page(0), None, Bytes::from_static(b"A"), &budget);
            ticket.offer(Bytes::from_static(b"A"), snapshot);
        };
        for slot in &slots[..2] {
            let Start::Load(ticket) = slot.start(b"A", &budget) else {
                panic!("room in the budget: the slot loads");
            };
            offer(ticket);
        }
        assert!(
            matches!(slots[0].start(b"A", &budget), Start::Restore(_)),
            "0 is restored: referenced"
        );
        // Full: a Function no more frequent than the next to drop evaluates.
        assert!(matches!(slots[2].start(b"A", &budget), Start::Evaluate));
        assert!(matches!(slots[2].start(b"A", &budget), Start::Evaluate));
        let Start::Load(ticket) = slots[2].start(b"A", &budget) else {
            panic!("a third start outnumbers the two of the next to drop");
        };
        offer(ticket);
        assert_eq!(budget.used(), 2 * SNAPSHOT_PAGE);
        assert!(
            !matches!(slots[1].start(b"A", &budget), Start::Restore(_)),
            "1, not restored lately, made room"
        );
        assert!(matches!(slots[0].start(b"A", &budget), Start::Restore(_)));
        assert!(matches!(slots[2].start(b"A", &budget), Start::Restore(_)));
    }

    #[test]
    fn the_page_table_tells_written_pages_from_untouched_ones() {
        let pagemap = std::fs::File::open("/proc/self/pagemap").expect("procfs");
        let pages = 64;
        // A fresh anonymous mapping: nothing is present until written.
        let mapping = unsafe {
            rustix::mm::mmap_anonymous(
                std::ptr::null_mut(),
                pages * SNAPSHOT_PAGE,
                rustix::mm::ProtFlags::READ | rustix::mm::ProtFlags::WRITE,
                rustix::mm::MapFlags::PRIVATE,
            )
        }
        .expect("mmap");
        // SAFETY: the mapping is ours, readable and writable, and unmapped below.
        let memory = unsafe { std::slice::from_raw_parts_mut(mapping.cast::<u8>(), pages * SNAPSHOT_PAGE) };
        memory[3 * SNAPSHOT_PAGE + 17] = 1;
        memory[40 * SNAPSHOT_PAGE] = 2;
        let written = written_pages(&pagemap, memory).expect("the page table");
        let indexes: Vec<usize> = (0..pages).filter(|&i| written[i]).collect();
        assert_eq!(indexes, [3, 40]);
        // SAFETY: as above; nothing refers to the mapping any more.
        unsafe { rustix::mm::munmap(mapping, pages * SNAPSHOT_PAGE) }.expect("munmap");
    }

    #[test]
    fn one_sandbox_loads_and_a_snapshot_serves_only_its_own_load_head() {
        let slot = Arc::new(SnapshotSlot::default());
        let budget = SnapshotBudget::new(1 << 20);
        let Start::Load(ticket) = slot.start(b"A", &budget) else {
            panic!("the first sandbox loads");
        };
        assert!(
            matches!(slot.start(b"A", &budget), Start::Evaluate),
            "another evaluates meanwhile"
        );
        drop(ticket);
        let Start::Load(ticket) = slot.start(b"A", &budget) else {
            panic!("a dropped load lets the next sandbox load");
        };
        let snapshot = Snapshot::take(
            &[1u8; SNAPSHOT_PAGE],
            &[0u8; SNAPSHOT_PAGE],
            None,
            Bytes::from_static(b"A"),
            &budget,
        );
        ticket.offer(Bytes::from_static(b"A"), snapshot);
        assert!(matches!(slot.start(b"A", &budget), Start::Restore(_)));
        let Start::Load(ticket) = slot.start(b"B", &budget) else {
            panic!("another env loads anew");
        };
        ticket.offer(Bytes::from_static(b"B"), Err(SnapshotRefusal::NotPortable));
        assert!(matches!(slot.start(b"B", &budget), Start::Evaluate));
        assert!(
            matches!(slot.start(b"A", &budget), Start::Load(_)),
            "A's snapshot was replaced"
        );
    }
}
