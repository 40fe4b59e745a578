//! Events delivered end to end: published into JetStream, delivered to a
//! hello-world Function, acked. Shoal's path (the node delivers in
//! process, `shoal up --nats`) against Kyma's (a dispatcher process taking
//! events from the same kind of consumer and POSTing each to the Function's
//! own Node.js process under Express, as eventing-manager POSTs to a
//! Function's pod), measured the same way: each ack is seen on NATS itself
//! (`$JS.ACK.…`, whose subject carries the event's publish time), so nothing
//! in either path is instrumented. Also the publisher endpoint's rate and
//! the node's memory per Subscription.

use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child as Process, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::Context;
use bytes::Bytes;
use futures::StreamExt;
use futures::future::BoxFuture;
use http_body_util::Full;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use shoal_api::subscription::consumer_name;
use shoal_eventing::{Bus, ConsumerConfig, DispatchConfig, Dispatcher, Route, Sink, StreamConfig, Target};

use crate::children::{Server, workspace_root};
use crate::measure::{percentile, rss_of};

/// The type every benchmark event has, and its subject.
const EVENT_TYPE: &str = "order.created.v1";
const SUBJECT: &str = "kyma.bench.order.created.v1";

/// One delivery path at one `maxInFlightMessages`.
pub struct DeliveryRow {
    /// Which path.
    pub path: &'static str,
    /// The Subscription's limit.
    pub max_in_flight: u32,
    /// Events delivered.
    pub events: usize,
    /// Events acked per second, first publish to last ack, all published
    /// at once.
    pub per_second: f64,
    /// Publish → ack at a steady [`PACED_PER_SECOND`], p50.
    pub p50: Duration,
    /// Publish → ack at a steady [`PACED_PER_SECOND`], p99.
    pub p99: Duration,
}

/// Saturated throughput, then latency at a steady rate, on one consumer.
async fn measure(nats: &str, consumer: &str, count: usize) -> anyhow::Result<(f64, Duration, Duration)> {
    let (per_second, _, _) = deliver(nats, consumer, count, None).await?;
    let paced = (PACED_PER_SECOND * 6) as usize;
    let (_, p50, p99) = deliver(nats, consumer, paced, Some(PACED_PER_SECOND)).await?;
    Ok((per_second, p50, p99))
}

/// Everything `events` measures.
pub struct EventsReport {
    /// Delivery, both paths, both limits.
    pub delivery: Vec<DeliveryRow>,
    /// The publisher endpoint at 64 connections: events/s accepted.
    pub publish_per_second: f64,
    /// `shoal up`'s RSS added per Subscription (one consumer each).
    pub bytes_per_subscription: f64,
    /// How many Subscriptions that was measured with.
    pub subscriptions: usize,
}

/// A throwaway `nats-server -js` on a free loopback port.
struct Nats {
    process: Process,
    url: String,
    _store: tempfile::TempDir,
}

impl Drop for Nats {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

fn free_port() -> anyhow::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

fn start_nats() -> anyhow::Result<Nats> {
    let store = tempfile::tempdir()?;
    let port = free_port()?;
    let process = Command::new("nats-server")
        .args(["-js", "-a", "127.0.0.1", "-p", &port.to_string(), "-sd"])
        .arg(store.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .context("starting nats-server (.ci/setup installs it)")?;
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        anyhow::ensure!(started.elapsed() < Duration::from_secs(10), "nats-server did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
    Ok(Nats {
        process,
        url: format!("nats://127.0.0.1:{port}"),
        _store: store,
    })
}

/// `shoal up DIR --nats URL`, once it says the Subscriptions deliver.
fn shoal_up(dir: &Path, nats: &str, publisher: SocketAddr, subscriptions: usize) -> anyhow::Result<Server> {
    let shoal_bin = std::env::var_os("SHOAL_BENCH_SHOAL")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target/release/shoal"));
    let listen = format!("127.0.0.1:{}", free_port()?);
    let mut process = Command::new(&shoal_bin)
        .args(["up", dir.to_str().context("path")?, "--listen", &listen, "--nats", nats])
        .args(["--publisher-listen", &publisher.to_string()])
        .env("SHOAL_CACHE_DIR", workspace_root().join("target/shoal-bench-cache"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("starting {}", shoal_bin.display()))?;
    let stdout = process.stdout.take().context("stdout")?;
    let server = Server(process);
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(stdout));
    let mut ready = 0;
    for line in lines.by_ref().map_while(Result::ok) {
        if line.starts_with("✓ Subscription") {
            ready += 1;
        }
        if line.contains("Shoal is serving") {
            break;
        }
    }
    anyhow::ensure!(ready == subscriptions, "{ready} of {subscriptions} Subscriptions ready");
    std::thread::spawn(move || lines.for_each(drop));
    Ok(server)
}

fn subscription_yaml(name: &str, event_type: &str, max_in_flight: u32) -> String {
    format!(
        "apiVersion: eventing.kyma-project.io/v1alpha2\nkind: Subscription\nmetadata:\n  name: {name}\n  namespace: default\nspec:\n  sink: http://sink.default.svc.cluster.local\n  source: bench\n  types: [{event_type}]\n  config:\n    maxInFlightMessages: \"{max_in_flight}\"\n"
    )
}

/// A structured CloudEvent as the publisher endpoint keeps it.
fn event(i: usize) -> Bytes {
    Bytes::from(
        serde_json::json!({
            "specversion": "1.0", "id": format!("e-{i}"), "source": "bench", "type": SUBJECT,
            "originaltype": EVENT_TYPE, "datacontenttype": "application/json", "data": {"orderCode": i}
        })
        .to_string(),
    )
}

/// The steady rate latency is measured at, well below either path's
/// capacity, so it shows the path and not a queue.
const PACED_PER_SECOND: u64 = 500;

/// Publishes `count` events (as fast as JetStream takes them, or at `pace`
/// per second) and waits for every one to be acked on `consumer`, watching
/// the acks on NATS: events acked per second and publish → ack p50 / p99.
async fn deliver(
    nats: &str,
    consumer: &str,
    count: usize,
    pace: Option<u64>,
) -> anyhow::Result<(f64, Duration, Duration)> {
    let client = async_nats::connect(nats).await?;
    let mut acks = client.subscribe(format!("$JS.ACK.sap.{consumer}.>")).await?;
    let js = async_nats::jetstream::new(client.clone());
    let started = Instant::now();
    let publishing = tokio::spawn(async move {
        let mut pending = Vec::with_capacity(256);
        let mut tick = pace.map(|per_second| {
            let mut t = tokio::time::interval(Duration::from_micros(1_000_000 / per_second.max(1)));
            t.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
            t
        });
        for i in 0..count {
            if let Some(t) = tick.as_mut() {
                t.tick().await;
            }
            pending.push(js.publish(SUBJECT, event(i)).await?);
            if pending.len() == 256 {
                for ack in pending.drain(..) {
                    ack.await?;
                }
            }
        }
        for ack in pending {
            ack.await?;
        }
        anyhow::Ok(())
    });
    let mut seen = BTreeSet::new();
    let mut latencies = Vec::with_capacity(count);
    let deadline = started + Duration::from_secs(300);
    while seen.len() < count {
        let Ok(Some(message)) = tokio::time::timeout_at(deadline.into(), acks.next()).await else {
            anyhow::bail!("only {} of {count} events acked within 5 minutes", seen.len());
        };
        // Only acks ("+ACK", or empty): not progress or NAKs.
        if !(message.payload.is_empty() || message.payload.starts_with(b"+ACK")) {
            continue;
        }
        // $JS.ACK.<stream>.<consumer>.<delivered>.<stream seq>.<consumer seq>.<published ns>.<pending>
        let tokens: Vec<&str> = message.subject.split('.').collect();
        let (Some(sequence), Some(published)) = (
            tokens.get(5).and_then(|t| t.parse::<u64>().ok()),
            tokens.get(7).and_then(|t| t.parse::<u128>().ok()),
        ) else {
            continue;
        };
        if seen.insert(sequence) {
            let now = SystemTime::now().duration_since(UNIX_EPOCH)?.as_nanos();
            latencies.push(Duration::from_nanos(now.saturating_sub(published) as u64));
        }
    }
    let elapsed = started.elapsed();
    publishing.await??;
    latencies.sort();
    Ok((
        count as f64 / elapsed.as_secs_f64(),
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
    ))
}

/// Kyma's hop: each event POSTed to the Function's own process.
struct HttpSink {
    client: Client<hyper_util::client::legacy::connect::HttpConnector, Full<Bytes>>,
    addr: SocketAddr,
}

impl Sink for HttpSink {
    fn deliver(&self, target: &Target, request: http::Request<Bytes>) -> BoxFuture<'static, http::StatusCode> {
        let client = self.client.clone();
        let url = format!("http://{}{}", self.addr, target.path);
        Box::pin(async move {
            let (mut parts, body) = request.into_parts();
            parts.uri = match url.parse() {
                Ok(u) => u,
                Err(_) => return http::StatusCode::BAD_GATEWAY,
            };
            match client.request(http::Request::from_parts(parts, Full::new(body))).await {
                Ok(response) => {
                    let status = response.status();
                    let _ = http_body_util::BodyExt::collect(response.into_body()).await;
                    status
                }
                Err(_) => http::StatusCode::BAD_GATEWAY,
            }
        })
    }
}

async fn node_function() -> anyhow::Result<(Server, SocketAddr)> {
    let port = free_port()?;
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse()?;
    let process = Command::new("node")
        .arg("server.js")
        .current_dir(workspace_root().join("crates/shoal-bench/node-baseline"))
        .env("PORT", port.to_string())
        .stdout(Stdio::null())
        .spawn()
        .context("starting the Node.js Function")?;
    let server = Server(process);
    crate::children::ready(addr, "/healthz").await?;
    Ok((server, addr))
}

/// Runs every measurement with `count` events per delivery row.
///
/// # Errors
/// When a server does not start or events are not all acked.
pub async fn run(count: usize, subscriptions: usize) -> anyhow::Result<EventsReport> {
    let mut delivery = Vec::new();
    for max_in_flight in [10u32, 100] {
        // Shoal: the node delivers in process.
        let nats = start_nats()?;
        let dir = tempfile::tempdir()?;
        std::fs::write(dir.path().join("sink.js"), "module.exports = { main: () => \"ok\" };\n")?;
        let name = format!("bench-{max_in_flight}");
        std::fs::write(
            dir.path().join("sub.yaml"),
            subscription_yaml(&name, EVENT_TYPE, max_in_flight),
        )?;
        let publisher: SocketAddr = format!("127.0.0.1:{}", free_port()?).parse()?;
        let up = shoal_up(dir.path(), &nats.url, publisher, 1)?;
        let consumer = consumer_name("default", &name, SUBJECT);
        let (per_second, p50, p99) = measure(&nats.url, &consumer, count).await?;
        eprintln!("   shoal, maxInFlight {max_in_flight}: {per_second:.0} events/s, p50 {p50:?}, p99 {p99:?}");
        delivery.push(DeliveryRow {
            path: "Shoal: the node delivers in process",
            max_in_flight,
            events: count,
            per_second,
            p50,
            p99,
        });
        drop(up);
        drop(nats);

        // Kyma: a dispatcher POSTing to the Function's own process.
        let nats = start_nats()?;
        let (node, addr) = node_function().await?;
        let bus = Bus::connect(&nats.url, StreamConfig::default()).await?;
        let consumer = consumer_name("default", &name, SUBJECT);
        bus.ensure_consumer(&ConsumerConfig {
            name: consumer.clone(),
            subject: SUBJECT.into(),
            max_ack_pending: max_in_flight,
            ack_wait: Duration::from_secs(30),
            max_deliver: 100,
            description: "bench".into(),
        })
        .await?;
        let sink = HttpSink {
            client: Client::builder(TokioExecutor::new())
                .pool_max_idle_per_host(512)
                .build_http(),
            addr,
        };
        let dispatcher = Dispatcher::new(bus, Arc::new(sink), DispatchConfig::default());
        dispatcher.set_routes(vec![Route {
            subscription: name.clone(),
            consumer: consumer.clone(),
            target: Target {
                namespace: "default".into(),
                function: "sink".into(),
                path: "/".into(),
            },
            max_in_flight,
        }]);
        let (per_second, p50, p99) = measure(&nats.url, &consumer, count).await?;
        eprintln!(
            "   dispatcher + Node.js, maxInFlight {max_in_flight}: {per_second:.0} events/s, p50 {p50:?}, p99 {p99:?}"
        );
        delivery.push(DeliveryRow {
            path: "Kyma's shape: a dispatcher POSTs to the Function's Node.js process",
            max_in_flight,
            events: count,
            per_second,
            p50,
            p99,
        });
        drop(dispatcher);
        drop(node);
        drop(nats);
    }

    // The publisher endpoint, and memory per Subscription.
    let nats = start_nats()?;
    let dir = tempfile::tempdir()?;
    std::fs::write(dir.path().join("sink.js"), "module.exports = { main: () => \"ok\" };\n")?;
    let publisher: SocketAddr = format!("127.0.0.1:{}", free_port()?).parse()?;
    let up = shoal_up(dir.path(), &nats.url, publisher, 0)?;
    let bare = rss_of(up.id());
    let script = tempfile::Builder::new().suffix(".lua").tempfile()?;
    std::fs::write(
        script.path(),
        "counter = 0\nrequest = function()\n  counter = counter + 1\n  return wrk.format(\"POST\", \"/publish\", {[\"ce-specversion\"] = \"1.0\", [\"ce-id\"] = \"w-\" .. counter, [\"ce-source\"] = \"bench\", [\"ce-type\"] = \"order.created.v1\", [\"content-type\"] = \"application/json\"}, \"{\\\"orderCode\\\":1}\")\nend\n",
    )?;
    let out = Command::new("wrk")
        .args(["-t2", "-c64", "-d5s", "-s"])
        .arg(script.path())
        .arg(format!("http://{publisher}/"))
        .output()
        .context("running wrk")?;
    let text = String::from_utf8_lossy(&out.stdout);
    let publish_per_second = text
        .lines()
        .find_map(|l| l.strip_prefix("Requests/sec:"))
        .and_then(|v| v.trim().parse().ok())
        .context("wrk printed no rate")?;
    anyhow::ensure!(!text.contains("Non-2xx"), "the publisher refused events: {text}");
    drop(up);
    for i in 0..subscriptions {
        std::fs::write(
            dir.path().join(format!("sub-{i}.yaml")),
            subscription_yaml(&format!("s-{i}"), &format!("order.type{i}.v1"), 10),
        )?;
    }
    let up = shoal_up(dir.path(), &nats.url, publisher, subscriptions)?;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let with = rss_of(up.id());
    drop(up);
    Ok(EventsReport {
        delivery,
        publish_per_second,
        bytes_per_subscription: with.saturating_sub(bare) as f64 / subscriptions.max(1) as f64,
        subscriptions,
    })
}

/// The report as markdown.
pub fn markdown(report: &EventsReport) -> String {
    let mut out = String::from(
        "Events published straight into JetStream (`nats-server -js`, file storage, on loopback), delivered to a hello-world Function as binary-mode CloudEvents, acked on its 200; each ack seen on NATS itself (`$JS.ACK` subjects carry the event's publish time), so neither path is instrumented. Throughput: all events published at once, first publish to last ack. Latency: 3,000 events at a steady 500 per second. Both paths use the same consumer settings and the same delivery loop; Kyma's shape adds the HTTP hop to the Function's own Node.js process (Express, Kyma's per-request work).\n\n| path | maxInFlightMessages | events | events/s | publish → ack p50 / p99 at 500/s |\n|---|---|---|---|---|\n",
    );
    for r in &report.delivery {
        out.push_str(&format!(
            "| {} | {} | {} | {:.0} | {} / {} |\n",
            r.path,
            r.max_in_flight,
            r.events,
            r.per_second,
            crate::report::us(r.p50),
            crate::report::us(r.p99)
        ));
    }
    out.push_str(&format!(
        "\nThe publisher endpoint (`POST /publish`, binary mode, 64 connections, each event stored in JetStream before the 204): {:.0} events/s.\n\nMemory: `shoal up` with {} Subscriptions (a durable consumer and a delivery loop each) against none: {:.1} KiB per Subscription.\n",
        report.publish_per_second,
        report.subscriptions,
        report.bytes_per_subscription / 1024.0
    ));
    out
}
