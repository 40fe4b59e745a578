//! The `shoal` command.

mod build;
mod builder;
mod controller;
mod engine;
mod events;
mod node;
mod node_support;
mod registry_gate;
mod smoke;
mod up;

use clap::{Parser, Subcommand};

/// Shoal: Kyma Functions on a shared WebAssembly host.
#[derive(Parser)]
#[command(name = "shoal", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build a Function to a Wasm module (and optionally push it).
    Build(build::BuildArgs),
    /// Local mode: build every Function in a folder and serve them, rebuilding on change.
    Up(up::UpArgs),
    /// Run a node server for Functions published as OCI artifacts.
    Node(node::NodeCmdArgs),
    /// Run the build service: builds Functions for the controller without a pod per build.
    Builder(builder::BuilderArgs),
    /// Run the controller: reconciler and admission webhooks (in a cluster).
    Controller(controller::ControllerArgs),
    /// Check an installation: apply a hello Function, wait for Running, call it through its Service (`helm test`).
    #[command(name = "smoke-test")]
    SmokeTest(smoke::SmokeArgs),
    /// Guard the in-cluster registry: let the node pods pull and each build
    /// push its own Function's repository, nothing else.
    RegistryGate(registry_gate::RegistryGateArgs),
    /// Print the Function CustomResourceDefinition (generated from the Rust types).
    Crd {
        /// Kyma's Subscription CRD instead (for clusters without Kyma's eventing).
        #[arg(long)]
        subscription: bool,
    },
    /// Initialize a freshly built engine plugin and record it (used by
    /// crates/shoal-engine/build-engine.sh).
    #[command(hide = true)]
    EngineInit(engine::EngineInitArgs),
}

fn main() -> std::process::ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_env("SHOAL_LOG").unwrap_or_else(|_| "info".into()))
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: starting the async runtime: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async {
        match cli.command {
            Command::Build(args) => build::run(args).await,
            Command::Up(args) => up::run(args).await,
            Command::Node(args) => node::run(args).await,
            Command::Builder(args) => builder::run(args).await,
            Command::Controller(args) => controller::run(args).await,
            Command::Crd { subscription } => controller::print_crd(subscription),
            Command::RegistryGate(args) => registry_gate::run(args).await,
            Command::SmokeTest(args) => smoke::run(args).await,
            Command::EngineInit(args) => engine::run(args).await,
        }
    });
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
