//! The `shoal_host_v1` imports of the JavaScript engine: outbound HTTP and
//! the event loop's wait.
//!
//! A Function starts requests (`http_start`), which run as tasks on the
//! node's tokio runtime while JavaScript goes on; when it has nothing left to
//! do it calls `wait`, an async host function: the guest's fiber is parked
//! until a request completes or a timer is due, so an awaiting Function
//! holds no thread and several requests started together run concurrently.
//!
//! This module knows how calls are counted, bounded and handed to the guest;
//! *how* a request is performed (the HTTP client, TLS, egress policy) is the
//! [`Outbound`] implementation's business.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use futures::stream::{FuturesUnordered, StreamExt};
use serde::{Deserialize, Serialize};
use wasmtime::{Caller, Linker};

use crate::RequestState;
use crate::limits::DeadlineExceeded;

/// Import module name the engine plugin uses.
pub const HOST_MODULE: &str = "shoal_host_v1";

/// An outbound request as the Function asked for it.
#[derive(Debug, Clone, Deserialize)]
pub struct OutboundRequest {
    /// HTTP method.
    pub method: String,
    /// Absolute `http:` or `https:` URL.
    pub url: String,
    /// Header pairs, in order.
    #[serde(default)]
    pub headers: Vec<(String, String)>,
    /// `follow` (default), `manual` or `error`.
    #[serde(default)]
    pub redirect: Redirect,
    /// How to verify an `https:` server (node:https's options).
    #[serde(default)]
    pub tls: TlsOptions,
    /// The body (not part of the JSON head).
    #[serde(skip)]
    pub body: Bytes,
}

/// node:https's per-request TLS options (on the request or its Agent).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TlsOptions {
    /// PEM certificates trusted instead of the node's roots (`ca`).
    #[serde(default)]
    pub ca: Option<Vec<String>>,
    /// Whether a server that fails verification is refused
    /// (`rejectUnauthorized`, default true).
    #[serde(default = "yes")]
    pub reject_unauthorized: bool,
}

fn yes() -> bool {
    true
}

impl Default for TlsOptions {
    fn default() -> Self {
        Self {
            ca: None,
            reject_unauthorized: true,
        }
    }
}

/// What to do with a 3xx answer, as fetch's `redirect` option.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Redirect {
    /// Follow up to 20 redirects.
    #[default]
    Follow,
    /// Hand the 3xx answer to the Function.
    Manual,
    /// Fail the request.
    Error,
}

/// A completed outbound request.
#[derive(Debug, Clone, Serialize)]
pub struct OutboundResponse {
    /// Status code.
    pub status: u16,
    /// Reason phrase.
    #[serde(rename = "statusText")]
    pub status_text: String,
    /// Header pairs (content-encoding removed when the body was decoded).
    pub headers: Vec<(String, String)>,
    /// The final URL after redirects.
    pub url: String,
    /// Whether a redirect was followed.
    pub redirected: bool,
    /// For `https:`, whether the server passed verification (false only
    /// when `rejectUnauthorized` was off), as `socket.authorized`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub authorized: Option<bool>,
    /// Why it did not, as Node's `socket.authorizationError` code.
    #[serde(rename = "authorizationError", skip_serializing_if = "Option::is_none")]
    pub authorization_error: Option<&'static str>,
    /// The (decoded) body; not part of the JSON head.
    #[serde(skip)]
    pub body: Bytes,
}

/// Why an outbound request failed; the Function sees `kind` and `message`
/// on the rejected promise's error.
#[derive(Debug, Clone, thiserror::Error, Serialize)]
#[error("{message}")]
pub struct OutboundError {
    /// `policy` (egress denied), `limit`, `timeout`, `aborted`, `network`,
    /// `invalid`.
    pub kind: &'static str,
    /// What happened, naming the host where it matters.
    pub message: String,
    /// Node's error code where one applies (`DEPTH_ZERO_SELF_SIGNED_CERT`).
    pub code: Option<&'static str>,
}

impl OutboundError {
    /// An error of `kind`.
    pub fn new(kind: &'static str, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
            code: None,
        }
    }

    /// The same error carrying Node's error `code`.
    pub fn with_code(mut self, code: &'static str) -> Self {
        self.code = Some(code);
        self
    }
}

/// The Function an invocation runs, as outbound policies and logs see it.
#[derive(Debug, Clone, Default)]
pub struct FunctionIdentity {
    /// The Function's namespace.
    pub namespace: String,
    /// The Function's name.
    pub name: String,
}

/// Performs outbound requests for Functions. Implemented by the node
/// (`shoal-outbound`): the HTTP client, TLS, egress policy and body limit.
pub trait Outbound: Send + Sync + 'static {
    /// Performs `request` for `function`, giving up after `timeout`.
    fn send(
        &self,
        function: &FunctionIdentity,
        request: OutboundRequest,
        timeout: Duration,
    ) -> futures::future::BoxFuture<'static, Result<OutboundResponse, OutboundError>>;
}

/// Per-invocation limits on outbound calls.
#[derive(Debug, Clone, Copy)]
pub struct OutboundLimits {
    /// Requests one invocation may start.
    pub max_requests: u32,
}

impl Default for OutboundLimits {
    fn default() -> Self {
        Self { max_requests: 50 }
    }
}

type Completed = (i32, Result<OutboundResponse, OutboundError>);

/// The host-call state of one sandbox.
pub(crate) struct HostCalls {
    outbound: Option<Arc<dyn Outbound>>,
    function: FunctionIdentity,
    limits: OutboundLimits,
    started: u32,
    next_id: i32,
    in_flight: FuturesUnordered<tokio::task::JoinHandle<Completed>>,
    aborts: HashMap<i32, tokio::task::AbortHandle>,
    /// Results waiting for the guest: `(head JSON, body)`.
    results: HashMap<i32, (Vec<u8>, Bytes)>,
}

impl HostCalls {
    pub(crate) fn new(outbound: Option<Arc<dyn Outbound>>, function: FunctionIdentity, limits: OutboundLimits) -> Self {
        Self {
            outbound,
            function,
            limits,
            started: 0,
            next_id: 1,
            in_flight: FuturesUnordered::new(),
            aborts: HashMap::new(),
            results: HashMap::new(),
        }
    }

    /// A new request starts in the same sandbox: its own count of outbound
    /// requests. Calls an earlier request left running carry on.
    pub(crate) fn begin_request(&mut self, limits: OutboundLimits) {
        self.limits = limits;
        self.started = 0;
    }

    fn finish(&mut self, id: i32, result: Result<OutboundResponse, OutboundError>) {
        self.aborts.remove(&id);
        let (head, body) = match result {
            Ok(response) => (serde_json::to_vec(&response).unwrap_or_default(), response.body),
            Err(error) => (
                serde_json::to_vec(
                    &serde_json::json!({"error": error.message, "kind": error.kind, "code": error.code}),
                )
                .unwrap_or_default(),
                Bytes::new(),
            ),
        };
        self.results.insert(id, (head, body));
    }

    fn start(&mut self, request: Result<OutboundRequest, OutboundError>, remaining: Duration) -> i32 {
        let id = self.next_id;
        self.next_id += 1;
        self.started += 1;
        let request = request.and_then(|r| {
            if self.started > self.limits.max_requests {
                Err(OutboundError::new(
                    "limit",
                    format!(
                        "outbound request limit reached: a Function may make {} requests per invocation",
                        self.limits.max_requests
                    ),
                ))
            } else {
                Ok(r)
            }
        });
        let (request, outbound) = match (request, &self.outbound) {
            (Err(e), _) => {
                self.finish(id, Err(e));
                return id;
            }
            (Ok(_), None) => {
                self.finish(
                    id,
                    Err(OutboundError::new(
                        "policy",
                        "outbound HTTP is not enabled on this node",
                    )),
                );
                return id;
            }
            (Ok(r), Some(o)) => (r, o.clone()),
        };
        let call = outbound.send(&self.function, request, remaining);
        let task = tokio::spawn(async move { (id, call.await) });
        self.aborts.insert(id, task.abort_handle());
        self.in_flight.push(task);
        id
    }
}

impl Drop for HostCalls {
    fn drop(&mut self) {
        // A finished (or failed) invocation stops what it started.
        for abort in self.aborts.values() {
            abort.abort();
        }
    }
}

pub(crate) fn guest_bytes(caller: &mut Caller<'_, RequestState>, ptr: i32, len: i32) -> wasmtime::Result<Vec<u8>> {
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

pub(crate) fn write_guest(caller: &mut Caller<'_, RequestState>, ptr: i32, bytes: &[u8]) -> wasmtime::Result<()> {
    let memory = caller
        .get_export("memory")
        .and_then(|e| e.into_memory())
        .ok_or_else(|| wasmtime::Error::msg("the engine exports no memory"))?;
    memory
        .write(&mut *caller, ptr as u32 as usize, bytes)
        .map_err(|_| wasmtime::Error::msg("guest buffer out of range"))
}

/// Adds the `shoal_host_v1` imports to `linker`.
pub(crate) fn add_to_linker(linker: &mut Linker<RequestState>) -> wasmtime::Result<()> {
    linker.func_wrap(
        HOST_MODULE,
        "http_start",
        |mut caller: Caller<'_, RequestState>,
         head: i32,
         head_len: i32,
         body: i32,
         body_len: i32|
         -> wasmtime::Result<i32> {
            let head = guest_bytes(&mut caller, head, head_len)?;
            let body = guest_bytes(&mut caller, body, body_len)?;
            let request = serde_json::from_slice::<OutboundRequest>(&head)
                .map_err(|e| OutboundError::new("invalid", format!("invalid outbound request: {e}")))
                .map(|mut r| {
                    r.body = Bytes::from(body);
                    r
                });
            let state = caller.data_mut();
            let remaining = state.deadline.saturating_duration_since(Instant::now());
            Ok(state.calls.start(request, remaining))
        },
    )?;
    linker.func_wrap(
        HOST_MODULE,
        "http_cancel",
        |mut caller: Caller<'_, RequestState>, id: i32| {
            let calls = &mut caller.data_mut().calls;
            if let Some(abort) = calls.aborts.remove(&id) {
                abort.abort();
                calls.finish(id, Err(OutboundError::new("aborted", "This operation was aborted")));
            }
        },
    )?;
    linker.func_wrap_async(
        HOST_MODULE,
        "wait",
        |mut caller: Caller<'_, RequestState>, (timeout_ms,): (f64,)| {
            Box::new(async move {
                let state = caller.data_mut();
                let now = Instant::now();
                if now >= state.deadline {
                    return Err(DeadlineExceeded.into());
                }
                let until = if timeout_ms.is_finite() && timeout_ms >= 0.0 {
                    (now + Duration::from_secs_f64(timeout_ms / 1000.0)).min(state.deadline)
                } else {
                    state.deadline
                };
                // Results already completed (e.g. refused at start) first.
                if let Some(id) = state.calls.results.keys().min().copied() {
                    return Ok(id);
                }
                if state.calls.in_flight.is_empty() {
                    if timeout_ms.is_finite() && timeout_ms >= 0.0 {
                        tokio::time::sleep_until(until.into()).await;
                    }
                    return Ok(0);
                }
                match tokio::time::timeout_at(until.into(), state.calls.in_flight.next()).await {
                    Ok(Some(Ok((id, result)))) => {
                        if state.calls.aborts.contains_key(&id) {
                            state.calls.finish(id, result);
                        }
                        Ok(id)
                    }
                    // A cancelled task: its abort result is already there.
                    Ok(Some(Err(_))) | Ok(None) | Err(_) => Ok(0),
                }
            })
        },
    )?;
    linker.func_wrap(
        HOST_MODULE,
        "result_size",
        |mut caller: Caller<'_, RequestState>, id: i32, out: i32| -> wasmtime::Result<i32> {
            let Some((head, body)) = caller.data().calls.results.get(&id) else {
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
        HOST_MODULE,
        "result_read",
        |mut caller: Caller<'_, RequestState>, id: i32, head_ptr: i32, body_ptr: i32| -> wasmtime::Result<i32> {
            let Some((head, body)) = caller.data_mut().calls.results.remove(&id) else {
                return Ok(-1);
            };
            write_guest(&mut caller, head_ptr, &head)?;
            write_guest(&mut caller, body_ptr, &body)?;
            Ok(0)
        },
    )?;
    Ok(())
}
