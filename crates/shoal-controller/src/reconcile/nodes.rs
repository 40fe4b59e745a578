//! The node pods and what they serve, from watches shared by all
//! reconciles: which ready pods serve which Function at which digest, and
//! why a node could not load one.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use k8s_openapi::api::core::v1::{ConfigMap, Pod};
use kube::ResourceExt;
use kube::runtime::reflector::{ObjectRef, Store};
use kube::runtime::watcher;
use shoal_api::{ConditionStatus, Function, cluster};
use shoal_envelope::FunctionKey;

/// What the reconciler knows about node pods and what they serve, from
/// watches shared by all reconciles.
#[derive(Clone)]
pub struct NodeView {
    /// Node pods.
    pub pods: Store<Pod>,
    /// What each node publishes, indexed by Function.
    pub statuses: Arc<NodeStatuses>,
}

impl NodeView {
    /// A view of `pods` with nothing published yet.
    pub fn new(pods: Store<Pod>) -> Self {
        Self {
            pods,
            statuses: Arc::new(NodeStatuses::default()),
        }
    }

    /// Node pods that have published their status and pass `check`, by name.
    fn published(&self, check: fn(&Pod) -> bool) -> BTreeMap<String, Arc<Pod>> {
        let statuses = self.statuses.lock();
        self.pods
            .state()
            .into_iter()
            .filter(|pod| check(pod) && statuses.shards_by_pod.contains_key(&pod.name_any()))
            .map(|pod| (pod.name_any(), pod))
            .collect()
    }

    /// Node pods with an IP that serve `function` (at `digest` when given,
    /// else at any digest: a node still serving the previous build): the
    /// ready ones and those being deleted that still answer, which its
    /// EndpointSlice lists as terminating.
    pub fn serving(&self, namespace: &str, name: &str, digest: Option<&str>) -> Vec<Arc<Pod>> {
        let ready = self.published(is_serving);
        let statuses = self.statuses.lock();
        let Some(by_pod) = statuses.serving.get(&FunctionKey::new(namespace, name)) else {
            return Vec::new();
        };
        by_pod
            .iter()
            .filter(|(_, served)| digest.is_none_or(|d| served.as_str() == d))
            .filter_map(|(pod, _)| ready.get(pod).cloned())
            .collect()
    }

    /// Why ready node pods could not load `function`: `(pod, message)`.
    pub fn load_errors(&self, namespace: &str, name: &str) -> Vec<(String, String)> {
        let ready = self.published(is_ready);
        let statuses = self.statuses.lock();
        statuses
            .errors
            .get(&FunctionKey::new(namespace, name))
            .into_iter()
            .flatten()
            .filter(|(pod, _)| ready.contains_key(*pod))
            .map(|(pod, message)| (pod.clone(), message.clone()))
            .collect()
    }

    /// Ready node pods.
    pub fn ready_nodes(&self) -> usize {
        self.pods.state().iter().filter(|p| is_ready(p)).count()
    }
}

/// The node status ConfigMaps, indexed by Function, fed from their watch.
#[derive(Default)]
pub struct NodeStatuses {
    index: std::sync::Mutex<StatusIndex>,
}

#[derive(Default)]
struct StatusIndex {
    /// Each status ConfigMap as last seen: its pod, what it serves (at
    /// which digest) and what failed (with why).
    shards: HashMap<String, Shard>,
    /// Status ConfigMaps per node pod.
    shards_by_pod: HashMap<String, usize>,
    serving: HashMap<FunctionKey, BTreeMap<String, String>>,
    errors: HashMap<FunctionKey, BTreeMap<String, String>>,
    /// Shards seen since a re-list began (the others are gone).
    relisted: Option<HashSet<String>>,
}

#[derive(Default, Clone, PartialEq)]
struct Shard {
    pod: String,
    served: BTreeMap<FunctionKey, String>,
    errors: BTreeMap<FunctionKey, String>,
}

impl NodeStatuses {
    fn lock(&self) -> std::sync::MutexGuard<'_, StatusIndex> {
        self.index.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Takes in one watch event of the node status ConfigMaps and returns
    /// the Functions whose serving state it changed (only those need a
    /// reconcile).
    pub fn apply(&self, event: &watcher::Event<ConfigMap>) -> Vec<ObjectRef<Function>> {
        let mut index = self.lock();
        let mut changed = BTreeSet::new();
        match event {
            watcher::Event::Init => index.relisted = Some(HashSet::new()),
            watcher::Event::InitApply(cm) | watcher::Event::Apply(cm) => {
                let name = cm.name_any();
                if let Some(seen) = index.relisted.as_mut() {
                    seen.insert(name.clone());
                }
                index.put(name, Some(Shard::from_config_map(cm)), &mut changed);
            }
            watcher::Event::InitDone => {
                let seen = index.relisted.take().unwrap_or_default();
                let gone: Vec<String> = index.shards.keys().filter(|n| !seen.contains(*n)).cloned().collect();
                for name in gone {
                    index.put(name, None, &mut changed);
                }
            }
            watcher::Event::Delete(cm) => index.put(cm.name_any(), None, &mut changed),
        }
        changed
            .into_iter()
            .map(|key| ObjectRef::new(&key.name).within(&key.namespace))
            .collect()
    }
}

impl Shard {
    fn from_config_map(cm: &ConfigMap) -> Self {
        let data = cm.data.clone().unwrap_or_default();
        let text = |key: &str| data.get(key).map(String::as_str).unwrap_or("");
        Self {
            pod: text(cluster::NODE_POD_KEY).to_string(),
            served: cluster::parse_served(text(cluster::NODE_STATUS_KEY))
                .into_iter()
                .map(|f| (FunctionKey::new(f.namespace, f.name), f.digest))
                .collect(),
            errors: cluster::parse_errors(text(cluster::NODE_ERRORS_KEY))
                .into_iter()
                .map(|((namespace, name), why)| (FunctionKey::new(namespace, name), why))
                .collect(),
        }
    }
}

impl StatusIndex {
    /// Replaces (or removes) one shard, noting the Functions whose entry
    /// differs.
    fn put(&mut self, name: String, shard: Option<Shard>, changed: &mut BTreeSet<FunctionKey>) {
        let old = self.shards.remove(&name);
        if old == shard {
            if let Some(shard) = shard {
                self.shards.insert(name, shard);
            }
            return;
        }
        if let Some(old) = &old {
            if let Some(count) = self.shards_by_pod.get_mut(&old.pod) {
                *count = count.saturating_sub(1);
                if *count == 0 {
                    self.shards_by_pod.remove(&old.pod);
                }
            }
            for (id, digest) in &old.served {
                let still = shard.as_ref().and_then(|s| s.served.get(id));
                if still != Some(digest) || shard.as_ref().is_some_and(|s| s.pod != old.pod) {
                    changed.insert(id.clone());
                }
                remove_entry(&mut self.serving, id, &old.pod);
            }
            for (id, message) in &old.errors {
                if shard.as_ref().and_then(|s| s.errors.get(id)) != Some(message) {
                    changed.insert(id.clone());
                }
                remove_entry(&mut self.errors, id, &old.pod);
            }
        }
        if let Some(shard) = shard {
            *self.shards_by_pod.entry(shard.pod.clone()).or_default() += 1;
            for (id, digest) in &shard.served {
                if old.as_ref().and_then(|o| o.served.get(id)) != Some(digest) {
                    changed.insert(id.clone());
                }
                self.serving
                    .entry(id.clone())
                    .or_default()
                    .insert(shard.pod.clone(), digest.clone());
            }
            for (id, message) in &shard.errors {
                if old.as_ref().and_then(|o| o.errors.get(id)) != Some(message) {
                    changed.insert(id.clone());
                }
                self.errors
                    .entry(id.clone())
                    .or_default()
                    .insert(shard.pod.clone(), message.clone());
            }
            self.shards.insert(name, shard);
        }
    }
}

fn remove_entry(map: &mut HashMap<FunctionKey, BTreeMap<String, String>>, id: &FunctionKey, pod: &str) {
    if let Some(by_pod) = map.get_mut(id) {
        by_pod.remove(pod);
        if by_pod.is_empty() {
            map.remove(id);
        }
    }
}

/// Follows node pods and tells when one's serving state (ready, address)
/// changed: only then do Functions' endpoints change.
#[derive(Default)]
pub struct NodePodChanges {
    known: HashMap<String, (bool, bool, Option<String>)>,
    relisted: Option<HashSet<String>>,
}

impl NodePodChanges {
    /// Takes in one watch event of the node pods; true when a pod became
    /// ready or unready, began terminating, changed address, or went.
    pub fn apply(&mut self, event: &watcher::Event<Pod>) -> bool {
        let state = |pod: &Pod| {
            (
                is_ready(pod),
                is_serving(pod),
                pod.status.as_ref().and_then(|s| s.pod_ip.clone()),
            )
        };
        match event {
            watcher::Event::Init => {
                self.relisted = Some(HashSet::new());
                false
            }
            watcher::Event::InitApply(pod) | watcher::Event::Apply(pod) => {
                if let Some(seen) = self.relisted.as_mut() {
                    seen.insert(pod.name_any());
                }
                self.known.insert(pod.name_any(), state(pod)) != Some(state(pod))
            }
            watcher::Event::InitDone => {
                let seen = self.relisted.take().unwrap_or_default();
                let before = self.known.len();
                self.known.retain(|name, _| seen.contains(name));
                self.known.len() != before
            }
            watcher::Event::Delete(pod) => self.known.remove(&pod.name_any()).is_some(),
        }
    }
}

/// A pod that is Ready, has an IP and is not being deleted.
pub fn is_ready(pod: &Pod) -> bool {
    pod.metadata.deletion_timestamp.is_none() && is_serving(pod)
}

/// A pod that is Ready and has an IP, being deleted or not: a node pod
/// goes on answering for its drain delay after it is told to stop.
pub fn is_serving(pod: &Pod) -> bool {
    pod.status.as_ref().is_some_and(|s| {
        s.pod_ip.is_some()
            && s.conditions
                .iter()
                .flatten()
                .any(|c| c.type_ == "Ready" && ConditionStatus::parse(&c.status) == ConditionStatus::True)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kube::runtime::reflector;
    use serde_json::json;

    fn pod(name: &str, ready: bool) -> Pod {
        serde_json::from_value(json!({
            "metadata": {"name": name, "namespace": "shoal-system"},
            "status": {"podIP": "10.0.0.1", "conditions": [{"type": "Ready", "status": if ready { ConditionStatus::True } else { ConditionStatus::False }}]}
        }))
        .expect("pod")
    }

    fn shard(pod: &str, shard: usize, served: &[(&str, &str, &str)], errors: &[(&str, &str, &str)]) -> ConfigMap {
        let served = served
            .iter()
            .map(|(namespace, name, digest)| cluster::ServedFunction {
                namespace: namespace.to_string(),
                name: name.to_string(),
                digest: digest.to_string(),
            })
            .collect();
        let errors = errors
            .iter()
            .map(|(namespace, name, why)| ((namespace.to_string(), name.to_string()), why.to_string()))
            .collect();
        serde_json::from_value(json!({
            "metadata": {"name": cluster::node_status_name(pod, shard), "namespace": "shoal-system"},
            "data": {
                (cluster::NODE_POD_KEY): pod,
                (cluster::NODE_STATUS_KEY): cluster::render_served(&served),
                (cluster::NODE_ERRORS_KEY): cluster::render_errors(&errors),
            }
        }))
        .expect("config map")
    }

    fn names(refs: Vec<ObjectRef<Function>>) -> Vec<String> {
        refs.into_iter().map(|r| r.name).collect()
    }

    #[test]
    fn a_shard_change_names_only_the_functions_whose_entry_changed() {
        let statuses = NodeStatuses::default();
        let first = shard("node-a", 0, &[("ns", "a", "sha256:1"), ("ns", "b", "sha256:1")], &[]);
        assert_eq!(names(statuses.apply(&watcher::Event::Apply(first.clone()))), ["a", "b"]);
        assert!(
            statuses.apply(&watcher::Event::Apply(first)).is_empty(),
            "the same shard again"
        );
        let moved = shard("node-a", 0, &[("ns", "a", "sha256:1"), ("ns", "b", "sha256:2")], &[]);
        assert_eq!(names(statuses.apply(&watcher::Event::Apply(moved))), ["b"]);
        let failing = shard(
            "node-a",
            0,
            &[("ns", "a", "sha256:1")],
            &[("ns", "b", "artifact missing")],
        );
        assert_eq!(names(statuses.apply(&watcher::Event::Apply(failing))), ["b"]);
    }

    #[test]
    fn only_ready_pods_that_published_count_as_serving() {
        let (store, mut writer) = reflector::store::<Pod>();
        writer.apply_watcher_event(&watcher::Event::Apply(pod("node-a", true)));
        writer.apply_watcher_event(&watcher::Event::Apply(pod("node-b", false)));
        writer.apply_watcher_event(&watcher::Event::Apply(pod("node-c", true)));
        let view = NodeView::new(store);
        for node in ["node-a", "node-b"] {
            view.statuses.apply(&watcher::Event::Apply(shard(
                node,
                0,
                &[("ns", "a", "sha256:1")],
                &[("ns", "b", "cannot load")],
            )));
        }
        let serving: Vec<String> = view
            .serving("ns", "a", Some("sha256:1"))
            .iter()
            .map(|p| p.name_any())
            .collect();
        assert_eq!(serving, ["node-a"], "node-b is not ready, node-c has not published");
        assert!(view.serving("ns", "a", Some("sha256:2")).is_empty());
        assert_eq!(view.serving("ns", "a", None).len(), 1, "any digest");
        assert_eq!(
            view.load_errors("ns", "b"),
            [("node-a".to_string(), "cannot load".to_string())]
        );
        assert_eq!(view.ready_nodes(), 2);
    }

    #[test]
    fn a_relist_drops_the_shards_that_are_gone() {
        let statuses = NodeStatuses::default();
        statuses.apply(&watcher::Event::Apply(shard(
            "node-a",
            0,
            &[("ns", "a", "sha256:1")],
            &[],
        )));
        statuses.apply(&watcher::Event::Apply(shard(
            "node-b",
            0,
            &[("ns", "b", "sha256:1")],
            &[],
        )));
        statuses.apply(&watcher::Event::Init);
        assert!(
            statuses
                .apply(&watcher::Event::InitApply(shard(
                    "node-b",
                    0,
                    &[("ns", "b", "sha256:1")],
                    &[]
                )))
                .is_empty()
        );
        assert_eq!(names(statuses.apply(&watcher::Event::InitDone)), ["a"]);
    }

    #[test]
    fn pod_changes_tell_readiness_and_address_changes_only() {
        let mut changes = NodePodChanges::default();
        assert!(changes.apply(&watcher::Event::Apply(pod("node-a", false))));
        assert!(
            !changes.apply(&watcher::Event::Apply(pod("node-a", false))),
            "nothing changed"
        );
        assert!(
            changes.apply(&watcher::Event::Apply(pod("node-a", true))),
            "became ready"
        );
        assert!(changes.apply(&watcher::Event::Delete(pod("node-a", true))), "gone");
        assert!(
            !changes.apply(&watcher::Event::Delete(pod("node-a", true))),
            "already gone"
        );
    }
}
