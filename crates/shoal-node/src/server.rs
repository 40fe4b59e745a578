//! The HTTP side of a node: hyper 1 over HTTP/1.1 and h2c, the Kyma
//! contract's node-level routes, limits, and graceful shutdown.

use std::{
    collections::BTreeMap,
    convert::Infallible,
    future::Future,
    net::SocketAddr,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use bytes::Bytes;
use http::{HeaderMap, HeaderValue, Method, Request, Response, StatusCode, header};
use http_body_util::{BodyExt, Full};
use hyper::body::Body;
use hyper_util::rt::{TokioExecutor, TokioIo};
use shoal_envelope::{FunctionContext, RequestHead, ResponseHead};
use shoal_runtime::{
    BufferAccount, BufferCharge, FunctionKey, FunctionModule, GuestRequest, Invocation, InvokeContext, InvokeError,
    InvokeLimits,
};
use tokio::net::TcpListener;

use crate::readiness::LoadGate;
use crate::traces::InvocationSpan;
use crate::{
    functions::{FunctionEntry, FunctionTable},
    metrics::{self, NodeGauges},
    ports::{Accepted, PortListeners},
    routing,
};

/// What a request does at its Function's concurrency cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// 503 with Retry-After (a caller over HTTP).
    Refuse,
    /// Wait for one (a delivery made inside the node).
    Wait,
}

/// Settings of the HTTP server.
#[derive(Debug, Clone)]
pub struct NodeConfig {
    /// Namespace of bare-name Hosts.
    pub default_namespace: String,
    /// PUBLISHER_PROXY_ADDRESS handed to Functions: where `emitCloudEvent`
    /// posts (from the sandbox, through the runtime's outbound client).
    pub publisher_proxy: String,
    /// TRACE_COLLECTOR_ENDPOINT handed to Functions.
    pub trace_collector: String,
    /// Where the node's spans go when it records traces: a span per
    /// invocation, a client span per outbound HTTP call, and the
    /// Function's own. None records nothing and costs nothing.
    pub traces: Option<shoal_telemetry::SpanSink>,
    /// Largest response a Function may write.
    pub max_response_bytes: usize,
    /// How long a stopping node goes on accepting before it closes its
    /// listener. It stays ready meanwhile: the controller lists it as a
    /// terminating endpoint, which proxies use only while no other node is
    /// ready, so a node replaced at once keeps answering until its
    /// replacement does.
    pub drain_delay: Duration,
    /// How long in-flight requests get to finish on shutdown.
    pub drain_timeout: Duration,
    /// Sandbox slots of the runtime's pool (reported in /metrics).
    pub pool_slots: u64,
    /// Functions with /metrics series of their own at most (the most
    /// called); the rest are summed into one series.
    pub metrics_max_functions: usize,
    /// Bounds on each invocation's outbound HTTP.
    pub outbound: shoal_runtime::OutboundLimits,
    /// How long a client may take to send a request's headers before its
    /// connection is closed (Node's `headersTimeout` is 60 s).
    pub header_read_timeout: Duration,
    /// Connections the node holds at once; one past it is closed at accept.
    pub max_connections: usize,
    /// Bytes of bodies the node holds outside its sandboxes at once, across
    /// all Functions: inbound request bodies (read before a Function's
    /// concurrency slot is taken, so slow senders cost memory, never a
    /// slot), outbound request bodies, and outbound responses and socket
    /// reads until the guest takes them, and each Function's answer until
    /// its caller has read it ([`shoal_runtime::BufferAccount`]).
    pub max_buffered_body_bytes: usize,
}

impl Default for NodeConfig {
    fn default() -> Self {
        Self {
            default_namespace: "default".into(),
            publisher_proxy: "http://eventing-publisher-proxy.kyma-system.svc.cluster.local/publish".into(),
            trace_collector: String::new(),
            traces: None,
            max_response_bytes: 64 << 20,
            drain_delay: Duration::ZERO,
            drain_timeout: Duration::from_secs(30),
            pool_slots: 0,
            metrics_max_functions: 10_000,
            outbound: shoal_runtime::OutboundLimits::default(),
            header_read_timeout: Duration::from_secs(30),
            max_connections: 16_384,
            max_buffered_body_bytes: 512 << 20,
        }
    }
}

/// Drops warm sandboxes that went idle, a few times per TTL.
async fn sweep_warm_sandboxes(table: Arc<FunctionTable>) {
    let every = (table.warm_config().idle_ttl / 4).clamp(Duration::from_millis(100), Duration::from_secs(15));
    loop {
        tokio::time::sleep(every).await;
        let dropped = table.sweep_warm();
        if dropped > 0 {
            tracing::debug!(dropped, "idle warm sandboxes dropped");
        }
    }
}

/// Most of a refused body read (and dropped) before the 413 goes out.
const DRAIN_BYTES: usize = 64 << 20;
/// Longest wait for it.
const DRAIN_TIME: Duration = Duration::from_secs(5);

/// Idle warm sandboxes one request may retire for a pool slot before it is
/// answered 503: enough to outlast the concurrent requests that take the
/// slots it frees, bounded so that one request never empties the node's
/// warm sandboxes.
const MAX_SLOT_RECLAIMS: u32 = 16;

/// Reads and drops what is left of a refused request body (up to
/// [`DRAIN_BYTES`], for at most [`DRAIN_TIME`]), so a client still sending
/// it reads the 413 instead of a reset connection, as Node's server does.
async fn drain<B: Body<Data = Bytes>>(body: B) {
    let mut body = std::pin::pin!(body);
    let deadline = tokio::time::Instant::now() + DRAIN_TIME;
    let mut seen = 0usize;
    while let Ok(Some(Ok(frame))) = tokio::time::timeout_at(deadline, body.frame()).await {
        seen += frame.data_ref().map_or(0, |d| d.len());
        if seen > DRAIN_BYTES {
            return;
        }
    }
}

struct AbortOnDrop(tokio::task::AbortHandle);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// A node: the Function table behind an HTTP server.
pub struct Node {
    table: Arc<FunctionTable>,
    config: NodeConfig,
    /// False once shutting down.
    /// Open once the Functions assigned to the node are loaded.
    loaded: LoadGate,
    in_flight: AtomicU64,
    /// Requests numbered so far (request ids the node makes up).
    requests: AtomicU64,
    /// One permit per open connection ([`NodeConfig::max_connections`]).
    connections: Arc<tokio::sync::Semaphore>,
    /// The bodies held ([`NodeConfig::max_buffered_body_bytes`]).
    buffers: BufferAccount,
}

type HttpResponse = Response<Full<Bytes>>;

impl Node {
    /// A node serving `table`, ready at once.
    pub fn new(table: Arc<FunctionTable>, config: NodeConfig) -> Arc<Self> {
        Self::with_load_gate(table, config, LoadGate::open())
    }

    /// A node serving `table` that reports ready (`/readyz`) only once
    /// `loaded` opens.
    pub fn with_load_gate(table: Arc<FunctionTable>, config: NodeConfig, loaded: LoadGate) -> Arc<Self> {
        let connections = Arc::new(tokio::sync::Semaphore::new(
            config.max_connections.clamp(1, tokio::sync::Semaphore::MAX_PERMITS),
        ));
        let buffers = BufferAccount::new(config.max_buffered_body_bytes);
        Arc::new(Self {
            table,
            config,
            loaded,
            in_flight: AtomicU64::new(0),
            requests: AtomicU64::new(0),
            connections,
            buffers,
        })
    }

    /// The Functions served.
    pub fn table(&self) -> &Arc<FunctionTable> {
        &self.table
    }

    /// Serves connections from `listener` until `shutdown` completes, then
    /// goes on accepting for the drain delay, then stops accepting and
    /// drains in-flight requests.
    /// Functions with a port of their own ([`crate::FunctionConfig::port`])
    /// are also served on it, on the listener's address, whatever the Host.
    pub async fn serve(
        self: Arc<Self>,
        listener: TcpListener,
        shutdown: impl Future<Output = ()>,
    ) -> std::io::Result<()> {
        let graceful = hyper_util::server::graceful::GracefulShutdown::new();
        let mut builder = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new());
        // A client that never finishes its headers holds a connection, never
        // a Function's slot; this bounds how long.
        builder
            .http1()
            .timer(hyper_util::rt::TokioTimer::new())
            .header_read_timeout(self.config.header_read_timeout);
        tokio::pin!(shutdown);
        let _sweeper = AbortOnDrop(tokio::spawn(sweep_warm_sandboxes(self.table.clone())).abort_handle());
        let (to_server, mut on_function_port) = tokio::sync::mpsc::channel::<Accepted>(1024);
        let mut ports = PortListeners::new(listener.local_addr()?.ip(), to_server);
        let mut table_changes = self.table.subscribe();
        ports.sync(&self.table.ports());
        let serve_connection = |stream: tokio::net::TcpStream, peer: SocketAddr, pinned: Option<FunctionKey>| {
            let Ok(connection_permit) = self.connections.clone().try_acquire_owned() else {
                tracing::warn!(%peer, limit = self.config.max_connections, "connection limit reached; closing a new connection");
                return;
            };
            let _ = stream.set_nodelay(true);
            let node = self.clone();
            let service = hyper::service::service_fn(move |req| {
                let node = node.clone();
                let pinned = pinned.clone();
                async move { Ok::<_, Infallible>(node.handle_on(req, peer, pinned.as_ref(), Slot::Refuse).await) }
            });
            let conn = builder.serve_connection_with_upgrades(TokioIo::new(stream), service);
            let conn = graceful.watch(conn.into_owned());
            tokio::spawn(async move {
                if let Err(e) = conn.await {
                    tracing::debug!(error = %e, "connection ended with an error");
                }
                drop(connection_permit);
            });
        };
        loop {
            tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok((stream, peer)) => serve_connection(stream, peer, None),
                    Err(e) => {
                        tracing::warn!(error = %e, "accept failed");
                        tokio::time::sleep(Duration::from_millis(10)).await;
                    }
                },
                Some(a) = on_function_port.recv() => serve_connection(a.stream, a.peer, Some(a.function)),
                Ok(()) = table_changes.changed() => ports.sync(&self.table.ports()),
                // A port that was busy is tried again.
                () = tokio::time::sleep(Duration::from_secs(5)), if ports.has_failures() => ports.sync(&self.table.ports()),
                () = &mut shutdown => break,
            }
        }
        tracing::info!(
            in_flight = self.in_flight.load(Ordering::Relaxed),
            "shutting down: accepting for the drain delay, then draining"
        );
        if !self.config.drain_delay.is_zero() {
            // Keep accepting while endpoints are updated to exclude this node.
            let until = tokio::time::Instant::now() + self.config.drain_delay;
            while tokio::time::Instant::now() < until {
                tokio::select! {
                    accepted = listener.accept() => if let Ok((stream, peer)) = accepted {
                        serve_connection(stream, peer, None);
                    },
                    Some(a) = on_function_port.recv() => serve_connection(a.stream, a.peer, Some(a.function)),
                    () = tokio::time::sleep_until(until) => {}
                }
            }
        }
        drop(listener);
        ports.close_all();
        match tokio::time::timeout(self.config.drain_timeout, graceful.shutdown()).await {
            Ok(()) => tracing::info!("all connections drained"),
            Err(_) => tracing::warn!("drain timeout reached with connections still open"),
        }
        Ok(())
    }

    /// Handles one request that arrived on the node's own port: the
    /// Function is chosen by Host or path.
    pub async fn handle<B>(self: &Arc<Self>, req: Request<B>, peer: SocketAddr) -> HttpResponse
    where
        B: Body<Data = Bytes> + Send,
        B::Error: std::error::Error + Send + Sync + 'static,
    {
        self.handle_on(req, peer, None, Slot::Refuse).await
    }

    /// Serves a request made inside the node to one Function (an event
    /// delivered to its Subscription's sink), as one arriving on the
    /// Function's own port: same limits, timeout, metrics and answer, except
    /// that at the Function's concurrency cap it waits for a slot instead of
    /// answering 503 (the delivery's own in-flight limit bounds the wait;
    /// a 503 would only bring the event back after the retry delay).
    pub async fn handle_for<B>(self: &Arc<Self>, key: &FunctionKey, req: Request<B>) -> HttpResponse
    where
        B: Body<Data = Bytes> + Send,
        B::Error: std::error::Error + Send + Sync + 'static,
    {
        let inside = SocketAddr::from(([127, 0, 0, 1], 0));
        self.handle_on(req, inside, Some(key), Slot::Wait).await
    }

    /// Handles one request; `pinned` is the Function whose port it arrived
    /// on (then Host and path do not choose).
    async fn handle_on<B>(
        self: &Arc<Self>,
        req: Request<B>,
        peer: SocketAddr,
        pinned: Option<&FunctionKey>,
        slot: Slot,
    ) -> HttpResponse
    where
        B: Body<Data = Bytes> + Send,
        B::Error: std::error::Error + Send + Sync + 'static,
    {
        let path = req.uri().path().to_string();
        let host = req
            .headers()
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .map(str::to_string)
            .or_else(|| req.uri().authority().map(|a| a.to_string()))
            .unwrap_or_default();
        match (req.method(), path.as_str()) {
            (&Method::GET, "/healthz") => return text(StatusCode::OK, "OK"),
            (&Method::GET, "/readyz") => {
                return if !self.loaded.is_open() {
                    text(
                        StatusCode::SERVICE_UNAVAILABLE,
                        "loading the Functions assigned to this node",
                    )
                } else {
                    text(StatusCode::OK, "OK")
                };
            }
            (&Method::GET, "/metrics") => {
                let gauges = NodeGauges {
                    in_flight: self.in_flight.load(Ordering::Relaxed),
                    pool_slots: self.config.pool_slots,
                    max_function_series: self.config.metrics_max_functions,
                    spans: self.config.traces.as_ref().map(|sink| {
                        let stats = sink.stats();
                        [
                            stats.exported.load(Ordering::Relaxed),
                            stats.dropped.load(Ordering::Relaxed),
                            stats.failed.load(Ordering::Relaxed),
                        ]
                    }),
                };
                let mut r = text(StatusCode::OK, metrics::render(&self.table, &gauges, pinned));
                r.headers_mut()
                    .insert(header::CONTENT_TYPE, HeaderValue::from_static(metrics::CONTENT_TYPE));
                return r;
            }
            (_, "/favicon.ico") => {
                return with_cors(Response::builder().status(StatusCode::NO_CONTENT).body(Full::default()));
            }
            _ => {}
        }
        let resolved = match pinned {
            Some(key) => Ok(routing::Target {
                key: key.clone(),
                path: path.clone(),
            }),
            None => routing::resolve(&self.table, &host, &path, &self.config.default_namespace),
        };
        let target = match resolved {
            Ok(t) => t,
            Err(nf) => {
                tracing::debug!(host = %nf.host, path, %peer, "no such Function");
                let body = serde_json::json!({
                    "error": "function not found",
                    "host": nf.host,
                    "path": path,
                    "tried": nf.tried,
                });
                return json(StatusCode::NOT_FOUND, &body);
            }
        };
        let Some(entry) = self.table.get(&target.key) else {
            return json(
                StatusCode::NOT_FOUND,
                &serde_json::json!({"error": "function not found", "function": target.key.to_string()}),
            );
        };
        if req.method() == Method::OPTIONS {
            return preflight(req.headers());
        }
        let _in_flight = InFlight::enter(&self.in_flight);
        let started = Instant::now();
        // One span per request, carrying the caller's request id (or one of
        // the node's): the Function's console lines are logged inside it.
        let span = tracing::info_span!(
            "request",
            namespace = %entry.key.namespace,
            name = %entry.key.name,
            request_id = tracing::field::Empty,
        );
        // The id is made only when the span is recorded at all.
        if !span.is_disabled() {
            span.record(
                "request_id",
                tracing::field::display(request_id(req.headers(), &self.requests)),
            );
        }
        let response = tracing::Instrument::instrument(self.invoke(&entry, req, target.path, slot), span).await;
        let failed = response.status().is_server_error() || response.status() == StatusCode::REQUEST_TIMEOUT;
        entry.metrics.record(started.elapsed(), failed);
        response
    }

    /// Serves one request of `entry`: its body read, its head built, a
    /// sandbox run, the answer made HTTP.
    async fn invoke<B>(&self, entry: &Arc<FunctionEntry>, req: Request<B>, path: String, slot: Slot) -> HttpResponse
    where
        B: Body<Data = Bytes> + Send,
        B::Error: std::error::Error + Send + Sync + 'static,
    {
        let key = &entry.key;
        let (parts, body) = req.into_parts();
        let body = match self.read_body(entry, &parts.headers, body).await {
            Ok(body) => body,
            Err(refused) => return refused,
        };
        let permit = match slot {
            Slot::Refuse => entry.permits.clone().try_acquire_owned().ok(),
            Slot::Wait => entry.permits.clone().acquire_owned().await.ok(),
        };
        let Some(_permit) = permit else {
            tracing::warn!(function = %key, limit = entry.config.max_concurrency, "concurrency limit reached");
            return busy("Too many concurrent requests for this Function");
        };
        let Ok(module) = self.table.module(entry).await else {
            return text(StatusCode::INTERNAL_SERVER_ERROR, "User function not loaded");
        };
        let context = InvokeContext {
            function: key.clone(),
            mounts: entry.config.mounts.clone(),
            open_connections: entry.metrics.open_connections.clone(),
            cpu: entry.cpu.clone(),
            buffers: self.buffers.clone(),
        };
        let mut head = request_head(entry, &parts, path);
        let mut invocation = self
            .config
            .traces
            .as_ref()
            .and_then(|sink| InvocationSpan::start(sink, key, &parts, slot == Slot::Wait));
        if let Some(invocation) = &invocation {
            head.trace = Some(invocation.head());
        }
        let run = self
            .run(entry, &context, &module, head, body, invocation.as_ref())
            .await;
        if !run.logs.is_empty() {
            for line in String::from_utf8_lossy(&run.logs).lines().filter(|l| !l.is_empty()) {
                tracing::info!(target: "function", function = %key, "{line}");
            }
        }
        let response = self.to_http(key, run, invocation.as_mut());
        if let Some(invocation) = invocation {
            invocation.finish(response.status());
        }
        response
    }

    /// Reads a request's body within the Function's limit and timeout.
    /// `Err` is the answer when it is refused.
    async fn read_body<B>(&self, entry: &FunctionEntry, headers: &HeaderMap, body: B) -> Result<Bytes, HttpResponse>
    where
        B: Body<Data = Bytes> + Send,
        B::Error: std::error::Error + Send + Sync + 'static,
    {
        let key = &entry.key;
        let limit = entry.config.body_limit;
        let declared = headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<usize>().ok());
        if declared.is_some_and(|n| n > limit) {
            drain(body).await;
            return Err(too_large(limit));
        }
        // The body is read before the Function's concurrency slot is taken,
        // within the Function's own timeout, and counted in the node-wide
        // account of body bytes: a slow or huge sender costs the node a
        // bounded amount of memory and never a neighbour's slot.
        let mut body = std::pin::pin!(body);
        let mut received = bytes::BytesMut::new();
        let mut held = BufferCharge::none();
        let deadline = tokio::time::Instant::now() + entry.config.timeout;
        loop {
            let frame = match tokio::time::timeout_at(deadline, body.frame()).await {
                Ok(frame) => frame,
                Err(_) => {
                    tracing::warn!(function = %key, received = received.len(), "the request body did not arrive within the Function's timeout");
                    return Err(text(StatusCode::REQUEST_TIMEOUT, "Request Timeout"));
                }
            };
            match frame {
                None => break,
                Some(Ok(frame)) => {
                    if let Some(data) = frame.data_ref() {
                        if received.len().saturating_add(data.len()) > limit {
                            drain(body).await;
                            return Err(too_large(limit));
                        }
                        let Some(more) = self.buffers.try_charge(data.len()) else {
                            tracing::warn!(function = %key, limit = self.config.max_buffered_body_bytes, "the node holds as many request body bytes as it may");
                            return Err(busy("The node is receiving too many request bodies; try again"));
                        };
                        held.merge(more);
                        received.extend_from_slice(data);
                    }
                }
                Some(Err(e)) => {
                    tracing::debug!(function = %key, error = %e, "reading the request body failed");
                    return Err(text(StatusCode::BAD_REQUEST, "Could not read the request body"));
                }
            }
        }
        // The charge stays with the bytes until the guest has them and the
        // last copy is gone.
        Ok(held.attach(received.freeze()))
    }

    /// The HTTP answer to what a sandbox run gave.
    /// A recorded invocation takes the spans the Function handed back.
    fn to_http(&self, key: &FunctionKey, run: Invocation, invocation: Option<&mut InvocationSpan>) -> HttpResponse {
        if let Some(error) = run.error {
            return match error {
                InvokeError::Timeout(t) => {
                    tracing::warn!(function = %key, timeout_s = t.as_secs_f64(), "request timed out; the sandbox was interrupted");
                    text(StatusCode::REQUEST_TIMEOUT, "Request Timeout")
                }
                InvokeError::MemoryExceeded { limit } => {
                    tracing::warn!(function = %key, limit, "request exceeded the memory limit; the sandbox was stopped");
                    text(StatusCode::INTERNAL_SERVER_ERROR, "Function exceeded its memory limit")
                }
                InvokeError::NodeMemoryExhausted { limit } => {
                    tracing::warn!(function = %key, limit, "the node's memory for Functions is in use; the request was refused");
                    // Idle warm sandboxes hold grown memory: let one go so
                    // the retry the client is told to make finds room.
                    let budget = self.table.warm_budget().clone();
                    tokio::spawn(async move { budget.reclaim_one().await });
                    busy("The node has no memory left for Functions right now; try again")
                }
                InvokeError::NoSlot => {
                    tracing::warn!(function = %key, "no sandbox slot free");
                    busy("No capacity to run the Function right now")
                }
                InvokeError::Instantiate(message) => {
                    tracing::warn!(function = %key, error = %message, "no sandbox could be started");
                    busy("No capacity to run the Function right now")
                }
                InvokeError::Trap(message) => {
                    tracing::error!(function = %key, error = %message, "the Function trapped");
                    text(StatusCode::INTERNAL_SERVER_ERROR, "Internal server error")
                }
            };
        }
        let mut head = match run.response_head() {
            Ok(head) => head,
            Err(e) => {
                tracing::error!(function = %key, error = %shoal_runtime::causes(&e), "the Function wrote no valid response");
                return text(StatusCode::INTERNAL_SERVER_ERROR, "Internal server error");
            }
        };
        if let Some(invocation) = invocation {
            invocation.add_guest_spans(std::mem::take(&mut head.spans));
        }
        // The answer stays in the host until the caller has read it: it is
        // held against the node's buffer account meanwhile, so slow readers
        // of large answers cannot grow the node past it.
        let Some(charge) = self.buffers.try_charge(run.body.len()) else {
            tracing::warn!(function = %key, bytes = run.body.len(), limit = self.config.max_buffered_body_bytes, "the node holds as many buffered bytes as it may; the answer was dropped");
            return busy("The node is sending too many responses; try again");
        };
        build_response(&head, charge.attach(run.body))
    }

    /// Runs a request in a warm sandbox of the Function when it has an idle
    /// one or may start one, in a fresh sandbox otherwise. Only a sandbox
    /// that loads the Function gets its environment in the head.
    async fn run(
        &self,
        entry: &FunctionEntry,
        context: &InvokeContext,
        module: &FunctionModule,
        mut head: RequestHead,
        body: Bytes,
        invocation: Option<&InvocationSpan>,
    ) -> Invocation {
        let trace = invocation.map(InvocationSpan::outbound);
        let mut run = self
            .run_once(entry, context, module, &mut head, body.clone(), trace.clone())
            .await;
        // No free slot: idle warm sandboxes of quiet Functions hold them.
        // One is retired for this request, which then tries again. A
        // concurrent request may take the freed slot first, so it goes on
        // while idle sandboxes are left (trying once answered 503 to 0.25 %
        // of random traffic over 1,000 Functions at c=64).
        let mut reclaimed = 0;
        // Or a fresh sandbox that has answered is still being torn down.
        while matches!(run.error, Some(InvokeError::NoSlot))
            && reclaimed < MAX_SLOT_RECLAIMS
            && (self.table.warm_budget().reclaim_one().await || self.table.runtime().teardown_ended().await)
        {
            reclaimed += 1;
            tracing::debug!(function = %entry.key, reclaimed, "no free sandbox slot; reclaimed one from an idle warm sandbox");
            run = self
                .run_once(entry, context, module, &mut head, body.clone(), trace.clone())
                .await;
        }
        run
    }

    async fn run_once(
        &self,
        entry: &FunctionEntry,
        context: &InvokeContext,
        module: &FunctionModule,
        head: &mut RequestHead,
        body: Bytes,
        trace: Option<shoal_runtime::OutboundTrace>,
    ) -> Invocation {
        let limits = InvokeLimits {
            timeout: entry.config.timeout,
            memory_limit: entry.config.memory_limit,
            max_response_bytes: self.config.max_response_bytes,
            outbound: self.config.outbound,
        };
        let runtime = self.table.runtime();
        let warm = self.table.warm_config();
        if warm.enabled {
            let mut request = GuestRequest::new(head, body.clone());
            request.trace = trace.clone();
            while let Some(lease) = entry.warm.take() {
                match lease.invoke(request, limits.request()).await {
                    Ok(run) => {
                        entry.warm.put_back(lease, warm);
                        return run;
                    }
                    // It ended before taking the request; try the next one.
                    Err(back) => request = back,
                }
            }
        }
        head.env = self.function_env(entry);
        let mut request = GuestRequest::new(head, body);
        request.trace = trace;
        if warm.enabled {
            let cap = warm.max_per_function.min(entry.config.max_concurrency);
            if let Some(lease) = entry.warm.start(runtime, context, module, limits.memory_limit, cap) {
                match lease.invoke(request, limits.request()).await {
                    Ok(run) => {
                        entry.warm.put_back(lease, warm);
                        return run;
                    }
                    Err(back) => return runtime.invoke_with(context, module, back, limits).await,
                }
            }
        }
        runtime.invoke_with(context, module, request, limits).await
    }

    fn function_env(&self, entry: &FunctionEntry) -> BTreeMap<String, String> {
        let mut env = entry.config.env.clone();
        let key = &entry.key;
        let defaults = [
            ("FUNC_NAME", key.name.clone()),
            ("FUNC_RUNTIME", entry.config.runtime.clone()),
            ("SERVICE_NAMESPACE", key.namespace.clone()),
            ("FUNC_TIMEOUT", entry.config.timeout.as_secs().to_string()),
            ("FUNC_PORT", "8080".into()),
            ("HANDLER_PATH", "./function/handler.js".into()),
            (
                // nodejs26 renamed REQ_MB_LIMIT.
                if shoal_envelope::has_request_response_api(&entry.config.runtime) {
                    "FUNC_BODY_MB_LIMIT"
                } else {
                    "REQ_MB_LIMIT"
                },
                (entry.config.body_limit as u64).div_ceil(1 << 20).to_string(),
            ),
            ("PUBLISHER_PROXY_ADDRESS", self.config.publisher_proxy.clone()),
            ("TRACE_COLLECTOR_ENDPOINT", self.config.trace_collector.clone()),
        ];
        for (k, v) in defaults {
            env.entry(k.to_string()).or_insert(v);
        }
        env
    }
}

struct InFlight<'a>(&'a AtomicU64);

impl<'a> InFlight<'a> {
    fn enter(counter: &'a AtomicU64) -> Self {
        counter.fetch_add(1, Ordering::Relaxed);
        Self(counter)
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The head the guest takes: the request's method, path, query and
/// headers, and who the Function is. Its environment is added for a
/// sandbox that loads the Function (see `Node::run`).
/// The caller's `x-request-id` when it is a sane one (what Istio and
/// most proxies send), otherwise the node's own: a per-process prefix and a
/// counter.
fn request_id(headers: &HeaderMap, counter: &AtomicU64) -> String {
    let given = headers
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty() && v.len() <= 128 && v.bytes().all(|b| b.is_ascii_graphic()));
    match given {
        Some(id) => id.to_string(),
        None => format!("{:08x}-{}", process_tag(), counter.fetch_add(1, Ordering::Relaxed)),
    }
}

/// A tag telling this process's request ids from another's.
fn process_tag() -> u32 {
    static TAG: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *TAG.get_or_init(|| {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or_default();
        nanos ^ std::process::id().rotate_left(16)
    })
}

fn request_head(entry: &FunctionEntry, parts: &http::request::Parts, path: String) -> RequestHead {
    let config = &entry.config;
    RequestHead {
        v: shoal_envelope::ENVELOPE_VERSION,
        method: parts.method.as_str().to_string(),
        path,
        query: parts.uri.query().unwrap_or("").to_string(),
        headers: parts
            .headers
            .iter()
            .map(|(k, v)| {
                (
                    k.as_str().to_string(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect(),
        function: FunctionContext {
            name: entry.key.name.clone(),
            namespace: entry.key.namespace.clone(),
            runtime: config.runtime.clone(),
            timeout: config.timeout.as_secs(),
            body_size_limit: (config.body_limit as u64).div_ceil(1 << 20),
        },
        env: BTreeMap::new(),
        trace: None,
    }
}

const HOP_BY_HOP: [&str; 6] = [
    "connection",
    "transfer-encoding",
    "content-length",
    "keep-alive",
    "upgrade",
    "te",
];

fn build_response(head: &ResponseHead, body: Bytes) -> HttpResponse {
    let status = StatusCode::from_u16(head.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = Response::new(Full::new(body));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    for (name, value) in &head.headers {
        if HOP_BY_HOP.contains(&name.to_ascii_lowercase().as_str()) {
            continue;
        }
        if let (Ok(n), Ok(v)) = (
            header::HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_str(value),
        ) {
            headers.append(n, v);
        }
    }
    response
}

fn preflight(headers: &HeaderMap) -> HttpResponse {
    let mut r = Response::new(Full::default());
    let out = r.headers_mut();
    out.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    if let Some(m) = headers.get(header::ACCESS_CONTROL_REQUEST_METHOD) {
        out.insert(header::ACCESS_CONTROL_ALLOW_METHODS, m.clone());
    }
    if let Some(h) = headers.get(header::ACCESS_CONTROL_REQUEST_HEADERS) {
        out.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, h.clone());
    }
    r
}

/// 503 with `Retry-After: 1`.
fn busy(message: &'static str) -> HttpResponse {
    let mut r = text(StatusCode::SERVICE_UNAVAILABLE, message);
    r.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    r
}

fn too_large(limit: usize) -> HttpResponse {
    text(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("Payload Too Large: the limit is {limit} bytes"),
    )
}

fn with_cors(r: Result<HttpResponse, http::Error>) -> HttpResponse {
    let mut r = r.unwrap_or_else(|_| Response::new(Full::default()));
    r.headers_mut()
        .insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    r
}

fn text(status: StatusCode, body: impl Into<Bytes>) -> HttpResponse {
    with_cors(
        Response::builder()
            .status(status)
            .header(header::CONTENT_TYPE, "text/plain; charset=utf-8")
            .body(Full::new(body.into())),
    )
}

fn json(status: StatusCode, value: &serde_json::Value) -> HttpResponse {
    with_cors(
        Response::builder()
            .status(status)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Full::new(Bytes::from(value.to_string()))),
    )
}

/// Binds `addr` and serves until `shutdown`.
pub async fn bind_and_serve(
    node: Arc<Node>,
    addr: SocketAddr,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let listener = TcpListener::bind(addr).await?;
    node.serve(listener, shutdown).await
}
