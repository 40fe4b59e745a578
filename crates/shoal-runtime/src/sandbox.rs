//! Sandboxes: one `Store` with the engine and a Function instantiated in it,
//! serving requests one after another.
//!
//! The guest pulls its requests: the prelude calls `next_request` (an async
//! host function, so an idle sandbox is a parked fiber holding no thread),
//! reads the head (JSON) and body with `request_read` and hands the answer
//! back with `respond`. Callers speak whole envelope frames
//! (`shoal-envelope`); this module splits and joins them, so the guest
//! never copies a frame together. The host side of that is a queue of [`Job`]s. A fresh sandbox
//! per request is a queue holding one job and closed behind it; a warm
//! [`Sandbox`] keeps its queue open, so the Function's module is evaluated
//! once and its module-level state lives until the sandbox is dropped.
//!
//! A sandbox that traps, times out or runs out of memory ends there: its
//! current request gets the failure and nothing it did can reach another
//! request, because the node only ever sends work to a live sandbox.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use tokio::sync::{mpsc, oneshot};
use wasmtime::{Caller, Linker};
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};

use crate::host::{HOST_MODULE, guest_bytes, write_guest};
use crate::outbound::OutboundLimits;
use crate::{Invocation, InvokeError, RequestState};

/// Time a retired guest gets to return.
const RETIRE_GRACE: Duration = Duration::from_secs(1);

/// Limits of one request inside a sandbox.
#[derive(Debug, Clone, Copy)]
pub struct RequestLimits {
    /// Wall-clock time the request may take, counted from when the sandbox
    /// takes it.
    pub timeout: Duration,
    /// Largest response frame accepted, in bytes.
    pub max_output_bytes: usize,
    /// Bounds on the request's outbound HTTP.
    pub outbound: OutboundLimits,
}

/// A request waiting for, or being served by, a sandbox.
pub(crate) struct Job {
    pub(crate) frame: Bytes,
    pub(crate) limits: RequestLimits,
    pub(crate) reply: oneshot::Sender<Outcome>,
}

/// What became of a job.
pub(crate) enum Outcome {
    /// The sandbox took the request: its answer or failure.
    Served(Invocation),
    /// The sandbox ended before taking it; the frame comes back untouched so
    /// the caller can send it elsewhere.
    NotServed(Bytes),
}

/// The request a sandbox is serving now.
struct Current {
    /// Head and body, until the guest reads them.
    frame: Option<(Bytes, Bytes)>,
    reply: oneshot::Sender<Outcome>,
    taken: Instant,
    max_output_bytes: usize,
}

/// The host-side state of a sandbox's request queue.
pub(crate) struct Serving {
    jobs: Option<mpsc::Receiver<Job>>,
    current: Option<Current>,
    log: LogPipe,
    /// How long instantiation took, reported with the first request.
    instantiate_time: Option<Duration>,
    /// The timeout of the request being served (or last served).
    timeout: Duration,
    shared: Arc<Shared>,
}

impl Serving {
    pub(crate) fn new(jobs: mpsc::Receiver<Job>, log: LogPipe, shared: Arc<Shared>) -> Self {
        Self {
            jobs: Some(jobs),
            current: None,
            log,
            instantiate_time: None,
            timeout: Duration::ZERO,
            shared,
        }
    }

    pub(crate) fn timeout(&self) -> Duration {
        self.timeout
    }

    pub(crate) fn set_instantiate_time(&mut self, time: Duration) {
        self.instantiate_time = Some(time);
    }

    /// Ends the sandbox: the request in progress gets `error` (or, when the
    /// guest returned without answering it, a trap saying so) and queued
    /// requests come back unserved, or all get `error` when the sandbox never
    /// started.
    pub(crate) fn finish(&mut self, error: Option<InvokeError>, started: bool) {
        self.shared.alive.store(false, Ordering::Release);
        if let Some(current) = self.current.take() {
            let error = error
                .clone()
                .unwrap_or_else(|| InvokeError::Trap("the Function ended without answering the request".into()));
            self.answer(current, Bytes::new(), Some(error));
        }
        let Some(mut jobs) = self.jobs.take() else { return };
        jobs.close();
        while let Ok(job) = jobs.try_recv() {
            let outcome = match (&error, started) {
                (Some(e), false) => Outcome::Served(Invocation {
                    response: Bytes::new(),
                    logs: Bytes::new(),
                    error: Some(e.clone()),
                    instantiate_time: self.instantiate_time.unwrap_or_default(),
                    run_time: Duration::ZERO,
                }),
                _ => Outcome::NotServed(job.frame),
            };
            let _ = job.reply.send(outcome);
        }
    }

    fn answer(&mut self, current: Current, response: Bytes, error: Option<InvokeError>) {
        self.shared.served.fetch_add(1, Ordering::Relaxed);
        let invocation = Invocation {
            response,
            logs: self.log.take(),
            error,
            instantiate_time: self.instantiate_time.take().unwrap_or_default(),
            run_time: current.taken.elapsed(),
        };
        // The caller may have gone (its connection closed); nothing to do.
        let _ = current.reply.send(Outcome::Served(invocation));
    }
}

/// What a live sandbox shows its owner.
#[derive(Debug)]
pub(crate) struct Shared {
    pub(crate) alive: AtomicBool,
    pub(crate) served: AtomicU64,
    /// Current size of the sandbox's linear memory, in bytes.
    pub(crate) memory_bytes: Arc<AtomicUsize>,
    /// The JavaScript engine's initial memory (its data, the locale tables
    /// among it), mapped copy-on-write from one image every sandbox shares.
    pub(crate) image_bytes: usize,
}

impl Shared {
    pub(crate) fn new(image_bytes: usize) -> Arc<Self> {
        Arc::new(Self {
            alive: AtomicBool::new(true),
            served: AtomicU64::new(0),
            memory_bytes: Arc::new(AtomicUsize::new(0)),
            image_bytes,
        })
    }
}

/// The future running a sandbox's guest to its end.
pub(crate) type Driver = Pin<Box<dyn Future<Output = ()> + Send>>;

/// A warm sandbox: the Function's module evaluated once, serving requests
/// one at a time until it is dropped or fails. Made by
/// [`crate::Runtime::start_sandbox`].
///
/// It runs no task of its own: the caller of [`Sandbox::invoke`] polls the
/// guest until it answers, so a request is served on the thread that
/// received it with no hand-off between threads, and an idle sandbox is
/// just memory. Dropping it drops the parked guest with its store.
pub struct Sandbox {
    jobs: mpsc::Sender<Job>,
    shared: Arc<Shared>,
    driver: tokio::sync::Mutex<Option<Driver>>,
}

impl Sandbox {
    pub(crate) fn new(jobs: mpsc::Sender<Job>, shared: Arc<Shared>, driver: Driver) -> Self {
        Self {
            jobs,
            shared,
            driver: tokio::sync::Mutex::new(Some(driver)),
        }
    }

    /// Serves one request. The sandbox must not be serving another one (the
    /// caller owns it while it waits).
    ///
    /// # Errors
    ///
    /// Gives `input` back when the sandbox ended before taking the request
    /// (it had failed or chose to stop): send it to another sandbox.
    pub async fn invoke(&self, input: Bytes, limits: RequestLimits) -> Result<Invocation, Bytes> {
        let mut driver = self.driver.lock().await;
        let Some(run) = driver.as_mut() else {
            return Err(input);
        };
        let (reply, mut answer) = oneshot::channel();
        let job = Job {
            frame: input,
            limits,
            reply,
        };
        if let Err(refused) = self.jobs.try_send(job) {
            let job = match refused {
                mpsc::error::TrySendError::Full(job) | mpsc::error::TrySendError::Closed(job) => job,
            };
            return Err(job.frame);
        }
        let outcome = tokio::select! {
            biased;
            outcome = &mut answer => outcome,
            () = run.as_mut() => {
                // The guest ended (failed, or returned): it answered the
                // job or gave it back on its way out.
                *driver = None;
                answer.await
            }
        };
        match outcome {
            Ok(Outcome::Served(invocation)) => Ok(invocation),
            Ok(Outcome::NotServed(frame)) => Err(frame),
            Err(_) => Ok(Invocation::failed(InvokeError::Trap("the sandbox was stopped".into()))),
        }
    }

    /// Ends the sandbox the cheap way: the guest is told there are no more
    /// requests and returns, and this waits for it. (Dropping a sandbox
    /// instead cancels its parked fiber, which wasmtime reports with an
    /// error it builds, a backtrace included when `RUST_BACKTRACE` is set:
    /// with thousands of modules loaded, each such unwind walks all their
    /// unwind tables.)
    pub async fn retire(self) {
        let Self { jobs, driver, .. } = self;
        drop(jobs);
        if let Some(run) = driver.into_inner() {
            run.await;
        }
    }

    /// Whether the sandbox can take another request: it has not failed or
    /// ended.
    pub fn is_alive(&self) -> bool {
        self.shared.alive.load(Ordering::Acquire)
    }

    /// Requests it has answered.
    pub fn served(&self) -> u64 {
        self.shared.served.load(Ordering::Relaxed)
    }

    /// Size of its linear memory now, in bytes.
    pub fn memory_bytes(&self) -> usize {
        self.shared.memory_bytes.load(Ordering::Relaxed)
    }

    /// The part of its linear memory beyond the engine's shared initial
    /// image: what keeping it warm costs on top of every other sandbox (the
    /// image's pages are shared until written, and most are read-only data).
    pub fn private_memory_bytes(&self) -> usize {
        self.memory_bytes().saturating_sub(self.shared.image_bytes)
    }
}

/// Console output of a sandbox, handed out per request. Output beyond the
/// cap is dropped (and said so once) rather than failing the guest's write.
#[derive(Clone)]
pub(crate) struct LogPipe {
    inner: Arc<Mutex<LogBuffer>>,
    cap: usize,
}

#[derive(Default)]
struct LogBuffer {
    bytes: Vec<u8>,
    dropped: bool,
}

impl LogPipe {
    pub(crate) fn new(cap: usize) -> Self {
        Self {
            inner: Arc::new(Mutex::new(LogBuffer::default())),
            cap,
        }
    }

    fn take(&self) -> Bytes {
        match self.inner.lock() {
            Ok(mut b) => {
                b.dropped = false;
                Bytes::from(std::mem::take(&mut b.bytes))
            }
            Err(_) => Bytes::new(),
        }
    }
}

impl IsTerminal for LogPipe {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for LogPipe {
    fn async_stream(&self) -> Box<dyn tokio::io::AsyncWrite + Send + Sync> {
        Box::new(self.clone())
    }
}

impl tokio::io::AsyncWrite for LogPipe {
    fn poll_write(self: Pin<&mut Self>, _: &mut Context<'_>, data: &[u8]) -> Poll<std::io::Result<usize>> {
        if let Ok(mut log) = self.inner.lock() {
            let room = self.cap.saturating_sub(log.bytes.len());
            if data.len() <= room {
                log.bytes.extend_from_slice(data);
            } else if !log.dropped {
                log.bytes.extend_from_slice(&data[..room]);
                log.bytes
                    .extend_from_slice(b"\n[shoal: the rest of this request's console output was dropped]\n");
                log.dropped = true;
            }
        }
        // Always "written": a full log must not fail the Function.
        Poll::Ready(Ok(data.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

/// An envelope frame's head and body (a malformed frame gives its bytes as
/// the head, which the guest then refuses with a clear error).
fn split_frame(frame: &Bytes) -> (Bytes, Bytes) {
    if frame.len() >= 4 {
        let head_len = u32::from_le_bytes([frame[0], frame[1], frame[2], frame[3]]) as usize;
        if let Some(end) = head_len.checked_add(4).filter(|end| *end <= frame.len()) {
            return (frame.slice(4..end), frame.slice(end..));
        }
    }
    (frame.clone(), Bytes::new())
}

/// Adds `next_request`, `request_read` and `respond` to `linker`.
pub(crate) fn add_to_linker(linker: &mut Linker<RequestState>) -> wasmtime::Result<()> {
    linker.func_wrap_async(
        HOST_MODULE,
        "next_request",
        |mut caller: Caller<'_, RequestState>, (out,): (i32,)| {
            Box::new(async move {
                caller.data_mut().cpu.release();
                let serving = &mut caller.data_mut().serving;
                if let Some(current) = serving.current.take() {
                    let error = InvokeError::Trap("the Function asked for a request without answering one".into());
                    serving.answer(current, Bytes::new(), Some(error));
                }
                let Some(mut jobs) = serving.jobs.take() else {
                    return Ok(0);
                };
                let job = jobs.recv().await;
                let state = caller.data_mut();
                state.serving.jobs = Some(jobs);
                let Some(job) = job else {
                    // Retired: a moment to return, whatever the last
                    // request's deadline was.
                    state.deadline = Instant::now() + RETIRE_GRACE;
                    return Ok(0);
                };
                let (head, body) = split_frame(&job.frame);
                let mut sizes = [0u8; 8];
                sizes[..4].copy_from_slice(&(head.len() as u32).to_le_bytes());
                sizes[4..].copy_from_slice(&(body.len() as u32).to_le_bytes());
                state.cpu.begin_request();
                state.deadline = crate::limits::deadline_after(job.limits.timeout);
                state.serving.timeout = job.limits.timeout;
                state.calls.begin_request(job.limits.outbound);
                state.serving.current = Some(Current {
                    frame: Some((head, body)),
                    reply: job.reply,
                    taken: Instant::now(),
                    max_output_bytes: job.limits.max_output_bytes,
                });
                write_guest(&mut caller, out, &sizes)?;
                Ok(1)
            })
        },
    )?;
    linker.func_wrap(
        HOST_MODULE,
        "request_read",
        |mut caller: Caller<'_, RequestState>, head_ptr: i32, body_ptr: i32| -> wasmtime::Result<i32> {
            let Some((head, body)) = caller.data_mut().serving.current.as_mut().and_then(|c| c.frame.take()) else {
                return Ok(-1);
            };
            write_guest(&mut caller, head_ptr, &head)?;
            write_guest(&mut caller, body_ptr, &body)?;
            Ok(0)
        },
    )?;
    linker.func_wrap(
        HOST_MODULE,
        "respond",
        |mut caller: Caller<'_, RequestState>,
         head_ptr: i32,
         head_len: i32,
         body_ptr: i32,
         body_len: i32|
         -> wasmtime::Result<i32> {
            let Some(current) = caller.data_mut().serving.current.take() else {
                return Ok(-1);
            };
            let limit = current.max_output_bytes;
            let size = (head_len as u32 as usize).saturating_add(body_len as u32 as usize) + 4;
            let (response, error) = if size > limit {
                (
                    Bytes::new(),
                    Some(InvokeError::Trap(format!(
                        "the response is larger than the node's limit of {limit} bytes"
                    ))),
                )
            } else {
                let head = guest_bytes(&mut caller, head_ptr, head_len)?;
                let body = guest_bytes(&mut caller, body_ptr, body_len)?;
                let mut frame = Vec::with_capacity(size);
                frame.extend_from_slice(&(head.len() as u32).to_le_bytes());
                frame.extend_from_slice(&head);
                frame.extend_from_slice(&body);
                (Bytes::from(frame), None)
            };
            caller.data_mut().serving.answer(current, response, error);
            Ok(0)
        },
    )?;
    Ok(())
}
