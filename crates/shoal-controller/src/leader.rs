//! Leader election over a `coordination.k8s.io/v1` Lease, as Kubernetes'
//! own controllers do it: several controller replicas run, one reconciles.
//!
//! The holder renews the Lease every [`LeaseConfig::renew_every`]; another
//! replica takes it over once it has not been renewed for
//! [`LeaseConfig::lease_duration`], or at once when the holder stepped down
//! on shutdown. Every write carries the resourceVersion it read, so two
//! replicas racing for one Lease cannot both win: the API server refuses
//! the second with 409 Conflict.

use std::time::Duration;

use k8s_openapi::api::coordination::v1::{Lease, LeaseSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, ObjectMeta};
use k8s_openapi::jiff::Timestamp;
use kube::api::{Api, PostParams};
use kube::{Client, ResourceExt};

/// Who competes for which Lease, and how fast.
#[derive(Debug, Clone)]
pub struct LeaseConfig {
    /// The Lease's namespace (the controller's).
    pub namespace: String,
    /// The Lease's name.
    pub name: String,
    /// This replica (its pod name).
    pub identity: String,
    /// How long a Lease not renewed stays its holder's.
    pub lease_duration: Duration,
    /// How often the holder renews, and others try.
    pub renew_every: Duration,
}

impl LeaseConfig {
    /// A 15 s lease (Kubernetes' default for its controllers), renewed
    /// every 2 s.
    pub fn new(namespace: impl Into<String>, identity: impl Into<String>) -> Self {
        Self {
            namespace: namespace.into(),
            name: "shoal-controller".into(),
            identity: identity.into(),
            lease_duration: Duration::from_secs(15),
            renew_every: Duration::from_secs(2),
        }
    }
}

/// One replica's side of the election.
pub struct LeaderElector {
    api: Api<Lease>,
    config: LeaseConfig,
}

impl LeaderElector {
    /// An elector for `config.identity`.
    pub fn new(client: Client, config: LeaseConfig) -> Self {
        Self {
            api: Api::namespaced(client, &config.namespace),
            config,
        }
    }

    /// Acquires the Lease, renews it, or finds it held by another replica
    /// that is still renewing; true when this replica holds it afterwards.
    ///
    /// # Errors
    /// An API error other than losing a race (which is just `false`).
    pub async fn try_acquire_or_renew(&self) -> Result<bool, kube::Error> {
        let now = Timestamp::now();
        let Some(lease) = self.api.get_opt(&self.config.name).await? else {
            let lease = self.lease(None, 0, now);
            return match self.api.create(&PostParams::default(), &lease).await {
                Ok(_) => {
                    tracing::info!(identity = %self.config.identity, "leader election: acquired a new lease");
                    Ok(true)
                }
                Err(kube::Error::Api(e)) if e.code == 409 => Ok(false),
                Err(e) => Err(e),
            };
        };
        let spec = lease.spec.clone().unwrap_or_default();
        let holder = spec.holder_identity.clone().filter(|h| !h.is_empty());
        let transitions = spec.lease_transitions.unwrap_or(0);
        let ours = holder.as_deref() == Some(self.config.identity.as_str());
        if !ours && holder.is_some() && !expired(&spec, now, self.config.lease_duration) {
            return Ok(false);
        }
        let acquired = spec.acquire_time.clone().filter(|_| ours);
        let mut updated = self.lease(acquired, if ours { transitions } else { transitions + 1 }, now);
        updated.metadata.resource_version = lease.resource_version();
        match self
            .api
            .replace(&self.config.name, &PostParams::default(), &updated)
            .await
        {
            Ok(_) => {
                if !ours {
                    tracing::info!(identity = %self.config.identity, previous = ?holder, "leader election: took over the lease");
                }
                Ok(true)
            }
            Err(kube::Error::Api(e)) if e.code == 409 => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Gives the Lease up if this replica holds it, so another takes over
    /// without waiting for it to expire.
    ///
    /// # Errors
    /// When the API server cannot be reached.
    pub async fn step_down(&self) -> Result<(), kube::Error> {
        let Some(lease) = self.api.get_opt(&self.config.name).await? else {
            return Ok(());
        };
        let mut spec = lease.spec.clone().unwrap_or_default();
        if spec.holder_identity.as_deref() != Some(self.config.identity.as_str()) {
            return Ok(());
        }
        spec.holder_identity = None;
        spec.lease_duration_seconds = Some(1);
        let released = Lease {
            metadata: ObjectMeta {
                resource_version: lease.resource_version(),
                ..self.lease(None, 0, Timestamp::now()).metadata
            },
            spec: Some(spec),
        };
        match self
            .api
            .replace(&self.config.name, &PostParams::default(), &released)
            .await
        {
            Ok(_) | Err(kube::Error::Api(_)) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Runs `lead` while this replica holds the Lease: waits to acquire it,
    /// renews it meanwhile, and returns when `lead` ends, when the Lease is
    /// lost (the caller should exit: another replica leads now) or when
    /// `shutdown` completes (then it steps down). True if it led.
    pub async fn run<F>(&self, lead: F, shutdown: impl std::future::Future<Output = ()>) -> bool
    where
        F: std::future::Future<Output = ()>,
    {
        tokio::pin!(shutdown);
        loop {
            match self.try_acquire_or_renew().await {
                Ok(true) => break,
                Ok(false) => {}
                Err(e) => tracing::warn!(error = %e, "leader election: reading the lease"),
            }
            tokio::select! {
                () = tokio::time::sleep(self.config.renew_every) => {}
                () = &mut shutdown => return false,
            }
        }
        tracing::info!(identity = %self.config.identity, "leading: reconciling Functions");
        tokio::pin!(lead);
        let mut last_renewed = tokio::time::Instant::now();
        loop {
            tokio::select! {
                () = &mut lead => break,
                () = &mut shutdown => break,
                () = tokio::time::sleep(self.config.renew_every) => {
                    match self.try_acquire_or_renew().await {
                        Ok(true) => last_renewed = tokio::time::Instant::now(),
                        Ok(false) => {
                            tracing::warn!(identity = %self.config.identity, "leader election: lost the lease");
                            return true;
                        }
                        // Not renewed for a whole lease: another replica may lead.
                        Err(e) if last_renewed.elapsed() >= self.config.lease_duration => {
                            tracing::warn!(error = %e, "leader election: could not renew the lease in time");
                            return true;
                        }
                        Err(e) => tracing::warn!(error = %e, "leader election: renewing the lease; retrying"),
                    }
                }
            }
        }
        if let Err(e) = self.step_down().await {
            tracing::warn!(error = %e, "leader election: stepping down");
        }
        true
    }

    fn lease(&self, acquired: Option<MicroTime>, transitions: i32, now: Timestamp) -> Lease {
        Lease {
            metadata: ObjectMeta {
                name: Some(self.config.name.clone()),
                namespace: Some(self.config.namespace.clone()),
                ..ObjectMeta::default()
            },
            spec: Some(LeaseSpec {
                holder_identity: Some(self.config.identity.clone()),
                lease_duration_seconds: Some(self.config.lease_duration.as_secs().max(1) as i32),
                acquire_time: Some(acquired.unwrap_or(MicroTime(now))),
                renew_time: Some(MicroTime(now)),
                lease_transitions: Some(transitions),
                ..LeaseSpec::default()
            }),
        }
    }
}

/// Whether the holder let the Lease run out.
fn expired(spec: &LeaseSpec, now: Timestamp, default_duration: Duration) -> bool {
    let Some(renewed) = spec.renew_time.as_ref().map(|t| t.0) else {
        return true;
    };
    let seconds = spec
        .lease_duration_seconds
        .map_or(default_duration.as_secs() as i64, i64::from);
    now.duration_since(renewed).as_secs() >= seconds
}
