//! The event bus: NATS JetStream, or an in-process bus with the same
//! delivery rules for `shoal up` without a NATS server.
//!
//! Both keep one stream of events by subject, durable consumers that each
//! filter one subject, and deliver at least once: a delivery is acked, or
//! given back with a delay (NAK), or redelivered when it was neither within
//! the ack wait; at most `max_ack_pending` are out at once per consumer and
//! an event is delivered at most `max_deliver` times.

use std::time::Duration;

use bytes::Bytes;
use futures::stream::BoxStream;

use crate::jetstream::JetStream;
use crate::memory::MemoryBus;

/// A durable consumer's settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsumerConfig {
    /// Its durable name.
    pub name: String,
    /// The one subject it delivers.
    pub subject: String,
    /// Deliveries out (neither acked nor given back) at once.
    pub max_ack_pending: u32,
    /// How long a delivery may go without an ack or a sign of progress
    /// before it is redelivered.
    pub ack_wait: Duration,
    /// Deliveries of one event at most.
    pub max_deliver: i64,
    /// Who it is for (`<namespace>/<name>/<subject>`, as Kyma describes it).
    pub description: String,
}

/// Stream settings (JetStream only; the in-process bus keeps what is pending).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamConfig {
    /// The stream's name.
    pub name: String,
    /// Subjects it holds (`kyma.>`).
    pub subjects: Vec<String>,
    /// Bytes it may hold; new events are refused beyond (Kyma: 700 MiB).
    pub max_bytes: i64,
    /// Replicas (1 on a single NATS server).
    pub replicas: usize,
    /// File storage (the default) or memory.
    pub file_storage: bool,
}

impl Default for StreamConfig {
    fn default() -> Self {
        Self {
            name: shoal_api::subscription::STREAM_NAME.into(),
            subjects: vec![format!("{}.>", shoal_api::subscription::SUBJECT_PREFIX)],
            max_bytes: 700 << 20,
            replicas: 1,
            file_storage: true,
        }
    }
}

/// What went wrong talking to the bus.
#[derive(Debug, thiserror::Error)]
pub enum BusError {
    /// Not connected to NATS.
    #[error("not connected to NATS at {0}")]
    Disconnected(String),
    /// The stream did not answer in time.
    #[error("the event stream did not answer in time")]
    TimedOut,
    /// The stream is full.
    #[error("the event stream is full")]
    Full,
    /// The consumer does not exist (yet).
    #[error("consumer {0} does not exist")]
    NoConsumer(String),
    /// Anything else NATS said.
    #[error("{what}")]
    Nats {
        /// What was being done.
        what: String,
        /// NATS's error.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

impl BusError {
    pub(crate) fn nats(what: impl Into<String>, source: impl std::error::Error + Send + Sync + 'static) -> Self {
        Self::Nats {
            what: what.into(),
            source: Box::new(source),
        }
    }
}

/// Where events are kept.
#[derive(Clone)]
pub enum Bus {
    /// NATS JetStream.
    JetStream(Box<JetStream>),
    /// In this process (local mode without NATS).
    Memory(MemoryBus),
}

impl Bus {
    /// Connects to NATS at `url` (retrying in the background when it is
    /// down) and makes sure the stream exists.
    ///
    /// # Errors
    ///
    /// When the URL is not a NATS URL.
    pub async fn connect(url: &str, stream: StreamConfig) -> Result<Self, BusError> {
        Ok(Self::JetStream(Box::new(JetStream::connect(url, stream).await?)))
    }

    /// A bus in this process.
    pub fn memory() -> Self {
        Self::Memory(MemoryBus::default())
    }

    /// Whether it can take events now.
    pub fn is_connected(&self) -> bool {
        match self {
            Self::JetStream(js) => js.is_connected(),
            Self::Memory(_) => true,
        }
    }

    /// Keeps an event on `subject`, returning once the bus has it.
    ///
    /// # Errors
    ///
    /// When the bus is unreachable, full or does not answer.
    pub async fn publish(&self, subject: &str, headers: &[(&str, &str)], payload: Bytes) -> Result<(), BusError> {
        match self {
            Self::JetStream(js) => js.publish(subject, headers, payload).await,
            Self::Memory(m) => {
                m.publish(subject, payload);
                Ok(())
            }
        }
    }

    /// Creates the consumer, or updates its settings.
    ///
    /// # Errors
    ///
    /// When NATS refuses or cannot be reached.
    pub async fn ensure_consumer(&self, config: &ConsumerConfig) -> Result<(), BusError> {
        match self {
            Self::JetStream(js) => js.ensure_consumer(config).await,
            Self::Memory(m) => {
                m.ensure_consumer(config);
                Ok(())
            }
        }
    }

    /// Deletes a consumer (its pending events go with it).
    ///
    /// # Errors
    ///
    /// When NATS refuses or cannot be reached; a missing consumer is fine.
    pub async fn delete_consumer(&self, name: &str) -> Result<(), BusError> {
        match self {
            Self::JetStream(js) => js.delete_consumer(name).await,
            Self::Memory(m) => {
                m.delete_consumer(name);
                Ok(())
            }
        }
    }

    /// Deliveries of an existing consumer, at most `batch` asked for at once.
    /// The stream ends when the consumer goes or the connection fails for
    /// good; the caller starts over.
    ///
    /// # Errors
    ///
    /// When the consumer does not exist or NATS cannot be reached.
    pub async fn deliveries(&self, consumer: &str, batch: u32) -> Result<BoxStream<'static, Delivery>, BusError> {
        match self {
            Self::JetStream(js) => js.deliveries(consumer, batch).await,
            Self::Memory(m) => m.deliveries(consumer),
        }
    }
}

/// One delivery of an event: answer it with [`Self::ack`] or [`Self::nak`].
/// Dropped unanswered, it is redelivered after the ack wait.
pub struct Delivery {
    /// The event's subject.
    pub subject: String,
    /// The event (structured JSON CloudEvent).
    pub payload: Bytes,
    /// Which delivery of this event this is, from 1.
    pub attempt: i64,
    pub(crate) acker: Acker,
}

pub(crate) enum Acker {
    JetStream(Box<crate::jetstream::Reply>),
    Memory(crate::memory::MemoryAcker),
}

impl Delivery {
    /// The event was handled: it is not delivered again.
    pub async fn ack(self) {
        match self.acker {
            Acker::JetStream(a) => {
                if let Err(e) = a.acker().ack().await {
                    tracing::warn!(subject = self.subject, error = %e, "ack not sent: the event will be delivered again");
                }
            }
            Acker::Memory(a) => a.ack(),
        }
    }

    /// The event was not handled: it is delivered again after `delay`.
    pub async fn nak(self, delay: Duration) {
        match self.acker {
            Acker::JetStream(a) => {
                let kind = async_nats::jetstream::AckKind::Nak(Some(delay));
                if let Err(e) = a.acker().ack_with(kind).await {
                    tracing::warn!(subject = self.subject, error = %e, "nak not sent: redelivered after the ack wait");
                }
            }
            Acker::Memory(a) => a.nak(delay),
        }
    }

    /// The event can never be handled (it is not a CloudEvent): it is not
    /// delivered again.
    pub async fn term(self) {
        match self.acker {
            Acker::JetStream(a) => {
                let _ = a.acker().ack_with(async_nats::jetstream::AckKind::Term).await;
            }
            Acker::Memory(a) => a.ack(),
        }
    }

    /// A handle that tells the bus the delivery is still being worked on,
    /// so a long one is not redelivered meanwhile.
    pub fn progress(&self) -> Progress {
        match &self.acker {
            Acker::JetStream(a) => Progress::JetStream(a.clone()),
            Acker::Memory(a) => Progress::Memory(a.clone()),
        }
    }
}

/// See [`Delivery::progress`].
pub enum Progress {
    /// JetStream: sends `+WPI`.
    JetStream(Box<crate::jetstream::Reply>),
    /// In process: moves the deadline.
    Memory(crate::memory::MemoryAcker),
}

impl Progress {
    /// Restarts the ack wait.
    pub async fn touch(&self) {
        match self {
            Self::JetStream(a) => {
                let _ = a.acker().ack_with(async_nats::jetstream::AckKind::Progress).await;
            }
            Self::Memory(a) => a.progress(),
        }
    }
}
