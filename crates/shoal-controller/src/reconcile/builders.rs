//! The build service as the controller sees it: the builder pods, the
//! builds sent to them and their answers.
//!
//! A build is sent to one ready builder pod, picked by rendezvous hashing
//! of the build-input hash over the pods' names, so a build asked for
//! again (after the controller restarted, or the connection broke) goes to
//! the pod that has it running or done, and the service builds it once.
//! Each build waits in its own task; its answer is kept here by Function
//! and triggers a pass of that Function, which records it. An answer is
//! trusted only if the service's key signed it ([`shoal_builder::client`]).

use std::collections::{BTreeMap, HashMap};
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures::channel::mpsc::UnboundedSender;
use k8s_openapi::api::core::v1::Pod;
use kube::ResourceExt;
use kube::runtime::reflector::{ObjectRef, Store};
use sha2::{Digest, Sha256};
use shoal_api::Function;
use shoal_builder::{BuildClient, BuildLimits, BuildOutcome, BuildRequest};

use super::context::lock;
use super::nodes::is_ready;
use crate::ports::FunctionKey;

/// How to reach the build service.
#[derive(Debug, Clone)]
pub struct BuildServiceConfig {
    /// Signs requests and checks answers.
    pub client: BuildClient,
    /// Labels that select the builder pods (in the controller's namespace).
    pub builder_labels: BTreeMap<String, String>,
    /// The port builder pods listen on.
    pub port: u16,
    /// The most one build may ask for: a Function needing more is built
    /// by a Job.
    pub max_limits: BuildLimits,
}

impl BuildServiceConfig {
    /// The label selector of the builder pods.
    pub fn builder_selector(&self) -> String {
        super::config::label_selector(&self.builder_labels)
    }
}

/// Where a Function's build at one hash stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Progress {
    /// Sent to `builder`, no answer yet.
    Running { builder: String },
    /// The service's signed answer.
    Answered(BuildOutcome),
    /// No answer to trust (the builder was unreachable, busy or restarted,
    /// or the answer was not the service's): sent again after `retry_in`.
    Unanswered { why: String, retry_in: Duration },
}

#[derive(Debug)]
struct Dispatch {
    hash: String,
    /// The Function's rebuild annotation when the build was sent.
    rebuild: Option<String>,
    state: DispatchState,
}

#[derive(Debug)]
enum DispatchState {
    Running { builder: String },
    Answered(BuildOutcome, Instant),
    Unanswered { why: String, at: Instant, attempts: u32 },
}

/// Why a build was not sent now.
#[derive(Debug, thiserror::Error)]
pub(crate) enum NotSent {
    /// No builder pod is ready.
    #[error("no builder pod is ready")]
    NoBuilder,
    /// [`MAX_IN_FLIGHT`] builds wait for their answers already; the
    /// Function gets a pass when one comes.
    #[error("{0} builds are with the build service already")]
    Busy(usize),
}

/// Builds sent and not answered yet, at most: each holds a connection to
/// a builder while it waits its turn there.
pub const MAX_IN_FLIGHT: usize = 1024;

/// Functions waiting for room, in order, each once.
#[derive(Default)]
struct Waiting {
    order: std::collections::VecDeque<ObjectRef<Function>>,
    queued: std::collections::HashSet<ObjectRef<Function>>,
}

/// The builder pods and the builds sent to them.
pub struct Builders {
    config: BuildServiceConfig,
    pods: Store<Pod>,
    dispatches: Mutex<HashMap<FunctionKey, Dispatch>>,
    /// Functions whose build was not sent for want of room, oldest first:
    /// each answer gives the next one a pass.
    waiting: Mutex<Waiting>,
    answered: UnboundedSender<ObjectRef<Function>>,
}

impl Builders {
    /// Builds go to the ready pods in `pods`; each answer is announced on
    /// `answered`, for a pass of its Function.
    pub fn new(config: BuildServiceConfig, pods: Store<Pod>, answered: UnboundedSender<ObjectRef<Function>>) -> Self {
        Self {
            config,
            pods,
            dispatches: Mutex::default(),
            waiting: Mutex::default(),
            answered,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &BuildServiceConfig {
        &self.config
    }

    /// Where `key`'s build at `hash` stands, if it was sent and the
    /// Function's rebuild annotation is still `rebuild`.
    pub(crate) fn progress(&self, key: &FunctionKey, hash: &str, rebuild: Option<&str>) -> Option<Progress> {
        let dispatches = lock(&self.dispatches);
        let dispatch = dispatches
            .get(key)
            .filter(|d| d.hash == hash && d.rebuild.as_deref() == rebuild)?;
        Some(match &dispatch.state {
            DispatchState::Running { builder } => Progress::Running {
                builder: builder.clone(),
            },
            DispatchState::Answered(outcome, _) => Progress::Answered(outcome.clone()),
            DispatchState::Unanswered { why, at, attempts } => Progress::Unanswered {
                why: why.clone(),
                retry_in: retry_delay(*attempts).saturating_sub(at.elapsed()),
            },
        })
    }

    /// Forgets `key`'s build (recorded in its status, or no longer wanted).
    pub(crate) fn forget(&self, key: &FunctionKey) {
        lock(&self.dispatches).remove(key);
    }

    /// Forgets `key`'s answer if it came more than `age` ago, so the build
    /// is sent again: the nodes still miss the module it named (pushed to
    /// a registry that lost it again, or answered from a builder's memory
    /// of a push the registry no longer has).
    pub(crate) fn forget_answer_older_than(&self, key: &FunctionKey, age: Duration) {
        let mut dispatches = lock(&self.dispatches);
        if let Some(Dispatch {
            state: DispatchState::Answered(_, at),
            ..
        }) = dispatches.get(key)
            && at.elapsed() > age
        {
            dispatches.remove(key);
        }
    }

    /// Sends `request` to its builder pod (the Function's rebuild annotation
    /// being `rebuild`); returns the pod's name.
    ///
    /// # Errors
    /// [`NotSent`] when no builder pod is ready, or too many builds wait
    /// for their answers (the Function then gets a pass when one comes).
    pub(crate) fn send(
        self: &Arc<Self>,
        key: FunctionKey,
        request: BuildRequest,
        rebuild: Option<String>,
    ) -> Result<String, NotSent> {
        let (builder, address) = self.pick(&request.hash).ok_or(NotSent::NoBuilder)?;
        let function = ObjectRef::new(&request.name).within(&request.namespace);
        let attempts = {
            let mut dispatches = lock(&self.dispatches);
            let in_flight = dispatches
                .values()
                .filter(|d| matches!(d.state, DispatchState::Running { .. }))
                .count();
            if in_flight >= MAX_IN_FLIGHT {
                let mut waiting = lock(&self.waiting);
                if waiting.queued.insert(function.clone()) {
                    waiting.order.push_back(function);
                }
                return Err(NotSent::Busy(in_flight));
            }
            let attempts = match dispatches.get(&key) {
                Some(Dispatch {
                    hash,
                    state: DispatchState::Unanswered { attempts, .. },
                    ..
                }) if *hash == request.hash => attempts.saturating_add(1),
                _ => 0,
            };
            dispatches.insert(
                key.clone(),
                Dispatch {
                    hash: request.hash.clone(),
                    rebuild,
                    state: DispatchState::Running {
                        builder: builder.clone(),
                    },
                },
            );
            attempts
        };
        // A build waits for a slot behind the others, then runs its deadline.
        let timeout = Duration::from_secs(request.limits.deadline_secs.saturating_mul(2).saturating_add(600));
        let this = self.clone();
        tokio::spawn(async move {
            let result = this.config.client.build(address, &request, timeout).await;
            let state = match result {
                Ok(outcome) => DispatchState::Answered(outcome, Instant::now()),
                Err(e) => {
                    let why = crate::causes(&e);
                    if e.is_transient() {
                        tracing::info!(function = %request.label(), %why, "build not answered; it is sent again");
                    } else {
                        tracing::warn!(function = %request.label(), %why, "build answer refused");
                    }
                    DispatchState::Unanswered {
                        why,
                        at: Instant::now(),
                        attempts,
                    }
                }
            };
            let mut dispatches = lock(&this.dispatches);
            // Only if the Function still wants this build.
            if let Some(dispatch) = dispatches.get_mut(&key)
                && dispatch.hash == request.hash
            {
                dispatch.state = state;
            }
            drop(dispatches);
            // The controller stopping drops the receiver: nothing to tell.
            let _ = this.answered.unbounded_send(function);
            // Room for one more build: the longest-waiting Function's turn
            // (one that was sent since it queued needs none).
            if let Some(next) = this.next_waiting() {
                let _ = this.answered.unbounded_send(next);
            }
        });
        Ok(builder)
    }

    /// The longest-waiting Function whose build is still to be sent.
    fn next_waiting(&self) -> Option<ObjectRef<Function>> {
        let dispatches = lock(&self.dispatches);
        let mut waiting = lock(&self.waiting);
        while let Some(next) = waiting.order.pop_front() {
            waiting.queued.remove(&next);
            let key = FunctionKey::new(next.namespace.as_deref().unwrap_or_default(), &next.name);
            let sent = dispatches
                .get(&key)
                .is_some_and(|d| !matches!(d.state, DispatchState::Unanswered { .. }));
            if !sent {
                return Some(next);
            }
        }
        None
    }

    /// The ready builder pod for `hash`, and its address.
    fn pick(&self, hash: &str) -> Option<(String, SocketAddr)> {
        self.pods
            .state()
            .iter()
            .filter(|pod| is_ready(pod) && pod.metadata.deletion_timestamp.is_none())
            .filter_map(|pod| {
                let ip: IpAddr = pod.status.as_ref()?.pod_ip.as_deref()?.parse().ok()?;
                Some((pod.name_any(), SocketAddr::new(ip, self.config.port)))
            })
            .max_by_key(|(name, _)| rendezvous_score(hash, name))
    }
}

/// How long after `attempts` unanswered sends the build is sent again:
/// soon at first (a builder restarting), then backing off to a minute.
fn retry_delay(attempts: u32) -> Duration {
    Duration::from_secs(2u64.saturating_mul(1u64 << attempts.min(5)).min(60))
}

/// The score of pod `name` for build `hash`: the highest-scoring ready
/// pod builds it, so each build has one pod while the set of pods holds,
/// and a pod coming or going moves only its share of builds.
fn rendezvous_score(hash: &str, name: &str) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(hash.as_bytes());
    h.update([0]);
    h.update(name.as_bytes());
    h.finalize().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_build_has_one_pod_and_a_new_pod_takes_only_its_share() {
        let pods = ["builder-a", "builder-b", "builder-c"];
        fn pick<'a>(pods: &[&'a str], hash: &str) -> &'a str {
            pods.iter()
                .max_by_key(|name| rendezvous_score(hash, name))
                .expect("pods")
        }
        let hashes: Vec<String> = (0..300).map(|i| format!("{i:064x}")).collect();
        let before: Vec<&str> = hashes.iter().map(|h| pick(&pods[..2], h)).collect();
        let after: Vec<&str> = hashes.iter().map(|h| pick(&pods, h)).collect();
        let moved = before.iter().zip(&after).filter(|(b, a)| b != a).count();
        // Every build that moved went to the new pod, and about a third moved.
        assert!(before.iter().zip(&after).all(|(b, a)| b == a || *a == "builder-c"));
        assert!((60..140).contains(&moved), "{moved} of 300 moved");
        let on_a = before.iter().filter(|p| **p == "builder-a").count();
        assert!((110..190).contains(&on_a), "{on_a} of 300 on one of two pods");
    }

    #[test]
    fn unanswered_builds_are_sent_again_sooner_first() {
        assert_eq!(retry_delay(0), Duration::from_secs(2));
        assert_eq!(retry_delay(1), Duration::from_secs(4));
        assert_eq!(retry_delay(30), Duration::from_secs(60));
    }
}
