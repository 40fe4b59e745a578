//! A stand-in for the build service in the control-plane benchmark. It
//! speaks the service's protocol (it checks the controller's signature and
//! signs its answers, so the controller's client, dispatch and triggers run
//! as in a cluster) and answers each build after [`BUILD_COST`], the wall
//! time one build takes in the real service, as many at once as are sent:
//! a build service scaled out for the load. It builds nothing; what is
//! measured is the control plane around the builds.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use shoal_builder::protocol::{Purpose, SIGNATURE_HEADER, signature_of};
use shoal_builder::{BuildAnswer, BuildKey, BuildOutcome, BuildRequest};

/// One build's wall time in the build service, as its log measured it on
/// the test cluster (hello world, 2 CPUs, bundling in a kept bundler: over
/// 1,207 builds, median 268 ms from request to pushed, p10 203, p90 390;
/// `elapsed_ms` of "built and pushed").
pub const BUILD_COST: Duration = Duration::from_millis(270);

/// The stand-in, serving on 127.0.0.1 until dropped with the runtime.
pub struct SimBuilder {
    /// Where it listens.
    pub address: SocketAddr,
    /// The key it shares with the controller.
    pub key: BuildKey,
    answered: Arc<AtomicUsize>,
}

impl SimBuilder {
    /// Starts it; modules are named as pushed to `registry`.
    pub async fn start(registry: &str) -> anyhow::Result<Self> {
        let key = BuildKey::new(b"the-benchmark's-build-service-key-0123456789")?;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let address = listener.local_addr()?;
        let answered = Arc::new(AtomicUsize::new(0));
        let (serving_key, registry, count) = (key.clone(), registry.to_string(), answered.clone());
        let state = (serving_key, registry, count);
        shoal_tests::serve_http(listener, state, |req, (key, registry, count)| async move {
            answer(req, &key, &registry, &count).await
        });
        Ok(Self { address, key, answered })
    }

    /// Builds answered so far.
    pub fn answered(&self) -> usize {
        self.answered.load(Ordering::SeqCst)
    }
}

async fn answer(
    req: hyper::Request<hyper::body::Incoming>,
    key: &BuildKey,
    registry: &str,
    answered: &AtomicUsize,
) -> hyper::Response<Full<Bytes>> {
    let refuse = |status: u16| {
        let mut response = hyper::Response::new(Full::new(Bytes::new()));
        *response.status_mut() = http::StatusCode::from_u16(status).unwrap_or(http::StatusCode::BAD_REQUEST);
        response
    };
    let signature = signature_of(req.headers());
    let Ok(body) = req.into_body().collect().await.map(|b| b.to_bytes()) else {
        return refuse(400);
    };
    if !key.verify(Purpose::Request, &body, &signature) {
        return refuse(401);
    }
    let Ok(request) = serde_json::from_slice::<BuildRequest>(&body) else {
        return refuse(400);
    };
    tokio::time::sleep(BUILD_COST).await;
    let digest: String = request.hash.chars().chain(std::iter::repeat('0')).take(64).collect();
    let answer = BuildAnswer {
        outcome: BuildOutcome::Built {
            artifact: format!("{registry}/{}/{}@sha256:{digest}", request.namespace, request.name),
            reused: false,
        },
        namespace: request.namespace,
        name: request.name,
        hash: request.hash,
    };
    let body = serde_json::to_vec(&answer).unwrap_or_default();
    let mut response = hyper::Response::new(Full::new(Bytes::from(body.clone())));
    if let Ok(value) = http::HeaderValue::from_str(&key.sign(Purpose::Answer, &body)) {
        response.headers_mut().insert(SIGNATURE_HEADER, value);
    }
    answered.fetch_add(1, Ordering::SeqCst);
    response
}
