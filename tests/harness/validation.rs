//! What a real API server refuses, for the objects Shoal writes.
//!
//! The rules and messages are Kubernetes' own (apimachinery's
//! `util/validation`, `api/validation/objectmeta.go`, and the core, batch and
//! discovery validators), reimplemented for the fields Shoal sets: object
//! names per kind, label keys and values, annotation keys and total size,
//! owner references, finalizers, ConfigMap/Secret keys and size, Service
//! ports, EndpointSlice addresses and ports, Job and pod-template fields.
//! No maintained Rust crate carries these rules, so they live here, next to
//! the fake API that enforces them; `validation_rules_match_the_api_server`
//! in tests/reconcile.rs pins the messages to ones a real cluster gave.
//!
//! [`validate`] answers like the API server: `None`, or a 422 body whose
//! message reads `Kind.group "name" is invalid: field: Invalid value: …`.

use std::collections::BTreeSet;
use std::net::IpAddr;

use serde_json::{Value, json};

/// One field error, formatted as the API server's `field.Error`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// JSON path of the field, `metadata.labels` style.
    pub field: String,
    /// `Invalid value: "x": why`, `Required value`, `Unsupported value: …`.
    pub detail: String,
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.detail)
    }
}

#[derive(Default)]
struct Errors(Vec<FieldError>);

impl Errors {
    fn invalid(&mut self, field: impl Into<String>, value: &Value, why: impl AsRef<str>) {
        let shown = match value {
            Value::String(s) => format!("{s:?}"),
            other => other.to_string(),
        };
        self.0.push(FieldError {
            field: field.into(),
            detail: format!("Invalid value: {shown}: {}", why.as_ref()),
        });
    }
    fn required(&mut self, field: impl Into<String>) {
        self.0.push(FieldError {
            field: field.into(),
            detail: "Required value".into(),
        });
    }
    fn unsupported(&mut self, field: impl Into<String>, value: &str, supported: &[&str]) {
        let list = supported
            .iter()
            .map(|s| format!("{s:?}"))
            .collect::<Vec<_>>()
            .join(", ");
        self.0.push(FieldError {
            field: field.into(),
            detail: format!("Unsupported value: {value:?}: supported values: {list}"),
        });
    }
    fn too_many(&mut self, field: impl Into<String>, actual: usize, max: usize) {
        self.0.push(FieldError {
            field: field.into(),
            detail: format!("Too many: {actual}: must have at most {max} items"),
        });
    }
    fn duplicate(&mut self, field: impl Into<String>, value: &str) {
        self.0.push(FieldError {
            field: field.into(),
            detail: format!("Duplicate value: {value:?}"),
        });
    }
    fn too_long(&mut self, field: impl Into<String>, max: usize) {
        self.0.push(FieldError {
            field: field.into(),
            detail: format!("Too long: may not be more than {max} bytes"),
        });
    }
}

// ---- apimachinery util/validation ------------------------------------------

const QUALIFIED_NAME_ERR: &str =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_NAME_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_VALUE_ERR: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const DNS1123_LABEL_ERR: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_SUBDOMAIN_ERR: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1035_LABEL_ERR: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
/// Annotations of one object, keys and values together.
pub const TOTAL_ANNOTATION_SIZE_LIMIT: usize = 256 * 1024;
/// ConfigMap and Secret data.
pub const MAX_CONFIG_SIZE: usize = 1024 * 1024;

fn regex_error(why: &str, fmt: &str, examples: &[&str]) -> String {
    let mut message = why.to_string();
    if !examples.is_empty() {
        let shown = examples
            .iter()
            .map(|e| format!("'{e}'"))
            .collect::<Vec<_>>()
            .join(",  or ");
        message.push_str(&format!(" (e.g. {shown}, regex used for validation is '{fmt}')"));
    } else {
        message.push_str(&format!(" (regex used for validation is '{fmt}')"));
    }
    message
}

fn max_len_error(max: usize) -> String {
    format!("must be no more than {max} characters")
}

fn alnum(c: u8) -> bool {
    c.is_ascii_alphanumeric()
}

fn is_qualified_segment(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && alnum(b[0])
        && alnum(b[b.len() - 1])
        && b.iter().all(|&c| alnum(c) || c == b'-' || c == b'_' || c == b'.')
}

fn is_dns1123_label_text(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && (b[0].is_ascii_lowercase() || b[0].is_ascii_digit())
        && (b[b.len() - 1].is_ascii_lowercase() || b[b.len() - 1].is_ascii_digit())
        && b.iter()
            .all(|&c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
}

/// `IsDNS1123Label`: the messages for a value that is not one.
pub fn dns1123_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 63 {
        errs.push(max_len_error(63));
    }
    if !is_dns1123_label_text(value) {
        errs.push(regex_error(
            DNS1123_LABEL_ERR,
            DNS1123_LABEL_FMT,
            &["my-name", "123-abc"],
        ));
    }
    errs
}

/// `IsDNS1123Subdomain`.
pub fn dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 253 {
        errs.push(max_len_error(253));
    }
    if value.is_empty() || !value.split('.').all(is_dns1123_label_text) {
        errs.push(regex_error(
            DNS1123_SUBDOMAIN_ERR,
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errs
}

/// `IsDNS1035Label`.
pub fn dns1035_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 63 {
        errs.push(max_len_error(63));
    }
    let starts_alpha = value.as_bytes().first().is_some_and(|c| c.is_ascii_lowercase());
    if !starts_alpha || !is_dns1123_label_text(value) {
        errs.push(regex_error(
            DNS1035_LABEL_ERR,
            DNS1035_LABEL_FMT,
            &["my-name", "abc-123"],
        ));
    }
    errs
}

/// `IsQualifiedName`: `[prefix/]name`, as label and annotation keys are.
pub fn qualified_name(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let (prefix, name) = match value.split_once('/') {
        None => (None, value),
        Some((p, n)) if !n.contains('/') => (Some(p), n),
        Some(_) => {
            return vec![
                format!(
                    "a qualified name {}",
                    regex_error(
                        QUALIFIED_NAME_ERR,
                        QUALIFIED_NAME_FMT,
                        &["MyName", "my.name", "123-abc"]
                    )
                ) + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
            ];
        }
    };
    if let Some(prefix) = prefix {
        if prefix.is_empty() {
            errs.push("prefix part must be non-empty".to_string());
        } else {
            errs.extend(
                dns1123_subdomain(prefix)
                    .into_iter()
                    .map(|m| format!("prefix part {m}")),
            );
        }
    }
    if name.is_empty() {
        errs.push("name part must be non-empty".into());
    } else if name.len() > 63 {
        errs.push(format!("name part {}", max_len_error(63)));
    }
    if !name.is_empty() && !is_qualified_segment(name) {
        errs.push(format!(
            "name part {}",
            regex_error(
                QUALIFIED_NAME_ERR,
                QUALIFIED_NAME_FMT,
                &["MyName", "my.name", "123-abc"]
            )
        ));
    }
    errs
}

/// `IsValidLabelValue`.
pub fn label_value(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 63 {
        errs.push(max_len_error(63));
    }
    if !value.is_empty() && !is_qualified_segment(value) {
        errs.push(regex_error(
            LABEL_VALUE_ERR,
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// `IsValidPortName` (an IANA service name).
pub fn port_name(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 15 {
        errs.push(max_len_error(15));
    }
    if !value
        .bytes()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
    {
        errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".into());
    }
    if !value.bytes().any(|c| c.is_ascii_lowercase()) {
        errs.push("must contain at least one letter (a-z)".into());
    }
    if value.contains("--") {
        errs.push("must not contain consecutive hyphens".into());
    }
    if value.starts_with('-') || value.ends_with('-') {
        errs.push("must not begin or end with a hyphen".into());
    }
    errs
}

/// `IsEnvVarName`.
pub fn env_var_name(value: &str) -> Vec<String> {
    let b = value.as_bytes();
    let ok = !b.is_empty()
        && (b[0].is_ascii_alphabetic() || b[0] == b'-' || b[0] == b'_' || b[0] == b'.')
        && b.iter()
            .all(|&c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_' || c == b'.');
    if ok {
        Vec::new()
    } else {
        vec![regex_error(
            "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit",
            "[-._a-zA-Z][-._a-zA-Z0-9]*",
            &["my.env-name", "MY_ENV.NAME", "MyEnvName1"],
        )]
    }
}

/// `IsConfigMapKey` (also Secret keys).
pub fn config_map_key(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 253 {
        errs.push(max_len_error(253));
    }
    if value.is_empty()
        || !value
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_' || c == b'.')
    {
        errs.push(regex_error(
            "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
            "[-._a-zA-Z0-9]+",
            &["key.name", "KEY_NAME", "key-name"],
        ));
    }
    if value == "." {
        errs.push("must not be '.'".into());
    } else if value == ".." {
        errs.push("must not be '..'".into());
    } else if value.starts_with("..") {
        errs.push("must not start with '..'".into());
    }
    errs
}

// ---- objects ------------------------------------------------------------------

/// How an object's name is checked, per kind (apimachinery's `ValidateNameFunc`s).
fn name_rule(kind: &str) -> fn(&str) -> Vec<String> {
    match kind {
        // Services and Namespaces are DNS names themselves.
        "Service" => dns1035_label,
        "Namespace" => dns1123_label,
        _ => dns1123_subdomain,
    }
}

/// The API server's qualified kind: `Job.batch`, `ConfigMap`.
fn qualified_kind(api_version: &str, kind: &str) -> String {
    match api_version.split_once('/') {
        Some((group, _)) => format!("{kind}.{group}"),
        None => kind.to_string(),
    }
}

fn str_at<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

fn check_each(errors: &mut Errors, field: String, value: &str, rule: fn(&str) -> Vec<String>) {
    for why in rule(value) {
        errors.invalid(field.clone(), &json!(value), why);
    }
}

fn validate_labels(errors: &mut Errors, labels: &Value, field: &str) {
    let Some(map) = labels.as_object() else { return };
    for (key, value) in map {
        check_each(errors, field.to_string(), key, qualified_name);
        match value.as_str() {
            Some(v) => check_each(errors, field.to_string(), v, label_value),
            None => errors.invalid(format!("{field}[{key}]"), value, "must be a string"),
        }
    }
}

fn validate_meta(errors: &mut Errors, kind: &str, object: &Value) {
    let meta = &object["metadata"];
    match str_at(meta, "name") {
        Some(name) if !name.is_empty() => check_each(errors, "metadata.name".into(), name, name_rule(kind)),
        _ => errors.required("metadata.name"),
    }
    if let Some(namespace) = str_at(meta, "namespace") {
        check_each(errors, "metadata.namespace".into(), namespace, dns1123_label);
    }
    validate_labels(errors, &meta["labels"], "metadata.labels");
    if let Some(annotations) = meta["annotations"].as_object() {
        let mut total = 0;
        for (key, value) in annotations {
            // Annotation keys are qualified names whose prefix is lowercased.
            check_each(
                errors,
                "metadata.annotations".into(),
                &key.to_lowercase(),
                qualified_name,
            );
            total += key.len() + value.as_str().map_or(0, str::len);
        }
        if total > TOTAL_ANNOTATION_SIZE_LIMIT {
            errors.too_long("metadata.annotations", TOTAL_ANNOTATION_SIZE_LIMIT);
        }
    }
    if let Some(refs) = meta["ownerReferences"].as_array() {
        let mut controllers = 0;
        for (i, r) in refs.iter().enumerate() {
            let field = format!("metadata.ownerReferences[{i}]");
            for key in ["apiVersion", "kind", "name", "uid"] {
                if str_at(r, key).is_none_or(str::is_empty) {
                    errors.invalid(format!("{field}.{key}"), &r[key], format!("{key} must not be empty"));
                }
            }
            if r["controller"].as_bool() == Some(true) {
                controllers += 1;
            }
        }
        if controllers > 1 {
            errors.invalid(
                "metadata.ownerReferences",
                &meta["ownerReferences"],
                "Only one reference can have Controller set to true",
            );
        }
    }
    if let Some(finalizers) = meta["finalizers"].as_array() {
        for f in finalizers {
            check_each(
                errors,
                "metadata.finalizers".into(),
                f.as_str().unwrap_or(""),
                qualified_name,
            );
        }
    }
}

fn validate_data_map(errors: &mut Errors, object: &Value) {
    let mut total = 0;
    for key in ["data", "binaryData", "stringData"] {
        if let Some(map) = object[key].as_object() {
            for (k, v) in map {
                check_each(errors, format!("{key}[{k}]"), k, config_map_key);
                total += v.as_str().map_or(0, str::len);
            }
        }
    }
    if total > MAX_CONFIG_SIZE {
        errors.too_long("data", MAX_CONFIG_SIZE);
    }
}

const PROTOCOLS: &[&str] = &["SCTP", "TCP", "UDP"];

fn validate_port_number(errors: &mut Errors, field: String, value: &Value) {
    match value.as_i64() {
        Some(p) if (1..=65535).contains(&p) => {}
        _ => errors.invalid(field, value, "must be between 1 and 65535, inclusive"),
    }
}

fn validate_protocol(errors: &mut Errors, field: String, value: &Value) {
    if let Some(p) = value.as_str()
        && !PROTOCOLS.contains(&p)
    {
        errors.unsupported(field, p, PROTOCOLS);
    }
}

fn validate_app_protocol(errors: &mut Errors, field: String, value: &Value) {
    if let Some(p) = value.as_str() {
        check_each(errors, field, p, qualified_name);
    }
}

fn validate_service(errors: &mut Errors, object: &Value) {
    let spec = &object["spec"];
    let ports = spec["ports"].as_array().cloned().unwrap_or_default();
    let service_type = str_at(spec, "type").unwrap_or("ClusterIP");
    if ports.is_empty() && service_type != "ExternalName" && str_at(spec, "clusterIP") != Some("None") {
        errors.required("spec.ports");
    }
    let mut names = BTreeSet::new();
    for (i, port) in ports.iter().enumerate() {
        let field = format!("spec.ports[{i}]");
        match str_at(port, "name") {
            Some(name) if !name.is_empty() => {
                check_each(errors, format!("{field}.name"), name, dns1123_label);
                if !names.insert(name.to_string()) {
                    errors.duplicate(format!("{field}.name"), name);
                }
            }
            _ if ports.len() > 1 => errors.required(format!("{field}.name")),
            _ => {}
        }
        validate_port_number(errors, format!("{field}.port"), &port["port"]);
        validate_protocol(errors, format!("{field}.protocol"), &port["protocol"]);
        validate_app_protocol(errors, format!("{field}.appProtocol"), &port["appProtocol"]);
        match &port["targetPort"] {
            Value::Null => {}
            Value::String(name) => check_each(errors, format!("{field}.targetPort"), name, port_name),
            number => validate_port_number(errors, format!("{field}.targetPort"), number),
        }
    }
    let types = ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"];
    if !types.contains(&service_type) {
        errors.unsupported("spec.type", service_type, &types);
    }
    validate_labels(errors, &spec["selector"], "spec.selector");
}

fn validate_endpoint_slice(errors: &mut Errors, object: &Value) {
    let families = ["FQDN", "IPv4", "IPv6"];
    let address_type = str_at(object, "addressType").unwrap_or("");
    if address_type.is_empty() {
        errors.required("addressType");
    } else if !families.contains(&address_type) {
        errors.unsupported("addressType", address_type, &families);
    }
    let endpoints = object["endpoints"].as_array().cloned().unwrap_or_default();
    if endpoints.len() > 1000 {
        errors.too_many("endpoints", endpoints.len(), 1000);
    }
    for (i, endpoint) in endpoints.iter().enumerate() {
        let field = format!("endpoints[{i}]");
        let addresses = endpoint["addresses"].as_array().cloned().unwrap_or_default();
        if addresses.is_empty() {
            errors.required(format!("{field}.addresses"));
        } else if addresses.len() > 100 {
            errors.too_many(format!("{field}.addresses"), addresses.len(), 100);
        }
        for (j, address) in addresses.iter().enumerate() {
            let text = address.as_str().unwrap_or("");
            let afield = format!("{field}.addresses[{j}]");
            match (address_type, text.parse::<IpAddr>()) {
                ("IPv4", Ok(IpAddr::V4(_))) | ("IPv6", Ok(IpAddr::V6(_))) => {}
                ("IPv4", _) => errors.invalid(afield, address, "must be a valid IPv4 address"),
                ("IPv6", _) => errors.invalid(afield, address, "must be a valid IPv6 address"),
                ("FQDN", _) => check_each(errors, afield, text, dns1123_subdomain),
                _ => {}
            }
        }
        if let Some(node) = str_at(endpoint, "nodeName") {
            check_each(errors, format!("{field}.nodeName"), node, dns1123_subdomain);
        }
        if let Some(host) = str_at(endpoint, "hostname") {
            check_each(errors, format!("{field}.hostname"), host, dns1123_label);
        }
        if let Some(hints) = endpoint.get("hints")
            && !hints.is_null()
            && !hints.is_object()
        {
            errors.invalid(format!("{field}.hints"), hints, "must be an object");
        }
    }
    let ports = object["ports"].as_array().cloned().unwrap_or_default();
    if ports.len() > 100 {
        errors.too_many("ports", ports.len(), 100);
    }
    let mut names = BTreeSet::new();
    for (i, port) in ports.iter().enumerate() {
        let field = format!("ports[{i}]");
        let name = str_at(port, "name").unwrap_or("");
        if !name.is_empty() {
            check_each(errors, format!("{field}.name"), name, dns1123_label);
        }
        if !names.insert(name.to_string()) {
            errors.duplicate(format!("{field}.name"), name);
        }
        if !port["port"].is_null() {
            validate_port_number(errors, format!("{field}.port"), &port["port"]);
        }
        validate_protocol(errors, format!("{field}.protocol"), &port["protocol"]);
        validate_app_protocol(errors, format!("{field}.appProtocol"), &port["appProtocol"]);
    }
}

fn validate_quantities(errors: &mut Errors, field: &str, resources: &Value) {
    for part in ["requests", "limits"] {
        if let Some(map) = resources[part].as_object() {
            for (name, q) in map {
                if shoal_api::parse_quantity(q.as_str().unwrap_or("")).is_none() {
                    errors.invalid(format!("{field}.{part}[{name}]"), q, "must be a quantity");
                }
            }
        }
    }
    if let (Some(requests), Some(limits)) = (resources["requests"].as_object(), resources["limits"].as_object()) {
        for (name, request) in requests {
            let (Some(r), Some(l)) = (
                request.as_str().and_then(shoal_api::parse_quantity),
                limits
                    .get(name)
                    .and_then(Value::as_str)
                    .and_then(shoal_api::parse_quantity),
            ) else {
                continue;
            };
            if r > l {
                errors.invalid(
                    format!("{field}.requests"),
                    request,
                    format!(
                        "must be less than or equal to {name} limit of {}",
                        limits[name].as_str().unwrap_or("")
                    ),
                );
            }
        }
    }
}

fn validate_pod_spec(errors: &mut Errors, spec: &Value, field: &str, restart_policies: &[&str]) {
    let mut volumes = BTreeSet::new();
    for (i, volume) in spec["volumes"].as_array().into_iter().flatten().enumerate() {
        let name = str_at(volume, "name").unwrap_or("");
        check_each(errors, format!("{field}.volumes[{i}].name"), name, dns1123_label);
        if !volumes.insert(name.to_string()) {
            errors.duplicate(format!("{field}.volumes[{i}].name"), name);
        }
        if let Some(items) = volume["configMap"]["items"].as_array() {
            for (j, item) in items.iter().enumerate() {
                let path = str_at(item, "path").unwrap_or("");
                if path.is_empty() || path.starts_with('/') || path.split('/').any(|s| s == "..") {
                    errors.invalid(
                        format!("{field}.volumes[{i}].configMap.items[{j}].path"),
                        &item["path"],
                        "must be a relative path without '..'",
                    );
                }
            }
        }
    }
    let containers = spec["containers"].as_array().cloned().unwrap_or_default();
    if containers.is_empty() {
        errors.required(format!("{field}.containers"));
    }
    let mut names = BTreeSet::new();
    for (i, container) in containers.iter().enumerate() {
        let cfield = format!("{field}.containers[{i}]");
        let name = str_at(container, "name").unwrap_or("");
        if name.is_empty() {
            errors.required(format!("{cfield}.name"));
        } else {
            check_each(errors, format!("{cfield}.name"), name, dns1123_label);
            if !names.insert(name.to_string()) {
                errors.duplicate(format!("{cfield}.name"), name);
            }
        }
        if str_at(container, "image").is_none_or(|i| i.trim().is_empty()) {
            errors.required(format!("{cfield}.image"));
        }
        for (j, env) in container["env"].as_array().into_iter().flatten().enumerate() {
            check_each(
                errors,
                format!("{cfield}.env[{j}].name"),
                str_at(env, "name").unwrap_or(""),
                env_var_name,
            );
        }
        for (j, mount) in container["volumeMounts"].as_array().into_iter().flatten().enumerate() {
            let mname = str_at(mount, "name").unwrap_or("");
            if !volumes.contains(mname) {
                errors.0.push(FieldError {
                    field: format!("{cfield}.volumeMounts[{j}].name"),
                    detail: format!("Not found: {mname:?}"),
                });
            }
            if str_at(mount, "mountPath").is_none_or(str::is_empty) {
                errors.required(format!("{cfield}.volumeMounts[{j}].mountPath"));
            }
        }
        for (j, port) in container["ports"].as_array().into_iter().flatten().enumerate() {
            validate_port_number(
                errors,
                format!("{cfield}.ports[{j}].containerPort"),
                &port["containerPort"],
            );
            if let Some(n) = str_at(port, "name") {
                check_each(errors, format!("{cfield}.ports[{j}].name"), n, port_name);
            }
        }
        validate_quantities(errors, &format!("{cfield}.resources"), &container["resources"]);
        if let Some(policy) = str_at(container, "terminationMessagePolicy") {
            let policies = ["FallbackToLogsOnError", "File"];
            if !policies.contains(&policy) {
                errors.unsupported(format!("{cfield}.terminationMessagePolicy"), policy, &policies);
            }
        }
        if let Some(policy) = str_at(container, "imagePullPolicy") {
            let policies = ["Always", "IfNotPresent", "Never"];
            if !policies.contains(&policy) {
                errors.unsupported(format!("{cfield}.imagePullPolicy"), policy, &policies);
            }
        }
    }
    if let Some(policy) = str_at(spec, "restartPolicy")
        && !restart_policies.contains(&policy)
    {
        errors.unsupported(format!("{field}.restartPolicy"), policy, restart_policies);
    }
    if let Some(sa) = str_at(spec, "serviceAccountName") {
        check_each(errors, format!("{field}.serviceAccountName"), sa, dns1123_subdomain);
    }
}

fn validate_job(errors: &mut Errors, object: &Value) {
    let name = str_at(&object["metadata"], "name").unwrap_or("");
    // The Job controller labels its pods `job-name=<name>`, so the API server
    // refuses Job names that are not label values.
    if name.len() > 63 {
        errors.invalid("metadata.name", &json!(name), max_len_error(63));
    }
    let spec = &object["spec"];
    for (key, min) in [
        ("backoffLimit", 0),
        ("activeDeadlineSeconds", 1),
        ("ttlSecondsAfterFinished", 0),
    ] {
        if let Some(v) = spec[key].as_i64()
            && v < min
        {
            let why = if min == 0 {
                "must be greater than or equal to 0"
            } else {
                "must be greater than 0"
            };
            errors.invalid(format!("spec.{key}"), &spec[key], why);
        }
    }
    let template = &spec["template"];
    if template.is_null() {
        errors.required("spec.template");
        return;
    }
    validate_labels(errors, &template["metadata"]["labels"], "spec.template.metadata.labels");
    let restart = str_at(&template["spec"], "restartPolicy").unwrap_or("");
    if restart.is_empty() {
        errors.required("spec.template.spec.restartPolicy");
    }
    validate_pod_spec(errors, &template["spec"], "spec.template.spec", &["Never", "OnFailure"]);
    if let Some(rules) = spec["podFailurePolicy"]["rules"].as_array() {
        let actions = ["Count", "FailIndex", "FailJob", "Ignore"];
        if restart != "Never" {
            errors.invalid(
                "spec.template.spec.restartPolicy",
                &json!(restart),
                "only \"Never\" is supported when podFailurePolicy is specified",
            );
        }
        for (i, rule) in rules.iter().enumerate() {
            let action = str_at(rule, "action").unwrap_or("");
            if !actions.contains(&action) {
                errors.unsupported(format!("spec.podFailurePolicy.rules[{i}].action"), action, &actions);
            }
        }
    }
}

fn validate_lease(errors: &mut Errors, object: &Value) {
    let spec = &object["spec"];
    if let Some(d) = spec["leaseDurationSeconds"].as_i64()
        && d <= 0
    {
        errors.invalid(
            "spec.leaseDurationSeconds",
            &spec["leaseDurationSeconds"],
            "must be greater than 0",
        );
    }
}

/// events.k8s.io/v1 Events (the API server's `ValidateEventCreate`): the
/// fields a v1 Event must have, their lengths, the type, and a series'.
fn validate_event(errors: &mut Errors, object: &Value) {
    for field in [
        "eventTime",
        "reportingController",
        "reportingInstance",
        "action",
        "reason",
    ] {
        match object[field].as_str() {
            None | Some("") => errors.required(field),
            Some(v) if field != "eventTime" && v.len() > 128 => errors.too_long(field, 128),
            Some(_) => {}
        }
    }
    if let Some(kind) = object["type"].as_str()
        && !["Normal", "Warning"].contains(&kind)
    {
        errors.unsupported("type", kind, &["Normal", "Warning"]);
    }
    if object["note"].as_str().is_some_and(|n| n.len() > 1024) {
        errors.too_long("note", 1024);
    }
    let series = &object["series"];
    if !series.is_null() {
        if series["count"].as_i64().is_none_or(|c| c < 2) {
            errors.invalid("series.count", &series["count"], "should be at least 2");
        }
        if series["lastObservedTime"].is_null() {
            errors.required("series.lastObservedTime");
        }
    }
}

/// A `kubernetes.io/tls` Secret holds `tls.crt` and `tls.key`.
fn validate_tls_secret(errors: &mut Errors, object: &Value) {
    if object["type"].as_str() != Some("kubernetes.io/tls") {
        return;
    }
    for key in ["tls.crt", "tls.key"] {
        let present = ["data", "stringData"].iter().any(|d| !object[*d][key].is_null());
        if !present {
            errors.required(format!("data[{key}]"));
        }
    }
}

/// Validates an object as the API server would on create or update; the
/// 422 body to answer with, or `None` when it is accepted.
pub fn validate(object: &Value) -> Option<Value> {
    let kind = str_at(object, "kind").unwrap_or("");
    let api_version = str_at(object, "apiVersion").unwrap_or("");
    let mut errors = Errors::default();
    validate_meta(&mut errors, kind, object);
    match kind {
        "ConfigMap" => validate_data_map(&mut errors, object),
        "Secret" => {
            validate_data_map(&mut errors, object);
            validate_tls_secret(&mut errors, object);
        }
        "Event" if api_version == "events.k8s.io/v1" => validate_event(&mut errors, object),
        "Service" => validate_service(&mut errors, object),
        "EndpointSlice" => validate_endpoint_slice(&mut errors, object),
        "Job" => validate_job(&mut errors, object),
        "Lease" => validate_lease(&mut errors, object),
        _ => {}
    }
    if errors.0.is_empty() {
        return None;
    }
    let name = str_at(&object["metadata"], "name").unwrap_or("");
    let listed: Vec<String> = errors.0.iter().map(ToString::to_string).collect();
    let joined = if listed.len() == 1 {
        listed[0].clone()
    } else {
        format!("[{}]", listed.join(", "))
    };
    let message = format!("{} {name:?} is invalid: {joined}", qualified_kind(api_version, kind));
    let causes: Vec<Value> = errors
        .0
        .iter()
        .map(|e| json!({"reason": "FieldValueInvalid", "message": e.detail, "field": e.field}))
        .collect();
    Some(json!({
        "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
        "message": message, "reason": "Invalid",
        "details": {"name": name, "kind": kind, "causes": causes},
        "code": 422
    }))
}
