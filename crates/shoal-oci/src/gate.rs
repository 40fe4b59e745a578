//! The registry gate: the in-cluster registry's only door.
//!
//! The registry itself (CNCF distribution) listens on the pod's loopback
//! and trusts whoever reaches it; the gate, beside it in the pod, is what
//! the registry's Service points to. It lets through:
//! - the node pods, with their password: pulls of any Function's module
//!   under the repository prefix, nothing else;
//! - a build, with a token the controller minted ([`crate::token`]): pushes
//!   and pulls of its own Function's repository until the token expires;
//! - nobody, for deletes, the catalog, or a blob mounted from another
//!   repository.
//!
//! Without credentials the answer is 401 with a Basic challenge (which is
//! how OCI clients learn to send them); with credentials that do not allow
//! the request, 403 with an OCI `DENIED` error.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use bytes::Bytes;
use http::{HeaderValue, Method, Request, Response, StatusCode, header};
use http_body_util::{BodyExt, Full, combinators::BoxBody};
use hyper::body::Incoming;
use hyper_util::client::legacy::{Client, connect::HttpConnector};
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::net::TcpListener;

use crate::token::{Grant, TokenKey};

/// The user name the node pods present with their password.
pub const NODE_USER: &str = "shoal-node";

/// How the gate decides and where it forwards.
#[derive(Debug, Clone)]
pub struct GateConfig {
    /// The registry behind the gate (on the pod's loopback).
    pub upstream: SocketAddr,
    /// The repository prefix Functions' modules live under (`functions`):
    /// what the node pods may pull.
    pub repository_prefix: String,
    /// The node pods' password.
    pub node_password: String,
    /// The key build tokens are signed with.
    pub key: TokenKey,
}

/// Who is asking.
#[derive(Debug)]
enum Caller {
    Node,
    Build(Grant),
}

/// What a request does to a repository.
#[derive(Debug, PartialEq, Eq)]
enum Access {
    Pull,
    Push,
}

/// The gate: decides, then forwards to the registry.
pub struct Gate {
    config: GateConfig,
    /// One pooled client for forwarded requests and health checks alike.
    client: Client<HttpConnector, GateBody>,
}

type GateBody = BoxBody<Bytes, hyper::Error>;

impl Gate {
    /// A gate in front of `config.upstream`.
    pub fn new(config: GateConfig) -> Arc<Self> {
        Arc::new(Self {
            config,
            client: Client::builder(TokioExecutor::new()).build_http(),
        })
    }

    /// Serves `listener` until `shutdown` completes.
    ///
    /// # Errors
    /// When accepting fails for good.
    pub async fn serve(
        self: Arc<Self>,
        listener: TcpListener,
        shutdown: impl std::future::Future<Output = ()>,
    ) -> std::io::Result<()> {
        let mut shutdown = std::pin::pin!(shutdown);
        loop {
            let (stream, _) = tokio::select! {
                () = &mut shutdown => return Ok(()),
                accepted = listener.accept() => match accepted {
                    Ok(accepted) => accepted,
                    Err(e) => {
                        tracing::debug!(error = %e, "accepting a registry connection");
                        continue;
                    }
                },
            };
            let gate = self.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |req| {
                    let gate = gate.clone();
                    async move { Ok::<_, std::convert::Infallible>(gate.handle(req).await) }
                });
                let mut http = hyper::server::conn::http1::Builder::new();
                // A client that never finishes its headers is let go.
                http.timer(hyper_util::rt::TokioTimer::new())
                    .header_read_timeout(Duration::from_secs(30));
                if let Err(e) = http.serve_connection(TokioIo::new(stream), service).await {
                    tracing::debug!(error = %e, "registry connection ended");
                }
            });
        }
    }

    /// Answers one request: refused here, or forwarded to the registry.
    pub async fn handle(&self, req: Request<Incoming>) -> Response<GateBody> {
        if req.method() == Method::GET && req.uri().path() == "/healthz" {
            return self.health().await;
        }
        let caller = match self.caller(req.headers()) {
            Some(caller) => caller,
            None => return challenge(),
        };
        let decision = route(req.method(), req.uri().path(), req.uri().query().unwrap_or(""));
        let allowed = match &decision {
            Ok(None) => Ok(()),
            Ok(Some((repository, access))) => self.allows(&caller, repository, access),
            Err(refusal) => Err(refusal.to_string()),
        };
        if let Err(why) = allowed {
            tracing::info!(caller = ?caller, method = %req.method(), path = %req.uri().path(), %why, "registry request refused");
            return denied(&why);
        }
        self.forward(req).await
    }

    fn caller(&self, headers: &http::HeaderMap) -> Option<Caller> {
        let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
        let encoded = value.strip_prefix("Basic ").or_else(|| value.strip_prefix("basic "))?;
        let decoded = STANDARD.decode(encoded.trim()).ok()?;
        let decoded = String::from_utf8(decoded).ok()?;
        let (user, password) = decoded.split_once(':')?;
        if user == NODE_USER && constant_time_eq(password.as_bytes(), self.config.node_password.as_bytes()) {
            return Some(Caller::Node);
        }
        match self.config.key.verify(password, crate::token::now()) {
            Ok(grant) => Some(Caller::Build(grant)),
            Err(e) => {
                tracing::debug!(error = %e, "registry credentials refused");
                None
            }
        }
    }

    fn allows(&self, caller: &Caller, repository: &str, access: &Access) -> Result<(), String> {
        match caller {
            Caller::Node if *access == Access::Pull => {
                let under = format!("{}/", self.config.repository_prefix.trim_matches('/'));
                if repository.starts_with(&under) {
                    Ok(())
                } else {
                    Err(format!("the node pods pull only repositories under {under}"))
                }
            }
            Caller::Node => Err("the node pods may only pull".into()),
            Caller::Build(grant) if grant.repository == repository => Ok(()),
            Caller::Build(grant) => Err(format!(
                "this build's token is for {} only, not {repository}",
                grant.repository
            )),
        }
    }

    async fn forward(&self, req: Request<Incoming>) -> Response<GateBody> {
        let (mut parts, body) = req.into_parts();
        let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
        let Ok(uri) = format!("http://{}{path}", self.config.upstream).parse::<http::Uri>() else {
            return plain(StatusCode::BAD_REQUEST, "bad request path");
        };
        parts.uri = uri;
        // The registry behind trusts the gate; the caller's credentials stop here.
        parts.headers.remove(header::AUTHORIZATION);
        match self.client.request(Request::from_parts(parts, body.boxed())).await {
            Ok(response) => response.map(|b| b.boxed()),
            Err(e) => {
                tracing::warn!(error = %e, "the registry behind the gate did not answer");
                plain(StatusCode::BAD_GATEWAY, "the registry is not answering")
            }
        }
    }

    /// 200 when the registry behind answers its version check.
    async fn health(&self) -> Response<GateBody> {
        let Ok(uri) = format!("http://{}/v2/", self.config.upstream).parse::<http::Uri>() else {
            return plain(StatusCode::INTERNAL_SERVER_ERROR, "bad upstream");
        };
        let request = Request::get(uri).body(Full::default().map_err(|never| match never {}).boxed());
        match request {
            Ok(request) => match self.client.request(request).await {
                Ok(r) if r.status().is_success() => plain(StatusCode::OK, "OK"),
                Ok(r) => plain(
                    StatusCode::SERVICE_UNAVAILABLE,
                    &format!("registry answered {}", r.status()),
                ),
                Err(e) => plain(StatusCode::SERVICE_UNAVAILABLE, &format!("registry not answering: {e}")),
            },
            Err(_) => plain(StatusCode::INTERNAL_SERVER_ERROR, "bad request"),
        }
    }
}

/// Why a request is refused whoever asks.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
enum Refusal {
    #[error("nothing is deleted from the registry")]
    Delete,
    #[error("the catalog of repositories is not listed")]
    Catalog,
    #[error("a blob is mounted only from the same repository")]
    Mount,
    #[error("not a registry API path")]
    Unknown,
}

/// The repository a request touches and how, as the registry routes it
/// (by the path's tail); `None` for the version check.
fn route(method: &Method, path: &str, query: &str) -> Result<Option<(String, Access)>, Refusal> {
    let path = path.trim_end_matches('/');
    if path == "/v2" {
        return Ok(None);
    }
    if *method == Method::DELETE {
        return Err(Refusal::Delete);
    }
    let rest = path.strip_prefix("/v2/").ok_or(Refusal::Unknown)?;
    if rest == "_catalog" {
        return Err(Refusal::Catalog);
    }
    let segments: Vec<&str> = rest.split('/').collect();
    let n = segments.len();
    let tail = |k: usize| n.checked_sub(k).and_then(|i| segments.get(i)).copied();
    // Tails: blobs/<digest>, blobs/uploads[/<id>], manifests/<ref>, tags/list.
    let blob = tail(2) == Some("blobs") && tail(1).is_some_and(|digest| digest.contains(':'));
    let upload_start = tail(2) == Some("blobs") && tail(1) == Some("uploads");
    let repository_len = if blob || upload_start {
        n - 2
    } else if tail(2) == Some("uploads") && tail(3) == Some("blobs") {
        n - 3
    } else if tail(2) == Some("manifests") || (tail(2) == Some("tags") && tail(1) == Some("list")) {
        n - 2
    } else {
        return Err(Refusal::Unknown);
    };
    if repository_len == 0 {
        return Err(Refusal::Unknown);
    }
    let repository = segments[..repository_len].join("/");
    let access = match *method {
        Method::GET | Method::HEAD => Access::Pull,
        Method::POST | Method::PUT | Method::PATCH => Access::Push,
        _ => return Err(Refusal::Unknown),
    };
    let from = query
        .split('&')
        .find_map(|pair| pair.strip_prefix("from="))
        .map(|from| from.replace("%2F", "/").replace("%2f", "/"));
    if query.split('&').any(|pair| pair.starts_with("mount=")) && from.as_deref() != Some(repository.as_str()) {
        return Err(Refusal::Mount);
    }
    Ok(Some((repository, access)))
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    use subtle::ConstantTimeEq;
    a.len() == b.len() && bool::from(a.ct_eq(b))
}

fn plain(status: StatusCode, text: &str) -> Response<GateBody> {
    let mut response = Response::new(
        Full::new(Bytes::from(text.to_string()))
            .map_err(|never| match never {})
            .boxed(),
    );
    *response.status_mut() = status;
    response
}

fn challenge() -> Response<GateBody> {
    let mut response = oci_error(StatusCode::UNAUTHORIZED, "UNAUTHORIZED", "authentication required");
    response.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static("Basic realm=\"shoal-registry\""),
    );
    response
}

fn denied(why: &str) -> Response<GateBody> {
    oci_error(StatusCode::FORBIDDEN, "DENIED", why)
}

fn oci_error(status: StatusCode, code: &str, message: &str) -> Response<GateBody> {
    let body = serde_json::json!({"errors": [{"code": code, "message": message}]}).to_string();
    let mut response = plain(status, &body);
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_routed_to_the_repository_the_registry_would_use() {
        let get = Method::GET;
        let cases = [
            ("/v2/functions/a/b/manifests/v1", Some(("functions/a/b", Access::Pull))),
            (
                "/v2/functions/a/b/blobs/sha256:00",
                Some(("functions/a/b", Access::Pull)),
            ),
            ("/v2/functions/a/b/tags/list", Some(("functions/a/b", Access::Pull))),
            // A repository whose names look like the API's words.
            (
                "/v2/functions/blobs/uploads/blobs/sha256:00",
                Some(("functions/blobs/uploads", Access::Pull)),
            ),
            (
                "/v2/functions/manifests/x/manifests/v1",
                Some(("functions/manifests/x", Access::Pull)),
            ),
        ];
        for (path, expected) in cases {
            let routed = route(&get, path, "").unwrap();
            assert_eq!(routed, expected.map(|(r, a)| (r.to_string(), a)), "{path}");
        }
        assert_eq!(
            route(&Method::POST, "/v2/functions/a/b/blobs/uploads/", "").unwrap(),
            Some(("functions/a/b".into(), Access::Push))
        );
        assert_eq!(
            route(&Method::PATCH, "/v2/functions/a/b/blobs/uploads/3f2a", "").unwrap(),
            Some(("functions/a/b".into(), Access::Push))
        );
        assert_eq!(route(&get, "/v2/", "").unwrap(), None);
    }

    #[test]
    fn deletes_the_catalog_foreign_mounts_and_other_paths_are_refused() {
        assert_eq!(
            route(&Method::DELETE, "/v2/functions/a/b/manifests/sha256:00", ""),
            Err(Refusal::Delete)
        );
        assert_eq!(route(&Method::GET, "/v2/_catalog", ""), Err(Refusal::Catalog));
        assert_eq!(
            route(
                &Method::POST,
                "/v2/functions/a/b/blobs/uploads/",
                "mount=sha256:00&from=functions%2Fc%2Fd"
            ),
            Err(Refusal::Mount)
        );
        assert!(
            route(
                &Method::POST,
                "/v2/functions/a/b/blobs/uploads/",
                "mount=sha256:00&from=functions%2Fa%2Fb"
            )
            .is_ok()
        );
        for path in ["/", "/v2/manifests/v1", "/other", "/v2/functions/a/b"] {
            assert!(route(&Method::GET, path, "").is_err(), "{path}");
        }
    }
}
