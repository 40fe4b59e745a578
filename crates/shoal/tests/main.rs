//! The `shoal` command's tests, in one binary: the CLI as a user runs it
//! (`cli`), the build service's processes (`builder`), and the whole
//! cluster flow with real parts wherever a cluster is not needed
//! (`cluster`).

mod builder;
mod cli;
mod cluster;
mod eventing;
