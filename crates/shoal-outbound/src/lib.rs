//! What Functions reach outside their sandbox, performed by the node on its
//! own tokio runtime: a `fetch`, `http.request` or axios call, a
//! `net`/`tls` connection, a WebSocket handshake, a DNS lookup.
//!
//! This crate owns the HTTP client (hyper over rustls, HTTP/1.1 and HTTP/2
//! by ALPN, the system's roots plus an optional CA bundle, node:https's
//! per-request `ca` and `rejectUnauthorized` with Node's error codes:
//! [`clients`], [`http`]), redirects, gzip and deflate decoding, the
//! response-size limit, TCP and TLS connections ([`connect`]), HTTP/1.1
//! protocol upgrades ([`upgrade`]), name resolution ([`dns`]) and the
//! egress policy ([`policy`]), enforced on every connection, by name and by
//! resolved address, where it is dialled ([`dial`]). It implements
//! [`shoal_runtime::Outbound`]; counting requests per invocation, keeping a
//! sandbox's open connections and bounding each call by the Function's
//! remaining `FUNC_TIMEOUT` stay with the runtime, which hands the remaining
//! time in. It must not know about Kubernetes or the Kyma contract.

mod clients;
mod connect;
mod dial;
mod dns;
mod http;
mod policy;
mod tls;
mod upgrade;

use std::collections::{BTreeMap, HashMap};
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::future::BoxFuture;
use rustls::pki_types::{CertificateDer, pem::PemObject};
use shoal_runtime::outbound::{ConnectRequest, Connection, ResolveRequest, TlsConnect, Upgraded};
use shoal_runtime::{FunctionKey, Outbound, OutboundError, OutboundRequest, OutboundResponse};
use url::Url;

use clients::{ClientKey, TlsClient};
use dial::Dialer;
pub use dial::{OverrideResolver, Resolve, SystemResolver};
pub use ipnet::IpNet;
pub use policy::{AddressRange, EgressPolicy, EgressRule, HostPattern, ProtectedAddresses};
pub use tls::NodeTlsError;

/// How the node makes outbound requests.
#[derive(Clone)]
pub struct OutboundConfig {
    /// Largest (decoded) response body a Function may receive.
    pub max_response_bytes: usize,
    /// Redirects followed before the request fails.
    pub max_redirects: usize,
    /// The node's policy, for every Function.
    pub policy: EgressPolicy,
    /// Further policies per namespace (both the node's and these apply).
    pub namespace_policies: BTreeMap<String, EgressPolicy>,
    /// What no Function reaches unless an address rule allows it.
    pub protected: ProtectedAddresses,
    /// Turns host names into the addresses dialled (and `dns.lookup`).
    pub resolver: Arc<dyn Resolve>,
    /// Extra PEM CA certificates trusted besides the system's.
    pub ca_bundle: Option<PathBuf>,
    /// Name servers `dns.resolve*` asks; empty: those of /etc/resolv.conf.
    pub dns_servers: Vec<SocketAddr>,
}

impl std::fmt::Debug for OutboundConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OutboundConfig")
            .field("max_response_bytes", &self.max_response_bytes)
            .field("max_redirects", &self.max_redirects)
            .field("policy", &self.policy)
            .field("namespace_policies", &self.namespace_policies)
            .field("protected", &self.protected)
            .field("ca_bundle", &self.ca_bundle)
            .field("dns_servers", &self.dns_servers)
            .finish_non_exhaustive()
    }
}

impl Default for OutboundConfig {
    fn default() -> Self {
        Self {
            max_response_bytes: 10 << 20,
            max_redirects: 20,
            policy: EgressPolicy::default(),
            namespace_policies: BTreeMap::new(),
            protected: ProtectedAddresses::default(),
            resolver: Arc::new(SystemResolver),
            ca_bundle: None,
            dns_servers: Vec::new(),
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
    #[error("configuring TLS failed")]
    Tls(#[source] rustls::Error),
    /// No trust roots at all.
    #[error("no CA certificates: the system has none and no CA bundle was given")]
    NoRoots,
}

/// The node's outbound client; cheap to clone.
#[derive(Clone)]
pub struct HttpOutbound {
    /// The client for requests with no TLS options of their own.
    default: TlsClient,
    /// Clients for node:https's `ca` / `rejectUnauthorized` and for
    /// namespaces with address rules.
    clients: Arc<Mutex<HashMap<ClientKey, TlsClient>>>,
    /// The node's roots: the system's and the CA bundle's.
    roots: Arc<rustls::RootCertStore>,
    /// The CA bundle's certificates.
    bundle: Arc<Vec<CertificateDer<'static>>>,
    dialer: Arc<Dialer>,
    dns: dns::Dns,
    config: Arc<OutboundConfig>,
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
        let dialer = Arc::new(Dialer {
            resolver: config.resolver.clone(),
            policy: config.policy.clone(),
            protected: config.protected.clone(),
        });
        Ok(Self {
            default: clients::tls_client(
                roots.clone(),
                bundle.clone(),
                true,
                clients::connector(dialer.clone(), None),
            )?,
            clients: Arc::new(Mutex::new(HashMap::new())),
            roots: Arc::new(roots),
            bundle: Arc::new(bundle),
            dialer,
            dns: dns::Dns::new(config.dns_servers.clone()),
            config: Arc::new(config),
        })
    }

    /// The policy of `function`'s namespace, if it has one.
    fn namespace_policy(&self, function: &FunctionKey) -> Option<(&str, &EgressPolicy)> {
        self.config
            .namespace_policies
            .get_key_value(&function.namespace)
            .map(|(name, policy)| (name.as_str(), policy))
    }
}

impl Outbound for HttpOutbound {
    fn send(
        &self,
        function: &FunctionKey,
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

    fn upgrade(
        &self,
        function: &FunctionKey,
        request: OutboundRequest,
        timeout: Duration,
    ) -> BoxFuture<'static, Result<Upgraded, OutboundError>> {
        Box::pin(self.clone().perform_upgrade(function.clone(), request, timeout))
    }

    fn connect(
        &self,
        function: &FunctionKey,
        request: ConnectRequest,
        timeout: Duration,
    ) -> BoxFuture<'static, Result<Connection, OutboundError>> {
        let this = self.clone();
        let function = function.clone();
        Box::pin(async move {
            let deadline = shoal_runtime::deadline_after(timeout);
            let result = this
                .open(
                    &function,
                    &request.host,
                    request.port,
                    request.family,
                    request.tls.as_ref(),
                    deadline,
                )
                .await;
            if let Err(e) = &result {
                tracing::info!(namespace = %function.namespace, name = %function.name, host = %request.host, port = request.port, kind = e.kind, error = %e.message, "outbound connection failed");
            }
            result
        })
    }

    fn start_tls(
        &self,
        function: &FunctionKey,
        connection: Connection,
        host: String,
        tls: TlsConnect,
        timeout: Duration,
    ) -> BoxFuture<'static, Result<Connection, OutboundError>> {
        let _ = function;
        let this = self.clone();
        Box::pin(async move {
            this.start_tls_on(connection, &host, &tls, shoal_runtime::deadline_after(timeout))
                .await
        })
    }

    fn lookup(
        &self,
        function: &FunctionKey,
        hostname: String,
    ) -> BoxFuture<'static, Result<Vec<IpAddr>, OutboundError>> {
        let _ = function;
        let resolver = self.dialer.resolver.clone();
        Box::pin(async move {
            if let Ok(ip) = hostname.trim_matches(['[', ']']).parse::<IpAddr>() {
                return Ok(vec![ip]);
            }
            match resolver.lookup(&hostname).await {
                Ok(addresses) if !addresses.is_empty() => Ok(addresses),
                _ => Err(dial::not_found(&hostname)),
            }
        })
    }

    fn resolve(
        &self,
        function: &FunctionKey,
        request: ResolveRequest,
    ) -> BoxFuture<'static, Result<serde_json::Value, OutboundError>> {
        let _ = function;
        let dns = self.dns.clone();
        Box::pin(async move { dns.resolve(request).await })
    }

    fn reverse(&self, function: &FunctionKey, ip: IpAddr) -> BoxFuture<'static, Result<Vec<String>, OutboundError>> {
        let _ = function;
        let dns = self.dns.clone();
        Box::pin(async move { dns.reverse(ip).await })
    }
}
