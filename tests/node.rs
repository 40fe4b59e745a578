//! The node server over real TCP sockets: the Kyma HTTP contract, limits,
//! faults in one Function never hurting its neighbours, hot updates.

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper_util::{client::legacy::Client, rt::TokioExecutor};
use serde_json::json;
use shoal_node::{FunctionConfig, FunctionKey, FunctionTable, ModuleSource, Node, NodeConfig, TableConfig};
use shoal_tests::{builder, runtime};
use tokio::sync::oneshot;

struct TestNode {
    addr: std::net::SocketAddr,
    table: Arc<FunctionTable>,
    stop: Option<oneshot::Sender<()>>,
    done: tokio::task::JoinHandle<()>,
}

impl TestNode {
    async fn start(config: NodeConfig) -> Self {
        Self::start_with(config, TableConfig::default()).await
    }

    async fn start_with(config: NodeConfig, table_config: TableConfig) -> Self {
        Self::start_on(runtime(), config, table_config).await
    }

    async fn start_on(runtime: Arc<shoal_runtime::Runtime>, config: NodeConfig, table_config: TableConfig) -> Self {
        let table = Arc::new(FunctionTable::new(runtime, table_config));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let node = Node::new(table.clone(), config);
        let (stop, stopped) = oneshot::channel::<()>();
        let done = tokio::spawn(async move {
            node.serve(listener, async move {
                let _ = stopped.await;
            })
            .await
            .unwrap();
        });
        Self {
            addr,
            table,
            stop: Some(stop),
            done,
        }
    }

    async fn add(&self, ns: &str, name: &str, source: &str, config: FunctionConfig) {
        let inputs = shoal_api::BuildInputs {
            source: source.into(),
            dependencies: None,
            runtime: "nodejs22".into(),
            files: Default::default(),
        };
        let built = builder().build(&inputs).await.unwrap();
        self.table.upsert(
            FunctionKey::new(ns, name),
            config,
            ModuleSource::Bytes(Arc::new(built.wasm)),
        );
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    async fn stop(mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        let _ = self.done.await;
    }
}

struct Reply {
    status: u16,
    headers: http::HeaderMap,
    body: Bytes,
}

impl Reply {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
    fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.text()))
    }
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

async fn send(req: http::Request<Full<Bytes>>) -> Reply {
    let client: Client<_, Full<Bytes>> = Client::builder(TokioExecutor::new()).build_http();
    let response = client.request(req).await.expect("request failed");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    Reply { status, headers, body }
}

fn get(url: &str) -> http::request::Builder {
    http::Request::get(url)
}

fn empty(b: http::request::Builder) -> http::Request<Full<Bytes>> {
    b.body(Full::default()).unwrap()
}

const ECHO: &str = r#"
module.exports = {
  main: async (event, context) => {
    const req = event.extensions.request;
    if (req.path === "/slow") { await new Promise((r) => setTimeout(r, Number(req.query.ms || 300))); return "slow done"; }
    if (req.path === "/throw") throw "nope";
    if (req.path === "/emit") { await event.emitCloudEvent("thing.happened", "/echo", { n: 1 }); return "emitted"; }
    event.setResponseHeader("x-echo", "1");
    return {
      method: req.method, path: req.path, query: req.query, data: event.data,
      type: event.data instanceof Uint8Array ? "bytes" : typeof event.data,
      traceparent: req.headers["traceparent"], b3: req.headers["b3"], host: req.headers.host,
      ceType: event["ce-type"], context, env: { FUNC_NAME: process.env.FUNC_NAME, SERVICE_NAMESPACE: process.env.SERVICE_NAMESPACE, FUNC_TIMEOUT: process.env.FUNC_TIMEOUT, COLOR: process.env.COLOR },
    };
  },
};
"#;

fn echo_config() -> FunctionConfig {
    let mut config = FunctionConfig::default();
    config.env.insert("COLOR".into(), "teal".into());
    config
}

#[tokio::test]
async fn routes_by_host_and_by_path() {
    let node = TestNode::start(NodeConfig::default()).await;
    node.add("shop", "echo", ECHO, echo_config()).await;
    for host in ["echo.shop.svc.cluster.local", "echo.shop.svc:80", "echo.shop", "echo"] {
        let r = send(empty(get(&node.url("/a/b?x=1")).header("host", host))).await;
        assert_eq!(r.status, 200, "{host}: {}", r.text());
        assert_eq!(r.json()["path"], "/a/b", "{host}");
    }
    // Path form for local use: /<namespace>/<name>/rest.
    let r = send(empty(get(&node.url("/shop/echo/deep/path?x=1")))).await;
    assert_eq!(r.json()["path"], "/deep/path");
    assert_eq!(r.json()["query"], json!({"x": "1"}));

    let r = send(empty(get(&node.url("/shop/nope/")))).await;
    assert_eq!(r.status, 404);
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert!(r.json()["tried"].to_string().contains("shop/nope"), "{}", r.text());
    node.stop().await;
}

#[tokio::test]
async fn the_kyma_contract_over_http() {
    let node = TestNode::start(NodeConfig::default()).await;
    node.add("default", "echo", ECHO, echo_config()).await;
    let url = node.url("/default/echo/items");

    let r = send(
        http::Request::post(&url)
            .header("content-type", "application/json")
            .body(Full::from(r#"{"a":1}"#))
            .unwrap(),
    )
    .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("access-control-allow-origin"), Some("*"));
    assert_eq!(r.header("x-echo"), Some("1"));
    let body = r.json();
    assert_eq!(body["data"], json!({"a": 1}));
    assert_eq!(body["method"], "POST");
    assert_eq!(
        body["context"],
        json!({"function-name": "echo", "runtime": "nodejs24", "namespace": "default", "timeout": 180, "body-size-limit": 1})
    );
    assert_eq!(
        body["env"],
        json!({"FUNC_NAME": "echo", "SERVICE_NAMESPACE": "default", "FUNC_TIMEOUT": "180", "COLOR": "teal"})
    );

    let r = send(
        http::Request::put(&url)
            .header("content-type", "text/plain")
            .body(Full::from("hi"))
            .unwrap(),
    )
    .await;
    assert_eq!(
        (r.json()["type"].clone(), r.json()["data"].clone()),
        (json!("string"), json!("hi"))
    );
    let r = send(
        http::Request::post(&url)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Full::from("a=1&b=2"))
            .unwrap(),
    )
    .await;
    assert_eq!(r.json()["data"], json!({"a": "1", "b": "2"}));
    let r = send(
        http::Request::post(&url)
            .header("content-type", "image/png")
            .body(Full::from(vec![1u8, 2, 3]))
            .unwrap(),
    )
    .await;
    assert_eq!(r.json()["type"], "bytes");

    // Tracing headers reach the Function.
    let r = send(empty(
        get(&url)
            .header("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
            .header("b3", "80f198ee56343ba8-e457b5a2e4d86bd1-1"),
    ))
    .await;
    assert_eq!(
        r.json()["traceparent"],
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
    );
    assert_eq!(r.json()["b3"], "80f198ee56343ba8-e457b5a2e4d86bd1-1");

    // Binary CloudEvent.
    let r = send(
        http::Request::post(&url)
            .header("content-type", "application/json")
            .header("ce-type", "t.created")
            .header("ce-source", "/s")
            .header("ce-specversion", "1.0")
            .header("ce-id", "1")
            .body(Full::from("{}"))
            .unwrap(),
    )
    .await;
    assert_eq!(r.json()["ceType"], "t.created");
    // Structured CloudEvent.
    let ce = json!({"specversion": "1.0", "type": "t.structured", "source": "/s", "id": "2", "data": {"k": "v"}});
    let r = send(
        http::Request::post(&url)
            .header("content-type", "application/cloudevents+json")
            .body(Full::from(ce.to_string()))
            .unwrap(),
    )
    .await;
    assert_eq!(
        (r.json()["ceType"].clone(), r.json()["data"].clone()),
        (json!("t.structured"), json!({"k": "v"}))
    );

    // A thrown string.
    let r = send(empty(get(&node.url("/default/echo/throw")))).await;
    assert_eq!((r.status, r.text()), (500, "nope".to_string()));

    // CORS preflight echoes what was asked.
    let r = send(empty(
        http::Request::options(&url)
            .header("access-control-request-method", "PATCH")
            .header("access-control-request-headers", "x-token"),
    ))
    .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("access-control-allow-origin"), Some("*"));
    assert_eq!(r.header("access-control-allow-methods"), Some("PATCH"));
    assert_eq!(r.header("access-control-allow-headers"), Some("x-token"));

    let r = send(empty(get(&node.url("/healthz")))).await;
    assert_eq!((r.status, r.text()), (200, "OK".to_string()));
    let r = send(empty(get(&node.url("/favicon.ico")))).await;
    assert_eq!(r.status, 204);

    let r = send(empty(get(&node.url("/metrics")))).await;
    let metrics = r.text();
    assert!(
        metrics.contains(r#"function_calls_total{namespace="default",name="echo"} 8"#),
        "{metrics}"
    );
    assert!(
        metrics.contains(r#"function_failures_total{namespace="default",name="echo"} 1"#),
        "{metrics}"
    );
    assert!(
        metrics.contains(r#"function_duration_seconds_count{namespace="default",name="echo"} 8"#),
        "{metrics}"
    );
    assert!(metrics.contains("shoal_functions_loaded 1"), "{metrics}");
    assert!(metrics.contains("shoal_instance_pool_slots"), "{metrics}");
    // The echo Function served its requests one at a time: one warm sandbox.
    assert!(metrics.contains("shoal_warm_sandboxes_idle 1"), "{metrics}");
    let warm_bytes: u64 = metrics
        .lines()
        .find_map(|l| l.strip_prefix("shoal_warm_sandbox_bytes "))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no shoal_warm_sandbox_bytes in {metrics}"));
    assert!(warm_bytes > 0, "{metrics}");
    node.stop().await;
}

#[tokio::test]
async fn h2c_prior_knowledge_works() {
    let node = TestNode::start(NodeConfig::default()).await;
    node.add("default", "echo", ECHO, echo_config()).await;
    let client: Client<_, Full<Bytes>> = Client::builder(TokioExecutor::new()).http2_only(true).build_http();
    let response = client.request(empty(get(&node.url("/default/echo/h2")))).await.unwrap();
    assert_eq!(response.version(), http::Version::HTTP_2);
    let body = response.into_body().collect().await.unwrap().to_bytes();
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&body).unwrap()["path"],
        "/h2"
    );
    node.stop().await;
}

#[tokio::test]
async fn emitted_events_are_posted_with_trace_headers() {
    // A real HTTP server standing in for Kyma's publisher proxy.
    let proxy = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let proxy_addr = proxy.local_addr().unwrap();
    let (got_tx, got_rx) = oneshot::channel::<(http::HeaderMap, Bytes)>();
    let got_tx = Arc::new(std::sync::Mutex::new(Some(got_tx)));
    tokio::spawn(async move {
        let (stream, _) = proxy.accept().await.unwrap();
        let service = hyper::service::service_fn(move |req: http::Request<hyper::body::Incoming>| {
            let got_tx = got_tx.clone();
            async move {
                let headers = req.headers().clone();
                let body = req.into_body().collect().await.unwrap().to_bytes();
                if let Some(tx) = got_tx.lock().unwrap().take() {
                    let _ = tx.send((headers, body));
                }
                Ok::<_, std::convert::Infallible>(http::Response::new(Full::<Bytes>::default()))
            }
        });
        let _ = hyper::server::conn::http1::Builder::new()
            .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
            .await;
    });
    let config = NodeConfig {
        publisher_proxy: format!("http://{proxy_addr}/publish"),
        ..NodeConfig::default()
    };
    let node = TestNode::start(config).await;
    node.add("default", "echo", ECHO, echo_config()).await;
    let r = send(empty(get(&node.url("/default/echo/emit")).header(
        "traceparent",
        "00-11111111111111111111111111111111-2222222222222222-01",
    )))
    .await;
    assert_eq!(r.text(), "emitted");
    let (headers, body) = tokio::time::timeout(Duration::from_secs(10), got_rx)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(headers["content-type"], "application/cloudevents+json; charset=utf-8");
    assert_eq!(
        headers["traceparent"],
        "00-11111111111111111111111111111111-2222222222222222-01"
    );
    let event: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(
        (event["type"].clone(), event["source"].clone(), event["data"].clone()),
        (json!("thing.happened"), json!("/echo"), json!({"n": 1}))
    );
    node.stop().await;
}

/// Busy-looping requests of one Function used to take every executor
/// thread (eight raised a neighbour's p50 from 1 ms to 243 ms). A
/// Function's busy guests now share its cores (one for Kyma's presets up to
/// L): the rest wait off the executor, counted as throttled, like a pod at
/// its CPU limit, while a neighbour keeps answering. The latency figures are
/// `shoal-bench isolation`'s.
#[tokio::test]
async fn a_busy_function_gets_its_cpu_share_and_no_more() {
    let node = TestNode::start(NodeConfig::default()).await;
    let short = FunctionConfig {
        timeout: Duration::from_secs(1),
        cpu_cores: 1,
        ..FunctionConfig::default()
    };
    node.add("default", "spin", "module.exports = { main() { for (;;) {} } };", short)
        .await;
    node.add("default", "echo", ECHO, echo_config()).await;
    let spinners: Vec<_> = (0..4)
        .map(|_| {
            let url = node.url("/default/spin/");
            tokio::spawn(async move { send(empty(get(&url))).await.status })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(200)).await;
    for _ in 0..5 {
        assert_eq!(send(empty(get(&node.url("/default/echo/")))).await.status, 200);
    }
    for spinner in spinners {
        assert_eq!(
            spinner.await.unwrap(),
            408,
            "each spinner still ends at its own timeout"
        );
    }
    let metrics = send(empty(get(&node.url("/metrics")))).await.text();
    let throttled = |name: &str| -> u64 {
        let prefix = format!(r#"shoal_function_cpu_throttled_total{{namespace="default",name="{name}"}} "#);
        metrics
            .lines()
            .find_map(|l| l.strip_prefix(prefix.as_str()))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no throttle count for {name}: {metrics}"))
    };
    assert!(
        throttled("spin") > 0,
        "four busy guests of a one-core Function never waited for a turn"
    );
    assert_eq!(throttled("echo"), 0, "a quick Function is never throttled");
    node.stop().await;
}

/// A loopback upstream that accepts connections and never answers nor
/// reads: every call to it stays in flight. Counts the connections made.
async fn silent_upstream() -> (String, Arc<std::sync::atomic::AtomicUsize>, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    let accepted = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let count = accepted.clone();
    let task = tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((stream, _)) = listener.accept().await {
            count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            held.push(stream);
        }
    });
    (url, accepted, task)
}

/// Fire-and-forget fetches used to be counted per request only, so a warm
/// sandbox piled them up (550 connections open after a few requests). The
/// cap is the sandbox's: calls an earlier request left in flight count.
#[tokio::test]
async fn fire_and_forget_fetches_are_capped_per_sandbox_across_requests() {
    let (upstream, accepted, server) = silent_upstream().await;
    let node = TestNode::start(NodeConfig::default()).await;
    let mut config = FunctionConfig::default();
    config.env.insert("UPSTREAM".into(), upstream);
    node.add(
        "default",
        "scatter",
        "module.exports = { main() { let refused = 0; for (let i = 0; i < 20; i++) { fetch(process.env.UPSTREAM).catch(e => { if (/limit/.test(e.message + ' ' + (e.cause && e.cause.message))) refused++; }); } return new Promise(r => setTimeout(() => r(String(refused)), 50)); } };",
        config,
    )
    .await;
    let limit = shoal_runtime::OutboundLimits::default().max_requests as usize;
    let mut refused = Vec::new();
    for _ in 0..6 {
        let r = send(empty(get(&node.url("/default/scatter/")))).await;
        assert_eq!(r.status, 200, "{}", r.text());
        refused.push(r.text().parse::<usize>().unwrap());
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let made = accepted.load(std::sync::atomic::Ordering::SeqCst);
    assert!(
        made <= limit,
        "{made} connections from one sandbox's fire-and-forget fetches; its cap is {limit}"
    );
    assert!(made > 0, "no fetch reached the upstream");
    assert_eq!(refused[0], 0, "the first request's 20 fetches are within the cap");
    assert!(
        refused.iter().sum::<usize>() >= 6 * 20 - limit,
        "fetches past the sandbox's cap are refused with a clear error: {refused:?}"
    );
    node.stop().await;
    server.abort();
}

/// Outbound bodies used to live on the host uncounted (an XS Function grew
/// the node by 1.6 GiB). They are charged to the node's buffer account
/// while in flight; one that does not fit fails with a clear error.
#[tokio::test]
async fn outbound_bodies_are_charged_to_the_nodes_buffer_account() {
    let (upstream, _accepted, server) = silent_upstream().await;
    let node = TestNode::start(NodeConfig {
        max_buffered_body_bytes: 4 << 20,
        ..NodeConfig::default()
    })
    .await;
    let mut config = FunctionConfig::default();
    config.env.insert("UPSTREAM".into(), upstream);
    node.add(
        "default",
        "upload",
        "module.exports = { async main() { const body = 'x'.repeat(3 << 20); fetch(process.env.UPSTREAM, { method: 'POST', body }).catch(() => {}); try { await fetch(process.env.UPSTREAM, { method: 'POST', body }); return 'sent twice'; } catch (e) { return e.message + ' ' + (e.cause ? e.cause.message : ''); } } };",
        config,
    )
    .await;
    let r = send(empty(get(&node.url("/default/upload/")))).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.text().contains("buffered bytes"), "{}", r.text());
    node.stop().await;
    server.abort();
}

/// A Function's answer waits in the node until its caller reads it; a
/// tenant with slow readers of large answers held node memory nothing
/// counted. The answer is charged to the buffer account until sent: a
/// second one that does not fit gets 503, and once the first reader has
/// taken its bytes the node answers again.
#[tokio::test]
async fn answers_waiting_for_slow_readers_are_charged_to_the_nodes_buffer_account() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    const ANSWER: usize = 24 << 20;
    let node = TestNode::start(NodeConfig {
        max_buffered_body_bytes: 32 << 20,
        ..NodeConfig::default()
    })
    .await;
    node.add(
        "default",
        "big",
        "module.exports = { main() { return 'x'.repeat(24 * 1024 * 1024); } };",
        FunctionConfig::default(),
    )
    .await;
    let mut slow = tokio::net::TcpStream::connect(node.addr).await.unwrap();
    slow.write_all(b"GET /default/big/ HTTP/1.1\r\nHost: node\r\n\r\n")
        .await
        .unwrap();
    // The first bytes arrive; the reader then stops, with most of the
    // answer still in the node.
    let mut head = [0u8; 12];
    slow.read_exact(&mut head).await.unwrap();
    assert_eq!(&head, b"HTTP/1.1 200");
    let r = send(empty(get(&node.url("/default/big/")))).await;
    assert_eq!(r.status, 503, "a second 24 MiB answer fit beside the first in 32 MiB");
    assert!(r.text().contains("too many responses"), "{}", r.text());
    let mut rest = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(30), async {
        let mut chunk = vec![0u8; 1 << 20];
        while rest.len() < ANSWER {
            let n = slow.read(&mut chunk).await.unwrap();
            assert!(n > 0, "the connection closed after {} bytes", rest.len());
            rest.extend_from_slice(&chunk[..n]);
        }
    })
    .await;
    assert!(read.is_ok(), "the slow reader's answer stalled");
    assert!(rest.ends_with(b"xxxx"));
    drop(slow);
    let r = send(empty(get(&node.url("/default/big/")))).await;
    assert_eq!(
        r.status,
        200,
        "the first answer's bytes were not given back: {}",
        r.text()
    );
    assert_eq!(r.body.len(), ANSWER);
    node.stop().await;
}

/// Idle warm sandboxes used to keep their pool slots, so one Function's
/// burst left a neighbour answering 503 "No capacity". Under pressure the
/// least recently used idle sandbox gives its slot up.
#[tokio::test]
async fn idle_warm_sandboxes_give_their_slots_up_under_pressure() {
    let two_slots = shoal_runtime::Runtime::new(&shoal_runtime::RuntimeConfig {
        pool_slots: 2,
        cache_dir: Some(shoal_tests::workspace_root().join("target/shoal-test-cache")),
        ..shoal_runtime::RuntimeConfig::default()
    })
    .unwrap();
    let node = TestNode::start_on(Arc::new(two_slots), NodeConfig::default(), TableConfig::default()).await;
    node.add(
        "default",
        "burst",
        "module.exports = { main() { return new Promise(r => setTimeout(() => r('done'), 300)); } };",
        FunctionConfig::default(),
    )
    .await;
    node.add("default", "echo", ECHO, echo_config()).await;
    let burst: Vec<_> = (0..2)
        .map(|_| {
            let url = node.url("/default/burst/");
            tokio::spawn(async move { send(empty(get(&url))).await.status })
        })
        .collect();
    for request in burst {
        assert_eq!(request.await.unwrap(), 200);
    }
    assert_eq!(
        node.table.warm_budget().idle_sandboxes(),
        2,
        "the burst left both slots idle"
    );
    let r = send(empty(get(&node.url("/default/echo/")))).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        node.table.warm_budget().idle_sandboxes(),
        2,
        "one of burst's went; echo's stays"
    );
    node.stop().await;
}

/// Random traffic that finds every slot held by idle warm sandboxes of
/// other Functions is served: each request that finds no slot retires one
/// and tries again, going on while idle sandboxes are left, because a
/// concurrent request may take the slot it freed. (Trying once answered
/// 503 to 2 and 67 requests of the benchmark's random traffic over 1,000
/// Functions at c=64; this test exercises the path, the race itself shows
/// only under that load.)
#[tokio::test]
async fn random_traffic_gets_the_slots_of_idle_sandboxes_even_when_requests_race_for_them() {
    const SLOTS: u32 = 8;
    let runtime = shoal_runtime::Runtime::new(&shoal_runtime::RuntimeConfig {
        pool_slots: SLOTS,
        cache_dir: Some(shoal_tests::workspace_root().join("target/shoal-test-cache")),
        ..shoal_runtime::RuntimeConfig::default()
    })
    .unwrap();
    let node = TestNode::start_on(Arc::new(runtime), NodeConfig::default(), TableConfig::default()).await;
    // Three times as many Functions as slots, each called in turn: every
    // slot is always held by an idle warm sandbox of another Function.
    let functions = SLOTS * 3;
    for i in 0..functions {
        node.add("default", &format!("fn-{i}"), ECHO, echo_config()).await;
    }
    for round in 0..functions {
        let burst: Vec<_> = (0..SLOTS)
            .map(|k| {
                let url = node.url(&format!("/default/fn-{}/", (round + k) % functions));
                tokio::spawn(async move {
                    let r = send(empty(get(&url))).await;
                    (r.status, r.text())
                })
            })
            .collect();
        for request in burst {
            let (status, text) = request.await.unwrap();
            assert_eq!(status, 200, "round {round}: {text}");
        }
    }
    node.stop().await;
}

/// Each sandbox within its Function's memory limit, several together used
/// to take the node past its own (three 700 MiB requests: 2.5 GiB in a
/// 2 GiB pod, killed with every tenant in it). Guests' memory growth is
/// counted node-wide: a request that would pass the node's bound is
/// refused with 503, the node and the request already running go on.
#[tokio::test]
async fn sandboxes_together_cannot_take_the_node_past_its_memory() {
    let small_node = shoal_runtime::Runtime::new(&shoal_runtime::RuntimeConfig {
        pool_slots: 8,
        max_guest_memory_bytes: 96 << 20,
        cache_dir: Some(shoal_tests::workspace_root().join("target/shoal-test-cache")),
        ..shoal_runtime::RuntimeConfig::default()
    })
    .unwrap();
    let node = TestNode::start_on(Arc::new(small_node), NodeConfig::default(), TableConfig::default()).await;
    node.add(
        "default",
        "big",
        "module.exports = { async main() { const a = new Uint8Array(64 << 20); a.fill(1); await new Promise(r => setTimeout(r, 500)); return String(a.length); } };",
        FunctionConfig::default(),
    )
    .await;
    let both: Vec<_> = (0..2)
        .map(|_| {
            let url = node.url("/default/big/");
            tokio::spawn(async move {
                let r = send(empty(get(&url))).await;
                (r.status, r.text())
            })
        })
        .collect();
    let mut answers = Vec::new();
    for request in both {
        answers.push(request.await.unwrap());
    }
    answers.sort();
    assert_eq!(answers[0], (200, (64u32 << 20).to_string()), "{answers:?}");
    assert_eq!(answers[1].0, 503, "{answers:?}");
    assert!(answers[1].1.contains("no memory left"), "{answers:?}");
    // The node lives on and serves the Function again.
    let r = send(empty(get(&node.url("/default/big/")))).await;
    assert_eq!(r.status, 200, "{}", r.text());
    node.stop().await;
}

#[tokio::test]
async fn a_spinning_function_gets_408_while_its_neighbour_answers() {
    let node = TestNode::start(NodeConfig::default()).await;
    let short = FunctionConfig {
        timeout: Duration::from_secs(1),
        ..FunctionConfig::default()
    };
    node.add("default", "spin", "module.exports = { main() { for (;;) {} } };", short)
        .await;
    node.add("default", "echo", ECHO, echo_config()).await;
    let spin_url = node.url("/default/spin/");
    let spinning = tokio::spawn(async move {
        let started = Instant::now();
        let r = send(empty(get(&spin_url))).await;
        (r.status, r.text(), started.elapsed())
    });
    // While it spins, the neighbour keeps answering.
    tokio::time::sleep(Duration::from_millis(200)).await;
    for _ in 0..5 {
        let r = send(empty(get(&node.url("/default/echo/")))).await;
        assert_eq!(r.status, 200);
    }
    let (status, text, elapsed) = spinning.await.unwrap();
    assert_eq!(status, 408, "{text}");
    assert!(
        elapsed >= Duration::from_secs(1),
        "interrupted at the timeout, not before: {elapsed:?}"
    );
    // And the spinner itself still serves its next request (and times out again).
    assert_eq!(send(empty(get(&node.url("/healthz")))).await.status, 200);
    node.stop().await;
}

#[tokio::test]
async fn a_memory_bomb_fails_only_its_request() {
    let node = TestNode::start(NodeConfig::default()).await;
    let xs = FunctionConfig {
        memory_limit: 64 << 20,
        ..FunctionConfig::default()
    };
    node.add(
        "default",
        "bomb",
        "module.exports = { main(event) { if (event.extensions.request.path === '/ok') return 'small'; const a = []; for (;;) a.push(new Array(1e6).fill(7)); } };",
        xs,
    )
    .await;
    node.add("default", "echo", ECHO, echo_config()).await;
    let r = send(empty(get(&node.url("/default/bomb/")))).await;
    assert_eq!(r.status, 500);
    assert_eq!(r.text(), "Function exceeded its memory limit");
    assert_eq!(send(empty(get(&node.url("/default/bomb/ok")))).await.text(), "small");
    assert_eq!(send(empty(get(&node.url("/default/echo/")))).await.status, 200);
    node.stop().await;
}

/// Counts its requests in module state; `/spin`, `/bomb`, `/recurse` and
/// `/throw` time out, exhaust memory, trap (the WebAssembly call stack runs
/// out) and throw.
const COUNTER: &str = r#"
let served = 0;
const deeper = (n) => deeper(n + 1) + 1;
module.exports = {
  main(event) {
    switch (event.extensions.request.path) {
      case "/spin": for (;;) {}
      case "/recurse": return deeper(0);
      case "/bomb": { const a = []; for (;;) a.push(new Array(1e6).fill(7)); }
      case "/throw": served += 1; throw new Error("thrown on purpose");
      default: served += 1; return `served ${served}`;
    }
  },
};
"#;

/// A table whose every request gets a fresh sandbox (no warm sandboxes).
fn fresh_sandboxes() -> TableConfig {
    TableConfig {
        warm: shoal_node::WarmConfig {
            enabled: false,
            ..shoal_node::WarmConfig::default()
        },
        ..TableConfig::default()
    }
}

fn counter_config() -> FunctionConfig {
    FunctionConfig {
        timeout: Duration::from_secs(1),
        memory_limit: 64 << 20,
        ..FunctionConfig::default()
    }
}

async fn count(node: &TestNode, name: &str) -> String {
    let r = send(empty(get(&node.url(&format!("/default/{name}/"))))).await;
    assert_eq!(r.status, 200, "{}", r.text());
    r.text()
}

/// Module-level state lives as long as a warm sandbox, as it lives as long
/// as the pod in Kyma; a request that times out, runs out of memory or traps
/// takes its sandbox with it, so the next request starts from a freshly
/// evaluated module, and no other Function notices. A thrown error is an answer, not
/// a failure of the sandbox: state carries on, as in Node.js.
#[tokio::test]
async fn module_state_persists_in_a_warm_sandbox_and_a_failed_request_never_poisons_the_next() {
    let node = TestNode::start(NodeConfig::default()).await;
    node.add("default", "counter", COUNTER, counter_config()).await;
    node.add("default", "neighbour", COUNTER, counter_config()).await;
    assert_eq!(count(&node, "counter").await, "served 1");
    assert_eq!(count(&node, "counter").await, "served 2");
    assert_eq!(
        count(&node, "neighbour").await,
        "served 1",
        "each Function has its own state"
    );

    let r = send(empty(get(&node.url("/default/counter/spin")))).await;
    assert_eq!(r.status, 408);
    assert_eq!(
        count(&node, "counter").await,
        "served 1",
        "a fresh sandbox after the timeout"
    );
    assert_eq!(count(&node, "counter").await, "served 2");

    let r = send(empty(get(&node.url("/default/counter/bomb")))).await;
    assert_eq!(
        (r.status, r.text()),
        (500, "Function exceeded its memory limit".to_string())
    );
    assert_eq!(
        count(&node, "counter").await,
        "served 1",
        "a fresh sandbox after the memory overrun"
    );

    let r = send(empty(get(&node.url("/default/counter/throw")))).await;
    assert_eq!(r.status, 500);
    assert_eq!(
        count(&node, "counter").await,
        "served 3",
        "a thrown error keeps the sandbox"
    );

    assert_eq!(
        count(&node, "neighbour").await,
        "served 2",
        "the neighbour kept its sandbox throughout"
    );
    node.stop().await;
}

/// A warm sandbox is recycled after its share of requests, dropped after
/// its idle time (giving its memory back to the node's budget), and with
/// the fresh-sandbox switch on, state never outlives a request.
#[tokio::test]
async fn warm_sandboxes_are_recycled_expire_when_idle_and_can_be_switched_off() {
    let recycling = TableConfig {
        warm: shoal_node::WarmConfig {
            max_requests: 3,
            idle_ttl: Duration::from_millis(400),
            ..shoal_node::WarmConfig::default()
        },
        ..TableConfig::default()
    };
    let node = TestNode::start_with(NodeConfig::default(), recycling).await;
    node.add("default", "counter", COUNTER, counter_config()).await;
    let mut seen = Vec::new();
    for _ in 0..7 {
        seen.push(count(&node, "counter").await);
    }
    assert_eq!(
        seen,
        [
            "served 1", "served 2", "served 3", "served 1", "served 2", "served 3", "served 1"
        ]
    );
    assert_eq!(node.table.warm_budget().idle_sandboxes(), 1);
    assert!(node.table.warm_budget().used_bytes() > 0);
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(
        node.table.warm_budget().idle_sandboxes(),
        0,
        "dropped after its idle time"
    );
    assert_eq!(node.table.warm_budget().used_bytes(), 0);
    assert_eq!(count(&node, "counter").await, "served 1");
    node.stop().await;

    let node = TestNode::start_with(NodeConfig::default(), fresh_sandboxes()).await;
    node.add("default", "counter", COUNTER, counter_config()).await;
    for _ in 0..3 {
        assert_eq!(count(&node, "counter").await, "served 1");
    }
    assert_eq!(node.table.warm_budget().idle_sandboxes(), 0);
    node.stop().await;
}

const LOAD_STATE: &str = r#"
let served = 0;
const loadedAt = Date.now();
const token = Math.random();
const color = process.env.COLOR;
const loadedPerf = performance.now();
console.log("loading");
module.exports = {
  main(event) {
    if (event.extensions.request.path === "/spin") for (;;) {}
    served += 1;
    const now = performance.now();
    return { served, loadedAt, token, color, random: Math.random(), clockForward: loadedPerf >= 0 && now >= loadedPerf };
  },
};
"#;

/// A fresh sandbox starts from the Function's snapshot: the state right
/// after its module loaded (so what the top level computed, even a time or
/// a random number, is the same in every fresh sandbox), not evaluated
/// again; it draws new random numbers all the same, starts from the
/// snapshot again after a timeout, and a snapshot taken with one
/// environment is never used with another.
#[tokio::test]
async fn fresh_sandboxes_start_from_the_snapshot_of_the_loaded_module() {
    let node = TestNode::start_with(NodeConfig::default(), fresh_sandboxes()).await;
    let mut config = counter_config();
    config.env.insert("COLOR".into(), "teal".into());
    node.add("default", "loads", LOAD_STATE, config.clone()).await;
    let call = || async {
        let r = send(empty(get(&node.url("/default/loads/")))).await;
        assert_eq!(r.status, 200, "{}", r.text());
        r.json()
    };
    let first = call().await;
    tokio::time::sleep(Duration::from_millis(5)).await;
    let second = call().await;
    let third = call().await;
    for later in [&second, &third] {
        assert_eq!(later["served"], 1, "module state starts from right after the load");
        assert_eq!(
            later["loadedAt"], first["loadedAt"],
            "the top level ran once, for the snapshot"
        );
        assert_eq!(later["token"], first["token"]);
        assert_eq!(later["color"], "teal");
        assert_eq!(
            later["clockForward"], true,
            "performance.now() at load <= in the request, both >= 0"
        );
    }
    assert_ne!(second["random"], third["random"], "each copy reseeds Math.random");
    assert_ne!(second["random"], first["random"]);

    let r = send(empty(get(&node.url("/default/loads/spin")))).await;
    assert_eq!(r.status, 408);
    let after_timeout = call().await;
    assert_eq!(after_timeout["served"], 1);
    assert_eq!(after_timeout["loadedAt"], first["loadedAt"], "from the snapshot again");

    config.env.insert("COLOR".into(), "plum".into());
    node.add("default", "loads", LOAD_STATE, config).await;
    let recoloured = call().await;
    assert_eq!(recoloured["color"], "plum", "another env is another snapshot");
    assert_ne!(recoloured["loadedAt"], first["loadedAt"]);
    node.stop().await;
}

/// A snapshot is kept as a file next to the module's precompiled code: a
/// node that starts again (a new runtime on the same cache) restores from
/// it instead of loading the module again, and a file that does not read
/// back is ignored (the module loads as without one).
#[tokio::test]
async fn a_restarted_node_restores_a_function_from_its_snapshot_file() {
    let source = format!("// {}\n{LOAD_STATE}", "a_restarted_node_restores");
    let wasm = Arc::new(wasm(&source).await);
    let cache = shoal_tests::workspace_root().join("target/shoal-test-cache");
    let loaded_at = |runtime: Arc<shoal_runtime::Runtime>| {
        let wasm = wasm.clone();
        async move {
            let table = Arc::new(FunctionTable::new(runtime, fresh_sandboxes()));
            table.upsert(
                FunctionKey::new("default", "restarts"),
                counter_config(),
                ModuleSource::Bytes(wasm),
            );
            let node = Node::new(table, NodeConfig::default());
            let req = http::Request::get("/default/restarts/")
                .header("host", "127.0.0.1")
                .body(Full::<Bytes>::default())
                .unwrap();
            let response = node.handle(req, "127.0.0.1:1".parse().unwrap()).await;
            assert_eq!(response.status(), 200);
            let body = response.into_body().collect().await.unwrap().to_bytes();
            serde_json::from_slice::<serde_json::Value>(&body).unwrap()["loadedAt"].clone()
        }
    };
    let new_runtime = || {
        Arc::new(
            shoal_runtime::Runtime::new(&shoal_runtime::RuntimeConfig {
                pool_slots: 4,
                cache_dir: Some(cache.clone()),
                ..shoal_runtime::RuntimeConfig::default()
            })
            .unwrap(),
        )
    };
    let digest = shoal_engine::sha256_hex(&wasm);
    let snapshot_files = || -> Vec<std::path::PathBuf> {
        let name = format!("{digest}.snap");
        let mut files = Vec::new();
        for engine_dir in std::fs::read_dir(&cache).unwrap().flatten() {
            for boot_dir in std::fs::read_dir(engine_dir.path().join("snapshots"))
                .into_iter()
                .flatten()
                .flatten()
            {
                let file = boot_dir.path().join(&name);
                if file.exists() {
                    files.push(file);
                }
            }
        }
        files
    };
    for file in snapshot_files() {
        std::fs::remove_file(file).unwrap();
    }

    let first = loaded_at(new_runtime()).await;
    let mut files = snapshot_files();
    for _ in 0..100 {
        if !files.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        files = snapshot_files();
    }
    assert_eq!(files.len(), 1, "one snapshot file for the Function: {files:?}");
    tokio::time::sleep(Duration::from_millis(5)).await;
    assert_eq!(
        loaded_at(new_runtime()).await,
        first,
        "restored from the file, not loaded again"
    );

    std::fs::write(&files[0], b"SHOALSNAP1\ncut short").unwrap();
    let reloaded = loaded_at(new_runtime()).await;
    assert_ne!(reloaded, first, "a broken file is ignored: loaded again");
}

/// Module state persists in a warm sandbox, but a request's async context
/// does not: AsyncLocalStorage.enterWith in one request is not the next
/// request's store (each Node.js request starts in a fresh async context).
#[tokio::test]
async fn an_async_local_storage_store_does_not_leak_into_the_next_request() {
    let node = TestNode::start(NodeConfig::default()).await;
    let source = r#"
const { AsyncLocalStorage } = require("node:async_hooks");
const als = new AsyncLocalStorage();
let served = 0;
module.exports = {
  main(event) {
    served += 1;
    const before = als.getStore();
    als.enterWith({ path: event.extensions.request.path });
    return { served, before: before === undefined ? null : before, now: als.getStore() };
  },
};
"#;
    node.add("default", "als", source, FunctionConfig::default()).await;
    let first = send(empty(get(&node.url("/default/als/a")))).await.json();
    let second = send(empty(get(&node.url("/default/als/b")))).await.json();
    assert_eq!(first, json!({"served": 1, "before": null, "now": {"path": "/a"}}));
    assert_eq!(second, json!({"served": 2, "before": null, "now": {"path": "/b"}}));
    node.stop().await;
}

/// When idle sandboxes would pass the node's warm budget, the ones used
/// least recently make room, whatever Function they belong to: a Function
/// in use keeps its sandbox (and state) while one that went quiet loses it.
#[tokio::test]
async fn a_full_warm_budget_retires_the_least_recently_used_sandbox() {
    // One sandbox's size, from a node with room to spare.
    let probe = TestNode::start(NodeConfig::default()).await;
    probe.add("default", "a", COUNTER, counter_config()).await;
    count(&probe, "a").await;
    let one = probe.table.warm_budget().used_bytes();
    assert!(one > 0);
    probe.stop().await;

    // Room for two idle sandboxes, not three.
    let tight = TableConfig {
        warm: shoal_node::WarmConfig {
            memory_budget: one * 5 / 2,
            ..shoal_node::WarmConfig::default()
        },
        ..TableConfig::default()
    };
    let node = TestNode::start_with(NodeConfig::default(), tight).await;
    for name in ["a", "b", "c"] {
        node.add("default", name, COUNTER, counter_config()).await;
    }
    assert_eq!(count(&node, "a").await, "served 1");
    assert_eq!(count(&node, "b").await, "served 1");
    assert_eq!(count(&node, "a").await, "served 2", "a is now the most recently used");
    assert_eq!(count(&node, "c").await, "served 1", "c's sandbox needs room: b's goes");
    assert_eq!(node.table.warm_budget().idle_sandboxes(), 2);
    assert_eq!(count(&node, "a").await, "served 3", "a kept its sandbox");
    assert_eq!(count(&node, "b").await, "served 1", "b's sandbox was retired");
    node.stop().await;
}

#[tokio::test]
async fn a_10_mb_body_gets_413() {
    let node = TestNode::start(NodeConfig::default()).await;
    node.add("default", "echo", ECHO, echo_config()).await;
    let big = vec![b'x'; 10 << 20];
    let r = send(
        http::Request::post(node.url("/default/echo/"))
            .header("content-type", "text/plain")
            .body(Full::from(big))
            .unwrap(),
    )
    .await;
    assert_eq!(r.status, 413);
    // Just under the limit is fine.
    let ok = vec![b'x'; (1 << 20) - 1];
    let r = send(
        http::Request::post(node.url("/default/echo/"))
            .header("content-type", "text/plain")
            .body(Full::from(ok))
            .unwrap(),
    )
    .await;
    assert_eq!(r.status, 200);
    node.stop().await;
}

#[tokio::test]
async fn a_trapping_module_answers_500_and_the_node_lives_on() {
    let node = TestNode::start(NodeConfig::default()).await;
    // A Function module (it imports the engine's memory) whose code traps
    // at once: `(module (import "shoal_engine_v1" "memory" (memory 0))
    // (func (export "_start") unreachable))`.
    let mut trap = b"\0asm\x01\0\0\0\x01\x04\x01\x60\0\0\x02\x1b\x01\x0f".to_vec();
    trap.extend_from_slice(shoal_engine::IMPORT_NAMESPACE.as_bytes());
    trap.extend_from_slice(b"\x06memory\x02\0\0\x03\x02\x01\0\x07\x0a\x01\x06_start\0\0\x0a\x05\x01\x03\0\0\x0b");
    node.table.upsert(
        FunctionKey::new("default", "trap"),
        FunctionConfig::default(),
        ModuleSource::Bytes(Arc::new(trap)),
    );
    node.add("default", "echo", ECHO, echo_config()).await;
    let r = send(empty(get(&node.url("/default/trap/")))).await;
    assert_eq!((r.status, r.text()), (500, "Internal server error".to_string()));
    assert_eq!(send(empty(get(&node.url("/default/echo/")))).await.status, 200);
    // A module that does not even compile is reported, not fatal.
    node.table.upsert(
        FunctionKey::new("default", "junk"),
        FunctionConfig::default(),
        ModuleSource::Bytes(Arc::new(b"not wasm".to_vec())),
    );
    let r = send(empty(get(&node.url("/default/junk/")))).await;
    assert_eq!((r.status, r.text()), (500, "User function not loaded".to_string()));
    assert_eq!(send(empty(get(&node.url("/default/echo/")))).await.status, 200);
    node.stop().await;
}

#[tokio::test]
async fn past_the_concurrency_cap_is_503_with_retry_after() {
    let node = TestNode::start(NodeConfig::default()).await;
    let one = FunctionConfig {
        max_concurrency: 1,
        ..FunctionConfig::default()
    };
    node.add("default", "echo", ECHO, one).await;
    let slow_url = node.url("/default/echo/slow?ms=800");
    let slow = tokio::spawn(async move { send(empty(get(&slow_url))).await.status });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let r = send(empty(get(&node.url("/default/echo/")))).await;
    assert_eq!(r.status, 503);
    assert_eq!(r.header("retry-after"), Some("1"));
    assert_eq!(slow.await.unwrap(), 200);
    assert_eq!(send(empty(get(&node.url("/default/echo/")))).await.status, 200);
    node.stop().await;
}

#[tokio::test]
async fn a_hot_update_lets_in_flight_requests_finish_on_their_version() {
    let node = TestNode::start(NodeConfig::default()).await;
    let v1 = "module.exports = { main: async () => { await new Promise((r) => setTimeout(r, 600)); return 'v1'; } };";
    let v2 = "module.exports = { main: () => 'v2' };";
    node.add("default", "app", v1, FunctionConfig::default()).await;
    let url = node.url("/default/app/");
    let in_flight = {
        let url = url.clone();
        tokio::spawn(async move { send(empty(get(&url))).await.text() })
    };
    tokio::time::sleep(Duration::from_millis(200)).await;
    node.add("default", "app", v2, FunctionConfig::default()).await;
    assert_eq!(send(empty(get(&url))).await.text(), "v2");
    assert_eq!(in_flight.await.unwrap(), "v1");
    assert!(node.table.remove(&FunctionKey::new("default", "app")));
    assert_eq!(send(empty(get(&url))).await.status, 404);
    node.stop().await;
}

#[tokio::test]
async fn idle_functions_are_evicted_beyond_the_budget_and_reload_on_demand() {
    let table = Arc::new(FunctionTable::new(
        runtime(),
        TableConfig {
            memory_budget: 1,
            ..TableConfig::default()
        },
    ));
    let inputs = shoal_api::BuildInputs {
        source: "module.exports = { main: () => 'hi' };".into(),
        dependencies: None,
        runtime: "nodejs22".into(),
        files: Default::default(),
    };
    let wasm = Arc::new(builder().build(&inputs).await.unwrap().wasm);
    let a = table.upsert(
        FunctionKey::new("default", "a"),
        FunctionConfig::default(),
        ModuleSource::Bytes(wasm.clone()),
    );
    let b = table.upsert(
        FunctionKey::new("default", "b"),
        FunctionConfig::default(),
        ModuleSource::Bytes(wasm),
    );
    table.module(&a).await.unwrap();
    assert!(a.is_loaded());
    table.module(&b).await.unwrap();
    assert!(b.is_loaded() && !a.is_loaded(), "the least recently used one goes");
    table.module(&a).await.unwrap();
    assert!(a.is_loaded() && !b.is_loaded());
    assert_eq!(table.stats.evictions.load(std::sync::atomic::Ordering::Relaxed), 2);
}

#[tokio::test]
async fn shutdown_drains_in_flight_requests() {
    let node = TestNode::start(NodeConfig::default()).await;
    node.add("default", "echo", ECHO, echo_config()).await;
    let url = node.url("/default/echo/slow?ms=500");
    let in_flight = tokio::spawn(async move { send(empty(get(&url))).await });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let addr = node.addr;
    node.stop().await;
    let r = in_flight.await.unwrap();
    assert_eq!((r.status, r.text()), (200, "slow done".to_string()));
    assert!(
        tokio::net::TcpStream::connect(addr).await.is_err(),
        "no longer accepting"
    );
}

#[tokio::test]
async fn functions_from_oci_artifacts_are_pulled_once_and_cached_by_digest() {
    use shoal_oci::{ArtifactMetadata, Credentials, Registry, Transport};
    use std::sync::atomic::Ordering::Relaxed;
    let registry = shoal_tests::TestRegistry::start(None);
    let inputs = shoal_api::BuildInputs {
        source: "module.exports = { main: () => 'from the registry' };".into(),
        dependencies: None,
        runtime: "nodejs22".into(),
        files: Default::default(),
    };
    let wasm = builder().build(&inputs).await.unwrap().wasm;
    let reference = format!("{}/functions/reg:v1", registry.address);
    let pushed = Registry::new(Transport::Http, Credentials::Anonymous)
        .push(&reference, &wasm, &ArtifactMetadata::default())
        .await
        .unwrap();
    let artifacts = tempfile::tempdir().unwrap();
    let table_config = TableConfig {
        artifact_dir: Some(artifacts.path().into()),
        ..TableConfig::default()
    };
    let source = ModuleSource::Oci {
        reference: reference.clone(),
        digest: Some(pushed.digest.clone()),
    };

    let node = TestNode::start_with(NodeConfig::default(), table_config.clone()).await;
    node.table.upsert(
        FunctionKey::new("default", "reg"),
        FunctionConfig::default(),
        source.clone(),
    );
    for _ in 0..3 {
        let r = send(empty(get(&node.url("/default/reg/")))).await;
        assert_eq!((r.status, r.text()), (200, "from the registry".to_string()));
    }
    assert_eq!(node.table.stats.artifact_pulls.load(Relaxed), 1, "pulled once");
    // A digest that does not match what the tag holds is refused, not served.
    let wrong = ModuleSource::Oci {
        reference: reference.clone(),
        digest: Some(format!("sha256:{}", "1".repeat(64))),
    };
    node.table
        .upsert(FunctionKey::new("default", "wrong"), FunctionConfig::default(), wrong);
    let r = send(empty(get(&node.url("/default/wrong/")))).await;
    assert_eq!((r.status, r.text()), (500, "User function not loaded".to_string()));
    node.stop().await;

    // A restarted node finds the artifact on disk: the registry is not needed.
    drop(registry);
    let node = TestNode::start_with(NodeConfig::default(), table_config).await;
    node.table
        .upsert(FunctionKey::new("default", "reg"), FunctionConfig::default(), source);
    let r = send(empty(get(&node.url("/default/reg/")))).await;
    assert_eq!((r.status, r.text()), (200, "from the registry".to_string()));
    assert_eq!(node.table.stats.artifact_hits.load(Relaxed), 1);
    assert_eq!(node.table.stats.artifact_pulls.load(Relaxed), 0);
    node.stop().await;
}

/// Built wasm for a tiny Function.
async fn wasm(source: &str) -> Vec<u8> {
    let inputs = shoal_api::BuildInputs {
        source: source.into(),
        dependencies: None,
        runtime: "nodejs22".into(),
        files: Default::default(),
    };
    builder().build(&inputs).await.unwrap().wasm
}

#[tokio::test]
async fn an_entry_replaced_while_its_module_loads_leaves_the_memory_account_exact() {
    let one = Arc::new(wasm("module.exports = { main: () => 'one' };").await);
    let two = Arc::new(wasm("module.exports = { main: () => 'two, a little longer' };").await);
    let key = FunctionKey::new("shop", "f");

    // What version two alone accounts for.
    let alone = FunctionTable::new(runtime(), TableConfig::default());
    let entry = alone.upsert(key.clone(), FunctionConfig::default(), ModuleSource::Bytes(two.clone()));
    alone.module(&entry).await.unwrap();
    let two_bytes = alone.loaded_bytes();
    assert!(two_bytes > 0);

    let table = Arc::new(FunctionTable::new(runtime(), TableConfig::default()));
    let first = table.upsert(key.clone(), FunctionConfig::default(), ModuleSource::Bytes(one));
    // Version one starts loading (compiling takes milliseconds off this
    // thread); version two replaces it meanwhile.
    let loading = tokio::spawn({
        let table = table.clone();
        let first = first.clone();
        async move { table.module(&first).await.map(|_| ()) }
    });
    tokio::task::yield_now().await;
    let second = table.upsert(key.clone(), FunctionConfig::default(), ModuleSource::Bytes(two));
    loading
        .await
        .unwrap()
        .expect("the request on version one still gets its module");
    table.module(&second).await.unwrap();
    drop(first);
    assert_eq!(table.loaded_bytes(), two_bytes, "only the serving version is counted");

    table.remove(&key);
    drop(second);
    assert_eq!(table.loaded_bytes(), 0);
}

/// Also: the node is ready (`/readyz`) only once the watch's first list is
/// complete and every Function on it is loaded or has failed to load.
#[tokio::test]
async fn two_watch_events_for_one_function_load_it_once() {
    use kube::runtime::watcher::Event;

    // The artifact is already in the node's cache (as after a restart):
    // the module and the manifest it was pulled with, which the node
    // verifies again before using them.
    let module = wasm("module.exports = { main: () => 'synced' };").await;
    let manifest = serde_json::to_vec(&json!({
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.manifest.v1+json",
        "config": {"mediaType": "application/vnd.wasm.config.v0+json", "size": 2, "digest": shoal_oci::sha256_digest(b"{}")},
        "layers": [{"mediaType": "application/wasm", "size": module.len(), "digest": shoal_oci::sha256_digest(&module)}]
    }))
    .unwrap();
    let digest = shoal_oci::sha256_digest(&manifest);
    let digest_hex = digest.trim_start_matches("sha256:").to_string();
    let artifacts = tempfile::tempdir().unwrap();
    std::fs::write(artifacts.path().join(format!("sha256-{digest_hex}.wasm")), &module).unwrap();
    std::fs::write(
        artifacts.path().join(format!("sha256-{digest_hex}.manifest")),
        &manifest,
    )
    .unwrap();
    let table = Arc::new(FunctionTable::new(
        runtime(),
        TableConfig {
            artifact_dir: Some(artifacts.path().to_path_buf()),
            ..TableConfig::default()
        },
    ));
    let fake = shoal_tests::fake_kube::FakeKube::new();
    let sync = shoal_sync::NodeSync::new(
        fake.client(),
        table.clone(),
        shoal_sync::SyncConfig {
            pod_name: "node-a".into(),
            pod_namespace: "shoal-system".into(),
            pod_uid: None,
            defaults: Default::default(),
            publish_every: Duration::from_millis(50),
            retry_every: Duration::from_secs(30),
            concurrency: 16,
            secrets_dir: tempfile::tempdir().unwrap().keep(),
            secret_refresh_every: Duration::from_secs(3600),
        },
    );
    let function: shoal_api::Function = serde_json::from_value(json!({
        "apiVersion": "serverless.kyma-project.io/v1alpha2", "kind": "Function",
        "metadata": {"name": "f", "namespace": "shop", "resourceVersion": "1"},
        "spec": {"source": {"inline": {"source": "x"}}},
        "status": {"artifact": format!("127.0.0.1:1/shop/f@sha256:{digest_hex}"), "servingPort": 24000}
    }))
    .unwrap();
    let mut touched = function.clone();
    touched.metadata.resource_version = Some("2".into());
    // A second Function whose artifact cannot be had: it fails to load,
    // which must not keep the node from being ready.
    let mut broken = function.clone();
    broken.metadata.name = Some("broken".into());
    if let Some(status) = broken.status.as_mut() {
        status.artifact = Some(format!("127.0.0.1:1/shop/broken@sha256:{}", "0".repeat(64)));
    }
    // A watch that delivers the Function twice at once, then stays open.
    let (events_in, events) = futures::channel::mpsc::unbounded();
    for event in [
        Event::Init,
        Event::InitApply(function),
        Event::InitApply(broken),
        Event::Apply(touched),
    ] {
        events_in.unbounded_send(Ok(event)).unwrap();
    }
    let gate = sync.load_gate();
    let node = Node::with_load_gate(table.clone(), NodeConfig::default(), gate.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let readyz = format!("http://{}/readyz", listener.local_addr().unwrap());
    let serving = tokio::spawn(node.serve(listener, futures::future::pending::<()>()));
    let (stop, stopped) = oneshot::channel::<()>();
    let running = tokio::spawn(sync.clone().run_with(events, async move {
        let _ = stopped.await;
    }));
    // The watch has not finished its first list: more Functions may be on
    // their way, so the node is not ready.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!gate.is_open());
    let r = send(empty(get(&readyz))).await;
    assert_eq!(r.status, 503, "{}", r.text());
    assert!(r.text().contains("loading"), "{}", r.text());
    events_in.unbounded_send(Ok(Event::InitDone)).unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while !gate.is_open() {
        assert!(
            Instant::now() < deadline,
            "never ready: a broken Function kept the node out of service"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(
        table.get(&FunctionKey::new("shop", "f")).is_some_and(|e| e.is_loaded()),
        "ready before the listed Function was loaded"
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(send(empty(get(&readyz))).await.status, 200);
    serving.abort();
    let loads = table.stats.loads.load(std::sync::atomic::Ordering::Relaxed);
    let reads = table.stats.artifact_hits.load(std::sync::atomic::Ordering::Relaxed);
    assert_eq!((loads, reads), (1, 1), "one load and one artifact read");
    let entry = table.get(&FunctionKey::new("shop", "f")).expect("in the table");
    assert_eq!(entry.config.port, Some(24000));
    let _ = stop.send(());
    running.await.unwrap();
}

/// Opens a connection and sends `head` (and no more), keeping it open.
async fn half_sent(addr: std::net::SocketAddr, head: &str) -> tokio::net::TcpStream {
    use tokio::io::AsyncWriteExt;
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(head.as_bytes()).await.unwrap();
    stream
}

/// The first bytes the server sends ("" when it closes without a word),
/// or None when nothing happens within `within`.
async fn answer_within(stream: &mut tokio::net::TcpStream, within: Duration) -> Option<String> {
    use tokio::io::AsyncReadExt;
    let mut got = vec![0u8; 4096];
    match tokio::time::timeout(within, stream.read(&mut got)).await {
        Ok(Ok(n)) => Some(String::from_utf8_lossy(&got[..n]).into_owned()),
        Ok(Err(_)) => Some(String::new()),
        Err(_) => None,
    }
}

/// Slow clients (the isolation issue's starvation finding): bodies that
/// never finish no longer hold a Function's concurrency slots, so the same
/// Function still answers others; an unfinished body gets 408 at the
/// Function's timeout; unfinished headers are cut off at the node's header
/// timeout; past the connection cap a new connection is closed at once.
#[tokio::test]
async fn slow_clients_hold_no_slot_and_are_cut_off() {
    let config = NodeConfig {
        header_read_timeout: Duration::from_millis(500),
        max_connections: 12,
        ..NodeConfig::default()
    };
    let node = TestNode::start(config).await;
    let mut limits = echo_config();
    limits.max_concurrency = 2;
    limits.timeout = Duration::from_secs(2);
    node.add("default", "echo", ECHO, limits).await;
    let slow_body =
        "POST /default/echo/ HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\nonly part";
    let mut slow = Vec::new();
    for _ in 0..8 {
        slow.push(half_sent(node.addr, slow_body).await);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    // Eight bodies in flight, two slots: a whole request is still served.
    let r = send(empty(get(&node.url("/default/echo/")))).await;
    assert_eq!(r.status, 200, "{}", r.text());
    // Each slow body is answered 408 when the Function's 2 s run out.
    for stream in &mut slow {
        let answer = answer_within(stream, Duration::from_secs(5)).await.expect("an answer");
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    }
    drop(slow);

    // Headers that never end: the connection is closed after 500 ms.
    let mut stalled = half_sent(node.addr, "GET /default/echo/ HTTP/1.1\r\nHost: x\r\n").await;
    assert!(
        answer_within(&mut stalled, Duration::from_secs(3)).await.is_some(),
        "a connection stalled in its headers was kept open"
    );
    tokio::time::sleep(Duration::from_millis(200)).await;

    // At the connection cap (12 held), a new connection is closed without
    // an answer.
    let mut held = Vec::new();
    for _ in 0..12 {
        held.push(half_sent(node.addr, "").await);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut refused = half_sent(node.addr, "GET /default/echo/ HTTP/1.1\r\nHost: x\r\n\r\n").await;
    let answer = answer_within(&mut refused, Duration::from_secs(2)).await;
    assert_eq!(
        answer.as_deref(),
        Some(""),
        "past the cap a connection is closed unanswered"
    );
    drop(held);
}

/// `/metrics` gives at most `metrics_max_functions` Functions series of
/// their own, the most called first, and sums the rest into one, so the
/// scrape is bounded however many Functions a node serves.
#[tokio::test]
async fn metrics_keep_per_function_series_bounded_and_sum_the_rest() {
    let node = TestNode::start(NodeConfig {
        metrics_max_functions: 2,
        ..NodeConfig::default()
    })
    .await;
    for (name, calls) in [("busy", 3), ("some", 2), ("rare", 1)] {
        node.add(
            "default",
            name,
            "module.exports = { main: () => 'ok' };",
            FunctionConfig::default(),
        )
        .await;
        for _ in 0..calls {
            let r = send(empty(get(&node.url(&format!("/default/{name}/"))))).await;
            assert_eq!(r.status, 200);
        }
    }
    let r = send(empty(get(&node.url("/metrics")))).await;
    assert!(
        r.header("content-type")
            .is_some_and(|t| t.starts_with("application/openmetrics-text")),
        "{:?}",
        r.header("content-type")
    );
    let metrics = r.text();
    assert!(
        metrics.contains(r#"function_calls_total{namespace="default",name="busy"} 3"#),
        "{metrics}"
    );
    assert!(
        metrics.contains(r#"function_calls_total{namespace="*",name="*"} 3"#),
        "{metrics}"
    );
    assert!(
        !metrics.contains(r#"name="rare""#) && !metrics.contains(r#"name="some""#),
        "{metrics}"
    );
    assert!(
        metrics.contains(r#"function_duration_seconds_count{namespace="*",name="*"} 3"#),
        "{metrics}"
    );
    assert!(metrics.contains("shoal_functions 3"), "{metrics}");
    assert!(metrics.ends_with("# EOF\n"), "OpenMetrics text");
    node.stop().await;
}
