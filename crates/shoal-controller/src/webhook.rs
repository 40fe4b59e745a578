//! The defaulting and validating admission webhooks for Functions, and the
//! HTTPS server that carries them.
//!
//! Both run the same `shoal-api` rules the reconciler runs, so a Function
//! that reaches the cluster some other way (webhooks off, failurePolicy
//! Ignore) is still judged identically.

use std::{convert::Infallible, future::Future, net::SocketAddr, sync::Arc};

use bytes::Bytes;
use http::{Method, Request, Response, StatusCode};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo};
use k8s_openapi::ByteString;
use k8s_openapi::api::admissionregistration::v1::{MutatingWebhookConfiguration, ValidatingWebhookConfiguration};
use kube::api::{Api, Patch, PatchParams};
use kube::core::DynamicObject;
use kube::core::admission::{AdmissionRequest, AdmissionResponse, AdmissionReview, Operation};
use shoal_api::{Defaults, Function};
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;

/// Path of the defaulting webhook.
pub const MUTATE_PATH: &str = "/mutate-function";
/// Path of the validating webhook.
pub const VALIDATE_PATH: &str = "/validate-function";
/// Largest AdmissionReview accepted (a Function's inline source counts).
const MAX_REVIEW_BYTES: usize = 8 << 20;

/// Fills in Kyma's defaults: answers with a JSON patch when anything changed.
pub fn mutate(review: AdmissionReview<DynamicObject>, defaults: &Defaults) -> AdmissionReview<DynamicObject> {
    let (request, function) = match parse(review) {
        Ok(parsed) => parsed,
        Err(response) => return response.into_review(),
    };
    let response = AdmissionResponse::from(&request);
    let Some(original) = function else {
        return response.into_review();
    };
    let mut defaulted = original.clone();
    if !shoal_api::apply_defaults_with(&mut defaulted, defaults) {
        return response.into_review();
    }
    let patch = match (serde_json::to_value(&original), serde_json::to_value(&defaulted)) {
        (Ok(before), Ok(after)) => json_patch::diff(&before, &after),
        (Err(e), _) | (_, Err(e)) => return response.deny(format!("cannot default the Function: {e}")).into_review(),
    };
    match response.with_patch(patch) {
        Ok(patched) => patched.into_review(),
        Err(e) => AdmissionResponse::from(&request)
            .deny(format!("cannot default the Function: {e}"))
            .into_review(),
    }
}

/// Refuses a Function that breaks Kyma's or Shoal's rules, naming each one.
pub fn validate(review: AdmissionReview<DynamicObject>) -> AdmissionReview<DynamicObject> {
    let (request, function) = match parse(review) {
        Ok(parsed) => parsed,
        Err(response) => return response.into_review(),
    };
    let response = AdmissionResponse::from(&request);
    if matches!(request.operation, Operation::Delete | Operation::Connect) {
        return response.into_review();
    }
    let Some(function) = function else {
        return response.deny("the request carries no Function").into_review();
    };
    match shoal_api::validate(&function) {
        Ok(()) => response.into_review(),
        Err(e) => {
            tracing::info!(
                namespace = request.namespace.as_deref().unwrap_or(""),
                name = function.metadata.name.as_deref().unwrap_or(request.name.as_str()),
                reason = %e,
                "refused a Function"
            );
            response.deny(format!("invalid Function: {e}")).into_review()
        }
    }
}

/// The request and, when it carries one, its object read as a Function. A
/// malformed object is denied with serde's message, which names the field.
#[allow(clippy::result_large_err)]
fn parse(
    review: AdmissionReview<DynamicObject>,
) -> Result<(AdmissionRequest<DynamicObject>, Option<Function>), AdmissionResponse> {
    let request: AdmissionRequest<DynamicObject> = review
        .try_into()
        .map_err(|e| AdmissionResponse::invalid(format!("not an AdmissionReview request: {e}")))?;
    let Some(object) = request.object.clone() else {
        return Ok((request, None));
    };
    let function = serde_json::to_value(&object)
        .and_then(serde_json::from_value::<Function>)
        .map_err(|e| AdmissionResponse::from(&request).deny(format!("not a valid Function: {e}")))?;
    Ok((request, Some(function)))
}

/// Answers one HTTP request: the two webhook paths, `/healthz`, else 404.
pub async fn handle<B>(request: Request<B>, defaults: &Defaults) -> Response<Full<Bytes>>
where
    B: hyper::body::Body,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let path = request.uri().path().to_string();
    if request.method() == Method::GET && path == "/healthz" {
        return text(StatusCode::OK, "OK");
    }
    let mutating = match path.as_str() {
        MUTATE_PATH => true,
        VALIDATE_PATH => false,
        _ => return text(StatusCode::NOT_FOUND, "not found"),
    };
    if request.method() != Method::POST {
        return text(StatusCode::METHOD_NOT_ALLOWED, "POST an AdmissionReview");
    }
    let body = match Limited::new(request.into_body(), MAX_REVIEW_BYTES).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(e) => return text(StatusCode::PAYLOAD_TOO_LARGE, &format!("reading the request: {e}")),
    };
    let answer = match serde_json::from_slice::<AdmissionReview<DynamicObject>>(&body) {
        Ok(parsed) if mutating => mutate(parsed, defaults),
        Ok(parsed) => validate(parsed),
        Err(e) => AdmissionResponse::invalid(format!("not an AdmissionReview: {e}")).into_review(),
    };
    let allowed = answer.response.as_ref().is_some_and(|r| r.allowed);
    if allowed {
        crate::metrics::ADMISSIONS_ALLOWED.inc();
    } else {
        crate::metrics::ADMISSIONS_DENIED.inc();
    }
    match serde_json::to_value(&answer)
        .map(base64_patch)
        .and_then(|v| serde_json::to_vec(&v))
    {
        Ok(json) => Response::builder()
            .status(StatusCode::OK)
            .header(http::header::CONTENT_TYPE, "application/json")
            .body(Full::new(Bytes::from(json)))
            .unwrap_or_else(|_| text(StatusCode::INTERNAL_SERVER_ERROR, "response")),
        Err(e) => text(StatusCode::INTERNAL_SERVER_ERROR, &format!("encoding the answer: {e}")),
    }
}

/// kube serializes `response.patch` as an array of bytes; Kubernetes
/// documents (and every other webhook sends) a base64 string.
fn base64_patch(mut review: serde_json::Value) -> serde_json::Value {
    let Some(bytes) = review["response"]["patch"].as_array().map(|a| {
        a.iter()
            .filter_map(|b| b.as_u64().and_then(|b| u8::try_from(b).ok()))
            .collect::<Vec<u8>>()
    }) else {
        return review;
    };
    review["response"]["patch"] = serde_json::Value::String(base64(&bytes));
    review
}

fn base64(bytes: &[u8]) -> String {
    const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = (u32::from(chunk[0]) << 16)
            | (u32::from(*chunk.get(1).unwrap_or(&0)) << 8)
            | u32::from(*chunk.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(TABLE[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn text(status: StatusCode, body: &str) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body.to_string())));
    *response.status_mut() = status;
    response
}

/// Serves the webhooks over TLS until `shutdown` completes.
pub async fn serve(
    listener: TcpListener,
    tls: Arc<rustls::ServerConfig>,
    defaults: Defaults,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let defaults = Arc::new(defaults);
    let acceptor = TlsAcceptor::from(tls);
    let addr = listener.local_addr()?;
    tracing::info!(%addr, "admission webhooks serving over HTTPS");
    tokio::pin!(shutdown);
    loop {
        let (stream, peer): (_, SocketAddr) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    tracing::warn!(error = %e, "accepting a webhook connection");
                    continue;
                }
            },
            () = &mut shutdown => return Ok(()),
        };
        let acceptor = acceptor.clone();
        let defaults = defaults.clone();
        tokio::spawn(async move {
            let stream = match acceptor.accept(stream).await {
                Ok(s) => s,
                Err(e) => {
                    tracing::debug!(%peer, error = %e, "TLS handshake failed");
                    return;
                }
            };
            let service = hyper::service::service_fn(|req: Request<Incoming>| {
                let defaults = defaults.clone();
                async move { Ok::<_, Infallible>(handle(req, &defaults).await) }
            });
            if let Err(e) = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                .serve_connection(TokioIo::new(stream), service)
                .await
            {
                tracing::debug!(%peer, error = %e, "webhook connection ended");
            }
        });
    }
}

/// Writes `ca_pem` into every webhook of the named configurations, so the API
/// server trusts the certificate this process just made.
pub async fn patch_ca_bundle(
    client: kube::Client,
    mutating: &str,
    validating: &str,
    ca_pem: &str,
) -> Result<(), kube::Error> {
    let bundle = ByteString(ca_pem.as_bytes().to_vec());
    let params = PatchParams::default();

    let api: Api<MutatingWebhookConfiguration> = Api::all(client.clone());
    let mut config = api.get(mutating).await?;
    for webhook in config.webhooks.iter_mut().flatten() {
        webhook.client_config.ca_bundle = Some(bundle.clone());
    }
    let patch = serde_json::json!({ "webhooks": config.webhooks });
    api.patch(mutating, &params, &Patch::Merge(&patch)).await?;

    let api: Api<ValidatingWebhookConfiguration> = Api::all(client);
    let mut config = api.get(validating).await?;
    for webhook in config.webhooks.iter_mut().flatten() {
        webhook.client_config.ca_bundle = Some(bundle.clone());
    }
    let patch = serde_json::json!({ "webhooks": config.webhooks });
    api.patch(validating, &params, &Patch::Merge(&patch)).await?;
    tracing::info!(mutating, validating, "caBundle written to the webhook configurations");
    Ok(())
}
