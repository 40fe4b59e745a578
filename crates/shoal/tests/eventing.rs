//! Event-driven Functions as a user runs them: `shoal up` with Subscription
//! YAML next to its Functions, a real `nats-server -js` on loopback keeping
//! the events, events published to the publisher endpoint, and the
//! Functions reporting what they see to a recorder in the test (over real
//! HTTP, as any Function would call a service).

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use serde_json::{Value, json};
use shoal_tests::nats::NatsServer;
use shoal_tests::{free_port, serve_http, workspace_root};

/// What the Functions told the recorder, and how many held it at once.
#[derive(Default)]
struct Recorded {
    records: Mutex<Vec<Value>>,
    attempts: Mutex<std::collections::BTreeMap<String, usize>>,
    holding: AtomicUsize,
    most_holding: AtomicUsize,
}

struct Recorder {
    port: u16,
    seen: Arc<Recorded>,
    _runtime: tokio::runtime::Runtime,
}

/// `POST /record` keeps a JSON body; `POST /attempt/<id>` counts an
/// event's deliveries and answers the count; `POST /hold/<ms>` holds the
/// caller that long, counting how many are held at once.
fn recorder() -> Recorder {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let seen = Arc::new(Recorded::default());
    let listener = runtime.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
    let port = listener.local_addr().unwrap().port();
    let _guard = runtime.enter();
    serve_http(
        listener,
        seen.clone(),
        |req: hyper::Request<hyper::body::Incoming>, seen: Arc<Recorded>| async move {
            let path = req.uri().path().to_string();
            let body = req
                .into_body()
                .collect()
                .await
                .map(|b| b.to_bytes())
                .unwrap_or_default();
            let answer = if path == "/record" {
                let value: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                seen.records.lock().unwrap().push(value);
                "ok".to_string()
            } else if let Some(id) = path.strip_prefix("/attempt/") {
                let mut attempts = seen.attempts.lock().unwrap();
                let n = attempts.entry(id.to_string()).or_default();
                *n += 1;
                n.to_string()
            } else if let Some(ms) = path.strip_prefix("/hold/") {
                let now = seen.holding.fetch_add(1, Ordering::SeqCst) + 1;
                seen.most_holding.fetch_max(now, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(ms.parse().unwrap_or(100))).await;
                seen.holding.fetch_sub(1, Ordering::SeqCst);
                "held".to_string()
            } else {
                "?".to_string()
            };
            hyper::Response::new(Full::new(Bytes::from(answer)))
        },
    );
    drop(_guard);
    Recorder {
        port,
        seen,
        _runtime: runtime,
    }
}

impl Recorder {
    fn records(&self) -> Vec<Value> {
        self.seen.records.lock().unwrap().clone()
    }

    fn wait_for(&self, what: &str, within: Duration, done: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let deadline = Instant::now() + within;
        loop {
            let records = self.records();
            if done(&records) {
                return records;
            }
            assert!(Instant::now() < deadline, "{what}: recorded only {records:#?}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// A `shoal up` process (killed when dropped) and everything it prints.
struct Up {
    child: std::process::Child,
    printed: Arc<Mutex<String>>,
    publisher: String,
}

impl Drop for Up {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Up {
    fn start(dir: &Path, nats: &NatsServer, extra: &[&str]) -> Self {
        let listen = format!("127.0.0.1:{}", free_port());
        let publisher = format!("127.0.0.1:{}", free_port());
        let mut child = Command::new(env!("CARGO_BIN_EXE_shoal"))
            .args([
                "up",
                dir.to_str().unwrap(),
                "--listen",
                &listen,
                "--publisher-listen",
                &publisher,
            ])
            .args(["--nats", &nats.url, "--event-retry-delay", "1", "--event-ack-wait", "2"])
            .args(extra)
            .env("SHOAL_CACHE_DIR", workspace_root().join("target/shoal-test-cache"))
            .env("NO_COLOR", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let printed = Arc::new(Mutex::new(String::new()));
        for pipe in [
            Box::new(child.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
            Box::new(child.stderr.take().unwrap()),
        ] {
            let printed = printed.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                    printed.lock().unwrap().push_str(&(line + "\n"));
                }
            });
        }
        let up = Self {
            child,
            printed,
            publisher,
        };
        up.wait_printed("Shoal is serving", Duration::from_secs(120));
        up
    }

    fn printed(&self) -> String {
        self.printed.lock().unwrap().clone()
    }

    fn wait_printed(&self, text: &str, within: Duration) {
        let deadline = Instant::now() + within;
        while !self.printed().contains(text) {
            assert!(Instant::now() < deadline, "never printed {text:?}:\n{}", self.printed());
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn post(&self, path: &str, headers: &[(&str, &str)], body: &str) -> (u16, String) {
        use std::io::{Read, Write};
        let mut stream = std::net::TcpStream::connect(&self.publisher).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let extra: String = headers.iter().map(|(k, v)| format!("{k}: {v}\r\n")).collect();
        write!(
            stream,
            "POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {}\r\n{extra}\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let status = response.split_whitespace().nth(1).unwrap().parse().unwrap();
        let body = response
            .split_once("\r\n\r\n")
            .map(|(_, b)| b.to_string())
            .unwrap_or_default();
        (status, body)
    }

    /// A binary-mode CloudEvent to `/publish`.
    fn publish(&self, id: &str, source: &str, event_type: &str, data: &Value) -> u16 {
        let (status, body) = self.post(
            "/publish",
            &[
                ("ce-specversion", "1.0"),
                ("ce-id", id),
                ("ce-source", source),
                ("ce-type", event_type),
                ("content-type", "application/json"),
            ],
            &data.to_string(),
        );
        assert_eq!(status, 204, "{body}");
        status
    }
}

fn write(dir: &Path, name: &str, content: &str) {
    std::fs::write(dir.join(name), content).unwrap();
}

/// A NATS server, a recorder, and a folder holding the files `files`
/// makes for the recorder's port.
struct Scene {
    nats: NatsServer,
    recorder: Recorder,
    dir: tempfile::TempDir,
}

fn scene(files: impl FnOnce(u16) -> Vec<(&'static str, String)>) -> Scene {
    let nats = NatsServer::start();
    let recorder = recorder();
    let dir = tempfile::tempdir().unwrap();
    for (name, content) in files(recorder.port) {
        write(dir.path(), name, &content);
    }
    Scene { nats, recorder, dir }
}

fn subscription(name: &str, sink: &str, matching: &str, source: &str, types: &[&str], max_in_flight: u32) -> String {
    let types: String = types.iter().map(|t| format!("    - {t}\n")).collect();
    format!(
        "apiVersion: eventing.kyma-project.io/v1alpha2\nkind: Subscription\nmetadata:\n  name: {name}\n  namespace: default\nspec:\n  sink: http://{sink}.default.svc.cluster.local\n  typeMatching: {matching}\n  source: \"{source}\"\n  types:\n{types}  config:\n    maxInFlightMessages: \"{max_in_flight}\"\n"
    )
}

/// A Function that reports the event it sees (Kyma's `event` fields) to
/// the recorder and answers 200.
fn reporting_function(name: &str, recorder: u16) -> String {
    format!(
        r#"module.exports = {{
  main: async (event) => {{
    const seen = {{
      fn: "{name}",
      type: event["ce-type"], source: event["ce-source"], id: event["ce-id"],
      specversion: event["ce-specversion"], time: event["ce-time"],
      eventtypeversion: event["ce-eventtypeversion"],
      contentType: event.extensions.request.headers["content-type"],
      data: event.data,
    }};
    await fetch("http://127.0.0.1:{recorder}/record", {{ method: "POST", body: JSON.stringify(seen) }});
    return "ok";
  }},
}};
"#
    )
}

fn of<'a>(records: &'a [Value], function: &str) -> Vec<&'a Value> {
    records.iter().filter(|r| r["fn"] == function).collect()
}

#[test]
fn published_events_reach_every_subscribed_function_as_kyma_delivers_them() {
    let Scene { nats, recorder, dir } = scene(|port| {
        let mut files: Vec<(&'static str, String)> = [
            ("standard", "standard.js"),
            ("exact", "exact.js"),
            ("other", "other.js"),
        ]
        .into_iter()
        .map(|(f, file)| (file, reporting_function(f, port)))
        .collect();
        files.extend([
            (
                "standard-sub.yaml",
                subscription(
                    "standard-sub",
                    "standard",
                    "standard",
                    "my.app",
                    &["order.created.v1"],
                    10,
                ),
            ),
            (
                "exact-sub.yaml",
                subscription("exact-sub", "exact", "exact", "", &["myapp.order.created.v1"], 10),
            ),
            (
                "other-sub.yaml",
                subscription("other-sub", "other", "standard", "myapp", &["order.deleted.v1"], 10),
            ),
            // A sink that is not a Function, and a type Kyma refuses.
            (
                "ghost-sub.yaml",
                subscription("ghost-sub", "ghost", "standard", "myapp", &["order.created.v1"], 10),
            ),
            (
                "bad-sub.yaml",
                subscription("bad-sub", "standard", "standard", "myapp", &["order"], 10),
            ),
        ]);
        files
    });
    let up = Up::start(dir.path(), &nats, &[]);
    up.wait_printed("✓ Subscription default/exact-sub", Duration::from_secs(10));
    let printed = up.printed();
    assert!(
        printed.contains(
            "✗ Subscription default/ghost-sub: its sink http://ghost.default.svc.cluster.local is not a Function served here (no Function default/ghost)"
        ),
        "{printed}"
    );
    assert!(
        printed.contains(
            r#"Subscription validation failed: spec.types: Invalid value: "order": must have minimum 2 segments"#
        ),
        "{printed}"
    );

    // Binary mode, structured mode and the legacy endpoint; the source's dot
    // is cleaned away as Kyma cleans it, so standard and exact both match.
    up.publish("e-binary", "my.app", "order.created.v1", &json!({"orderCode": "1"}));
    let structured = json!({
        "specversion": "1.0", "id": "e-structured", "source": "myapp", "type": "order.created.v1",
        "time": "2026-11-26T10:00:00Z", "datacontenttype": "application/json", "data": {"orderCode": "2"}
    });
    let (status, body) = up.post(
        "/publish",
        &[("content-type", "application/cloudevents+json")],
        &structured.to_string(),
    );
    assert_eq!(status, 204, "{body}");
    let legacy = json!({"event-type": "order.created", "event-type-version": "v1", "event-id": "8945ec08-256b-11eb-9928-acde48001122",
                        "event-time": "2026-11-26T10:00:00Z", "data": {"orderCode": "3"}});
    let (status, body) = up.post(
        "/myapp/v1/events",
        &[("content-type", "application/json")],
        &legacy.to_string(),
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap(),
        json!({"event-id": "8945ec08-256b-11eb-9928-acde48001122", "status": "", "reason": ""})
    );

    let records = recorder.wait_for("three events to each matching Function", Duration::from_secs(20), |r| {
        of(r, "standard").len() >= 3 && of(r, "exact").len() >= 3
    });
    for function in ["standard", "exact"] {
        let mut seen = of(&records, function);
        seen.sort_by_key(|r| r["data"]["orderCode"].as_str().map(str::to_string));
        assert_eq!(seen.len(), 3, "{function} got each event once: {seen:#?}");
        for (r, (id, code)) in seen.iter().zip([
            ("e-binary", "1"),
            ("e-structured", "2"),
            ("8945ec08-256b-11eb-9928-acde48001122", "3"),
        ]) {
            assert_eq!(r["id"], id);
            assert_eq!(r["type"], "order.created.v1", "the type as published, not the subject");
            assert_eq!(r["specversion"], "1.0");
            assert_eq!(r["contentType"], "application/json");
            assert_eq!(
                r["data"],
                json!({"orderCode": code}),
                "data parsed as Kyma parses a JSON body"
            );
        }
        assert_eq!(seen[0]["source"], "my.app", "the source as published");
        assert_eq!(seen[1]["time"], "2026-11-26T10:00:00.000Z");
        assert_eq!(seen[2]["eventtypeversion"], "v1");
    }
    // A bad event is refused with the reason; nothing else arrives.
    let (status, body) = up.post(
        "/publish",
        &[
            ("ce-specversion", "1.0"),
            ("ce-id", "x"),
            ("ce-type", "order.created.v1"),
        ],
        "{}",
    );
    assert_eq!((status, body.as_str()), (400, "source: MUST be a non-empty string"));
    std::thread::sleep(Duration::from_secs(1));
    assert!(
        of(&recorder.records(), "other").is_empty(),
        "order.deleted.v1 was never published"
    );
}

#[test]
fn a_failing_function_gets_the_event_again_after_the_delay_until_it_succeeds() {
    let Scene { nats, recorder, dir } = scene(|port| {
        vec![
            (
                "flaky.js",
                format!(
                    r#"module.exports = {{
  main: async (event) => {{
    const attempt = Number(await (await fetch("http://127.0.0.1:{port}/attempt/" + event["ce-id"], {{ method: "POST" }})).text());
    await fetch("http://127.0.0.1:{port}/record", {{ method: "POST", body: JSON.stringify({{ fn: "flaky", id: event["ce-id"], attempt, at: Date.now() }}) }});
    if (attempt < 3) throw new Error("not yet");
    return "done";
  }},
}};
"#
                ),
            ),
            (
                "flaky-sub.yaml",
                subscription("flaky-sub", "flaky", "standard", "app", &["job.started.v1"], 10),
            ),
        ]
    });
    let up = Up::start(dir.path(), &nats, &[]);
    up.wait_printed("✓ Subscription default/flaky-sub", Duration::from_secs(10));
    up.publish("job-1", "app", "job.started.v1", &json!({"n": 1}));
    let records = recorder.wait_for("three deliveries", Duration::from_secs(20), |r| r.len() >= 3);
    let at: Vec<i64> = records.iter().map(|r| r["at"].as_i64().unwrap()).collect();
    for pair in at.windows(2) {
        assert!(
            pair[1] - pair[0] >= 900,
            "redelivered after the 1 s retry delay: {at:?}"
        );
    }
    // The third answer was 200: acked, never delivered again.
    std::thread::sleep(Duration::from_secs(4));
    assert_eq!(recorder.records().len(), 3, "{:#?}", recorder.records());
}

#[test]
fn max_in_flight_messages_bounds_concurrent_deliveries() {
    let Scene { nats, recorder, dir } = scene(|port| {
        let slow = format!(
            r#"module.exports = {{
  main: async (event) => {{
    await fetch("http://127.0.0.1:{port}/hold/300", {{ method: "POST" }});
    await fetch("http://127.0.0.1:{port}/record", {{ method: "POST", body: JSON.stringify({{ id: event["ce-id"] }}) }});
    return "ok";
  }},
}};
"#
        );
        vec![
            ("slow.js", slow),
            (
                "slow-sub.yaml",
                subscription("slow-sub", "slow", "standard", "app", &["a.b"], 3),
            ),
        ]
    });
    let up = Up::start(dir.path(), &nats, &[]);
    up.wait_printed("✓ Subscription default/slow-sub", Duration::from_secs(10));
    for i in 0..12 {
        up.publish(&format!("e{i}"), "app", "a.b", &json!(i));
    }
    recorder.wait_for("all twelve", Duration::from_secs(30), |r| r.len() >= 12);
    assert_eq!(
        recorder.seen.most_holding.load(Ordering::SeqCst),
        3,
        "three at once (maxInFlightMessages), never more"
    );
}

#[test]
fn two_nodes_share_a_consumer_and_one_killed_mid_delivery_loses_nothing() {
    let Scene { nats, recorder, dir } = scene(|port| {
        let worker = format!(
            r#"module.exports = {{
  main: async (event) => {{
    console.log("working on " + event["ce-id"]);
    const t = Date.now();
    let held = "";
    if (event.data.slow) held = await (await fetch("http://127.0.0.1:{port}/hold/4000", {{ method: "POST" }})).text();
    await fetch("http://127.0.0.1:{port}/record", {{ method: "POST", body: JSON.stringify({{ id: event["ce-id"], held, ms: Date.now() - t }}) }});
    return "ok";
  }},
}};
"#
        );
        vec![
            ("worker.js", worker),
            (
                "work-sub.yaml",
                subscription("work-sub", "worker", "standard", "app", &["work.v1"], 10),
            ),
        ]
    });
    let first = Up::start(dir.path(), &nats, &[]);
    let second = Up::start(dir.path(), &nats, &[]);
    for up in [&first, &second] {
        up.wait_printed("✓ Subscription default/work-sub", Duration::from_secs(10));
    }
    // In the normal case each event is delivered once, by one of the two.
    for i in 0..20 {
        first.publish(&format!("n{i}"), "app", "work.v1", &json!({"slow": false}));
    }
    let records = recorder.wait_for("twenty events", Duration::from_secs(20), |r| r.len() >= 20);
    std::thread::sleep(Duration::from_secs(3));
    let mut ids: Vec<String> = recorder.records().iter().map(|r| r["id"].to_string()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!((ids.len(), recorder.records().len()), (20, 20), "{records:#?}");

    // The node working on an event dies: after the ack wait the other one
    // gets it.
    // The node working on an event dies (SIGKILL: no goodbye, no NAK):
    // after the ack wait, the node that replaces it gets the event.
    drop(second);
    let mut first = first;
    first.publish("slow-1", "app", "work.v1", &json!({"slow": true}));
    let deadline = Instant::now() + Duration::from_secs(10);
    while recorder.seen.holding.load(Ordering::SeqCst) == 0 {
        assert!(Instant::now() < deadline, "slow-1 never started");
        std::thread::sleep(Duration::from_millis(10));
    }
    first.child.kill().unwrap();
    first.child.wait().unwrap();
    let replacement = Up::start(dir.path(), &nats, &[]);
    let records = recorder.wait_for("slow-1 from the replacement", Duration::from_secs(20), |r| {
        r.iter().any(|r| r["id"] == "slow-1")
    });
    let slow: Vec<&Value> = records.iter().filter(|r| r["id"] == "slow-1").collect();
    assert_eq!(slow.len(), 1, "delivered to the end once: {slow:?}");
    assert_eq!(slow[0]["held"], "held");
    replacement.wait_printed("working on slow-1", Duration::from_secs(5));
}
