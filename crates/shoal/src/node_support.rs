//! What `shoal up` and `shoal node` share: runtime and node settings, and
//! shutdown on SIGTERM or Ctrl-C.

use std::{collections::BTreeMap, path::PathBuf, sync::Arc, time::Duration};

use anyhow::Context;
use clap::Args;
use shoal_node::{FunctionDefaults, NodeConfig, WarmConfig};
use shoal_outbound::{EgressPolicy, HostPattern, HttpOutbound, OutboundConfig};
use shoal_runtime::{OutboundLimits, Runtime, RuntimeConfig};

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
    /// Outbound HTTP requests (fetch, http, axios) one invocation may start.
    #[arg(long, env = "SHOAL_OUTBOUND_MAX_REQUESTS", default_value_t = 50)]
    pub outbound_max_requests: u32,
    /// Largest outbound response body a Function may receive, in MB.
    #[arg(long, env = "SHOAL_OUTBOUND_MAX_RESPONSE_MB", default_value_t = 10)]
    pub outbound_max_response_mb: usize,
    /// Hosts Functions may call (`host`, `*.domain`, `host:port`, `*`);
    /// none means any host that is not denied. Comma-separated or repeated.
    #[arg(long, env = "SHOAL_EGRESS_ALLOW", value_delimiter = ',')]
    pub egress_allow: Vec<String>,
    /// Hosts Functions may never call. Comma-separated or repeated.
    #[arg(long, env = "SHOAL_EGRESS_DENY", value_delimiter = ',')]
    pub egress_deny: Vec<String>,
    /// Per-namespace egress policies: `NAMESPACE=allow:PATTERN|PATTERN;deny:PATTERN`,
    /// comma-separated or repeated. Both the node's and the namespace's policy apply.
    #[arg(long, env = "SHOAL_EGRESS_NAMESPACES", value_delimiter = ',')]
    pub egress_namespace: Vec<String>,
    /// PEM file of CA certificates trusted for outbound HTTPS besides the system's.
    #[arg(long, env = "SHOAL_CA_BUNDLE")]
    pub ca_bundle: Option<PathBuf>,
    /// Run every request in a fresh sandbox: no warm instances, module-level
    /// state never outlives a request.
    #[arg(long, env = "SHOAL_FRESH_SANDBOX_PER_REQUEST")]
    pub fresh_sandbox_per_request: bool,
    /// Warm sandboxes (evaluated instances) one Function may keep, at most
    /// its concurrency limit.
    #[arg(long, env = "SHOAL_WARM_MAX_PER_FUNCTION", default_value_t = 64)]
    pub warm_max_per_function: usize,
    /// Requests a warm sandbox serves before it is recycled.
    #[arg(long, env = "SHOAL_WARM_MAX_REQUESTS", default_value_t = 10_000)]
    pub warm_max_requests: u64,
    /// A warm sandbox whose memory grew past this many MB is not kept.
    #[arg(long, env = "SHOAL_WARM_MAX_SANDBOX_MB", default_value_t = 128)]
    pub warm_max_sandbox_mb: usize,
    /// Seconds an idle warm sandbox is kept.
    #[arg(long, env = "SHOAL_WARM_IDLE_SECS", default_value_t = 60)]
    pub warm_idle_secs: u64,
    /// Memory all idle warm sandboxes of the node may hold, in MB.
    #[arg(long, env = "SHOAL_WARM_BUDGET_MB", default_value_t = 256)]
    pub warm_budget_mb: usize,
}

impl NodeArgs {
    /// The warm-sandbox policy these flags set.
    pub fn warm_config(&self) -> WarmConfig {
        WarmConfig {
            enabled: !self.fresh_sandbox_per_request,
            max_per_function: self.warm_max_per_function.max(1),
            max_requests: self.warm_max_requests.max(1),
            max_sandbox_memory: self.warm_max_sandbox_mb << 20,
            idle_ttl: Duration::from_secs(self.warm_idle_secs),
            memory_budget: self.warm_budget_mb << 20,
        }
    }

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
    let outbound = HttpOutbound::new(outbound_config(args)?).context("setting up outbound HTTP")?;
    Ok(Arc::new(Runtime::new(&config)?.with_outbound(Arc::new(outbound))))
}

fn patterns(list: &[String], what: &str) -> anyhow::Result<Vec<HostPattern>> {
    list.iter()
        .map(|p| p.trim())
        .filter(|p| !p.is_empty())
        .map(|p| p.parse::<HostPattern>().map_err(|e| anyhow::anyhow!("{what}: {e}")))
        .collect()
}

/// The outbound client's settings from the flags.
pub fn outbound_config(args: &NodeArgs) -> anyhow::Result<OutboundConfig> {
    let mut namespace_policies = BTreeMap::new();
    for entry in &args.egress_namespace {
        let (namespace, rules) = entry
            .split_once('=')
            .with_context(|| format!("--egress-namespace {entry:?}: expected NAMESPACE=allow:…;deny:…"))?;
        let mut policy = EgressPolicy::default();
        for rule in rules.split(';').filter(|r| !r.trim().is_empty()) {
            let (kind, list) = rule
                .split_once(':')
                .with_context(|| format!("--egress-namespace {entry:?}: expected allow:… or deny:…"))?;
            let list: Vec<String> = list.split('|').map(str::to_string).collect();
            match kind.trim() {
                "allow" => policy.allow.extend(patterns(&list, "--egress-namespace")?),
                "deny" => policy.deny.extend(patterns(&list, "--egress-namespace")?),
                other => anyhow::bail!("--egress-namespace {entry:?}: {other:?} is neither allow nor deny"),
            }
        }
        namespace_policies.insert(namespace.trim().to_string(), policy);
    }
    Ok(OutboundConfig {
        max_response_bytes: args.outbound_max_response_mb << 20,
        policy: EgressPolicy {
            allow: patterns(&args.egress_allow, "--egress-allow")?,
            deny: patterns(&args.egress_deny, "--egress-deny")?,
        },
        namespace_policies,
        ca_bundle: args.ca_bundle.clone(),
        ..OutboundConfig::default()
    })
}

pub fn node_config(args: &NodeArgs) -> NodeConfig {
    NodeConfig {
        default_namespace: args.default_namespace.clone(),
        publisher_proxy: args.publisher_proxy.clone(),
        drain_delay: Duration::from_secs(args.drain_delay_secs),
        pool_slots: u64::from(args.pool_instances),
        outbound: OutboundLimits {
            max_requests: args.outbound_max_requests,
        },
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
