//! What serving needs: the Service, the EndpointSlice of the node pods
//! serving the Function, and their read access to what it references.

use k8s_openapi::api::core::v1::{ObjectReference, Pod, Service, ServicePort, ServiceSpec};
use k8s_openapi::api::discovery::v1::{Endpoint, EndpointConditions, EndpointPort, EndpointSlice};
use k8s_openapi::api::rbac::v1::{PolicyRule, Role, RoleBinding, RoleRef, Subject};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kube::{Resource, ResourceExt};
use shoal_api::Function;
use shoal_api::cluster;

use crate::reconcile::ControllerConfig;

use super::owned_meta;

/// The Function's Service: named after it, port 80 named `http` to the
/// Function's serving port, and no selector — a Service cannot select pods
/// of another namespace, so the controller writes its EndpointSlice itself.
pub fn service(function: &Function, serving_port: i32) -> Service {
    let mut meta = owned_meta(function, function.name_any(), "service");
    if let Some(labels) = meta.labels.as_mut() {
        labels.extend(function.spec.labels.clone());
    }
    if !function.spec.annotations.is_empty() {
        meta.annotations = Some(function.spec.annotations.clone());
    }
    Service {
        metadata: meta,
        spec: Some(ServiceSpec {
            ports: Some(vec![ServicePort {
                name: Some(cluster::SERVICE_PORT_NAME.into()),
                port: 80,
                protocol: Some("TCP".into()),
                app_protocol: Some("http".into()),
                target_port: Some(IntOrString::Int(serving_port)),
                ..ServicePort::default()
            }]),
            type_: Some("ClusterIP".into()),
            ..ServiceSpec::default()
        }),
        ..Service::default()
    }
}

/// The EndpointSlice of the Function's Service: the node pods serving it,
/// at its serving port (which tells the node the Function, whatever the
/// request's Host); pods being deleted as terminating, still serving.
pub fn endpoint_slice(function: &Function, serving_port: i32, serving: &[&Pod]) -> EndpointSlice {
    let name = function.name_any();
    let mut meta = owned_meta(function, cluster::endpoint_slice_name(&name), "endpoints");
    if let Some(labels) = meta.labels.as_mut() {
        labels.insert("kubernetes.io/service-name".into(), name.clone());
        labels.insert(
            "endpointslice.kubernetes.io/managed-by".into(),
            cluster::ENDPOINT_SLICE_MANAGER.into(),
        );
    }
    let mut endpoints: Vec<Endpoint> = serving
        .iter()
        .filter_map(|pod| {
            let ip = pod.status.as_ref()?.pod_ip.clone()?;
            // A node pod being deleted still answers until its drain delay
            // ends: proxies use it only while no other node is ready.
            let terminating = pod.metadata.deletion_timestamp.is_some();
            Some(Endpoint {
                addresses: vec![ip],
                conditions: Some(EndpointConditions {
                    ready: Some(!terminating),
                    serving: Some(true),
                    terminating: Some(terminating),
                }),
                node_name: pod.spec.as_ref().and_then(|s| s.node_name.clone()),
                // Without the pod's resourceVersion: it changes on every pod
                // status update and would rewrite every Function's slice.
                target_ref: Some(ObjectReference {
                    resource_version: None,
                    ..pod.object_ref(&())
                }),
                ..Endpoint::default()
            })
        })
        .collect();
    endpoints.sort_by(|a, b| a.addresses.cmp(&b.addresses));
    // A slice holds one address family; single-stack IPv6 clusters give
    // pods IPv6 addresses.
    let ipv6 = endpoints
        .first()
        .is_some_and(|e| e.addresses.iter().any(|a| a.contains(':')));
    endpoints.retain(|e| e.addresses.iter().all(|a| a.contains(':') == ipv6));
    EndpointSlice {
        metadata: meta,
        address_type: if ipv6 { "IPv6" } else { "IPv4" }.into(),
        endpoints,
        ports: Some(vec![EndpointPort {
            name: Some(cluster::SERVICE_PORT_NAME.into()),
            port: Some(serving_port),
            protocol: Some("TCP".into()),
            app_protocol: Some("http".into()),
        }]),
    }
}

/// The Secrets and ConfigMaps a Function references, by name: env
/// `valueFrom` and `secretMounts`, as a kubelet reads them for a pod.
pub fn referenced(function: &Function) -> (Vec<String>, Vec<String>) {
    let mut secrets = std::collections::BTreeSet::new();
    let mut config_maps = std::collections::BTreeSet::new();
    for source in function.spec.env.iter().filter_map(|e| e.value_from.as_ref()) {
        if let Some(name) = source.secret_key_ref.as_ref().map(|r| r.name.clone()) {
            secrets.insert(name);
        }
        if let Some(name) = source.config_map_key_ref.as_ref().map(|r| r.name.clone()) {
            config_maps.insert(name);
        }
    }
    secrets.extend(function.spec.secret_mounts.iter().map(|m| m.secret_name.clone()));
    (secrets.into_iter().collect(), config_maps.into_iter().collect())
}

/// The Role and RoleBinding that let the node pods' ServiceAccount get
/// exactly the Secrets and ConfigMaps `function` references, in its
/// namespace, and nothing else: the node, which runs every tenant's code,
/// holds no right to read Secrets of its own. `None` when the Function
/// references nothing or no node ServiceAccount is configured. Owned by the
/// Function, so they go with it.
pub fn node_access(config: &ControllerConfig, function: &Function) -> Option<(Role, RoleBinding)> {
    let account = config.node_service_account.as_ref()?;
    let (secrets, config_maps) = referenced(function);
    let rule = |resource: &str, names: Vec<String>| {
        (!names.is_empty()).then(|| PolicyRule {
            api_groups: Some(vec![String::new()]),
            resources: Some(vec![resource.to_string()]),
            resource_names: Some(names),
            verbs: vec!["get".to_string()],
            ..PolicyRule::default()
        })
    };
    let rules: Vec<PolicyRule> = [rule("secrets", secrets), rule("configmaps", config_maps)]
        .into_iter()
        .flatten()
        .collect();
    if rules.is_empty() {
        return None;
    }
    let meta = owned_meta(
        function,
        cluster::node_access_name(&function.name_any()),
        cluster::ROLE_NODE_ACCESS,
    );
    let role = Role {
        metadata: meta.clone(),
        rules: Some(rules),
    };
    let binding = RoleBinding {
        metadata: meta.clone(),
        role_ref: RoleRef {
            api_group: "rbac.authorization.k8s.io".into(),
            kind: "Role".into(),
            name: meta.name.clone().unwrap_or_default(),
        },
        subjects: Some(vec![Subject {
            kind: "ServiceAccount".into(),
            name: account.clone(),
            namespace: Some(config.namespace.clone()),
            ..Subject::default()
        }]),
    };
    Some((role, binding))
}
