//! `shoal builder`: the build service (see [`shoal_builder`]), in the
//! chart's builder Deployment.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use shoal_builder::bundler::{BundlerConfig, BundlerPool};
use shoal_builder::sandbox::SandboxConfig;
use shoal_builder::{BuildKey, BuildLimits, BuildService, PushAuth, ServiceConfig};
use shoal_oci::Credentials;
use shoal_oci::token::TokenKey;

#[derive(clap::Args)]
pub struct BuilderArgs {
    /// Where the service listens.
    #[arg(long, env = "SHOAL_BUILDER_LISTEN", default_value = "0.0.0.0:8090")]
    listen: SocketAddr,
    /// A file holding the key shared with the controller.
    #[arg(long, env = "SHOAL_BUILDER_KEY_FILE")]
    key_file: PathBuf,
    /// Where modules are pushed: `host[:port][/prefix]`.
    #[arg(long, env = "SHOAL_REGISTRY")]
    registry: String,
    /// A file holding the in-cluster registry gate's token key: each build
    /// pushes with a token for its own Function's repository.
    #[arg(long, env = "SHOAL_REGISTRY_TOKEN_KEY_FILE", conflicts_with = "registry_user")]
    registry_token_key_file: Option<PathBuf>,
    /// Registry user (an external registry).
    #[arg(long, env = "SHOAL_REGISTRY_USER", requires = "registry_password")]
    registry_user: Option<String>,
    /// Registry password (an external registry).
    #[arg(long, env = "SHOAL_REGISTRY_PASSWORD", hide_env_values = true)]
    registry_password: Option<String>,
    /// Builds at once (default: the CPUs the process may use).
    #[arg(long, env = "SHOAL_BUILDER_CONCURRENCY")]
    concurrency: Option<usize>,
    /// The most memory one build may ask for, in MiB; a Function asking
    /// more is built by a Job.
    #[arg(long, env = "SHOAL_BUILDER_MAX_MEMORY_MIB", default_value_t = 1536)]
    max_memory_mib: u64,
    /// The longest deadline one build may ask for, in seconds.
    #[arg(long, env = "SHOAL_BUILDER_MAX_DEADLINE", default_value_t = 900)]
    max_deadline_secs: u64,
    /// Where builds get their folders.
    #[arg(long, env = "SHOAL_BUILDER_WORK_DIR", default_value = "/tmp/shoal-builds")]
    work_dir: PathBuf,
    /// Caches shared by builds (engine, npm installs by package.json).
    #[arg(long, env = "SHOAL_CACHE_DIR", default_value = "/tmp/shoal-cache")]
    cache_dir: PathBuf,
}

/// Environment variables a build gets from the service; no credential is
/// among them. `npm_config_registry` points every build at an npm mirror
/// when the operator sets one on the builder.
const PASSED_TO_BUILDS: &[&str] = &["PATH", "SHOAL_JS_TOOLS", "LANG", "SHOAL_LOG", "npm_config_registry"];

pub async fn run(args: BuilderArgs) -> anyhow::Result<()> {
    let read = |path: &PathBuf| std::fs::read(path).with_context(|| format!("reading {}", path.display()));
    let key =
        BuildKey::new(&read(&args.key_file)?).with_context(|| format!("the key in {}", args.key_file.display()))?;
    let push_auth = match (
        &args.registry_token_key_file,
        args.registry_user,
        args.registry_password,
    ) {
        (Some(file), _, _) => {
            PushAuth::Token(TokenKey::new(&read(file)?).with_context(|| format!("the key in {}", file.display()))?)
        }
        (None, Some(username), Some(password)) => PushAuth::Credentials(Credentials::Basic { username, password }),
        _ => PushAuth::Credentials(Credentials::Anonymous),
    };
    let concurrency = args
        .concurrency
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    let program = std::env::current_exe().context("finding the shoal binary to run builds with")?;
    let env: Vec<(String, String)> = PASSED_TO_BUILDS
        .iter()
        .filter_map(|name| Some((name.to_string(), std::env::var(name).ok()?)))
        .collect();
    // Builds' orphans (esbuild outliving node) come to this process to be
    // reaped, inside a container (process 1) or not.
    shoal_builder::sandbox::adopt_orphans().context("becoming the subreaper of builds")?;
    let service = BuildService::new(ServiceConfig {
        key,
        registry: args.registry.clone(),
        push_auth,
        concurrency,
        max_limits: BuildLimits {
            memory_bytes: args.max_memory_mib.saturating_mul(1024 * 1024),
            deadline_secs: args.max_deadline_secs,
        },
        sandbox: SandboxConfig {
            program,
            bundlers: Some(Arc::new(BundlerPool::new(BundlerConfig {
                node: "node".into(),
                script: shoal_build::default_js_tools_dir().join("bundle.mjs"),
                env: env.clone(),
                home: args.work_dir.join("bundlers"),
            }))),
            work_root: args.work_dir,
            cache_dir: args.cache_dir,
            env,
        },
    });
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .with_context(|| format!("listening on {}", args.listen))?;
    tracing::info!(listen = %args.listen, registry = %args.registry, concurrency, "build service serving");
    let warming = service.clone();
    tokio::spawn(async move { warming.warm_up(shoal_api::DEFAULT_RUNTIME).await });
    tokio::select! {
        served = service.serve(listener) => served.context("accepting build requests")?,
        () = crate::node_support::shutdown_signal() => tracing::info!("build service stopping"),
    }
    Ok(())
}
