//! Verifying `https:` servers the way Node's `tls` does for a Function.
//!
//! The verification itself is rustls's (webpki). Around it this module adds
//! what code written for Node relies on:
//! - a certificate the client trusts is accepted when the server presents it
//!   as its own leaf, as OpenSSL does. Most self-signed certificates
//!   (`openssl req -x509`) are marked `CA:TRUE`, which webpki refuses as a
//!   leaf, and `https.request({ ca })` with such a certificate is how
//!   Functions call internal services;
//! - `rejectUnauthorized: false` lets the request through but remembers the
//!   verdict, which the Function reads as `socket.authorized`;
//! - a failure carries Node's (OpenSSL's) error code, which packages test
//!   (`DEPTH_ZERO_SELF_SIGNED_CERT`, `CERT_HAS_EXPIRED`, ...).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, DigitallySignedStruct, OtherError, RootCertStore, SignatureScheme};

/// A verification failure in Node's terms.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct NodeTlsError {
    /// OpenSSL's code as Node reports it (`err.code`).
    pub code: &'static str,
    /// Node's message for it.
    pub message: String,
}

/// Verifies servers against one set of roots, remembering the last verdict
/// for each server name (for `socket.authorized` on a pooled connection).
#[derive(Debug)]
pub(crate) struct NodeVerifier {
    webpki: Arc<WebPkiServerVerifier>,
    /// The trusted certificates themselves, accepted as a server's leaf.
    trusted: Vec<CertificateDer<'static>>,
    reject_unauthorized: bool,
    verdicts: Mutex<HashMap<String, Option<NodeTlsError>>>,
}

impl NodeVerifier {
    /// # Errors
    /// When rustls refuses the roots (none at all).
    pub(crate) fn new(
        roots: RootCertStore,
        trusted: Vec<CertificateDer<'static>>,
        reject_unauthorized: bool,
        provider: Arc<CryptoProvider>,
    ) -> Result<Self, rustls::client::VerifierBuilderError> {
        let webpki = WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider).build()?;
        Ok(Self {
            webpki,
            trusted,
            reject_unauthorized,
            verdicts: Mutex::new(HashMap::new()),
        })
    }

    /// Why the last connection to `host` did not verify (None: it did, or
    /// there was none). hyper's connect error carries rustls's only as text,
    /// so a refused certificate is told from here.
    pub(crate) fn failure_for(&self, host: &str) -> Option<NodeTlsError> {
        self.verdicts.lock().ok()?.get(host).cloned().flatten()
    }

    fn verify(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<(), NodeTlsError> {
        let verified = self
            .webpki
            .verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now);
        let error = match verified {
            Ok(_) => return Ok(()),
            Err(e) => e,
        };
        if self.trusted.iter().any(|t| t.as_ref() == end_entity.as_ref()) {
            let parsed = rustls::server::ParsedCertificate::try_from(end_entity)
                .map_err(|e| classify(&e, end_entity, intermediates, server_name))?;
            return rustls::client::verify_server_name(&parsed, server_name)
                .map_err(|e| classify(&e, end_entity, intermediates, server_name));
        }
        Err(classify(&error, end_entity, intermediates, server_name))
    }
}

impl ServerCertVerifier for NodeVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let verdict = self.verify(end_entity, intermediates, server_name, ocsp_response, now);
        if let Ok(mut verdicts) = self.verdicts.lock() {
            verdicts.insert(host_of(server_name), verdict.as_ref().err().cloned());
        }
        match verdict {
            Ok(()) => Ok(ServerCertVerified::assertion()),
            Err(_) if !self.reject_unauthorized => Ok(ServerCertVerified::assertion()),
            Err(e) => Err(rustls::Error::InvalidCertificate(CertificateError::Other(OtherError(
                Arc::new(e),
            )))),
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        // The handshake is always checked against the presented key, also
        // with rejectUnauthorized off.
        self.webpki.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.webpki.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.webpki.supported_verify_schemes()
    }
}

/// The name a verdict is kept under: what the request URL's host is.
pub(crate) fn host_of(server_name: &ServerName<'_>) -> String {
    match server_name {
        ServerName::DnsName(d) => d.as_ref().to_ascii_lowercase(),
        ServerName::IpAddress(ip) => std::net::IpAddr::from(*ip).to_string(),
        _ => String::new(),
    }
}

/// rustls's verdict as Node words it.
fn classify(
    error: &rustls::Error,
    end_entity: &CertificateDer<'_>,
    intermediates: &[CertificateDer<'_>],
    server_name: &ServerName<'_>,
) -> NodeTlsError {
    let node = |code: &'static str, message: &str| NodeTlsError {
        code,
        message: message.to_string(),
    };
    let rustls::Error::InvalidCertificate(cert_error) = error else {
        return node("CERT_REJECTED", &format!("certificate rejected: {error}"));
    };
    match cert_error {
        CertificateError::NotValidForNameContext { presented, .. } => node(
            "ERR_TLS_CERT_ALTNAME_INVALID",
            &altname_message(&host_of(server_name), presented),
        ),
        CertificateError::NotValidForName => node(
            "ERR_TLS_CERT_ALTNAME_INVALID",
            &format!(
                "Hostname/IP does not match certificate's altnames: {} is not in the certificate's list",
                host_of(server_name)
            ),
        ),
        CertificateError::Expired | CertificateError::ExpiredContext { .. } => {
            node("CERT_HAS_EXPIRED", "certificate has expired")
        }
        CertificateError::NotValidYet | CertificateError::NotValidYetContext { .. } => {
            node("CERT_NOT_YET_VALID", "certificate is not yet valid")
        }
        CertificateError::BadSignature => node("CERT_SIGNATURE_FAILURE", "certificate signature failure"),
        // No path to a trusted root (webpki also says "a CA used as a
        // leaf" for an untrusted self-signed certificate).
        _ if self_signed(end_entity) => node("DEPTH_ZERO_SELF_SIGNED_CERT", "self-signed certificate"),
        _ if intermediates.last().is_some_and(|c| self_signed(c)) => node(
            "SELF_SIGNED_CERT_IN_CHAIN",
            "self-signed certificate in certificate chain",
        ),
        _ if intermediates.is_empty() => node(
            "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
            "unable to verify the first certificate",
        ),
        _ => node(
            "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
            "unable to get local issuer certificate",
        ),
    }
}

/// Node's `checkServerIdentity` message, from the names webpki found in the
/// certificate, in its order (`DnsName("localhost")`, `IpAddress(127.0.0.1)`,
/// as webpki words them): the names as OpenSSL prints `subjectaltname`
/// (`DNS:localhost, IP Address:127.0.0.1`), and for an IP host the list of
/// the certificate's addresses.
fn altname_message(host: &str, presented: &[String]) -> String {
    let inner = |name: &str, prefix: &str, suffix: &str| {
        name.strip_prefix(prefix)
            .and_then(|n| n.strip_suffix(suffix))
            .map(str::to_string)
    };
    let mut altnames = Vec::new();
    let mut ips = Vec::new();
    let mut has_dns = false;
    for name in presented {
        if let Some(dns) = inner(name, "DnsName(\"", "\")") {
            has_dns = true;
            altnames.push(format!("DNS:{dns}"));
        } else if let Some(uri) = inner(name, "UniformResourceIdentifier(\"", "\")") {
            altnames.push(format!("URI:{uri}"));
        } else if let Some(ip) = inner(name, "IpAddress(", ")") {
            match ip.parse::<std::net::IpAddr>() {
                Ok(std::net::IpAddr::V6(v6)) => {
                    // OpenSSL prints every group, in capitals.
                    let groups: Vec<String> = v6.segments().iter().map(|g| format!("{g:X}")).collect();
                    altnames.push(format!("IP Address:{}", groups.join(":")));
                    ips.push(v6.to_string());
                }
                _ => {
                    altnames.push(format!("IP Address:{ip}"));
                    ips.push(ip);
                }
            }
        }
    }
    let reason = if host.parse::<std::net::IpAddr>().is_ok() {
        format!("IP: {host} is not in the cert's list: {}", ips.join(", "))
    } else if has_dns {
        format!("Host: {host}. is not in the cert's altnames: {}", altnames.join(", "))
    } else {
        "Cert does not contain a DNS name".to_string()
    };
    format!("Hostname/IP does not match certificate's altnames: {reason}")
}

fn self_signed(cert: &CertificateDer<'_>) -> bool {
    webpki::EndEntityCert::try_from(cert).is_ok_and(|c| c.issuer() == c.subject())
}

#[cfg(test)]
mod tests {
    use super::altname_message;

    #[test]
    fn altname_failures_read_as_nodes() {
        let presented = vec!["IpAddress(127.0.0.1)".to_string(), "DnsName(\"localhost\")".to_string()];
        assert_eq!(
            altname_message("db.example.test", &presented),
            "Hostname/IP does not match certificate's altnames: Host: db.example.test. is not in the cert's altnames: IP Address:127.0.0.1, DNS:localhost"
        );
        assert_eq!(
            altname_message("10.0.0.1", &presented),
            "Hostname/IP does not match certificate's altnames: IP: 10.0.0.1 is not in the cert's list: 127.0.0.1"
        );
        let v6 = vec!["IpAddress(fd00::1)".to_string()];
        assert_eq!(
            altname_message("example.test", &v6),
            "Hostname/IP does not match certificate's altnames: Cert does not contain a DNS name"
        );
        assert_eq!(
            altname_message("::2", &v6),
            "Hostname/IP does not match certificate's altnames: IP: ::2 is not in the cert's list: fd00::1"
        );
    }
}
