//! The build service's server: authenticated build requests in, signed
//! answers out, each build run once.
//!
//! A request waits on its connection until its build is done. Builds of
//! the same Function at the same hash are one build: a second request
//! (the controller asking again after it restarted, or after the
//! connection broke) waits for the first, or gets its answer if it is
//! done. Before building, the service asks the registry whether the hash's
//! tag is already pushed: a service that pushed and then died before it
//! answered is not made to build again by the retry. A build runs in its
//! own task, so a caller that goes away does not stop it; at most
//! `concurrency` builds run at once and the rest wait their turn.

use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use bytes::Bytes;
use http::{Method, Request, Response, StatusCode};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use serde::Serialize;
use shoal_oci::{ArtifactMetadata, Credentials, Registry};
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};

use crate::protocol::{
    BUILDS_PATH, BuildAnswer, BuildKey, BuildLimits, BuildOutcome, BuildRequest, MAX_REQUEST_BYTES, Purpose,
    SIGNATURE_HEADER, is_plain_name, signature_of,
};
use crate::sandbox::{self, SandboxConfig};

/// Answers kept after their build, for a caller that asks again.
const KEPT_ANSWERS: usize = 4096;

/// How the service pushes modules.
#[derive(Debug, Clone)]
pub enum PushAuth {
    /// The same credentials for every repository (an external registry).
    Credentials(Credentials),
    /// A token for the one Function's repository per build, signed with
    /// the in-cluster registry gate's key.
    Token(shoal_oci::token::TokenKey),
}

/// How the service runs.
#[derive(Debug, Clone)]
pub struct ServiceConfig {
    /// The key requests are checked and answers signed with.
    pub key: BuildKey,
    /// Where modules go: `host[:port][/prefix]`; a Function's repository is
    /// `<registry>/<namespace>/<name>`.
    pub registry: String,
    /// How pushes authenticate.
    pub push_auth: PushAuth,
    /// Builds at once.
    pub concurrency: usize,
    /// The most a request may ask for: a Function that needs more is built
    /// by a Job instead.
    pub max_limits: BuildLimits,
    /// Where and how builds run.
    pub sandbox: SandboxConfig,
}

/// Counts of what the service did, served at `/v1/status`.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Counts {
    /// Build requests answered (signed ones only).
    pub requests: u64,
    /// Builds run to the end (built or failed).
    pub builds_run: u64,
    /// Requests answered with a module pushed before (no build).
    pub reused: u64,
    /// Builds that failed or went over a limit.
    pub failed: u64,
    /// Builds running now.
    pub running: u64,
    /// Builds waiting for a slot.
    pub waiting: u64,
}

/// One build's identity: a Function at a build-input hash.
type BuildId = (String, String, String);

/// How a build ended: an answer for the controller, or a failure of the
/// service's own (the registry refused the push, the disk is full) that
/// says nothing about the Function, so the controller asks again later and
/// the next request builds afresh.
#[derive(Debug, Clone)]
enum Done {
    Answer(BuildAnswer),
    Retry(String),
}

/// The build service.
pub struct BuildService {
    config: ServiceConfig,
    slots: Semaphore,
    /// Builds running or done, by identity: a receiver that holds the
    /// result once there is one.
    builds: Mutex<HashMap<BuildId, watch::Receiver<Option<Done>>>>,
    /// Finished builds, oldest first, to forget the oldest answers.
    finished: Mutex<VecDeque<BuildId>>,
    requests: AtomicU64,
    builds_run: AtomicU64,
    reused: AtomicU64,
    failed: AtomicU64,
    running: AtomicU64,
    waiting: AtomicU64,
    /// Whether [`BuildService::warm_up`] is done: `/readyz` says so.
    warm: std::sync::atomic::AtomicBool,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // The maps stay consistent between statements: a panic elsewhere
    // leaves nothing half-written.
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl BuildService {
    /// A service with nothing built yet.
    pub fn new(config: ServiceConfig) -> Arc<Self> {
        Arc::new(Self {
            slots: Semaphore::new(config.concurrency.max(1)),
            config,
            builds: Mutex::default(),
            finished: Mutex::default(),
            requests: AtomicU64::new(0),
            builds_run: AtomicU64::new(0),
            reused: AtomicU64::new(0),
            failed: AtomicU64::new(0),
            running: AtomicU64::new(0),
            waiting: AtomicU64::new(0),
            warm: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// Builds a hello-world Function of `runtime` once, without pushing,
    /// so that the engine is compiled into the shared cache before the
    /// first real build (which then takes a fraction of a second); the
    /// service reports ready (`/readyz`) after it, whatever its outcome.
    pub async fn warm_up(&self, runtime: &str) {
        let request = BuildRequest {
            namespace: "shoal-builder".into(),
            name: "warm-up".into(),
            hash: String::new(),
            runtime: runtime.into(),
            source: "module.exports = { main: () => 'warm' };\n".into(),
            dependencies: None,
            limits: self.config.max_limits,
        };
        let started = std::time::Instant::now();
        match sandbox::run(&self.config.sandbox, &request).await {
            Ok(_) => tracing::info!(elapsed_ms = started.elapsed().as_millis() as u64, "warmed up"),
            Err(e) => {
                tracing::warn!(error = %crate::causes(&e), "warming up failed; builds compile the engine themselves")
            }
        }
        self.warm.store(true, Ordering::SeqCst);
    }

    /// What the service did so far.
    pub fn counts(&self) -> Counts {
        Counts {
            requests: self.requests.load(Ordering::Relaxed),
            builds_run: self.builds_run.load(Ordering::Relaxed),
            reused: self.reused.load(Ordering::Relaxed),
            failed: self.failed.load(Ordering::Relaxed),
            running: self.running.load(Ordering::Relaxed),
            waiting: self.waiting.load(Ordering::Relaxed),
        }
    }

    /// Serves requests from `listener` until the task is dropped.
    ///
    /// # Errors
    /// Accepting a connection failed.
    pub async fn serve(self: Arc<Self>, listener: TcpListener) -> std::io::Result<()> {
        loop {
            let (stream, peer) = listener.accept().await?;
            let service = self.clone();
            tokio::spawn(async move {
                let handler = hyper::service::service_fn(move |req| {
                    let service = service.clone();
                    async move { Ok::<_, std::convert::Infallible>(service.handle(req, peer).await) }
                });
                if let Err(e) = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), handler)
                    .await
                {
                    tracing::debug!(%peer, error = %e, "build service connection ended");
                }
            });
        }
    }

    async fn handle(self: Arc<Self>, req: Request<Incoming>, peer: SocketAddr) -> Response<Full<Bytes>> {
        match (req.method(), req.uri().path()) {
            (&Method::GET, "/healthz") => text(StatusCode::OK, "ok"),
            (&Method::GET, "/readyz") if self.warm.load(Ordering::SeqCst) => text(StatusCode::OK, "ready"),
            (&Method::GET, "/readyz") => text(StatusCode::SERVICE_UNAVAILABLE, "warming up"),
            (&Method::GET, "/v1/status") => {
                let body = serde_json::to_vec(&self.counts()).unwrap_or_default();
                respond(StatusCode::OK, body, None)
            }
            (&Method::POST, BUILDS_PATH) => self.build_request(req, peer).await,
            _ => text(StatusCode::NOT_FOUND, "not found"),
        }
    }

    async fn build_request(self: Arc<Self>, req: Request<Incoming>, peer: SocketAddr) -> Response<Full<Bytes>> {
        let signature = signature_of(req.headers());
        let body = match Limited::new(req.into_body(), MAX_REQUEST_BYTES).collect().await {
            Ok(body) => body.to_bytes(),
            Err(_) => {
                return text(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "the request is larger than a build takes",
                );
            }
        };
        if !self.config.key.verify(Purpose::Request, &body, &signature) {
            tracing::warn!(%peer, "refused a build request without the controller's signature");
            return text(
                StatusCode::UNAUTHORIZED,
                "the request is not signed with the build service's key",
            );
        }
        let request: BuildRequest = match serde_json::from_slice(&body) {
            Ok(request) => request,
            Err(e) => return text(StatusCode::BAD_REQUEST, &format!("not a build request: {e}")),
        };
        if ![&request.namespace, &request.name].iter().all(|v| is_plain_name(v))
            || request.hash.is_empty()
            || !request.hash.bytes().all(|b| b.is_ascii_hexdigit())
        {
            return text(
                StatusCode::BAD_REQUEST,
                "the namespace, name or hash is not a plain name",
            );
        }
        self.requests.fetch_add(1, Ordering::Relaxed);
        let answer = match self.answer(request).await {
            Done::Answer(answer) => answer,
            Done::Retry(message) => return text(StatusCode::SERVICE_UNAVAILABLE, &message),
        };
        let body = serde_json::to_vec(&answer).unwrap_or_default();
        let signature = self.config.key.sign(Purpose::Answer, &body);
        respond(StatusCode::OK, body, Some(signature))
    }

    /// The answer to `request`: from the build already running or done, or
    /// from a new one. A kept answer naming a module the registry no longer
    /// has (its storage was lost) is dropped and the build runs again.
    async fn answer(self: &Arc<Self>, request: BuildRequest) -> Done {
        let id = (request.namespace.clone(), request.name.clone(), request.hash.clone());
        let mut checked_kept = false;
        loop {
            let (mut done, kept) = self.join_or_start(&id, &request);
            let lost = || Done::Retry("the build service lost this build (its task stopped); ask again".into());
            let result = match done.wait_for(Option::is_some).await {
                Ok(done) => done.clone().unwrap_or_else(lost),
                // The build's task ended without a result (it panicked): the
                // next request starts over.
                Err(_) => {
                    lock(&self.builds).remove(&id);
                    lost()
                }
            };
            if kept
                && !checked_kept
                && let Done::Answer(BuildAnswer {
                    outcome: BuildOutcome::Built { .. },
                    ..
                }) = &result
                && matches!(
                    self.registry(&request).find_pushed(&self.reference(&request)).await,
                    Ok(None)
                )
            {
                tracing::info!(function = %request.label(), "the registry lost this build's module: building it again");
                lock(&self.builds).remove(&id);
                checked_kept = true;
                continue;
            }
            return result;
        }
    }

    /// The build of `id`: the one running or done (and whether it was done
    /// already), or a new one started for `request`.
    fn join_or_start(self: &Arc<Self>, id: &BuildId, request: &BuildRequest) -> (watch::Receiver<Option<Done>>, bool) {
        let mut builds = lock(&self.builds);
        if let Some(existing) = builds.get(id) {
            let finished = existing.borrow().is_some();
            return (existing.clone(), finished);
        }
        let (tx, rx) = watch::channel(None);
        builds.insert(id.clone(), rx.clone());
        let service = self.clone();
        let build_request = request.clone();
        let id = id.clone();
        tokio::spawn(async move {
            let done = service.build(build_request).await;
            // Only a module is remembered: a failure is not, so a retry
            // (the Function's rebuild annotation) builds again.
            let built = matches!(
                done,
                Done::Answer(BuildAnswer {
                    outcome: BuildOutcome::Built { .. },
                    ..
                })
            );
            if built {
                service.remember(id);
            } else {
                lock(&service.builds).remove(&id);
            }
            tx.send_replace(Some(done));
        });
        (rx, false)
    }

    /// Keeps `id`'s answer for later requests, forgetting the oldest.
    fn remember(&self, id: BuildId) {
        let mut finished = lock(&self.finished);
        finished.push_back(id);
        while finished.len() > KEPT_ANSWERS {
            if let Some(old) = finished.pop_front() {
                lock(&self.builds).remove(&old);
            }
        }
    }

    /// Builds and pushes `request`, unless its tag is pushed already.
    #[tracing::instrument(skip_all, fields(function = %request.label()))]
    async fn build(&self, request: BuildRequest) -> Done {
        let outcome = match self.outcome(&request).await {
            Ok(outcome) => outcome,
            Err(message) => {
                tracing::warn!(%message, "build not done: the service could not");
                return Done::Retry(message);
            }
        };
        if let BuildOutcome::Failed { message } = &outcome {
            self.failed.fetch_add(1, Ordering::Relaxed);
            tracing::info!(%message, "build failed");
        }
        Done::Answer(BuildAnswer {
            namespace: request.namespace,
            name: request.name,
            hash: request.hash,
            outcome,
        })
    }

    /// The build's outcome, or why the service could not find one.
    async fn outcome(&self, request: &BuildRequest) -> Result<BuildOutcome, String> {
        let limits = self.config.max_limits;
        if request.limits.memory_bytes > limits.memory_bytes || request.limits.deadline_secs > limits.deadline_secs {
            return Ok(BuildOutcome::Failed {
                message: format!(
                    "the build asks for {} MiB and {} s; the build service gives at most {} MiB and {} s",
                    request.limits.memory_bytes / (1024 * 1024),
                    request.limits.deadline_secs,
                    limits.memory_bytes / (1024 * 1024),
                    limits.deadline_secs
                ),
            });
        }
        let reference = self.reference(request);
        let registry = self.registry(request);
        let function = format!("{}/{}", request.namespace, request.name);
        match registry.find_pushed(&reference).await {
            Ok(Some((pushed, metadata))) if metadata.function == function && metadata.source_hash == request.hash => {
                self.reused.fetch_add(1, Ordering::Relaxed);
                tracing::info!(artifact = %pushed.pinned, "already pushed: not built again");
                return Ok(BuildOutcome::Built {
                    artifact: pushed.pinned,
                    reused: true,
                });
            }
            Ok(_) => {}
            // The build pushes over it, or fails with the registry's reason.
            Err(e) => tracing::warn!(error = %crate::causes(&e), "could not ask the registry for an earlier push"),
        }

        self.waiting.fetch_add(1, Ordering::Relaxed);
        let permit = self.slots.acquire().await;
        self.waiting.fetch_sub(1, Ordering::Relaxed);
        let Ok(_permit) = permit else {
            return Err("the build service is shutting down".into());
        };
        self.running.fetch_add(1, Ordering::Relaxed);
        let started = std::time::Instant::now();
        let built = sandbox::run(&self.config.sandbox, request).await;
        self.running.fetch_sub(1, Ordering::Relaxed);
        self.builds_run.fetch_add(1, Ordering::Relaxed);
        let module = match built {
            Ok(module) => module,
            Err(e @ sandbox::SandboxError::Io(_)) => return Err(crate::causes(&e)),
            Err(e) => {
                return Ok(BuildOutcome::Failed {
                    message: crate::causes(&e),
                });
            }
        };
        if module.source_hash != request.hash {
            return Ok(BuildOutcome::Failed {
                message: format!(
                    "the build computed input hash {} for a request at {}: the controller and the builder disagree on what a build depends on (different versions?)",
                    module.source_hash, request.hash
                ),
            });
        }
        let metadata = ArtifactMetadata {
            function,
            source_hash: module.source_hash,
            engine_version: module.engine_version,
        };
        match registry.push(&reference, &module.wasm, &metadata).await {
            Ok(pushed) => {
                tracing::info!(artifact = %pushed.pinned, elapsed_ms = started.elapsed().as_millis() as u64, "built and pushed");
                Ok(BuildOutcome::Built {
                    artifact: pushed.pinned,
                    reused: false,
                })
            }
            Err(e) => Err(format!("pushing to {reference}: {}", crate::causes(&e))),
        }
    }

    /// The tag a build pushes to: one per build-input hash.
    fn reference(&self, request: &BuildRequest) -> String {
        let short: String = request.hash.chars().take(16).collect();
        format!(
            "{}/{}/{}:{short}",
            self.config.registry.trim_end_matches('/'),
            request.namespace,
            request.name
        )
    }

    /// A registry client that may push `request`'s repository.
    fn registry(&self, request: &BuildRequest) -> Registry {
        let reference = self.reference(request);
        let credentials = match &self.config.push_auth {
            PushAuth::Credentials(credentials) => credentials.clone(),
            PushAuth::Token(key) => {
                let prefix = self
                    .config
                    .registry
                    .trim_end_matches('/')
                    .split_once('/')
                    .map_or(String::new(), |(_, path)| format!("{path}/"));
                let grant = shoal_oci::token::Grant {
                    repository: format!("{prefix}{}/{}", request.namespace, request.name),
                    expires: shoal_oci::token::now().saturating_add(request.limits.deadline_secs.saturating_add(600)),
                };
                Credentials::Basic {
                    username: "shoal-build".into(),
                    password: key.mint(&grant),
                }
            }
        };
        Registry::for_reference(&reference, credentials)
    }
}

fn text(status: StatusCode, message: &str) -> Response<Full<Bytes>> {
    respond(status, message.as_bytes().to_vec(), None)
}

fn respond(status: StatusCode, body: Vec<u8>, signature: Option<String>) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    if let Some(signature) = signature.and_then(|s| http::HeaderValue::from_str(&s).ok()) {
        response.headers_mut().insert(SIGNATURE_HEADER, signature);
    }
    response
}
