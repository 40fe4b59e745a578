//! `shoal controller` and `shoal crd`: the control plane in a cluster.

use std::{collections::BTreeMap, net::SocketAddr, time::Duration};

use anyhow::Context;
use clap::Args;
use shoal_controller::leader::{LeaderElector, LeaseConfig};
use shoal_controller::reconcile::BuildServiceConfig;
use shoal_controller::{ControllerConfig, tls::WebhookCertificate, webhook};

#[derive(Args)]
pub struct ControllerArgs {
    /// Namespace of the controller and the node pods.
    #[arg(long, env = "POD_NAMESPACE", default_value = "shoal-system")]
    namespace: String,
    /// This replica's name (the pod's): its identity in leader election and
    /// on the Events it records.
    #[arg(long, env = "POD_NAME", default_value = "shoal-controller")]
    pod_name: String,
    /// Image of the build Jobs.
    #[arg(long, env = "SHOAL_BUILDER_IMAGE")]
    builder_image: String,
    /// imagePullPolicy of the build Jobs.
    #[arg(long, env = "SHOAL_BUILDER_PULL_POLICY")]
    builder_pull_policy: Option<String>,
    /// ServiceAccount of the build Jobs.
    #[arg(long, env = "SHOAL_BUILDER_SERVICE_ACCOUNT")]
    builder_service_account: Option<String>,
    /// Registry and repository prefix modules are pushed to.
    #[arg(long, env = "SHOAL_REGISTRY")]
    registry: String,
    /// Secret (in --namespace) with `username` and `password` for the registry.
    #[arg(long, env = "SHOAL_REGISTRY_SECRET")]
    registry_secret: Option<String>,
    /// `host:port` registries reached over plain HTTP (comma-separated).
    #[arg(long, env = "SHOAL_INSECURE_REGISTRIES", value_delimiter = ',')]
    insecure_registries: Vec<String>,
    /// Labels selecting the node pods (k=v,k=v).
    #[arg(
        long,
        env = "SHOAL_NODE_SELECTOR",
        default_value = "app.kubernetes.io/name=shoal,app.kubernetes.io/component=node"
    )]
    node_selector: String,
    /// The node pods' HTTP port.
    #[arg(long, env = "SHOAL_NODE_PORT", default_value_t = 8080)]
    node_port: i32,
    /// Ports given to Functions, one each (FIRST-LAST): node pods serve a
    /// Function on its port whatever the request's Host.
    #[arg(long, env = "SHOAL_SERVING_PORTS", default_value = "16384-32767", value_parser = parse_port_range)]
    serving_ports: std::ops::RangeInclusive<u16>,
    /// Seconds between looks at a Git source's reference for a new commit
    /// (one ref listing per repository and reference, whatever the number
    /// of Functions naming them).
    #[arg(long, env = "SHOAL_GIT_POLL_SECS", default_value_t = 300)]
    git_poll_secs: u64,
    /// A Secret name whose `.npmrc` key builds use for npm when it exists in
    /// the Function's namespace (a Function's `shoal.dev/npmrc-secret`
    /// annotation names its own).
    #[arg(long, env = "SHOAL_NPMRC_SECRET")]
    npmrc_secret: Option<String>,
    /// The node pods' ServiceAccount (in the controller's namespace): each
    /// Function gets a Role letting it read exactly the Secrets and
    /// ConfigMaps the Function references.
    #[arg(long, env = "SHOAL_NODE_SERVICE_ACCOUNT")]
    node_service_account: Option<String>,
    /// A file with the key the in-cluster registry's gate checks build
    /// tokens with: each build then gets a token for its own Function's
    /// repository only.
    #[arg(long, env = "SHOAL_REGISTRY_TOKEN_KEY_FILE")]
    registry_token_key_file: Option<std::path::PathBuf>,
    /// A file with the key shared with the build service: with it, builds
    /// go to the builder pods (a Function the service cannot take still
    /// gets a Job); without it, every build is a Job.
    #[arg(long, env = "SHOAL_BUILDER_KEY_FILE")]
    builder_key_file: Option<std::path::PathBuf>,
    /// Labels selecting the builder pods (k=v,k=v).
    #[arg(
        long,
        env = "SHOAL_BUILDER_SELECTOR",
        default_value = "app.kubernetes.io/name=shoal,app.kubernetes.io/component=builder"
    )]
    builder_selector: String,
    /// The builder pods' port.
    #[arg(long, env = "SHOAL_BUILDER_PORT", default_value_t = 8090)]
    builder_port: u16,
    /// The most memory the build service gives one build, in MiB (as the
    /// builder's --max-memory-mib): a Function asking more gets a Job.
    #[arg(long, env = "SHOAL_BUILDER_MAX_MEMORY_MIB", default_value_t = 1536)]
    builder_max_memory_mib: u64,
    /// Build Jobs allowed at once, cluster-wide.
    #[arg(long, env = "SHOAL_MAX_CONCURRENT_BUILDS", default_value_t = 5)]
    max_concurrent_builds: usize,
    /// Retries of a failed build pod.
    #[arg(long, env = "SHOAL_BUILD_BACKOFF_LIMIT", default_value_t = 2)]
    build_backoff_limit: i32,
    /// Seconds a build may run.
    #[arg(long, env = "SHOAL_BUILD_DEADLINE_SECS", default_value_t = 600)]
    build_deadline_secs: u64,
    /// Address of the plain-HTTP /metrics and /healthz endpoint.
    #[arg(long, env = "SHOAL_METRICS_LISTEN", default_value = "0.0.0.0:8081")]
    metrics_listen: SocketAddr,
    /// Function preset for Functions that name none.
    #[arg(long, env = "SHOAL_DEFAULT_FUNCTION_PRESET", default_value = "L")]
    default_function_preset: String,
    /// Build preset for Functions that name none.
    #[arg(long, env = "SHOAL_DEFAULT_BUILD_PRESET", default_value = "normal")]
    default_build_preset: String,
    /// Address of the HTTPS admission webhook server.
    #[arg(long, env = "SHOAL_WEBHOOK_LISTEN", default_value = "0.0.0.0:9443")]
    webhook_listen: SocketAddr,
    /// The webhook Service's name (for its certificate).
    #[arg(long, env = "SHOAL_WEBHOOK_SERVICE", default_value = "shoal-webhook")]
    webhook_service: String,
    /// MutatingWebhookConfiguration to write the caBundle into.
    #[arg(long, env = "SHOAL_MUTATING_WEBHOOK", default_value = "shoal-function-defaulting")]
    mutating_webhook: String,
    /// ValidatingWebhookConfiguration to write the caBundle into.
    #[arg(long, env = "SHOAL_VALIDATING_WEBHOOK", default_value = "shoal-function-validation")]
    validating_webhook: String,
    /// Kyma Subscriptions: NATS and event timing (reconciled only with `--nats`).
    #[command(flatten)]
    events: crate::events::EventingArgs,
}

fn parse_port_range(text: &str) -> Result<std::ops::RangeInclusive<u16>, String> {
    let (first, last) = text
        .split_once('-')
        .ok_or_else(|| format!("{text:?} is not FIRST-LAST"))?;
    let port = |p: &str| p.trim().parse::<u16>().map_err(|e| format!("{p:?} is not a port: {e}"));
    let (first, last) = (port(first)?, port(last)?);
    if first == 0 || first > last {
        return Err(format!("{text:?} is not a range of ports (FIRST >= 1, FIRST <= LAST)"));
    }
    Ok(first..=last)
}

pub fn print_crd(subscription: bool) -> anyhow::Result<()> {
    if subscription {
        print!("{}", shoal_controller::crd::subscription_crd_yaml()?);
    } else {
        print!("{}", shoal_controller::crd::crd_yaml()?);
    }
    Ok(())
}

/// `k=v,k=v` as labels.
fn parse_labels(flag: &str, text: &str) -> anyhow::Result<BTreeMap<String, String>> {
    text.split(',')
        .filter(|p| !p.trim().is_empty())
        .map(|pair| {
            pair.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .with_context(|| format!("{flag}: {pair:?} is not key=value"))
        })
        .collect()
}

pub async fn run(args: ControllerArgs) -> anyhow::Result<()> {
    let node_labels = parse_labels("--node-selector", &args.node_selector)?;
    let defaults = shoal_api::Defaults {
        function_preset: args.default_function_preset,
        build_preset: args.default_build_preset,
    };
    defaults.check().map_err(anyhow::Error::msg)?;
    let registry_token_key = match &args.registry_token_key_file {
        Some(path) => {
            let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
            Some(shoal_oci::token::TokenKey::new(&bytes).with_context(|| format!("the key in {}", path.display()))?)
        }
        None => None,
    };
    let build_service = match &args.builder_key_file {
        Some(path) => {
            let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
            let key = shoal_builder::BuildKey::new(&bytes).with_context(|| format!("the key in {}", path.display()))?;
            Some(BuildServiceConfig {
                client: shoal_builder::BuildClient::new(key),
                builder_labels: parse_labels("--builder-selector", &args.builder_selector)?,
                port: args.builder_port,
                max_limits: shoal_builder::BuildLimits {
                    memory_bytes: args.builder_max_memory_mib.saturating_mul(1024 * 1024),
                    deadline_secs: args.build_deadline_secs,
                },
            })
        }
        None => None,
    };
    let config = ControllerConfig {
        defaults: defaults.clone(),
        namespace: args.namespace.clone(),
        builder_image: args.builder_image,
        builder_pull_policy: args.builder_pull_policy,
        builder_service_account: args.builder_service_account,
        registry: args.registry,
        insecure_registries: args.insecure_registries.into_iter().filter(|h| !h.is_empty()).collect(),
        registry_secret: args.registry_secret.filter(|s| !s.is_empty()),
        node_labels,
        node_port: args.node_port,
        serving_ports: args.serving_ports,
        max_concurrent_builds: args.max_concurrent_builds.max(1),
        build_backoff_limit: args.build_backoff_limit,
        build_deadline: Duration::from_secs(args.build_deadline_secs),
        git_poll_interval: Duration::from_secs(args.git_poll_secs.max(1)),
        npmrc_secret: args.npmrc_secret.filter(|s| !s.is_empty()),
        node_service_account: args.node_service_account.filter(|s| !s.is_empty()),
        registry_token_key,
        build_service,
    };
    let client = kube::Client::try_default()
        .await
        .context("connecting to the Kubernetes API (in-cluster config or KUBECONFIG)")?;

    let names = shoal_controller::tls::service_dns_names(&args.webhook_service, &args.namespace);
    // Every replica serves the webhooks (they are stateless), all with the
    // one certificate whose CA is in the webhook configurations.
    let certificate = WebhookCertificate::shared(client.clone(), &args.namespace, &names)
        .await
        .context("getting the webhook certificate")?;
    let listener = tokio::net::TcpListener::bind(args.webhook_listen)
        .await
        .with_context(|| format!("listening on {}", args.webhook_listen))?;
    let tls = certificate.server_config()?;
    let webhooks = tokio::spawn(webhook::serve(
        listener,
        tls,
        defaults,
        crate::node_support::shutdown_signal(),
    ));
    let metrics_listener = tokio::net::TcpListener::bind(args.metrics_listen)
        .await
        .with_context(|| format!("listening on {}", args.metrics_listen))?;
    let metrics = tokio::spawn(shoal_controller::metrics::serve(
        metrics_listener,
        crate::node_support::shutdown_signal(),
    ));
    // Helm creates the webhook configurations alongside this pod; give them
    // a moment rather than crash-looping if the pod wins the race.
    let mut attempt = 0;
    loop {
        attempt += 1;
        match webhook::patch_ca_bundle(
            client.clone(),
            &args.mutating_webhook,
            &args.validating_webhook,
            &certificate.ca_pem,
        )
        .await
        {
            Ok(()) => break,
            Err(e) if attempt < 30 => {
                tracing::warn!(error = %e, attempt, "writing the caBundle; retrying");
                tokio::time::sleep(Duration::from_secs(2)).await;
            }
            Err(e) => return Err(e).context("writing the caBundle into the webhook configurations"),
        }
    }

    tracing::info!(namespace = %args.namespace, identity = %args.pod_name, "controller running; waiting to lead");
    // One replica reconciles; the others serve webhooks and wait for the Lease.
    let elector = LeaderElector::new(client.clone(), LeaseConfig::new(&args.namespace, &args.pod_name));
    let (stop_leading, stopped) = tokio::sync::oneshot::channel::<()>();
    let shutdown = async move {
        crate::node_support::shutdown_signal().await;
        let _ = stop_leading.send(());
    };
    // Subscriptions are reconciled by the leader too, when eventing is on.
    let bus = match &args.events.nats_url {
        Some(_) => Some(args.events.bus().await?),
        None => None,
    };
    let ack_wait = args.events.ack_wait();
    let stopped = futures::FutureExt::shared(stopped);
    let (stop_functions, stop_subscriptions) = (stopped.clone(), stopped);
    let subscription_client = client.clone();
    let functions = shoal_controller::run(client, config, async move {
        let _ = stop_functions.await;
    });
    let subscriptions = async move {
        if let Some(bus) = bus {
            shoal_controller::subscriptions::run(subscription_client, bus, ack_wait, async move {
                let _ = stop_subscriptions.await;
            })
            .await;
        }
    };
    let reconciling = async move {
        futures::join!(functions, subscriptions);
    };
    let mut shutdown = std::pin::pin!(shutdown);
    let shutting_down = std::sync::atomic::AtomicBool::new(false);
    let led = elector
        .run(reconciling, async {
            (&mut shutdown).await;
            shutting_down.store(true, std::sync::atomic::Ordering::SeqCst);
        })
        .await;
    webhooks.abort();
    metrics.abort();
    if led && !shutting_down.load(std::sync::atomic::Ordering::SeqCst) {
        // Another replica holds the Lease now: restart and queue up again,
        // with no reconcile of this replica still in flight.
        anyhow::bail!("lost the leader lease");
    }
    Ok(())
}
