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
}

impl Default for Variant {
    fn default() -> Self {
        Self {
            pooling: true,
            cow: true,
            keep_resident: true,
            warm: true,
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
            .arg(format!("--warm={}", variant.warm));
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

    /// Stops the child.
    pub fn stop(mut self) {
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
}

/// Child entry point: registers the Functions (not loaded: the first
/// request to each is its cold start) and serves until killed.
pub async fn serve_node(args: ServeNodeArgs) -> anyhow::Result<()> {
    let config = RuntimeConfig {
        pooling: args.pooling,
        copy_on_write: args.cow,
        pool_instances: 1000,
        cache_dir: Some(args.cache_dir),
        keep_resident_bytes: if args.keep_resident {
            RuntimeConfig::default().keep_resident_bytes
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
