//! The Function reconciler.
//!
//! One pass runs the phases in order, each marking its own condition
//! through the typed helpers of [`status`]:
//! - [`source`] (ConfigurationReady): the spec defaulted and validated, a
//!   Git reference resolved, inline source stored in a ConfigMap;
//! - [`build`] (BuildReady): one deterministic Job per build-input hash, so
//!   restarts and retries never start a second build;
//! - [`serve`] (Running): the node pods' read access, the Service and the
//!   EndpointSlice listing the node pods that serve the built digest.
//!
//! A pass reads everything from watch stores ([`context::Children`], the
//! node view of [`nodes`]) and writes only what differs, so a Function at
//! rest costs no API call. The status is written with server-side apply
//! once per pass, whatever happened, so a failure shows on the Function
//! with the API server's message. [`controller`] wires the watches.

mod build;
mod builders;
mod cleanup;
mod config;
mod context;
mod controller;
mod nodes;
mod serve;
mod source;
mod status;

use std::sync::Arc;
use std::time::Duration;

use kube::ResourceExt;
use kube::api::{Api, Patch, PatchParams};
use kube::runtime::controller::Action;
use kube::runtime::finalizer::{Event as Finalizer, finalizer};
use shoal_api::{ConditionStatus, Function, cluster, condition};

pub use builders::{BuildServiceConfig, Builders};
pub use config::{ControllerConfig, DEFAULT_SERVING_PORTS};
pub use context::{ChildWriters, Children, Context};
pub use controller::{RECONCILE_CONCURRENCY, WATCHES, run};
pub use nodes::{NodePodChanges, NodeStatuses, NodeView, is_ready, is_serving};

/// Why a reconcile failed (it is retried with backoff).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An API call failed.
    #[error("Kubernetes API call failed")]
    Kube(#[from] kube::Error),
    /// Adding or removing the finalizer failed, or cleanup did.
    #[error("finalizer")]
    Finalizer(#[source] Box<kube::runtime::finalizer::Error<Error>>),
    /// The Function has no namespace (not a namespaced object).
    #[error("Function without a namespace")]
    NoNamespace,
}

/// Reconciles one Function (the kube-runtime entry point).
///
/// # Errors
///
/// An API call failed; the pass is retried after [`error_policy`]'s pause.
#[tracing::instrument(skip_all, fields(namespace = function.namespace().unwrap_or_default(), name = function.name_any()))]
pub async fn reconcile(function: Arc<Function>, ctx: Arc<Context>) -> Result<Action, Error> {
    crate::metrics::RECONCILES.inc();
    let started = std::time::Instant::now();
    let outcome = reconcile_pass(function, ctx).await;
    crate::metrics::RECONCILE_DURATION.observe(started.elapsed().as_secs_f64());
    outcome
}

async fn reconcile_pass(function: Arc<Function>, ctx: Arc<Context>) -> Result<Action, Error> {
    let namespace = function.namespace().ok_or(Error::NoNamespace)?;
    let api: Api<Function> = Api::namespaced(ctx.client.clone(), &namespace);
    let function = with_finalizer(&api, function).await?;
    finalizer(&api, cluster::FINALIZER, function, |event| async {
        match event {
            Finalizer::Apply(function) => apply(&function, &ctx).await,
            Finalizer::Cleanup(function) => cleanup::cleanup(&function, &ctx).await,
        }
    })
    .await
    .map_err(|e| Error::Finalizer(Box::new(e)))
}

/// The Function with Shoal's finalizer, added first if it lacks it (and is
/// not being deleted). kube's finalizer helper would add it and end the
/// pass, leaving the work to a second pass after the update comes back
/// through the watch; adding it here lets the first pass go on, so a new
/// Function's build starts one watch round trip sooner. The patch tests the
/// list it extends, as kube's does, so a concurrent change fails it.
async fn with_finalizer(api: &Api<Function>, function: Arc<Function>) -> Result<Arc<Function>, Error> {
    let finalizers = function.metadata.finalizers.clone();
    let has = finalizers.iter().flatten().any(|f| f == cluster::FINALIZER);
    if has || function.metadata.deletion_timestamp.is_some() {
        return Ok(function);
    }
    let patch: json_patch::Patch = serde_json::from_value(match finalizers {
        None => serde_json::json!([
            {"op": "test", "path": "/metadata/finalizers", "value": null},
            {"op": "add", "path": "/metadata/finalizers", "value": [cluster::FINALIZER]},
        ]),
        Some(current) => serde_json::json!([
            {"op": "test", "path": "/metadata/finalizers", "value": current},
            {"op": "add", "path": "/metadata/finalizers/-", "value": cluster::FINALIZER},
        ]),
    })
    .map_err(|e| Error::Kube(kube::Error::SerdeError(e)))?;
    let patched = api
        .patch(&function.name_any(), &PatchParams::default(), &Patch::Json::<()>(patch))
        .await?;
    Ok(Arc::new(patched))
}

/// Retry a failed reconcile after a pause (kube-runtime's error policy).
pub fn error_policy(function: Arc<Function>, error: &Error, _ctx: Arc<Context>) -> Action {
    crate::metrics::RECONCILE_ERRORS.inc();
    tracing::warn!(
        namespace = function.namespace().unwrap_or_default(),
        name = function.name_any(),
        error = %crate::causes(error),
        "reconcile failed; retrying"
    );
    Action::requeue(Duration::from_secs(10))
}

/// One pass over a Function that exists: the phases in order, the status
/// written once at the end.
async fn apply(function: &Function, ctx: &Context) -> Result<Action, Error> {
    let mut status = status::StatusWriter::new(function);
    let defaulted = source::defaulted(function, ctx, &mut status);
    let ready = async {
        let plan = source::plan(&defaulted, ctx, &mut status).await?;
        serve::claim_port(function, ctx, &mut status).await?;
        Ok::<_, Action>(plan)
    };
    let plan = match ready.await {
        Ok(plan) => plan,
        Err(wait) => {
            status.persist(function, ctx).await?;
            return Ok(wait);
        }
    };
    let outcome = async {
        source::store(&defaulted, ctx, &plan, &mut status).await?;
        let building = build::build(&defaulted, ctx, &plan, &mut status).await?;
        serve::serve(&defaulted, ctx, &mut status).await?;
        Ok(building.unwrap_or_else(|| Action::requeue(source::at_rest(&plan, ctx))))
    }
    .await;
    status.persist(function, ctx).await?;
    outcome
}

/// Whether a Function is Ready as Kyma defines it: all three conditions True.
pub fn is_function_ready(function: &Function) -> bool {
    let conditions = function.status.as_ref().map(|s| s.conditions.as_slice()).unwrap_or(&[]);
    [
        condition::CONFIGURATION_READY,
        condition::BUILD_READY,
        condition::RUNNING,
    ]
    .iter()
    .all(|t| {
        conditions
            .iter()
            .any(|c| c.type_ == *t && c.status == ConditionStatus::True)
    })
}
