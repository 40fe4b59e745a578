//! Kyma's `Subscription` (`eventing.kyma-project.io/v1alpha2`): the types,
//! the reconciler-side validation Kyma's eventing-manager applies (its
//! admission webhooks are gone; a bad spec is reported in the status), and
//! how a Subscription maps onto NATS JetStream: the clean types, subjects and
//! consumer names, computed exactly as eventing-manager and its publisher
//! proxy compute them, so a Subscription and an event published by either
//! side meet on the same subject.

use std::collections::BTreeMap;
use std::fmt;

use kube::CustomResource;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::{Condition, ConditionStatus};

/// The subject prefix of every event (eventing-manager's `JS_STREAM_SUBJECT_PREFIX`).
pub const SUBJECT_PREFIX: &str = "kyma";
/// The one stream holding every event (eventing-manager's `JS_STREAM_NAME`).
pub const STREAM_NAME: &str = "sap";
/// A type starting with this is a legacy (v1alpha1) type, refused by
/// standard matching.
pub const LEGACY_TYPE_PREFIX: &str = "sap.kyma.custom";
/// `config.maxInFlightMessages` when absent or not a number.
pub const DEFAULT_MAX_IN_FLIGHT: u32 = 10;
/// How many times an event is delivered at most (JetStream `MaxDeliver`).
pub const MAX_DELIVERIES: i64 = 100;

/// The condition saying whether the spec passed validation.
pub const CONDITION_SPEC_VALID: &str = "Subscription spec valid";
/// The condition saying whether events are being delivered.
pub const CONDITION_ACTIVE: &str = "Subscription active";
/// Reasons of [`CONDITION_SPEC_VALID`].
pub const REASON_SPEC_VALID: &str = "Subscription spec has no validation errors";
/// See [`REASON_SPEC_VALID`].
pub const REASON_SPEC_INVALID: &str = "Subscription spec has validation errors";
/// Reasons of [`CONDITION_ACTIVE`].
pub const REASON_ACTIVE: &str = "NATS Subscription active";
/// See [`REASON_ACTIVE`].
pub const REASON_NOT_ACTIVE: &str = "NATS Subscription not active";

/// A Kyma Subscription: events of `types` from `source`, delivered to `sink`.
// Each printcolumn(...) is a separate column, not a repeated attribute.
#[allow(clippy::duplicated_attributes)]
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[kube(
    group = "eventing.kyma-project.io",
    version = "v1alpha2",
    kind = "Subscription",
    namespaced,
    status = "SubscriptionStatus",
    category = "kyma-eventing",
    printcolumn(name = "Ready", type_ = "string", json_path = ".status.ready"),
    printcolumn(name = "Age", type_ = "date", json_path = ".metadata.creationTimestamp")
)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionSpec {
    /// Read-only identifier (EventMesh); unused with JetStream.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Where events go: a Service URL in the Subscription's namespace,
    /// `http://<service>.<namespace>.svc.cluster.local[:port][/path]`.
    pub sink: String,
    /// `standard` (the source and the cleaned types make the subject) or
    /// `exact` (the types are the subject as given).
    #[serde(default = "default_type_matching")]
    #[schemars(default = "default_type_matching")]
    pub type_matching: String,
    /// Where the events come from (an application name); may be empty with
    /// `exact` matching.
    pub source: String,
    /// The event types, e.g. `order.created.v1`.
    pub types: Vec<String>,
    /// `maxInFlightMessages`: how many events are delivered at once (default "10").
    #[serde(default = "default_config")]
    #[schemars(default = "default_config")]
    pub config: BTreeMap<String, String>,
}

fn default_type_matching() -> String {
    "standard".into()
}

fn default_config() -> BTreeMap<String, String> {
    BTreeMap::from([("maxInFlightMessages".to_string(), DEFAULT_MAX_IN_FLIGHT.to_string())])
}

/// What the reconciler reports.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionStatus {
    /// Whether events are being delivered.
    pub ready: bool,
    /// `Subscription spec valid` and `Subscription active`.
    #[serde(default)]
    pub conditions: Vec<Condition>,
    /// Each type as given and as it is matched.
    #[serde(default)]
    pub types: Vec<EventType>,
    /// The JetStream consumer of each type.
    #[serde(default)]
    pub backend: Backend,
}

/// A type as given and as cleaned.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, Eq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventType {
    /// As in the spec.
    pub original_type: String,
    /// As it appears in the subject.
    pub clean_type: String,
}

/// Backend-specific status.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Backend {
    /// The consumer of each type.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<JetStreamType>,
}

/// One type's durable consumer.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, Eq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct JetStreamType {
    /// As in the spec.
    pub original_type: String,
    /// The durable consumer's name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub consumer_name: String,
}

/// One rule a spec breaks, as Kubernetes field errors print.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubscriptionFieldError {
    /// `spec.types`, `spec.sink`, `metadata.namespace`, ...
    pub field: &'static str,
    /// The offending value, when one is shown.
    pub value: Option<String>,
    /// What is wrong.
    pub detail: String,
}

impl fmt::Display for SubscriptionFieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.value {
            Some(value) => write!(f, "{}: Invalid value: {:?}: {}", self.field, value, self.detail),
            None => write!(f, "{}: {}", self.field, self.detail),
        }
    }
}

/// Why a Subscription is not valid: every rule it breaks, printed as
/// eventing-manager prints them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct SubscriptionInvalid(pub Vec<SubscriptionFieldError>);

impl fmt::Display for SubscriptionInvalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Subscription validation failed: ")?;
        match self.0.as_slice() {
            [one] => write!(f, "{one}"),
            many => {
                f.write_str("[")?;
                for (i, e) in many.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{e}")?;
                }
                f.write_str("]")
            }
        }
    }
}

/// The Service a sink URL names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SinkService {
    /// The Service's name (a Shoal Function's Service is named after it).
    pub name: String,
    /// Its namespace.
    pub namespace: String,
    /// The port in the URL, if any.
    pub port: Option<u16>,
    /// The path in the URL ("/" when none).
    pub path: String,
}

/// A valid Subscription's place in JetStream: one consumer per type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// The type as given.
    pub original_type: String,
    /// The type as cleaned (equal to the original with exact matching).
    pub clean_type: String,
    /// The subject its events are published on.
    pub subject: String,
    /// The durable consumer delivering them.
    pub consumer: String,
}

impl Subscription {
    /// `config.maxInFlightMessages`, or the default when absent or not a
    /// number. At least 1: JetStream would read 0 as "no limit".
    pub fn max_in_flight(&self) -> u32 {
        self.spec
            .config
            .get("maxInFlightMessages")
            .and_then(|v| v.trim().parse::<i64>().ok())
            .map(|n| n.clamp(1, i64::from(u32::MAX)) as u32)
            .unwrap_or(DEFAULT_MAX_IN_FLIGHT)
    }

    /// Whether the types are matched exactly.
    pub fn is_exact(&self) -> bool {
        self.spec.type_matching == "exact"
    }

    /// Checks the spec as eventing-manager's reconciler does.
    ///
    /// # Errors
    ///
    /// Every rule the spec breaks, in eventing-manager's order and words.
    pub fn validate(&self) -> Result<SinkService, SubscriptionInvalid> {
        let mut errors = Vec::new();
        let spec = &self.spec;
        let exact = match spec.type_matching.as_str() {
            "exact" => true,
            "standard" => false,
            other => {
                errors.push(SubscriptionFieldError {
                    field: "spec.typeMatching",
                    value: Some(other.to_string()),
                    detail: "must be a valid TypeMatching value exact or standard".into(),
                });
                false
            }
        };
        if spec.source.is_empty() && !exact {
            errors.push(SubscriptionFieldError {
                field: "spec.source",
                value: Some(String::new()),
                detail: "must not be empty".into(),
            });
        }
        if let Some(e) = types_error(&spec.types, exact) {
            errors.push(e);
        }
        if let Some(v) = spec.config.get("maxInFlightMessages")
            && v.trim().parse::<i64>().is_err()
        {
            errors.push(SubscriptionFieldError {
                field: "spec.config",
                value: Some(v.clone()),
                detail: "maxInFlightMessages must be a stringified int value".into(),
            });
        }
        let namespace = self.metadata.namespace.as_deref().unwrap_or("default");
        let sink = match parse_sink(&spec.sink, namespace) {
            Ok(sink) => Some(sink),
            Err(e) => {
                errors.push(e);
                None
            }
        };
        match sink {
            Some(sink) if errors.is_empty() => Ok(sink),
            _ => Err(SubscriptionInvalid(errors)),
        }
    }

    /// The subject and consumer of each distinct type (the spec assumed
    /// valid), in the order the types are given.
    pub fn bindings(&self) -> Vec<Binding> {
        let namespace = self.metadata.namespace.as_deref().unwrap_or("default");
        let name = self.metadata.name.as_deref().unwrap_or_default();
        let exact = self.is_exact();
        let mut seen = Vec::new();
        let mut out = Vec::new();
        for t in &self.spec.types {
            if seen.contains(&t) {
                continue;
            }
            seen.push(t);
            let (clean_type, subject) = if exact {
                (t.clone(), format!("{SUBJECT_PREFIX}.{t}"))
            } else {
                let clean = clean_event_type(t);
                let subject = format!("{SUBJECT_PREFIX}.{}.{clean}", clean_source(&self.spec.source));
                (clean, subject)
            };
            out.push(Binding {
                original_type: t.clone(),
                clean_type,
                consumer: consumer_name(namespace, name, &subject),
                subject,
            });
        }
        out
    }

    /// A status with `condition` set (its transition time kept when nothing
    /// about it changed).
    pub fn with_condition(status: &mut SubscriptionStatus, mut condition: Condition) {
        match status.conditions.iter_mut().find(|c| c.type_ == condition.type_) {
            Some(old) => {
                if old.status == condition.status && old.reason == condition.reason && old.message == condition.message
                {
                    return;
                }
                if old.status == condition.status {
                    condition.last_transition_time = old.last_transition_time.clone();
                }
                *old = condition;
            }
            None => status.conditions.push(condition),
        }
    }
}

fn types_error(types: &[String], exact: bool) -> Option<SubscriptionFieldError> {
    let error = |value: String, detail: &str| {
        Some(SubscriptionFieldError {
            field: "spec.types",
            value: Some(value),
            detail: detail.into(),
        })
    };
    if types.is_empty() {
        return error(String::new(), "must not be empty");
    }
    let mut duplicates = Vec::new();
    for (i, t) in types.iter().enumerate() {
        if types[..i].contains(t) && !duplicates.contains(t) {
            duplicates.push(t.clone());
        }
    }
    if !duplicates.is_empty() {
        return error(duplicates.join(","), "must not have duplicate types");
    }
    for t in types {
        if t.is_empty() {
            return error(t.clone(), "must not be of length zero");
        }
        if t.split('.').count() < 2 {
            return error(t.clone(), "must have minimum 2 segments");
        }
        if !exact && t.starts_with(LEGACY_TYPE_PREFIX) {
            return error(t.clone(), "must not have sap.kyma.custom as type prefix");
        }
    }
    None
}

/// Reads a sink URL: `http(s)://<service>.<namespace>.svc.cluster.local[:port][/path]`
/// in `namespace`.
///
/// # Errors
///
/// The rule the URL breaks, in eventing-manager's words.
pub fn parse_sink(sink: &str, namespace: &str) -> Result<SinkService, SubscriptionFieldError> {
    let error = |field: &'static str, value: &str, detail: String| SubscriptionFieldError {
        field,
        value: Some(value.to_string()),
        detail,
    };
    if sink.is_empty() {
        return Err(error("spec.sink", sink, "must not be empty".into()));
    }
    let Some(rest) = sink.strip_prefix("http://").or_else(|| sink.strip_prefix("https://")) else {
        return Err(error(
            "spec.sink",
            sink,
            "must have URL scheme 'http' or 'https'".into(),
        ));
    };
    let (authority, path) = match rest.find(['/', '?', '#']) {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, ""),
    };
    let (host, port) = match authority.rsplit_once(':') {
        Some((host, port)) => match port.parse::<u16>() {
            Ok(p) => (host, Some(p)),
            Err(_) => {
                return Err(error(
                    "spec.sink",
                    sink,
                    format!("failed to parse subscription sink URL: invalid port {port:?}"),
                ));
            }
        },
        None => (authority, None),
    };
    if host.is_empty() || host.contains(['@', ' ']) {
        return Err(error(
            "spec.sink",
            sink,
            "failed to parse subscription sink URL: invalid host".into(),
        ));
    }
    if !host.ends_with("svc.cluster.local") {
        return Err(error(
            "spec.sink",
            sink,
            "must have valid sink URL suffix svc.cluster.local".into(),
        ));
    }
    let labels: Vec<&str> = host.split('.').collect();
    if labels.len() != 5 {
        return Err(error(
            "spec.sink",
            sink,
            format!("must have sink URL with 5 sub-domains: {host}"),
        ));
    }
    if labels[1] != namespace {
        return Err(error(
            "metadata.namespace",
            namespace,
            format!("must have the same namespace as the subscriber: {}", labels[1]),
        ));
    }
    let path = path.split(['?', '#']).next().unwrap_or_default();
    Ok(SinkService {
        name: labels[0].to_string(),
        namespace: labels[1].to_string(),
        port,
        path: if path.is_empty() { "/".into() } else { path.to_string() },
    })
}

/// A source as it appears in a subject: whitespace and `.`, `>`, `*`, `/`,
/// `\` removed.
pub fn clean_source(source: &str) -> String {
    source
        .chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '.' | '>' | '*' | '/' | '\\'))
        .collect()
}

/// A type as it appears in a subject: whitespace and `>`, `*`, `/`, `\`
/// removed (dots separate its segments and stay).
pub fn clean_event_type(event_type: &str) -> String {
    event_type
        .chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '>' | '*' | '/' | '\\'))
        .collect()
}

/// The durable consumer of one Subscription's subject: the first 32 hex
/// digits of SHA-256 over `<namespace>/<name>/<subject>`.
pub fn consumer_name(namespace: &str, name: &str, subject: &str) -> String {
    let digest = Sha256::digest(format!("{namespace}/{name}/{subject}").as_bytes());
    let mut hex = hex::encode(digest);
    hex.truncate(32);
    hex
}

/// The subject an event of `event_type` from `source` is published on
/// (the publisher proxy's reading of a CloudEvent), or why it cannot be.
///
/// # Errors
///
/// When cleaning leaves an empty segment, as the publisher proxy refuses it.
pub fn publish_subject(source: &str, event_type: &str) -> Result<String, String> {
    if let Some(rest) = event_type.strip_prefix(LEGACY_TYPE_PREFIX) {
        // A legacy type is published under the prefix as it is.
        if rest.is_empty() || !rest.starts_with('.') {
            return Err(format!(
                "failed to parse event-type={event_type} with prefix={LEGACY_TYPE_PREFIX}: prefix not found"
            ));
        }
        return Ok(format!("{SUBJECT_PREFIX}.{event_type}"));
    }
    let subject = format!(
        "{SUBJECT_PREFIX}.{}.{}",
        clean_source(source),
        clean_event_type(event_type)
    );
    if subject.split('.').any(str::is_empty) {
        return Err(format!(
            "event type cannot have empty segments after cleaning: {event_type}"
        ));
    }
    Ok(subject)
}

/// A condition of a Subscription.
pub fn condition(type_: &str, ok: bool, reason: &str, message: Option<String>) -> Condition {
    Condition {
        type_: type_.to_string(),
        status: if ok {
            ConditionStatus::True
        } else {
            ConditionStatus::False
        },
        reason: Some(reason.to_string()),
        message,
        last_transition_time: Some(k8s_openapi::apimachinery::pkg::apis::meta::v1::Time(
            k8s_openapi::jiff::Timestamp::now(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn subscription(yaml: &str) -> Subscription {
        serde_yaml::from_str(yaml).expect("a Subscription")
    }

    const ORDER: &str = r#"
apiVersion: eventing.kyma-project.io/v1alpha2
kind: Subscription
metadata: {name: test, namespace: tunas-prod}
spec:
  sink: http://test.tunas-prod.svc.cluster.local
  source: myapp
  types: [order.created.v1]
"#;

    #[test]
    fn defaults_and_names_are_eventing_managers() {
        let s = subscription(ORDER);
        assert_eq!(s.spec.type_matching, "standard");
        assert_eq!(s.max_in_flight(), 10);
        let sink = s.validate().expect("valid");
        assert_eq!(
            (sink.name.as_str(), sink.namespace.as_str(), sink.path.as_str()),
            ("test", "tunas-prod", "/")
        );
        let b = s.bindings();
        assert_eq!(b[0].subject, "kyma.myapp.order.created.v1");
        // sha256("tunas-prod/test/kyma.myapp.order.created.v1")[:32], as eventing-manager names it.
        assert_eq!(b[0].consumer, "4f1d82ef535324d70bc5e10358df1428");
    }

    #[test]
    fn cleaning_and_exact_matching() {
        assert_eq!(clean_source("my.app/x y"), "myappxy");
        assert_eq!(clean_event_type("order.*created>/v1"), "order.createdv1");
        let mut s = subscription(ORDER);
        s.spec.source = "my.app".into();
        s.spec.types = vec!["order. created.v1".into(), "order. created.v1".into()];
        assert!(s.validate().is_err(), "duplicates refused");
        s.spec.types.pop();
        assert_eq!(s.bindings()[0].subject, "kyma.myapp.order.created.v1");
        assert_eq!(
            publish_subject("my.app", "order. created.v1").as_deref(),
            Ok("kyma.myapp.order.created.v1")
        );
        s.spec.type_matching = "exact".into();
        s.spec.source = String::new();
        s.spec.types = vec!["myapp.order.created.v1".into()];
        s.validate().expect("exact needs no source");
        assert_eq!(s.bindings()[0].subject, "kyma.myapp.order.created.v1");
    }

    #[test]
    fn invalid_specs_say_what_eventing_manager_says() {
        let mut s = subscription(ORDER);
        s.spec.types = vec!["order".into()];
        assert_eq!(
            s.validate().unwrap_err().to_string(),
            r#"Subscription validation failed: spec.types: Invalid value: "order": must have minimum 2 segments"#
        );
        s.spec.types = vec!["sap.kyma.custom.app.order.created.v1".into()];
        assert!(
            s.validate()
                .unwrap_err()
                .to_string()
                .contains("must not have sap.kyma.custom as type prefix")
        );
        s.spec.types = vec!["a.b".into()];
        s.spec.sink = "http://test.other.svc.cluster.local".into();
        assert!(s.validate().unwrap_err().to_string().contains(
            "metadata.namespace: Invalid value: \"tunas-prod\": must have the same namespace as the subscriber: other"
        ));
        s.spec.sink = "http://test.tunas-prod.svc".into();
        assert!(
            s.validate()
                .unwrap_err()
                .to_string()
                .contains("must have valid sink URL suffix")
        );
        s.spec.sink = "ftp://test.tunas-prod.svc.cluster.local".into();
        assert!(s.validate().unwrap_err().to_string().contains("must have URL scheme"));
        s.spec.sink = "http://test.tunas-prod.svc.cluster.local:8080/events".into();
        s.spec.type_matching = "fuzzy".into();
        s.spec.source = String::new();
        s.spec.config.insert("maxInFlightMessages".into(), "many".into());
        let all = s.validate().unwrap_err();
        assert_eq!(all.0.len(), 3, "{all}");
        assert!(all.to_string().starts_with("Subscription validation failed: ["));
        s.spec.type_matching = "standard".into();
        s.spec.source = "app".into();
        s.spec.config.insert("maxInFlightMessages".into(), "0".into());
        let sink = s.validate().expect("valid");
        assert_eq!((sink.port, sink.path.as_str()), (Some(8080), "/events"));
        assert_eq!(s.max_in_flight(), 1, "0 would mean no limit to JetStream");
    }

    #[test]
    fn publish_subjects_refuse_empty_segments() {
        assert!(publish_subject("", "order.created").is_err());
        assert!(publish_subject("app", "order..created").is_err());
        assert_eq!(
            publish_subject("x", "sap.kyma.custom.app.order.created.v1").as_deref(),
            Ok("kyma.sap.kyma.custom.app.order.created.v1")
        );
    }
}
