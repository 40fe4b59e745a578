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
    #[error("making the webhook certificate failed")]
    Generate(#[from] rcgen::Error),
    /// rustls refused the certificate or key.
    #[error("configuring TLS failed")]
    Rustls(#[from] rustls::Error),
}

/// Name of the Secret holding the webhook certificate all controller
/// replicas serve with (the CA in the webhook configurations must be theirs
/// all).
pub const WEBHOOK_SECRET: &str = "shoal-webhook-tls";

/// Why the shared certificate could not be had.
#[derive(Debug, thiserror::Error)]
pub enum SharedError {
    /// Reading or creating the Secret failed.
    #[error("reading or writing the webhook certificate Secret {WEBHOOK_SECRET} failed")]
    Kube(#[from] kube::Error),
    /// The Secret lacks a key.
    #[error("the webhook certificate Secret {WEBHOOK_SECRET} has no {0:?}")]
    Incomplete(String),
    /// Making or using the certificate failed.
    #[error(transparent)]
    Tls(#[from] TlsError),
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

    /// The certificate from PEM (as stored in [`WEBHOOK_SECRET`]).
    ///
    /// # Errors
    /// When a PEM holds no certificate or key.
    pub fn from_pem(ca_pem: &str, cert_pem: &str, key_pem: &str) -> Result<Self, TlsError> {
        use rustls::pki_types::pem::PemObject;
        let bad = |what: &str| {
            TlsError::Rustls(rustls::Error::General(format!(
                "the stored webhook {what} is not valid PEM"
            )))
        };
        let cert_der = CertificateDer::from_pem_slice(cert_pem.as_bytes()).map_err(|_| bad("certificate"))?;
        let ca_der = CertificateDer::from_pem_slice(ca_pem.as_bytes()).map_err(|_| bad("CA"))?;
        let key_der = PrivatePkcs8KeyDer::from_pem_slice(key_pem.as_bytes()).map_err(|_| bad("key"))?;
        Ok(Self {
            ca_pem: ca_pem.to_string(),
            cert_pem: cert_pem.to_string(),
            cert_der,
            key_der: key_der.secret_pkcs8_der().to_vec(),
            ca_der: ca_der.to_vec(),
        })
    }

    /// The serving key as PEM (PKCS#8).
    ///
    /// # Errors
    /// When rcgen cannot read the key back (it made it).
    pub fn key_pem(&self) -> Result<String, TlsError> {
        Ok(KeyPair::try_from(self.key_der.as_slice())?.serialize_pem())
    }

    /// The certificate every replica shares: the one in [`WEBHOOK_SECRET`]
    /// in `namespace`, or a new one stored there by whichever replica comes
    /// first (a replica that loses the race reads the winner's).
    ///
    /// # Errors
    /// An API error, or a stored certificate that cannot be used.
    pub async fn shared(client: kube::Client, namespace: &str, dns_names: &[String]) -> Result<Self, SharedError> {
        use k8s_openapi::api::core::v1::Secret;
        use kube::api::{Api, PostParams};
        let secrets: Api<Secret> = Api::namespaced(client, namespace);
        let stored = |secret: &Secret| -> Result<Self, SharedError> {
            let data = secret.data.clone().unwrap_or_default();
            let text = |key: &str| {
                data.get(key)
                    .map(|b| String::from_utf8_lossy(&b.0).into_owned())
                    .ok_or_else(|| SharedError::Incomplete(key.to_string()))
            };
            Ok(Self::from_pem(&text("ca.crt")?, &text("tls.crt")?, &text("tls.key")?)?)
        };
        if let Some(secret) = secrets.get_opt(WEBHOOK_SECRET).await? {
            return stored(&secret);
        }
        let made = Self::generate(dns_names)?;
        let secret = Secret {
            metadata: k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta {
                name: Some(WEBHOOK_SECRET.into()),
                namespace: Some(namespace.into()),
                labels: Some(std::collections::BTreeMap::from([(
                    shoal_api::cluster::MANAGED_BY_LABEL.to_string(),
                    shoal_api::cluster::MANAGED_BY.to_string(),
                )])),
                ..Default::default()
            },
            type_: Some("kubernetes.io/tls".into()),
            data: Some(std::collections::BTreeMap::from([
                (
                    "ca.crt".to_string(),
                    k8s_openapi::ByteString(made.ca_pem.clone().into_bytes()),
                ),
                (
                    "tls.crt".to_string(),
                    k8s_openapi::ByteString(made.cert_pem.clone().into_bytes()),
                ),
                (
                    "tls.key".to_string(),
                    k8s_openapi::ByteString(made.key_pem()?.into_bytes()),
                ),
            ])),
            ..Default::default()
        };
        match secrets.create(&PostParams::default(), &secret).await {
            Ok(_) => Ok(made),
            Err(kube::Error::Api(e)) if e.code == 409 => stored(&secrets.get(WEBHOOK_SECRET).await?),
            Err(e) => Err(e.into()),
        }
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
