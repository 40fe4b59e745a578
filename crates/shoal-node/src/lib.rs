//! Shoal's node server: one process serving thousands of Functions.
//!
//! A [`FunctionTable`] knows every Function (config plus where its module
//! comes from), loads modules on first use and evicts idle ones beyond a
//! memory budget; a [`Node`] routes HTTP requests to them by the port they
//! arrive on (each Function's own port in a cluster, see `ports`), by Host,
//! or by path in local use, and enforces body, time, memory and concurrency limits, and
//! answers with Kyma's Node.js runtime behaviour. Requests run in sandboxes
//! from `shoal-runtime`: a warm one of the Function's while it is in use
//! ([`warm`]), a fresh one otherwise. With a span sink
//! ([`NodeConfig::traces`]) each request is an invocation span (`traces`),
//! which `shoal-telemetry` exports.
//!
//! This crate does not build modules (`shoal-build`) or talk to Kubernetes
//! (`shoal-controller`); it is told what to serve.

pub mod functions;
mod locks;
pub mod metrics;
mod ports;
pub mod readiness;
pub mod routing;
mod server;
mod traces;
pub mod warm;

pub use functions::{
    DEFAULT_MAX_BODY_MB, DEFAULT_MAX_TIMEOUT_SECS, FunctionConfig, FunctionDefaults, FunctionEntry, FunctionKey,
    FunctionTable, LoadError, ModuleSource, TableConfig,
};
pub use readiness::LoadGate;
pub use server::{Node, NodeConfig, bind_and_serve};
pub use warm::WarmConfig;
