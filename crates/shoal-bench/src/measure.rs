//! Measurements: wrk runs, cold first requests, RSS, and time spent inside
//! the server (in-process, no sockets).

use std::{
    net::SocketAddr,
    path::Path,
    process::Command,
    sync::Arc,
    time::{Duration, Instant},
};

use anyhow::Context;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper_util::{client::legacy::Client, rt::TokioExecutor};
use shoal_node::{FunctionConfig, FunctionKey, FunctionTable, ModuleSource, Node, NodeConfig, TableConfig};
use shoal_runtime::{Runtime, RuntimeConfig};

use crate::{children::Child, generate};

/// Latency percentiles and throughput of one load run.
#[derive(Debug, Clone, Default)]
pub struct Load {
    /// Median latency.
    pub p50: Duration,
    /// 99th percentile latency.
    pub p99: Duration,
    /// Requests per second.
    pub rps: f64,
}

/// Figures of a node with N Functions.
#[derive(Debug, Clone)]
pub struct NodeRow {
    /// Functions loaded.
    pub count: usize,
    /// RSS with every Function registered, none loaded.
    pub rss_idle: u64,
    /// RSS with every Function loaded.
    pub rss_loaded: u64,
    /// Time to load all (sum of first requests, sequential).
    pub load_all: Duration,
    /// First-request latency, median.
    pub cold_p50: Duration,
    /// First-request latency, 99th percentile.
    pub cold_p99: Duration,
    /// One Function at concurrency 1.
    pub hello_c1: Load,
    /// One Function at concurrency 64.
    pub hello_c64: Load,
    /// Random Functions at concurrency 64, each as likely.
    pub random_c64: Load,
    /// Random Functions at concurrency 64, Zipf-distributed ([`ZIPF_SKEW`]).
    pub zipf_c64: Load,
}

/// The skew of the Zipf-distributed traffic: the k-th most popular of N
/// Functions gets a share proportional to 1/k^s. s = 1.0 is the usual fit
/// of real request popularity (a few Functions hot, a long tail of rare
/// ones).
pub const ZIPF_SKEW: f64 = 1.0;

impl NodeRow {
    /// RSS added per loaded Function.
    pub fn rss_per_function(&self) -> f64 {
        self.rss_loaded.saturating_sub(self.rss_idle) as f64 / self.count.max(1) as f64
    }
}

/// Figures of a named variant.
#[derive(Debug, Clone)]
pub struct VariantRow {
    /// What it is.
    pub name: String,
    /// Functions loaded.
    pub count: usize,
    /// RSS per loaded Function.
    pub rss_per_function: f64,
    /// First-request latency, median.
    pub cold_p50: Duration,
    /// Random Functions at concurrency 1.
    pub c1: Load,
    /// Random Functions at concurrency 64.
    pub c64: Load,
}

/// Time inside the server for one hello-world request, hot (a warm
/// sandbox: the module evaluated once) and in a fresh sandbox per request.
#[derive(Debug, Clone)]
pub struct Inside {
    /// Whole server-side handling of a hot request (routing, envelope,
    /// warm sandbox, response).
    pub handle_p50: Duration,
    /// 99th percentile of the same.
    pub handle_p99: Duration,
    /// The JavaScript run of a hot request (the prelude's per-request work
    /// and the handler), inside a warm sandbox.
    pub warm_run_p50: Duration,
    /// Whole server-side handling with a fresh sandbox per request (from
    /// the Function's snapshot).
    pub fresh_handle_p50: Duration,
    /// Creating a fresh sandbox from the snapshot (the engine instance and
    /// its memory written back).
    pub instantiate_p50: Duration,
    /// Running the JavaScript in a sandbox restored from the snapshot: the
    /// request alone.
    pub run_p50: Duration,
    /// The same two with snapshots off: creating the engine and Function
    /// instances, then evaluating the prelude and the module and the request.
    pub evaluated_instantiate_p50: Duration,
    /// See `evaluated_instantiate_p50`.
    pub evaluated_run_p50: Duration,
    /// The first request to each of [`COLD_FUNCTIONS`] Functions, in-process.
    pub cold: ColdSplit,
    /// Minor page faults per fresh-sandbox request.
    pub faults_per_request: f64,
    /// The JSON handler (POST a 2 KB order), hot: whole server-side
    /// handling, median.
    pub json_handle_p50: Duration,
    /// Of which the JavaScript run (decoding the body, building the event,
    /// the handler, encoding the answer), median.
    pub json_run_p50: Duration,
}

fn minor_faults() -> u64 {
    // Field 10 of /proc/self/stat, after the parenthesised command name.
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| s.rsplit_once(')').map(|(_, rest)| rest.to_string()))
        .and_then(|rest| rest.split_whitespace().nth(7).and_then(|v| v.parse().ok()))
        .unwrap_or(0)
}

/// Fails with instructions when wrk is missing.
pub fn require_wrk() -> anyhow::Result<()> {
    Command::new("wrk")
        .arg("--version")
        .output()
        .map(|_| ())
        .context("wrk is not installed: run crates/shoal-bench/run.sh, or apt-get install wrk")
}

/// CPU, cores and memory of this machine.
pub fn machine_description() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| {
            l.strip_prefix("model name")
                .map(|m| m.trim_start_matches([' ', '\t', ':']).to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0);
    let mem_kb = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            m.lines()
                .next()
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse::<u64>().ok())
        })
        .unwrap_or(0);
    format!("{model}, {cores} cores, {} GiB RAM", mem_kb / (1 << 20))
}

/// VmRSS of a process, in bytes.
pub fn rss_of(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.split_whitespace().next())
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map_or(0, |kb| kb * 1024)
}

pub fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// Distinct Functions whose first requests [`ColdSplit`] times.
pub const COLD_FUNCTIONS: usize = 200;

/// Medians of the first request to a Function the node has never run
/// (its module precompiled in the cache, as after a restart or a pull),
/// and of the second, by part.
#[derive(Debug, Clone, Copy, Default)]
pub struct ColdSplit {
    /// The module from the cache (hash, map, link).
    pub module_p50: Duration,
    /// Creating the sandbox (engine and Function instances).
    pub instantiate_p50: Duration,
    /// Loading: the prelude and the module's top level, and taking the
    /// snapshot.
    pub load_p50: Duration,
    /// The first request itself.
    pub run_p50: Duration,
    /// All of it, from module to answer.
    pub total_p50: Duration,
    /// The next fresh sandbox of the same Function, from its snapshot:
    /// instantiating, restoring and the request.
    pub second_p50: Duration,
    /// Bytes of snapshot per Function.
    pub snapshot_bytes: usize,
}

/// First and second requests to each of `count` generated Functions of
/// `dir`, one after another, in a runtime whose cache has their modules.
async fn cold_split(dir: &Path, count: usize) -> anyhow::Result<ColdSplit> {
    let cache = tempfile::tempdir()?;
    let config = RuntimeConfig {
        pool_slots: 16,
        cache_dir: Some(cache.path().to_path_buf()),
        ..RuntimeConfig::default()
    };
    let wasms: Vec<Vec<u8>> = (0..count)
        .map(|i| std::fs::read(dir.join(format!("{}.wasm", generate::name(i)))))
        .collect::<Result<_, _>>()?;
    {
        let compiling = Runtime::new(&config)?;
        for wasm in &wasms {
            compiling.load(wasm)?;
        }
    }
    let runtime = Runtime::new(&config)?;
    let request = guest_request("GET", &[], Bytes::new());
    let limits = shoal_runtime::InvokeLimits::default();
    let mut parts: [Vec<Duration>; 6] = Default::default();
    let mut snapshot_bytes = 0;
    for wasm in &wasms {
        let t = Instant::now();
        let module = runtime.load(wasm)?;
        let module_time = t.elapsed();
        let first = runtime.invoke(&module, request.clone(), limits).await;
        let total = t.elapsed();
        anyhow::ensure!(first.error.is_none(), "{:?}", first.error);
        let t = Instant::now();
        let second = runtime.invoke(&module, request.clone(), limits).await;
        let second_time = t.elapsed();
        anyhow::ensure!(second.error.is_none(), "{:?}", second.error);
        snapshot_bytes = module.snapshot_bytes();
        for (list, value) in parts.iter_mut().zip([
            module_time,
            first.instantiate_time,
            first.load_time,
            first.run_time,
            total,
            second_time,
        ]) {
            list.push(value);
        }
    }
    for list in &mut parts {
        list.sort();
    }
    let [module, instantiate, load, run, total, second] = parts.map(|list| percentile(&list, 0.5));
    Ok(ColdSplit {
        module_p50: module,
        instantiate_p50: instantiate,
        load_p50: load,
        run_p50: run,
        total_p50: total,
        second_p50: second,
        snapshot_bytes,
    })
}

/// Sorted instantiation and run times of fresh sandboxes of `module`.
async fn fresh_times(
    runtime: &Runtime,
    module: &shoal_runtime::FunctionModule,
) -> anyhow::Result<(Vec<Duration>, Vec<Duration>)> {
    let request = guest_request("GET", &[], Bytes::new());
    let limits = shoal_runtime::InvokeLimits::default();
    let (mut inst, mut run) = (Vec::new(), Vec::new());
    for _ in 0..2000 {
        let r = runtime.invoke(module, request.clone(), limits).await;
        anyhow::ensure!(r.error.is_none(), "{:?}", r.error);
        inst.push(r.instantiate_time);
        run.push(r.run_time);
    }
    inst.sort();
    run.sort();
    Ok((inst, run))
}

/// Server-side time of hello-world requests (`dir`'s first generated
/// Function) and of the JSON handler (`handlers_dir`, [`generate::handlers`]),
/// in this process.
pub async fn inside_server(dir: &Path, handlers_dir: &Path) -> anyhow::Result<Inside> {
    let runtime = Arc::new(Runtime::new(&RuntimeConfig {
        pool_slots: 16,
        ..RuntimeConfig::default()
    })?);
    let wasm = Arc::new(std::fs::read(dir.join(format!("{}.wasm", generate::name(0))))?);
    let mut handled = Vec::new();
    for warm in [true, false] {
        let table = Arc::new(FunctionTable::new(
            runtime.clone(),
            TableConfig {
                warm: shoal_node::WarmConfig {
                    enabled: warm,
                    ..Default::default()
                },
                ..TableConfig::default()
            },
        ));
        table.upsert(
            FunctionKey::new("bench", generate::name(0)),
            FunctionConfig::default(),
            ModuleSource::Bytes(wasm.clone()),
        );
        let node = Node::new(table.clone(), NodeConfig::default());
        handled.push(handle_times(&node, &format!("/bench/{}/", generate::name(0))).await?);
    }
    // The sandbox alone: a warm one's run, a fresh one's instantiation and run.
    let module = runtime.load(&wasm)?;
    let request = guest_request("GET", &[], Bytes::new());
    let warm_run = warm_run_times(&runtime, &module, &request).await?;
    let faults_before = minor_faults();
    let (inst, run) = fresh_times(&runtime, &module).await?;
    let faults_per_request = (minor_faults() - faults_before) as f64 / 2000.0;
    let evaluating = Runtime::new(&RuntimeConfig {
        pool_slots: 16,
        snapshot_budget_bytes: 0,
        ..RuntimeConfig::default()
    })?;
    let (evaluated_inst, evaluated_run) = fresh_times(&evaluating, &evaluating.load(&wasm)?).await?;
    drop(evaluating);
    let (json_handle, json_run) = json_times(&runtime, handlers_dir).await?;
    let cold = cold_split(dir, COLD_FUNCTIONS).await?;
    Ok(Inside {
        evaluated_instantiate_p50: percentile(&evaluated_inst, 0.5),
        evaluated_run_p50: percentile(&evaluated_run, 0.5),
        cold,
        faults_per_request,
        handle_p50: percentile(&handled[0], 0.5),
        handle_p99: percentile(&handled[0], 0.99),
        warm_run_p50: percentile(&warm_run, 0.5),
        fresh_handle_p50: percentile(&handled[1], 0.5),
        instantiate_p50: percentile(&inst, 0.5),
        run_p50: percentile(&run, 0.5),
        json_handle_p50: percentile(&json_handle, 0.5),
        json_run_p50: percentile(&json_run, 0.5),
    })
}

/// Sorted server-side handling times and JavaScript run times of the JSON
/// handler, hot.
async fn json_times(runtime: &Arc<Runtime>, handlers_dir: &Path) -> anyhow::Result<(Vec<Duration>, Vec<Duration>)> {
    let wasm = Arc::new(std::fs::read(handlers_dir.join(format!("{}.wasm", generate::name(1))))?);
    let table = Arc::new(FunctionTable::new(runtime.clone(), TableConfig::default()));
    table.upsert(
        FunctionKey::new("bench", generate::name(1)),
        FunctionConfig::default(),
        ModuleSource::Bytes(wasm.clone()),
    );
    let node = Node::new(table, NodeConfig::default());
    let order = Bytes::from(generate::order_json());
    let peer: SocketAddr = "127.0.0.1:1".parse()?;
    let mut handle = Vec::new();
    for i in 0..3200 {
        let req = http::Request::post(format!("/bench/{}/", generate::name(1)))
            .header("host", "127.0.0.1")
            .header("content-type", "application/json")
            .body(Full::new(order.clone()))?;
        let t = Instant::now();
        let response = node.handle(req, peer).await;
        let elapsed = t.elapsed();
        anyhow::ensure!(
            response.status() == 200,
            "the JSON handler answered {}",
            response.status()
        );
        if i >= 200 {
            handle.push(elapsed);
        }
    }
    let module = runtime.load(&wasm)?;
    let request = guest_request("POST", &[("content-type", "application/json")], order);
    let run = warm_run_times(runtime, &module, &request).await?;
    handle.sort();
    Ok((handle, run))
}

/// A request as the node hands it to a sandbox.
fn guest_request(method: &str, headers: &[(&str, &str)], body: Bytes) -> shoal_runtime::GuestRequest {
    let head = serde_json::json!({"v": 1, "method": method, "path": "/", "query": "", "headers": headers, "env": {},
        "function": {"name": "fn", "namespace": "bench", "runtime": "nodejs22", "timeout": 10, "bodySizeLimit": 1}});
    shoal_runtime::GuestRequest {
        head: Bytes::from(head.to_string()),
        body,
        trace: None,
    }
}

/// Sorted JavaScript run times of `request` served again and again by one
/// warm sandbox of `module` (the first 200 left out: warming up).
async fn warm_run_times(
    runtime: &Runtime,
    module: &shoal_runtime::FunctionModule,
    request: &shoal_runtime::GuestRequest,
) -> anyhow::Result<Vec<Duration>> {
    let limits = shoal_runtime::InvokeLimits::default();
    let sandbox = runtime.start_sandbox(&Default::default(), module, limits.memory_limit);
    let mut run = Vec::new();
    for i in 0..3200 {
        let r = sandbox
            .invoke(request.clone(), limits.request())
            .await
            .map_err(|_| anyhow::anyhow!("the warm sandbox ended"))?;
        anyhow::ensure!(r.error.is_none(), "{:?}", r.error);
        if !r.logs.is_empty() && std::env::var_os("SHOAL_BENCH_LOGS").is_some() {
            eprint!("{}", String::from_utf8_lossy(&r.logs));
        }
        if i >= 200 {
            run.push(r.run_time);
        }
    }
    run.sort();
    Ok(run)
}

/// Sorted server-side handling times of sequential requests to `path`.
async fn handle_times(node: &Arc<Node>, path: &str) -> anyhow::Result<Vec<Duration>> {
    let peer: SocketAddr = "127.0.0.1:1".parse()?;
    let mut handle = Vec::new();
    for i in 0..3200 {
        let req = http::Request::get(path)
            .header("host", "127.0.0.1")
            .body(Full::<Bytes>::default())?;
        let t = Instant::now();
        let response = node.handle(req, peer).await;
        let elapsed = t.elapsed();
        anyhow::ensure!(response.status() == 200, "hello answered {}", response.status());
        if i >= 200 {
            handle.push(elapsed);
        }
    }
    handle.sort();
    Ok(handle)
}

/// First request to each of `count` Functions, one after another.
pub async fn cold_requests(addr: SocketAddr, count: usize) -> anyhow::Result<(Vec<Duration>, Duration)> {
    let client: Client<_, Full<Bytes>> = Client::builder(TokioExecutor::new()).build_http();
    let mut cold = Vec::with_capacity(count);
    let started = Instant::now();
    for i in 0..count {
        let url = format!("http://{addr}/bench/{}/", generate::name(i));
        let t = Instant::now();
        let response = client.request(http::Request::get(&url).body(Full::default())?).await?;
        let status = response.status();
        let body = response.into_body().collect().await?.to_bytes();
        cold.push(t.elapsed());
        anyhow::ensure!(status == 200, "{url}: {status}");
        let expected = format!("hello from {}", generate::id(i));
        anyhow::ensure!(
            body == expected.as_bytes(),
            "{url} answered {:?}",
            String::from_utf8_lossy(&body)
        );
    }
    let total = started.elapsed();
    cold.sort();
    Ok((cold, total))
}

/// The figures of one node with `count` Functions.
pub async fn node_run(node: &Child, count: usize, seconds: Duration) -> anyhow::Result<NodeRow> {
    let rss_idle = node.rss();
    let (cold, load_all) = cold_requests(node.addr, count).await?;
    let rss_loaded = node.rss();
    let hello = format!("/bench/{}/", generate::name(0));
    let hello_c1 = wrk(node.addr, &Target::Path(hello.clone()), 1, seconds)?;
    let hello_c64 = wrk(node.addr, &Target::Path(hello), 64, seconds)?;
    let random_c64 = wrk(node.addr, &Target::Random(count), 64, seconds)?;
    let zipf_c64 = wrk(node.addr, &Target::Zipf(count, ZIPF_SKEW), 64, seconds)?;
    eprintln!(
        "   pid {} rss idle {} MiB, loaded {} MiB",
        node.pid(),
        rss_idle >> 20,
        rss_loaded >> 20
    );
    Ok(NodeRow {
        count,
        rss_idle,
        rss_loaded,
        load_all,
        cold_p50: percentile(&cold, 0.5),
        cold_p99: percentile(&cold, 0.99),
        hello_c1,
        hello_c64,
        random_c64,
        zipf_c64,
    })
}

/// The figures of a variant.
pub async fn variant_run(name: &str, node: &Child, count: usize, seconds: Duration) -> anyhow::Result<VariantRow> {
    let rss_idle = node.rss();
    let (cold, _) = cold_requests(node.addr, count).await?;
    let rss_loaded = node.rss();
    Ok(VariantRow {
        name: name.into(),
        count,
        rss_per_function: rss_loaded.saturating_sub(rss_idle) as f64 / count as f64,
        cold_p50: percentile(&cold, 0.5),
        c1: wrk(node.addr, &Target::Random(count), 1, seconds)?,
        c64: wrk(node.addr, &Target::Random(count), 64, seconds)?,
    })
}

/// Latency at concurrency 1 and throughput at 64 of one path.
pub async fn single_run(name: &str, server: &Child, path: &str, seconds: Duration) -> anyhow::Result<VariantRow> {
    let target = Target::Path(path.into());
    Ok(VariantRow {
        name: name.into(),
        count: 1,
        rss_per_function: server.rss() as f64,
        cold_p50: Duration::ZERO,
        c1: wrk(server.addr, &target, 1, seconds)?,
        c64: wrk(server.addr, &target, 64, seconds)?,
    })
}

/// What wrk requests.
pub enum Target {
    /// One path.
    Path(String),
    /// A JSON body POSTed to one path.
    Post(String, String),
    /// A random generated Function out of this many, each as likely.
    Random(usize),
    /// A random generated Function out of this many, the k-th most popular
    /// with a share proportional to 1/k^s (the popular ones spread over
    /// the generated names by a fixed shuffle).
    Zipf(usize, f64),
}

/// wrk's request script for [`Target::Zipf`]: the cumulative weights once,
/// then a binary search per request.
fn zipf_script(n: usize, s: f64) -> String {
    format!(
        r#"local n, s = {n}, {s}
local cdf, total = {{}}, 0
for k = 1, n do total = total + 1 / (k ^ s); cdf[k] = total end
math.randomseed(42)
local order = {{}}
for i = 1, n do order[i] = i - 1 end
for i = n, 2, -1 do local j = math.random(1, i); order[i], order[j] = order[j], order[i] end
request = function()
  local u = math.random() * total
  local lo, hi = 1, n
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    if cdf[mid] < u then lo = mid + 1 else hi = mid end
  end
  return wrk.format("GET", string.format("/bench/fn-%05d/", order[lo]))
end
"#
    )
}

/// Runs wrk (2 threads, or 1 for one connection) and parses its summary.
pub fn wrk(addr: SocketAddr, target: &Target, connections: usize, seconds: Duration) -> anyhow::Result<Load> {
    let script = tempfile::Builder::new().suffix(".lua").tempfile()?;
    let url = match target {
        Target::Path(p) => format!("http://{addr}{p}"),
        Target::Post(p, body) => {
            std::fs::write(
                script.path(),
                format!(
                    "wrk.method = \"POST\"\nwrk.headers[\"Content-Type\"] = \"application/json\"\nwrk.body = {}\n",
                    serde_json::to_string(body)?
                ),
            )?;
            format!("http://{addr}{p}")
        }
        Target::Random(n) => {
            std::fs::write(
                script.path(),
                format!(
                    "math.randomseed(42)\nrequest = function()\n  return wrk.format(\"GET\", string.format(\"/bench/fn-%05d/\", math.random(0, {})))\nend\n",
                    n - 1
                ),
            )?;
            format!("http://{addr}/")
        }
        Target::Zipf(n, skew) => {
            std::fs::write(script.path(), zipf_script(*n, *skew))?;
            format!("http://{addr}/")
        }
    };
    let threads = connections.min(2);
    let mut cmd = Command::new("wrk");
    cmd.args([
        "--latency",
        "-t",
        &threads.to_string(),
        "-c",
        &connections.to_string(),
        "-d",
        &format!("{}s", seconds.as_secs()),
    ]);
    if matches!(target, Target::Random(_) | Target::Zipf(..) | Target::Post(..)) {
        cmd.arg("-s").arg(script.path());
    }
    let out = cmd.arg(&url).output().context("running wrk")?;
    let text = String::from_utf8_lossy(&out.stdout);
    anyhow::ensure!(
        out.status.success(),
        "wrk failed: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    anyhow::ensure!(!text.contains("Non-2xx"), "wrk saw errors: {text}");
    let field = |label: &str| {
        text.lines()
            .find_map(|l| l.trim().strip_prefix(label).map(|v| v.trim().to_string()))
            .with_context(|| format!("no {label} in wrk output: {text}"))
    };
    Ok(Load {
        p50: parse_wrk_duration(&field("50%")?)?,
        p99: parse_wrk_duration(&field("99%")?)?,
        rps: field("Requests/sec:")?.parse()?,
    })
}

fn parse_wrk_duration(v: &str) -> anyhow::Result<Duration> {
    let (number, unit) = v.split_at(v.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(v.len()));
    let n: f64 = number.parse()?;
    let secs = match unit {
        "us" => n / 1e6,
        "ms" => n / 1e3,
        "s" => n,
        "m" => n * 60.0,
        other => anyhow::bail!("unknown wrk unit {other:?}"),
    };
    Ok(Duration::from_secs_f64(secs))
}

/// One handler under Shoal and under the Node.js baseline, side by side.
#[derive(Debug, Clone)]
pub struct HandlerRow {
    /// hello, json or state.
    pub name: &'static str,
    /// Shoal, one node, concurrency 64.
    pub shoal: Load,
    /// One Node.js process (Express), concurrency 64.
    pub node: Load,
}

/// hello world, the JSON handler and the stateful one, each on a Shoal node
/// (`dir` from [`generate::handlers`]) and in its own Node.js process, at
/// concurrency 64 after a warm-up, one after the other.
pub async fn handlers_run(dir: &Path, seconds: Duration) -> anyhow::Result<Vec<HandlerRow>> {
    let baseline = Path::new(env!("CARGO_MANIFEST_DIR")).join("node-baseline");
    let order = generate::order_json();
    let cases: [(&'static str, Option<&str>, Target, Target); 3] = [
        (
            "hello",
            None,
            Target::Path(format!("/bench/{}/", generate::name(0))),
            Target::Path("/".into()),
        ),
        (
            "json",
            Some("json"),
            Target::Post(format!("/bench/{}/", generate::name(1)), order.clone()),
            Target::Post("/".into(), order.clone()),
        ),
        (
            "state",
            Some("state"),
            Target::Path(format!("/bench/{}/?user=ada", generate::name(2))),
            Target::Path("/?user=ada".into()),
        ),
    ];
    let shoal = crate::children::Child::node(dir, 3, crate::children::Variant::default()).await?;
    let mut shoal_loads = Vec::new();
    for (_, _, target, _) in &cases {
        wrk(shoal.addr, target, 64, Duration::from_secs(2))?;
        shoal_loads.push(wrk(shoal.addr, target, 64, seconds)?);
    }
    shoal.stop();
    let client: Client<_, Full<Bytes>> = Client::builder(TokioExecutor::new()).build_http();
    let mut rows = Vec::new();
    for ((name, handler, _, target), shoal) in cases.into_iter().zip(shoal_loads) {
        let port = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse()?;
        let mut cmd = Command::new("node");
        cmd.arg("server.js")
            .current_dir(&baseline)
            .env("PORT", port.to_string())
            .env("FUNC_ID", generate::id(0))
            .stdout(std::process::Stdio::null());
        if let Some(h) = handler {
            cmd.env("HANDLER", h);
        }
        let mut child = cmd.spawn().context("starting node")?;
        let started = Instant::now();
        while client
            .request(http::Request::get(format!("http://{addr}/healthz")).body(Full::default())?)
            .await
            .is_err()
        {
            if started.elapsed() > Duration::from_secs(30) {
                let _ = child.kill();
                anyhow::bail!("the Node.js baseline did not start");
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let load = wrk(addr, &target, 64, Duration::from_secs(2)).and_then(|_| wrk(addr, &target, 64, seconds));
        let _ = child.kill();
        let _ = child.wait();
        rows.push(HandlerRow {
            name,
            shoal,
            node: load?,
        });
    }
    Ok(rows)
}

/// Figures of the one-process-per-Function Node.js baseline.
#[derive(Debug, Clone)]
pub struct NodeBaseline {
    /// Processes (Functions) started.
    pub processes: usize,
    /// Mean RSS of one process.
    pub rss_per_process: f64,
    /// Spawn to first 200, median.
    pub spawn_p50: Duration,
    /// Spawn to first 200, worst.
    pub spawn_max: Duration,
    /// One process at concurrency 1.
    pub c1: Load,
    /// One process at concurrency 64.
    pub c64: Load,
}

/// Starts `processes` Express servers, one per Function, the way Kyma runs
/// one pod per Function, and measures them.
pub async fn node_baseline(processes: usize, seconds: Duration) -> anyhow::Result<NodeBaseline> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("node-baseline");
    anyhow::ensure!(
        dir.join("node_modules/express").exists(),
        "express is not installed: run crates/shoal-bench/run.sh (npm ci in {})",
        dir.display()
    );
    let client: Client<_, Full<Bytes>> = Client::builder(TokioExecutor::new()).build_http();
    let mut children = Vec::new();
    let mut spawn = Vec::new();
    let kill_all = |children: &mut Vec<(std::process::Child, SocketAddr)>| {
        for (c, _) in children.iter_mut() {
            let _ = c.kill();
            let _ = c.wait();
        }
    };
    for i in 0..processes {
        let port = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse()?;
        let started = Instant::now();
        let child = Command::new("node")
            .arg("server.js")
            .current_dir(&dir)
            .env("PORT", port.to_string())
            .env("FUNC_ID", generate::id(i))
            .stdout(std::process::Stdio::null())
            .spawn()
            .context("starting node")?;
        children.push((child, addr));
        // Spawn to first 200, as a readiness probe would see it.
        let url = format!("http://{addr}/");
        loop {
            let ok = match client.request(http::Request::get(&url).body(Full::default())?).await {
                Ok(r) => r.status() == 200,
                Err(_) => false,
            };
            if ok {
                break;
            }
            if started.elapsed() > Duration::from_secs(30) {
                kill_all(&mut children);
                anyhow::bail!("node process {i} did not answer within 30 s");
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        spawn.push(started.elapsed());
    }
    let rss: u64 = children.iter().map(|(c, _)| rss_of(c.id())).sum();
    let target = Target::Path("/".into());
    let first = children[0].1;
    let c1 = wrk(first, &target, 1, seconds);
    let c64 = wrk(first, &target, 64, seconds);
    kill_all(&mut children);
    spawn.sort();
    Ok(NodeBaseline {
        processes,
        rss_per_process: rss as f64 / processes as f64,
        spawn_p50: percentile(&spawn, 0.5),
        spawn_max: spawn.last().copied().unwrap_or_default(),
        c1: c1?,
        c64: c64?,
    })
}
