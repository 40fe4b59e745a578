//! The controller's side: sends one build to a builder and trusts the
//! answer only if the service's key signed it and it is about the build
//! asked for.

use std::net::SocketAddr;
use std::time::Duration;

use bytes::Bytes;
use http::{Method, Request, StatusCode};
use http_body_util::{BodyExt, Full, Limited};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;

use crate::protocol::{
    BUILDS_PATH, BuildAnswer, BuildKey, BuildOutcome, BuildRequest, MAX_ANSWER_BYTES, Purpose, SIGNATURE_HEADER,
    signature_of,
};

/// Why a build request brought no answer to trust.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// No connection, or it broke before the answer (the builder
    /// restarted): ask again.
    #[error("the build service at {address} could not be reached")]
    Unreachable {
        /// The builder's address.
        address: SocketAddr,
        /// What the connection said.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// No answer within the build's deadline and its wait for a slot.
    #[error("the build service at {address} did not answer within {} s", .waited.as_secs())]
    Timeout {
        /// The builder's address.
        address: SocketAddr,
        /// How long the request waited.
        waited: Duration,
    },
    /// The service said no (it could not build now, or refused the request).
    #[error("the build service at {address} answered {status}: {message}")]
    Refused {
        /// The builder's address.
        address: SocketAddr,
        /// Its status.
        status: StatusCode,
        /// Its message.
        message: String,
    },
    /// The answer does not carry the service's signature: it did not come
    /// from the build service.
    #[error("the answer from {address} is not signed with the build service's key; it is ignored")]
    Forged {
        /// Who answered.
        address: SocketAddr,
    },
    /// Signed, but about another build.
    #[error("the answer from {address} is about {answered}, not the build asked for")]
    OtherBuild {
        /// Who answered.
        address: SocketAddr,
        /// The build it is about.
        answered: String,
    },
    /// Signed, but not an answer.
    #[error("the answer from {address} is unreadable")]
    Unreadable {
        /// Who answered.
        address: SocketAddr,
        /// Why.
        #[source]
        source: serde_json::Error,
    },
}

impl ClientError {
    /// Whether asking again later may bring an answer (the service was
    /// down or busy), rather than the answer being wrong.
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            ClientError::Unreachable { .. } | ClientError::Timeout { .. } | ClientError::Refused { .. }
        )
    }
}

/// Sends builds to builders.
#[derive(Clone)]
pub struct BuildClient {
    key: BuildKey,
    http: Client<HttpConnector, Full<Bytes>>,
}

impl std::fmt::Debug for BuildClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuildClient").finish_non_exhaustive()
    }
}

impl BuildClient {
    /// A client signing with `key`.
    pub fn new(key: BuildKey) -> Self {
        let mut connector = HttpConnector::new();
        connector.set_connect_timeout(Some(Duration::from_secs(5)));
        connector.set_nodelay(true);
        Self {
            key,
            http: Client::builder(TokioExecutor::new()).build(connector),
        }
    }

    /// Asks the builder at `address` for `request`'s build and waits up to
    /// `timeout` for its answer.
    ///
    /// # Errors
    /// [`ClientError`]: no answer (transient, see
    /// [`ClientError::is_transient`]), or one that is not to be trusted.
    pub async fn build(
        &self,
        address: SocketAddr,
        request: &BuildRequest,
        timeout: Duration,
    ) -> Result<BuildOutcome, ClientError> {
        let body = serde_json::to_vec(request).map_err(|source| ClientError::Unreadable { address, source })?;
        let signature = self.key.sign(Purpose::Request, &body);
        let http_request = Request::builder()
            .method(Method::POST)
            .uri(format!("http://{address}{BUILDS_PATH}"))
            .header(http::header::CONTENT_TYPE, "application/json")
            .header(SIGNATURE_HEADER, signature)
            .body(Full::new(Bytes::from(body)))
            .map_err(|e| ClientError::Unreachable {
                address,
                source: Box::new(e),
            })?;
        let exchange = async {
            let response = self
                .http
                .request(http_request)
                .await
                .map_err(|e| ClientError::Unreachable {
                    address,
                    source: Box::new(e),
                })?;
            let status = response.status();
            let signature = signature_of(response.headers());
            let body = Limited::new(response.into_body(), MAX_ANSWER_BYTES)
                .collect()
                .await
                .map_err(|source| ClientError::Unreachable { address, source })?
                .to_bytes();
            Ok::<_, ClientError>((status, signature, body))
        };
        let (status, signature, body) =
            tokio::time::timeout(timeout, exchange)
                .await
                .map_err(|_| ClientError::Timeout {
                    address,
                    waited: timeout,
                })??;
        if status != StatusCode::OK {
            return Err(ClientError::Refused {
                address,
                status,
                message: String::from_utf8_lossy(&body).chars().take(500).collect(),
            });
        }
        if !self.key.verify(Purpose::Answer, &body, &signature) {
            return Err(ClientError::Forged { address });
        }
        let answer: BuildAnswer =
            serde_json::from_slice(&body).map_err(|source| ClientError::Unreadable { address, source })?;
        if (&answer.namespace, &answer.name, &answer.hash) != (&request.namespace, &request.name, &request.hash) {
            return Err(ClientError::OtherBuild {
                address,
                answered: format!("{}/{}@{}", answer.namespace, answer.name, answer.hash),
            });
        }
        Ok(answer.outcome)
    }
}
