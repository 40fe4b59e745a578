//! The build phase (BuildReady): each build-input hash built once, by the
//! build service ([`super::builders`]) when it can take the Function, else
//! by one deterministic Job per hash, so restarts and retries never start a
//! second build. A result is trusted only from the service's signed answer
//! or a Job the Function owns, and only for the Function's own repository.

use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::api::core::v1::{Pod, Secret};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use kube::api::{Api, DeleteParams, ListParams, Patch, PostParams, PropagationPolicy};
use kube::runtime::controller::Action;
use kube::runtime::reflector::ObjectRef;
use kube::{Resource, ResourceExt};
use serde::Deserialize;
use shoal_api::{Function, cluster};
use shoal_builder::{BuildOutcome, BuildRequest};
use shoal_envelope::FunctionKey;

use super::builders::{Builders, Progress};
use super::context::{apply_params, job_finished};
use super::status::StatusWriter;
use super::{Context, Error};
use crate::resources::{self, BuildPlan};

/// How soon a pass comes back while a build waits for a slot, and while
/// one runs (the Job's watch usually brings it sooner).
const QUEUED_RECHECK: Duration = Duration::from_secs(10);
const RUNNING_RECHECK: Duration = Duration::from_secs(60);
/// How long the nodes may go on missing a rebuilt artifact (they retry a
/// failed load every 30 s) before the build service is asked again.
const LOST_ARTIFACT_RESEND: Duration = Duration::from_secs(90);

/// What a finished build Job leaves in its termination message.
#[derive(Deserialize)]
struct BuildResult {
    artifact: String,
}

/// Makes sure the module for the plan's hash is built; returns a sooner
/// requeue while a build waits or runs.
///
/// # Errors
///
/// An API call failed; BuildReady says which and why.
pub(super) async fn build(
    function: &Function,
    ctx: &Context,
    plan: &BuildPlan,
    status: &mut StatusWriter,
) -> Result<Option<Action>, Error> {
    let namespace = function.namespace().unwrap_or_default();
    let name = function.name_any();
    let hash = plan.hash();
    let job_name = cluster::build_job_name(&name, &hash);
    let job = ctx.children.jobs.get(&ObjectRef::new(&job_name).within(&namespace));
    let key = FunctionKey::new(&namespace, &name);
    if job.is_some() {
        // The watch shows the Job: it is counted from there from now on.
        ctx.release_build_slot(&key);
    }

    let recorded = status.status.build_hash.as_deref() == Some(hash.as_str()) && status.status.artifact.is_some();
    // Unless the nodes find the recorded artifact gone from the registry
    // (its storage was lost): then the same build runs again and pushes it
    // back, under the same digest as builds are reproducible.
    if recorded && !artifact_lost(ctx, &namespace, &name) {
        // Built: the Jobs are only a record of it now.
        delete_jobs(ctx, &namespace, &name, |_| true).await?;
        if let Some(builders) = &ctx.builders {
            builders.forget(&key);
        }
        status.mark_built(&status.status.artifact.clone().unwrap_or_default());
        return Ok(None);
    }

    if let (Some(builders), Some(request)) = (
        &ctx.builders,
        resources::service_build_request(&ctx.config, function, plan),
    ) && job.is_none()
    {
        if recorded {
            // Lost: an answer is kept while the nodes retry their loads;
            // if they still miss the module long after, ask again.
            builders.forget_answer_older_than(&key, LOST_ARTIFACT_RESEND);
        }
        let rebuild = function.annotations().get(cluster::REBUILD_ANNOTATION).cloned();
        return in_service(ctx, builders, request, rebuild, status).await;
    }
    if recorded && job.is_none() {
        tracing::warn!("the registry lost the Function's artifact; building it again");
    }

    let Some(job) = job else {
        return start(function, ctx, plan, &job_name, status).await;
    };

    // The Job's name is deterministic, so anyone allowed to create Jobs in
    // the namespace could make one first: only a Job this Function owns
    // (by UID) is trusted to report a build.
    let owned = function
        .metadata
        .uid
        .as_ref()
        .is_some_and(|uid| job.metadata.owner_references.iter().flatten().any(|r| &r.uid == uid));
    if !owned {
        status.mark_build_job_not_owned(&job_name, &namespace);
        return Ok(Some(Action::requeue(RUNNING_RECHECK)));
    }
    if job_finished(&job, "Complete") {
        finished(function, ctx, &job, &hash, status).await?;
        Ok(None)
    } else if job_finished(&job, "Failed") {
        failed(ctx, &job, status).await?;
        // The failed Job is kept (its logs explain the failure) and marks
        // this source as tried: no rebuild until the source changes or the
        // Job is deleted.
        Ok(None)
    } else {
        status.mark_build_running(&job_name);
        Ok(Some(Action::requeue(RUNNING_RECHECK)))
    }
}

/// The build service's part of the build phase: sends the build, and
/// records the service's answer when it comes.
async fn in_service(
    ctx: &Context,
    builders: &Arc<Builders>,
    request: BuildRequest,
    rebuild: Option<String>,
    status: &mut StatusWriter,
) -> Result<Option<Action>, Error> {
    let namespace = request.namespace.clone();
    let name = request.name.clone();
    let key = FunctionKey::new(&namespace, &name);
    // A new rebuild annotation makes the recorded answer stale: sent again.
    match builders.progress(&key, &request.hash, rebuild.as_deref()) {
        Some(Progress::Running { builder }) => {
            status.mark_build_in_service(&builder);
            Ok(Some(Action::requeue(RUNNING_RECHECK)))
        }
        Some(Progress::Answered(BuildOutcome::Built { artifact, reused }))
            if cluster::is_own_artifact(&artifact, &ctx.config.registry, &namespace, &name) =>
        {
            // Recorded already: the nodes still miss it (see
            // LOST_ARTIFACT_RESEND); look again after a while.
            let recorded = status.status.artifact.as_deref() == Some(artifact.as_str())
                && status.status.build_hash.as_deref() == Some(request.hash.as_str());
            if !recorded {
                crate::metrics::BUILDS_SUCCEEDED.inc();
                tracing::info!(%artifact, reused, "built by the build service");
            }
            status.status.artifact = Some(artifact.clone());
            status.status.build_hash = Some(request.hash.clone());
            status.mark_built(&artifact);
            Ok(recorded.then(|| Action::requeue(LOST_ARTIFACT_RESEND)))
        }
        Some(Progress::Answered(BuildOutcome::Built { artifact, .. })) => {
            status.mark_build_failed(format!(
                "the build service reported {:?}, which is not this Function's artifact; change the source to retry",
                artifact.chars().take(300).collect::<String>()
            ));
            Ok(None)
        }
        Some(Progress::Answered(BuildOutcome::Failed { message })) => {
            if !status.build_had_failed() {
                crate::metrics::BUILDS_FAILED.inc();
            }
            status.mark_build_failed(format!(
                "build failed: {}; change the source, or annotate the Function {}=<new value>, to retry",
                message.trim(),
                cluster::REBUILD_ANNOTATION
            ));
            Ok(None)
        }
        Some(Progress::Unanswered { why, retry_in }) if !retry_in.is_zero() => {
            status.mark_build_service_waiting(&why, retry_in);
            Ok(Some(Action::requeue(retry_in)))
        }
        Some(Progress::Unanswered { .. }) | None => {
            if status.status.build_hash.as_deref() == Some(request.hash.as_str()) {
                // Recorded as built, yet the nodes find it gone: the same
                // build runs again and pushes it back. An answer, once
                // recorded, is kept until the nodes load it, so this is
                // sent once per loss.
                tracing::warn!("the registry lost the Function's artifact; building it again");
            }
            // A Job for older source is pointless now.
            delete_jobs(ctx, &namespace, &name, |_| true).await?;
            match builders.send(key, request, rebuild) {
                Ok(builder) => {
                    crate::metrics::BUILDS_STARTED.inc();
                    tracing::info!(%builder, "build sent to the build service");
                    status.mark_build_sent(&builder);
                    Ok(Some(Action::requeue(RUNNING_RECHECK)))
                }
                Err(not_sent) => {
                    status.mark_build_service_waiting(&not_sent.to_string(), QUEUED_RECHECK);
                    Ok(Some(Action::requeue(QUEUED_RECHECK)))
                }
            }
        }
    }
}

/// Whether ready nodes report the Function's artifact missing from the
/// registry.
fn artifact_lost(ctx: &Context, namespace: &str, name: &str) -> bool {
    ctx.nodes
        .load_errors(namespace, name)
        .iter()
        .any(|(_, message)| message.starts_with(cluster::ARTIFACT_MISSING))
}

/// Starts the build Job when a slot is free.
async fn start(
    function: &Function,
    ctx: &Context,
    plan: &BuildPlan,
    job_name: &str,
    status: &mut StatusWriter,
) -> Result<Option<Action>, Error> {
    let namespace = function.namespace().unwrap_or_default();
    let name = function.name_any();
    // A build for older source is pointless now.
    delete_jobs(ctx, &namespace, &name, |j| j.name_any() != job_name).await?;
    let key = FunctionKey::new(&namespace, &name);
    if let Err(running) = ctx.take_build_slot(&key, job_name).await {
        tracing::info!(running, "build queued: all build slots busy");
        status.mark_build_queued(running, ctx.config.max_concurrent_builds);
        return Ok(Some(Action::requeue(QUEUED_RECHECK)));
    }
    if let Err(e) = registry_access(ctx, function).await {
        ctx.release_build_slot(&key);
        return Err(status.build_write_failed("giving the build access to the registry", e));
    }
    let jobs: Api<Job> = Api::namespaced(ctx.client.clone(), &namespace);
    match jobs
        .create(
            &PostParams::default(),
            &resources::build_job(&ctx.config, function, plan),
        )
        .await
    {
        Ok(_) => {
            crate::metrics::BUILDS_STARTED.inc();
            tracing::info!(job = %job_name, "build Job created");
        }
        // Created by an earlier pass the watch has not shown yet.
        Err(kube::Error::Api(e)) if e.is_already_exists() => {}
        Err(e) => {
            ctx.release_build_slot(&key);
            return Err(status.build_write_failed(&format!("creating build Job {job_name}"), e));
        }
    }
    status.mark_build_started(job_name);
    Ok(Some(Action::requeue(RUNNING_RECHECK)))
}

/// Records a completed build's artifact, if the Job reports one that is
/// the Function's own.
async fn finished(
    function: &Function,
    ctx: &Context,
    job: &Job,
    hash: &str,
    status: &mut StatusWriter,
) -> Result<(), Error> {
    let namespace = function.namespace().unwrap_or_default();
    let name = function.name_any();
    let job_name = job.name_any();
    let message = termination_message(ctx, &namespace, job).await?;
    match message.as_deref().map(serde_json::from_str::<BuildResult>) {
        // A build reports only its own Function's artifact, pinned by
        // digest, in the registry this controller pushes to.
        Some(Ok(result)) if !cluster::is_own_artifact(&result.artifact, &ctx.config.registry, &namespace, &name) => {
            let own_repository = format!("{}/{namespace}/{name}@", ctx.config.registry.trim_end_matches('/'));
            status.mark_build_failed(format!(
                "build Job {job_name} reported {:?}, which is not this Function's artifact ({own_repository}sha256:<digest>); delete the Job to retry",
                result.artifact.chars().take(300).collect::<String>()
            ));
        }
        Some(Ok(result)) => {
            crate::metrics::BUILDS_SUCCEEDED.inc();
            tracing::info!(artifact = %result.artifact, "build finished");
            status.status.artifact = Some(result.artifact.clone());
            status.status.build_hash = Some(hash.to_string());
            status.mark_built(&result.artifact);
            // The Job is deleted by a later pass, once this status (with
            // the artifact) is on the API server: the Job is the only
            // other record of the artifact.
        }
        _ => {
            status.mark_build_failed(format!(
                "build Job {job_name} completed without reporting its artifact{}; delete the Job to retry",
                message.map(|m| format!(": {m}")).unwrap_or_default()
            ));
        }
    }
    Ok(())
}

/// Records a failed build with the compiler's message.
async fn failed(ctx: &Context, job: &Job, status: &mut StatusWriter) -> Result<(), Error> {
    let namespace = job.namespace().unwrap_or_default();
    let job_name = job.name_any();
    let reason = job
        .status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .into_iter()
        .flatten()
        .find(|c| c.type_ == "Failed")
        .and_then(|c| c.message.clone().or(c.reason.clone()))
        .unwrap_or_default();
    let message = termination_message(ctx, &namespace, job).await?.unwrap_or(reason);
    if !status.build_had_failed() {
        crate::metrics::BUILDS_FAILED.inc();
    }
    tracing::info!(job = %job_name, %message, "build failed");
    status.mark_build_failed(format!("build Job {job_name} failed: {}", message.trim()));
    Ok(())
}

/// The newest termination message of the Job's own pods: the build's
/// result on success, the compiler's message on failure. The label finds
/// them, the owner reference (the Job's UID) proves they are its, since
/// anyone who can create pods in the namespace can copy a label. Read once
/// per finished build, so the build pods are not watched.
async fn termination_message(ctx: &Context, namespace: &str, job: &Job) -> Result<Option<String>, Error> {
    let pods: Api<Pod> = Api::namespaced(ctx.client.clone(), namespace);
    let list = pods
        .list(&ListParams::default().labels(&format!("job-name={}", job.name_any())))
        .await?;
    let job_uid = job.metadata.uid.clone().unwrap_or_default();
    let mut messages: Vec<(Option<Time>, String)> = list
        .items
        .iter()
        .filter(|pod| !job_uid.is_empty() && pod.metadata.owner_references.iter().flatten().any(|r| r.uid == job_uid))
        .flat_map(|pod| pod.status.iter().flat_map(|s| s.container_statuses.iter().flatten()))
        .filter_map(|cs| {
            let terminated = cs.state.as_ref()?.terminated.as_ref()?;
            let message = terminated.message.clone().filter(|m| !m.trim().is_empty())?;
            Some((terminated.finished_at.clone(), message))
        })
        .collect();
    messages.sort_by(|a, b| a.0.as_ref().map(|t| t.0).cmp(&b.0.as_ref().map(|t| t.0)));
    Ok(messages.pop().map(|(_, m)| m))
}

/// Deletes the Function's watched build Jobs that `which` picks (and are
/// not being deleted already).
///
/// # Errors
///
/// A delete failed (other than for a Job already gone).
pub(super) async fn delete_jobs(
    ctx: &Context,
    namespace: &str,
    function: &str,
    which: impl Fn(&Job) -> bool,
) -> Result<(), Error> {
    let jobs: Api<Job> = Api::namespaced(ctx.client.clone(), namespace);
    let params = DeleteParams {
        propagation_policy: Some(PropagationPolicy::Background),
        ..DeleteParams::default()
    };
    for job in ctx.children.build_jobs(namespace, function) {
        if which(job.as_ref()) && job.meta().deletion_timestamp.is_none() {
            match jobs.delete(&job.name_any(), &params).await {
                Err(kube::Error::Api(status)) if status.is_not_found() => {}
                Err(e) => return Err(e.into()),
                Ok(_) => {}
            }
        }
    }
    Ok(())
}

/// Gives the build Job about to start its way into the registry: a fresh
/// token for its own Function's repository (the in-cluster registry), or a
/// copy of the registry's credentials (an external one).
async fn registry_access(ctx: &Context, function: &Function) -> Result<(), kube::Error> {
    let namespace = function.namespace().unwrap_or_default();
    if let Some(key) = &ctx.config.registry_token_key {
        let grant = shoal_oci::token::Grant {
            repository: resources::repository(&ctx.config, function),
            // The build may run its deadline, plus time to be scheduled.
            expires: shoal_oci::token::now().saturating_add(ctx.config.build_deadline.as_secs().saturating_add(600)),
        };
        let secret = resources::push_secret(function, &key.mint(&grant));
        let secrets: Api<Secret> = Api::namespaced(ctx.client.clone(), &namespace);
        secrets
            .patch(
                &resources::push_secret_name(&function.name_any()),
                &apply_params(),
                &Patch::Apply(&secret),
            )
            .await?;
        return Ok(());
    }
    let Some(secret_name) = &ctx.config.registry_secret else {
        return Ok(());
    };
    let source: Api<Secret> = Api::namespaced(ctx.client.clone(), &ctx.config.namespace);
    let secret = source.get(secret_name).await?;
    let copy = resources::registry_secret_copy(&secret, &namespace);
    let target: Api<Secret> = Api::namespaced(ctx.client.clone(), &namespace);
    target
        .patch(resources::REGISTRY_SECRET_COPY, &apply_params(), &Patch::Apply(&copy))
        .await?;
    Ok(())
}
