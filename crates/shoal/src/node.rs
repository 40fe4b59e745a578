//! `shoal node`: a node server for Functions given as OCI artifacts.
//! (In a cluster the node learns its Functions from the API server.)

use std::{net::SocketAddr, sync::Arc};

use anyhow::Context;
use clap::Args;
use shoal_node::{FunctionConfig, FunctionKey, FunctionTable, LoadGate, ModuleSource, Node, TableConfig};
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
    /// The registry and repository prefix the controller pushes to
    /// (`host:port/prefix`): Functions are then served only from their own
    /// digest-pinned artifacts under it (`<prefix>/<ns>/<name>@sha256:...`).
    #[arg(long, env = "SHOAL_ARTIFACT_PREFIX")]
    artifact_prefix: Option<String>,
    /// Registry user for pulls.
    #[arg(long, env = "SHOAL_REGISTRY_USER")]
    registry_user: Option<String>,
    /// Registry password for pulls.
    #[arg(long, env = "SHOAL_REGISTRY_PASSWORD", hide_env_values = true)]
    registry_password: Option<String>,
    /// Serve the Functions of the cluster this pod runs in (watching them,
    /// and publishing what this node serves for the controller).
    #[arg(long, env = "SHOAL_CLUSTER")]
    cluster: bool,
    /// This pod's name (downward API), with --cluster.
    #[arg(long, env = "POD_NAME", default_value = "shoal-node")]
    pod_name: String,
    /// This pod's namespace, with --cluster.
    #[arg(long, env = "POD_NAMESPACE", default_value = "shoal-system")]
    pod_namespace: String,
    /// This pod's UID, with --cluster (owner of its status ConfigMap).
    #[arg(long, env = "POD_UID")]
    pod_uid: Option<String>,
    /// Where the Secrets Functions mount (secretMounts) are written, with
    /// --cluster; a memory-backed folder keeps them off disk.
    #[arg(long, env = "SHOAL_SECRETS_DIR")]
    secrets_dir: Option<std::path::PathBuf>,
    /// Seconds between re-reads of mounted Secrets, with --cluster.
    #[arg(long, env = "SHOAL_SECRET_REFRESH_SECS", default_value_t = 30)]
    secret_refresh_secs: u64,
    #[command(flatten)]
    node: NodeArgs,
    /// Eventing (with `--nats`): delivery of the Subscriptions whose sink
    /// Function this node serves (with --cluster), and the publisher endpoint
    /// (with `--publisher-listen`).
    #[command(flatten)]
    events: crate::events::EventingArgs,
}

pub async fn run(args: NodeCmdArgs) -> anyhow::Result<()> {
    let runtime = node_support::runtime(&args.node, node_support::Placement::Cluster { listen: args.listen })?;
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
            artifact_prefix: args.artifact_prefix,
            warm: args.node.warm_config(),
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
    let sync = if args.cluster {
        let client = kube::Client::try_default()
            .await
            .context("connecting to the Kubernetes API (in-cluster config or KUBECONFIG)")?;
        let sync = shoal_sync::NodeSync::new(
            client,
            table.clone(),
            shoal_sync::SyncConfig {
                pod_name: args.pod_name.clone(),
                pod_namespace: args.pod_namespace.clone(),
                pod_uid: args.pod_uid.clone(),
                defaults: args.node.function_defaults(),
                publish_every: std::time::Duration::from_secs(1),
                retry_every: std::time::Duration::from_secs(30),
                concurrency: 16,
                secrets_dir: args
                    .secrets_dir
                    .clone()
                    .unwrap_or_else(|| std::env::temp_dir().join("shoal-secrets")),
                secret_refresh_every: std::time::Duration::from_secs(args.secret_refresh_secs),
            },
        );
        let gate = sync.load_gate();
        Some((tokio::spawn(sync.run(node_support::shutdown_signal())), gate))
    } else {
        None
    };
    let gate = sync.as_ref().map_or_else(LoadGate::open, |(_, gate)| gate.clone());
    let node = Node::with_load_gate(table.clone(), node_support::node_config(&args.node)?, gate);
    let bus = match &args.events.nats_url {
        Some(_) => Some(args.events.bus().await?),
        None => None,
    };
    if let (Some(bus), Some(listen)) = (&bus, args.events.publisher_listen) {
        args.events.serve_publisher(bus.clone(), listen).await?;
        tracing::info!(%listen, "publisher endpoint serving");
    }
    let delivering = match (&bus, args.cluster) {
        (Some(bus), true) => {
            let client = kube::Client::try_default()
                .await
                .context("connecting to the Kubernetes API (in-cluster config or KUBECONFIG)")?;
            let dispatcher = Arc::new(shoal_eventing::Dispatcher::new(
                bus.clone(),
                Arc::new(crate::events::NodeSink(node.clone())),
                args.events.dispatch_config(),
            ));
            Some(tokio::spawn(shoal_sync::subscriptions::follow(
                client,
                table,
                dispatcher,
                node_support::shutdown_signal(),
            )))
        }
        _ => None,
    };
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .with_context(|| format!("listening on {}", args.listen))?;
    tracing::info!(listen = %args.listen, functions = args.functions.len(), "node serving");
    node.serve(listener, node_support::shutdown_signal()).await?;
    if let Some((sync, _)) = sync {
        sync.abort();
    }
    if let Some(delivering) = delivering {
        delivering.abort();
    }
    Ok(())
}
