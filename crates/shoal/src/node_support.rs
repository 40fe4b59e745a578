//! What `shoal up` and `shoal node` share: runtime and node settings, and
//! shutdown on SIGTERM or Ctrl-C.

use std::{path::PathBuf, sync::Arc, time::Duration};

use clap::Args;
use shoal_node::{FunctionDefaults, NodeConfig};
use shoal_runtime::{Runtime, RuntimeConfig};

#[derive(Args, Clone)]
pub struct NodeArgs {
    /// Default FUNC_TIMEOUT in seconds.
    #[arg(long = "timeout", env = "FUNC_TIMEOUT", default_value_t = 180)]
    pub timeout_secs: u64,
    /// Default request body limit in MB.
    #[arg(long = "body-limit-mb", env = "REQ_MB_LIMIT", default_value_t = 1)]
    pub body_limit_mb: u64,
    /// Requests one Function may run at once before 503.
    #[arg(long, default_value_t = 64)]
    pub max_concurrency: usize,
    /// Sandboxes the whole node may run at once (the instance pool).
    #[arg(long, default_value_t = 1000)]
    pub pool_instances: u32,
    /// Memory for loaded modules before idle ones are evicted, in MB.
    #[arg(long = "memory-budget-mb", default_value_t = 512)]
    pub memory_budget_mb: usize,
    /// Namespace of a bare-name Host.
    #[arg(long, default_value = "default")]
    pub default_namespace: String,
    /// Where emitted CloudEvents go.
    #[arg(
        long,
        env = "PUBLISHER_PROXY_ADDRESS",
        default_value = "http://eventing-publisher-proxy.kyma-system.svc.cluster.local/publish"
    )]
    pub publisher_proxy: String,
    /// Seconds /healthz reports not-ready before the listener closes on shutdown.
    #[arg(long, default_value_t = 0)]
    pub drain_delay_secs: u64,
    /// Where precompiled modules are cached (default: the user cache folder).
    #[arg(long, env = "SHOAL_CACHE_DIR")]
    pub cache_dir: Option<PathBuf>,
}

impl NodeArgs {
    /// The per-Function defaults these flags set.
    pub fn function_defaults(&self) -> FunctionDefaults {
        FunctionDefaults {
            timeout: Duration::from_secs(self.timeout_secs),
            body_limit: (self.body_limit_mb << 20) as usize,
            max_concurrency: self.max_concurrency,
        }
    }
}

pub fn runtime(args: &NodeArgs) -> anyhow::Result<Arc<Runtime>> {
    let cache_dir = args.cache_dir.clone().or_else(crate::build::default_cache_dir);
    let config = RuntimeConfig {
        pool_instances: args.pool_instances,
        cache_dir,
        ..RuntimeConfig::default()
    };
    Ok(Arc::new(Runtime::new(&config)?))
}

pub fn node_config(args: &NodeArgs) -> NodeConfig {
    NodeConfig {
        default_namespace: args.default_namespace.clone(),
        publisher_proxy: args.publisher_proxy.clone(),
        drain_delay: Duration::from_secs(args.drain_delay_secs),
        pool_slots: u64::from(args.pool_instances),
        ..NodeConfig::default()
    }
}

/// Completes on SIGTERM or Ctrl-C.
pub async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(s) => s,
            Err(_) => {
                let _ = ctrl_c.await;
                return;
            }
        };
        tokio::select! {
            _ = ctrl_c => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = ctrl_c.await;
    tracing::info!("shutdown requested");
}
