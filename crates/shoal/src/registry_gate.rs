//! `shoal registry-gate`: the in-cluster registry's access control, in
//! front of the registry in its pod (see [`shoal_oci::gate`]).

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;
use shoal_oci::gate::{Gate, GateConfig};
use shoal_oci::token::TokenKey;

#[derive(clap::Args)]
pub struct RegistryGateArgs {
    /// Where the gate listens (the registry Service's target).
    #[arg(long, env = "SHOAL_GATE_LISTEN", default_value = "0.0.0.0:5000")]
    listen: SocketAddr,
    /// The registry behind the gate, on the pod's loopback.
    #[arg(long, env = "SHOAL_GATE_UPSTREAM", default_value = "127.0.0.1:5001")]
    upstream: SocketAddr,
    /// The repository prefix Functions' modules live under: what the node
    /// pods may pull.
    #[arg(long, env = "SHOAL_GATE_REPOSITORY_PREFIX", default_value = "functions")]
    repository_prefix: String,
    /// A file holding the node pods' password.
    #[arg(long, env = "SHOAL_GATE_NODE_PASSWORD_FILE")]
    node_password_file: PathBuf,
    /// A file holding the key build tokens are signed with.
    #[arg(long, env = "SHOAL_REGISTRY_TOKEN_KEY_FILE")]
    token_key_file: PathBuf,
}

pub async fn run(args: RegistryGateArgs) -> anyhow::Result<()> {
    let node_password = std::fs::read_to_string(&args.node_password_file)
        .with_context(|| format!("reading {}", args.node_password_file.display()))?
        .trim()
        .to_string();
    anyhow::ensure!(
        node_password.len() >= 16,
        "the node password in {} is too short",
        args.node_password_file.display()
    );
    let key =
        std::fs::read(&args.token_key_file).with_context(|| format!("reading {}", args.token_key_file.display()))?;
    let key = TokenKey::new(&key).with_context(|| format!("the key in {}", args.token_key_file.display()))?;
    let gate = Gate::new(GateConfig {
        upstream: args.upstream,
        repository_prefix: args.repository_prefix,
        node_password,
        key,
    });
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .with_context(|| format!("listening on {}", args.listen))?;
    tracing::info!(listen = %args.listen, upstream = %args.upstream, "registry gate serving");
    gate.serve(listener, crate::node_support::shutdown_signal()).await?;
    Ok(())
}
