//! The Kyma `Function` custom resource (`serverless.kyma-project.io/v1alpha2`)
//! as Rust types, with Kyma's resource presets, defaulting and validation, and
//! Kyma's eventing `Subscription` (`eventing.kyma-project.io/v1alpha2`) with
//! its validation and its naming on NATS JetStream ([`subscription`]).
//!
//! This crate owns the shape of the API and the rules a Function must obey.
//! It does no I/O: the controller's webhooks and reconciler, and the `shoal
//! build` command, all call the same [`validate`] and [`apply_defaults`], so a
//! spec is judged identically wherever it enters.

pub mod cluster;
mod function;
mod presets;
pub mod subscription;
mod validate;

pub use function::*;
pub use presets::*;
pub use subscription::{Subscription, SubscriptionSpec, SubscriptionStatus};
pub use validate::*;
