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
use shoal_build::{Builder, FunctionSource, JsTools};
use shoal_node::{FunctionConfig, FunctionKey, FunctionTable, ModuleSource, Node, TableConfig};
use shoal_runtime::Mount;

use crate::node_support::{self, NodeArgs};

#[derive(Args)]
pub struct UpArgs {
    /// Folder of Functions: .js files, folders with handler.js, Kyma Function YAML.
    #[arg(default_value = "examples")]
    dir: PathBuf,
    /// Address to serve on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// Seconds between looks at a gitRepository Function's reference for a
    /// new commit (rebuilt and swapped in when there is one).
    #[arg(long, default_value_t = 30)]
    git_poll_secs: u64,
    #[command(flatten)]
    node: NodeArgs,
    #[command(flatten)]
    events: crate::events::EventingArgs,
}

pub async fn run(args: UpArgs) -> anyhow::Result<()> {
    let dir = args
        .dir
        .canonicalize()
        .with_context(|| format!("{} does not exist", args.dir.display()))?;
    JsTools::locate().check()?;
    let mut args = args;
    // Events: the publisher endpoint of this process (the port after
    // --listen unless given; another free one when that is taken), and
    // Functions' emitCloudEvent posts there unless told otherwise.
    let publisher = match args.events.publisher_listen {
        Some(addr) => tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("the publisher endpoint on {addr}"))?,
        None => {
            let next = SocketAddr::new(args.listen.ip(), args.listen.port().wrapping_add(1));
            match tokio::net::TcpListener::bind(next).await {
                Ok(l) => l,
                Err(_) => tokio::net::TcpListener::bind(SocketAddr::new(args.listen.ip(), 0))
                    .await
                    .context("a port for the publisher endpoint")?,
            }
        }
    };
    let publisher_listen = publisher.local_addr()?;
    if args.node.publisher_proxy == shoal_node::NodeConfig::default().publisher_proxy {
        args.node.publisher_proxy = format!("http://{publisher_listen}/publish");
    }
    let runtime = node_support::runtime(&args.node, node_support::Placement::Local { listen: args.listen })?;
    let table_config = TableConfig {
        memory_budget: args.node.memory_budget_mb << 20,
        warm: args.node.warm_config(),
        ..TableConfig::default()
    };
    let table = Arc::new(FunctionTable::new(runtime.clone(), table_config));
    let builder = Builder::new(crate::build::js_tools(), runtime);

    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .with_context(|| format!("listening on {}", args.listen))?;
    let paths = discover(&dir);
    if paths.is_empty() {
        anyhow::bail!(
            "no Functions in {} (.js files, folders with handler.js, or Kyma Function YAML)",
            dir.display()
        );
    }
    println!("building {} Functions from {} ...", paths.len(), dir.display());
    let mut watched = Watched::default();
    // Two builds at a time: each is mostly one core of code generation.
    let mut pending = paths.clone();
    while !pending.is_empty() {
        let batch: Vec<PathBuf> = pending.drain(..pending.len().min(2)).collect();
        let mut builds = tokio::task::JoinSet::new();
        for path in batch {
            let (builder, node) = (builder.clone(), args.node.clone());
            builds.spawn(async move { build_one(path, &builder, &node).await });
        }
        while let Some(done) = builds.join_next().await {
            if let Ok(outcome) = done {
                watched.apply(outcome, &table);
            }
        }
    }
    let node = Node::new(table.clone(), node_support::node_config(&args.node)?);
    let bus = args.events.bus().await?;
    crate::events::serve_publisher(bus.clone(), publisher);
    let mut subscriptions = crate::events::LocalSubscriptions::new(bus, node.clone(), &args.events);
    subscriptions.sync(&dir, &table).await;
    println!(
        "\nShoal is serving {} Functions on http://{}  (Ctrl-C to stop)\n",
        table.len(),
        args.listen
    );
    for path in &paths {
        if let Some(WatchedFunction {
            key: Some(key),
            curl_args,
            ..
        }) = watched.by_path.get(path)
        {
            println!("  {:<28} {}", key.to_string(), curl_line(args.listen, key, curl_args));
        }
    }
    let bus_name = match &args.events.nats_url {
        Some(url) => format!("NATS JetStream at {url}"),
        None => "kept in this process".to_string(),
    };
    println!("\n  events: POST http://{publisher_listen}/publish ({bus_name})");
    println!("\nEdit a file there and it is rebuilt and swapped in.\n");

    let watcher_table = table.clone();
    let node_args = args.node.clone();
    let git_poll = Duration::from_secs(args.git_poll_secs.max(1));
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
                if let Some(WatchedFunction { key: Some(key), .. }) = watched.by_path.remove(&gone) {
                    watcher_table.remove(&key);
                    println!("removed {key} ({} is gone)", gone.display());
                }
            }
            for path in now {
                let changed = match watched.by_path.get(&path) {
                    None => true,
                    Some(w) => w.stamp != stamp(&path) || w.new_commit(git_poll).await,
                };
                if changed {
                    let outcome = build_one(path, &builder, &node_args).await;
                    watched.apply(outcome, &watcher_table);
                }
            }
            subscriptions.sync(&dir, &watcher_table).await;
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
    /// For a gitRepository source: what was built, and when the reference
    /// was last looked at.
    git: Option<GitWatch>,
}

/// A Git Function's reference as last built.
struct GitWatch {
    spec: shoal_build::git::GitSpec,
    auth: shoal_build::git::GitAuth,
    commit: String,
    checked: std::sync::Mutex<std::time::Instant>,
}

impl WatchedFunction {
    /// Whether the Function's Git reference names another commit than the
    /// one built (looked at once per `every`).
    async fn new_commit(&self, every: Duration) -> bool {
        let Some(git) = &self.git else { return false };
        {
            let mut checked = git.checked.lock().unwrap_or_else(|p| p.into_inner());
            if checked.elapsed() < every {
                return false;
            }
            *checked = std::time::Instant::now();
        }
        let remote = shoal_build::git::GitRemote::new(&git.spec.url, git.auth.clone());
        match remote.resolve(&git.spec.reference).await {
            Ok(commit) if commit != git.commit => {
                println!("{} moved to {commit}", git.spec.reference);
                true
            }
            Ok(_) => false,
            Err(e) => {
                eprintln!("! {}: {e}", shoal_build::git::scrub(&git.spec.url));
                false
            }
        }
    }
}

/// The result of building one path.
struct Outcome {
    path: PathBuf,
    stamp: Vec<(PathBuf, SystemTime, u64)>,
    git: Option<GitWatch>,
    result: Result<(FunctionKey, FunctionConfig, Vec<u8>, String, u128), String>,
}

async fn build_one(path: PathBuf, builder: &Builder, node: &NodeArgs) -> Outcome {
    let stamp = stamp(&path);
    let mut git = None;
    let result = async {
        let mut source = shoal_build::load_function(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let key = FunctionKey::new(source.namespace.clone(), source.name.clone());
        // A gitRepository source: its reference's commit, fetched now (the
        // same code as a build Job's). Edits to the YAML fetch again.
        let _checkout = crate::build::fetch_git(&mut source, None, None)
            .await
            .map_err(|e| format!("{key}: {e:#}"))?;
        // Looked at again for new commits.
        if let (Some(spec), Some(commit)) = (source.git.clone(), source.commit.clone()) {
            git = Some(GitWatch {
                spec,
                auth: crate::build::git_auth_for(&source, None, None).map_err(|e| format!("{key}: {e:#}"))?,
                commit,
                checked: std::sync::Mutex::new(std::time::Instant::now()),
            });
        }
        let env = source
            .function
            .as_ref()
            .map(shoal_build::static_env)
            .unwrap_or_default();
        let built = builder
            .build_with_env(&source.inputs, &env)
            .await
            .map_err(|e| format!("{key}: {e}"))?;
        for warning in &built.warnings {
            eprintln!("! {key}: {warning}");
        }
        let config = function_config(&source, node).map_err(|e| format!("{key}: {e}"))?;
        Ok((
            key,
            config,
            built.wasm,
            curl_args(&source),
            built.timings.total.as_millis(),
        ))
    }
    .await;
    Outcome {
        path,
        stamp,
        git,
        result,
    }
}

impl Watched {
    /// Records a build; a success is swapped in, a failure leaves the
    /// running version (if any) in place.
    fn apply(&mut self, outcome: Outcome, table: &FunctionTable) {
        let previous = self.by_path.remove(&outcome.path);
        let known = previous.as_ref().and_then(|w| w.key.clone());
        let entry = match outcome.result {
            Ok((key, config, wasm, curl_args, millis)) => {
                if let Some(old) = known.filter(|k| k != &key) {
                    table.remove(&old);
                }
                table.upsert(key.clone(), config, ModuleSource::Bytes(Arc::new(wasm)));
                let verb = if previous.is_some() { "rebuilt" } else { "built" };
                println!("✓ {verb} {key} in {millis} ms");
                WatchedFunction {
                    stamp: outcome.stamp,
                    key: Some(key),
                    curl_args,
                    git: outcome.git,
                }
            }
            Err(message) => {
                let still = if known.is_some() {
                    " (still serving the previous version)"
                } else {
                    ""
                };
                eprintln!("✗ {message}{still}");
                let (curl_args, git) = previous.map(|p| (p.curl_args, p.git)).unwrap_or_default();
                WatchedFunction {
                    stamp: outcome.stamp,
                    key: known,
                    curl_args,
                    // Still the commit that serves; looked at again later.
                    git,
                }
            }
        };
        self.by_path.insert(outcome.path, entry);
    }
}

/// How a Function from disk runs: its static env, its preset's memory
/// limit, FUNC_TIMEOUT / REQ_MB_LIMIT overrides from its env, and its
/// secretMounts, each Secret standing in as the folder
/// `.secrets/<secretName>` next to the Function (one file per key).
///
/// # Errors
/// When a mounted Secret has no folder.
pub fn function_config(source: &FunctionSource, node: &NodeArgs) -> Result<FunctionConfig, String> {
    let (env, memory_limit) = match &source.function {
        Some(f) => (
            shoal_build::static_env(f),
            shoal_api::function_memory_limit(&f.spec) as usize,
        ),
        None => (BTreeMap::new(), FunctionConfig::default().memory_limit),
    };
    let mut config = FunctionConfig::from_env(
        source.inputs.runtime.clone(),
        env,
        memory_limit,
        &node.function_defaults(),
    );
    if let Some(function) = &source.function {
        config.cpu_cores = FunctionConfig::cpu_cores_for(shoal_api::function_cpu_limit(&function.spec));
    }
    let secrets = source.origin.parent().unwrap_or(Path::new(".")).join(".secrets");
    for mount in source.function.iter().flat_map(|f| &f.spec.secret_mounts) {
        // A Secret's name, as Kubernetes allows it (a DNS-1123 subdomain):
        // never a path (`/etc`, `../..`) that would mount the host's files.
        if !is_dns_1123_subdomain(&mount.secret_name) {
            return Err(format!(
                "secretMounts: {:?} is not a Secret name (lowercase letters, digits, '-' and '.', at most 253)",
                mount.secret_name
            ));
        }
        let folder = secrets.join(&mount.secret_name);
        // Nor a link out of .secrets.
        let inside = match (folder.canonicalize(), secrets.canonicalize()) {
            (Ok(folder), Ok(secrets)) => folder.starts_with(secrets),
            _ => true,
        };
        if !inside {
            return Err(format!(
                "secretMounts: {} leads outside {}",
                folder.display(),
                secrets.display()
            ));
        }
        if !folder.is_dir() {
            return Err(format!(
                "secretMounts: in local mode Secret {} is the folder {} (one file per key), which does not exist",
                mount.secret_name,
                folder.display()
            ));
        }
        config.mounts.push(Mount {
            host: folder,
            guest: mount.mount_path.clone(),
        });
    }
    Ok(config)
}

/// Kubernetes' rule for object names such as a Secret's.
fn is_dns_1123_subdomain(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 253
        && name.split('.').all(|label| {
            !label.is_empty()
                && label
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        })
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
                && !crate::events::is_subscription_file(p)
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

/// What a change to the Function at `path` would alter: for a folder, every
/// file the build reads (handler.js, package.json and its other files).
fn stamp(path: &Path) -> Vec<(PathBuf, SystemTime, u64)> {
    let mut files = Vec::new();
    if path.is_dir() {
        folder_files(path, true, &mut files);
    } else {
        files.push(path.to_path_buf());
    }
    files.sort();
    files
        .into_iter()
        .filter_map(|f| {
            let m = std::fs::metadata(&f).ok()?;
            Some((f, m.modified().ok()?, m.len()))
        })
        .collect()
}

/// The files of a Function folder as the build takes them
/// (`shoal_build::other_files` leaves out the same entries).
fn folder_files(dir: &Path, top: bool, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') || (top && matches!(name.as_ref(), "node_modules" | "package-lock.json")) {
            continue;
        }
        match entry.file_type() {
            Ok(t) if t.is_dir() => folder_files(&entry.path(), false, out),
            Ok(t) if t.is_file() => out.push(entry.path()),
            _ => {}
        }
    }
}

/// A sample request from the Function itself: a `// curl: ARGS` line in the
/// handler, or the `shoal.dev/curl` annotation of a Function YAML. `{url}`
/// in ARGS stands for the Function's URL; otherwise it goes last.
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
    let url = format!("http://{listen}/{}/{}/", key.namespace, key.name);
    if args.contains("{url}") {
        format!("curl -s {}", args.replace("{url}", &url))
    } else if args.is_empty() {
        format!("curl -s {url}")
    } else {
        format!("curl -s {args} {url}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_name_is_never_a_path() {
        for ok in ["db-credentials", "a", "tls.example.com", "x1-2"] {
            assert!(is_dns_1123_subdomain(ok), "{ok}");
        }
        for bad in ["/etc", "..", ".", "../../etc", "a/b", "Upper", "-a", "a-", "", "a..b"] {
            assert!(!is_dns_1123_subdomain(bad), "{bad}");
        }
    }
}
