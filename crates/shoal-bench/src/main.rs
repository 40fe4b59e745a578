//! Shoal's benchmark harness. One command runs the suite and writes a
//! markdown table to `crates/shoal-bench/results/`:
//!
//! ```sh
//! crates/shoal-bench/run.sh        # = cargo run --release -p shoal-bench -- run
//! ```
//!
//! Servers under test run as child processes of this binary (so their RSS
//! is theirs alone) and are driven over loopback by `wrk`. Figures are
//! medians/percentiles from one run, side by side: the machines are shared
//! and noisy, so ratios between rows of one run mean more than any row.

mod children;
mod cluster;
mod database;
mod events;
mod generate;
mod isolation;
mod measure;
mod plot;
mod report;
mod scale;
mod scrape;
mod sim_builder;
mod tracing_cost;

use std::{path::PathBuf, time::Duration};

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "shoal-bench", about = "Shoal's benchmarks")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the whole suite and write the results table.
    Run(RunArgs),
    /// Only the in-process figures (time inside the server), quickly.
    Inside,
    /// Writes N generated hello-world Functions into a folder (for serve-node).
    Generate {
        /// Where.
        #[arg(long)]
        dir: PathBuf,
        /// How many.
        #[arg(long)]
        count: usize,
    },
    /// The control plane at scale: N Functions to Running against the
    /// test harness's recording API, the build service in the loop; prints
    /// a table (`cluster` is the same against a real cluster).
    Scale {
        /// Function counts.
        #[arg(long, value_delimiter = ',', default_value = "100,1000,10000")]
        counts: Vec<usize>,
    },
    /// Shoal on a real cluster (KUBECONFIG): create → first answer, N
    /// Functions to Running, every node pod replaced under traffic. Run
    /// where ClusterIPs route; prints tables.
    Cluster(cluster::ClusterArgs),
    /// A Function querying PostgreSQL through a module-level pool, Shoal
    /// vs Node.js; writes results/database.md.
    Database {
        /// Seconds per wrk run.
        #[arg(long, default_value_t = 10)]
        seconds: u64,
        /// Where the table goes.
        #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/results"))]
        out: PathBuf,
    },
    /// Events delivered end to end (publish → Function → ack) on Shoal's
    /// path and Kyma's, the publisher endpoint, memory per Subscription;
    /// writes results/events.md.
    Events {
        /// Events per delivery run.
        #[arg(long, default_value_t = 20_000)]
        events: usize,
        /// Subscriptions for the memory figure.
        #[arg(long, default_value_t = 500)]
        subscriptions: usize,
        /// Where the table goes.
        #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/results"))]
        out: PathBuf,
    },
    /// The size and time of a node's /metrics with N Functions loaded;
    /// writes results/metrics.md.
    Metrics {
        /// Function counts.
        #[arg(long, value_delimiter = ',', default_value = "1000,10000")]
        counts: Vec<usize>,
        /// Where the table goes.
        #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/results"))]
        out: PathBuf,
    },
    /// A neighbour's latency quiet and while another tenant attacks the
    /// node (busy loop, memory pressure, slow clients, socket flood);
    /// writes results/isolation.md.
    Isolation {
        /// Seconds per wrk run.
        #[arg(long, default_value_t = 10)]
        seconds: u64,
        /// Where the table goes.
        #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/results"))]
        out: PathBuf,
    },
    /// Tracing's cost on a hot Function: off, on, and a build from before
    /// tracing (`SHOAL_BENCH_BASELINE`), in alternating rounds; writes
    /// results/tracing.md.
    Tracing {
        /// Rounds of every variant.
        #[arg(long, default_value_t = 3)]
        rounds: usize,
        /// Seconds per wrk run.
        #[arg(long, default_value_t = 5)]
        seconds: u64,
        /// Where the table goes.
        #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/results"))]
        out: PathBuf,
    },
    /// (child) A Shoal node serving generated Functions from a folder.
    ServeNode(children::ServeNodeArgs),
    /// (child) A raw hyper hello-world server: the ceiling.
    ServeHyper(children::ServeHyperArgs),
}

#[derive(clap::Args, Clone)]
pub struct RunArgs {
    /// Function counts loaded into one node.
    #[arg(long, value_delimiter = ',', default_value = "100,1000,10000")]
    counts: Vec<usize>,
    /// Seconds per wrk run.
    #[arg(long, default_value_t = 10)]
    seconds: u64,
    /// Node.js processes (one per Function) in the baseline.
    #[arg(long, default_value_t = 50)]
    node_processes: usize,
    /// Where the table goes.
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/results"))]
    out: PathBuf,
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    match cli.command {
        Command::ServeNode(args) => runtime.block_on(children::serve_node(args)),
        Command::ServeHyper(args) => runtime.block_on(children::serve_hyper(args)),
        Command::Run(args) => runtime.block_on(run(args)),
        Command::Inside => runtime.block_on(inside()),
        Command::Scale { counts } => runtime.block_on(scale::run(&counts)),
        Command::Cluster(args) => runtime.block_on(cluster::run(&args)),
        Command::Events {
            events,
            subscriptions,
            out,
        } => runtime.block_on(async {
            let report = events::run(events, subscriptions).await?;
            let table = format!(
                "# Shoal benchmark: event delivery\n\nMachine: {}. Reproduce: `cargo build --release -p shoal && cargo run --release -p shoal-bench -- events` (needs `nats-server`, `wrk`, `node` and the baseline's express: see run.sh).\n\n{}",
                measure::machine_description(),
                events::markdown(&report)
            );
            std::fs::create_dir_all(&out)?;
            std::fs::write(out.join("events.md"), &table)?;
            println!("{table}");
            Ok(())
        }),
        Command::Metrics { counts, out } => runtime.block_on(async {
            let mut rows = Vec::new();
            for count in counts {
                rows.push(scrape::run(count).await?);
            }
            let table = format!(
                "# Shoal benchmark: the node's /metrics\n\nMachine: {}. Reproduce: `cargo run --release -p shoal-bench -- metrics`.\n\n{}",
                measure::machine_description(),
                scrape::markdown(&rows)
            );
            std::fs::create_dir_all(&out)?;
            std::fs::write(out.join("metrics.md"), &table)?;
            println!("{table}");
            Ok(())
        }),
        Command::Database { seconds, out } => runtime.block_on(async {
            let row = database::run(Duration::from_secs(seconds)).await?;
            let table = format!(
                "# Shoal benchmark: a Function reading a database\n\nMachine: {}. Reproduce: `cargo build --release -p shoal && cargo run --release -p shoal-bench -- database`.\n\n{}",
                measure::machine_description(),
                database::markdown(&row)
            );
            std::fs::create_dir_all(&out)?;
            std::fs::write(out.join("database.md"), &table)?;
            println!("{table}");
            Ok(())
        }),
        Command::Isolation { seconds, out } => runtime.block_on(async {
            let rows = isolation::run(Duration::from_secs(seconds)).await?;
            let table = format!(
                "# Shoal benchmark: isolation between tenants\n\nMachine: {}. Reproduce: `cargo build --release -p shoal && cargo run --release -p shoal-bench -- isolation`.\n\n{}",
                measure::machine_description(),
                isolation::markdown(&rows)
            );
            std::fs::create_dir_all(&out)?;
            std::fs::write(out.join("isolation.md"), &table)?;
            println!("{table}");
            Ok(())
        }),
        Command::Tracing { rounds, seconds, out } => runtime.block_on(async {
            let report = tracing_cost::run(rounds, Duration::from_secs(seconds)).await?;
            let table = format!(
                "# Shoal benchmark: tracing\n\nMachine: {}. Reproduce: `cargo build --release -p shoal && SHOAL_BENCH_BASELINE=<shoal built before tracing> cargo run --release -p shoal-bench -- tracing`.\n\n{}",
                measure::machine_description(),
                tracing_cost::markdown(&report)
            );
            std::fs::create_dir_all(&out)?;
            std::fs::write(out.join("tracing.md"), &table)?;
            println!("{table}");
            Ok(())
        }),
        Command::Generate { dir, count } => runtime
            .block_on(generate::functions(&dir, count))
            .map(|_| ()),
    }
}

async fn inside() -> anyhow::Result<()> {
    let work = tempfile::tempdir()?;
    generate::functions(work.path(), measure::COLD_FUNCTIONS).await?;
    let handlers_dir = work.path().join("handlers");
    generate::handlers(&handlers_dir, work.path()).await?;
    let inside = measure::inside_server(work.path(), &handlers_dir).await?;
    println!("{inside:#?}");
    Ok(())
}

async fn run(args: RunArgs) -> anyhow::Result<()> {
    measure::require_wrk()?;
    let work = tempfile::tempdir()?;
    let seconds = Duration::from_secs(args.seconds);
    let mut report = report::Report::new();
    report.machine = measure::machine_description();

    eprintln!("== building the hello-world template (javy-codegen) ...");
    let max = args
        .counts
        .iter()
        .copied()
        .max()
        .unwrap_or(0)
        .max(measure::COLD_FUNCTIONS);
    let dynamic_dir = work.path().join("dynamic");
    let template = generate::functions(&dynamic_dir, max).await?;
    report.build = Some(template.clone());

    let handlers_dir = work.path().join("handlers");
    generate::handlers(&handlers_dir, &dynamic_dir).await?;
    eprintln!("== in-process: time inside the server for hello world and the JSON handler ...");
    report.inside = Some(measure::inside_server(&dynamic_dir, &handlers_dir).await?);

    eprintln!("== hot Functions: hello, JSON and state handlers, Shoal vs Node.js ...");
    report.handlers = measure::handlers_run(&handlers_dir, seconds).await?;

    for &count in &args.counts {
        eprintln!("== node with {count} Functions ...");
        let node = children::Child::node(&dynamic_dir, count, children::Variant::default()).await?;
        let row = measure::node_run(&node, count, seconds).await?;
        report.nodes.push(row);
        node.stop();
    }

    eprintln!("== variants at 100 Functions: pooling/copy-on-write off, no warm sandboxes ...");
    for (name, dir, count, variant) in [
        (
            "dynamic, pooling + CoW (default)",
            &dynamic_dir,
            100,
            children::Variant::default(),
        ),
        (
            "dynamic, pooling + CoW, pages not kept resident",
            &dynamic_dir,
            100,
            children::Variant {
                keep_resident: false,
                ..Default::default()
            },
        ),
        (
            "dynamic, no pooling, no CoW",
            &dynamic_dir,
            100,
            children::Variant {
                pooling: false,
                cow: false,
                keep_resident: false,
                ..Default::default()
            },
        ),
        (
            "dynamic, a fresh sandbox per request (no warm sandboxes)",
            &dynamic_dir,
            100,
            children::Variant {
                warm: false,
                ..Default::default()
            },
        ),
        (
            "dynamic, a fresh sandbox per request, snapshots off (each evaluates the module)",
            &dynamic_dir,
            100,
            children::Variant {
                warm: false,
                snapshots: false,
                ..Default::default()
            },
        ),
    ] {
        let node = children::Child::node(dir, count, variant).await?;
        report
            .variants
            .push(measure::variant_run(name, &node, count, seconds).await?);
        node.stop();
    }

    eprintln!(
        "== Node.js baseline: {} Express processes, one per Function ...",
        args.node_processes
    );
    report.node_baseline = Some(measure::node_baseline(args.node_processes, seconds).await?);

    eprintln!("== raw hyper hello world (the ceiling) ...");
    let hyper = children::Child::hyper().await?;
    report.hyper = Some(measure::single_run("raw hyper hello world", &hyper, "/", seconds).await?);
    hyper.stop();

    std::fs::create_dir_all(&args.out)?;
    let table = report.markdown();
    std::fs::write(args.out.join("README.md"), &table)?;
    std::fs::write(
        args.out.join("results.json"),
        serde_json::to_string_pretty(&report.json())?,
    )?;
    plot::render(&report, &args.out.join("density.png"))?;
    println!("{table}");
    eprintln!("wrote {}", args.out.join("README.md").display());
    Ok(())
}
