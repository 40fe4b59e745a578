//! The webhook server's certificate, made at start-up: a private CA and a
//! serving certificate for the webhook Service's DNS names. The CA goes into
//! the webhook configurations' `caBundle`, so no cert-manager is needed.

use std::sync::Arc;

use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair, KeyUsagePurpose};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};

/// Why a certificate could not be made or used.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// rcgen refused the parameters.
    #[error("making the webhook certificate: {0}")]
    Generate(#[from] rcgen::Error),
    /// rustls refused the certificate or key.
    #[error("configuring TLS: {0}")]
    Rustls(#[from] rustls::Error),
}

/// A CA and the serving certificate it signed.
pub struct WebhookCertificate {
    /// PEM of the CA: what API servers must trust (the `caBundle`).
    pub ca_pem: String,
    /// PEM of the serving certificate.
    pub cert_pem: String,
    cert_der: CertificateDer<'static>,
    key_der: Vec<u8>,
    ca_der: Vec<u8>,
}

impl WebhookCertificate {
    /// Makes a CA and a serving certificate valid for `dns_names` (the
    /// webhook Service's `name.namespace.svc` forms, or `localhost` in tests).
    pub fn generate(dns_names: &[String]) -> Result<Self, TlsError> {
        let ca_key = KeyPair::generate()?;
        let mut ca_params = CertificateParams::new(Vec::<String>::new())?;
        ca_params
            .distinguished_name
            .push(DnType::CommonName, "shoal-webhook-ca");
        ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca_params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        let ca_cert = ca_params.self_signed(&ca_key)?;
        let issuer = Issuer::new(ca_params, ca_key);

        let key = KeyPair::generate()?;
        let mut params = CertificateParams::new(dns_names.to_vec())?;
        params
            .distinguished_name
            .push(DnType::CommonName, dns_names.first().cloned().unwrap_or_default());
        let cert = params.signed_by(&key, &issuer)?;
        Ok(Self {
            ca_pem: ca_cert.pem(),
            cert_pem: cert.pem(),
            cert_der: cert.der().clone(),
            key_der: key.serialize_der(),
            ca_der: ca_cert.der().to_vec(),
        })
    }

    /// DER of the CA, for clients that verify the webhook server.
    pub fn ca_der(&self) -> &[u8] {
        &self.ca_der
    }

    /// A rustls server configuration presenting this certificate.
    pub fn server_config(&self) -> Result<Arc<rustls::ServerConfig>, TlsError> {
        let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(self.key_der.clone()));
        let mut config =
            rustls::ServerConfig::builder_with_provider(Arc::new(rustls::crypto::aws_lc_rs::default_provider()))
                .with_safe_default_protocol_versions()?
                .with_no_client_auth()
                .with_single_cert(vec![self.cert_der.clone()], key)?;
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        Ok(Arc::new(config))
    }
}

/// The DNS names a webhook Service answers to inside the cluster.
pub fn service_dns_names(service: &str, namespace: &str) -> Vec<String> {
    vec![
        format!("{service}.{namespace}.svc"),
        format!("{service}.{namespace}.svc.cluster.local"),
        format!("{service}.{namespace}"),
        service.to_string(),
    ]
}
