//! A node's part in Kyma eventing: it follows the cluster's Subscriptions
//! and delivers each ready one whose sink Function it serves, from the
//! consumers the controller named in the Subscription's status. Every node
//! serving the Function pulls from the same durable consumers, so each
//! event goes to one of them, and one that dies leaves its events to the
//! others.

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use kube::api::Api;
use kube::runtime::reflector::{self, Store, reflector};
use kube::runtime::{WatchStreamExt, watcher};
use kube::{Client, ResourceExt};
use shoal_api::Subscription;
use shoal_api::subscription::parse_sink;
use shoal_eventing::{Dispatcher, Route, Target};
use shoal_node::{FunctionKey, FunctionTable};

/// What [`follow`] watches: `(apiGroup, resource, cluster-wide)`.
pub const WATCHES: &[(&str, &str, bool)] = &[("eventing.kyma-project.io", "subscriptions", true)];

/// How often the routes are worked out again without a Subscription
/// changing (a sink Function loaded or removed on this node).
const RECHECK: Duration = Duration::from_secs(2);

/// The routes this node delivers: each type of each ready Subscription
/// whose sink is a Function in `table`, from the consumer in its status.
pub fn routes(subscriptions: &[Arc<Subscription>], table: &FunctionTable) -> Vec<Route> {
    let mut routes = Vec::new();
    for s in subscriptions {
        let Some(status) = s.status.as_ref().filter(|st| st.ready) else {
            continue;
        };
        let namespace = s.namespace().unwrap_or_default();
        let Ok(sink) = parse_sink(&s.spec.sink, &namespace) else {
            continue;
        };
        if table
            .get(&FunctionKey::new(sink.namespace.clone(), sink.name.clone()))
            .is_none()
        {
            continue;
        }
        for t in status.backend.types.iter().filter(|t| !t.consumer_name.is_empty()) {
            routes.push(Route {
                subscription: format!("{namespace}/{}", s.name_any()),
                consumer: t.consumer_name.clone(),
                target: Target {
                    namespace: sink.namespace.clone(),
                    function: sink.name.clone(),
                    path: sink.path.clone(),
                },
                max_in_flight: s.max_in_flight(),
            });
        }
    }
    routes
}

/// Keeps `dispatcher` delivering [`routes`] until `shutdown` completes.
pub async fn follow(
    client: Client,
    table: Arc<FunctionTable>,
    dispatcher: Arc<Dispatcher>,
    shutdown: impl std::future::Future<Output = ()> + Send,
) {
    let (store, writer): (Store<Subscription>, _) = reflector::store();
    let api: Api<Subscription> = Api::all(client);
    let mut events = reflector(writer, watcher(api, watcher::Config::default()))
        .default_backoff()
        .boxed();
    let mut tick = tokio::time::interval(RECHECK);
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            _ = &mut shutdown => break,
            event = events.next() => {
                if event.is_none() {
                    break;
                }
            }
            _ = tick.tick() => {}
        }
        dispatcher.set_routes(routes(&store.state(), &table));
    }
    dispatcher.set_routes(Vec::new());
}
