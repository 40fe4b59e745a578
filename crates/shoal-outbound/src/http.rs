//! Performing an outbound HTTP request for a Function: the method, URL and
//! headers it asked for, redirects as fetch follows them, the answer read
//! up to the response limit and decoded (gzip, deflate), and failures in
//! Node's words.

use std::io::Read;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::{HeaderName, HeaderValue, Method, StatusCode};
use http_body_util::{BodyExt, Full, Limited};
use shoal_runtime::{FunctionKey, OutboundError, OutboundRequest, OutboundResponse, Redirect, TlsOptions};
use url::Url;

use crate::HttpOutbound;

impl HttpOutbound {
    pub(crate) async fn perform(
        self,
        function: FunctionKey,
        request: OutboundRequest,
        timeout: Duration,
    ) -> Result<OutboundResponse, OutboundError> {
        let deadline = shoal_runtime::deadline_after(timeout);
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
            let host = url.host_str().unwrap_or("").to_string();
            let port = url.port_or_known_default().unwrap_or(0);
            // By name here, for a clear message before any connection; the
            // client's connector checks the addresses it dials.
            let namespace = self.namespace_policy(&function);
            self.dialer.refuse_name(namespace, &host, port)?;
            let hyper_request = build_request(&method, &url, &request.headers, body.clone())?;
            let https = url.scheme() == "https";
            let plain = TlsOptions::default();
            let tls = self.client_for(if https { &request.tls } else { &plain }, namespace)?;
            let response = match tokio::time::timeout_at(deadline.into(), tls.client.request(hyper_request)).await {
                Err(_) => return Err(timed_out(&host, timeout)),
                Ok(Err(e)) => {
                    // A refusal by the connector (the policy, by address) is
                    // the Function's answer as it is.
                    if let Some(refusal) = find_outbound_error(&e) {
                        return Err(refusal);
                    }
                    let chain = shoal_runtime::causes(&e);
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

pub(crate) fn timed_out(host: &str, timeout: Duration) -> OutboundError {
    OutboundError::new(
        "timeout",
        format!(
            "the request to {host} did not finish within the Function's remaining time ({} ms of FUNC_TIMEOUT)",
            timeout.as_millis()
        ),
    )
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

/// The [`OutboundError`] somewhere in an error's chain of causes.
fn find_outbound_error(e: &(dyn std::error::Error + 'static)) -> Option<OutboundError> {
    let mut current: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(error) = current {
        if let Some(found) = error.downcast_ref::<OutboundError>() {
            return Some(found.clone());
        }
        current = error.source();
    }
    None
}
