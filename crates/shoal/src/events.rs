//! Eventing for `shoal up` and `shoal node`: the bus (NATS JetStream at
//! `--nats`, or in process), the publisher endpoint, and the sink that hands
//! an event to a Function served by this process. `shoal up` also reads
//! `Subscription` YAML next to its Functions ([`LocalSubscriptions`]).

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use bytes::Bytes;
use clap::Args;
use futures::future::BoxFuture;
use http::{Request, StatusCode};
use http_body_util::Full;
use shoal_api::Subscription;
use shoal_eventing::{Bus, DispatchConfig, Dispatcher, Publisher, Route, Sink, StreamConfig, Target};
use shoal_node::{FunctionKey, FunctionTable, Node};

#[derive(Args, Clone, Debug)]
pub struct EventingArgs {
    /// NATS server with JetStream that keeps events (`nats://host:4222`).
    /// `shoal up` without it keeps events in process.
    #[arg(long = "nats", env = "SHOAL_NATS_URL")]
    pub nats_url: Option<String>,
    /// Where the publisher endpoint (`POST /publish`, Kyma's publisher
    /// proxy API) listens. `shoal up`: 127.0.0.1:8081 by default.
    #[arg(long, env = "SHOAL_PUBLISHER_LISTEN")]
    pub publisher_listen: Option<SocketAddr>,
    /// Seconds a Function's failed event waits before it is delivered again.
    #[arg(
        long = "event-retry-delay",
        env = "SHOAL_EVENT_RETRY_DELAY_SECS",
        default_value_t = 30
    )]
    pub retry_delay_secs: u64,
    /// Seconds an event may go unanswered (its node gone) before another
    /// node gets it.
    #[arg(long = "event-ack-wait", env = "SHOAL_EVENT_ACK_WAIT_SECS", default_value_t = 30)]
    pub ack_wait_secs: u64,
    /// File storage for the stream (memory when false).
    #[arg(long = "event-file-storage", env = "SHOAL_EVENT_FILE_STORAGE", default_value_t = true, action = clap::ArgAction::Set)]
    pub file_storage: bool,
}

impl EventingArgs {
    /// The bus: JetStream at `--nats`, or in process.
    ///
    /// # Errors
    ///
    /// When the NATS URL cannot be used.
    pub async fn bus(&self) -> anyhow::Result<Bus> {
        match &self.nats_url {
            Some(url) => Bus::connect(
                url,
                StreamConfig {
                    file_storage: self.file_storage,
                    ..StreamConfig::default()
                },
            )
            .await
            .with_context(|| format!("NATS at {url}")),
            None => Ok(Bus::memory()),
        }
    }

    pub fn ack_wait(&self) -> Duration {
        Duration::from_secs(self.ack_wait_secs.max(1))
    }

    pub fn dispatch_config(&self) -> DispatchConfig {
        let ack_wait = self.ack_wait();
        DispatchConfig {
            retry_delay: Duration::from_secs(self.retry_delay_secs),
            // Well within the ack wait, so a long delivery is never handed
            // to another node while it runs.
            progress_every: (ack_wait / 3).max(Duration::from_millis(300)),
        }
    }

    /// Serves the publisher endpoint at `listen` in the background.
    ///
    /// # Errors
    ///
    /// When the address cannot be bound.
    pub async fn serve_publisher(&self, bus: Bus, listen: SocketAddr) -> anyhow::Result<()> {
        let listener = tokio::net::TcpListener::bind(listen)
            .await
            .with_context(|| format!("publisher endpoint on {listen}"))?;
        serve_publisher(bus, listener);
        Ok(())
    }
}

/// Serves the publisher endpoint on `listener` in the background.
pub fn serve_publisher(bus: Bus, listener: tokio::net::TcpListener) {
    let publisher = Publisher::new(bus);
    tokio::spawn(async move {
        if let Err(e) = shoal_eventing::serve_publisher(listener, publisher, std::future::pending()).await {
            tracing::error!(error = %e, "publisher endpoint stopped");
        }
    });
}

/// Hands events to the node's Functions, as requests on their own ports.
pub struct NodeSink(pub Arc<Node>);

impl Sink for NodeSink {
    fn deliver(&self, target: &Target, request: Request<Bytes>) -> BoxFuture<'static, StatusCode> {
        let node = self.0.clone();
        let key = FunctionKey::new(target.namespace.clone(), target.function.clone());
        Box::pin(async move { node.handle_for(&key, request.map(Full::new)).await.status() })
    }
}

/// Whether a YAML file holds a `Subscription` (not a Function).
pub fn is_subscription_file(path: &Path) -> bool {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if !matches!(ext, "yaml" | "yml") {
        return false;
    }
    std::fs::read_to_string(path)
        .ok()
        .and_then(|text| serde_yaml::from_str::<serde_yaml::Value>(&text).ok())
        .and_then(|v| v.get("kind").and_then(|k| k.as_str()).map(|k| k == "Subscription"))
        .unwrap_or(false)
}

/// The Subscriptions of a `shoal up` folder, kept delivering: each one
/// valid and naming a Function served here gets its consumers and routes.
pub struct LocalSubscriptions {
    bus: Bus,
    dispatcher: Dispatcher,
    ack_wait: Duration,
    /// By file: what it said when last read, and its consumers then.
    known: BTreeMap<PathBuf, Known>,
}

struct Known {
    text: String,
    served: bool,
    routes: Vec<Route>,
    consumers: Vec<String>,
    /// Why it is not (fully) delivering, when the bus failed: tried again
    /// at the next look, said again only when the reason changes.
    failed: Option<String>,
}

impl LocalSubscriptions {
    pub fn new(bus: Bus, node: Arc<Node>, args: &EventingArgs) -> Self {
        let dispatcher = Dispatcher::new(bus.clone(), Arc::new(NodeSink(node)), args.dispatch_config());
        Self {
            bus,
            dispatcher,
            ack_wait: args.ack_wait(),
            known: BTreeMap::new(),
        }
    }

    /// Reads the folder's Subscription files again; what changed (a file,
    /// or whether its sink is served) is applied and said once.
    pub async fn sync(&mut self, dir: &Path, table: &FunctionTable) {
        let files: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|r| r.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        let files: Vec<PathBuf> = files.into_iter().filter(|p| is_subscription_file(p)).collect();
        let mut changed = false;
        for gone in self
            .known
            .keys()
            .filter(|p| !files.contains(p))
            .cloned()
            .collect::<Vec<_>>()
        {
            if let Some(known) = self.known.remove(&gone) {
                self.drop_consumers(&known.consumers).await;
                println!("removed the Subscription of {}", gone.display());
                changed = true;
            }
        }
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let subscription = serde_yaml::from_str::<Subscription>(&text).map(with_default_namespace);
            let served = subscription
                .as_ref()
                .ok()
                .and_then(|s| s.validate().ok())
                .is_some_and(|sink| table.get(&FunctionKey::new(sink.namespace, sink.name)).is_some());
            if self
                .known
                .get(&path)
                .is_some_and(|k| k.text == text && k.served == served && k.failed.is_none())
            {
                continue;
            }
            changed = true;
            let (old, said) = self
                .known
                .remove(&path)
                .map(|k| (k.consumers, k.failed))
                .unwrap_or_default();
            let (routes, consumers, failed) = match subscription {
                Ok(s) => self.apply(&path, &s, served, said.as_deref()).await,
                Err(e) => {
                    eprintln!("✗ {}: not a Subscription: {e}", path.display());
                    (Vec::new(), Vec::new(), None)
                }
            };
            let stale: Vec<String> = old.into_iter().filter(|c| !consumers.contains(c)).collect();
            self.drop_consumers(&stale).await;
            self.known.insert(
                path,
                Known {
                    text,
                    served,
                    routes,
                    consumers,
                    failed,
                },
            );
        }
        if changed {
            let routes = self.known.values().flat_map(|k| k.routes.clone()).collect();
            self.dispatcher.set_routes(routes);
        }
    }

    /// Makes the consumers of `s` and its routes; the third value is why the
    /// bus refused (the Subscription is then tried again).
    async fn apply(
        &self,
        path: &Path,
        s: &Subscription,
        served: bool,
        said: Option<&str>,
    ) -> (Vec<Route>, Vec<String>, Option<String>) {
        let id = format!(
            "{}/{}",
            s.metadata.namespace.as_deref().unwrap_or("default"),
            s.metadata.name.as_deref().unwrap_or_default()
        );
        let sink = match s.validate() {
            Ok(sink) => sink,
            Err(e) => {
                eprintln!("✗ Subscription {id} ({}): {e}", path.display());
                return (Vec::new(), Vec::new(), None);
            }
        };
        if !served {
            eprintln!(
                "✗ Subscription {id}: its sink {} is not a Function served here (no Function {}/{})",
                s.spec.sink, sink.namespace, sink.name
            );
            return (Vec::new(), Vec::new(), None);
        }
        let mut routes = Vec::new();
        let mut consumers = Vec::new();
        for binding in s.bindings() {
            let config = shoal_eventing::consumer_config(s, &binding, self.ack_wait);
            if let Err(e) = self.bus.ensure_consumer(&config).await {
                let failed = format!("✗ Subscription {id}: {e} (trying again)");
                if said != Some(failed.as_str()) {
                    eprintln!("{failed}");
                }
                return (Vec::new(), consumers, Some(failed));
            }
            consumers.push(binding.consumer.clone());
            routes.push(Route {
                subscription: id.clone(),
                consumer: binding.consumer,
                target: Target {
                    namespace: sink.namespace.clone(),
                    function: sink.name.clone(),
                    path: sink.path.clone(),
                },
                max_in_flight: s.max_in_flight(),
            });
        }
        let subjects: Vec<String> = s.bindings().into_iter().map(|b| b.subject).collect();
        println!(
            "✓ Subscription {id}: {} → {}/{} (at most {} in flight)",
            subjects.join(", "),
            sink.namespace,
            sink.name,
            s.max_in_flight()
        );
        (routes, consumers, None)
    }

    async fn drop_consumers(&self, consumers: &[String]) {
        for c in consumers {
            if let Err(e) = self.bus.delete_consumer(c).await {
                eprintln!("! deleting consumer {c}: {e}");
            }
        }
    }
}

fn with_default_namespace(mut s: Subscription) -> Subscription {
    if s.metadata.namespace.is_none() {
        s.metadata.namespace = Some("default".into());
    }
    s
}
