//! The controller's wiring: the Function watch, the watches whose stores
//! the passes read (node pods, node status, the objects made for
//! Functions) and what each change triggers.

use std::time::Duration;

use futures::{Stream, StreamExt};
use k8s_openapi::NamespaceResourceScope;
use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::api::core::v1::{ConfigMap, Pod, Service};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use k8s_openapi::api::rbac::v1::{Role, RoleBinding};
use kube::api::Api;
use kube::runtime::controller::Controller;
use kube::runtime::reflector::{ObjectRef, store::Writer};
use kube::runtime::{WatchStreamExt, reflector, watcher};
use kube::{Client, Resource};
use shoal_api::{Function, cluster};

use super::{Builders, Children, Context, ControllerConfig, NodePodChanges, NodeView, error_policy, reconcile};

/// A resource [`run`] watches: `(apiGroup, resource, cluster-wide)`; a
/// watch that is not cluster-wide is in the controller's own namespace.
/// Kept next to `run` so the chart's RBAC test sees what it really watches.
pub const WATCHES: &[(&str, &str, bool)] = &[
    ("serverless.kyma-project.io", "functions", true),
    ("batch", "jobs", true),
    ("", "configmaps", true),
    ("", "services", true),
    ("discovery.k8s.io", "endpointslices", true),
    ("rbac.authorization.k8s.io", "roles", true),
    ("rbac.authorization.k8s.io", "rolebindings", true),
    ("", "pods", false),
    ("", "configmaps", false),
];

/// Functions reconciled at once: enough to keep the API server busy, few
/// enough not to flood it when every Function needs a pass (a node pod
/// coming or going).
pub const RECONCILE_CONCURRENCY: u16 = 16;

/// The Function an object made for it belongs to (its label names it).
fn owner(object: &impl Resource) -> Option<ObjectRef<Function>> {
    let namespace = object.meta().namespace.as_deref()?;
    let function = object.meta().labels.as_ref()?.get(cluster::FUNCTION_LABEL)?;
    Some(ObjectRef::new(function).within(namespace))
}

/// Watches the objects of kind `K` labelled `selector` cluster-wide into
/// `writer`; each change (someone else's edit, a delete, a Job's progress)
/// triggers a pass of the Function it belongs to, which writes it again
/// only if it no longer holds what the Function needs.
fn watch_children<K>(
    client: &Client,
    writer: Writer<K>,
    selector: &str,
) -> impl Stream<Item = ObjectRef<Function>> + Send + 'static
where
    K: Resource<Scope = NamespaceResourceScope, DynamicType = ()>
        + Clone
        + serde::de::DeserializeOwned
        + std::fmt::Debug
        + Send
        + Sync
        + 'static,
{
    let api: Api<K> = Api::all(client.clone());
    reflector(writer, watcher(api, watcher::Config::default().labels(selector)))
        .default_backoff()
        .touched_objects()
        .filter_map(|object| std::future::ready(object.ok().as_ref().and_then(owner)))
}

/// Runs the controller until `shutdown` completes.
pub async fn run(
    client: Client,
    config: ControllerConfig,
    shutdown: impl std::future::Future<Output = ()> + Send + Sync + 'static,
) {
    let node_pods: Api<Pod> = Api::namespaced(client.clone(), &config.namespace);
    let node_statuses: Api<ConfigMap> = Api::namespaced(client.clone(), &config.namespace);
    let pods_config = watcher::Config::default().labels(&config.node_selector());
    let status_config =
        watcher::Config::default().labels(&format!("{}={}", cluster::ROLE_LABEL, cluster::ROLE_NODE_STATUS));

    let (pod_store, pod_writer) = reflector::store();
    let nodes = NodeView::new(pod_store);
    let statuses = nodes.statuses.clone();
    let (children, writers) = Children::new();

    let functions: Api<Function> = Api::all(client.clone());
    let controller = Controller::new(functions, watcher::Config::default());
    let function_store = controller.store();
    // A node pod becoming ready or unready, or moving, changes every
    // Function's endpoints (every node serves every Function); other pod
    // updates change nothing.
    let mut pod_changes = NodePodChanges::default();
    let pod_triggers = reflector(pod_writer, watcher(node_pods, pods_config))
        .default_backoff()
        .filter_map(move |event| {
            let changed = event.as_ref().is_ok_and(|e| pod_changes.apply(e));
            std::future::ready(changed.then_some(()))
        })
        .flat_map(move |()| {
            futures::stream::iter(
                function_store
                    .state()
                    .iter()
                    .map(|f| ObjectRef::from_obj(f.as_ref()))
                    .collect::<Vec<_>>(),
            )
        });
    // A node's status change maps to the Functions whose line changed.
    let status_triggers = watcher(node_statuses, status_config)
        .default_backoff()
        .flat_map(move |event| {
            futures::stream::iter(match event {
                Ok(event) => statuses.apply(&event),
                Err(_) => Vec::new(),
            })
        });
    let role = |role: &str| {
        format!(
            "{}={},{}={role}",
            cluster::MANAGED_BY_LABEL,
            cluster::MANAGED_BY,
            cluster::ROLE_LABEL
        )
    };
    let managed = format!("{}={}", cluster::MANAGED_BY_LABEL, cluster::MANAGED_BY);
    let job_triggers = watch_children::<Job>(&client, writers.jobs, &role(cluster::ROLE_BUILD));
    let source_triggers = watch_children::<ConfigMap>(&client, writers.sources, &role(cluster::ROLE_SOURCE));
    let service_triggers = watch_children::<Service>(&client, writers.services, &managed);
    let slice_triggers = watch_children::<EndpointSlice>(&client, writers.slices, &managed);
    let access = role(cluster::ROLE_NODE_ACCESS);
    let role_triggers = watch_children::<Role>(&client, writers.roles, &access);
    let binding_triggers = watch_children::<RoleBinding>(&client, writers.bindings, &access);

    // Builder pods (when builds go to the build service), and a pass for
    // each Function whose build the service answered.
    let (answered, answers) = futures::channel::mpsc::unbounded();
    let (builder_store, builder_writer) = reflector::store();
    let builder_pods = config.build_service.as_ref().map(|service| {
        let api: Api<Pod> = Api::namespaced(client.clone(), &config.namespace);
        let watch = watcher::Config::default().labels(&service.builder_selector());
        reflector(builder_writer, watcher(api, watch))
            .default_backoff()
            .for_each(|_| std::future::ready(()))
    });
    let builders = config
        .build_service
        .clone()
        .map(|service| std::sync::Arc::new(Builders::new(service, builder_store, answered)));
    let mut ctx = Context::new(client, config, nodes, children).with_functions(controller.store());
    if let Some(builders) = builders {
        ctx = ctx.with_builders(builders);
    }
    let ctx = std::sync::Arc::new(ctx);
    let builder_pods = tokio::spawn(async move {
        if let Some(watch) = builder_pods {
            watch.await;
        }
    });
    controller
        .reconcile_on(pod_triggers)
        .reconcile_on(status_triggers)
        .reconcile_on(job_triggers)
        .reconcile_on(source_triggers)
        .reconcile_on(service_triggers)
        .reconcile_on(slice_triggers)
        .reconcile_on(role_triggers)
        .reconcile_on(binding_triggers)
        .reconcile_on(answers)
        .with_config(
            // Long enough to take a burst of watch events (a node pod
            // change, the writes of one pass coming back) as one pass, short
            // enough not to stand between `kubectl apply` and the first
            // answer: a new Function goes through three passes.
            kube::runtime::controller::Config::default()
                .debounce(Duration::from_millis(50))
                .concurrency(RECONCILE_CONCURRENCY),
        )
        .graceful_shutdown_on(shutdown)
        .run(reconcile, error_policy, ctx)
        .for_each(|result| async move {
            if let Err(e) = result {
                tracing::debug!(error = %crate::causes(&e), "reconcile loop");
            }
        })
        .await;
    builder_pods.abort();
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn an_object_made_for_a_function_names_it_by_label() {
        let mut service = Service::default();
        service.metadata.namespace = Some("orders".into());
        assert!(owner(&service).is_none(), "no label: nobody's");
        service.metadata.labels = Some(BTreeMap::from([(
            cluster::FUNCTION_LABEL.to_string(),
            "hello".to_string(),
        )]));
        assert_eq!(owner(&service), Some(ObjectRef::new("hello").within("orders")));
    }
}
