//! Servers under test, each in its own process.

use std::{
    convert::Infallible,
    io::{BufRead, BufReader},
    net::SocketAddr,
    path::{Path, PathBuf},
    process::{Child as Process, Command, Stdio},
    sync::Arc,
};

use anyhow::Context;
use bytes::Bytes;
use http_body_util::Full;
use shoal_node::{FunctionConfig, FunctionKey, FunctionTable, ModuleSource, Node, NodeConfig, TableConfig};
use shoal_runtime::{Runtime, RuntimeConfig};

/// How the node's runtime is configured.
#[derive(Debug, Clone, Copy)]
pub struct Variant {
    /// Pooling instance allocator.
    pub pooling: bool,
    /// Copy-on-write memory images.
    pub cow: bool,
    /// Keep dirtied pool memory resident between requests.
    pub keep_resident: bool,
    /// Warm sandboxes for Functions in use (off: a fresh one per request).
    pub warm: bool,
    /// Snapshots of loaded Functions (off: fresh sandboxes evaluate).
    pub snapshots: bool,
}

impl Default for Variant {
    fn default() -> Self {
        Self {
            pooling: true,
            cow: true,
            keep_resident: true,
            warm: true,
            snapshots: true,
        }
    }
}

/// A running server process.
pub struct Child {
    process: Process,
    /// Where it listens.
    pub addr: SocketAddr,
    _cache: Option<tempfile::TempDir>,
}

impl Child {
    /// A Shoal node serving `count` generated Functions from `dir`, with an
    /// empty module cache (so first requests are real cold starts).
    pub async fn node(dir: &Path, count: usize, variant: Variant) -> anyhow::Result<Self> {
        let cache = tempfile::tempdir()?;
        let mut cmd = Command::new(std::env::current_exe()?);
        cmd.arg("serve-node")
            .arg("--dir")
            .arg(dir)
            .arg("--count")
            .arg(count.to_string())
            .arg("--cache-dir")
            .arg(cache.path())
            .arg(format!("--pooling={}", variant.pooling))
            .arg(format!("--cow={}", variant.cow))
            .arg(format!("--keep-resident={}", variant.keep_resident))
            .arg(format!("--warm={}", variant.warm))
            .arg(format!("--snapshots={}", variant.snapshots));
        Self::spawn(cmd, Some(cache))
    }

    /// The raw hyper hello-world server.
    pub async fn hyper() -> anyhow::Result<Self> {
        let mut cmd = Command::new(std::env::current_exe()?);
        cmd.arg("serve-hyper");
        Self::spawn(cmd, None)
    }

    fn spawn(mut cmd: Command, cache: Option<tempfile::TempDir>) -> anyhow::Result<Self> {
        let mut process = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .context("starting a child server")?;
        let stdout = process.stdout.take().context("child stdout")?;
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line)?;
        let addr = line
            .trim()
            .strip_prefix("LISTENING ")
            .with_context(|| format!("the child did not start: {line:?}"))?
            .parse()?;
        Ok(Self {
            process,
            addr,
            _cache: cache,
        })
    }

    /// Resident set size of the child, in bytes.
    pub fn rss(&self) -> u64 {
        crate::measure::rss_of(self.process.id())
    }

    /// The child's pid.
    pub fn pid(&self) -> u32 {
        self.process.id()
    }

    /// Stops the child (as dropping it does).
    pub fn stop(self) {
        drop(self);
    }
}

impl Drop for Child {
    /// A run that fails half-way (a wrk error) leaves no server behind to
    /// load the next one.
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

#[derive(clap::Args)]
pub struct ServeNodeArgs {
    #[arg(long)]
    dir: PathBuf,
    #[arg(long)]
    count: usize,
    #[arg(long)]
    cache_dir: PathBuf,
    #[arg(long, action = clap::ArgAction::Set, default_value_t = true)]
    pooling: bool,
    #[arg(long, action = clap::ArgAction::Set, default_value_t = true)]
    cow: bool,
    #[arg(long, action = clap::ArgAction::Set, default_value_t = true)]
    keep_resident: bool,
    #[arg(long, action = clap::ArgAction::Set, default_value_t = true)]
    warm: bool,
    #[arg(long, action = clap::ArgAction::Set, default_value_t = true)]
    snapshots: bool,
}

/// Child entry point: registers the Functions (not loaded: the first
/// request to each is its cold start) and serves until killed.
pub async fn serve_node(args: ServeNodeArgs) -> anyhow::Result<()> {
    let config = RuntimeConfig {
        pooling: args.pooling,
        copy_on_write: args.cow,
        pool_slots: 1000,
        cache_dir: Some(args.cache_dir),
        keep_resident_bytes: if args.keep_resident {
            RuntimeConfig::default().keep_resident_bytes
        } else {
            0
        },
        snapshot_budget_bytes: if args.snapshots {
            RuntimeConfig::default().snapshot_budget_bytes
        } else {
            0
        },
        ..RuntimeConfig::default()
    };
    let runtime = Arc::new(Runtime::new(&config)?);
    let table = Arc::new(FunctionTable::new(
        runtime,
        TableConfig {
            memory_budget: 16 << 30,
            warm: shoal_node::WarmConfig {
                enabled: args.warm,
                ..Default::default()
            },
            ..TableConfig::default()
        },
    ));
    for i in 0..args.count {
        let name = crate::generate::name(i);
        let wasm = std::fs::read(args.dir.join(format!("{name}.wasm")))?;
        table.upsert(
            FunctionKey::new("bench", name),
            FunctionConfig::default(),
            ModuleSource::Bytes(Arc::new(wasm)),
        );
    }
    let node = Node::new(
        table,
        NodeConfig {
            pool_slots: 1000,
            ..NodeConfig::default()
        },
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    println!("LISTENING {}", listener.local_addr()?);
    node.serve(listener, std::future::pending()).await?;
    Ok(())
}

#[derive(clap::Args)]
pub struct ServeHyperArgs {}

/// Child entry point: hyper answering "hello world" (HTTP/1.1, the same
/// connection handling as the node).
pub async fn serve_hyper(_: ServeHyperArgs) -> anyhow::Result<()> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    println!("LISTENING {}", listener.local_addr()?);
    let builder = hyper_util::server::conn::auto::Builder::new(hyper_util::rt::TokioExecutor::new());
    loop {
        let (stream, _) = listener.accept().await?;
        let _ = stream.set_nodelay(true);
        let builder = builder.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(|_req| async {
                Ok::<_, Infallible>(http::Response::new(Full::new(Bytes::from_static(b"hello world"))))
            });
            let _ = builder
                .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                .await;
        });
    }
}

/// A server process this bench started (`shoal up`, a Node.js baseline),
/// killed on drop.
pub struct Server(pub Process);

impl Server {
    /// Its pid, for RSS.
    pub fn id(&self) -> u32 {
        self.0.id()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The workspace this bench belongs to.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `shoal up` (the release binary, or `SHOAL_BENCH_SHOAL`) serving the
/// Functions in `dir` on a free loopback port, once it says it serves them.
///
/// # Errors
/// When the binary is missing or does not start.
pub fn shoal_up(dir: &Path) -> anyhow::Result<(Server, SocketAddr)> {
    let shoal_bin = std::env::var_os("SHOAL_BENCH_SHOAL")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target/release/shoal"));
    shoal_up_with(&shoal_bin, dir, &[])
}

/// `shoal up` of the binary `shoal_bin` with `extra` arguments, as [`shoal_up`].
///
/// # Errors
/// When the binary is missing or does not start.
pub fn shoal_up_with(shoal_bin: &Path, dir: &Path, extra: &[&str]) -> anyhow::Result<(Server, SocketAddr)> {
    anyhow::ensure!(
        shoal_bin.exists(),
        "{} is missing: cargo build --release -p shoal",
        shoal_bin.display()
    );
    let port = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse()?;
    let mut process = Command::new(shoal_bin)
        .args(["up", dir.to_str().context("path")?, "--listen", &addr.to_string()])
        .args(extra)
        .env("SHOAL_CACHE_DIR", workspace_root().join("target/shoal-bench-cache"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .context("starting shoal up")?;
    let stdout = process.stdout.take().context("stdout")?;
    let server = Server(process);
    let mut lines = BufReader::new(stdout).lines();
    for line in lines.by_ref().map_while(Result::ok) {
        if line.contains("Shoal is serving") {
            break;
        }
    }
    std::thread::spawn(move || lines.for_each(drop));
    Ok((server, addr))
}

/// Waits until `addr` answers `path` with 200 (two minutes at most).
///
/// # Errors
/// When it never does.
pub async fn ready(addr: SocketAddr, path: &str) -> anyhow::Result<()> {
    let started = std::time::Instant::now();
    loop {
        let answered = tokio::time::timeout(std::time::Duration::from_secs(2), async {
            let mut stream = tokio::net::TcpStream::connect(addr).await?;
            use tokio::io::{AsyncReadExt, AsyncWriteExt};
            stream
                .write_all(format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes())
                .await?;
            let mut answer = String::new();
            stream.read_to_string(&mut answer).await?;
            anyhow::Ok(answer.starts_with("HTTP/1.1 200"))
        })
        .await;
        if matches!(answered, Ok(Ok(true))) {
            return Ok(());
        }
        anyhow::ensure!(
            started.elapsed() < std::time::Duration::from_secs(120),
            "{addr}{path} never answered 200"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}
