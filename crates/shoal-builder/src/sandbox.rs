//! One build in its own child process: its own folder, a clean
//! environment with no credentials, its own process group, and the limits
//! a build Job's pod had (memory and time), enforced by stopping the whole
//! group.
//!
//! The child is `shoal build` (the same command a build Job runs), writing
//! the module to its folder; it never sees the registry's credentials, as
//! the service pushes the module itself. npm runs with `--ignore-scripts`,
//! so no code of the Function's dependencies runs natively in a build: what
//! the sandbox guards against is a build that is too big (a dependency tree
//! that fills memory, an install that never ends), and it stops that build
//! alone.
//!
//! The build bundles through a bundler the service lends it
//! ([`crate::bundler`]), listening on a socket of the build's own.
//!
//! Memory is the resident set of the build's process tree and its
//! bundler's, sampled every [`SAMPLE_EVERY`]; the builder pod's own memory
//! limit bounds what a build can take between two samples.
//!
//! A build's processes that outlive their parents (esbuild after node) are
//! handed to the service, which must reap them: in its container it is
//! process 1, and elsewhere it makes itself their subreaper
//! ([`adopt_orphans`]). Each build's group is reaped after it ends.

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal};
use serde::Deserialize;
use tokio::process::Command;

use crate::bundler::{BUNDLER_SOCKET_ENV, BundlerPool};
use crate::protocol::BuildRequest;

/// How often a running build's memory is measured.
pub const SAMPLE_EVERY: Duration = Duration::from_millis(100);

/// Makes this process the one that inherits the orphans of its builds, so
/// that it can reap them (see [`run`]).
///
/// # Errors
/// The kernel refused (not Linux 3.4 or later).
pub fn adopt_orphans() -> std::io::Result<()> {
    rustix::process::set_child_subreaper(Some(rustix::process::getpid())).map_err(std::io::Error::from)
}

/// Reaps the ended processes of the build group `group` that were handed
/// to this process, now and over the next seconds (an orphan may end after
/// its build), without touching any other child.
pub(crate) fn reap_group_later(group: Pid) {
    tokio::spawn(async move {
        for wait in [0, 100, 500, 2_000, 10_000, 30_000] {
            tokio::time::sleep(Duration::from_millis(wait)).await;
            // ECHILD: none of the group is this process's child (left, or
            // never handed over).
            while let Ok(Some(_)) = rustix::process::waitpgid(group, rustix::process::WaitOptions::NOHANG) {}
        }
    });
}

/// Where and how builds run.
#[derive(Debug, Clone)]
pub struct SandboxConfig {
    /// The `shoal` binary, run as `shoal build` for each build.
    pub program: PathBuf,
    /// Each build gets a fresh folder under this one, removed afterwards.
    pub work_root: PathBuf,
    /// Caches shared by builds: the precompiled engine and npm installs
    /// keyed by package.json content.
    pub cache_dir: PathBuf,
    /// Environment variables builds get from the service (`PATH`, where
    /// the JavaScript tools are); nothing else is passed on.
    pub env: Vec<(String, String)>,
    /// Bundlers lent to builds; without them each build starts its own
    /// node to bundle.
    pub bundlers: Option<Arc<BundlerPool>>,
}

/// A module a build produced.
#[derive(Debug)]
pub struct Module {
    /// The Wasm module.
    pub wasm: Vec<u8>,
    /// The engine version it needs.
    pub engine_version: String,
    /// The build-input hash the build computed (the request's, unless the
    /// two sides disagree on what a build depends on).
    pub source_hash: String,
}

/// Why a build produced no module.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// The build went over its memory limit and was stopped.
    #[error("the build used more than its memory limit of {limit} MiB and was stopped")]
    Memory {
        /// The limit, in MiB.
        limit: u64,
    },
    /// The build ran past its deadline and was stopped.
    #[error("the build ran longer than its limit of {0} s and was stopped")]
    Deadline(u64),
    /// The Function does not build: the compiler's, npm's or the bundler's
    /// message.
    #[error("{0}")]
    Build(String),
    /// The service could not run the build at all.
    #[error("running the build")]
    Io(#[source] std::io::Error),
}

/// What `shoal build --result-file` reports when it does not push.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ChildReport {
    source_hash: String,
    engine_version: String,
}

/// Runs `request`'s build in a fresh folder under the config's root.
///
/// # Errors
/// [`SandboxError`]: over a limit, a failed build, or the service's own I/O.
pub async fn run(config: &SandboxConfig, request: &BuildRequest) -> Result<Module, SandboxError> {
    std::fs::create_dir_all(&config.work_root).map_err(SandboxError::Io)?;
    let folder = tempfile::Builder::new()
        .prefix(&format!("{}-{}-", request.namespace, request.name))
        .tempdir_in(&config.work_root)
        .map_err(SandboxError::Io)?;
    let source = folder.path().join("function");
    let home = folder.path().join("home");
    for dir in [&source, &home, &home.join("tmp")] {
        std::fs::create_dir_all(dir).map_err(SandboxError::Io)?;
    }
    std::fs::write(source.join("handler.js"), &request.source).map_err(SandboxError::Io)?;
    if let Some(deps) = &request.dependencies {
        std::fs::write(source.join("package.json"), deps).map_err(SandboxError::Io)?;
    }
    let module = folder.path().join("module.wasm");
    let report = folder.path().join("result.json");

    let mut command = Command::new(&config.program);
    command
        .arg("build")
        .arg(&source)
        .args(["--name", &format!("{}/{}", request.namespace, request.name)])
        .args(["--runtime", &request.runtime])
        .arg("--output")
        .arg(&module)
        .arg("--result-file")
        .arg(&report)
        .env_clear()
        .envs(config.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .env("HOME", &home)
        .env("TMPDIR", home.join("tmp"))
        .env("SHOAL_CACHE_DIR", &config.cache_dir)
        .env("npm_config_cache", config.cache_dir.join("npm-cache"))
        .current_dir(folder.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        // Its own group, so the whole tree (npm, node, esbuild) is measured
        // and stopped together.
        .process_group(0)
        .kill_on_drop(true);
    // The build's bundler listens on a socket of this build's own (named
    // in the work root: a socket's path has at most 107 bytes, and the
    // folder's name holds the Function's).
    let mut bundler = match &config.bundlers {
        Some(pool) => {
            let listener = tempfile::Builder::new()
                .prefix("bundler-")
                .suffix(".sock")
                .make_in(&config.work_root, |path| tokio::net::UnixListener::bind(path))
                .map_err(SandboxError::Io)?;
            command.env(BUNDLER_SOCKET_ENV, listener.path());
            Some((pool.take().map_err(SandboxError::Io)?, listener))
        }
        None => None,
    };
    let mut child = command.spawn().map_err(SandboxError::Io)?;
    let group = child.id().and_then(|id| Pid::from_raw(id as i32));
    let bundler_group = bundler.as_ref().and_then(|(b, _)| b.group());
    let build_folder = folder.path().to_path_buf();
    let mut serving = Box::pin(async {
        match &mut bundler {
            Some((bundler, listener)) => bundler.serve(listener.as_file(), &build_folder).await,
            None => std::future::pending().await,
        }
    });

    let deadline = Duration::from_secs(request.limits.deadline_secs);
    let started = Instant::now();
    let status = loop {
        tokio::select! {
            status = child.wait() => break status.map_err(SandboxError::Io)?,
            () = serving.as_mut() => {}
            () = tokio::time::sleep(SAMPLE_EVERY) => {}
        }
        // The bundler works for this build: its memory is the build's.
        let used = group.map_or(0, tree_resident_bytes) + bundler_group.map_or(0, tree_resident_bytes);
        let over_memory = used > request.limits.memory_bytes;
        let over_time = started.elapsed() > deadline;
        if over_memory || over_time {
            if let Some(group) = group {
                // The group may be gone already: nothing left to stop.
                let _ = rustix::process::kill_process_group(group, Signal::KILL);
                reap_group_later(group);
            }
            let _ = child.wait().await;
            return Err(if over_memory {
                SandboxError::Memory {
                    limit: request.limits.memory_bytes / (1024 * 1024),
                }
            } else {
                SandboxError::Deadline(request.limits.deadline_secs)
            });
        }
    };
    drop(serving);
    if let (Some(pool), Some((bundler, _))) = (&config.bundlers, bundler) {
        pool.give(bundler);
    }
    // Anything the build left running in its group goes with it.
    if let Some(group) = group {
        let _ = rustix::process::kill_process_group(group, Signal::KILL);
        reap_group_later(group);
    }
    let text = std::fs::read_to_string(&report).unwrap_or_default();
    if !status.success() {
        let message = text.trim();
        return Err(SandboxError::Build(if message.is_empty() {
            format!("the build exited with {status}")
        } else {
            message.to_string()
        }));
    }
    let report: ChildReport = serde_json::from_str(&text)
        .map_err(|e| SandboxError::Build(format!("the build's report is unreadable ({e}): {text:.300}")))?;
    let wasm = std::fs::read(&module).map_err(SandboxError::Io)?;
    Ok(Module {
        wasm,
        engine_version: report.engine_version,
        source_hash: report.source_hash,
    })
}

/// The resident memory of the process `root` and its descendants, from
/// `/proc`: the tree is followed through each thread's `children`, so a
/// sample reads a few files per process of the build, not every process
/// on the machine.
fn tree_resident_bytes(root: Pid) -> u64 {
    let page = rustix::param::page_size() as u64;
    let mut pending = vec![root.as_raw_nonzero().get()];
    let mut total = 0u64;
    // A bound on the walk: a build forking without end is stopped by its
    // memory long before.
    let mut visited = 0;
    while let Some(pid) = pending.pop() {
        visited += 1;
        if visited > 4096 {
            break;
        }
        let proc_dir = PathBuf::from(format!("/proc/{pid}"));
        let resident = std::fs::read_to_string(proc_dir.join("statm"))
            .ok()
            .and_then(|statm| statm.split_whitespace().nth(1)?.parse::<u64>().ok())
            .unwrap_or(0);
        total = total.saturating_add(resident.saturating_mul(page));
        let Ok(tasks) = std::fs::read_dir(proc_dir.join("task")) else {
            continue;
        };
        for task in tasks.flatten() {
            if let Ok(children) = std::fs::read_to_string(task.path().join("children")) {
                pending.extend(children.split_whitespace().filter_map(|c| c.parse::<i32>().ok()));
            }
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_tree_is_measured_with_its_children() {
        let mut shell = std::process::Command::new("sh")
            .args(["-c", "sleep 5 & sleep 5 & wait"])
            .spawn()
            .expect("sh");
        let pid = Pid::from_raw(shell.id() as i32).expect("pid");
        // The two sleeps start a moment after the shell.
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        let children = || {
            std::fs::read_to_string(format!("/proc/{}/task/{}/children", shell.id(), shell.id())).unwrap_or_default()
        };
        while children().split_whitespace().count() < 2 && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        let page = rustix::param::page_size() as u64;
        let shell_alone = std::fs::read_to_string(format!("/proc/{}/statm", shell.id()))
            .ok()
            .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
            .unwrap_or(0)
            * page;
        let tree = tree_resident_bytes(pid);
        for child in children().split_whitespace().filter_map(|c| c.parse::<i32>().ok()) {
            if let Some(child) = Pid::from_raw(child) {
                let _ = rustix::process::kill_process(child, Signal::KILL);
            }
        }
        let _ = shell.kill();
        let _ = shell.wait();
        assert!(shell_alone > 0);
        assert!(tree > shell_alone, "the sleeps count too: {tree} > {shell_alone}");
    }
}
