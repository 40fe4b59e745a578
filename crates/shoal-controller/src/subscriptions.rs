//! Kyma Subscriptions on Shoal's eventing: each one validated as
//! eventing-manager validates it, its sink resolved to a Shoal Function,
//! one durable JetStream consumer made per type, and the outcome in its
//! status (`Subscription spec valid`, `Subscription active`, `types`,
//! `backend.types`) and as Events. Node servers deliver from the consumers
//! this reconciler names in the status; it never delivers events itself.

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::api::core::v1::Service;
use kube::api::{Api, Patch, PatchParams};
use kube::runtime::controller::{Action, Config as ControllerRuntime, Controller};
use kube::runtime::events::{Event, EventType, Recorder, Reporter};
use kube::runtime::finalizer::{self, finalizer};
use kube::runtime::reflector::{ObjectRef, Store};
use kube::runtime::{WatchStreamExt, reflector, watcher};
use kube::{Client, Resource, ResourceExt};
use shoal_api::subscription::{
    self as sub, Backend, CONDITION_ACTIVE, CONDITION_SPEC_VALID, JetStreamType, REASON_ACTIVE, REASON_NOT_ACTIVE,
    REASON_SPEC_INVALID, REASON_SPEC_VALID, SinkService,
};
use shoal_api::{ConditionStatus, Function, Subscription, SubscriptionStatus, cluster};
use shoal_eventing::Bus;

/// What [`run`] watches: `(apiGroup, resource, cluster-wide)`.
pub const WATCHES: &[(&str, &str, bool)] = &[
    ("eventing.kyma-project.io", "subscriptions", true),
    ("serverless.kyma-project.io", "functions", true),
];

/// Kyma's finalizer on Subscriptions: the consumers go before the object.
pub const FINALIZER: &str = "eventing.kyma-project.io";

/// A Subscription with a problem outside its spec (its sink not a
/// Function yet, the bus down) is looked at again after this long.
const RETRY: Duration = Duration::from_secs(10);

/// What a reconcile needs.
pub struct SubscriptionContext {
    client: Client,
    bus: Bus,
    ack_wait: Duration,
    functions: Store<Function>,
    recorder: Recorder,
}

impl SubscriptionContext {
    /// A context making consumers on `bus` and reading Functions from
    /// `functions` (the store [`run`] fills from its watch).
    pub fn new(client: Client, bus: Bus, ack_wait: Duration, functions: Store<Function>) -> Self {
        let reporter = Reporter {
            controller: cluster::CONTROLLER_MANAGER.into(),
            instance: std::env::var("POD_NAME").ok(),
        };
        Self {
            recorder: Recorder::new(client.clone(), reporter),
            client,
            bus,
            ack_wait,
            functions,
        }
    }
}

/// Why a pass failed (it is retried).
#[derive(Debug, thiserror::Error)]
pub enum SubscriptionError {
    /// The API server refused or could not be reached.
    #[error("writing the Subscription")]
    Kube(#[source] Box<finalizer::Error<kube::Error>>),
}

/// Reconciles Subscriptions until `shutdown` completes.
pub async fn run(
    client: Client,
    bus: Bus,
    ack_wait: Duration,
    shutdown: impl std::future::Future<Output = ()> + Send + Sync + 'static,
) {
    let subscriptions: Api<Subscription> = Api::all(client.clone());
    let controller = Controller::new(subscriptions, watcher::Config::default());
    let store = controller.store();
    let (functions, writer) = reflector::store();
    // A Function appearing or going changes whether a Subscription's sink
    // is a Function: its Subscriptions are looked at again.
    let function_triggers = reflector(
        writer,
        watcher(Api::<Function>::all(client.clone()), watcher::Config::default()),
    )
    .default_backoff()
    .touched_objects()
    .flat_map(move |f| {
        let refs: Vec<ObjectRef<Subscription>> = match f {
            Ok(f) => sinks_of(&store, &f),
            Err(_) => Vec::new(),
        };
        futures::stream::iter(refs)
    });
    let context = Arc::new(SubscriptionContext::new(client, bus, ack_wait, functions));
    controller
        .with_config(ControllerRuntime::default().concurrency(4))
        .reconcile_on(function_triggers)
        .graceful_shutdown_on(shutdown)
        .run(reconcile, error_policy, context)
        .for_each(|_| std::future::ready(()))
        .await;
}

/// The Subscriptions whose sink names `function`.
fn sinks_of(store: &Store<Subscription>, function: &Function) -> Vec<ObjectRef<Subscription>> {
    let namespace = function.namespace().unwrap_or_default();
    store
        .state()
        .iter()
        .filter(|s| {
            s.namespace().as_deref() == Some(namespace.as_str())
                && sub::parse_sink(&s.spec.sink, &namespace).is_ok_and(|sink| sink.name == function.name_any())
        })
        .map(|s| ObjectRef::from_obj(s.as_ref()))
        .collect()
}

fn error_policy(subscription: Arc<Subscription>, error: &SubscriptionError, _: Arc<SubscriptionContext>) -> Action {
    tracing::warn!(
        namespace = subscription.namespace().unwrap_or_default(),
        name = subscription.name_any(),
        error = %crate::causes(error),
        "reconciling the Subscription failed; retrying"
    );
    Action::requeue(RETRY)
}

/// One pass: the finalizer, then apply or clean up.
#[tracing::instrument(skip_all, fields(namespace = subscription.namespace().unwrap_or_default(), name = subscription.name_any()))]
pub async fn reconcile(
    subscription: Arc<Subscription>,
    ctx: Arc<SubscriptionContext>,
) -> Result<Action, SubscriptionError> {
    let api: Api<Subscription> = Api::namespaced(ctx.client.clone(), &subscription.namespace().unwrap_or_default());
    finalizer(&api, FINALIZER, subscription, |event| async {
        match event {
            finalizer::Event::Apply(s) => apply(&s, &ctx).await,
            finalizer::Event::Cleanup(s) => cleanup(&s, &ctx).await,
        }
    })
    .await
    .map_err(|e| SubscriptionError::Kube(Box::new(e)))
}

/// What a pass decided.
struct Outcome {
    status: SubscriptionStatus,
    next: Action,
}

async fn apply(s: &Subscription, ctx: &SubscriptionContext) -> Result<Action, kube::Error> {
    let before = s.status.clone().unwrap_or_default();
    let outcome = decide(s, ctx, before.clone()).await;
    let old_consumers: Vec<&str> = before.backend.types.iter().map(|t| t.consumer_name.as_str()).collect();
    let kept: Vec<&str> = outcome
        .status
        .backend
        .types
        .iter()
        .map(|t| t.consumer_name.as_str())
        .collect();
    for stale in old_consumers.iter().filter(|c| !kept.contains(c)) {
        if let Err(e) = ctx.bus.delete_consumer(stale).await {
            tracing::warn!(consumer = stale, error = %e, "deleting a consumer no longer wanted");
        }
    }
    if outcome.status != before {
        write_status(s, ctx, &outcome.status).await?;
        record_events(s, ctx, &before, &outcome.status).await;
    }
    Ok(outcome.next)
}

/// The status the Subscription should have, its consumers made.
async fn decide(s: &Subscription, ctx: &SubscriptionContext, mut status: SubscriptionStatus) -> Outcome {
    let sink = match s.validate() {
        Ok(sink) => sink,
        Err(invalid) => {
            // As eventing-manager: an invalid spec clears the status and
            // waits for the spec to change.
            status = SubscriptionStatus::default();
            set(
                &mut status,
                CONDITION_SPEC_VALID,
                false,
                REASON_SPEC_INVALID,
                Some(invalid.to_string()),
            );
            return Outcome {
                status,
                next: Action::await_change(),
            };
        }
    };
    if let Some(problem) = sink_problem(s, ctx, &sink).await {
        let (spec_valid, message) = problem;
        status.ready = false;
        status.backend = Backend::default();
        if spec_valid {
            set(&mut status, CONDITION_SPEC_VALID, true, REASON_SPEC_VALID, None);
            set(&mut status, CONDITION_ACTIVE, false, REASON_NOT_ACTIVE, Some(message));
        } else {
            status.types.clear();
            status.conditions.retain(|c| c.type_ == CONDITION_SPEC_VALID);
            set(
                &mut status,
                CONDITION_SPEC_VALID,
                false,
                REASON_SPEC_INVALID,
                Some(message),
            );
        }
        return Outcome {
            status,
            next: Action::requeue(RETRY * 3),
        };
    }
    set(&mut status, CONDITION_SPEC_VALID, true, REASON_SPEC_VALID, None);
    let bindings = s.bindings();
    status.types = bindings
        .iter()
        .map(|b| sub::EventType {
            original_type: b.original_type.clone(),
            clean_type: b.clean_type.clone(),
        })
        .collect();
    for binding in &bindings {
        let config = shoal_eventing::consumer_config(s, binding, ctx.ack_wait);
        if let Err(e) = ctx.bus.ensure_consumer(&config).await {
            status.ready = false;
            set(
                &mut status,
                CONDITION_ACTIVE,
                false,
                REASON_NOT_ACTIVE,
                Some(format!("the event backend (NATS JetStream) cannot be used: {e}")),
            );
            return Outcome {
                status,
                next: Action::requeue(RETRY),
            };
        }
    }
    status.backend.types = bindings
        .iter()
        .map(|b| JetStreamType {
            original_type: b.original_type.clone(),
            consumer_name: b.consumer.clone(),
        })
        .collect();
    status.ready = true;
    set(&mut status, CONDITION_ACTIVE, true, REASON_ACTIVE, None);
    // Looked at again now and then: a NATS server that lost its state
    // (memory storage, a new server) gets the consumers back.
    Outcome {
        status,
        next: Action::requeue(Duration::from_secs(300)),
    }
}

/// Why the sink cannot receive events: `(spec still valid, message)`.
async fn sink_problem(s: &Subscription, ctx: &SubscriptionContext, sink: &SinkService) -> Option<(bool, String)> {
    let function = ObjectRef::<Function>::new(&sink.name).within(&sink.namespace);
    if ctx.functions.get(&function).is_some() {
        return None;
    }
    let services: Api<Service> = Api::namespaced(ctx.client.clone(), &sink.namespace);
    match services.get_opt(&sink.name).await {
        Ok(None) => Some((
            false,
            format!(
                "Subscription validation failed: Sink validation failed: service {}.{} not found in the cluster",
                sink.name, sink.namespace
            ),
        )),
        Ok(Some(_)) => Some((
            true,
            format!(
                "the sink {} is not a Shoal Function: Service {}/{} exists, but no Function of that name; events are delivered to Functions only",
                s.spec.sink, sink.namespace, sink.name
            ),
        )),
        Err(e) => Some((true, format!("looking up the sink's Service: {e}"))),
    }
}

fn set(status: &mut SubscriptionStatus, type_: &str, ok: bool, reason: &str, message: Option<String>) {
    Subscription::with_condition(status, sub::condition(type_, ok, reason, message));
}

async fn write_status(
    s: &Subscription,
    ctx: &SubscriptionContext,
    status: &SubscriptionStatus,
) -> Result<(), kube::Error> {
    let api: Api<Subscription> = Api::namespaced(ctx.client.clone(), &s.namespace().unwrap_or_default());
    let patch = serde_json::json!({
        "apiVersion": "eventing.kyma-project.io/v1alpha2",
        "kind": "Subscription",
        "status": status,
    });
    api.patch_status(
        &s.name_any(),
        &PatchParams::apply(cluster::CONTROLLER_MANAGER).force(),
        &Patch::Apply(&patch),
    )
    .await
    .map(|_| ())
}

/// An Event per condition that changed.
async fn record_events(
    s: &Subscription,
    ctx: &SubscriptionContext,
    before: &SubscriptionStatus,
    after: &SubscriptionStatus,
) {
    for condition in &after.conditions {
        let was = before.conditions.iter().find(|c| c.type_ == condition.type_);
        if was.is_some_and(|w| w.status == condition.status && w.message == condition.message) {
            continue;
        }
        let ok = condition.status == ConditionStatus::True;
        let event = Event {
            type_: if ok { EventType::Normal } else { EventType::Warning },
            reason: condition.reason.clone().unwrap_or_default().replace(' ', ""),
            note: condition.message.clone().or_else(|| Some(condition.type_.clone())),
            action: "Reconcile".into(),
            secondary: None,
        };
        if let Err(e) = ctx.recorder.publish(&event, &s.object_ref(&())).await {
            tracing::warn!(error = %e, "recording an Event");
        }
    }
}

/// The object goes: its consumers first (their pending events with them).
async fn cleanup(s: &Subscription, ctx: &SubscriptionContext) -> Result<Action, kube::Error> {
    let mut consumers: Vec<String> = s
        .status
        .iter()
        .flat_map(|st| st.backend.types.iter().map(|t| t.consumer_name.clone()))
        .collect();
    consumers.extend(s.bindings().into_iter().map(|b| b.consumer));
    consumers.sort();
    consumers.dedup();
    for c in consumers {
        if let Err(e) = ctx.bus.delete_consumer(&c).await {
            tracing::warn!(consumer = c, error = %e, "deleting the Subscription's consumer");
        }
    }
    Ok(Action::await_change())
}
