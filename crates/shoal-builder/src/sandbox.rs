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
//! Memory is the resident set of every process in the group, sampled every
//! [`SAMPLE_EVERY`]; the builder pod's own memory limit bounds what a build
//! can take between two samples.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal};
use serde::Deserialize;
use tokio::process::Command;

use crate::protocol::BuildRequest;

/// How often a running build's memory is measured.
pub const SAMPLE_EVERY: Duration = Duration::from_millis(50);

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
    let mut child = command.spawn().map_err(SandboxError::Io)?;
    let group = child.id().and_then(|id| Pid::from_raw(id as i32));

    let deadline = Duration::from_secs(request.limits.deadline_secs);
    let started = Instant::now();
    let status = loop {
        tokio::select! {
            status = child.wait() => break status.map_err(SandboxError::Io)?,
            () = tokio::time::sleep(SAMPLE_EVERY) => {}
        }
        let over_memory = group.is_some_and(|g| group_resident_bytes(g) > request.limits.memory_bytes);
        let over_time = started.elapsed() > deadline;
        if over_memory || over_time {
            if let Some(group) = group {
                // The group may be gone already: nothing left to stop.
                let _ = rustix::process::kill_process_group(group, Signal::KILL);
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
    // Anything the build left running in its group goes with it.
    if let Some(group) = group {
        let _ = rustix::process::kill_process_group(group, Signal::KILL);
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

/// The resident memory of every process in `group`, from `/proc`.
fn group_resident_bytes(group: Pid) -> u64 {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let page = rustix::param::page_size() as u64;
    entries
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
        })
        .filter(|e| process_group_of(&e.path()) == Some(group.as_raw_nonzero().get()))
        .filter_map(|e| std::fs::read_to_string(e.path().join("statm")).ok())
        .filter_map(|statm| statm.split_whitespace().nth(1)?.parse::<u64>().ok())
        .fold(0u64, |sum, pages| sum.saturating_add(pages.saturating_mul(page)))
}

/// The process group of the process at `/proc/<pid>`: the fifth field of
/// its `stat`, counted after the command name (which may hold spaces and
/// parentheses, so from the last `)`).
fn process_group_of(proc_dir: &Path) -> Option<i32> {
    let stat = std::fs::read_to_string(proc_dir.join("stat")).ok()?;
    let (_, after_name) = stat.rsplit_once(')')?;
    after_name.split_whitespace().nth(2)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_is_found_in_its_own_group() {
        let me = rustix::process::getpid();
        let group = rustix::process::getpgid(None).expect("own group");
        assert_eq!(
            process_group_of(&PathBuf::from(format!("/proc/{}", me.as_raw_nonzero()))),
            Some(group.as_raw_nonzero().get())
        );
        assert!(
            group_resident_bytes(group) > 1024 * 1024,
            "a test process uses more than 1 MiB"
        );
    }
}
