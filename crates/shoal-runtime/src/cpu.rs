//! CPU fair share between Functions.
//!
//! In Kyma each Function is a pod with a CPU limit: however many of its
//! requests spin, it gets at most that many cores and its neighbours keep
//! theirs. In a shared node every guest runs on the same few executor
//! threads, so without a share eight busy-looping requests of one Function
//! fill every thread and a neighbour's quick request waits behind them.
//!
//! A [`CpuShare`] is a Function's cores: the number of its guests that may
//! be *busy* (running WebAssembly through several epoch ticks without a
//! pause) at the same time. A guest that answers or pauses within those
//! ticks never touches it, so quick requests pay nothing; a busy guest must
//! hold one of its Function's turns to go on, and keeps it until it pauses
//! (waits for I/O, a timer or its next request) or ends, as a Node.js
//! process runs a callback to completion. The other busy guests of that
//! Function wait, parked, off the executor: the Function gets
//! its cores and no more, like a pod throttled at its limit.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use futures::future::BoxFuture;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Epoch ticks a guest runs through without a pause before it counts as
/// busy: 10 ms at the 1 ms tick. Ticks are wall-clock, so on a loaded
/// machine a quick guest the OS took off the CPU can pass a few of them;
/// counting it busy then queued whole bursts of quick requests behind one
/// turn (500 guests of one Function awaiting an upstream missed their
/// deadline under the test suite's load at 2 ticks).
const BUSY_AFTER_TICKS: u32 = 10;

/// How many of one Function's guests may run at once once they are busy.
/// Shared by every sandbox of that Function (clone it).
#[derive(Debug, Clone)]
pub struct CpuShare {
    turns: Arc<Semaphore>,
    cores: u32,
    busy_after_ticks: u32,
    /// Times a busy guest found every turn taken and waited: the share's
    /// counterpart of a cgroup's throttled periods.
    throttled: Arc<AtomicU64>,
}

impl CpuShare {
    /// A share of `cores` (at least one).
    pub fn new(cores: u32) -> Self {
        let cores = cores.max(1);
        Self {
            turns: Arc::new(Semaphore::new(cores as usize)),
            cores,
            busy_after_ticks: BUSY_AFTER_TICKS,
            throttled: Arc::new(AtomicU64::new(0)),
        }
    }

    /// The same share, with guests counting as busy after `ticks`
    /// uninterrupted ticks instead of the default.
    pub fn busy_after(mut self, ticks: u32) -> Self {
        self.busy_after_ticks = ticks.max(1);
        self
    }

    /// How many times a busy guest of this share waited for a turn.
    pub fn throttled(&self) -> u64 {
        self.throttled.load(Ordering::Relaxed)
    }

    /// The cores this share allows.
    pub fn cores(&self) -> u32 {
        self.cores
    }
}

impl Default for CpuShare {
    /// One core: what a Function gets when nobody said otherwise.
    fn default() -> Self {
        Self::new(1)
    }
}

/// One sandbox's hold on its Function's share.
pub(crate) struct CpuTurn {
    share: CpuShare,
    /// Ticks the guest has run through since it last paused.
    running_ticks: u32,
    /// Whether the guest has taken a request: starting a sandbox (the
    /// engine, the module's top level) is the platform's cost, which a Kyma
    /// pod pays once at start, not the Function's work, so it is not held
    /// to the share.
    serving: bool,
    /// The turn this sandbox's guest runs on, if it is busy. Behind a lock
    /// because the future that waits for a turn fills it in after the
    /// epoch callback has returned.
    held: Arc<Mutex<Option<OwnedSemaphorePermit>>>,
}

/// What the guest does at a tick boundary.
pub(crate) enum Next {
    /// It holds a turn: yield to the executor once and go on.
    Run,
    /// Its Function's turns are all taken: wait for one (or the deadline).
    Wait(BoxFuture<'static, ()>),
}

impl CpuTurn {
    pub(crate) fn new(share: CpuShare) -> Self {
        Self {
            share,
            running_ticks: 0,
            serving: false,
            held: Arc::new(Mutex::new(None)),
        }
    }

    /// Called at every epoch tick the guest is still running: once it
    /// counts as busy it needs a turn, which it keeps until it pauses.
    pub(crate) fn next(&mut self, deadline: Instant) -> Next {
        if !self.serving {
            return Next::Run;
        }
        self.running_ticks = self.running_ticks.saturating_add(1);
        if self.running_ticks < self.share.busy_after_ticks {
            return Next::Run;
        }
        let mut held = match self.held.lock() {
            Ok(held) => held,
            // Nothing can leave the slot half-written; take it as it is.
            Err(poisoned) => poisoned.into_inner(),
        };
        // A guest keeps its turn until it pauses, as a Node.js process runs
        // a callback to completion: handing turns over at every tick would
        // make a burst of guests crawl in lockstep, and on a loaded machine
        // (where a tick can pass while the OS has the thread off the CPU)
        // barely move at all.
        if held.is_some() {
            return Next::Run;
        }
        if let Ok(permit) = self.share.turns.clone().try_acquire_owned() {
            *held = Some(permit);
            return Next::Run;
        }
        drop(held);
        self.share.throttled.fetch_add(1, Ordering::Relaxed);
        let turns = self.share.turns.clone();
        let slot = self.held.clone();
        Next::Wait(Box::pin(async move {
            // A guest past its deadline goes back to be interrupted by the
            // next tick's check instead of waiting for a turn.
            if let Ok(Ok(permit)) = tokio::time::timeout_at(deadline.into(), turns.acquire_owned()).await {
                let mut held = match slot.lock() {
                    Ok(held) => held,
                    Err(poisoned) => poisoned.into_inner(),
                };
                *held = Some(permit);
            }
        }))
    }

    /// The guest took a request: from now on its busy stretches count.
    pub(crate) fn begin_request(&mut self) {
        self.serving = true;
        self.running_ticks = 0;
    }

    /// The guest stops running (it waits for I/O, a timer or its next
    /// request): its turn goes to another busy guest of its Function.
    pub(crate) fn release(&mut self) {
        self.running_ticks = 0;
        match self.held.lock() {
            Ok(mut held) => drop(held.take()),
            Err(poisoned) => drop(poisoned.into_inner().take()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Two guests of a one-core Function, both serving a request.
    fn two_guests(busy_after: u32) -> (CpuShare, CpuTurn, CpuTurn) {
        let share = CpuShare::new(1).busy_after(busy_after);
        let mut first = CpuTurn::new(share.clone());
        first.begin_request();
        let mut second = CpuTurn::new(share.clone());
        second.begin_request();
        (share, first, second)
    }

    #[tokio::test]
    async fn a_busy_guest_waits_while_its_functions_cores_are_taken_and_runs_when_one_is_released() {
        let (share, mut first, mut second) = two_guests(1);
        let deadline = Instant::now() + Duration::from_secs(5);
        assert!(matches!(first.next(deadline), Next::Run));
        let Next::Wait(waiting) = second.next(deadline) else {
            panic!("the second busy guest of a one-core Function ran beside the first");
        };
        assert_eq!(share.throttled(), 1);
        let waiter = tokio::spawn(waiting);
        tokio::task::yield_now().await;
        assert!(!waiter.is_finished());
        first.release();
        waiter.await.expect("the waiting guest's future");
        // The turn went to the guest that was waiting, not back to the first.
        assert!(matches!(first.next(deadline), Next::Wait(_)));
    }

    #[tokio::test]
    async fn a_busy_guest_keeps_its_turn_until_it_pauses() {
        let (_, mut first, mut second) = two_guests(1);
        let deadline = Instant::now() + Duration::from_secs(5);
        assert!(matches!(first.next(deadline), Next::Run));
        let Next::Wait(waiting) = second.next(deadline) else {
            panic!("the second guest ran beside the first");
        };
        let waiter = tokio::spawn(waiting);
        // Tick after tick the first runs on; the second stays parked.
        for _ in 0..3 {
            assert!(matches!(first.next(deadline), Next::Run));
        }
        tokio::task::yield_now().await;
        assert!(!waiter.is_finished());
        first.release();
        waiter.await.expect("the waiting guest's future");
        assert!(matches!(second.next(deadline), Next::Run));
    }

    #[tokio::test]
    async fn a_waiting_guest_gives_up_at_its_deadline() {
        let (_, mut first, mut second) = two_guests(1);
        assert!(matches!(first.next(Instant::now() + Duration::from_secs(5)), Next::Run));
        let Next::Wait(waiting) = second.next(Instant::now() + Duration::from_millis(20)) else {
            panic!("the second guest ran beside the first");
        };
        tokio::time::timeout(Duration::from_secs(5), waiting)
            .await
            .expect("the wait for a turn ends at the guest's deadline");
    }

    #[tokio::test]
    async fn a_guest_is_busy_only_after_running_through_several_ticks_without_a_pause() {
        let (share, mut first, mut second) = two_guests(3);
        let deadline = Instant::now() + Duration::from_secs(5);
        for _ in 0..3 {
            assert!(matches!(first.next(deadline), Next::Run));
        }
        // `first` is busy and holds the turn; `second` is not busy yet.
        assert!(matches!(second.next(deadline), Next::Run));
        assert!(matches!(second.next(deadline), Next::Run));
        assert!(matches!(second.next(deadline), Next::Wait(_)));
        // A pause (I/O, the next request) starts the count again.
        second.release();
        assert!(matches!(second.next(deadline), Next::Run));
        assert_eq!(share.throttled(), 1);
    }

    #[test]
    fn a_share_has_at_least_one_core() {
        assert_eq!(CpuShare::new(0).cores(), 1);
        assert_eq!(CpuShare::new(3).cores(), 3);
    }
}
