//! `shoal up`: local mode. Builds every Function in a folder, serves them on
//! one node, and rebuilds and swaps a Function when its files change.

use std::{
    collections::{BTreeMap, HashMap},
    net::SocketAddr,
    path::{Path, PathBuf},
    sync::Arc,
    time::{Duration, SystemTime},
};

use anyhow::Context;
use clap::Args;
use shoal_build::{Builder, FunctionSource, JsTools, Linking};
use shoal_node::{FunctionConfig, FunctionKey, FunctionTable, ModuleSource, Node, TableConfig};

use crate::node_support::{self, NodeArgs};

#[derive(Args)]
pub struct UpArgs {
    /// Folder of Functions: .js files, folders with handler.js, Kyma Function YAML.
    #[arg(default_value = "examples")]
    dir: PathBuf,
    /// Address to serve on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// dynamic (shared engine) or static modules.
    #[arg(long, default_value = "dynamic")]
    linking: Linking,
    #[command(flatten)]
    node: NodeArgs,
}

pub async fn run(args: UpArgs) -> anyhow::Result<()> {
    let dir = args
        .dir
        .canonicalize()
        .with_context(|| format!("{} does not exist", args.dir.display()))?;
    let runtime = node_support::runtime(&args.node)?;
    let table = Arc::new(FunctionTable::new(
        runtime.clone(),
        TableConfig {
            memory_budget: args.node.memory_budget_mb << 20,
            ..TableConfig::default()
        },
    ));
    let builder = Builder::new(JsTools::locate(), runtime);
    JsTools::locate().check()?;

    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .with_context(|| format!("listening on {}", args.listen))?;
    let mut watched = Watched::default();
    let paths = discover(&dir);
    if paths.is_empty() {
        anyhow::bail!(
            "no Functions in {} (.js files, folders with handler.js, or Kyma Function YAML)",
            dir.display()
        );
    }
    println!("building {} Functions from {} ...", paths.len(), dir.display());
    for path in &paths {
        watched.refresh(path, &builder, &table, args.linking, &args.node).await;
    }
    let node = Node::new(table.clone(), node_support::node_config(&args.node));
    println!(
        "\nShoal is serving {} Functions on http://{}  (Ctrl-C to stop)\n",
        table.len(),
        args.listen
    );
    for path in &paths {
        if let Some(w) = watched.by_path.get(path)
            && let Some(key) = &w.key
        {
            println!("  {key:<32} {}", curl_line(args.listen, key, &w.curl_args));
        }
    }
    println!();

    let watcher_table = table.clone();
    let node_args = args.node.clone();
    let linking = args.linking;
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_millis(700)).await;
            let now = discover(&dir);
            for gone in watched
                .by_path
                .keys()
                .filter(|p| !now.contains(p))
                .cloned()
                .collect::<Vec<_>>()
            {
                if let Some(w) = watched.by_path.remove(&gone)
                    && let Some(key) = w.key
                {
                    watcher_table.remove(&key);
                    println!("removed {key} ({} is gone)", gone.display());
                }
            }
            for path in &now {
                watched
                    .refresh(path, &builder, &watcher_table, linking, &node_args)
                    .await;
            }
        }
    });
    node.serve(listener, node_support::shutdown_signal()).await?;
    Ok(())
}

#[derive(Default)]
struct Watched {
    by_path: HashMap<PathBuf, WatchedFunction>,
}

struct WatchedFunction {
    stamp: Vec<(PathBuf, SystemTime, u64)>,
    key: Option<FunctionKey>,
    curl_args: String,
}

impl Watched {
    /// Builds `path` if it is new or changed since last time; a failed
    /// rebuild leaves the running version in place.
    async fn refresh(
        &mut self,
        path: &Path,
        builder: &Builder,
        table: &FunctionTable,
        linking: Linking,
        node: &NodeArgs,
    ) {
        let stamp = stamp(path);
        if self.by_path.get(path).is_some_and(|w| w.stamp == stamp) {
            return;
        }
        let known = self.by_path.contains_key(path);
        let previous_key = self.by_path.get(path).and_then(|w| w.key.clone());
        self.by_path.insert(
            path.to_path_buf(),
            WatchedFunction {
                stamp,
                key: previous_key.clone(),
                curl_args: String::new(),
            },
        );
        let source = match shoal_build::load_function(path) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("✗ {}: {e}", path.display());
                return;
            }
        };
        let key = FunctionKey::new(source.namespace.clone(), source.name.clone());
        match builder.build(&source.inputs, linking).await {
            Ok(built) => {
                let config = function_config(&source, node);
                table.upsert(key.clone(), config, ModuleSource::Bytes(Arc::new(built.wasm)));
                let verb = if known { "rebuilt" } else { "built" };
                println!("✓ {verb} {key} in {} ms", built.timings.total.as_millis());
                if let Some(w) = self.by_path.get_mut(path) {
                    w.key = Some(key);
                    w.curl_args = curl_args(&source);
                }
            }
            Err(e) => {
                let still = if previous_key.is_some() {
                    " (still serving the previous version)"
                } else {
                    ""
                };
                eprintln!("✗ {key}: {e}{still}");
            }
        }
    }
}

/// How a Function from disk runs: its static env, its preset's memory
/// limit, and FUNC_TIMEOUT / REQ_MB_LIMIT overrides from its env.
pub fn function_config(source: &FunctionSource, node: &NodeArgs) -> FunctionConfig {
    let (env, memory_limit) = match &source.function {
        Some(f) => (
            shoal_build::static_env(f),
            shoal_api::function_memory_limit(&f.spec) as usize,
        ),
        None => (BTreeMap::new(), FunctionConfig::default().memory_limit),
    };
    let number = |k: &str| env.get(k).and_then(|v| v.parse::<u64>().ok());
    FunctionConfig {
        runtime: source.inputs.runtime.clone(),
        timeout: Duration::from_secs(number("FUNC_TIMEOUT").unwrap_or(node.timeout_secs)),
        body_limit: (number("REQ_MB_LIMIT")
            .or(number("FUNC_BODY_MB_LIMIT"))
            .unwrap_or(node.body_limit_mb)
            << 20) as usize,
        max_concurrency: node.max_concurrency,
        memory_limit,
        env,
    }
}

/// Functions in `dir`: Kyma YAML files, .js files, and folders with handler.js.
pub fn discover(dir: &Path) -> Vec<PathBuf> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = read
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
            let hidden = p
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with('.'));
            !hidden
                && if p.is_dir() {
                    p.join("handler.js").exists()
                } else {
                    matches!(ext, "js" | "mjs" | "cjs" | "yaml" | "yml")
                }
        })
        .collect();
    found.sort();
    found
}

fn stamp(path: &Path) -> Vec<(PathBuf, SystemTime, u64)> {
    let files = if path.is_dir() {
        vec![path.join("handler.js"), path.join("package.json")]
    } else {
        vec![path.to_path_buf()]
    };
    files
        .into_iter()
        .filter_map(|f| {
            let m = std::fs::metadata(&f).ok()?;
            Some((f, m.modified().ok()?, m.len()))
        })
        .collect()
}

/// A sample request from the Function itself: a `// curl: ARGS` line in the
/// handler, or the `shoal.dev/curl` annotation of a Function YAML.
fn curl_args(source: &FunctionSource) -> String {
    let from_annotation = source
        .function
        .as_ref()
        .and_then(|f| f.metadata.annotations.as_ref())
        .and_then(|a| a.get("shoal.dev/curl"))
        .cloned();
    from_annotation
        .or_else(|| {
            source
                .inputs
                .source
                .lines()
                .find_map(|l| l.trim().strip_prefix("// curl:").map(|a| a.trim().to_string()))
        })
        .unwrap_or_default()
}

fn curl_line(listen: SocketAddr, key: &FunctionKey, args: &str) -> String {
    let args = if args.is_empty() {
        String::new()
    } else {
        format!("{args} ")
    };
    format!("curl -s {args}http://{listen}/{}/{}/", key.namespace, key.name)
}
