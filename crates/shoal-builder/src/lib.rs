//! Shoal's build service: builds Functions for the controller without a
//! pod per build.
//!
//! The controller sends each build of an inline-source Function to a
//! builder pod ([`client`]), which runs it in a sandboxed child process
//! ([`sandbox`]) with the limits a build Job's pod would have had, bundling
//! with a long-lived bundler the service lends it ([`bundler`]), pushes
//! the module with credentials only the service holds, and answers with
//! the pinned artifact, signed ([`protocol`]). Builds of one Function at
//! one build-input hash run once however often they are asked for
//! ([`service`]).
//!
//! This crate owns the build service's protocol, server and client. It
//! never talks to the Kubernetes API (the builder pod has no token) and
//! never decides what to build: that is the controller's. The build itself
//! is `shoal build`'s, run as a child process.

pub mod bundler;
pub mod client;
pub mod protocol;
pub mod sandbox;
pub mod service;

pub use client::{BuildClient, ClientError};
pub use protocol::{BuildAnswer, BuildKey, BuildLimits, BuildOutcome, BuildRequest};
pub use service::{BuildService, PushAuth, ServiceConfig};

/// An error and its causes on one line, each printed once.
pub fn causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
