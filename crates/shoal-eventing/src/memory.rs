//! The in-process bus of `shoal up` without NATS: the same delivery rules
//! as the JetStream consumers (at least once, NAK with a delay, redelivery
//! after the ack wait, `max_ack_pending`, `max_deliver`), kept in memory, so
//! events do not outlive the process.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use bytes::Bytes;
use futures::StreamExt;
use futures::stream::BoxStream;
use tokio::sync::Notify;
use tokio::time::Instant;

use crate::bus::{Acker, BusError, ConsumerConfig, Delivery};

/// Events a consumer holds at most; more are refused as by a full stream.
const MAX_PENDING: usize = 100_000;

/// See the module documentation.
#[derive(Clone, Default)]
pub struct MemoryBus {
    shared: Arc<Shared>,
}

#[derive(Default)]
struct Shared {
    consumers: Mutex<BTreeMap<String, Consumer>>,
    changed: Notify,
}

struct Consumer {
    config: ConsumerConfig,
    /// Events waiting, each with the time it may go out and its deliveries so far.
    waiting: VecDeque<Waiting>,
    /// Deliveries out, by id, with the time they are given up on.
    out: BTreeMap<u64, Out>,
    next_id: u64,
}

struct Waiting {
    payload: Bytes,
    subject: String,
    not_before: Instant,
    deliveries: i64,
}

struct Out {
    waiting: Waiting,
    deadline: Instant,
}

/// Acks one delivery of the in-process bus.
#[derive(Clone)]
pub struct MemoryAcker {
    shared: Arc<Shared>,
    consumer: String,
    id: u64,
}

impl MemoryBus {
    fn lock(&self) -> MutexGuard<'_, BTreeMap<String, Consumer>> {
        self.shared.consumers.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub(crate) fn publish(&self, subject: &str, payload: Bytes) {
        let now = Instant::now();
        for consumer in self.lock().values_mut() {
            if consumer.config.subject == subject && consumer.waiting.len() < MAX_PENDING {
                consumer.waiting.push_back(Waiting {
                    payload: payload.clone(),
                    subject: subject.to_string(),
                    not_before: now,
                    deliveries: 0,
                });
            }
        }
        self.shared.changed.notify_waiters();
    }

    pub(crate) fn ensure_consumer(&self, config: &ConsumerConfig) {
        let mut consumers = self.lock();
        match consumers.get_mut(&config.name) {
            Some(c) => c.config = config.clone(),
            None => {
                consumers.insert(
                    config.name.clone(),
                    Consumer {
                        config: config.clone(),
                        waiting: VecDeque::new(),
                        out: BTreeMap::new(),
                        next_id: 0,
                    },
                );
            }
        }
        drop(consumers);
        self.shared.changed.notify_waiters();
    }

    pub(crate) fn delete_consumer(&self, name: &str) {
        self.lock().remove(name);
        self.shared.changed.notify_waiters();
    }

    pub(crate) fn deliveries(&self, name: &str) -> Result<BoxStream<'static, Delivery>, BusError> {
        if !self.lock().contains_key(name) {
            return Err(BusError::NoConsumer(name.to_string()));
        }
        let bus = self.clone();
        let name = name.to_string();
        Ok(futures::stream::unfold((bus, name), |(bus, name)| async move {
            let delivery = bus.next(&name).await?;
            Some((delivery, (bus, name)))
        })
        .boxed())
    }

    /// The next delivery of `name`, or `None` once it is deleted.
    async fn next(&self, name: &str) -> Option<Delivery> {
        loop {
            let changed = self.shared.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            let wake_at = {
                let mut consumers = self.lock();
                let consumer = consumers.get_mut(name)?;
                let now = Instant::now();
                consumer.requeue_expired(now);
                if let Some(delivery) = consumer.take(now, &self.shared, name) {
                    return Some(delivery);
                }
                consumer.next_change()
            };
            match wake_at {
                Some(at) => {
                    tokio::select! {
                        _ = changed => {}
                        _ = tokio::time::sleep_until(at) => {}
                    }
                }
                None => changed.await,
            }
        }
    }
}

impl Consumer {
    /// Deliveries past their deadline wait again (counted as delivered).
    fn requeue_expired(&mut self, now: Instant) {
        let expired: Vec<u64> = self
            .out
            .iter()
            .filter(|(_, o)| o.deadline <= now)
            .map(|(id, _)| *id)
            .collect();
        for id in expired {
            if let Some(out) = self.out.remove(&id) {
                self.give_back(out.waiting, now);
            }
        }
    }

    fn give_back(&mut self, mut waiting: Waiting, not_before: Instant) {
        if waiting.deliveries >= self.config.max_deliver {
            tracing::warn!(
                consumer = self.config.name,
                deliveries = waiting.deliveries,
                "event dropped after its last delivery"
            );
            return;
        }
        waiting.not_before = not_before;
        self.waiting.push_back(waiting);
    }

    fn take(&mut self, now: Instant, shared: &Arc<Shared>, name: &str) -> Option<Delivery> {
        if self.out.len() >= self.config.max_ack_pending as usize {
            return None;
        }
        let index = self.waiting.iter().position(|w| w.not_before <= now)?;
        let mut waiting = self.waiting.remove(index)?;
        waiting.deliveries = waiting.deliveries.saturating_add(1);
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1);
        let delivery = Delivery {
            subject: waiting.subject.clone(),
            payload: waiting.payload.clone(),
            attempt: waiting.deliveries,
            acker: Acker::Memory(MemoryAcker {
                shared: shared.clone(),
                consumer: name.to_string(),
                id,
            }),
        };
        self.out.insert(
            id,
            Out {
                waiting,
                deadline: now + self.config.ack_wait,
            },
        );
        Some(delivery)
    }

    /// When something may become deliverable without a notification.
    fn next_change(&self) -> Option<Instant> {
        let deadlines = self.out.values().map(|o| o.deadline);
        if self.out.len() >= self.config.max_ack_pending as usize {
            return deadlines.min();
        }
        deadlines.chain(self.waiting.iter().map(|w| w.not_before)).min()
    }
}

impl MemoryAcker {
    fn with<R>(&self, f: impl FnOnce(&mut Consumer) -> R) -> Option<R> {
        let mut consumers = self.shared.consumers.lock().unwrap_or_else(|p| p.into_inner());
        let r = consumers.get_mut(&self.consumer).map(f);
        drop(consumers);
        self.shared.changed.notify_waiters();
        r
    }

    pub(crate) fn ack(&self) {
        self.with(|c| c.out.remove(&self.id));
    }

    pub(crate) fn nak(&self, delay: Duration) {
        self.with(|c| {
            if let Some(out) = c.out.remove(&self.id) {
                c.give_back(out.waiting, Instant::now() + delay);
            }
        });
    }

    pub(crate) fn progress(&self) {
        self.with(|c| {
            let ack_wait = c.config.ack_wait;
            if let Some(out) = c.out.get_mut(&self.id) {
                out.deadline = Instant::now() + ack_wait;
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(max_ack_pending: u32) -> ConsumerConfig {
        ConsumerConfig {
            name: "c".into(),
            subject: "kyma.app.a.b".into(),
            max_ack_pending,
            ack_wait: Duration::from_millis(200),
            max_deliver: 3,
            description: String::new(),
        }
    }

    #[tokio::test(start_paused = true)]
    async fn at_least_once_within_the_pending_limit() {
        let bus = MemoryBus::default();
        bus.ensure_consumer(&config(2));
        bus.publish("kyma.app.other", Bytes::from_static(b"not mine"));
        for i in 0..3u8 {
            bus.publish("kyma.app.a.b", Bytes::from(vec![i]));
        }
        let mut d = bus.deliveries("c").unwrap();
        let first = d.next().await.unwrap();
        let second = d.next().await.unwrap();
        assert_eq!((first.payload[0], second.payload[0]), (0, 1));
        // Two out: the third waits for an answer.
        let third = tokio::time::timeout(Duration::from_millis(50), d.next()).await;
        assert!(third.is_err(), "max_ack_pending holds");
        first.ack().await;
        let third = d.next().await.unwrap();
        assert_eq!(third.payload[0], 2);
        // A NAK comes back after its delay, an unanswered one after the ack wait.
        second.nak(Duration::from_millis(500)).await;
        drop(third);
        let again = d.next().await.unwrap();
        assert_eq!(
            (again.payload[0], again.attempt),
            (2, 2),
            "the ack wait (200 ms) passes first"
        );
        again.ack().await;
        let again = d.next().await.unwrap();
        assert_eq!((again.payload[0], again.attempt), (1, 2));
        // At most max_deliver deliveries.
        again.nak(Duration::ZERO).await;
        let last = d.next().await.unwrap();
        assert_eq!(last.attempt, 3);
        last.nak(Duration::ZERO).await;
        assert!(tokio::time::timeout(Duration::from_secs(5), d.next()).await.is_err());
        bus.delete_consumer("c");
        assert!(d.next().await.is_none(), "the stream ends with its consumer");
    }
}
