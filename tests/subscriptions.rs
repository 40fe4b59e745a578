//! The Subscription reconciler against the recording API: what it writes
//! into a Subscription's status for each kind of sink and spec, the
//! consumers it makes and deletes on the bus (the in-process one, which
//! keeps JetStream's rules), and the API calls it makes (the chart's RBAC
//! is checked against them in `chart`).

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use kube::runtime::reflector;
use kube::runtime::watcher;
use serde_json::json;
use shoal_api::subscription::{CONDITION_ACTIVE, CONDITION_SPEC_VALID};
use shoal_api::{ConditionStatus, Function, Subscription};
use shoal_controller::subscriptions::{SubscriptionContext, reconcile};
use shoal_eventing::Bus;
use shoal_tests::fake_kube::{Call, FakeKube, object_path};

const NS: &str = "shop";

fn function(name: &str) -> Function {
    serde_json::from_value(json!({
        "apiVersion": "serverless.kyma-project.io/v1alpha2", "kind": "Function",
        "metadata": {"name": name, "namespace": NS},
        "spec": {"runtime": "nodejs24", "source": {"inline": {"source": "module.exports = {main: () => 'ok'}"}}}
    }))
    .unwrap()
}

fn subscription(name: &str, sink: &str, types: &[&str]) -> serde_json::Value {
    json!({
        "apiVersion": "eventing.kyma-project.io/v1alpha2", "kind": "Subscription",
        "metadata": {"name": name, "namespace": NS},
        "spec": {"sink": sink, "source": "commerce", "types": types, "config": {"maxInFlightMessages": "5"}}
    })
}

struct Setup {
    fake: Arc<FakeKube>,
    bus: Bus,
    ctx: Arc<SubscriptionContext>,
}

fn setup(bus: Bus, functions: &[&str]) -> Setup {
    let fake = FakeKube::new();
    let (store, mut writer) = reflector::store::<Function>();
    writer.apply_watcher_event(&watcher::Event::Init);
    for f in functions {
        let f = function(f);
        fake.put(&f);
        writer.apply_watcher_event(&watcher::Event::InitApply(f));
    }
    writer.apply_watcher_event(&watcher::Event::InitDone);
    let ctx = Arc::new(SubscriptionContext::new(
        fake.client(),
        bus.clone(),
        Duration::from_secs(30),
        store,
    ));
    Setup { fake, bus, ctx }
}

impl Setup {
    fn path(name: &str) -> String {
        object_path("eventing.kyma-project.io/v1alpha2", "Subscription", Some(NS), name)
    }

    /// Reconciles until the pass changes nothing more (the finalizer is
    /// added by a first pass, as on a cluster).
    async fn settle(&self, name: &str) -> Subscription {
        for _ in 0..3 {
            let s: Subscription = self.fake.get_as(&Self::path(name)).expect("the Subscription");
            reconcile(Arc::new(s), self.ctx.clone()).await.expect("a pass");
        }
        self.fake.get_as(&Self::path(name)).unwrap()
    }
}

fn condition(s: &Subscription, type_: &str) -> (ConditionStatus, String, String) {
    let c = s
        .status
        .as_ref()
        .and_then(|st| st.conditions.iter().find(|c| c.type_ == type_))
        .unwrap_or_else(|| panic!("no {type_} condition in {:?}", s.status));
    (
        c.status,
        c.reason.clone().unwrap_or_default(),
        c.message.clone().unwrap_or_default(),
    )
}

/// The API calls of the reconciler's passes over every outcome (the chart
/// test grants exactly what these need).
pub async fn subscription_calls() -> Vec<Call> {
    let setup = setup(Bus::memory(), &["orders"]);
    setup.fake.put(
        json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "legacy", "namespace": NS},
        "spec": {"ports": [{"port": 80}]}}),
    );
    for (name, sink) in [
        ("ok", "http://orders.shop.svc.cluster.local"),
        ("not-a-function", "http://legacy.shop.svc.cluster.local"),
        ("nothing", "http://ghost.shop.svc.cluster.local"),
    ] {
        setup.fake.put(subscription(name, sink, &["order.created.v1"]));
        setup.settle(name).await;
    }
    setup.fake.calls()
}

#[tokio::test]
async fn a_subscription_to_a_function_gets_its_consumers_and_a_ready_status() {
    let setup = setup(Bus::memory(), &["orders"]);
    setup.fake.put(subscription(
        "on-order",
        "http://orders.shop.svc.cluster.local",
        &["order.created.v1", "order.paid.v1"],
    ));
    let s = setup.settle("on-order").await;
    let status = s.status.clone().unwrap();
    assert!(status.ready, "{status:?}");
    assert_eq!(
        s.metadata.finalizers,
        Some(vec!["eventing.kyma-project.io".to_string()])
    );
    assert_eq!(
        condition(&s, CONDITION_SPEC_VALID),
        (
            ConditionStatus::True,
            "Subscription spec has no validation errors".into(),
            String::new()
        )
    );
    assert_eq!(
        condition(&s, CONDITION_ACTIVE),
        (ConditionStatus::True, "NATS Subscription active".into(), String::new())
    );
    let bindings = s.bindings();
    assert_eq!(status.types.len(), 2);
    assert_eq!(status.types[0].clean_type, "order.created.v1");
    let consumers: Vec<String> = status.backend.types.iter().map(|t| t.consumer_name.clone()).collect();
    assert_eq!(
        consumers,
        bindings.iter().map(|b| b.consumer.clone()).collect::<Vec<_>>()
    );
    // The consumers exist and deliver what is published on their subjects.
    setup
        .bus
        .publish(&bindings[1].subject, &[], bytes::Bytes::from_static(b"{}"))
        .await
        .unwrap();
    let mut paid = setup
        .bus
        .deliveries(&consumers[1], 5)
        .await
        .expect("the consumer exists");
    assert_eq!(paid.next().await.unwrap().subject, "kyma.commerce.order.paid.v1");

    // A type removed: its consumer goes. The Subscription deleted: all go.
    setup.fake.update(&Setup::path("on-order"), |s| {
        s["spec"]["types"] = json!(["order.created.v1"]);
    });
    let s = setup.settle("on-order").await;
    assert_eq!(s.status.unwrap().backend.types.len(), 1);
    assert!(
        setup.bus.deliveries(&consumers[1], 5).await.is_err(),
        "order.paid.v1's consumer is gone"
    );
    setup.fake.update(&Setup::path("on-order"), |s| {
        s["metadata"]["deletionTimestamp"] = json!("2026-11-26T12:00:00Z");
    });
    let s: Subscription = setup.fake.get_as(&Setup::path("on-order")).unwrap();
    reconcile(Arc::new(s), setup.ctx.clone()).await.unwrap();
    assert!(
        setup.bus.deliveries(&consumers[0], 5).await.is_err(),
        "no consumer outlives its Subscription"
    );
    let left: Option<Subscription> = setup.fake.get_as(&Setup::path("on-order"));
    assert!(left.is_none_or(|s| s.metadata.finalizers.unwrap_or_default().is_empty()));
}

#[tokio::test]
async fn a_sink_that_is_not_a_function_or_an_invalid_spec_says_why_in_the_status() {
    let setup = setup(Bus::memory(), &["orders"]);
    setup.fake.put(
        json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "legacy", "namespace": NS},
        "spec": {"ports": [{"port": 80}]}}),
    );
    setup.fake.put(subscription(
        "to-legacy",
        "http://legacy.shop.svc.cluster.local",
        &["a.b"],
    ));
    let s = setup.settle("to-legacy").await;
    assert!(!s.status.as_ref().unwrap().ready);
    let (status, reason, message) = condition(&s, CONDITION_ACTIVE);
    assert_eq!(
        (status, reason.as_str()),
        (ConditionStatus::False, "NATS Subscription not active")
    );
    assert!(message.contains("is not a Shoal Function"), "{message}");

    setup.fake.put(subscription(
        "to-nothing",
        "http://ghost.shop.svc.cluster.local",
        &["a.b"],
    ));
    let s = setup.settle("to-nothing").await;
    let (status, _, message) = condition(&s, CONDITION_SPEC_VALID);
    assert_eq!(status, ConditionStatus::False);
    assert_eq!(
        message,
        "Subscription validation failed: Sink validation failed: service ghost.shop not found in the cluster"
    );

    setup
        .fake
        .put(subscription("bad", "http://orders.other.svc.cluster.local", &["order"]));
    let s = setup.settle("bad").await;
    let status = s.status.clone().unwrap();
    assert!(!status.ready && status.types.is_empty() && status.backend.types.is_empty());
    let (_, reason, message) = condition(&s, CONDITION_SPEC_VALID);
    assert_eq!(reason, "Subscription spec has validation errors");
    assert_eq!(
        message,
        r#"Subscription validation failed: [spec.types: Invalid value: "order": must have minimum 2 segments, metadata.namespace: Invalid value: "shop": must have the same namespace as the subscriber: other]"#
    );
}

#[tokio::test]
async fn a_subscription_says_when_the_event_backend_is_down() {
    // A NATS URL where nothing listens: the controller keeps trying in the
    // background; the status says why nothing is delivered meanwhile.
    let url = format!("nats://127.0.0.1:{}", shoal_tests::free_port());
    let bus = Bus::connect(&url, shoal_eventing::StreamConfig::default())
        .await
        .unwrap();
    let setup = setup(bus, &["orders"]);
    setup.fake.put(subscription(
        "on-order",
        "http://orders.shop.svc.cluster.local",
        &["a.b"],
    ));
    let s = setup.settle("on-order").await;
    assert!(!s.status.as_ref().unwrap().ready);
    let (status, _, message) = condition(&s, CONDITION_ACTIVE);
    assert_eq!(status, ConditionStatus::False);
    assert!(
        message.contains("the event backend (NATS JetStream) cannot be used") && message.contains(&url),
        "{message}"
    );
}
