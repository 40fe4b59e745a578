//! The source phase (ConfigurationReady): the spec defaulted and
//! validated, a Git reference resolved to a commit, inline source stored
//! in the ConfigMap the build mounts.

use std::collections::BTreeMap;
use std::time::Duration;

use k8s_openapi::api::core::v1::Secret;
use kube::ResourceExt;
use kube::api::Api;
use kube::runtime::controller::Action;
use shoal_api::{Function, cluster};

use super::status::StatusWriter;
use super::{Context, Error};
use crate::git::RefKey;
use crate::resources::{self, BuildPlan, GitBuild};

/// The Function with the controller's defaults, its runtime and resource
/// profile recorded in the status. The webhooks normally defaulted it
/// already; doing it again keeps a Function that bypassed them from being
/// built with other defaults.
pub(super) fn defaulted(function: &Function, ctx: &Context, status: &mut StatusWriter) -> Function {
    let mut defaulted = function.clone();
    shoal_api::apply_defaults_with(&mut defaulted, &ctx.config.defaults);
    status.status.observed_generation = function.metadata.generation;
    status.status.runtime = Some(defaulted.runtime().to_string());
    status.status.function_resource_profile = defaulted
        .spec
        .resource_configuration
        .as_ref()
        .and_then(|r| r.function.as_ref())
        .and_then(|f| {
            f.profile
                .clone()
                .or_else(|| f.resources.as_ref().map(|_| "custom".into()))
        });
    defaulted
}

/// What to build: the inline source, or the commit a Git reference points
/// at. `Err` carries when to look again after ConfigurationReady was marked
/// False.
pub(super) async fn plan(function: &Function, ctx: &Context, status: &mut StatusWriter) -> Result<BuildPlan, Action> {
    if let Err(e) = shoal_api::validate(function) {
        tracing::info!(reason = %e, "Function spec invalid");
        status.mark_spec_invalid(e);
        return Err(Action::await_change());
    }
    match (function.build_inputs(), &function.spec.source.git_repository) {
        (Some(inputs), _) => Ok(BuildPlan::Inline(inputs)),
        (None, Some(git)) => match resolve_git(function, git, ctx).await {
            Ok(build) => {
                status.status.git_repository = Some(shoal_api::GitRepositoryStatus {
                    url: git.url.clone(),
                    base_dir: git.base_dir.clone(),
                    reference: git.reference.clone(),
                    commit: Some(build.commit.clone()),
                });
                Ok(BuildPlan::Git(build))
            }
            Err(e) => {
                tracing::info!(error = %e, "Git source not resolved");
                status.mark_source_failed(e);
                Err(Action::requeue(ctx.git.interval()))
            }
        },
        (None, None) => {
            status.mark_source_failed("the Function has no source");
            Err(Action::await_change())
        }
    }
}

/// How long a Function at rest waits for its next pass: a Git source's
/// reference is looked at again after one interval (shared by the
/// Functions naming it).
pub(super) fn at_rest(plan: &BuildPlan, ctx: &Context) -> Duration {
    match plan {
        BuildPlan::Inline(_) => Duration::from_secs(300),
        BuildPlan::Git(_) => ctx.git.interval(),
    }
}

/// Stores inline source in the ConfigMap the build Job mounts; a Git
/// source is fetched by the build itself.
///
/// # Errors
///
/// Writing the ConfigMap failed; ConfigurationReady says why.
pub(super) async fn store(
    function: &Function,
    ctx: &Context,
    plan: &BuildPlan,
    status: &mut StatusWriter,
) -> Result<(), Error> {
    let inputs = match plan {
        BuildPlan::Inline(inputs) => inputs,
        BuildPlan::Git(git) => {
            status.mark_commit_resolved(&git.commit, &git.reference);
            return Ok(());
        }
    };
    let map_name = cluster::source_config_map_name(&function.name_any());
    // Only a build reads the ConfigMap: once this source is built there is
    // nothing to store.
    let built = status.status.build_hash.as_deref() == Some(inputs.hash().as_str()) && status.status.artifact.is_some();
    if !built
        && let Err(e) = ctx
            .ensure(&ctx.children.sources, &resources::source_config_map(function, inputs))
            .await
    {
        return Err(status.source_write_failed(&map_name, e));
    }
    status.mark_source_stored(&map_name);
    Ok(())
}

/// The commit of a Git source to build now: its reference resolved (one
/// listing per interval, shared) and the commit checked for `baseDir` and
/// `handler.js` (once per commit).
async fn resolve_git(
    function: &Function,
    git: &shoal_api::GitRepositorySource,
    ctx: &Context,
) -> Result<GitBuild, shoal_git::GitError> {
    let namespace = function.namespace().unwrap_or_default();
    let key = RefKey {
        url: git.url.clone(),
        reference: git
            .reference
            .clone()
            .unwrap_or_else(|| shoal_git::DEFAULT_REFERENCE.into()),
        secret: git
            .auth
            .as_ref()
            .map(|a| (namespace.clone(), a.secret_name.clone(), a.kind.clone())),
    };
    let credentials = || read_git_auth(ctx, &namespace, git.auth.as_ref());
    let commit = ctx.git.commit(&key, credentials).await?;
    let base_dir = git.base_dir.clone().unwrap_or_else(|| "/".into());
    ctx.git
        .check_folder(&key, &commit, &base_dir, || {
            read_git_auth(ctx, &namespace, git.auth.as_ref())
        })
        .await?;
    Ok(GitBuild {
        url: git.url.clone(),
        reference: key.reference.clone(),
        commit,
        base_dir,
        auth: git.auth.clone(),
        runtime: function.runtime().to_string(),
    })
}

/// The credentials in the Function's auth Secret, read when the poller
/// needs them (once per interval, not per pass).
async fn read_git_auth(
    ctx: &Context,
    namespace: &str,
    auth: Option<&shoal_api::RepositoryAuth>,
) -> Result<shoal_git::GitAuth, shoal_git::GitError> {
    let Some(auth) = auth else {
        return Ok(shoal_git::GitAuth::None);
    };
    let secrets: Api<Secret> = Api::namespaced(ctx.client.clone(), namespace);
    let secret = secrets
        .get_opt(&auth.secret_name)
        .await
        .map_err(|e| shoal_git::GitError::AuthFailed(format!("reading Secret {}: {e}", auth.secret_name)))?
        .ok_or_else(|| shoal_git::GitError::AuthFailed(format!("Secret {} does not exist", auth.secret_name)))?;
    let data: BTreeMap<String, Vec<u8>> = secret
        .data
        .unwrap_or_default()
        .into_iter()
        .map(|(k, v)| (k, v.0))
        .collect();
    shoal_git::GitAuth::from_secret(&auth.kind, &data)
}
