//! The serve phase (Running): the node pods' read access to what the
//! Function references, its Service at its own serving port (from the
//! first pass), and the EndpointSlice listing the ready node pods that
//! serve the built digest.

use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::api::rbac::v1::{Role, RoleBinding};
use kube::ResourceExt;
use kube::api::{Api, DeleteParams};
use kube::runtime::controller::Action;
use kube::runtime::reflector::ObjectRef;
use shoal_api::{Function, cluster};

use super::status::StatusWriter;
use super::{Context, Error};
use crate::resources;

/// Claims the Function's serving port. `Err` carries when to try again
/// after Running was marked False (every port is taken).
pub(super) async fn claim_port(function: &Function, ctx: &Context, status: &mut StatusWriter) -> Result<(), Action> {
    match ctx.serving_port(function).await {
        Ok(port) => {
            status.status.serving_port = Some(i32::from(port));
            Ok(())
        }
        Err(exhausted) => {
            tracing::warn!(error = %exhausted, "no serving port for the Function");
            status.mark_port_unavailable(exhausted);
            Err(Action::requeue(Duration::from_secs(60)))
        }
    }
}

/// Publishes the Function: access, Service, EndpointSlice and Running.
///
/// # Errors
///
/// An API call failed; Running says which and why.
pub(super) async fn serve(function: &Function, ctx: &Context, status: &mut StatusWriter) -> Result<(), Error> {
    let namespace = function.namespace().unwrap_or_default();
    let name = function.name_any();
    grant_node_access(function, ctx, status).await?;
    status.status.pod_selector = Some(ctx.config.node_selector());
    let port = status.status.serving_port.unwrap_or(ctx.config.node_port);
    // The Service comes with the first pass, while the Function builds:
    // callers resolve its name at once, and the cluster's proxies have
    // programmed it by the time its first endpoint is written, so the
    // first answer waits only for that endpoint.
    if let Err(e) = ctx
        .ensure(&ctx.children.services, &resources::service(function, port))
        .await
    {
        return Err(status.service_write_failed(&format!("applying Service {name}"), e));
    }
    let Some(artifact) = status.status.artifact.clone() else {
        status.status.replicas = Some(0);
        status.mark_waiting_for_build();
        return Ok(());
    };
    let digest = cluster::artifact_digest(&artifact).unwrap_or_default().to_string();
    let scaled_to_zero = function.spec.replicas == Some(0);
    let current = if scaled_to_zero {
        Vec::new()
    } else {
        ctx.nodes.serving(&namespace, &name, Some(&digest))
    };
    // Until some node has loaded a new build, the nodes still serving the
    // previous one keep the Service answering: an update is no outage.
    let previous = if current.is_empty() && !scaled_to_zero {
        ctx.nodes.serving(&namespace, &name, None)
    } else {
        Vec::new()
    };
    let serving = if current.is_empty() { &previous } else { &current };
    let serving_refs: Vec<&Pod> = serving.iter().map(|p| p.as_ref()).collect();

    // No EndpointSlice until some node serves the Function: an empty one
    // routes nowhere, as no slice does. Once one has had endpoints
    // (replicas recorded), an empty one is written to take them away.
    let never_served = function.status.as_ref().and_then(|s| s.replicas).is_none_or(|r| r == 0);
    if !(serving_refs.is_empty() && never_served)
        && let Err(e) = ctx
            .ensure(
                &ctx.children.slices,
                &resources::endpoint_slice(function, port, &serving_refs),
            )
            .await
    {
        let slice = cluster::endpoint_slice_name(&name);
        return Err(status.service_write_failed(
            &format!("applying EndpointSlice {slice} (the nodes serving Service {name})"),
            e,
        ));
    }

    // Every node serves every Function: while it is served, it has the
    // replicas it asks for. Not the number of node pods, which changes
    // with each node restart and would rewrite every Function's status.
    status.status.replicas = Some(if serving.is_empty() {
        0
    } else {
        function.spec.replicas.unwrap_or(1)
    });
    let ready = ctx.nodes.ready_nodes();
    if scaled_to_zero {
        status.mark_scaled_to_zero();
    } else if !current.is_empty() {
        status.mark_deployed(&name);
    } else if !previous.is_empty() {
        status.mark_serving_previous(&artifact);
    } else if ready == 0 {
        status.mark_no_nodes();
    } else if let [(pod, message), ..] = ctx.nodes.load_errors(&namespace, &name).as_slice() {
        status.mark_load_failed(pod, &artifact, message);
    } else {
        status.mark_waiting_for_nodes(ready, &artifact);
    }
    Ok(())
}

/// Lets the node pods read what the Function references (a Role and
/// RoleBinding of its own), before any node is told to load it; takes that
/// away when the Function no longer references anything.
async fn grant_node_access(function: &Function, ctx: &Context, status: &mut StatusWriter) -> Result<(), Error> {
    let namespace = function.namespace().unwrap_or_default();
    let access_name = cluster::node_access_name(&function.name_any());
    let granted = match resources::node_access(&ctx.config, function) {
        Some((role, binding)) => async {
            ctx.ensure(&ctx.children.roles, &role).await?;
            ctx.ensure(&ctx.children.bindings, &binding).await
        }
        .await
        .map(drop),
        // Nothing referenced: a grant made earlier is withdrawn (a
        // Function's grants also go with it through their owner reference).
        None => withdraw_node_access(ctx, &namespace, &access_name).await,
    };
    granted.map_err(|e| status.node_access_failed(&access_name, e))
}

async fn withdraw_node_access(ctx: &Context, namespace: &str, access_name: &str) -> Result<(), kube::Error> {
    let bound = ctx
        .children
        .bindings
        .get(&ObjectRef::new(access_name).within(namespace))
        .is_some();
    let granted = ctx
        .children
        .roles
        .get(&ObjectRef::new(access_name).within(namespace))
        .is_some();
    if bound {
        let bindings: Api<RoleBinding> = Api::namespaced(ctx.client.clone(), namespace);
        gone_is_fine(bindings.delete(access_name, &DeleteParams::default()).await.map(drop))?;
    }
    if granted {
        let roles: Api<Role> = Api::namespaced(ctx.client.clone(), namespace);
        gone_is_fine(roles.delete(access_name, &DeleteParams::default()).await.map(drop))?;
    }
    Ok(())
}

/// A delete of something already gone did what it was for.
pub(super) fn gone_is_fine(deleted: Result<(), kube::Error>) -> Result<(), kube::Error> {
    match deleted {
        Err(kube::Error::Api(status)) if status.is_not_found() => Ok(()),
        other => other,
    }
}
