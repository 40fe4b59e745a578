//! The Function's status, written one typed mark at a time.
//!
//! Each state a condition can be in is a [`Mark`]: its condition, status
//! and reason (the names in [`shoal_api::reason`]) and the Kubernetes Event
//! reaching it is worth, if any. The phases call the `mark_*` helpers of a
//! [`StatusWriter`]; the writer keeps a condition's transition time while
//! its status holds, writes the status only when the API server holds
//! something else, and records each Event when its mark is newly reached.
//! An Event belongs to its mark, so renaming a reason cannot silently stop
//! it.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use kube::api::{Api, Patch, PatchParams};
use kube::runtime::events::{Event, EventType};
use kube::{Resource, ResourceExt};
use shoal_api::{Condition, ConditionStatus, Function, FunctionStatus, cluster, condition, reason};

use super::{Context, Error};

/// The longest condition message the CRD allows, and where a longer one
/// is cut.
const MAX_MESSAGE: usize = 32768;
const CUT_MESSAGE_AT: usize = 32000;

/// One state of one condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Mark {
    type_: &'static str,
    status: ConditionStatus,
    reason: &'static str,
    event: Option<Announcement>,
}

/// The Event a [`Mark`] is worth when a Function reaches it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Announcement {
    reason: &'static str,
    action: &'static str,
    warning: bool,
}

const fn mark(type_: &'static str, status: ConditionStatus, reason: &'static str) -> Mark {
    Mark {
        type_,
        status,
        reason,
        event: None,
    }
}

const fn announced(mark: Mark, reason: &'static str, action: &'static str, warning: bool) -> Mark {
    Mark {
        event: Some(Announcement {
            reason,
            action,
            warning,
        }),
        ..mark
    }
}

use ConditionStatus::{False, True, Unknown};
use condition::{BUILD_READY, CONFIGURATION_READY, RUNNING};

const SPEC_INVALID: Mark = mark(CONFIGURATION_READY, False, reason::INVALID_FUNCTION_SPEC);
const SOURCE_FAILED: Mark = mark(CONFIGURATION_READY, False, reason::SOURCE_UPDATE_FAILED);
const SOURCE_CREATED: Mark = mark(CONFIGURATION_READY, True, reason::CONFIG_MAP_CREATED);
const SOURCE_UPDATED: Mark = mark(CONFIGURATION_READY, True, reason::CONFIG_MAP_UPDATED);
const COMMIT_RESOLVED: Mark = mark(CONFIGURATION_READY, True, reason::SOURCE_UPDATED);
const BUILD_QUEUED: Mark = mark(BUILD_READY, Unknown, reason::JOB_QUEUED);
const BUILD_STARTED: Mark = announced(
    mark(BUILD_READY, Unknown, reason::JOB_CREATED),
    "BuildStarted",
    "Build",
    false,
);
const BUILD_RUNNING: Mark = mark(BUILD_READY, Unknown, reason::JOB_RUNNING);
const BUILT: Mark = announced(
    mark(BUILD_READY, True, reason::JOB_FINISHED),
    "BuildSucceeded",
    "Build",
    false,
);
const BUILD_FAILED: Mark = announced(
    mark(BUILD_READY, False, reason::JOB_FAILED),
    "BuildFailed",
    "Build",
    true,
);
const BUILD_JOB_NOT_OWNED: Mark = mark(BUILD_READY, False, reason::JOB_NOT_OWNED);
const WAITING: Mark = mark(RUNNING, Unknown, reason::DEPLOYMENT_WAITING);
const DEPLOYED: Mark = announced(
    mark(RUNNING, True, reason::DEPLOYMENT_READY),
    "Deployed",
    "Deploy",
    false,
);
const SERVING_PREVIOUS: Mark = mark(RUNNING, True, reason::DEPLOYMENT_UPDATED);
const NO_NODES: Mark = mark(RUNNING, False, reason::MIN_REPLICAS_NOT_AVAILABLE);
const LOAD_FAILED: Mark = announced(
    mark(RUNNING, False, reason::DEPLOYMENT_FAILED),
    "LoadFailed",
    "Deploy",
    true,
);
const SERVICE_FAILED: Mark = mark(RUNNING, False, reason::SERVICE_FAILED);
const NODE_ACCESS_FAILED: Mark = mark(RUNNING, False, reason::NODE_ACCESS_FAILED);
const PORT_UNAVAILABLE: Mark = mark(RUNNING, False, reason::SERVING_PORT_UNAVAILABLE);

/// Builds the status one mark at a time and knows what the API server
/// holds, so it writes only differences.
pub(crate) struct StatusWriter {
    /// The conditions as the pass found them.
    previous: Vec<Condition>,
    /// The status being built; conditions not marked in this pass keep
    /// their previous value.
    pub(crate) status: FunctionStatus,
    /// The marks made in this pass, the last per condition winning.
    marks: Vec<Mark>,
    /// The status as last read from or written to the API server.
    on_server: Option<FunctionStatus>,
}

impl StatusWriter {
    pub(crate) fn new(function: &Function) -> Self {
        let previous = function.status.clone().unwrap_or_default();
        Self {
            previous: previous.conditions.clone(),
            on_server: function.status.clone(),
            marks: Vec::new(),
            status: FunctionStatus {
                conditions: Vec::new(),
                ..previous
            },
        }
    }

    fn set(&mut self, mark: Mark, message: impl Into<String>) {
        let mut message: String = message.into();
        if message.len() > MAX_MESSAGE {
            let mut cut = CUT_MESSAGE_AT;
            while !message.is_char_boundary(cut) {
                cut -= 1;
            }
            message.truncate(cut);
            message.push_str(" …(truncated)");
        }
        let kept = self
            .previous
            .iter()
            .find(|c| c.type_ == mark.type_ && c.status == mark.status)
            .and_then(|c| c.last_transition_time.clone());
        self.status.conditions.retain(|c| c.type_ != mark.type_);
        self.status.conditions.push(Condition {
            type_: mark.type_.into(),
            status: mark.status,
            reason: Some(mark.reason.into()),
            message: Some(message),
            last_transition_time: Some(kept.unwrap_or_else(|| Time(k8s_openapi::jiff::Timestamp::now()))),
        });
        self.marks.retain(|m| m.type_ != mark.type_);
        self.marks.push(mark);
    }

    /// Whether the pass found the Function at `mark`.
    fn was(&self, mark: Mark) -> bool {
        self.previous
            .iter()
            .any(|c| c.type_ == mark.type_ && c.status == mark.status && c.reason.as_deref() == Some(mark.reason))
    }

    /// Marks `mark` because an API call failed, with the API server's own
    /// message, and hands the error back for the retry.
    fn failed(&mut self, mark: Mark, what: &str, error: kube::Error) -> Error {
        let message = match &error {
            kube::Error::Api(status) => status.message.clone(),
            other => other.to_string(),
        };
        self.set(mark, format!("{what}: {message}"));
        Error::Kube(error)
    }

    /// ConfigurationReady False: the spec is invalid.
    pub(crate) fn mark_spec_invalid(&mut self, why: impl std::fmt::Display) {
        self.set(SPEC_INVALID, why.to_string());
    }

    /// ConfigurationReady False: the source could not be read (a Git
    /// remote, an auth Secret) or there is none.
    pub(crate) fn mark_source_failed(&mut self, why: impl std::fmt::Display) {
        self.set(SOURCE_FAILED, why.to_string());
    }

    /// ConfigurationReady False: writing the source's ConfigMap failed.
    pub(crate) fn source_write_failed(&mut self, config_map: &str, error: kube::Error) -> Error {
        self.failed(
            SOURCE_FAILED,
            &format!("storing the source in ConfigMap {config_map}"),
            error,
        )
    }

    /// ConfigurationReady True: the source is stored in `config_map`.
    pub(crate) fn mark_source_stored(&mut self, config_map: &str) {
        let configured_before = self
            .previous
            .iter()
            .any(|c| c.type_ == CONFIGURATION_READY && c.status == True);
        let mark = if configured_before {
            SOURCE_UPDATED
        } else {
            SOURCE_CREATED
        };
        self.set(mark, format!("source stored in ConfigMap {config_map}"));
    }

    /// ConfigurationReady True: a Git source's reference resolved.
    pub(crate) fn mark_commit_resolved(&mut self, commit: &str, reference: &str) {
        self.set(COMMIT_RESOLVED, format!("commit {commit} of {reference}"));
    }

    /// BuildReady Unknown: every build slot is taken.
    pub(crate) fn mark_build_queued(&mut self, running: usize, slots: usize) {
        self.set(
            BUILD_QUEUED,
            format!("waiting for a build slot ({running} of {slots} builds running)"),
        );
    }

    /// BuildReady Unknown: the build Job was created.
    pub(crate) fn mark_build_started(&mut self, job: &str) {
        self.set(BUILD_STARTED, format!("build Job {job} created"));
    }

    /// BuildReady Unknown: the build Job runs.
    pub(crate) fn mark_build_running(&mut self, job: &str) {
        self.set(BUILD_RUNNING, format!("build Job {job} is running"));
    }

    /// BuildReady Unknown: the build was sent to the build service.
    pub(crate) fn mark_build_sent(&mut self, builder: &str) {
        self.set(
            BUILD_STARTED,
            format!("build sent to the build service (pod {builder})"),
        );
    }

    /// BuildReady Unknown: the build service builds it.
    pub(crate) fn mark_build_in_service(&mut self, builder: &str) {
        self.set(BUILD_RUNNING, format!("building in the build service (pod {builder})"));
    }

    /// BuildReady Unknown: the build service could not be asked, or did
    /// not answer; the build is sent again.
    pub(crate) fn mark_build_service_waiting(&mut self, why: &str, retry_in: std::time::Duration) {
        self.set(
            BUILD_QUEUED,
            format!(
                "waiting for the build service ({why}); asking again in {} s",
                retry_in.as_secs().max(1)
            ),
        );
    }

    /// BuildReady True: `artifact` is built.
    pub(crate) fn mark_built(&mut self, artifact: &str) {
        self.set(BUILT, format!("built {artifact}"));
    }

    /// BuildReady False: the build failed, `why` says how.
    pub(crate) fn mark_build_failed(&mut self, why: impl Into<String>) {
        self.set(BUILD_FAILED, why);
    }

    /// Whether the pass found the build failed already (so a failure is
    /// counted once).
    pub(crate) fn build_had_failed(&self) -> bool {
        self.was(BUILD_FAILED)
    }

    /// BuildReady False: an API call of the build failed.
    pub(crate) fn build_write_failed(&mut self, what: &str, error: kube::Error) -> Error {
        self.failed(BUILD_FAILED, what, error)
    }

    /// BuildReady False: a Job with the build's name is not the Function's.
    pub(crate) fn mark_build_job_not_owned(&mut self, job: &str, namespace: &str) {
        self.set(
            BUILD_JOB_NOT_OWNED,
            format!("a Job named {job} exists in {namespace} but this Function does not own it; its result is not trusted (delete it to build)"),
        );
    }

    /// Running Unknown: nothing is built yet.
    pub(crate) fn mark_waiting_for_build(&mut self) {
        self.set(WAITING, "waiting for the first build");
    }

    /// Running Unknown: `ready` nodes are loading `artifact`.
    pub(crate) fn mark_waiting_for_nodes(&mut self, ready: usize, artifact: &str) {
        self.set(WAITING, format!("waiting for {ready} ready nodes to load {artifact}"));
    }

    /// Running True: the nodes behind `service` serve the Function.
    pub(crate) fn mark_deployed(&mut self, service: &str) {
        // No node count: a node pod restarting changes the endpoints, not
        // what this says.
        self.set(DEPLOYED, format!("served by the node servers behind Service {service}"));
    }

    /// Running True: `spec.replicas` is 0 and no node serves it, as asked.
    pub(crate) fn mark_scaled_to_zero(&mut self) {
        self.set(DEPLOYED, "spec.replicas is 0: no node serves the Function");
    }

    /// Running True: the previous build serves while nodes load `artifact`.
    pub(crate) fn mark_serving_previous(&mut self, artifact: &str) {
        self.set(
            SERVING_PREVIOUS,
            format!("the node servers serve the previous build while they load {artifact}"),
        );
    }

    /// Running False: no node server is ready.
    pub(crate) fn mark_no_nodes(&mut self) {
        self.set(NO_NODES, "no node server is ready");
    }

    /// Running False: node `pod` cannot load `artifact`.
    pub(crate) fn mark_load_failed(&mut self, pod: &str, artifact: &str, why: &str) {
        self.set(LOAD_FAILED, format!("node {pod} cannot load {artifact}: {why}"));
    }

    /// Running False: every serving port is taken.
    pub(crate) fn mark_port_unavailable(&mut self, why: impl std::fmt::Display) {
        self.set(PORT_UNAVAILABLE, why.to_string());
    }

    /// Running False: writing the Service or its EndpointSlice failed.
    pub(crate) fn service_write_failed(&mut self, what: &str, error: kube::Error) -> Error {
        self.failed(SERVICE_FAILED, what, error)
    }

    /// Running False: granting the node pods read access failed.
    pub(crate) fn node_access_failed(&mut self, role: &str, error: kube::Error) -> Error {
        self.failed(
            NODE_ACCESS_FAILED,
            &format!("granting the node pods read access to what the Function references (Role {role})"),
            error,
        )
    }

    /// The status so far; conditions not marked in this pass keep their
    /// previous value.
    pub(crate) fn snapshot(&self) -> FunctionStatus {
        let mut status = self.status.clone();
        for c in &self.previous {
            if !status.conditions.iter().any(|n| n.type_ == c.type_) {
                status.conditions.push(c.clone());
            }
        }
        let order = |t: &str| match t {
            CONFIGURATION_READY => 0,
            BUILD_READY => 1,
            _ => 2,
        };
        status.conditions.sort_by_key(|c| order(&c.type_));
        status
    }

    /// The Events this pass's marks are worth against `before` (what the
    /// API server held): one for each announced mark newly reached.
    fn events(&self, before: &[Condition], after: &FunctionStatus) -> Vec<Event> {
        self.marks
            .iter()
            .filter_map(|mark| {
                let announcement = mark.event?;
                let reached = |c: &&Condition| {
                    c.type_ == mark.type_ && c.status == mark.status && c.reason.as_deref() == Some(mark.reason)
                };
                if before.iter().any(|c| reached(&c)) {
                    return None;
                }
                let now = after.conditions.iter().find(reached)?;
                Some(Event {
                    type_: if announcement.warning {
                        EventType::Warning
                    } else {
                        EventType::Normal
                    },
                    reason: announcement.reason.into(),
                    note: now.message.clone(),
                    action: announcement.action.into(),
                    secondary: None,
                })
            })
            .collect()
    }

    /// Writes the status so far if the API server holds something else,
    /// and records the Events of the marks newly reached.
    ///
    /// # Errors
    ///
    /// The status write failed; Events that fail are only logged.
    pub(crate) async fn persist(&mut self, function: &Function, ctx: &Context) -> Result<(), Error> {
        let status = self.snapshot();
        if self.on_server.as_ref() == Some(&status) {
            return Ok(());
        }
        let api: Api<Function> = Api::namespaced(ctx.client.clone(), &function.namespace().unwrap_or_default());
        let patch = serde_json::json!({
            "apiVersion": "serverless.kyma-project.io/v1alpha2",
            "kind": "Function",
            "status": status,
        });
        api.patch_status(
            &function.name_any(),
            &PatchParams::apply(cluster::CONTROLLER_MANAGER).force(),
            &Patch::Apply(&patch),
        )
        .await?;
        let before = self.on_server.replace(status.clone());
        let earlier = before.map(|s| s.conditions).unwrap_or_default();
        for event in self.events(&earlier, &status) {
            if let Err(e) = ctx.recorder.publish(&event, &function.object_ref(&())).await {
                tracing::warn!(error = %e, reason = %event.reason, "recording an Event");
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
