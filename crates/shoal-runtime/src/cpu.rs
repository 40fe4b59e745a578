//! CPU fair share between Functions.
//!
//! In Kyma each Function is a pod with a CPU limit: however many of its
//! requests spin, it gets at most that many cores and its neighbours keep
//! theirs. In a shared node every guest runs on the same few executor
//! threads, so without a share eight busy-looping requests of one Function
//! fill every thread and a neighbour's quick request waits behind them.
//!
//! A [`CpuShare`] is a Function's cores: the number of its guests that may
//! be *busy* (having used a few milliseconds of CPU since they last paused)
//! at the same time. A guest that answers or pauses sooner never touches
//! it, so quick requests pay nothing; a busy guest must hold one of its
//! Function's turns to go on, and keeps it until it pauses (waits for I/O,
//! a timer or its next request) or ends, as a Node.js process runs a
//! callback to completion. The other busy guests of that Function wait,
//! parked, off the executor: the Function gets its cores and no more, like
//! a pod throttled at its limit.
//!
//! Busy is measured in the executor thread's CPU time, not in epoch ticks:
//! ticks are wall-clock, and on a loaded machine the OS takes a quick
//! guest's thread off the CPU for longer than its whole request, which
//! made quick guests look busy and queued bursts of them behind one turn.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::ThreadId;
use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// CPU time a guest uses without a pause before it counts as busy: well
/// above what a quick request takes, well below what a neighbour would
/// notice waiting for.
const BUSY_AFTER_CPU: Duration = Duration::from_millis(2);

/// How many of one Function's guests may run at once once they are busy.
/// Shared by every sandbox of that Function (clone it).
#[derive(Debug, Clone)]
pub struct CpuShare {
    turns: Arc<Semaphore>,
    cores: u32,
    busy_after: Duration,
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
            busy_after: BUSY_AFTER_CPU,
            throttled: Arc::new(AtomicU64::new(0)),
        }
    }

    /// The same share, with guests counting as busy after `cpu` of CPU
    /// time without a pause instead of the default.
    pub fn busy_after(mut self, cpu: Duration) -> Self {
        self.busy_after = cpu;
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

/// Where a guest resumed running: its executor thread and that thread's
/// CPU clock then. A guest resumes on whichever thread polls it, and the
/// thread's clock also counts every other task it ran, so CPU time is only
/// added up between a resume and the next tick on the same thread.
#[derive(Debug, Clone, Copy)]
struct Resumed {
    thread: ThreadId,
    cpu: Duration,
}

impl Resumed {
    fn here() -> Self {
        Self {
            thread: std::thread::current().id(),
            cpu: thread_cpu_time(),
        }
    }
}

/// The calling thread's CPU time so far.
fn thread_cpu_time() -> Duration {
    let now = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    let seconds = u64::try_from(now.tv_sec).unwrap_or(0);
    let nanos = u32::try_from(now.tv_nsec).unwrap_or(0);
    Duration::new(seconds, nanos)
}

/// One sandbox's hold on its Function's share.
pub(crate) struct CpuTurn {
    share: CpuShare,
    /// CPU time the guest has used since it last paused (as far as it was
    /// measured: the stretch from a pause to the first tick is not).
    running: Duration,
    /// Whether the guest has taken a request: starting a sandbox (the
    /// engine, the module's top level) is the platform's cost, which a Kyma
    /// pod pays once at start, not the Function's work, so it is not held
    /// to the share.
    serving: bool,
    /// Where the guest last resumed after a tick, filled in by the future
    /// it yields on (which completes on the thread that runs it next).
    resumed: Arc<Mutex<Option<Resumed>>>,
    /// The turn this sandbox's guest runs on, if it is busy. Behind a lock
    /// because the future that waits for a turn fills it in after the
    /// epoch callback has returned.
    held: Arc<Mutex<Option<OwnedSemaphorePermit>>>,
}

/// What the guest does at a tick boundary: either way it yields on the
/// future it carries, so one running guest cannot keep an executor thread
/// from the others.
pub(crate) enum Next {
    /// It is not busy, or holds a turn: yield once and go on.
    Run(BoxFuture<'static, ()>),
    /// Its Function's turns are all taken: wait for one (or the deadline).
    Wait(BoxFuture<'static, ()>),
}

/// Nothing can leave these slots half-written; a poisoned one is taken as
/// it is.
fn lock<T>(slot: &Mutex<T>) -> MutexGuard<'_, T> {
    match slot.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    }
}

impl CpuTurn {
    pub(crate) fn new(share: CpuShare) -> Self {
        Self {
            share,
            running: Duration::ZERO,
            serving: false,
            resumed: Arc::new(Mutex::new(None)),
            held: Arc::new(Mutex::new(None)),
        }
    }

    /// Called at every epoch tick the guest is still running, on the
    /// guest's thread: once it counts as busy it needs a turn, which it
    /// keeps until it pauses.
    pub(crate) fn next(&mut self, deadline: Instant) -> Next {
        let resumed = lock(&self.resumed).take();
        if let Some(resumed) = resumed
            && resumed.thread == std::thread::current().id()
        {
            let used = thread_cpu_time().saturating_sub(resumed.cpu);
            self.running = self.running.saturating_add(used);
        }
        let mark = self.resumed.clone();
        let on_resume = move || *lock(&mark) = Some(Resumed::here());
        if !self.serving || self.running < self.share.busy_after {
            return Next::Run(Box::pin(async move {
                YieldOnce::default().await;
                on_resume();
            }));
        }
        let mut held = lock(&self.held);
        // A guest keeps its turn until it pauses, as a Node.js process runs
        // a callback to completion: handing turns over at every tick would
        // make a burst of guests crawl in lockstep.
        if held.is_none() {
            match self.share.turns.clone().try_acquire_owned() {
                Ok(permit) => *held = Some(permit),
                Err(_) => {
                    drop(held);
                    return self.wait_for_turn(deadline, on_resume);
                }
            }
        }
        Next::Run(Box::pin(async move {
            YieldOnce::default().await;
            on_resume();
        }))
    }

    fn wait_for_turn(&self, deadline: Instant, on_resume: impl FnOnce() + Send + 'static) -> Next {
        self.share.throttled.fetch_add(1, Ordering::Relaxed);
        let turns = self.share.turns.clone();
        let slot = self.held.clone();
        Next::Wait(Box::pin(async move {
            // A guest past its deadline goes back to be interrupted by the
            // next tick's check instead of waiting for a turn.
            if let Ok(Ok(permit)) = tokio::time::timeout_at(deadline.into(), turns.acquire_owned()).await {
                *lock(&slot) = Some(permit);
            }
            on_resume();
        }))
    }

    /// The guest took a request: from now on its busy stretches count.
    pub(crate) fn begin_request(&mut self) {
        self.serving = true;
        self.pause();
    }

    /// The guest stops running (it waits for I/O, a timer or its next
    /// request): its turn goes to another busy guest of its Function.
    pub(crate) fn release(&mut self) {
        self.pause();
        drop(lock(&self.held).take());
    }

    fn pause(&mut self) {
        self.running = Duration::ZERO;
        *lock(&self.resumed) = None;
    }
}

/// Pending once (asking to be polled again at once), then ready: gives the
/// executor thread to the other tasks queued on it.
#[derive(Default)]
struct YieldOnce {
    yielded: bool,
}

impl std::future::Future for YieldOnce {
    type Output = ();

    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<()> {
        if self.yielded {
            return std::task::Poll::Ready(());
        }
        self.yielded = true;
        cx.waker().wake_by_ref();
        std::task::Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Two guests of a one-core Function, both serving a request.
    fn two_guests(busy_after: Duration) -> (CpuShare, CpuTurn, CpuTurn) {
        let share = CpuShare::new(1).busy_after(busy_after);
        let mut first = CpuTurn::new(share.clone());
        first.begin_request();
        let mut second = CpuTurn::new(share.clone());
        second.begin_request();
        (share, first, second)
    }

    #[tokio::test]
    async fn a_busy_guest_waits_while_its_functions_cores_are_taken_and_runs_when_one_is_released() {
        let (share, mut first, mut second) = two_guests(Duration::ZERO);
        let deadline = Instant::now() + Duration::from_secs(5);
        assert!(matches!(first.next(deadline), Next::Run(_)));
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
        let (_, mut first, mut second) = two_guests(Duration::ZERO);
        let deadline = Instant::now() + Duration::from_secs(5);
        assert!(matches!(first.next(deadline), Next::Run(_)));
        let Next::Wait(waiting) = second.next(deadline) else {
            panic!("the second guest ran beside the first");
        };
        let waiter = tokio::spawn(waiting);
        // Tick after tick the first runs on; the second stays parked.
        for _ in 0..3 {
            assert!(matches!(first.next(deadline), Next::Run(_)));
        }
        tokio::task::yield_now().await;
        assert!(!waiter.is_finished());
        first.release();
        waiter.await.expect("the waiting guest's future");
        assert!(matches!(second.next(deadline), Next::Run(_)));
    }

    #[tokio::test]
    async fn a_waiting_guest_gives_up_at_its_deadline() {
        let (_, mut first, mut second) = two_guests(Duration::ZERO);
        assert!(matches!(
            first.next(Instant::now() + Duration::from_secs(5)),
            Next::Run(_)
        ));
        let Next::Wait(waiting) = second.next(Instant::now() + Duration::from_millis(20)) else {
            panic!("the second guest ran beside the first");
        };
        tokio::time::timeout(Duration::from_secs(5), waiting)
            .await
            .expect("the wait for a turn ends at the guest's deadline");
    }

    /// Uses about `cpu` of this thread's CPU time.
    fn spin(cpu: Duration) {
        let start = thread_cpu_time();
        while thread_cpu_time().saturating_sub(start) < cpu {
            std::hint::spin_loop();
        }
    }

    /// One tick: the guest's next step, its yield run through as the
    /// executor would before the guest goes on.
    async fn tick(guest: &mut CpuTurn, deadline: Instant) -> bool {
        match guest.next(deadline) {
            Next::Run(resume) => {
                resume.await;
                true
            }
            Next::Wait(_) => false,
        }
    }

    #[tokio::test]
    async fn a_guest_is_busy_only_after_using_cpu_time_without_a_pause() {
        let (share, mut first, mut second) = two_guests(Duration::from_millis(5));
        let deadline = Instant::now() + Duration::from_secs(5);
        assert!(tick(&mut first, deadline).await);
        spin(Duration::from_millis(6));
        // `first` is busy now and takes the Function's only turn.
        assert!(tick(&mut first, deadline).await);
        assert!(tick(&mut second, deadline).await);
        // Off the CPU (as the OS takes a thread away on a loaded machine)
        // is not busy, however many ticks pass meanwhile.
        std::thread::sleep(Duration::from_millis(30));
        assert!(tick(&mut second, deadline).await);
        assert_eq!(share.throttled(), 0);
        spin(Duration::from_millis(6));
        assert!(
            !tick(&mut second, deadline).await,
            "the second busy guest ran beside the first"
        );
        // A pause (I/O, the next request) starts the count again.
        second.release();
        assert!(tick(&mut second, deadline).await);
        assert_eq!(share.throttled(), 1);
    }

    #[test]
    fn a_share_has_at_least_one_core() {
        assert_eq!(CpuShare::new(0).cores(), 1);
        assert_eq!(CpuShare::new(3).cores(), 3);
    }
}
