//! What `shoal up` and `shoal node` share: runtime and node settings, and
//! shutdown on SIGTERM or Ctrl-C.

use std::{collections::BTreeMap, path::PathBuf, sync::Arc, time::Duration};

use anyhow::Context;
use clap::Args;
use shoal_node::{FunctionDefaults, NodeConfig, WarmConfig};
use shoal_outbound::{EgressPolicy, EgressRule, HttpOutbound, OutboundConfig, OverrideResolver, ProtectedAddresses};
use shoal_runtime::{OutboundLimits, Runtime, RuntimeConfig};

#[derive(Args, Clone)]
pub struct NodeArgs {
    /// Default FUNC_TIMEOUT in seconds.
    #[arg(long = "timeout", env = "FUNC_TIMEOUT", default_value_t = FunctionDefaults::default().timeout.as_secs())]
    pub timeout_secs: u64,
    /// Default request body limit in MB.
    #[arg(long = "body-limit-mb", env = "REQ_MB_LIMIT", default_value_t = (FunctionDefaults::default().body_limit >> 20) as u64)]
    pub body_limit_mb: u64,
    /// The longest FUNC_TIMEOUT a Function's env may set, in seconds.
    #[arg(long = "max-timeout", env = "SHOAL_MAX_FUNC_TIMEOUT", default_value_t = shoal_node::DEFAULT_MAX_TIMEOUT_SECS)]
    pub max_timeout_secs: u64,
    /// The largest body limit a Function's env (REQ_MB_LIMIT) may set, in MB.
    #[arg(long = "max-body-limit-mb", env = "SHOAL_MAX_BODY_MB", default_value_t = shoal_node::DEFAULT_MAX_BODY_MB)]
    pub max_body_limit_mb: usize,
    /// Seconds a client may take to send a request's headers.
    #[arg(long, env = "SHOAL_HEADER_READ_TIMEOUT_SECS", default_value_t = NodeConfig::default().header_read_timeout.as_secs())]
    pub header_read_timeout_secs: u64,
    /// Connections the node holds at once.
    #[arg(long, env = "SHOAL_MAX_CONNECTIONS", default_value_t = NodeConfig::default().max_connections)]
    pub max_connections: usize,
    /// Bytes of bodies the node holds outside its sandboxes at once (inbound
    /// request bodies, outbound bodies, outbound results until the guest
    /// takes them, answers until the caller has read them), across all
    /// Functions, in MB.
    #[arg(long, env = "SHOAL_MAX_BUFFERED_BODY_MB", default_value_t = NodeConfig::default().max_buffered_body_bytes >> 20)]
    pub max_buffered_body_mb: usize,
    /// What all sandboxes together may grow their memory by, in MB: the
    /// node-wide bound under each Function's own memory limit. 0: half the
    /// container's memory limit (its cgroup; the rest is the node's own,
    /// its loaded modules' and the body buffers'), or no bound without one.
    #[arg(long, env = "SHOAL_MAX_GUEST_MEMORY_MB", default_value_t = 0)]
    pub max_guest_memory_mb: usize,
    /// Requests one Function may run at once before 503.
    #[arg(long, default_value_t = FunctionDefaults::default().max_concurrency)]
    pub max_concurrency: usize,
    /// Sandboxes the whole node may run at once (the pool's slots).
    #[arg(long, default_value_t = RuntimeConfig::default().pool_slots)]
    pub pool_slots: u32,
    /// Memory for loaded modules before idle ones are evicted, in MB.
    #[arg(long = "memory-budget-mb", default_value_t = shoal_node::TableConfig::default().memory_budget >> 20)]
    pub memory_budget_mb: usize,
    /// Namespace of a bare-name Host.
    #[arg(long, default_value_t = NodeConfig::default().default_namespace)]
    pub default_namespace: String,
    /// Where emitted CloudEvents go.
    #[arg(
        long,
        env = "PUBLISHER_PROXY_ADDRESS",
        default_value_t = NodeConfig::default().publisher_proxy
    )]
    pub publisher_proxy: String,
    /// The OpenTelemetry collector's OTLP/HTTP traces URL (Kyma's
    /// TRACE_COLLECTOR_ENDPOINT, e.g.
    /// http://telemetry-otlp-traces.kyma-system:4318/v1/traces). When set,
    /// the node records a span per invocation (continuing the caller's
    /// traceparent or B3 context), a client span per outbound HTTP call and
    /// the Function's own spans, and exports them in batches; Functions
    /// get it as TRACE_COLLECTOR_ENDPOINT.
    #[arg(long, env = "TRACE_COLLECTOR_ENDPOINT", default_value = "")]
    pub trace_collector_endpoint: String,
    /// Milliseconds a finished span waits for its export batch to fill.
    #[arg(long, env = "SHOAL_TRACE_EXPORT_DELAY_MS", default_value_t = 5000)]
    pub trace_export_delay_ms: u64,
    /// Functions with /metrics series of their own at most (the most called
    /// first; the rest are summed into one series), so a scrape stays bounded.
    #[arg(long, env = "SHOAL_METRICS_MAX_FUNCTIONS", default_value_t = NodeConfig::default().metrics_max_functions)]
    pub metrics_max_functions: usize,
    /// Seconds a stopping node goes on answering before its listener closes.
    #[arg(long, default_value_t = 0)]
    pub drain_delay_secs: u64,
    /// Where precompiled modules are cached (default: the user cache folder).
    #[arg(long, env = "SHOAL_CACHE_DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Outbound HTTP requests (fetch, http, axios) and connections (net,
    /// tls, WebSocket) one invocation may start.
    #[arg(long, env = "SHOAL_OUTBOUND_MAX_REQUESTS", default_value_t = OutboundLimits::default().max_requests)]
    pub outbound_max_requests: u32,
    /// Connections (net, tls, WebSocket) one sandbox may hold open at once;
    /// in a warm sandbox they outlive the request that opened them.
    #[arg(long, env = "SHOAL_OUTBOUND_MAX_SOCKETS", default_value_t = OutboundLimits::default().max_sockets)]
    pub outbound_max_sockets: u32,
    /// Largest outbound response body a Function may receive, in MB.
    #[arg(long, env = "SHOAL_OUTBOUND_MAX_RESPONSE_MB", default_value_t = 10)]
    pub outbound_max_response_mb: usize,
    /// What Functions may reach: hosts (`host`, `*.domain`, `host:port`,
    /// `*`) and address ranges (`10.0.0.0/8`, `192.0.2.7:5432`), checked
    /// against the addresses a host resolves to; none means anything that
    /// is not denied. An address range is also what lets a Function reach a
    /// protected address (loopback, link-local, the node's own).
    /// Comma-separated or repeated.
    #[arg(long, env = "SHOAL_EGRESS_ALLOW", value_delimiter = ',')]
    pub egress_allow: Vec<String>,
    /// What Functions may never reach: hosts and address ranges, as for
    /// --egress-allow. Comma-separated or repeated.
    #[arg(long, env = "SHOAL_EGRESS_DENY", value_delimiter = ',')]
    pub egress_deny: Vec<String>,
    /// Per-namespace egress policies: `NAMESPACE=allow:PATTERN|PATTERN;deny:PATTERN`,
    /// comma-separated or repeated. Both the node's and the namespace's policy apply.
    #[arg(long, env = "SHOAL_EGRESS_NAMESPACES", value_delimiter = ',')]
    pub egress_namespace: Vec<String>,
    /// PEM file of CA certificates trusted for outbound HTTPS besides the system's.
    #[arg(long, env = "SHOAL_CA_BUNDLE")]
    pub ca_bundle: Option<PathBuf>,
    /// Fixed addresses for host names Functions call, `NAME=IP[+IP…]`
    /// (as curl's --resolve); comma-separated or repeated.
    #[arg(long, env = "SHOAL_RESOLVE", value_delimiter = ',')]
    pub resolve: Vec<String>,
    /// The node's own addresses (its pod IP), which no Function reaches
    /// unless an address rule allows it; comma-separated or repeated.
    #[arg(long = "node-address", env = "SHOAL_NODE_ADDRESSES", value_delimiter = ',')]
    pub node_addresses: Vec<std::net::IpAddr>,
    /// Address ranges no Function reaches unless an address rule of
    /// --egress-allow opens them: the cluster's pod and Service ranges
    /// (other tenants, the API server, the registry). Only the publisher
    /// proxy (--publisher-proxy, by its name) is reachable inside them
    /// without a rule. Comma-separated or repeated; `shoal node` only.
    #[arg(long = "protected-range", env = "SHOAL_PROTECTED_RANGES", value_delimiter = ',')]
    pub protected_ranges: Vec<shoal_outbound::IpNet>,
    /// DNS servers (`IP:PORT`) that `dns.resolve*` queries, instead of
    /// those of /etc/resolv.conf; repeat for several.
    #[arg(long = "dns-server", env = "SHOAL_DNS_SERVERS", value_delimiter = ',')]
    pub dns_servers: Vec<std::net::SocketAddr>,
    /// Run every request in a fresh sandbox: no warm instances, module-level
    /// state never outlives a request.
    #[arg(long, env = "SHOAL_FRESH_SANDBOX_PER_REQUEST")]
    pub fresh_sandbox_per_request: bool,
    /// Warm sandboxes (evaluated instances) one Function may keep, at most
    /// its concurrency limit.
    #[arg(long, env = "SHOAL_WARM_MAX_PER_FUNCTION", default_value_t = WarmConfig::default().max_per_function)]
    pub warm_max_per_function: usize,
    /// Requests a warm sandbox serves before it is recycled.
    #[arg(long, env = "SHOAL_WARM_MAX_REQUESTS", default_value_t = WarmConfig::default().max_requests)]
    pub warm_max_requests: u64,
    /// A warm sandbox whose memory beyond the engine's shared image grew
    /// past this many MB is not kept.
    #[arg(long, env = "SHOAL_WARM_MAX_SANDBOX_MB", default_value_t = WarmConfig::default().max_sandbox_memory >> 20)]
    pub warm_max_sandbox_mb: usize,
    /// Seconds an idle warm sandbox is kept.
    #[arg(long, env = "SHOAL_WARM_IDLE_SECS", default_value_t = WarmConfig::default().idle_ttl.as_secs())]
    pub warm_idle_secs: u64,
    /// Memory all idle warm sandboxes of the node may hold, in MB, beyond
    /// the engine's image they share.
    #[arg(long, env = "SHOAL_WARM_BUDGET_MB", default_value_t = WarmConfig::default().memory_budget >> 20)]
    pub warm_budget_mb: usize,
    /// Memory the Functions' snapshots (each one's memory right after its
    /// module loaded, which fresh sandboxes start from) may hold, in MB;
    /// 0 turns snapshots off.
    #[arg(long, env = "SHOAL_SNAPSHOT_BUDGET_MB", default_value_t = shoal_runtime::DEFAULT_SNAPSHOT_BUDGET >> 20)]
    pub snapshot_budget_mb: usize,
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
        let max_body_limit = self.max_body_limit_mb.saturating_mul(1 << 20);
        let max_timeout = Duration::from_secs(self.max_timeout_secs);
        FunctionDefaults {
            timeout: Duration::from_secs(self.timeout_secs).min(max_timeout),
            body_limit: usize::try_from(self.body_limit_mb)
                .unwrap_or(usize::MAX)
                .saturating_mul(1 << 20)
                .min(max_body_limit),
            max_concurrency: self.max_concurrency,
            max_timeout,
            max_body_limit,
        }
    }
}

pub fn runtime(args: &NodeArgs, placement: Placement) -> anyhow::Result<Arc<Runtime>> {
    let cache_dir = args.cache_dir.clone().or_else(crate::build::default_cache_dir);
    let max_guest_memory_bytes = match args.max_guest_memory_mb {
        0 => container_memory_limit().map_or(usize::MAX, |limit| limit / 2),
        mb => mb.saturating_mul(1 << 20),
    };
    let config = RuntimeConfig {
        pool_slots: args.pool_slots,
        cache_dir,
        max_guest_memory_bytes,
        snapshot_budget_bytes: args.snapshot_budget_mb.saturating_mul(1 << 20),
        ..RuntimeConfig::default()
    };
    let outbound = HttpOutbound::new(outbound_config(args, placement)?).context("setting up outbound HTTP")?;
    Ok(Arc::new(Runtime::new(&config)?.with_outbound(Arc::new(outbound))))
}

fn patterns(list: &[String], what: &str) -> anyhow::Result<Vec<EgressRule>> {
    list.iter()
        .map(|p| p.trim())
        .filter(|p| !p.is_empty())
        .map(|p| p.parse::<EgressRule>().map_err(|e| anyhow::anyhow!("{what}: {e}")))
        .collect()
}

/// The memory limit of the container this process runs in (cgroup v2, or
/// v1), if it has one.
fn container_memory_limit() -> Option<usize> {
    [
        "/sys/fs/cgroup/memory.max",
        "/sys/fs/cgroup/memory/memory.limit_in_bytes",
    ]
    .iter()
    .find_map(|path| std::fs::read_to_string(path).ok())
    .and_then(|text| text.trim().parse::<u64>().ok())
    // cgroup v1 says "no limit" with a number near 2^63.
    .filter(|limit| *limit < 1 << 50)
    .and_then(|limit| usize::try_from(limit).ok())
}

/// Where a node runs, which decides what its Functions may never reach.
#[derive(Debug, Clone, Copy)]
pub enum Placement {
    /// `shoal up` on a developer's machine: loopback services are reachable,
    /// the node's own port is not.
    Local { listen: std::net::SocketAddr },
    /// `shoal node` in a cluster: loopback is the node's own pod.
    Cluster { listen: std::net::SocketAddr },
}

/// `--resolve NAME=IP[+IP…]` entries as a resolver.
fn resolver(entries: &[String]) -> anyhow::Result<OverrideResolver> {
    let mut resolver = OverrideResolver::default();
    for entry in entries.iter().map(|e| e.trim()).filter(|e| !e.is_empty()) {
        let (name, addresses) = entry
            .split_once('=')
            .with_context(|| format!("--resolve {entry:?}: expected NAME=IP"))?;
        let addresses = addresses
            .split('+')
            .map(|a| {
                a.trim()
                    .parse()
                    .with_context(|| format!("--resolve {entry:?}: {a:?} is not an IP address"))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        resolver = resolver.with(name.trim(), addresses);
    }
    Ok(resolver)
}

/// The outbound client's settings from the flags.
pub fn outbound_config(args: &NodeArgs, placement: Placement) -> anyhow::Result<OutboundConfig> {
    let (listen, loopback_allowed) = match placement {
        Placement::Local { listen } => (listen, true),
        Placement::Cluster { listen } => (listen, false),
    };
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
        protected: ProtectedAddresses {
            node_addresses: args.node_addresses.clone(),
            node_ports: vec![listen.port()],
            loopback_allowed,
            ranges: match placement {
                Placement::Cluster { .. } => args.protected_ranges.clone(),
                Placement::Local { .. } => Vec::new(),
            },
            platform_endpoints: endpoint_of(&args.publisher_proxy).into_iter().collect(),
        },
        resolver: Arc::new(resolver(&args.resolve)?),
        ca_bundle: args.ca_bundle.clone(),
        dns_servers: args.dns_servers.clone(),
        ..OutboundConfig::default()
    })
}

/// `host:port` of a URL (the port from the scheme when it has none).
fn endpoint_of(url: &str) -> Option<(String, u16)> {
    let uri: http::Uri = url.parse().ok()?;
    let port = uri.port_u16().or_else(|| match uri.scheme_str() {
        Some("https") => Some(443),
        Some("http") => Some(80),
        _ => None,
    })?;
    Some((uri.host()?.to_string(), port))
}

/// The node's settings; starts the span exporter when a collector is set.
pub fn node_config(args: &NodeArgs) -> anyhow::Result<NodeConfig> {
    let traces = if args.trace_collector_endpoint.is_empty() {
        None
    } else {
        let mut exporter = shoal_telemetry::ExporterConfig::new(args.trace_collector_endpoint.clone());
        exporter.delay = Duration::from_millis(args.trace_export_delay_ms.max(1));
        let exporter = shoal_telemetry::Exporter::start(exporter).context("--trace-collector-endpoint")?;
        tracing::info!(endpoint = %args.trace_collector_endpoint, "recording traces");
        Some(exporter.sink)
    };
    Ok(NodeConfig {
        default_namespace: args.default_namespace.clone(),
        publisher_proxy: args.publisher_proxy.clone(),
        trace_collector: args.trace_collector_endpoint.clone(),
        traces,
        drain_delay: Duration::from_secs(args.drain_delay_secs),
        pool_slots: u64::from(args.pool_slots),
        metrics_max_functions: args.metrics_max_functions.max(1),
        outbound: OutboundLimits {
            max_requests: args.outbound_max_requests,
            max_sockets: args.outbound_max_sockets,
        },
        header_read_timeout: Duration::from_secs(args.header_read_timeout_secs),
        max_connections: args.max_connections,
        max_buffered_body_bytes: args.max_buffered_body_mb.saturating_mul(1 << 20),
        ..NodeConfig::default()
    })
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
