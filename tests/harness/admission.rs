//! The admission webhooks as the API server meets them: the HTTPS server
//! the controller runs, called with AdmissionReview requests over TLS that
//! is verified against the CA the controller made.

use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use rustls::pki_types::{CertificateDer, ServerName};
use serde_json::{Value, json};
use shoal_controller::tls::WebhookCertificate;
use shoal_controller::webhook::{self, MUTATE_PATH, VALIDATE_PATH};
use tokio::net::{TcpListener, TcpStream};

/// The webhook server on 127.0.0.1 and a client trusting its CA.
pub struct Webhooks {
    /// Where it listens.
    pub addr: std::net::SocketAddr,
    /// A client configuration trusting the server's CA.
    pub tls: Arc<rustls::ClientConfig>,
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl Webhooks {
    /// Starts the server with a fresh certificate for `localhost`.
    pub async fn start() -> Self {
        let certificate = WebhookCertificate::generate(&["localhost".to_string()]).expect("certificate");
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server_tls = certificate.server_config().expect("server TLS");
        tokio::spawn(webhook::serve(listener, server_tls, Default::default(), async move {
            let _ = stopped.await;
        }));
        let mut roots = rustls::RootCertStore::empty();
        roots
            .add(CertificateDer::from(certificate.ca_der().to_vec()))
            .expect("CA into the trust store");
        let tls = rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::aws_lc_rs::default_provider()))
            .with_safe_default_protocol_versions()
            .expect("protocols")
            .with_root_certificates(roots)
            .with_no_client_auth();
        Self {
            addr,
            tls: Arc::new(tls),
            _stop: stop,
        }
    }

    /// POSTs a review over TLS (verifying the server as the API server
    /// would, by the CA bundle) and returns the response part.
    pub async fn review(&self, path: &str, operation: &str, object: Value) -> Value {
        let review = json!({
            "apiVersion": "admission.k8s.io/v1",
            "kind": "AdmissionReview",
            "request": {
                "uid": "3f1e-test",
                "kind": {"group": "serverless.kyma-project.io", "version": "v1alpha2", "kind": "Function"},
                "resource": {"group": "serverless.kyma-project.io", "version": "v1alpha2", "resource": "functions"},
                "name": object["metadata"]["name"].clone(),
                "namespace": "default",
                "operation": operation,
                "userInfo": {"username": "kubernetes-admin"},
                "object": object,
                "oldObject": null,
                "dryRun": false
            }
        });
        let (status, body) = self.post(path, serde_json::to_vec(&review).expect("json")).await;
        assert_eq!(status, 200);
        let answer: Value = serde_json::from_slice(&body).expect("JSON answer");
        assert_eq!(answer["kind"], "AdmissionReview");
        assert_eq!(
            answer["response"]["uid"], "3f1e-test",
            "the answer carries the request's uid"
        );
        answer["response"].clone()
    }

    /// POSTs `body` to `path` over TLS verified by the controller's CA.
    pub async fn post(&self, path: &str, body: Vec<u8>) -> (http::StatusCode, Bytes) {
        let tcp = TcpStream::connect(self.addr).await.expect("connect");
        let connector = tokio_rustls::TlsConnector::from(self.tls.clone());
        let stream = connector
            .connect(ServerName::try_from("localhost").expect("name"), tcp)
            .await
            .expect("TLS handshake verified by the controller's CA");
        let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .expect("HTTP handshake");
        tokio::spawn(connection);
        let request = http::Request::post(path)
            .header("host", "localhost")
            .header("content-type", "application/json")
            .body(Full::new(Bytes::from(body)))
            .expect("request");
        let response = sender.send_request(request).await.expect("response");
        let status = response.status();
        (status, response.into_body().collect().await.expect("body").to_bytes())
    }

    /// A CREATE review to the validating webhook.
    pub async fn validate(&self, object: Value) -> Value {
        self.review(VALIDATE_PATH, "CREATE", object).await
    }

    /// Asserts a denial whose message contains `expected`.
    pub async fn assert_denied(&self, object: Value, expected: &str) {
        let response = self.validate(object).await;
        assert_eq!(
            response["allowed"], false,
            "expected a denial mentioning {expected:?}: {response}"
        );
        let message = response["status"]["message"].as_str().unwrap_or("");
        assert!(
            message.contains(expected),
            "denial message {message:?} should contain {expected:?}"
        );
    }
    /// Defaults `object` through the mutating webhook, checks it through the
    /// validating one, and returns it as the API server would store it.
    pub async fn admit(&self, object: Value) -> Value {
        let response = self.review(MUTATE_PATH, "CREATE", object.clone()).await;
        assert_eq!(response["allowed"], true, "defaulting refused: {response}");
        let admitted = if response.get("patch").is_some() {
            apply_patch(&object, &response)
        } else {
            object
        };
        let response = self.validate(admitted.clone()).await;
        assert_eq!(response["allowed"], true, "validation refused: {response}");
        admitted
    }
}

/// Applies a JSON patch from a webhook response to `object`.
pub fn apply_patch(object: &Value, response: &Value) -> Value {
    use base64_decode::decode;
    let patch = decode(response["patch"].as_str().expect("patch"));
    let patch: json_patch::Patch = serde_json::from_slice(&patch).expect("JSON patch");
    let mut patched = object.clone();
    json_patch::patch(&mut patched, &patch).expect("patch applies");
    patched
}

mod base64_decode {
    /// Standard base64 (what Kubernetes uses for `patch`).
    pub fn decode(input: &str) -> Vec<u8> {
        let table = |c: u8| -> u32 {
            match c {
                b'A'..=b'Z' => (c - b'A') as u32,
                b'a'..=b'z' => (c - b'a' + 26) as u32,
                b'0'..=b'9' => (c - b'0' + 52) as u32,
                b'+' => 62,
                b'/' => 63,
                _ => panic!("not base64: {c}"),
            }
        };
        let clean: Vec<u8> = input.bytes().filter(|&c| c != b'=').collect();
        let mut out = Vec::new();
        for chunk in clean.chunks(4) {
            let mut n = 0u32;
            for (i, &c) in chunk.iter().enumerate() {
                n |= table(c) << (18 - 6 * i);
            }
            let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
            out.extend_from_slice(&bytes[..chunk.len() - 1]);
        }
        out
    }
}
