//! Harness for Shoal's integration tests: real parts only. A real OCI
//! registry server (Debian's `docker-registry`) on 127.0.0.1, real wasmtime,
//! real builds through npm and esbuild.

pub mod admission;
pub mod fake_kube;
pub mod fake_watches;
pub mod git_server;
pub mod nats;
pub mod npm_registry;
pub mod validation;

use std::{
    collections::BTreeMap,
    net::TcpListener,
    path::PathBuf,
    process::{Child, Command, Stdio},
    sync::{Arc, OnceLock},
    time::{Duration, Instant},
};

use shoal_build::{Builder, JsTools};
use shoal_envelope::{FunctionContext, RequestHead, ResponseHead};
use shoal_runtime::{FunctionModule, InvokeLimits, Runtime, RuntimeConfig};

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// One runtime per test process; precompiled code is cached under target/ so
/// the engine is compiled once per checkout, not once per test binary.
pub fn runtime() -> Arc<Runtime> {
    static RUNTIME: OnceLock<Arc<Runtime>> = OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            let config = RuntimeConfig {
                pool_slots: 64,
                cache_dir: Some(workspace_root().join("target/shoal-test-cache")),
                ..RuntimeConfig::default()
            };
            // As `shoal up` places a node: the tests' upstreams and the
            // publisher proxy they stand up listen on loopback.
            let outbound = shoal_outbound::HttpOutbound::new(shoal_outbound::OutboundConfig {
                protected: shoal_outbound::ProtectedAddresses {
                    loopback_allowed: true,
                    ..Default::default()
                },
                ..Default::default()
            })
            .expect("the outbound HTTP client");
            Arc::new(
                Runtime::new(&config)
                    .expect("creating the runtime")
                    .with_outbound(Arc::new(outbound)),
            )
        })
        .clone()
}

/// A builder using the checkout's JS tools.
pub fn builder() -> Builder {
    Builder::new(JsTools::locate(), runtime())
}

/// Builds inline source (and an optional package.json) and loads it.
pub async fn build(source: &str, dependencies: Option<&str>) -> FunctionModule {
    let inputs = shoal_api::BuildInputs {
        source: source.into(),
        dependencies: dependencies.map(str::to_string),
        runtime: "nodejs22".into(),
        files: Default::default(),
    };
    let built = builder()
        .build(&inputs)
        .await
        .unwrap_or_else(|e| panic!("build failed: {e}"));
    runtime().load(&built.wasm).expect("loading the built module")
}

/// A request to send through the envelope.
#[derive(Debug, Clone)]
pub struct Req {
    /// Method.
    pub method: &'static str,
    /// Path.
    pub path: String,
    /// Query string.
    pub query: String,
    /// Headers.
    pub headers: Vec<(String, String)>,
    /// Body.
    pub body: Vec<u8>,
    /// Environment.
    pub env: BTreeMap<String, String>,
}

impl Req {
    /// A GET of `path`.
    pub fn get(path: &str) -> Self {
        Self {
            method: "GET",
            path: path.into(),
            query: String::new(),
            headers: vec![],
            body: vec![],
            env: BTreeMap::new(),
        }
    }
    /// A POST of `body` with a content type.
    pub fn post(path: &str, content_type: &str, body: impl Into<Vec<u8>>) -> Self {
        Self {
            method: "POST",
            body: body.into(),
            ..Self::get(path)
        }
        .header("content-type", content_type)
    }
    /// Adds a header.
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }
    /// Sets the query string.
    pub fn query(mut self, q: &str) -> Self {
        self.query = q.into();
        self
    }
    /// Adds an environment variable.
    pub fn env(mut self, k: &str, v: &str) -> Self {
        self.env.insert(k.into(), v.into());
        self
    }
}

/// What came back.
#[derive(Debug, Clone)]
pub struct Resp {
    /// Status.
    pub status: u16,
    /// Headers.
    pub head: ResponseHead,
    /// Body.
    pub body: Vec<u8>,
    /// Console output.
    pub logs: String,
}

impl Resp {
    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| panic!("body is not JSON ({e}): {}", self.text()))
    }
    /// A header.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.head.header(name)
    }
}

/// Runs one request through a module in a fresh sandbox.
pub async fn invoke(module: &FunctionModule, req: Req) -> Resp {
    let head = RequestHead {
        v: shoal_envelope::ENVELOPE_VERSION,
        method: req.method.into(),
        path: req.path,
        query: req.query,
        headers: req.headers,
        function: FunctionContext {
            name: "test-fn".into(),
            namespace: "test-ns".into(),
            runtime: "nodejs22".into(),
            timeout: 10,
            body_size_limit: 1,
        },
        env: req.env,
        trace: None,
    };
    let request = shoal_runtime::GuestRequest::new(&head, req.body.into());
    let limits = InvokeLimits {
        timeout: Duration::from_secs(10),
        ..InvokeLimits::default()
    };
    let run = runtime().invoke(module, request, limits).await;
    let logs = String::from_utf8_lossy(&run.logs).into_owned();
    if let Some(e) = &run.error {
        panic!("invocation failed: {e}\n{logs}");
    }
    let head: ResponseHead = run
        .response_head()
        .unwrap_or_else(|e| panic!("bad response head: {e}\n{logs}"));
    Resp {
        status: head.status,
        body: run.body.to_vec(),
        head,
        logs,
    }
}

/// A real OCI registry server on 127.0.0.1, stopped when dropped.
pub struct TestRegistry {
    child: Child,
    /// `127.0.0.1:<port>`.
    pub address: String,
    dir: tempfile::TempDir,
}

impl TestRegistry {
    /// Starts Debian's `docker-registry` (installed by `.ci/setup`) on a free
    /// port; with `htpasswd` (user, bcrypt hash) it requires basic auth.
    pub fn start(htpasswd: Option<(&str, &str)>) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let port = free_port();
        let address = format!("127.0.0.1:{port}");
        let auth = match htpasswd {
            Some((user, hash)) => {
                let path = dir.path().join("htpasswd");
                std::fs::write(&path, format!("{user}:{hash}\n")).expect("writing htpasswd");
                format!(
                    "auth:\n  htpasswd:\n    realm: shoal-test\n    path: {}\n",
                    path.display()
                )
            }
            None => String::new(),
        };
        let config = format!(
            "version: 0.1\nlog:\n  level: error\nstorage:\n  filesystem:\n    rootdirectory: {}\n  delete:\n    enabled: true\nhttp:\n  addr: {address}\n{auth}",
            dir.path().join("data").display()
        );
        let config_path = dir.path().join("config.yml");
        std::fs::write(&config_path, config).expect("writing registry config");
        let child = Command::new("docker-registry")
            .arg("serve")
            .arg(&config_path)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting docker-registry (run .ci/setup to install it)");
        let registry = Self { child, address, dir };
        registry.wait_ready();
        registry
    }

    /// Loses every artifact, as a registry whose storage went does (an
    /// emptyDir after the pod moved).
    pub fn wipe(&self) {
        let data = self.dir.path().join("data");
        if data.exists() {
            std::fs::remove_dir_all(&data).expect("removing the registry's storage");
        }
    }

    fn wait_ready(&self) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if std::net::TcpStream::connect(&self.address).is_ok() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("docker-registry did not listen on {} within 20 s", self.address);
    }
}

impl Drop for TestRegistry {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A TCP port nothing listens on right now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("binding an ephemeral port")
}

/// Serves HTTP/1 on `listener` until the returned task is aborted (or its
/// runtime ends): each request goes to `handle` with a clone of `state`.
pub fn serve_http<S, F, Fut>(listener: tokio::net::TcpListener, state: S, handle: F) -> tokio::task::JoinHandle<()>
where
    S: Clone + Send + Sync + 'static,
    F: Fn(hyper::Request<hyper::body::Incoming>, S) -> Fut + Clone + Send + Sync + 'static,
    Fut: std::future::Future<Output = hyper::Response<http_body_util::Full<bytes::Bytes>>> + Send + 'static,
{
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let (state, handle) = (state.clone(), handle.clone());
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |req| {
                    let answer = handle(req, state.clone());
                    async move { Ok::<_, std::convert::Infallible>(answer.await) }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                    .await;
            });
        }
    })
}
