//! CloudEvents 1.0 over HTTP: read from a request in structured or binary
//! mode, kept on the bus in structured JSON (as Kyma's publisher proxy keeps
//! them), and handed to a Function in binary mode (as Kyma's dispatcher
//! delivers them: `ce-*` headers, the data as the body).

use std::collections::BTreeMap;

use base64::Engine as _;
use bytes::Bytes;
use http::{HeaderMap, HeaderName, HeaderValue, header};
use serde_json::{Map, Value};

/// Extensions that carry trace context on the bus and travel as the
/// tracing headers Kyma's dispatcher sends (`traceparent`, `X-B3-*`).
const TRACE_EXTENSIONS: &[(&str, &str)] = &[
    ("traceparent", "traceparent"),
    ("b3traceid", "x-b3-traceid"),
    ("b3parentspanid", "x-b3-parentspanid"),
    ("b3spanid", "x-b3-spanid"),
    ("b3sampled", "x-b3-sampled"),
    ("b3flags", "x-b3-flags"),
];

/// An event's data.
#[derive(Debug, Clone, PartialEq)]
pub enum Data {
    /// None at all.
    None,
    /// A JSON value (the data of a JSON event, or text kept as a JSON string).
    Json(Value),
    /// Bytes that are neither (`data_base64` on the bus).
    Binary(Bytes),
}

/// A CloudEvent (spec version 1.0).
#[derive(Debug, Clone, PartialEq)]
pub struct CloudEvent {
    /// `id`.
    pub id: String,
    /// `source`.
    pub source: String,
    /// `type`.
    pub event_type: String,
    /// `specversion`.
    pub spec_version: String,
    /// `time`, as given.
    pub time: Option<String>,
    /// `datacontenttype`.
    pub data_content_type: Option<String>,
    /// `dataschema`.
    pub data_schema: Option<String>,
    /// `subject`.
    pub subject: Option<String>,
    /// The data.
    pub data: Data,
    /// Extension attributes, by (lower-case) name.
    pub extensions: BTreeMap<String, String>,
}

/// Why a request is not a CloudEvent, in words a publisher can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NotACloudEvent(pub String);

fn is_json_type(content_type: &str) -> bool {
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    essence == "application/json" || essence == "text/json" || essence.ends_with("+json")
}

impl CloudEvent {
    /// Reads an HTTP request's CloudEvent: structured mode when its
    /// content type is `application/cloudevents+json`, binary mode when it
    /// has a `ce-specversion` header.
    ///
    /// # Errors
    ///
    /// When it is neither, or the event misses a required attribute.
    pub fn from_http(headers: &HeaderMap, body: &Bytes) -> Result<Self, NotACloudEvent> {
        let content_type = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        let event = if content_type
            .split(';')
            .next()
            .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/cloudevents+json"))
        {
            let value: Value = serde_json::from_slice(body)
                .map_err(|e| NotACloudEvent(format!("the structured CloudEvent is not JSON: {e}")))?;
            Self::from_structured(value)?
        } else if headers.contains_key("ce-specversion") {
            Self::from_binary(headers, body)?
        } else {
            return Err(NotACloudEvent(
                "not a CloudEvent: no ce-specversion header and the content type is not application/cloudevents+json"
                    .into(),
            ));
        };
        event.validate()?;
        Ok(event)
    }

    fn from_binary(headers: &HeaderMap, body: &Bytes) -> Result<Self, NotACloudEvent> {
        let mut attributes = BTreeMap::new();
        for (name, value) in headers {
            let Some(attribute) = name.as_str().strip_prefix("ce-") else {
                continue;
            };
            let value = value
                .to_str()
                .map_err(|_| NotACloudEvent(format!("header {name} is not text")))?;
            attributes.insert(attribute.to_string(), percent_decode(value));
        }
        let content_type = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let data = if body.is_empty() {
            Data::None
        } else if content_type.as_deref().is_some_and(is_json_type) {
            match serde_json::from_slice(body) {
                Ok(v) => Data::Json(v),
                Err(_) => Data::Binary(body.clone()),
            }
        } else {
            match std::str::from_utf8(body) {
                Ok(text) if content_type.as_deref().is_none_or(|t| t.starts_with("text/")) => {
                    Data::Json(Value::String(text.to_string()))
                }
                _ => Data::Binary(body.clone()),
            }
        };
        let mut event = Self::from_attributes(attributes, data);
        event.data_content_type = event.data_content_type.or(content_type);
        Ok(event)
    }

    /// Reads the structured (JSON) form.
    ///
    /// # Errors
    ///
    /// When it is not a JSON object, or `data_base64` is not base64.
    pub fn from_structured(value: Value) -> Result<Self, NotACloudEvent> {
        let Value::Object(mut object) = value else {
            return Err(NotACloudEvent("the structured CloudEvent is not a JSON object".into()));
        };
        let data = match (object.remove("data"), object.remove("data_base64")) {
            (Some(Value::Null) | None, None) => Data::None,
            (Some(v), _) => Data::Json(v),
            (None, Some(Value::String(b64))) => Data::Binary(
                decode_base64(&b64).ok_or_else(|| NotACloudEvent("data_base64 is not valid base64".into()))?,
            ),
            (None, Some(_)) => return Err(NotACloudEvent("data_base64 must be a string".into())),
        };
        let mut attributes = BTreeMap::new();
        for (name, value) in object {
            let text = match value {
                Value::String(s) => s,
                Value::Null => continue,
                Value::Bool(_) | Value::Number(_) => value.to_string(),
                _ => {
                    return Err(NotACloudEvent(format!(
                        "attribute {name} must be a string, number or boolean"
                    )));
                }
            };
            attributes.insert(name.to_ascii_lowercase(), text);
        }
        Ok(Self::from_attributes(attributes, data))
    }

    /// The event of `attributes`: the context attributes by name, the rest
    /// as extensions.
    fn from_attributes(mut attributes: BTreeMap<String, String>, data: Data) -> Self {
        let mut take = |name: &str| attributes.remove(name);
        let event = Self {
            id: take("id").unwrap_or_default(),
            source: take("source").unwrap_or_default(),
            event_type: take("type").unwrap_or_default(),
            spec_version: take("specversion").unwrap_or_default(),
            time: take("time"),
            data_content_type: take("datacontenttype"),
            data_schema: take("dataschema"),
            subject: take("subject"),
            data,
            extensions: BTreeMap::new(),
        };
        Self {
            extensions: attributes,
            ..event
        }
    }

    /// Checks what the CloudEvents SDKs check before sending.
    ///
    /// # Errors
    ///
    /// The first attribute that is missing or wrong.
    pub fn validate(&self) -> Result<(), NotACloudEvent> {
        if self.spec_version != "1.0" {
            return Err(NotACloudEvent(format!(
                "specversion: unsupported version {:?} (1.0 is)",
                self.spec_version
            )));
        }
        for (name, value) in [("id", &self.id), ("source", &self.source), ("type", &self.event_type)] {
            if value.is_empty() {
                return Err(NotACloudEvent(format!("{name}: MUST be a non-empty string")));
            }
        }
        if let Some(time) = &self.time
            && time.parse::<jiff::Timestamp>().is_err()
        {
            return Err(NotACloudEvent(format!("time: {time:?} is not an RFC 3339 timestamp")));
        }
        for name in self.extensions.keys() {
            if name.is_empty() || !name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()) {
                return Err(NotACloudEvent(format!(
                    "extension {name:?}: names are lower-case letters and digits"
                )));
            }
        }
        Ok(())
    }

    /// The structured form kept on the bus.
    pub fn to_structured(&self) -> Value {
        let mut object = Map::new();
        object.insert("specversion".into(), self.spec_version.clone().into());
        object.insert("id".into(), self.id.clone().into());
        object.insert("source".into(), self.source.clone().into());
        object.insert("type".into(), self.event_type.clone().into());
        for (name, value) in [
            ("time", &self.time),
            ("datacontenttype", &self.data_content_type),
            ("dataschema", &self.data_schema),
            ("subject", &self.subject),
        ] {
            if let Some(v) = value {
                object.insert(name.into(), v.clone().into());
            }
        }
        for (name, value) in &self.extensions {
            object.insert(name.clone(), value.clone().into());
        }
        match &self.data {
            Data::None => {}
            Data::Json(v) => {
                object.insert("data".into(), v.clone());
            }
            Data::Binary(b) => {
                object.insert("data_base64".into(), encode_base64(b).into());
            }
        }
        Value::Object(object)
    }

    /// The binary-mode HTTP headers and body a Function receives: `ce-*`
    /// for each attribute but the data's content type, which is the
    /// request's `Content-Type`; trace extensions as tracing headers.
    pub fn to_binary(&self) -> (HeaderMap, Bytes) {
        let mut headers = HeaderMap::new();
        let mut put = |name: &str, value: &str| {
            if let (Ok(name), Ok(value)) = (HeaderName::try_from(name), HeaderValue::try_from(value)) {
                headers.append(name, value);
            }
        };
        put("ce-specversion", &self.spec_version);
        put("ce-id", &self.id);
        put("ce-source", &self.source);
        put("ce-type", &self.event_type);
        for (name, value) in [
            ("ce-time", &self.time),
            ("ce-dataschema", &self.data_schema),
            ("ce-subject", &self.subject),
        ] {
            if let Some(v) = value {
                put(name, v);
            }
        }
        for (name, value) in &self.extensions {
            match TRACE_EXTENSIONS.iter().find(|(ext, _)| ext == name) {
                Some((_, header)) => put(header, value),
                None => put(&format!("ce-{name}"), value),
            }
        }
        let (content_type, body) = match &self.data {
            Data::None => (self.data_content_type.clone(), Bytes::new()),
            Data::Json(Value::String(text)) if !self.data_content_type.as_deref().is_some_and(is_json_type) => (
                Some(self.data_content_type.clone().unwrap_or_else(|| "text/plain".into())),
                Bytes::from(text.clone()),
            ),
            Data::Json(v) => (
                Some(
                    self.data_content_type
                        .clone()
                        .unwrap_or_else(|| "application/json".into()),
                ),
                Bytes::from(serde_json::to_vec(v).unwrap_or_default()),
            ),
            Data::Binary(b) => (
                Some(
                    self.data_content_type
                        .clone()
                        .unwrap_or_else(|| "application/octet-stream".into()),
                ),
                b.clone(),
            ),
        };
        if let Some(t) = content_type {
            put("content-type", &t);
        }
        (headers, body)
    }

    /// Takes the incoming trace headers into trace extensions, as Kyma's
    /// publisher proxy does, so the delivery continues the publisher's trace.
    pub fn take_trace_headers(&mut self, headers: &HeaderMap) {
        for (extension, header) in TRACE_EXTENSIONS {
            if let Some(v) = headers.get(*header).and_then(|v| v.to_str().ok()) {
                self.extensions.insert((*extension).to_string(), v.to_string());
            }
        }
    }
}

/// Binary-mode header values are percent-encoded where they are not
/// printable ASCII (CloudEvents HTTP binding 3.1.3.2).
fn percent_decode(value: &str) -> String {
    if !value.contains('%') {
        return value.to_string();
    }
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = bytes.get(i + 1..i + 3)
            && let Ok(text) = std::str::from_utf8(hex)
            && let Ok(b) = u8::from_str_radix(text, 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn encode_base64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn decode_base64(text: &str) -> Option<Bytes> {
    base64::engine::general_purpose::STANDARD
        .decode(text.trim())
        .ok()
        .map(Bytes::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(HeaderName::try_from(*k).unwrap(), HeaderValue::try_from(*v).unwrap());
        }
        h
    }

    #[test]
    fn binary_and_structured_read_alike_and_deliver_in_binary_mode() {
        let binary = CloudEvent::from_http(
            &headers(&[
                ("ce-specversion", "1.0"),
                ("ce-id", "A-1"),
                ("ce-source", "myapp"),
                ("ce-type", "order.created.v1"),
                ("ce-eventtypeversion", "v1"),
                ("content-type", "application/json"),
                ("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"),
            ]),
            &Bytes::from_static(br#"{"orderCode":"123"}"#),
        )
        .unwrap();
        let structured = CloudEvent::from_http(
            &headers(&[("content-type", "application/cloudevents+json; charset=utf-8")]),
            &Bytes::from(binary.to_structured().to_string()),
        )
        .unwrap();
        assert_eq!(binary, structured);
        let (h, body) = structured.to_binary();
        assert_eq!(h["ce-type"], "order.created.v1");
        assert_eq!(h["ce-eventtypeversion"], "v1");
        assert_eq!(h["content-type"], "application/json");
        assert_eq!(&body[..], br#"{"orderCode":"123"}"#);
        assert!(!h.contains_key("traceparent"), "only taken from headers on purpose");
        let mut traced = structured.clone();
        traced.take_trace_headers(&headers(&[("traceparent", "00-1-2-01"), ("x-b3-traceid", "abc")]));
        let (h, _) = traced.to_binary();
        assert_eq!(h["traceparent"], "00-1-2-01");
        assert_eq!(h["x-b3-traceid"], "abc");
        assert!(!h.contains_key("ce-traceparent"));
    }

    #[test]
    fn data_of_every_kind_round_trips() {
        for (content_type, body) in [
            ("text/plain", &b"hello"[..]),
            ("application/octet-stream", &[0u8, 255, 1, 2, 3][..]),
            ("application/json", &b"[1,2,3]"[..]),
            ("application/json", &b"not json"[..]),
        ] {
            let e = CloudEvent::from_http(
                &headers(&[
                    ("ce-specversion", "1.0"),
                    ("ce-id", "1"),
                    ("ce-source", "s"),
                    ("ce-type", "a.b"),
                    ("content-type", content_type),
                ]),
                &Bytes::copy_from_slice(body),
            )
            .unwrap();
            let again = CloudEvent::from_structured(e.to_structured()).unwrap();
            let (h, out) = again.to_binary();
            assert_eq!(&out[..], body, "{content_type}");
            assert_eq!(h["content-type"], content_type);
        }
    }

    #[test]
    fn missing_attributes_are_refused() {
        let e = CloudEvent::from_http(
            &headers(&[("ce-specversion", "1.0"), ("ce-id", "1"), ("ce-type", "a.b")]),
            &Bytes::new(),
        );
        assert_eq!(e.unwrap_err().0, "source: MUST be a non-empty string");
        let e = CloudEvent::from_http(
            &headers(&[("content-type", "application/json")]),
            &Bytes::from_static(b"{}"),
        );
        assert!(e.unwrap_err().0.starts_with("not a CloudEvent"));
        let e = CloudEvent::from_http(
            &headers(&[("content-type", "application/cloudevents+json")]),
            &Bytes::from_static(br#"{"specversion":"1.0","id":"1","source":"s","type":"a.b","time":"yesterday"}"#),
        );
        assert!(e.unwrap_err().0.contains("RFC 3339"));
        assert_eq!(decode_base64(&encode_base64(b"ab")).unwrap(), Bytes::from_static(b"ab"));
    }
}
