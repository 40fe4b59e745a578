//! Deleting a Function: what it owns goes now, not only once the garbage
//! collector gets to the owner references (build pods stop at once).

use k8s_openapi::NamespaceResourceScope;
use k8s_openapi::api::core::v1::{ConfigMap, Service};
use k8s_openapi::api::discovery::v1::EndpointSlice;
use kube::ResourceExt;
use kube::api::{Api, DeleteParams};
use kube::runtime::controller::Action;
use shoal_api::{Function, cluster};
use shoal_envelope::FunctionKey;

use super::build::delete_jobs;
use super::serve::gone_is_fine;
use super::{Context, Error};

/// Removes the Function's Jobs, Service, EndpointSlice and source, and
/// frees its serving port.
///
/// # Errors
///
/// A delete failed; the finalizer stays and the cleanup is retried.
pub(super) async fn cleanup(function: &Function, ctx: &Context) -> Result<Action, Error> {
    let namespace = function.namespace().unwrap_or_default();
    let name = function.name_any();
    delete_jobs(ctx, &namespace, &name, |_| true).await?;
    delete::<EndpointSlice>(ctx, &namespace, &cluster::endpoint_slice_name(&name)).await?;
    delete::<Service>(ctx, &namespace, &name).await?;
    delete::<ConfigMap>(ctx, &namespace, &cluster::source_config_map_name(&name)).await?;
    ctx.release_port(function);
    ctx.release_build_slot(&FunctionKey::new(&namespace, &name));
    tracing::info!("Function deleted: its Jobs, Service, EndpointSlice and ConfigMap removed");
    Ok(Action::await_change())
}

async fn delete<K>(ctx: &Context, namespace: &str, name: &str) -> Result<(), Error>
where
    K: kube::Resource<Scope = NamespaceResourceScope, DynamicType = ()>
        + Clone
        + serde::de::DeserializeOwned
        + std::fmt::Debug,
{
    let api: Api<K> = Api::namespaced(ctx.client.clone(), namespace);
    gone_is_fine(api.delete(name, &DeleteParams::default()).await.map(drop))?;
    Ok(())
}
