//! The HTTP clients and TLS configurations outbound calls use. One pooled
//! client serves requests with the node's defaults; node:https's `ca` and
//! `rejectUnauthorized` get clients of their own (Node verifies those with
//! other roots), and so does a namespace whose policy has address rules
//! (its client's connector must check them on every connection). Every
//! client connects through the node's [`Dialer`].

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper_rustls::{HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use rustls::pki_types::{CertificateDer, pem::PemObject};
use shoal_runtime::{OutboundError, TlsOptions};

use crate::dial::{Dialer, GuardedConnector};
use crate::policy::EgressPolicy;
use crate::tls::NodeVerifier;
use crate::{HttpOutbound, SetupError};

/// Clients kept for distinct TLS options and namespaces before the set is
/// started afresh (a Function normally needs one or two).
pub(crate) const MAX_CLIENTS: usize = 32;

/// How long a connection attempt of the pooled clients may take; a
/// request's own deadline (the Function's FUNC_TIMEOUT) usually ends it
/// first.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(180);

pub(crate) type HttpsClient = Client<HttpsConnector<GuardedConnector>, Full<Bytes>>;

/// A client and the verifier its connections use.
#[derive(Clone)]
pub(crate) struct TlsClient {
    pub(crate) client: HttpsClient,
    pub(crate) verifier: Arc<NodeVerifier>,
}

/// What tells clients apart: the TLS options, and the namespace whose
/// address rules the connector checks (None: the node's policy only).
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct ClientKey {
    pub(crate) tls: TlsOptions,
    pub(crate) namespace: Option<String>,
}

fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::aws_lc_rs::default_provider())
}

/// A TLS client configuration verifying servers against `roots` (and
/// accepting the `trusted` certificates as leaves), and its verifier.
pub(crate) fn client_config(
    roots: rustls::RootCertStore,
    trusted: Vec<CertificateDer<'static>>,
    reject_unauthorized: bool,
) -> Result<(rustls::ClientConfig, Arc<NodeVerifier>), SetupError> {
    let verifier = Arc::new(
        NodeVerifier::new(roots, trusted, reject_unauthorized, provider())
            .map_err(|e| SetupError::Tls(rustls::Error::General(e.to_string())))?,
    );
    let config = rustls::ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(SetupError::Tls)?
        .dangerous()
        .with_custom_certificate_verifier(verifier.clone())
        .with_no_client_auth();
    Ok((config, verifier))
}

/// An HTTP client whose `https:` connections verify servers as
/// [`client_config`] does, dialling through `connector`.
pub(crate) fn tls_client(
    roots: rustls::RootCertStore,
    trusted: Vec<CertificateDer<'static>>,
    reject_unauthorized: bool,
    connector: GuardedConnector,
) -> Result<TlsClient, SetupError> {
    let (tls, verifier) = client_config(roots, trusted, reject_unauthorized)?;
    let connector = HttpsConnectorBuilder::new()
        .with_tls_config(tls)
        .https_or_http()
        .enable_all_versions()
        .wrap_connector(connector);
    let client = Client::builder(TokioExecutor::new())
        .pool_idle_timeout(Duration::from_secs(30))
        .build(connector);
    Ok(TlsClient { client, verifier })
}

/// The connector of a client checking the node's policy and, when given,
/// `namespace`'s.
pub(crate) fn connector(dialer: Arc<Dialer>, namespace: Option<(&str, &EgressPolicy)>) -> GuardedConnector {
    GuardedConnector {
        dialer,
        namespace: namespace.map(|(name, policy)| (name.to_string(), Arc::new(policy.clone()))),
        connect_timeout: CONNECT_TIMEOUT,
    }
}

impl HttpOutbound {
    /// The client for a request's TLS options (with `ca`, those
    /// certificates replace the node's roots, as in Node) under
    /// `namespace`'s policy.
    pub(crate) fn client_for(
        &self,
        tls: &TlsOptions,
        namespace: Option<(&str, &EgressPolicy)>,
    ) -> Result<TlsClient, OutboundError> {
        // Only address rules need the connector's attention.
        let namespace = namespace.filter(|(_, policy)| policy.has_address_rules());
        if *tls == TlsOptions::default() && namespace.is_none() {
            return Ok(self.default.clone());
        }
        let key = ClientKey {
            tls: tls.clone(),
            namespace: namespace.map(|(name, _)| name.to_string()),
        };
        let mut clients = self.clients.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(client) = clients.get(&key) {
            return Ok(client.clone());
        }
        let (roots, trusted) = self.roots_for(tls)?;
        let client = tls_client(
            roots,
            trusted,
            tls.reject_unauthorized,
            connector(self.dialer.clone(), namespace),
        )
        .map_err(|e| OutboundError::new("invalid", format!("configuring TLS for the request: {e}")))?;
        if clients.len() >= MAX_CLIENTS {
            clients.clear();
        }
        clients.insert(key, client.clone());
        Ok(client)
    }

    /// A TLS configuration for one connection (`tls.connect`, a `wss:`
    /// handshake) with Node's verification options and ALPN protocols.
    pub(crate) fn tls_config(
        &self,
        tls: &TlsOptions,
        alpn: &[String],
    ) -> Result<(rustls::ClientConfig, Arc<NodeVerifier>), OutboundError> {
        let (roots, trusted) = self.roots_for(tls)?;
        let (mut config, verifier) = client_config(roots, trusted, tls.reject_unauthorized)
            .map_err(|e| OutboundError::new("invalid", format!("configuring TLS for the connection: {e}")))?;
        config.alpn_protocols = alpn.iter().map(|p| p.as_bytes().to_vec()).collect();
        Ok((config, verifier))
    }

    /// The roots a server is verified against: `ca`'s certificates when
    /// given (replacing the node's, as in Node), else the node's.
    fn roots_for(
        &self,
        tls: &TlsOptions,
    ) -> Result<(rustls::RootCertStore, Vec<CertificateDer<'static>>), OutboundError> {
        let Some(pems) = &tls.ca else {
            return Ok(((*self.roots).clone(), (*self.bundle).clone()));
        };
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
        Ok((roots, certs))
    }
}
