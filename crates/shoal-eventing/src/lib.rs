//! Kyma eventing without Kyma's eventing module: events kept in NATS
//! JetStream (or in process, for `shoal up` without NATS) and delivered
//! straight into the Functions of the process that serves them.
//!
//! This crate owns the event bus ([`Bus`]: the stream, durable consumers,
//! acks), delivery with Kyma's guarantees ([`Dispatcher`]: at least once,
//! ack on a 2xx answer, redelivery after a delay, `maxInFlightMessages`),
//! the publisher endpoint ([`Publisher`], compatible with Kyma's publisher
//! proxy) and CloudEvents over HTTP ([`CloudEvent`]). Subscriptions' shape,
//! validation and names on the bus come from `shoal_api::subscription`.
//!
//! It must not touch Kubernetes or a Function's sandbox: which routes to
//! deliver is decided by its caller (the node follows Subscriptions, `shoal
//! up` reads them from files), and an event reaches a Function only through
//! the [`Sink`] the caller provides, the same path an HTTP request takes.

mod bus;
mod cloudevent;
mod dispatch;
mod jetstream;
mod memory;
mod publisher;

pub use bus::{Bus, BusError, ConsumerConfig, Delivery, StreamConfig};
pub use cloudevent::{CloudEvent, Data, NotACloudEvent};
pub use dispatch::{DispatchConfig, Dispatcher, Route, Sink, Target};
pub use jetstream::JetStream;
pub use memory::MemoryBus;
pub use publisher::{MAX_EVENT_BYTES, Publisher, serve as serve_publisher};

/// The consumer settings of one Subscription type, as eventing-manager
/// sets them (`ack_wait` is Kyma's 30 s unless a test shortens it).
pub fn consumer_config(
    subscription: &shoal_api::Subscription,
    binding: &shoal_api::subscription::Binding,
    ack_wait: std::time::Duration,
) -> ConsumerConfig {
    let namespace = subscription.metadata.namespace.as_deref().unwrap_or("default");
    let name = subscription.metadata.name.as_deref().unwrap_or_default();
    ConsumerConfig {
        name: binding.consumer.clone(),
        subject: binding.subject.clone(),
        max_ack_pending: subscription.max_in_flight(),
        ack_wait,
        max_deliver: shoal_api::subscription::MAX_DELIVERIES,
        description: format!("{namespace}/{name}/{}", binding.subject),
    }
}
