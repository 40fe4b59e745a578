//! Shoal's control plane for Kyma Functions.
//!
//! - [`crd`]: the `functions.serverless.kyma-project.io` CustomResourceDefinition,
//!   generated from the Rust types in `shoal-api`.
//! - [`webhook`]: the defaulting and validating admission webhooks, served
//!   over HTTPS with a certificate every replica shares ([`tls`]).
//! - [`reconcile`]: the reconciler — a ConfigMap with the source, each
//!   distinct source built once (sent to the build service, signed, or a
//!   build Job per source), the artifact in status, and a selector-less
//!   Service per Function whose EndpointSlice lists the node pods serving it,
//!   at the Function's own serving port ([`ports`]); per Function also the
//!   node pods' read access to exactly the Secrets and ConfigMaps it
//!   references (a Role and RoleBinding), and each build's token for its own
//!   repository in the in-cluster registry (minted with `shoal_oci::token`).
//! - [`leader`]: leader election over a Lease, so replicas can run side by
//!   side with one reconciling.
//! - [`subscriptions`]: Kyma `Subscription`s on Shoal's eventing (when a NATS
//!   server is configured): validated, their JetStream consumers made,
//!   their status written; node servers deliver from those consumers.
//! - [`git`]: `gitRepository` sources: references resolved and polled (one
//!   ref listing per repository and reference per interval), new commits
//!   checked for their `baseDir`.
//!
//! This crate talks to the API server, to the build service's pods (build
//! requests, through `shoal-builder`'s client), to NATS only to make and
//! delete Subscriptions' consumers, and to Git remotes only to list their
//! refs and check a commit's folder. It never builds or runs a
//! Function (the build service, a build Job and the node servers do), and
//! it owns none of the
//! validation rules (they live in `shoal-api`, shared with `shoal build`).

pub mod crd;
pub mod git;
pub mod leader;
pub mod metrics;
pub mod ports;
pub mod reconcile;
pub mod resources;
pub mod subscriptions;
pub mod tls;
pub mod webhook;

pub use reconcile::{Children, Context, ControllerConfig, Error, NodeView, reconcile, run};

/// An error and each of its causes, once each, joined by `: ` (as anyhow's
/// `{:#}` prints them), for logs: `shoal_runtime::causes`, which this crate
/// does not link (the control plane carries no wasmtime).
pub(crate) fn causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(e) = cause {
        text.push_str(": ");
        text.push_str(&e.to_string());
        cause = e.source();
    }
    text
}
