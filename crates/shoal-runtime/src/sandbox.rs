//! Sandboxes: one `Store` with the engine and a Function instantiated in it,
//! serving requests one after another.
//!
//! The guest pulls its requests: the prelude calls `next_request` (an async
//! host function, so an idle sandbox is a parked fiber holding no thread),
//! reads the head (JSON) and body with `request_read` and hands the answer
//! back with `respond` (`shoal_engine::abi`). Heads and bodies travel as
//! they are: nothing is framed or copied together on the way. The host side
//! of that is a queue of [`Delivery`]s (a request and where its answer goes). A fresh sandbox
//! per request is a queue holding one delivery and closed behind it; a warm
//! [`Sandbox`] keeps its queue open, so the Function's module is evaluated
//! once and its module-level state lives until the sandbox is dropped.
//!
//! A sandbox that traps, times out or runs out of memory ends there: its
//! current request gets the failure and nothing it did can reach another
//! request, because the node only ever sends work to a live sandbox.

use std::collections::VecDeque;
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

use shoal_engine::abi;

use crate::host::{guest_bytes, write_guest};
use crate::outbound::OutboundLimits;
use crate::{GuestRequest, Invocation, InvokeError, SandboxState};

/// Time a retired guest gets to return.
const RETIRE_GRACE: Duration = Duration::from_secs(1);

/// Limits of one request inside a sandbox.
#[derive(Debug, Clone, Copy)]
pub struct RequestLimits {
    /// Wall-clock time the request may take, counted from when the sandbox
    /// takes it.
    pub timeout: Duration,
    /// Largest response (head and body) accepted, in bytes.
    pub max_response_bytes: usize,
    /// Bounds on the request's outbound HTTP.
    pub outbound: OutboundLimits,
}

/// A request waiting for, or being served by, a sandbox.
pub(crate) struct Delivery {
    pub(crate) request: GuestRequest,
    pub(crate) limits: RequestLimits,
    pub(crate) reply: oneshot::Sender<Outcome>,
    /// A load-only delivery (`"load": true`, [`crate::snapshot`]): its
    /// answer is the load's outcome, and the console output stays for the
    /// first request.
    pub(crate) load: bool,
}

/// What became of a delivery.
pub(crate) enum Outcome {
    /// The sandbox took the request: its answer or failure.
    Served(Invocation),
    /// The sandbox ended before taking it; the request comes back untouched
    /// so the caller can send it elsewhere.
    NotServed(GuestRequest),
}

/// The request a sandbox is serving now.
struct Current {
    /// Head and body, until the guest reads them.
    request: Option<GuestRequest>,
    reply: oneshot::Sender<Outcome>,
    taken: Instant,
    max_response_bytes: usize,
    load: bool,
}

/// The host-side state of a sandbox's request queue.
pub(crate) struct Serving {
    /// Deliveries the host put in front of the queue (a load-only delivery
    /// and the request that made the sandbox start).
    ahead: VecDeque<Delivery>,
    deliveries: Option<mpsc::Receiver<Delivery>>,
    current: Option<Current>,
    log: LogPipe,
    /// How long instantiation took, reported with the first request.
    instantiate_time: Option<Duration>,
    /// How long a load-only delivery took, reported with the first request.
    load_time: Option<Duration>,
    /// The timeout of the request being served (or last served).
    timeout: Duration,
    shared: Arc<Shared>,
}

impl Serving {
    pub(crate) fn new(deliveries: mpsc::Receiver<Delivery>, log: LogPipe, shared: Arc<Shared>) -> Self {
        Self {
            ahead: VecDeque::new(),
            deliveries: Some(deliveries),
            current: None,
            log,
            instantiate_time: None,
            load_time: None,
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

    /// The sandbox's first delivery, taken from the queue before the guest
    /// starts (None when the queue closed empty).
    pub(crate) async fn first(&mut self) -> Option<&Delivery> {
        if self.ahead.is_empty() {
            let delivery = self.deliveries.as_mut()?.recv().await?;
            self.ahead.push_back(delivery);
        }
        self.ahead.front()
    }

    /// The limits of the first delivery waiting.
    pub(crate) fn first_limits(&self) -> Option<RequestLimits> {
        self.ahead.front().map(|delivery| delivery.limits)
    }

    /// The load-only delivery is done with, answered or not.
    pub(crate) fn forget_load(&mut self) {
        if self.current.as_ref().is_some_and(|current| current.load) {
            self.current = None;
        }
    }

    /// Puts `delivery` in front of every other.
    pub(crate) fn push_front(&mut self, delivery: Delivery) {
        self.ahead.push_front(delivery);
    }

    /// A load-only delivery was answered in `time` (the load failed, or its
    /// state is not portable).
    pub(crate) fn set_load_time(&mut self, time: Duration) {
        self.load_time = Some(time);
    }

    /// Ends a sandbox whose load failed: the request that started it gets
    /// `head`, `body` and `error` as the load produced them (a 500 "User
    /// function not loaded", a timeout), with the load's console output,
    /// as it would have without snapshots; later requests come back unserved.
    pub(crate) fn fail_load(&mut self, head: Bytes, body: Bytes, error: Option<InvokeError>) {
        self.current = None;
        if let Some(first) = self.ahead.pop_front() {
            let current = Current {
                request: None,
                reply: first.reply,
                taken: Instant::now(),
                max_response_bytes: first.limits.max_response_bytes,
                load: false,
            };
            self.answer(current, head, body, error);
        }
        self.finish(None, true);
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
            self.answer(current, Bytes::new(), Bytes::new(), Some(error));
        }
        let mut queued: Vec<Delivery> = self.ahead.drain(..).filter(|d| !d.load).collect();
        if let Some(mut deliveries) = self.deliveries.take() {
            deliveries.close();
            while let Ok(delivery) = deliveries.try_recv() {
                queued.push(delivery);
            }
        }
        for delivery in queued {
            let outcome = match (&error, started) {
                (Some(e), false) => Outcome::Served(Invocation {
                    head: Bytes::new(),
                    body: Bytes::new(),
                    logs: Bytes::new(),
                    error: Some(e.clone()),
                    instantiate_time: self.instantiate_time.unwrap_or_default(),
                    load_time: Duration::ZERO,
                    run_time: Duration::ZERO,
                }),
                _ => Outcome::NotServed(delivery.request),
            };
            let _ = delivery.reply.send(outcome);
        }
    }

    fn answer(&mut self, current: Current, head: Bytes, body: Bytes, error: Option<InvokeError>) {
        if current.load {
            // The load's outcome, read by the host; its output is the first
            // request's.
            let invocation = Invocation {
                head,
                body,
                error,
                run_time: current.taken.elapsed(),
                ..Invocation::failed(InvokeError::NoSlot)
            };
            let _ = current.reply.send(Outcome::Served(invocation));
            return;
        }
        self.shared.served.fetch_add(1, Ordering::Relaxed);
        let invocation = Invocation {
            head,
            body,
            logs: self.log.take(),
            error,
            instantiate_time: self.instantiate_time.take().unwrap_or_default(),
            load_time: self.load_time.take().unwrap_or_default(),
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
    deliveries: mpsc::Sender<Delivery>,
    shared: Arc<Shared>,
    driver: tokio::sync::Mutex<Option<Driver>>,
}

impl Sandbox {
    pub(crate) fn new(deliveries: mpsc::Sender<Delivery>, shared: Arc<Shared>, driver: Driver) -> Self {
        Self {
            deliveries,
            shared,
            driver: tokio::sync::Mutex::new(Some(driver)),
        }
    }

    /// Serves one request. The sandbox must not be serving another one (the
    /// caller owns it while it waits).
    ///
    /// # Errors
    ///
    /// Gives `request` back when the sandbox ended before taking it (it
    /// had failed or chose to stop): send it to another sandbox.
    pub async fn invoke(&self, request: GuestRequest, limits: RequestLimits) -> Result<Invocation, GuestRequest> {
        let mut driver = self.driver.lock().await;
        let Some(run) = driver.as_mut() else {
            return Err(request);
        };
        let (reply, mut answer) = oneshot::channel();
        let delivery = Delivery {
            request,
            limits,
            reply,
            load: false,
        };
        if let Err(refused) = self.deliveries.try_send(delivery) {
            let delivery = match refused {
                mpsc::error::TrySendError::Full(delivery) | mpsc::error::TrySendError::Closed(delivery) => delivery,
            };
            return Err(delivery.request);
        }
        let outcome = tokio::select! {
            biased;
            outcome = &mut answer => outcome,
            () = run.as_mut() => {
                // The guest ended (failed, or returned): it answered the
                // delivery or gave it back on its way out.
                *driver = None;
                answer.await
            }
        };
        match outcome {
            Ok(Outcome::Served(invocation)) => Ok(invocation),
            Ok(Outcome::NotServed(request)) => Err(request),
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
        let Self { deliveries, driver, .. } = self;
        drop(deliveries);
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

/// Adds `next_request`, `request_read` and `respond` to `linker`.
pub(crate) fn add_to_linker(linker: &mut Linker<SandboxState>) -> wasmtime::Result<()> {
    linker.func_wrap_async(
        abi::MODULE,
        abi::NEXT_REQUEST.name,
        |mut caller: Caller<'_, SandboxState>, (out,): (i32,)| {
            Box::new(async move {
                caller.data_mut().cpu.release();
                let serving = &mut caller.data_mut().serving;
                if let Some(current) = serving.current.take() {
                    let error = InvokeError::Trap("the Function asked for a request without answering one".into());
                    serving.answer(current, Bytes::new(), Bytes::new(), Some(error));
                }
                let delivery = match serving.ahead.pop_front() {
                    Some(delivery) => Some(delivery),
                    None => {
                        let Some(mut deliveries) = serving.deliveries.take() else {
                            return Ok(0);
                        };
                        let delivery = deliveries.recv().await;
                        caller.data_mut().serving.deliveries = Some(deliveries);
                        delivery
                    }
                };
                let Some(delivery) = delivery else {
                    // Retired: a moment to return, whatever the last
                    // request's deadline was.
                    caller.data_mut().deadline = Instant::now() + RETIRE_GRACE;
                    // Whoever waits for the last answer gets it now: the
                    // guest's return and the store's teardown need not
                    // delay it (`Runtime::invoke_with` moves them to a task
                    // of their own).
                    tokio::task::yield_now().await;
                    return Ok(0);
                };
                let state = caller.data_mut();
                let (Ok(head_len), Ok(body_len)) = (
                    u32::try_from(delivery.request.head.len()),
                    u32::try_from(delivery.request.body.len()),
                ) else {
                    let error = InvokeError::Trap("the request is larger than 4 GiB".into());
                    let _ = delivery.reply.send(Outcome::Served(Invocation::failed(error)));
                    return Ok(0);
                };
                let mut sizes = [0u8; 8];
                sizes[..4].copy_from_slice(&head_len.to_le_bytes());
                sizes[4..].copy_from_slice(&body_len.to_le_bytes());
                state.cpu.begin_request();
                state.deadline = crate::limits::deadline_after(delivery.limits.timeout);
                state.serving.timeout = delivery.limits.timeout;
                state
                    .calls
                    .begin_request(delivery.limits.outbound, delivery.request.trace.clone());
                state.serving.current = Some(Current {
                    request: Some(delivery.request),
                    reply: delivery.reply,
                    taken: Instant::now(),
                    max_response_bytes: delivery.limits.max_response_bytes,
                    load: delivery.load,
                });
                write_guest(&mut caller, out, &sizes)?;
                Ok(1)
            })
        },
    )?;
    linker.func_wrap(
        abi::MODULE,
        abi::REQUEST_READ.name,
        |mut caller: Caller<'_, SandboxState>, head_ptr: i32, body_ptr: i32| -> wasmtime::Result<i32> {
            let Some(request) = caller
                .data_mut()
                .serving
                .current
                .as_mut()
                .and_then(|c| c.request.take())
            else {
                return Ok(-1);
            };
            write_guest(&mut caller, head_ptr, &request.head)?;
            write_guest(&mut caller, body_ptr, &request.body)?;
            Ok(0)
        },
    )?;
    linker.func_wrap(
        abi::MODULE,
        abi::RESPOND.name,
        |mut caller: Caller<'_, SandboxState>,
         head_ptr: i32,
         head_len: i32,
         body_ptr: i32,
         body_len: i32|
         -> wasmtime::Result<i32> {
            let Some(current) = caller.data_mut().serving.current.take() else {
                return Ok(-1);
            };
            let limit = current.max_response_bytes;
            let size = (head_len as u32 as usize).saturating_add(body_len as u32 as usize);
            let (head, body, error) = if size > limit {
                let error = InvokeError::Trap(format!("the response is larger than the node's limit of {limit} bytes"));
                (Bytes::new(), Bytes::new(), Some(error))
            } else {
                let head = guest_bytes(&mut caller, head_ptr, head_len)?;
                let body = guest_bytes(&mut caller, body_ptr, body_len)?;
                (Bytes::from(head), Bytes::from(body), None)
            };
            caller.data_mut().serving.answer(current, head, body, error);
            Ok(0)
        },
    )?;
    Ok(())
}
