//! The `shoal_host_v1` imports of the JavaScript engine: what a Function
//! asks of the node (outbound HTTP, DNS, sockets) and the event loop's wait.
//!
//! A Function starts operations (`op_start`, and `http_start` for fetch),
//! which run as tasks on the node's tokio runtime while JavaScript goes on;
//! when it has nothing left to do it calls `wait`, an async host function:
//! the guest's fiber is parked until an operation completes or a timer is
//! due, so an awaiting Function holds no thread and operations started
//! together run concurrently. Every operation answers once, with a JSON
//! head and a body of bytes the guest copies out (`result_size`,
//! `result_read`).
//!
//! This module knows how operations are counted, bounded and handed to the
//! guest, and keeps the sandbox's open connections ([`crate::sockets`]);
//! *how* a request is performed (the HTTP client, TLS, the resolver, the
//! egress policy) is the [`Outbound`] implementation's business.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use futures::future::BoxFuture;
use futures::stream::{FuturesUnordered, StreamExt};
use serde::Deserialize;
use serde_json::json;
use wasmtime::{Caller, Linker};

use crate::SandboxState;
use crate::buffers::{BufferAccount, BufferCharge};
use crate::limits::DeadlineExceeded;
use crate::outbound::{
    ConnectRequest, Connection, FunctionKey, Outbound, OutboundError, OutboundLimits, OutboundRequest, ResolveRequest,
    TlsConnect,
};
use crate::sockets::Sockets;
use shoal_engine::abi;

/// What a finished operation hands the guest, and what it leaves behind.
pub(crate) struct Completion {
    /// The JSON head (or the failure) and the body.
    pub(crate) reply: Result<(serde_json::Value, Bytes), OutboundError>,
    /// A connection it opened, or a socket half it gives back.
    pub(crate) effect: Effect,
}

impl Completion {
    pub(crate) fn answer(head: serde_json::Value, body: Bytes) -> Self {
        Self {
            reply: Ok((head, body)),
            effect: Effect::None,
        }
    }

    pub(crate) fn failed(error: OutboundError) -> Self {
        Self {
            reply: Err(error),
            effect: Effect::None,
        }
    }
}

/// What completing an operation changes in the sandbox's socket table.
pub(crate) enum Effect {
    None,
    /// A new connection, kept under the operation's id.
    Opened(Connection),
}

type Completed = (i32, Completion);

/// The host-call state of one sandbox.
pub(crate) struct HostCalls {
    outbound: Option<Arc<dyn Outbound>>,
    function: FunctionKey,
    limits: OutboundLimits,
    /// Requests and connections started by the current request.
    started: u32,
    next_id: i32,
    /// Whether the sandbox has ever started a call (its id numbering and
    /// whatever the guest holds by id live only in this sandbox).
    made_calls: bool,
    in_flight: FuturesUnordered<tokio::task::JoinHandle<Completed>>,
    aborts: HashMap<i32, tokio::task::AbortHandle>,
    /// Results waiting for the guest: `(head JSON, body)`, the body
    /// charged to the node's buffer account until the guest reads it.
    results: HashMap<i32, (Vec<u8>, Bytes, BufferCharge)>,
    /// The bodies of operations in flight, charged until they complete.
    sending: HashMap<i32, BufferCharge>,
    buffers: BufferAccount,
    pub(crate) sockets: Sockets,
    /// The trace of the request being served, when the node records it.
    trace: Option<crate::OutboundTrace>,
}

impl HostCalls {
    pub(crate) fn new(outbound: Option<Arc<dyn Outbound>>, function: FunctionKey, limits: OutboundLimits) -> Self {
        Self {
            outbound,
            function,
            limits,
            started: 0,
            next_id: 1,
            made_calls: false,
            in_flight: FuturesUnordered::new(),
            aborts: HashMap::new(),
            results: HashMap::new(),
            sending: HashMap::new(),
            buffers: BufferAccount::default(),
            sockets: Sockets::default(),
            trace: None,
        }
    }

    /// Counts this sandbox's open connections in `gauge` too.
    pub(crate) fn counting_connections(mut self, gauge: Arc<std::sync::atomic::AtomicUsize>) -> Self {
        self.sockets = Sockets::counted(gauge);
        self
    }

    /// Charges the bytes this sandbox's calls hold to `account` (the
    /// node's) instead of an account of its own.
    pub(crate) fn charging(mut self, account: BufferAccount) -> Self {
        self.buffers = account;
        self
    }

    /// A new request starts in the same sandbox: its own count of outbound
    /// requests. Calls and connections an earlier request left open carry
    /// on, and count against the sandbox's calls in flight.
    pub(crate) fn begin_request(&mut self, limits: OutboundLimits, trace: Option<crate::OutboundTrace>) {
        self.limits = limits;
        self.started = 0;
        self.trace = trace;
    }

    fn finish(&mut self, id: i32, completion: Completion) {
        self.aborts.remove(&id);
        self.sending.remove(&id);
        self.sockets.settled(id);
        if let Effect::Opened(connection) = completion.effect {
            self.sockets.open(id, connection);
        }
        let reply = completion
            .reply
            .and_then(|(head, body)| match self.buffers.try_charge(body.len()) {
                Some(charge) => Ok((head, body, charge)),
                None => Err(buffers_full(body.len())),
            });
        let (head, body, charge) = match reply {
            Ok((head, body, charge)) => (serde_json::to_vec(&head).unwrap_or_default(), body, charge),
            Err(error) => (
                serde_json::to_vec(&json!({"error": error.message, "kind": error.kind, "code": error.code}))
                    .unwrap_or_default(),
                Bytes::new(),
                BufferCharge::none(),
            ),
        };
        self.results.insert(id, (head, body, charge));
    }

    /// Whether the guest has started any outbound call or connection.
    pub(crate) fn made_calls(&self) -> bool {
        self.made_calls
    }

    fn allocate_id(&mut self) -> i32 {
        self.made_calls = true;
        let id = self.next_id;
        // Ids only need to be unique among the calls a sandbox has open;
        // wrapping after two billion is harmless.
        self.next_id = if self.next_id == i32::MAX { 1 } else { self.next_id + 1 };
        id
    }

    /// Counts one more request or connection against the invocation's
    /// limit, and against the sandbox's: calls an earlier request started
    /// and never awaited (fire-and-forget fetches) still count, so they
    /// cannot pile up across requests.
    fn count_request(&mut self) -> Result<(), OutboundError> {
        if self.in_flight.len() >= self.limits.max_requests as usize {
            return Err(OutboundError::new(
                "limit",
                format!(
                    "outbound request limit reached: a Function's sandbox may have {} requests in flight, whichever request started them",
                    self.limits.max_requests
                ),
            ));
        }
        self.started = self.started.saturating_add(1);
        if self.started > self.limits.max_requests {
            return Err(OutboundError::new(
                "limit",
                format!(
                    "outbound request limit reached: a Function may make {} requests per invocation (connections count too)",
                    self.limits.max_requests
                ),
            ));
        }
        Ok(())
    }

    fn outbound(&self) -> Result<Arc<dyn Outbound>, OutboundError> {
        self.outbound
            .clone()
            .ok_or_else(|| OutboundError::new("policy", "outbound calls are not enabled on this node"))
    }

    /// Runs `work` as a task answering call `id`.
    fn spawn(&mut self, id: i32, work: BoxFuture<'static, Completion>) {
        let task = tokio::spawn(async move { (id, work.await) });
        self.aborts.insert(id, task.abort_handle());
        self.in_flight.push(task);
    }

    /// Starts operation `name`; the id its answer will carry.
    fn start(&mut self, name: &str, head: &[u8], body: Bytes, remaining: Duration) -> i32 {
        let id = self.allocate_id();
        let Some(charge) = self.buffers.try_charge(body.len()) else {
            self.finish(id, Completion::failed(buffers_full(body.len())));
            return id;
        };
        match self.dispatch(id, name, head, body, remaining) {
            Ok(Some(immediate)) => self.finish(id, immediate),
            Ok(None) => {
                // Held until the operation completes and `finish` drops it.
                self.sending.insert(id, charge);
            }
            Err(error) => self.finish(id, Completion::failed(error)),
        }
        id
    }

    /// Starts the work of call `id`: `Some` when it is already complete.
    fn dispatch(
        &mut self,
        id: i32,
        name: &str,
        head: &[u8],
        body: Bytes,
        remaining: Duration,
    ) -> Result<Option<Completion>, OutboundError> {
        match name {
            "http.fetch" => {
                let mut request: OutboundRequest = parse(name, head)?;
                request.body = body;
                self.count_request()?;
                let client_span = self.trace.as_ref().map(|trace| ClientSpan::start(trace, &mut request));
                let call = self.outbound()?.send(&self.function, request, remaining);
                self.spawn(
                    id,
                    Box::pin(async move {
                        let result = call.await;
                        if let Some(span) = client_span {
                            span.finish(&result);
                        }
                        match result {
                            Ok(response) => {
                                let body = response.body.clone();
                                Completion::answer(serde_json::to_value(&response).unwrap_or_default(), body)
                            }
                            Err(e) => Completion::failed(e),
                        }
                    }),
                );
                Ok(None)
            }
            "http.upgrade" => {
                let mut request: OutboundRequest = parse(name, head)?;
                request.body = body;
                self.count_request()?;
                self.sockets.reserve(id, self.limits.max_sockets)?;
                let call = self.outbound()?.upgrade(&self.function, request, remaining);
                self.spawn(
                    id,
                    Box::pin(async move {
                        match call.await {
                            Ok(upgraded) => {
                                let body = upgraded.response.body.clone();
                                let mut head = serde_json::to_value(&upgraded.response).unwrap_or_default();
                                let effect = match upgraded.connection {
                                    Some(connection) => {
                                        head["socket"] = json!(id);
                                        head["connection"] = serde_json::to_value(&connection.info).unwrap_or_default();
                                        Effect::Opened(connection)
                                    }
                                    None => Effect::None,
                                };
                                Completion {
                                    reply: Ok((head, body)),
                                    effect,
                                }
                            }
                            Err(e) => Completion::failed(e),
                        }
                    }),
                );
                Ok(None)
            }
            "net.connect" => {
                let request: ConnectRequest = parse(name, head)?;
                self.count_request()?;
                self.sockets.reserve(id, self.limits.max_sockets)?;
                let call = self.outbound()?.connect(&self.function, request, remaining);
                self.spawn(id, Box::pin(opened(id, call)));
                Ok(None)
            }
            "socket.starttls" => {
                #[derive(Deserialize)]
                struct StartTls {
                    socket: i32,
                    host: String,
                    #[serde(default)]
                    tls: Option<TlsConnect>,
                }
                let request: StartTls = parse(name, head)?;
                let outbound = self.outbound()?;
                let taking = self.sockets.take_whole(request.socket)?;
                self.sockets.reserve(id, u32::MAX)?;
                let tls = request.tls.unwrap_or(TlsConnect {
                    servername: None,
                    verify: Default::default(),
                    alpn: Vec::new(),
                });
                let function = self.function.clone();
                let call = async move {
                    let connection = taking.await?;
                    outbound
                        .start_tls(&function, connection, request.host, tls, remaining)
                        .await
                };
                // The TLS connection is kept under this call's id.
                self.spawn(id, Box::pin(opened(id, Box::pin(call))));
                Ok(None)
            }
            "socket.read" | "socket.write" | "socket.end" => {
                #[derive(Deserialize)]
                struct SocketRequest {
                    socket: i32,
                    #[serde(default)]
                    size: usize,
                }
                let request: SocketRequest = parse(name, head)?;
                let work = match name {
                    "socket.read" => self.sockets.read(id, request.socket, request.size)?,
                    "socket.write" => self.sockets.write(id, request.socket, body)?,
                    _ => self.sockets.end(id, request.socket)?,
                };
                self.spawn(id, work);
                Ok(None)
            }
            "socket.close" => {
                #[derive(Deserialize)]
                struct Close {
                    socket: i32,
                }
                let request: Close = parse(name, head)?;
                // Reads and writes in progress end with the socket; each
                // still answers, so the guest's bookkeeping of calls in
                // flight stays true.
                for task in self.sockets.close(request.socket) {
                    if let Some(abort) = self.aborts.remove(&task) {
                        abort.abort();
                        self.finish(
                            task,
                            Completion::failed(OutboundError::new("aborted", "the socket was closed")),
                        );
                    }
                }
                Ok(Some(Completion::answer(json!({}), Bytes::new())))
            }
            "socket.setopt" => {
                #[derive(Deserialize)]
                #[serde(rename_all = "camelCase")]
                struct SetOpt {
                    socket: i32,
                    no_delay: Option<bool>,
                    keep_alive: Option<bool>,
                    #[serde(default)]
                    keep_alive_delay_ms: u64,
                }
                let request: SetOpt = parse(name, head)?;
                let keep_alive = request
                    .keep_alive
                    .map(|on| on.then(|| Duration::from_millis(request.keep_alive_delay_ms.max(1000))));
                self.sockets.set_options(request.socket, request.no_delay, keep_alive)?;
                Ok(Some(Completion::answer(json!({}), Bytes::new())))
            }
            "dns.lookup" => {
                #[derive(Deserialize)]
                struct Lookup {
                    hostname: String,
                }
                let request: Lookup = parse(name, head)?;
                let call = self.outbound()?.lookup(&self.function, request.hostname);
                self.spawn(
                    id,
                    Box::pin(async move {
                        match call.await {
                            Ok(addresses) => {
                                let addresses: Vec<_> = addresses
                                    .iter()
                                    .map(|ip| json!({"address": ip.to_string(), "family": if ip.is_ipv4() { 4 } else { 6 }}))
                                    .collect();
                                Completion::answer(json!({ "addresses": addresses }), Bytes::new())
                            }
                            Err(e) => Completion::failed(e),
                        }
                    }),
                );
                Ok(None)
            }
            "dns.resolve" => {
                let request: ResolveRequest = parse(name, head)?;
                let call = self.outbound()?.resolve(&self.function, request);
                self.spawn(
                    id,
                    Box::pin(async move {
                        match call.await {
                            Ok(records) => Completion::answer(json!({ "records": records }), Bytes::new()),
                            Err(e) => Completion::failed(e),
                        }
                    }),
                );
                Ok(None)
            }
            "dns.reverse" => {
                #[derive(Deserialize)]
                struct Reverse {
                    ip: String,
                }
                let request: Reverse = parse(name, head)?;
                let ip: IpAddr = request.ip.parse().map_err(|_| {
                    OutboundError::new("invalid", format!("getHostByAddr EINVAL {}", request.ip)).with_code("EINVAL")
                })?;
                let call = self.outbound()?.reverse(&self.function, ip);
                self.spawn(
                    id,
                    Box::pin(async move {
                        match call.await {
                            Ok(hostnames) => Completion::answer(json!({ "hostnames": hostnames }), Bytes::new()),
                            Err(e) => Completion::failed(e),
                        }
                    }),
                );
                Ok(None)
            }
            other => Err(OutboundError::new(
                "invalid",
                format!("the engine asked for an unknown host operation {other:?}"),
            )),
        }
    }
}

/// Completes a call that opens a connection, which is kept under the
/// call's id.
/// The failure of a call whose body the node's buffer account cannot hold.
/// An outbound HTTP call of a recorded invocation, as a client span: its
/// parent is the span the guest's `traceparent` names when that is of the
/// invocation's trace (the Function's active span), else the invocation's;
/// the call carries the new span's context instead.
struct ClientSpan {
    trace: crate::OutboundTrace,
    span: shoal_telemetry::Span,
}

/// Trace headers the client span replaces.
const TRACE_CONTEXT_HEADERS: [&str; 6] = [
    "traceparent",
    "b3",
    "x-b3-traceid",
    "x-b3-spanid",
    "x-b3-parentspanid",
    "x-b3-sampled",
];

impl ClientSpan {
    fn start(trace: &crate::OutboundTrace, request: &mut OutboundRequest) -> Self {
        use shoal_telemetry::{SpanId, TraceParent, Value};
        let parent = request
            .headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("traceparent"))
            .and_then(|(_, v)| TraceParent::parse_traceparent(v))
            .filter(|p| p.trace_id == trace.trace_id)
            .map_or(trace.span_id, |p| p.span_id);
        let context = TraceParent {
            trace_id: trace.trace_id,
            span_id: SpanId::random(),
            sampled: true,
        };
        request
            .headers
            .retain(|(k, _)| !TRACE_CONTEXT_HEADERS.iter().any(|t| k.eq_ignore_ascii_case(t)));
        request
            .headers
            .extend(context.headers().into_iter().map(|(k, v)| (k.to_string(), v)));
        let mut attributes = vec![("http.request.method".to_string(), Value::from(request.method.as_str()))];
        // The URL without credentials or query, which may hold secrets.
        if let Ok(uri) = request.url.parse::<http::Uri>() {
            let host = uri.host().unwrap_or_default();
            let port = uri.port_u16().map(|p| format!(":{p}")).unwrap_or_default();
            attributes.push((
                "url.full".into(),
                Value::from(format!(
                    "{}://{host}{port}{}",
                    uri.scheme_str().unwrap_or("http"),
                    uri.path()
                )),
            ));
            attributes.push(("server.address".into(), Value::from(host)));
        }
        let span = shoal_telemetry::Span {
            trace_id: trace.trace_id,
            span_id: context.span_id,
            parent_span_id: Some(parent),
            name: request.method.clone(),
            kind: shoal_telemetry::SpanKind::Client,
            scope: shoal_telemetry::Scope::Node,
            start: std::time::SystemTime::now(),
            end: std::time::SystemTime::now(),
            attributes,
            status: shoal_telemetry::Status::Unset,
            events: Vec::new(),
        };
        Self {
            trace: trace.clone(),
            span,
        }
    }

    fn finish(mut self, result: &Result<crate::outbound::OutboundResponse, OutboundError>) {
        use shoal_telemetry::{Status, Value};
        self.span.end = std::time::SystemTime::now();
        match result {
            Ok(response) => {
                self.span.attributes.push((
                    "http.response.status_code".into(),
                    Value::Int(i64::from(response.status)),
                ));
                if response.status >= 400 {
                    self.span.status = Status::Error(String::new());
                    self.span
                        .attributes
                        .push(("error.type".into(), Value::from(response.status.to_string())));
                }
            }
            Err(error) => {
                self.span.status = Status::Error(error.message.clone());
                self.span
                    .attributes
                    .push(("error.type".into(), Value::from(error.kind)));
            }
        }
        self.trace.sink.record(&self.trace.function, self.span);
    }
}

fn buffers_full(bytes: usize) -> OutboundError {
    OutboundError::new(
        "limit",
        format!("the node holds as many buffered bytes as it may and cannot take {bytes} more now; try again"),
    )
}

async fn opened(id: i32, call: BoxFuture<'static, Result<Connection, OutboundError>>) -> Completion {
    match call.await {
        Ok(connection) => {
            let mut head = serde_json::to_value(&connection.info).unwrap_or_default();
            head["socket"] = json!(id);
            Completion {
                reply: Ok((head, Bytes::new())),
                effect: Effect::Opened(connection),
            }
        }
        Err(e) => Completion::failed(e),
    }
}

fn parse<'a, T: Deserialize<'a>>(operation: &str, head: &'a [u8]) -> Result<T, OutboundError> {
    serde_json::from_slice(head).map_err(|e| OutboundError::new("invalid", format!("invalid {operation} request: {e}")))
}

impl Drop for HostCalls {
    fn drop(&mut self) {
        // A finished (or failed) sandbox stops what it started; its
        // connections close with the socket table.
        for abort in self.aborts.values() {
            abort.abort();
        }
    }
}

pub(crate) fn guest_bytes(caller: &mut Caller<'_, SandboxState>, ptr: i32, len: i32) -> wasmtime::Result<Vec<u8>> {
    let memory = caller
        .get_export("memory")
        .and_then(|e| e.into_memory())
        .ok_or_else(|| wasmtime::Error::msg("the engine exports no memory"))?;
    let start = ptr as u32 as usize;
    let end = start
        .checked_add(len as u32 as usize)
        .ok_or_else(|| wasmtime::Error::msg("guest buffer out of range"))?;
    memory
        .data(&*caller)
        .get(start..end)
        .map(<[u8]>::to_vec)
        .ok_or_else(|| wasmtime::Error::msg("guest buffer out of range"))
}

pub(crate) fn write_guest(caller: &mut Caller<'_, SandboxState>, ptr: i32, bytes: &[u8]) -> wasmtime::Result<()> {
    let memory = caller
        .get_export("memory")
        .and_then(|e| e.into_memory())
        .ok_or_else(|| wasmtime::Error::msg("the engine exports no memory"))?;
    memory
        .write(&mut *caller, ptr as u32 as usize, bytes)
        .map_err(|_| wasmtime::Error::msg("guest buffer out of range"))
}

fn remaining(state: &SandboxState) -> Duration {
    state.deadline.saturating_duration_since(Instant::now())
}

/// Adds the `shoal_host_v1` imports to `linker`.
pub(crate) fn add_to_linker(linker: &mut Linker<SandboxState>) -> wasmtime::Result<()> {
    linker.func_wrap(
        abi::MODULE,
        abi::OP_START.name,
        |mut caller: Caller<'_, SandboxState>,
         name: i32,
         name_len: i32,
         head: i32,
         head_len: i32,
         body: i32,
         body_len: i32|
         -> wasmtime::Result<i32> {
            let name = guest_bytes(&mut caller, name, name_len)?;
            let head = guest_bytes(&mut caller, head, head_len)?;
            let body = guest_bytes(&mut caller, body, body_len)?;
            let state = caller.data_mut();
            let remaining = remaining(state);
            let name = String::from_utf8_lossy(&name);
            Ok(state.calls.start(&name, &head, Bytes::from(body), remaining))
        },
    )?;
    // fetch and node:http: `op_start("http.fetch", ..)` under its own name.
    linker.func_wrap(
        abi::MODULE,
        abi::HTTP_START.name,
        |mut caller: Caller<'_, SandboxState>,
         head: i32,
         head_len: i32,
         body: i32,
         body_len: i32|
         -> wasmtime::Result<i32> {
            let head = guest_bytes(&mut caller, head, head_len)?;
            let body = guest_bytes(&mut caller, body, body_len)?;
            let state = caller.data_mut();
            let remaining = remaining(state);
            Ok(state.calls.start("http.fetch", &head, Bytes::from(body), remaining))
        },
    )?;
    linker.func_wrap(
        abi::MODULE,
        abi::HTTP_CANCEL.name,
        |mut caller: Caller<'_, SandboxState>, id: i32| {
            let calls = &mut caller.data_mut().calls;
            if let Some(abort) = calls.aborts.remove(&id) {
                abort.abort();
                calls.finish(
                    id,
                    Completion::failed(OutboundError::new("aborted", "This operation was aborted")),
                );
            }
        },
    )?;
    linker.func_wrap_async(
        abi::MODULE,
        abi::WAIT.name,
        |mut caller: Caller<'_, SandboxState>, (timeout_ms,): (f64,)| {
            Box::new(async move {
                let state = caller.data_mut();
                // Waiting is not running: the Function's turn goes to
                // another of its busy guests meanwhile.
                state.cpu.release();
                let now = Instant::now();
                if now >= state.deadline {
                    return Err(DeadlineExceeded.into());
                }
                // A negative timeout means "until a call completes".
                let until = if timeout_ms >= 0.0 {
                    crate::limits::deadline_after(crate::limits::millis(timeout_ms)).min(state.deadline)
                } else {
                    state.deadline
                };
                // Results already completed (e.g. refused at start) first.
                if let Some(id) = state.calls.results.keys().min().copied() {
                    return Ok(id);
                }
                if state.calls.in_flight.is_empty() {
                    if timeout_ms >= 0.0 {
                        tokio::time::sleep_until(until.into()).await;
                    }
                    return Ok(0);
                }
                match tokio::time::timeout_at(until.into(), state.calls.in_flight.next()).await {
                    Ok(Some(Ok((id, completion)))) => {
                        if state.calls.aborts.contains_key(&id) {
                            state.calls.finish(id, completion);
                            Ok(id)
                        } else {
                            // Cancelled after it completed: its abort result
                            // (or nothing, for a closed socket) stands.
                            Ok(0)
                        }
                    }
                    // A cancelled task: its abort result is already there.
                    Ok(Some(Err(_))) | Ok(None) | Err(_) => Ok(0),
                }
            })
        },
    )?;
    linker.func_wrap(
        abi::MODULE,
        abi::RESULT_SIZE.name,
        |mut caller: Caller<'_, SandboxState>, id: i32, out: i32| -> wasmtime::Result<i32> {
            let Some((head, body, _)) = caller.data().calls.results.get(&id) else {
                return Ok(-1);
            };
            let mut sizes = [0u8; 8];
            sizes[..4].copy_from_slice(&(head.len() as u32).to_le_bytes());
            sizes[4..].copy_from_slice(&(body.len() as u32).to_le_bytes());
            write_guest(&mut caller, out, &sizes)?;
            Ok(0)
        },
    )?;
    linker.func_wrap(
        abi::MODULE,
        abi::RESULT_READ.name,
        |mut caller: Caller<'_, SandboxState>, id: i32, head_ptr: i32, body_ptr: i32| -> wasmtime::Result<i32> {
            let Some((head, body, _charge)) = caller.data_mut().calls.results.remove(&id) else {
                return Ok(-1);
            };
            write_guest(&mut caller, head_ptr, &head)?;
            write_guest(&mut caller, body_ptr, &body)?;
            Ok(0)
        },
    )?;
    Ok(())
}
