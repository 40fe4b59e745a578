//! HTTP/1.1 requests that ask for a protocol switch (`Connection: Upgrade`,
//! the WebSocket handshake of `ws` and the global `WebSocket`).
//!
//! The pooled client never hands a connection over, so an upgrade gets a
//! connection of its own (policy, resolution and TLS as for `net.connect`),
//! speaks HTTP/1.1 on it with hyper, and on 101 Switching Protocols gives
//! the Function the connection, with any bytes the server sent after its
//! answer still readable from it.

use std::time::{Duration, Instant};

use bytes::Bytes;
use http::{HeaderName, HeaderValue};
use http_body_util::{BodyExt, Full, Limited};
use hyper_util::rt::TokioIo;
use shoal_runtime::outbound::{Connection, TlsConnect, Upgraded};
use shoal_runtime::{FunctionKey, OutboundError, OutboundRequest, OutboundResponse};
use url::Url;

use crate::HttpOutbound;

impl HttpOutbound {
    pub(crate) async fn perform_upgrade(
        self,
        function: FunctionKey,
        request: OutboundRequest,
        timeout: Duration,
    ) -> Result<Upgraded, OutboundError> {
        let deadline = Instant::now() + timeout;
        let url = Url::parse(&request.url)
            .map_err(|e| OutboundError::new("invalid", format!("invalid URL {:?}: {e}", request.url)))?;
        let https = match url.scheme() {
            "http" | "ws" => false,
            "https" | "wss" => true,
            other => {
                return Err(OutboundError::new(
                    "invalid",
                    format!("{url}: a protocol upgrade needs an http:, https:, ws: or wss: URL, not {other}:"),
                ));
            }
        };
        let host = url.host_str().unwrap_or_default().to_string();
        let port = url.port_or_known_default().unwrap_or(if https { 443 } else { 80 });
        let tls = https.then(|| TlsConnect {
            servername: None,
            verify: request.tls.clone(),
            alpn: vec!["http/1.1".into()],
        });
        let connection = self.open(&function, &host, port, 0, tls.as_ref(), deadline).await?;
        let Connection { stream, control, info } = connection;

        let failed = |what: &str, e: &dyn std::error::Error| {
            OutboundError::new("network", format!("{what} {host}: {}", shoal_runtime::causes(e)))
                .with_code("ECONNRESET")
        };
        let handshake = hyper::client::conn::http1::handshake::<_, Full<Bytes>>(TokioIo::new(stream));
        let (mut sender, driver) = tokio::time::timeout_at(deadline.into(), handshake)
            .await
            .map_err(|_| crate::http::timed_out(&host, timeout))?
            .map_err(|e| failed("HTTP/1.1 handshake with", &e))?;
        // The driver runs the connection; with_upgrades lets it hand the
        // connection over after a 101.
        tokio::spawn(async move {
            let _ = driver.with_upgrades().await;
        });

        let target = match url.query() {
            Some(q) => format!("{}?{q}", url.path()),
            None => url.path().to_string(),
        };
        let authority = match url.port() {
            Some(p) => format!("{host}:{p}"),
            None => host.clone(),
        };
        let mut builder = hyper::Request::builder().method(request.method.as_str()).uri(target);
        let mut has_host = false;
        for (name, value) in &request.headers {
            let name = HeaderName::from_bytes(name.to_ascii_lowercase().as_bytes())
                .map_err(|_| OutboundError::new("invalid", format!("invalid header name {name:?}")))?;
            if name == http::header::CONTENT_LENGTH || name == http::header::TRANSFER_ENCODING {
                continue;
            }
            has_host |= name == http::header::HOST;
            let value = HeaderValue::from_str(value)
                .map_err(|_| OutboundError::new("invalid", format!("invalid value for header {name}")))?;
            builder = builder.header(name, value);
        }
        if !has_host {
            builder = builder.header(http::header::HOST, authority);
        }
        let hyper_request = builder
            .body(Full::new(request.body.clone()))
            .map_err(|e| OutboundError::new("invalid", format!("invalid request: {e}")))?;
        let mut response = tokio::time::timeout_at(deadline.into(), sender.send_request(hyper_request))
            .await
            .map_err(|_| crate::http::timed_out(&host, timeout))?
            .map_err(|e| failed("request to", &e))?;

        let headers = response
            .headers()
            .iter()
            .map(|(n, v)| {
                (
                    n.as_str().to_string(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect();
        let status = response.status();
        let mut answer = OutboundResponse {
            status: status.as_u16(),
            status_text: status.canonical_reason().unwrap_or("").to_string(),
            headers,
            url: url.to_string(),
            redirected: false,
            authorized: info.authorized,
            authorization_error: info.authorization_error,
            body: Bytes::new(),
        };
        if status != http::StatusCode::SWITCHING_PROTOCOLS {
            // Not switched: the answer is an ordinary response (`ws` then
            // reports "Unexpected server response").
            let limit = self.config.max_response_bytes;
            let body = tokio::time::timeout_at(deadline.into(), Limited::new(response.into_body(), limit).collect())
                .await
                .map_err(|_| crate::http::timed_out(&host, timeout))?
                .map_err(|e| OutboundError::new("network", format!("reading the response from {host}: {e}")))?;
            answer.body = body.to_bytes();
            return Ok(Upgraded {
                response: answer,
                connection: None,
            });
        }
        let upgraded = tokio::time::timeout_at(deadline.into(), hyper::upgrade::on(&mut response))
            .await
            .map_err(|_| crate::http::timed_out(&host, timeout))?
            .map_err(|e| failed("switching protocols with", &e))?;
        // hyper's upgraded connection replays what it read past the answer.
        Ok(Upgraded {
            response: answer,
            connection: Some(Connection {
                stream: Box::new(TokioIo::new(upgraded)),
                control,
                info,
            }),
        })
    }
}
