//! The bus on NATS JetStream: one stream (Kyma's `sap` on `kyma.>`,
//! interest retention, new events refused when full), durable pull
//! consumers named and configured as eventing-manager configures its own.
//!
//! Pull consumers let every node replica serving a sink Function take from
//! the same durable consumer: the server hands each event to one of them,
//! and one that dies leaves its events to the others after the ack wait.

use std::time::Duration;

use async_nats::jetstream::{self, consumer, stream};
use bytes::Bytes;
use futures::StreamExt;
use futures::stream::BoxStream;

use crate::bus::{Acker, BusError, ConsumerConfig, Delivery, StreamConfig};

/// A connection to NATS with JetStream.
#[derive(Clone)]
pub struct JetStream {
    url: String,
    client: async_nats::Client,
    context: jetstream::Context,
    stream: StreamConfig,
}

/// Where a delivery's ack goes.
#[derive(Clone)]
pub struct Reply {
    context: jetstream::Context,
    subject: Option<async_nats::Subject>,
}

impl Reply {
    pub(crate) fn acker(&self) -> jetstream::message::Acker {
        jetstream::message::Acker::new(self.context.clone(), self.subject.clone())
    }
}

impl JetStream {
    /// Connects (retrying in the background while the server is down) and
    /// makes sure the stream exists when it can be reached.
    ///
    /// # Errors
    ///
    /// When the URL cannot be used at all.
    pub async fn connect(url: &str, stream: StreamConfig) -> Result<Self, BusError> {
        let client = async_nats::ConnectOptions::new()
            .name("shoal")
            .retry_on_initial_connect()
            .max_reconnects(None)
            .connect(url)
            .await
            .map_err(|e| BusError::nats(format!("connecting to NATS at {url}"), e))?;
        // The first connection is made in the background; wait a moment for
        // it so a server that is up is used from the first event.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        while client.connection_state() != async_nats::connection::State::Connected
            && tokio::time::Instant::now() < deadline
        {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let context = jetstream::ContextBuilder::new()
            .timeout(Duration::from_secs(5))
            .build(client.clone());
        let js = Self {
            url: url.to_string(),
            client,
            context,
            stream,
        };
        // The server may not be up yet: the stream is made again before the
        // first publish or consumer.
        if let Err(e) = js.ensure_stream().await {
            tracing::warn!(url, error = %e, "event stream not ready yet");
        }
        Ok(js)
    }

    /// Whether the connection is up.
    pub fn is_connected(&self) -> bool {
        self.client.connection_state() == async_nats::connection::State::Connected
    }

    fn check_connected(&self) -> Result<(), BusError> {
        if self.is_connected() {
            Ok(())
        } else {
            Err(BusError::Disconnected(self.url.clone()))
        }
    }

    async fn ensure_stream(&self) -> Result<stream::Stream, BusError> {
        self.check_connected()?;
        let wanted = stream::Config {
            name: self.stream.name.clone(),
            subjects: self.stream.subjects.clone(),
            storage: if self.stream.file_storage {
                stream::StorageType::File
            } else {
                stream::StorageType::Memory
            },
            retention: stream::RetentionPolicy::Interest,
            discard: stream::DiscardPolicy::New,
            max_messages: -1,
            max_bytes: self.stream.max_bytes,
            max_messages_per_subject: 1_000_000,
            num_replicas: self.stream.replicas,
            ..Default::default()
        };
        self.context
            .get_or_create_stream(wanted)
            .await
            .map_err(|e| BusError::nats(format!("creating the event stream {}", self.stream.name), e))
    }

    async fn stream(&self) -> Result<stream::Stream, BusError> {
        self.check_connected()?;
        match self.context.get_stream(&self.stream.name).await {
            Ok(s) => Ok(s),
            Err(_) => self.ensure_stream().await,
        }
    }

    pub(crate) async fn publish(
        &self,
        subject: &str,
        headers: &[(&str, &str)],
        payload: Bytes,
    ) -> Result<(), BusError> {
        self.check_connected()?;
        let mut map = async_nats::HeaderMap::new();
        for (k, v) in headers {
            map.insert(*k, *v);
        }
        let send = |map| {
            self.context
                .publish_with_headers(subject.to_string(), map, payload.clone())
        };
        let ack = match send(map.clone()).await {
            Ok(ack) => ack.await,
            Err(e) => return Err(publish_error(e)),
        };
        match ack {
            Ok(_) => Ok(()),
            // No stream answered: it is made (the server may have been
            // reset) and the event sent once more.
            Err(e) if e.kind() == jetstream::context::PublishErrorKind::StreamNotFound => {
                self.ensure_stream().await?;
                send(map)
                    .await
                    .map_err(publish_error)?
                    .await
                    .map(|_| ())
                    .map_err(publish_error)
            }
            Err(e) => Err(publish_error(e)),
        }
    }

    pub(crate) async fn ensure_consumer(&self, config: &ConsumerConfig) -> Result<(), BusError> {
        let stream = self.ensure_stream().await?;
        // Creating a durable consumer with a changed configuration updates
        // it (NATS 2.9 and later), so maxInFlightMessages edits take effect.
        stream
            .create_consumer(pull_config(config))
            .await
            .map(|_| ())
            .map_err(|e| BusError::nats(format!("creating consumer {}", config.name), e))
    }

    pub(crate) async fn delete_consumer(&self, name: &str) -> Result<(), BusError> {
        let stream = self.stream().await?;
        match stream.delete_consumer(name).await {
            Ok(_) => Ok(()),
            Err(e) if e.to_string().contains("not found") => Ok(()),
            Err(e) => Err(BusError::nats(format!("deleting consumer {name}"), e)),
        }
    }

    pub(crate) async fn deliveries(&self, name: &str, batch: u32) -> Result<BoxStream<'static, Delivery>, BusError> {
        let stream = self.stream().await?;
        let consumer: consumer::Consumer<consumer::pull::Config> = stream
            .get_consumer(name)
            .await
            .map_err(|_| BusError::NoConsumer(name.to_string()))?;
        let messages = consumer
            .stream()
            .max_messages_per_batch(batch.max(1) as usize)
            .heartbeat(Duration::from_secs(5))
            .expires(Duration::from_secs(30))
            .messages()
            .await
            .map_err(|e| BusError::nats(format!("pulling from consumer {name}"), e))?;
        let context = self.context.clone();
        let name = name.to_string();
        let deliveries = messages
            .take_while(move |m| {
                let go_on = match m {
                    Ok(_) => true,
                    Err(e) => {
                        use consumer::pull::MessagesErrorKind as K;
                        let fatal = matches!(
                            e.kind(),
                            K::ConsumerDeleted | K::PushBasedConsumer | K::RequestLimitExceeded | K::Pull
                        );
                        tracing::debug!(consumer = name, error = %e, fatal, "pull");
                        !fatal
                    }
                };
                std::future::ready(go_on)
            })
            .filter_map(move |m| {
                let context = context.clone();
                std::future::ready(m.ok().map(|m| {
                    let attempt = m.info().map(|i| i.delivered).unwrap_or(1);
                    let message = m.message;
                    Delivery {
                        subject: message.subject.to_string(),
                        payload: message.payload,
                        attempt,
                        acker: Acker::JetStream(Box::new(Reply {
                            context,
                            subject: message.reply,
                        })),
                    }
                }))
            });
        Ok(deliveries.boxed())
    }
}

fn pull_config(config: &ConsumerConfig) -> consumer::pull::Config {
    consumer::pull::Config {
        durable_name: Some(config.name.clone()),
        description: Some(config.description.clone()),
        deliver_policy: consumer::DeliverPolicy::New,
        ack_policy: consumer::AckPolicy::Explicit,
        ack_wait: config.ack_wait,
        max_deliver: config.max_deliver,
        max_ack_pending: i64::from(config.max_ack_pending),
        filter_subject: config.subject.clone(),
        replay_policy: consumer::ReplayPolicy::Instant,
        ..Default::default()
    }
}

fn publish_error(e: jetstream::context::PublishError) -> BusError {
    use jetstream::context::PublishErrorKind as K;
    match e.kind() {
        K::TimedOut => BusError::TimedOut,
        K::StreamNotFound => BusError::TimedOut,
        K::BrokenPipe => BusError::Disconnected(String::from("NATS")),
        _ if e.to_string().contains("insufficient resources") || e.to_string().contains("maximum bytes") => {
            BusError::Full
        }
        _ => BusError::nats("publishing the event", e),
    }
}
