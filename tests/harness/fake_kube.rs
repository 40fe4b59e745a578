//! An in-memory Kubernetes API behind kube's tower-test mock service.
//!
//! It answers the calls the controller and the node sync make — get, list
//! with label selectors, create, server-side apply (as a JSON merge),
//! JSON/merge patches, the status subresource, delete with finalizers and
//! owner-reference cascade — from a map of objects, and records every call so
//! tests can assert what was (and was not) done. Watches are not served:
//! tests drive reconciles directly.
//!
//! Every object written (through the API or [`FakeKube::put`]) is validated
//! as the API server would ([`crate::validation`]): what a real cluster
//! refuses with 422, this refuses with the same message.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use http::{Method, Request, Response, StatusCode};
use kube::client::Body;
use serde_json::{Value, json};

/// One API call, as recorded.
#[derive(Debug, Clone)]
pub struct Call {
    /// HTTP method.
    pub method: Method,
    /// Path without the query.
    pub path: String,
    /// The query string.
    pub query: String,
}

#[derive(Default)]
struct State {
    objects: BTreeMap<String, Value>,
    calls: Vec<Call>,
    version: u64,
    /// Writes to paths starting with the key fail with this (code, message)
    /// until [`FakeKube::heal`]: an outage, a denying webhook, a quota.
    refusals: BTreeMap<String, (u16, String)>,
    /// Paths of objects that named an owner, by the owner's uid (checked
    /// again when cascading), so a delete need not scan every object.
    owned: std::collections::HashMap<String, std::collections::BTreeSet<String>>,
}

impl State {
    /// Stores an object at `path`, indexing its owners.
    fn store(&mut self, path: String, object: Value) {
        for owner in object["metadata"]["ownerReferences"].as_array().into_iter().flatten() {
            if let Some(uid) = owner["uid"].as_str() {
                self.owned.entry(uid.to_string()).or_default().insert(path.clone());
            }
        }
        self.objects.insert(path, object);
    }
}

/// The fake API server.
#[derive(Default)]
pub struct FakeKube {
    state: Mutex<State>,
}

/// The REST path of an object from its apiVersion, kind, namespace and name.
pub fn object_path(api_version: &str, kind: &str, namespace: Option<&str>, name: &str) -> String {
    let plural = match kind {
        "Function" => "functions",
        "Subscription" => "subscriptions",
        "ConfigMap" => "configmaps",
        "Secret" => "secrets",
        "Pod" => "pods",
        "Service" => "services",
        "Job" => "jobs",
        "EndpointSlice" => "endpointslices",
        "Namespace" => "namespaces",
        "Lease" => "leases",
        "Role" => "roles",
        "RoleBinding" => "rolebindings",
        "Event" => "events",
        "MutatingWebhookConfiguration" => "mutatingwebhookconfigurations",
        "ValidatingWebhookConfiguration" => "validatingwebhookconfigurations",
        other => panic!("fake API: no plural known for {other}"),
    };
    let root = if api_version == "v1" {
        "/api/v1".to_string()
    } else {
        format!("/apis/{api_version}")
    };
    match namespace {
        Some(ns) => format!("{root}/namespaces/{ns}/{plural}/{name}"),
        None => format!("{root}/{plural}/{name}"),
    }
}

fn status(code: u16, reason: &str, message: &str) -> (u16, Value) {
    (
        code,
        json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
               "message": message, "reason": reason, "code": code}),
    )
}

/// RFC 7396 merge, as server-side apply of a whole object by one manager
/// behaves for the objects Shoal applies.
fn merge(target: &mut Value, patch: &Value) {
    match (target, patch) {
        (Value::Object(t), Value::Object(p)) => {
            for (k, v) in p {
                if v.is_null() {
                    t.remove(k);
                } else {
                    merge(t.entry(k.clone()).or_insert(Value::Null), v);
                }
            }
        }
        (t, p) => *t = p.clone(),
    }
}

fn labels_match(object: &Value, selector: &str) -> bool {
    selector.split(',').filter(|s| !s.is_empty()).all(|term| {
        let (k, v) = term.split_once('=').unwrap_or((term, ""));
        object["metadata"]["labels"][k].as_str() == Some(v)
    })
}

fn query_param(query: &str, key: &str) -> Option<String> {
    query.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=')?;
        (k == key).then(|| percent_decode(v))
    })
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Ok(b) = u8::from_str_radix(&s[i + 1..i + 3], 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(if bytes[i] == b'+' { b' ' } else { bytes[i] });
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

impl FakeKube {
    /// An empty API server.
    pub fn new() -> Arc<Self> {
        Arc::new(Self::default())
    }

    /// A kube client whose every request this fake answers.
    pub fn client(self: &Arc<Self>) -> kube::Client {
        let (service, mut handle) = tower_test::mock::pair::<Request<Body>, Response<Body>>();
        let fake = self.clone();
        tokio::spawn(async move {
            while let Some((request, respond)) = handle.next_request().await {
                let (parts, body) = request.into_parts();
                let bytes = body.collect_bytes().await.unwrap_or_default();
                let (code, value) = fake.handle(&parts.method, &parts.uri, &parts.headers, &bytes);
                let response = Response::builder()
                    .status(StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR))
                    .header("content-type", "application/json")
                    .body(Body::from(serde_json::to_vec(&value).unwrap_or_default()))
                    .expect("response");
                respond.send_response(response);
            }
        });
        kube::Client::new(service, "default")
    }

    /// Makes every write (create, patch, delete) to a path starting with
    /// `prefix` fail with `code` and `message` until [`Self::heal`].
    pub fn refuse_writes(&self, prefix: &str, code: u16, message: &str) {
        self.state
            .lock()
            .unwrap()
            .refusals
            .insert(prefix.to_string(), (code, message.to_string()));
    }

    /// Ends every [`Self::refuse_writes`].
    pub fn heal(&self) {
        self.state.lock().unwrap().refusals.clear();
    }

    /// Stores an object as given (like `kubectl apply` of a whole object),
    /// filling uid, resourceVersion, creationTimestamp and generation.
    /// Panics when the API server would refuse it: test data must be valid.
    pub fn put(&self, object: impl serde::Serialize) -> Value {
        let mut object = serde_json::to_value(object).expect("serializable object");
        if let Some(refused) = crate::validation::validate(&object) {
            panic!(
                "fake API: a real API server refuses this object: {}",
                refused["message"]
            );
        }
        let path = Self::path_of(&object);
        let mut state = self.state.lock().unwrap();
        state.version += 1;
        let version = state.version;
        let previous = state.objects.get(&path).cloned();
        let generation = match &previous {
            Some(p) if p["spec"] != object["spec"] => p["metadata"]["generation"].as_i64().unwrap_or(1) + 1,
            Some(p) => p["metadata"]["generation"].as_i64().unwrap_or(1),
            None => 1,
        };
        let meta = &mut object["metadata"];
        if meta["uid"].is_null() {
            meta["uid"] = previous
                .as_ref()
                .map(|p| p["metadata"]["uid"].clone())
                .unwrap_or_else(|| json!(format!("uid-{version}")));
        }
        meta["resourceVersion"] = json!(version.to_string());
        meta["generation"] = json!(generation);
        if meta["creationTimestamp"].is_null() {
            meta["creationTimestamp"] = json!("2026-11-21T10:00:00Z");
        }
        if let Some(p) = previous {
            if object.get("status").is_none() && p.get("status").is_some() {
                object["status"] = p["status"].clone();
            }
            if object["metadata"]["finalizers"].is_null() && !p["metadata"]["finalizers"].is_null() {
                object["metadata"]["finalizers"] = p["metadata"]["finalizers"].clone();
            }
        }
        state.store(path, object.clone());
        object
    }

    /// The object at a REST path.
    pub fn get(&self, path: &str) -> Option<Value> {
        self.state.lock().unwrap().objects.get(path).cloned()
    }

    /// Reads an object as a typed resource.
    pub fn get_as<K: serde::de::DeserializeOwned>(&self, path: &str) -> Option<K> {
        self.get(path).map(|v| serde_json::from_value(v).expect("typed object"))
    }

    /// The Function `name` in `namespace`, as stored.
    pub fn function(&self, namespace: &str, name: &str) -> Option<shoal_api::Function> {
        self.get_as(&object_path(
            "serverless.kyma-project.io/v1alpha2",
            "Function",
            Some(namespace),
            name,
        ))
    }

    /// Objects whose path starts with `prefix` (a collection path).
    pub fn list(&self, prefix: &str) -> Vec<Value> {
        let prefix = format!("{}/", prefix.trim_end_matches('/'));
        self.state
            .lock()
            .unwrap()
            .objects
            .iter()
            .filter(|(p, _)| p.starts_with(&prefix) && !p[prefix.len()..].contains('/'))
            .map(|(_, v)| v.clone())
            .collect()
    }

    /// Every object stored, with its path.
    pub fn all(&self) -> Vec<(String, Value)> {
        let state = self.state.lock().unwrap();
        state.objects.iter().map(|(p, v)| (p.clone(), v.clone())).collect()
    }

    /// Changes an object in place (a test playing the Job controller or
    /// the kubelet).
    pub fn update(&self, path: &str, change: impl FnOnce(&mut Value)) {
        let mut state = self.state.lock().unwrap();
        let object = state
            .objects
            .get_mut(path)
            .unwrap_or_else(|| panic!("no object at {path}"));
        change(object);
    }

    /// Every call so far.
    pub fn calls(&self) -> Vec<Call> {
        self.state.lock().unwrap().calls.clone()
    }

    /// How many calls used `method` on a path starting with `prefix`.
    pub fn count(&self, method: Method, prefix: &str) -> usize {
        self.calls()
            .iter()
            .filter(|c| c.method == method && c.path.starts_with(prefix))
            .count()
    }

    fn path_of(object: &Value) -> String {
        object_path(
            object["apiVersion"].as_str().expect("apiVersion"),
            object["kind"].as_str().expect("kind"),
            object["metadata"]["namespace"].as_str(),
            object["metadata"]["name"].as_str().expect("metadata.name"),
        )
    }

    fn handle(&self, method: &Method, uri: &http::Uri, headers: &http::HeaderMap, body: &[u8]) -> (u16, Value) {
        let path = uri.path().to_string();
        let query = uri.query().unwrap_or("").to_string();
        let mut state = self.state.lock().unwrap();
        state.calls.push(Call {
            method: method.clone(),
            path: path.clone(),
            query: query.clone(),
        });
        state.version += 1;
        let version = state.version;
        let body: Value = if body.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(body).unwrap_or(Value::Null)
        };
        let (object_path, subresource) = match path.strip_suffix("/status") {
            Some(p) if state.objects.contains_key(p) => (p.to_string(), Some("status")),
            _ => (path.clone(), None),
        };
        let content_type = headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        if *method != Method::GET
            && let Some((code, message)) = state
                .refusals
                .iter()
                .find(|(prefix, _)| path.starts_with(prefix.as_str()))
                .map(|(_, refusal)| refusal.clone())
        {
            let reason = match code {
                403 => "Forbidden",
                409 => "Conflict",
                422 => "Invalid",
                429 => "TooManyRequests",
                _ => "InternalError",
            };
            return status(code, reason, &message);
        }

        match *method {
            Method::GET if state.objects.contains_key(&object_path) => (200, state.objects[&object_path].clone()),
            Method::GET => {
                // A collection: either namespaced or across namespaces.
                let selector = query_param(&query, "labelSelector").unwrap_or_default();
                let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
                let plural = segments.last().copied().unwrap_or("");
                let looks_like_collection = matches!(
                    plural,
                    "functions"
                        | "configmaps"
                        | "secrets"
                        | "pods"
                        | "services"
                        | "jobs"
                        | "endpointslices"
                        | "leases"
                        | "events"
                );
                if !looks_like_collection {
                    return status(404, "NotFound", &format!("{path} not found"));
                }
                let all_namespaces = !segments.contains(&"namespaces");
                // A namespaced list reads only its own range of paths.
                let prefix = format!("{path}/");
                let scope: Box<dyn Iterator<Item = (&String, &Value)>> = if all_namespaces {
                    Box::new(state.objects.iter())
                } else {
                    Box::new(
                        state
                            .objects
                            .range(prefix.clone()..)
                            .take_while(|(p, _)| p.starts_with(&prefix)),
                    )
                };
                let items: Vec<Value> = scope
                    .filter(|(p, v)| {
                        let p_segments: Vec<&str> = p.trim_matches('/').split('/').collect();
                        let same_kind = p_segments.len() >= 2 && p_segments[p_segments.len() - 2] == plural;
                        let in_scope = !all_namespaces || p_segments.first() == segments.first();
                        same_kind && in_scope && labels_match(v, &selector)
                    })
                    .map(|(_, v)| v.clone())
                    .collect();
                (
                    200,
                    json!({"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": version.to_string()}, "items": items}),
                )
            }
            Method::POST => {
                let mut object = body;
                let name = object["metadata"]["name"].as_str().unwrap_or("").to_string();
                let target = format!("{path}/{name}");
                if state.objects.contains_key(&target) {
                    return status(409, "AlreadyExists", &format!("{name} already exists"));
                }
                if let Some(refused) = crate::validation::validate(&object) {
                    return (422, refused);
                }
                object["metadata"]["uid"] = json!(format!("uid-{version}"));
                object["metadata"]["resourceVersion"] = json!(version.to_string());
                object["metadata"]["generation"] = json!(1);
                object["metadata"]["creationTimestamp"] = json!("2026-11-21T10:00:00Z");
                state.store(target, object.clone());
                (201, object)
            }
            Method::PUT => {
                // Replace, with optimistic concurrency: a stale
                // resourceVersion is refused as the API server does.
                let Some(existing) = state.objects.get(&object_path).cloned() else {
                    return status(404, "NotFound", &format!("{object_path} not found"));
                };
                let mut object = body;
                let sent = object["metadata"]["resourceVersion"].as_str().unwrap_or("").to_string();
                let current = existing["metadata"]["resourceVersion"]
                    .as_str()
                    .unwrap_or("")
                    .to_string();
                if !sent.is_empty() && sent != current {
                    let name = existing["metadata"]["name"].as_str().unwrap_or("");
                    return status(
                        409,
                        "Conflict",
                        &format!(
                            "Operation cannot be fulfilled on {name}: the object has been modified; please apply your changes to the latest version and try again"
                        ),
                    );
                }
                if let Some(refused) = crate::validation::validate(&object) {
                    return (422, refused);
                }
                for kept in ["uid", "creationTimestamp", "generation"] {
                    object["metadata"][kept] = existing["metadata"][kept].clone();
                }
                object["metadata"]["resourceVersion"] = json!(version.to_string());
                state.store(object_path, object.clone());
                (200, object)
            }
            Method::PATCH => {
                let existing = state.objects.get(&object_path).cloned();
                let mut object = match (&existing, content_type.as_str()) {
                    (Some(o), _) => o.clone(),
                    (None, ct) if ct.starts_with("application/apply-patch") && subresource.is_none() => json!({}),
                    (None, _) => return status(404, "NotFound", &format!("{object_path} not found")),
                };
                if content_type.starts_with("application/json-patch") {
                    let patch: json_patch::Patch = match serde_json::from_value(body) {
                        Ok(p) => p,
                        Err(e) => return status(400, "BadRequest", &e.to_string()),
                    };
                    // Like the API server, a `test` of an absent field sees null.
                    if object["metadata"].get("finalizers").is_none() {
                        object["metadata"]["finalizers"] = Value::Null;
                    }
                    if let Err(e) = json_patch::patch(&mut object, &patch) {
                        return status(422, "Invalid", &e.to_string());
                    }
                    if object["metadata"]["finalizers"].is_null()
                        && let Some(meta) = object["metadata"].as_object_mut()
                    {
                        meta.remove("finalizers");
                    }
                } else if subresource == Some("status") {
                    let mut new_status = body["status"].clone();
                    if content_type.starts_with("application/apply-patch") {
                        // Apply owns the whole status it sends.
                        object["status"] = Value::Null;
                        merge(&mut object, &json!({"status": new_status.take()}));
                    } else {
                        merge(&mut object, &json!({"status": new_status}));
                    }
                } else {
                    let mut patch = body;
                    if let Some(p) = patch.as_object_mut() {
                        p.remove("status");
                    }
                    merge(&mut object, &patch);
                }
                if let Some(refused) = crate::validation::validate(&object) {
                    return (422, refused);
                }
                if existing.is_none() {
                    object["metadata"]["uid"] = json!(format!("uid-{version}"));
                    object["metadata"]["creationTimestamp"] = json!("2026-11-21T10:00:00Z");
                    object["metadata"]["generation"] = json!(1);
                }
                object["metadata"]["resourceVersion"] = json!(version.to_string());
                let deleting = !object["metadata"]["deletionTimestamp"].is_null();
                let no_finalizers = object["metadata"]["finalizers"].as_array().is_none_or(|f| f.is_empty());
                if deleting && no_finalizers {
                    Self::remove_cascading(&mut state, &object_path);
                } else {
                    state.store(object_path, object.clone());
                }
                (200, object)
            }
            Method::DELETE => {
                let Some(object) = state.objects.get(&object_path).cloned() else {
                    return status(404, "NotFound", &format!("{object_path} not found"));
                };
                let has_finalizers = object["metadata"]["finalizers"]
                    .as_array()
                    .is_some_and(|f| !f.is_empty());
                if has_finalizers {
                    let mut object = object;
                    object["metadata"]["deletionTimestamp"] = json!("2026-11-21T11:00:00Z");
                    state.store(object_path, object.clone());
                    (200, object)
                } else {
                    Self::remove_cascading(&mut state, &object_path);
                    (
                        200,
                        json!({"kind": "Status", "apiVersion": "v1", "status": "Success", "metadata": {}}),
                    )
                }
            }
            _ => status(405, "MethodNotAllowed", &format!("{method} {path}")),
        }
    }

    /// Removes an object and, like the garbage collector, what it owns.
    fn remove_cascading(state: &mut State, path: &str) {
        let Some(removed) = state.objects.remove(path) else {
            return;
        };
        let Some(uid) = removed["metadata"]["uid"].as_str().map(str::to_string) else {
            return;
        };
        let candidates = state.owned.remove(&uid).unwrap_or_default();
        for p in candidates {
            let still_owned = state.objects.get(&p).is_some_and(|v| {
                v["metadata"]["ownerReferences"]
                    .as_array()
                    .is_some_and(|refs| refs.iter().any(|r| r["uid"].as_str() == Some(uid.as_str())))
            });
            if still_owned {
                Self::remove_cascading(state, &p);
            }
        }
    }
}
