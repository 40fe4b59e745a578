//! What every reconcile shares: the API client, the configuration, the
//! watched objects (node pods and their status, and the objects made for
//! Functions), the build slots and the serving ports.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use k8s_openapi::NamespaceResourceScope;
use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::api::core::v1::{ConfigMap, Service};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use k8s_openapi::api::rbac::v1::{Role, RoleBinding};
use kube::api::{Api, Patch, PatchParams};
use kube::runtime::events::{Recorder, Reporter};
use kube::runtime::reflector::{self, ObjectRef, Store, store::Writer};
use kube::{Client, Resource, ResourceExt};
use serde_json::Value;
use shoal_api::{ConditionStatus, Function, cluster};

use super::builders::Builders;
use super::{ControllerConfig, NodeView};
use crate::git::GitPoller;
use crate::ports::{FunctionKey, PortAllocator, PortsExhausted};

/// The objects the controller makes for Functions, as their watches last
/// saw them: a pass reads them here, never from the API server, and writes
/// only what differs.
#[derive(Clone)]
pub struct Children {
    /// Build Jobs.
    pub jobs: Store<Job>,
    /// The ConfigMaps holding Functions' sources for their builds.
    pub sources: Store<ConfigMap>,
    /// Each Function's Service.
    pub services: Store<Service>,
    /// Each Function's EndpointSlice (the node pods serving it).
    pub slices: Store<EndpointSlice>,
    /// The node pods' read access to what a Function references.
    pub roles: Store<Role>,
    /// The bindings of those Roles to the node pods' ServiceAccount.
    pub bindings: Store<RoleBinding>,
}

/// The writing ends of [`Children`], fed by the watches (or by a test's
/// stand-in for them).
pub struct ChildWriters {
    /// Build Jobs.
    pub jobs: Writer<Job>,
    /// Source ConfigMaps.
    pub sources: Writer<ConfigMap>,
    /// Services.
    pub services: Writer<Service>,
    /// EndpointSlices.
    pub slices: Writer<EndpointSlice>,
    /// Roles.
    pub roles: Writer<Role>,
    /// RoleBindings.
    pub bindings: Writer<RoleBinding>,
}

impl Children {
    /// Empty stores and their writers.
    pub fn new() -> (Self, ChildWriters) {
        let (jobs, jobs_writer) = reflector::store();
        let (sources, sources_writer) = reflector::store();
        let (services, services_writer) = reflector::store();
        let (slices, slices_writer) = reflector::store();
        let (roles, roles_writer) = reflector::store();
        let (bindings, bindings_writer) = reflector::store();
        (
            Self {
                jobs,
                sources,
                services,
                slices,
                roles,
                bindings,
            },
            ChildWriters {
                jobs: jobs_writer,
                sources: sources_writer,
                services: services_writer,
                slices: slices_writer,
                roles: roles_writer,
                bindings: bindings_writer,
            },
        )
    }

    /// The build Jobs of Function `name` in `namespace`.
    pub(crate) fn build_jobs(&self, namespace: &str, name: &str) -> Vec<Arc<Job>> {
        self.jobs
            .state()
            .into_iter()
            .filter(|job| {
                job.namespace().as_deref() == Some(namespace)
                    && job.labels().get(cluster::FUNCTION_LABEL).map(String::as_str) == Some(name)
            })
            .collect()
    }
}

/// Shared state of all reconciles.
pub struct Context {
    /// The API client.
    pub client: Client,
    /// Configuration.
    pub config: ControllerConfig,
    /// Node pods and what they serve.
    pub nodes: NodeView,
    /// The objects made for Functions, as watched.
    pub children: Children,
    /// Build Jobs running now, counted against the cap.
    build_slots: Mutex<BuildSlots>,
    /// Records Kubernetes Events on Functions.
    pub(crate) recorder: Recorder,
    /// Git references, polled.
    pub git: GitPoller,
    /// Serving ports by Function.
    ports: Mutex<Ports>,
    /// All Functions (the controller's watch cache), from which the port
    /// allocator learns the ports already recorded before it hands any out.
    functions: Option<Store<Function>>,
    /// The build service, when builds go there.
    pub(crate) builders: Option<Arc<Builders>>,
}

struct Ports {
    allocator: PortAllocator,
    seeded: bool,
}

/// The build Jobs counted against `max_concurrent_builds`: those the Job
/// watch shows unfinished, and those created since that it may not show
/// yet, by Function (a Function has one build at a time).
#[derive(Default)]
struct BuildSlots {
    created: HashMap<FunctionKey, (String, Instant)>,
}

/// A lock whose holder cannot leave its data half-written; a poisoned one
/// is taken as it is.
pub(super) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Server-side apply as the controller's field manager, taking over fields
/// others set.
pub(crate) fn apply_params() -> PatchParams {
    PatchParams::apply(cluster::CONTROLLER_MANAGER).force()
}

/// Whether a Job has finished, for good or ill.
pub(crate) fn job_finished(job: &Job, type_: &str) -> bool {
    job.status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .into_iter()
        .flatten()
        .any(|c| c.type_ == type_ && ConditionStatus::parse(&c.status) == ConditionStatus::True)
}

impl Context {
    /// A context for reconciles reading the objects it makes from
    /// `children`.
    pub fn new(client: Client, config: ControllerConfig, nodes: NodeView, children: Children) -> Self {
        let reporter = Reporter {
            controller: cluster::CONTROLLER_MANAGER.into(),
            // The pod's name where the downward API gives it.
            instance: std::env::var("POD_NAME")
                .or_else(|_| std::env::var("HOSTNAME"))
                .ok()
                .or_else(|| Some(cluster::CONTROLLER_MANAGER.into())),
        };
        Self {
            recorder: Recorder::new(client.clone(), reporter),
            git: GitPoller::new(config.git_poll_interval),
            client,
            ports: Mutex::new(Ports {
                allocator: PortAllocator::new(config.serving_ports.clone()),
                seeded: false,
            }),
            config,
            nodes,
            children,
            build_slots: Mutex::new(BuildSlots::default()),
            functions: None,
            builders: None,
        }
    }

    /// The same context, sending builds the build service can take to
    /// `builders`.
    pub fn with_builders(mut self, builders: Arc<Builders>) -> Self {
        self.builders = Some(builders);
        self
    }

    /// The same context, reading the Functions' recorded ports from `store`
    /// before giving out new ones.
    pub fn with_functions(mut self, store: Store<Function>) -> Self {
        self.functions = Some(store);
        self
    }

    /// Writes `desired` (server-side apply) unless its watched copy already
    /// holds every field it sets; true when it wrote.
    ///
    /// # Errors
    ///
    /// The API server refused the write.
    pub(crate) async fn ensure<K>(&self, watched: &Store<K>, desired: &K) -> Result<bool, kube::Error>
    where
        K: Resource<Scope = NamespaceResourceScope, DynamicType = ()>
            + Clone
            + serde::Serialize
            + serde::de::DeserializeOwned
            + std::fmt::Debug,
    {
        let name = desired.name_any();
        let namespace = desired.namespace().unwrap_or_default();
        let live = watched.get(&ObjectRef::new(&name).within(&namespace));
        if let Some(live) = live
            && let (Ok(live), Ok(desired)) = (serde_json::to_value(live.as_ref()), serde_json::to_value(desired))
            && holds(&live, &desired)
        {
            return Ok(false);
        }
        let api: Api<K> = Api::namespaced(self.client.clone(), &namespace);
        api.patch(&name, &apply_params(), &Patch::Apply(desired)).await?;
        Ok(true)
    }

    /// Takes a build slot for `function`'s Job `job` if one is free;
    /// otherwise says how many builds run.
    pub(crate) async fn take_build_slot(&self, function: &FunctionKey, job: &str) -> Result<(), usize> {
        // Jobs running before a restart hold their slots too.
        let _ = self.children.jobs.wait_until_ready().await;
        let watched = self.children.jobs.state();
        let mut slots = lock(&self.build_slots);
        // The Function's earlier Job, if the watch never showed it, is gone
        // or replaced: this one is its build now.
        slots.created.remove(function);
        // A Job the watch shows is counted from there. One it has not shown
        // within a build's deadline was deleted before it could: it holds
        // no slot.
        let forgotten_after = self.config.build_deadline.saturating_add(Duration::from_secs(60));
        slots.created.retain(|key, (name, at)| {
            at.elapsed() < forgotten_after
                && !watched
                    .iter()
                    .any(|j| j.namespace().as_deref() == Some(key.namespace.as_str()) && &j.name_any() == name)
        });
        let running = watched
            .iter()
            .filter(|j| {
                j.metadata.deletion_timestamp.is_none() && !job_finished(j, "Complete") && !job_finished(j, "Failed")
            })
            .count()
            .saturating_add(slots.created.len());
        if running >= self.config.max_concurrent_builds {
            return Err(running);
        }
        slots
            .created
            .insert(function.clone(), (job.to_string(), Instant::now()));
        Ok(())
    }

    /// Stops counting `function`'s Job here: the watch shows it (and counts
    /// it while it runs), it was not created after all, or the Function is
    /// gone.
    pub(crate) fn release_build_slot(&self, function: &FunctionKey) {
        lock(&self.build_slots).created.remove(function);
    }

    /// The Function's serving port.
    pub(crate) async fn serving_port(&self, function: &Function) -> Result<u16, PortsExhausted> {
        if let Some(store) = &self.functions {
            // Ports recorded by Functions not reconciled yet must be known
            // before one is handed out.
            let _ = store.wait_until_ready().await;
        }
        let mut ports = lock(&self.ports);
        if !ports.seeded
            && let Some(store) = &self.functions
        {
            let mut recorded: Vec<Arc<Function>> = store
                .state()
                .into_iter()
                .filter(|f| f.status.as_ref().is_some_and(|s| s.serving_port.is_some()))
                .collect();
            // Should two record one port, the older Function keeps it.
            recorded.sort_by_key(|f| {
                (
                    f.metadata.creation_timestamp.as_ref().map(|t| t.0),
                    f.namespace(),
                    f.name_any(),
                )
            });
            for f in recorded {
                let id = FunctionKey::new(f.namespace().unwrap_or_default(), f.name_any());
                let _ = ports
                    .allocator
                    .claim(&id, f.status.as_ref().and_then(|s| s.serving_port));
            }
            ports.seeded = true;
        }
        let id = FunctionKey::new(function.namespace().unwrap_or_default(), function.name_any());
        ports
            .allocator
            .claim(&id, function.status.as_ref().and_then(|s| s.serving_port))
    }

    /// Frees a deleted Function's port.
    pub(crate) fn release_port(&self, function: &Function) {
        let id = FunctionKey::new(function.namespace().unwrap_or_default(), function.name_any());
        lock(&self.ports).allocator.release(&id);
    }
}

/// Whether `live` holds every field `desired` sets, as the API server
/// returns it: it may add fields (defaults, status, others' labels), and it
/// drops empty lists and maps, which therefore count as held when absent.
fn holds(live: &Value, desired: &Value) -> bool {
    match (desired, live) {
        (Value::Object(want), Value::Object(have)) => want.iter().all(|(key, value)| match have.get(key) {
            Some(found) => holds(found, value),
            None => is_empty(value),
        }),
        (Value::Array(want), Value::Array(have)) => {
            want.len() == have.len() && want.iter().zip(have).all(|(w, h)| holds(h, w))
        }
        (want, Value::Null) => is_empty(want),
        (want, have) => want == have,
    }
}

fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Array(items) => items.is_empty(),
        Value::Object(fields) => fields.is_empty(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_live_object_holds_what_was_applied_plus_what_the_server_added() {
        let desired =
            json!({"metadata": {"name": "a", "labels": {"x": "1"}}, "spec": {"ports": [{"port": 80}], "selector": {}}});
        let live = json!({"metadata": {"name": "a", "uid": "u", "labels": {"x": "1", "other": "2"}},
            "spec": {"ports": [{"port": 80, "protocol": "TCP"}], "clusterIP": "10.0.0.1"}, "status": {}});
        assert!(holds(&live, &desired));
    }

    #[test]
    fn a_changed_value_a_missing_field_or_another_list_length_is_not_held() {
        let desired = json!({"spec": {"ports": [{"port": 80}]}, "metadata": {"labels": {"x": "1"}}});
        assert!(!holds(
            &json!({"spec": {"ports": [{"port": 81}]}, "metadata": {"labels": {"x": "1"}}}),
            &desired
        ));
        assert!(!holds(
            &json!({"spec": {"ports": [{"port": 80}]}, "metadata": {}}),
            &desired
        ));
        assert!(!holds(
            &json!({"spec": {"ports": [{"port": 80}, {"port": 81}]}, "metadata": {"labels": {"x": "1"}}}),
            &desired
        ));
    }
}
