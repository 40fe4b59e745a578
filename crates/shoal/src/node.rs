//! `shoal node`: a node server for Functions given as OCI artifacts.
//! (In a cluster the node learns its Functions from the API server.)

use std::{net::SocketAddr, sync::Arc};

use anyhow::Context;
use clap::Args;
use shoal_node::{FunctionConfig, FunctionKey, FunctionTable, ModuleSource, Node, TableConfig};
use shoal_oci::Credentials;

use crate::node_support::{self, NodeArgs};

#[derive(Args)]
pub struct NodeCmdArgs {
    /// Address to serve on.
    #[arg(long, default_value = "0.0.0.0:8080")]
    listen: SocketAddr,
    /// A Function to serve: NAMESPACE/NAME=REFERENCE (tag or @sha256 digest). Repeatable.
    #[arg(long = "function", value_name = "NS/NAME=REF")]
    functions: Vec<String>,
    /// Folder for pulled artifacts, by digest.
    #[arg(long, env = "SHOAL_ARTIFACT_DIR")]
    artifact_dir: Option<std::path::PathBuf>,
    /// Registry user for pulls.
    #[arg(long, env = "SHOAL_REGISTRY_USER")]
    registry_user: Option<String>,
    /// Registry password for pulls.
    #[arg(long, env = "SHOAL_REGISTRY_PASSWORD", hide_env_values = true)]
    registry_password: Option<String>,
    #[command(flatten)]
    node: NodeArgs,
}

pub async fn run(args: NodeCmdArgs) -> anyhow::Result<()> {
    let runtime = node_support::runtime(&args.node)?;
    let credentials = match (args.registry_user, args.registry_password) {
        (Some(username), Some(password)) => Credentials::Basic { username, password },
        _ => Credentials::Anonymous,
    };
    let table = Arc::new(FunctionTable::new(
        runtime,
        TableConfig {
            memory_budget: args.node.memory_budget_mb << 20,
            artifact_dir: args.artifact_dir,
            credentials,
        },
    ));
    for spec in &args.functions {
        let (key, reference) = spec
            .split_once('=')
            .context("--function takes NAMESPACE/NAME=REFERENCE")?;
        let (namespace, name) = key
            .split_once('/')
            .context("--function takes NAMESPACE/NAME=REFERENCE")?;
        let digest = reference.split_once('@').map(|(_, d)| d.to_string());
        let config = FunctionConfig {
            timeout: std::time::Duration::from_secs(args.node.timeout_secs),
            body_limit: (args.node.body_limit_mb << 20) as usize,
            max_concurrency: args.node.max_concurrency,
            ..FunctionConfig::default()
        };
        table.upsert(
            FunctionKey::new(namespace, name),
            config,
            ModuleSource::Oci {
                reference: reference.to_string(),
                digest,
            },
        );
    }
    let node = Node::new(table, node_support::node_config(&args.node));
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .with_context(|| format!("listening on {}", args.listen))?;
    tracing::info!(listen = %args.listen, functions = args.functions.len(), "node serving");
    node.serve(listener, node_support::shutdown_signal()).await?;
    Ok(())
}
