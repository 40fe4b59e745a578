//! The `shoal` command's tests, in one binary: the CLI as a user runs it
//! (`cli`), the build service's processes (`builder`), and the whole
//! cluster flow with real parts wherever a cluster is not needed
//! (`cluster`), event delivery (`eventing`) and traces sent to a collector
//! (`traces`).

mod builder;
mod cli;
mod cluster;
mod eventing;
mod traces;
