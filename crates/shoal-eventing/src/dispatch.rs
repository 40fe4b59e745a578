//! Delivery into Functions: one loop per Subscription type whose sink this
//! process serves, taking events from its durable consumer and handing each
//! to the [`Sink`] as a binary-mode CloudEvent request, with Kyma's rules:
//! a 2xx answer acks the event, anything else (or no answer within the
//! Function's timeout) gives it back to be delivered again after the retry
//! delay, and at most `maxInFlightMessages` are out at once.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use futures::StreamExt;
use futures::future::BoxFuture;
use http::{Method, Request, StatusCode};
use tokio::sync::Semaphore;
use tokio::task::JoinHandle;
use tracing::Instrument;

use crate::bus::{Bus, BusError, Delivery};
use crate::cloudevent::CloudEvent;

/// The Function a Subscription's events go to.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Target {
    /// Its namespace.
    pub namespace: String,
    /// Its name (its Service's).
    pub function: String,
    /// The sink URL's path.
    pub path: String,
}

/// Hands one event to a Function and says how it answered.
pub trait Sink: Send + Sync + 'static {
    /// Invokes `target` with `request` (a binary-mode CloudEvent POST) as
    /// if it had come over HTTP, returning the answer's status.
    fn deliver(&self, target: &Target, request: Request<Bytes>) -> BoxFuture<'static, StatusCode>;
}

/// One Subscription type to deliver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    /// `<namespace>/<name>` of the Subscription, for logs.
    pub subscription: String,
    /// Its durable consumer.
    pub consumer: String,
    /// Where its events go.
    pub target: Target,
    /// Events out at once.
    pub max_in_flight: u32,
}

/// Delivery timing.
#[derive(Debug, Clone, Copy)]
pub struct DispatchConfig {
    /// How long a failed event waits before its next delivery (Kyma: 30 s).
    pub retry_delay: Duration,
    /// How often a delivery still running tells the bus so, so that it is
    /// not handed to another node meanwhile (well within the ack wait).
    pub progress_every: Duration,
}

impl Default for DispatchConfig {
    fn default() -> Self {
        Self {
            retry_delay: Duration::from_secs(30),
            progress_every: Duration::from_secs(10),
        }
    }
}

/// Runs the delivery loops of a set of routes; see the module documentation.
pub struct Dispatcher {
    bus: Bus,
    sink: Arc<dyn Sink>,
    config: DispatchConfig,
    running: Mutex<BTreeMap<String, (Route, JoinHandle<()>)>>,
}

impl Drop for Dispatcher {
    fn drop(&mut self) {
        let running = self.running.get_mut().unwrap_or_else(|p| p.into_inner());
        for (_, (_, task)) in std::mem::take(running) {
            task.abort();
        }
    }
}

impl Dispatcher {
    /// A dispatcher delivering from `bus` into `sink`.
    pub fn new(bus: Bus, sink: Arc<dyn Sink>, config: DispatchConfig) -> Self {
        Self {
            bus,
            sink,
            config,
            running: Mutex::new(BTreeMap::new()),
        }
    }

    /// Delivers exactly `routes` from now on: loops of routes no longer
    /// wanted stop (their events out are redelivered elsewhere), new ones
    /// start, changed ones restart.
    pub fn set_routes(&self, routes: Vec<Route>) {
        let mut running = self.running.lock().unwrap_or_else(|p| p.into_inner());
        let wanted: BTreeMap<String, Route> = routes.into_iter().map(|r| (r.consumer.clone(), r)).collect();
        running.retain(|consumer, (route, task)| {
            let keep = wanted.get(consumer) == Some(route);
            if !keep {
                task.abort();
                tracing::info!(subscription = route.subscription, consumer, "delivery stopped");
            }
            keep
        });
        for (consumer, route) in wanted {
            if running.contains_key(&consumer) {
                continue;
            }
            tracing::info!(
                subscription = route.subscription,
                consumer,
                function = format!("{}/{}", route.target.namespace, route.target.function),
                max_in_flight = route.max_in_flight,
                "delivery started"
            );
            let task = tokio::spawn(deliver_loop(
                self.bus.clone(),
                self.sink.clone(),
                self.config,
                route.clone(),
            ));
            running.insert(consumer, (route, task));
        }
    }

    /// The routes being delivered.
    pub fn routes(&self) -> Vec<Route> {
        let running = self.running.lock().unwrap_or_else(|p| p.into_inner());
        running.values().map(|(r, _)| r.clone()).collect()
    }
}

/// Takes events from the route's consumer for as long as it runs, starting
/// over (after a pause) whenever the consumer is missing or the connection
/// drops.
async fn deliver_loop(bus: Bus, sink: Arc<dyn Sink>, config: DispatchConfig, route: Route) {
    let permits = Arc::new(Semaphore::new(route.max_in_flight.max(1) as usize));
    let mut pause = Duration::from_millis(200);
    loop {
        match bus.deliveries(&route.consumer, route.max_in_flight).await {
            Ok(mut deliveries) => {
                pause = Duration::from_millis(200);
                loop {
                    // A permit first: events are taken only when one can go
                    // out, so none waits here while its ack wait runs.
                    let Ok(permit) = permits.clone().acquire_owned().await else {
                        return;
                    };
                    let Some(delivery) = deliveries.next().await else {
                        break;
                    };
                    let sink = sink.clone();
                    let route = route.clone();
                    tokio::spawn(async move {
                        deliver_one(&*sink, &route, config, delivery).await;
                        drop(permit);
                    });
                }
            }
            Err(BusError::NoConsumer(_)) => {
                tracing::debug!(consumer = route.consumer, "consumer not there yet");
            }
            Err(e) => {
                tracing::warn!(subscription = route.subscription, error = %e, "cannot take events; trying again");
            }
        }
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(Duration::from_secs(5));
    }
}

async fn deliver_one(sink: &dyn Sink, route: &Route, config: DispatchConfig, delivery: Delivery) {
    let event = match serde_json::from_slice(&delivery.payload)
        .map_err(|e| e.to_string())
        .and_then(|v| CloudEvent::from_structured(v).map_err(|e| e.0))
    {
        Ok(event) => restore_type(event),
        Err(error) => {
            tracing::warn!(
                subscription = route.subscription,
                error,
                "an event on the bus is not a CloudEvent: dropped"
            );
            delivery.term().await;
            return;
        }
    };
    let span = tracing::info_span!(
        "deliver",
        namespace = route.target.namespace,
        function = route.target.function,
        subscription = route.subscription,
        event_type = event.event_type,
        id = event.id,
        attempt = delivery.attempt,
    );
    deliver_event(sink, route, config, delivery, event)
        .instrument(span)
        .await;
}

async fn deliver_event(sink: &dyn Sink, route: &Route, config: DispatchConfig, delivery: Delivery, event: CloudEvent) {
    let (headers, body) = event.to_binary();
    let mut request = Request::new(body);
    *request.method_mut() = Method::POST;
    *request.uri_mut() = route
        .target
        .path
        .parse()
        .unwrap_or_else(|_| http::Uri::from_static("/"));
    *request.headers_mut() = headers;
    let progress = delivery.progress();
    let answer = sink.deliver(&route.target, request);
    tokio::pin!(answer);
    let status = loop {
        tokio::select! {
            status = &mut answer => break status,
            _ = tokio::time::sleep(config.progress_every) => progress.touch().await,
        }
    };
    if status.is_success() {
        tracing::debug!(%status, "event delivered");
        delivery.ack().await;
    } else {
        tracing::info!(%status, retry_in = ?config.retry_delay, "event not accepted; delivered again later");
        delivery.nak(config.retry_delay).await;
    }
}

/// The type the publisher gave: the publisher endpoint keeps it in the
/// `originaltype` extension (the bus's type is the subject). Kyma's
/// dispatcher restores it the same way and leaves the extension on.
fn restore_type(mut event: CloudEvent) -> CloudEvent {
    if let Some(original) = event.extensions.get("originaltype") {
        event.event_type = original.clone();
    } else if let Some(rest) = event.event_type.strip_prefix(&format!(
        "{}.{}.",
        shoal_api::subscription::SUBJECT_PREFIX,
        event.source
    )) {
        event.event_type = rest.to_string();
    }
    event
}
