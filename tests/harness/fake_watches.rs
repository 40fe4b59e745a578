//! The controller's watches over the fake API: each sync lists the
//! objects the controller made, as a watch's re-list would (with the same
//! label selectors), and feeds them to the stores a pass reads. A test
//! syncs before each pass, as the watches would have caught up by then.

use std::sync::Arc;

use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::api::core::v1::{ConfigMap, Service};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use k8s_openapi::api::rbac::v1::{Role, RoleBinding};
use kube::runtime::reflector::store::Writer;
use kube::runtime::watcher::Event;
use serde_json::Value;
use shoal_api::cluster;
use shoal_controller::reconcile::{ChildWriters, Children};

use crate::fake_kube::FakeKube;

/// The writing ends of a controller's stores, fed from a [`FakeKube`].
pub struct FakeWatches {
    fake: Arc<FakeKube>,
    writers: ChildWriters,
}

impl FakeWatches {
    /// Stores for a context, and the watches that fill them from `fake`.
    pub fn new(fake: &Arc<FakeKube>) -> (Children, Self) {
        let (children, writers) = Children::new();
        let mut watches = Self {
            fake: fake.clone(),
            writers,
        };
        watches.sync();
        (children, watches)
    }

    /// Brings every store up to the fake API's objects.
    pub fn sync(&mut self) {
        let objects = self.fake.all();
        relist::<Job>(&mut self.writers.jobs, &objects, "Job", Some(cluster::ROLE_BUILD));
        relist::<ConfigMap>(
            &mut self.writers.sources,
            &objects,
            "ConfigMap",
            Some(cluster::ROLE_SOURCE),
        );
        relist::<Service>(&mut self.writers.services, &objects, "Service", None);
        relist::<EndpointSlice>(&mut self.writers.slices, &objects, "EndpointSlice", None);
        relist::<Role>(
            &mut self.writers.roles,
            &objects,
            "Role",
            Some(cluster::ROLE_NODE_ACCESS),
        );
        relist::<RoleBinding>(
            &mut self.writers.bindings,
            &objects,
            "RoleBinding",
            Some(cluster::ROLE_NODE_ACCESS),
        );
    }
}

/// One re-list of `kind` into `writer`: objects the controller manages
/// (and of `role`, when given), all namespaces.
fn relist<K>(writer: &mut Writer<K>, objects: &[(String, Value)], kind: &str, role: Option<&str>)
where
    K: kube::Resource<DynamicType = ()> + Clone + serde::de::DeserializeOwned,
{
    let label = |object: &Value, key: &str| object["metadata"]["labels"][key].as_str().map(str::to_string);
    writer.apply_watcher_event(&Event::Init);
    for (_, object) in objects {
        if object["kind"] != kind
            || label(object, cluster::MANAGED_BY_LABEL).as_deref() != Some(cluster::MANAGED_BY)
            || role.is_some_and(|role| label(object, cluster::ROLE_LABEL).as_deref() != Some(role))
        {
            continue;
        }
        if let Ok(typed) = serde_json::from_value::<K>(object.clone()) {
            writer.apply_watcher_event(&Event::InitApply(typed));
        }
    }
    writer.apply_watcher_event(&Event::InitDone);
}
