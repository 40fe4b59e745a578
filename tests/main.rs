//! Shoal's integration tests, one module per area, in one binary (the
//! real-cluster tests are `e2e`). Each module's tests run against real
//! parts: a real OCI registry, real sockets, real wasmtime, the fake API
//! server only where a cluster would be needed.

mod builds;
mod chart;
mod contract;
mod node;
mod oci;
mod reconcile;
mod subscriptions;
mod webhooks;
