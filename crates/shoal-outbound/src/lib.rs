//! Outbound HTTP for Functions: the node performs a Function's `fetch`,
//! `http.request` or axios call on its own tokio runtime.
//!
//! This crate owns the HTTP client (hyper over rustls, HTTP/1.1 and HTTP/2
//! by ALPN, the system's roots plus an optional CA bundle, node:https's
//! per-request `ca` and `rejectUnauthorized` with Node's error codes), redirects, gzip
//! and deflate decoding, the response-size limit and the egress policy
//! (allow/deny host patterns for the node and per namespace). It implements
//! [`shoal_runtime::Outbound`]; counting requests per invocation and bounding
//! each by the Function's remaining `FUNC_TIMEOUT` stay with the runtime,
//! which hands the remaining time in. It must not know about Kubernetes or
//! the Kyma contract.

mod tls;

use std::collections::{BTreeMap, HashMap};
use std::io::Read;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use futures::future::BoxFuture;
use http::{HeaderName, HeaderValue, Method, StatusCode};
use http_body_util::{BodyExt, Full, Limited};
use hyper_rustls::{HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::{Client, connect::HttpConnector};
use hyper_util::rt::TokioExecutor;
use rustls::pki_types::{CertificateDer, pem::PemObject};
use shoal_runtime::{
    FunctionIdentity, Outbound, OutboundError, OutboundRequest, OutboundResponse, Redirect, TlsOptions,
};
use tls::NodeVerifier;

pub use tls::NodeTlsError;
use url::Url;

/// A host pattern of an egress policy: `example.com` (that host),
/// `*.example.com` (its subdomains), `*` (anything), each optionally with
/// `:port`. IP addresses match literally.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostPattern {
    host: String,
    port: Option<u16>,
}

impl std::str::FromStr for HostPattern {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        let s = text.trim().to_ascii_lowercase();
        let bad_port = |p: &str| p.parse::<u16>().map_err(|_| format!("{text}: {p:?} is not a port"));
        // `[v6]:port`, `[v6]`, `host:port`, `host`, or a bare IPv6 address.
        let (host, port) = if let Some(rest) = s.strip_prefix('[') {
            let (host, after) = rest.split_once(']').ok_or_else(|| format!("{text}: unclosed '['"))?;
            let port = after.strip_prefix(':').map(bad_port).transpose()?;
            (host.to_string(), port)
        } else if s.matches(':').count() == 1 {
            let (host, port) = s.split_once(':').unwrap_or((&s, ""));
            (host.to_string(), Some(bad_port(port)?))
        } else {
            (s.clone(), None)
        };
        if host.is_empty() {
            return Err(format!("{text}: no host"));
        }
        let wildcard_ok = host == "*" || host.strip_prefix("*.").is_some_and(|domain| !domain.contains('*'));
        if host.contains('*') && !wildcard_ok {
            return Err(format!("{text}: a wildcard may only be '*' or lead as '*.domain'"));
        }
        Ok(Self { host, port })
    }
}

impl HostPattern {
    fn matches(&self, host: &str, port: u16) -> bool {
        if self.port.is_some_and(|p| p != port) {
            return false;
        }
        let host = host.trim_start_matches('[').trim_end_matches(']');
        match self.host.strip_prefix("*.") {
            _ if self.host == "*" => true,
            Some(domain) => {
                host.len() > domain.len() + 1
                    && host.ends_with(domain)
                    && host[..host.len() - domain.len()].ends_with('.')
            }
            None => self.host == host,
        }
    }
}

impl std::fmt::Display for HostPattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.port {
            Some(p) if self.host.contains(':') => write!(f, "[{}]:{p}", self.host),
            Some(p) => write!(f, "{}:{p}", self.host),
            None => f.write_str(&self.host),
        }
    }
}

/// Which hosts Functions may call. Deny wins; with an allow list, only
/// hosts on it are reachable.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EgressPolicy {
    /// Hosts that may be called (empty: any host not denied).
    pub allow: Vec<HostPattern>,
    /// Hosts that may never be called.
    pub deny: Vec<HostPattern>,
}

impl EgressPolicy {
    /// Why `host:port` is refused, if it is.
    fn refuses(&self, host: &str, port: u16) -> Option<String> {
        if let Some(p) = self.deny.iter().find(|p| p.matches(host, port)) {
            return Some(format!("it matches the deny pattern {p}"));
        }
        if !self.allow.is_empty() && !self.allow.iter().any(|p| p.matches(host, port)) {
            return Some("it matches no allow pattern".into());
        }
        None
    }
}

/// How the node makes outbound requests.
#[derive(Debug, Clone)]
pub struct OutboundConfig {
    /// Largest (decoded) response body a Function may receive.
    pub max_response_bytes: usize,
    /// Redirects followed before the request fails.
    pub max_redirects: usize,
    /// The node's policy, for every Function.
    pub policy: EgressPolicy,
    /// Further policies per namespace (both the node's and these apply).
    pub namespace_policies: BTreeMap<String, EgressPolicy>,
    /// Extra PEM CA certificates trusted besides the system's.
    pub ca_bundle: Option<PathBuf>,
}

impl Default for OutboundConfig {
    fn default() -> Self {
        Self {
            max_response_bytes: 10 << 20,
            max_redirects: 20,
            policy: EgressPolicy::default(),
            namespace_policies: BTreeMap::new(),
            ca_bundle: None,
        }
    }
}

/// Setting the client up failed.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// The CA bundle could not be read or parsed.
    #[error("reading the CA bundle {path}: {source}")]
    CaBundle {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// rustls refused the client configuration.
    #[error("configuring TLS: {0}")]
    Tls(#[source] rustls::Error),
    /// No trust roots at all.
    #[error("no CA certificates: the system has none and no CA bundle was given")]
    NoRoots,
}

type HttpsClient = Client<HttpsConnector<HttpConnector>, Full<Bytes>>;

/// A client and the verifier its connections use.
#[derive(Clone)]
struct TlsClient {
    client: HttpsClient,
    verifier: Arc<NodeVerifier>,
}

/// Clients kept for distinct per-request TLS options before the set is
/// started afresh (a Function normally has one or two).
const MAX_TLS_CLIENTS: usize = 32;

/// The node's outbound HTTP client; cheap to clone.
#[derive(Clone)]
pub struct HttpOutbound {
    /// The client for requests with no TLS options of their own.
    default: TlsClient,
    /// Clients for node:https's `ca` / `rejectUnauthorized`, by options.
    custom: Arc<Mutex<HashMap<TlsOptions, TlsClient>>>,
    /// The node's roots: the system's and the CA bundle's.
    roots: Arc<rustls::RootCertStore>,
    /// The CA bundle's certificates.
    bundle: Arc<Vec<CertificateDer<'static>>>,
    config: Arc<OutboundConfig>,
}

fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::aws_lc_rs::default_provider())
}

/// A client verifying servers against `roots` (and accepting the `trusted`
/// certificates as leaves).
fn tls_client(
    roots: rustls::RootCertStore,
    trusted: Vec<CertificateDer<'static>>,
    reject_unauthorized: bool,
) -> Result<TlsClient, SetupError> {
    let verifier = Arc::new(
        NodeVerifier::new(roots, trusted, reject_unauthorized, provider())
            .map_err(|e| SetupError::Tls(rustls::Error::General(e.to_string())))?,
    );
    let tls = rustls::ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(SetupError::Tls)?
        .dangerous()
        .with_custom_certificate_verifier(verifier.clone())
        .with_no_client_auth();
    let connector = HttpsConnectorBuilder::new()
        .with_tls_config(tls)
        .https_or_http()
        .enable_all_versions()
        .build();
    let client = Client::builder(TokioExecutor::new())
        .pool_idle_timeout(Duration::from_secs(30))
        .build(connector);
    Ok(TlsClient { client, verifier })
}

impl HttpOutbound {
    /// A client trusting the system's roots and `config.ca_bundle`.
    ///
    /// # Errors
    /// When the CA bundle cannot be read, or no root certificate is found.
    pub fn new(config: OutboundConfig) -> Result<Self, SetupError> {
        let mut roots = rustls::RootCertStore::empty();
        let native = rustls_native_certs::load_native_certs();
        roots.add_parsable_certificates(native.certs);
        let mut bundle = Vec::new();
        if let Some(path) = &config.ca_bundle {
            bundle = CertificateDer::pem_file_iter(path)
                .and_then(|iter| iter.collect::<Result<_, _>>())
                .map_err(|e| SetupError::CaBundle {
                    path: path.clone(),
                    source: std::io::Error::other(e.to_string()),
                })?;
            roots.add_parsable_certificates(bundle.clone());
        }
        if roots.is_empty() {
            return Err(SetupError::NoRoots);
        }
        Ok(Self {
            default: tls_client(roots.clone(), bundle.clone(), true)?,
            custom: Arc::new(Mutex::new(HashMap::new())),
            roots: Arc::new(roots),
            bundle: Arc::new(bundle),
            config: Arc::new(config),
        })
    }

    /// The client for a request's TLS options: with `ca`, those
    /// certificates replace the node's roots, as in Node.
    fn client_for(&self, tls: &TlsOptions) -> Result<TlsClient, OutboundError> {
        if *tls == TlsOptions::default() {
            return Ok(self.default.clone());
        }
        let mut custom = self.custom.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(client) = custom.get(tls) {
            return Ok(client.clone());
        }
        let (roots, trusted) = match &tls.ca {
            None => ((*self.roots).clone(), (*self.bundle).clone()),
            Some(pems) => {
                let mut certs: Vec<CertificateDer<'static>> = Vec::new();
                for pem in pems {
                    let parsed = CertificateDer::pem_slice_iter(pem.as_bytes())
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(|e| {
                            OutboundError::new("invalid", format!("the request's `ca` is not PEM certificates: {e}"))
                        })?;
                    certs.extend(parsed);
                }
                let mut roots = rustls::RootCertStore::empty();
                let (added, _) = roots.add_parsable_certificates(certs.clone());
                if added == 0 {
                    return Err(OutboundError::new(
                        "invalid",
                        "the request's `ca` holds no usable certificate",
                    ));
                }
                (roots, certs)
            }
        };
        let client = tls_client(roots, trusted, tls.reject_unauthorized)
            .map_err(|e| OutboundError::new("invalid", format!("configuring TLS for the request: {e}")))?;
        if custom.len() >= MAX_TLS_CLIENTS {
            custom.clear();
        }
        custom.insert(tls.clone(), client.clone());
        Ok(client)
    }

    /// Whether `function` may call `url`; the reason when not.
    fn check_policy(&self, function: &FunctionIdentity, url: &Url) -> Result<(), OutboundError> {
        let host = url.host_str().unwrap_or("");
        let port = url.port_or_known_default().unwrap_or(0);
        let refused = self
            .config
            .policy
            .refuses(host, port)
            .map(|why| ("the node's", why))
            .or_else(|| {
                self.config
                    .namespace_policies
                    .get(&function.namespace)
                    .and_then(|p| p.refuses(host, port))
                    .map(|why| ("its namespace's", why))
            });
        match refused {
            Some((whose, why)) => Err(OutboundError::new(
                "policy",
                format!("egress to {host} is denied by {whose} egress policy: {why}"),
            )),
            None => Ok(()),
        }
    }

    async fn perform(
        self,
        function: FunctionIdentity,
        request: OutboundRequest,
        timeout: Duration,
    ) -> Result<OutboundResponse, OutboundError> {
        let deadline = Instant::now() + timeout;
        let mut url = Url::parse(&request.url)
            .map_err(|e| OutboundError::new("invalid", format!("invalid URL {:?}: {e}", request.url)))?;
        let mut method = Method::from_bytes(request.method.to_ascii_uppercase().as_bytes())
            .map_err(|_| OutboundError::new("invalid", format!("invalid method {:?}", request.method)))?;
        let mut body = request.body.clone();
        let mut redirected = false;
        for _ in 0..=self.config.max_redirects {
            if !matches!(url.scheme(), "http" | "https") {
                return Err(OutboundError::new(
                    "invalid",
                    format!("{url}: only http: and https: URLs can be fetched"),
                ));
            }
            self.check_policy(&function, &url)?;
            let host = url.host_str().unwrap_or("").to_string();
            let hyper_request = build_request(&method, &url, &request.headers, body.clone())?;
            let https = url.scheme() == "https";
            let tls = if https {
                self.client_for(&request.tls)?
            } else {
                self.default.clone()
            };
            let response = match tokio::time::timeout_at(deadline.into(), tls.client.request(hyper_request)).await {
                Err(_) => return Err(timed_out(&host, timeout)),
                Ok(Err(e)) => {
                    let chain = error_chain(&e);
                    if https
                        && chain.contains("invalid peer certificate")
                        && let Some(node) = tls.verifier.failure_for(&verdict_key(&host))
                    {
                        return Err(OutboundError::new("network", node.message).with_code(node.code));
                    }
                    return Err(OutboundError::new(
                        "network",
                        format!("request to {host} failed: {chain}"),
                    ));
                }
                Ok(Ok(r)) => r,
            };
            let status = response.status();
            let location = response
                .headers()
                .get(http::header::LOCATION)
                .and_then(|v| v.to_str().ok());
            if status.is_redirection()
                && request.redirect != Redirect::Manual
                && let Some(location) = location
            {
                if request.redirect == Redirect::Error {
                    return Err(OutboundError::new(
                        "network",
                        format!("{host} answered a redirect and the request's redirect mode is \"error\""),
                    ));
                }
                url = url
                    .join(location)
                    .map_err(|e| OutboundError::new("network", format!("bad redirect location {location:?}: {e}")))?;
                // As browsers and undici: 303, and 301/302 after a POST, become GET.
                if status == StatusCode::SEE_OTHER
                    || (matches!(status, StatusCode::MOVED_PERMANENTLY | StatusCode::FOUND) && method == Method::POST)
                {
                    method = Method::GET;
                    body = Bytes::new();
                }
                redirected = true;
                continue;
            }
            let mut answer = self
                .read_response(response, &host, url.as_str(), redirected, deadline, timeout)
                .await?;
            if https {
                // Only a verifier told to let failures through gets here with one.
                let failure = tls.verifier.failure_for(&verdict_key(&host));
                answer.authorized = Some(failure.is_none());
                answer.authorization_error = failure.map(|f| f.code);
            }
            return Ok(answer);
        }
        Err(OutboundError::new(
            "network",
            format!(
                "more than {} redirects starting at {}",
                self.config.max_redirects, request.url
            ),
        ))
    }

    async fn read_response(
        &self,
        response: hyper::Response<hyper::body::Incoming>,
        host: &str,
        url: &str,
        redirected: bool,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<OutboundResponse, OutboundError> {
        let (parts, incoming) = response.into_parts();
        let limit = self.config.max_response_bytes;
        let too_large = || {
            OutboundError::new(
                "limit",
                format!("the response from {host} is larger than the {limit}-byte limit for outbound responses"),
            )
        };
        let collected = tokio::time::timeout_at(deadline.into(), Limited::new(incoming, limit).collect()).await;
        let raw = match collected {
            Err(_) => return Err(timed_out(host, timeout)),
            Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => return Err(too_large()),
            Ok(Err(e)) => {
                return Err(OutboundError::new(
                    "network",
                    format!("reading the response from {host}: {e}"),
                ));
            }
            Ok(Ok(c)) => c.to_bytes(),
        };
        let encoding = parts
            .headers
            .get(http::header::CONTENT_ENCODING)
            .and_then(|v| v.to_str().ok())
            .map(|v| v.trim().to_ascii_lowercase());
        let (body, decoded) = match encoding.as_deref() {
            Some("gzip" | "x-gzip") => (decode(flate2::read::MultiGzDecoder::new(&raw[..]), limit, host)?, true),
            Some("deflate") => {
                // "deflate" is zlib-wrapped by the standard; some servers send raw.
                let zlib = decode(flate2::read::ZlibDecoder::new(&raw[..]), limit, host);
                (
                    zlib.or_else(|_| decode(flate2::read::DeflateDecoder::new(&raw[..]), limit, host))?,
                    true,
                )
            }
            _ => (raw, false),
        };
        let headers = parts
            .headers
            .iter()
            .filter(|(name, _)| {
                !(decoded && (*name == http::header::CONTENT_ENCODING || *name == http::header::CONTENT_LENGTH))
            })
            .map(|(n, v)| {
                (
                    n.as_str().to_string(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect();
        Ok(OutboundResponse {
            status: parts.status.as_u16(),
            status_text: parts.status.canonical_reason().unwrap_or("").to_string(),
            headers,
            url: url.to_string(),
            redirected,
            authorized: None,
            authorization_error: None,
            body,
        })
    }
}

fn decode(mut reader: impl Read, limit: usize, host: &str) -> Result<Bytes, OutboundError> {
    let mut out = Vec::new();
    let read = reader.by_ref().take(limit as u64 + 1).read_to_end(&mut out);
    match read {
        Ok(_) if out.len() > limit => Err(OutboundError::new(
            "limit",
            format!("the response from {host} is larger than the {limit}-byte limit for outbound responses"),
        )),
        Ok(_) => Ok(Bytes::from(out)),
        Err(e) => Err(OutboundError::new(
            "network",
            format!("decoding the response from {host}: {e}"),
        )),
    }
}

/// A URL's host as the verifier keeps its verdicts (IPv6 without brackets).
fn verdict_key(host: &str) -> String {
    host.trim_matches(['[', ']']).to_ascii_lowercase()
}

fn timed_out(host: &str, timeout: Duration) -> OutboundError {
    OutboundError::new(
        "timeout",
        format!(
            "the request to {host} did not finish within the Function's remaining time ({} ms of FUNC_TIMEOUT)",
            timeout.as_millis()
        ),
    )
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut message = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        message.push_str(": ");
        message.push_str(&s.to_string());
        source = s.source();
    }
    message
}

/// Headers a Function may not set (the client manages them).
const MANAGED_HEADERS: &[&str] = &[
    "host",
    "content-length",
    "connection",
    "transfer-encoding",
    "keep-alive",
    "upgrade",
];

fn build_request(
    method: &Method,
    url: &Url,
    headers: &[(String, String)],
    body: Bytes,
) -> Result<hyper::Request<Full<Bytes>>, OutboundError> {
    let mut builder = hyper::Request::builder().method(method.clone()).uri(url.as_str());
    let mut has_encoding = false;
    for (name, value) in headers {
        let lower = name.to_ascii_lowercase();
        if MANAGED_HEADERS.contains(&lower.as_str()) {
            continue;
        }
        has_encoding |= lower == "accept-encoding";
        let name = HeaderName::from_bytes(lower.as_bytes())
            .map_err(|_| OutboundError::new("invalid", format!("invalid header name {name:?}")))?;
        let value = HeaderValue::from_str(value)
            .map_err(|_| OutboundError::new("invalid", format!("invalid value for header {name}")))?;
        builder = builder.header(name, value);
    }
    if !has_encoding {
        // What undici sends; the body is decoded before the Function sees it.
        builder = builder.header(http::header::ACCEPT_ENCODING, "gzip, deflate");
    }
    builder
        .body(Full::new(body))
        .map_err(|e| OutboundError::new("invalid", format!("invalid request: {e}")))
}

impl Outbound for HttpOutbound {
    fn send(
        &self,
        function: &FunctionIdentity,
        request: OutboundRequest,
        timeout: Duration,
    ) -> BoxFuture<'static, Result<OutboundResponse, OutboundError>> {
        let this = self.clone();
        let function = function.clone();
        Box::pin(async move {
            let host = Url::parse(&request.url)
                .ok()
                .and_then(|u| u.host_str().map(str::to_string))
                .unwrap_or_default();
            let result = this.perform(function.clone(), request, timeout).await;
            if let Err(e) = &result {
                tracing::info!(namespace = %function.namespace, name = %function.name, %host, kind = e.kind, error = %e.message, "outbound request failed");
            }
            result
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(s: &str) -> HostPattern {
        s.parse().unwrap()
    }

    #[test]
    fn host_patterns_match_hosts_subdomains_and_ports() {
        assert!(pattern("api.example.com").matches("api.example.com", 443));
        assert!(!pattern("api.example.com").matches("example.com", 443));
        assert!(pattern("*.example.com").matches("a.b.example.com", 80));
        assert!(!pattern("*.example.com").matches("example.com", 80));
        assert!(!pattern("*.example.com").matches("badexample.com", 80));
        assert!(pattern("127.0.0.1:8080").matches("127.0.0.1", 8080));
        assert!(!pattern("127.0.0.1:8080").matches("127.0.0.1", 8081));
        assert!(pattern("*").matches("anything", 1));
        assert!(pattern("[::1]:80").matches("[::1]", 80));
        assert!("a*b.com".parse::<HostPattern>().is_err());
    }

    #[test]
    fn deny_wins_and_an_allow_list_closes_everything_else() {
        let policy = EgressPolicy {
            allow: vec![pattern("*.shop.internal")],
            deny: vec![pattern("admin.shop.internal")],
        };
        assert!(policy.refuses("cart.shop.internal", 80).is_none());
        assert!(
            policy
                .refuses("admin.shop.internal", 80)
                .unwrap()
                .contains("deny pattern admin.shop.internal")
        );
        assert!(policy.refuses("example.com", 443).unwrap().contains("no allow pattern"));
        assert!(EgressPolicy::default().refuses("example.com", 443).is_none());
    }
}
