//! npm and esbuild: from a handler and its package.json to one ES module.

use std::{
    path::{Path, PathBuf},
    process::Stdio,
    time::{Duration, Instant},
};

use sha2::Digest;
use tokio::process::Command;

use crate::{BuildError, BuildInputs, BuildTimings};

const NPM_TIMEOUT: Duration = Duration::from_secs(300);
const BUNDLE_TIMEOUT: Duration = Duration::from_secs(120);

/// The JavaScript tools a build runs: node, npm, and the bundling script with
/// its esbuild (`js/` in this crate, installed by `npm ci`).
#[derive(Debug, Clone)]
pub struct JsTools {
    dir: PathBuf,
    node: PathBuf,
    npm: PathBuf,
    /// Installed dependencies kept by package.json content, if enabled.
    dependency_cache: Option<PathBuf>,
    /// An `.npmrc` for npm (a private registry and its token).
    npmrc: Option<PathBuf>,
    /// The Unix socket of a long-lived bundler (`bundle.mjs --serve`) to
    /// bundle with instead of starting node for this build.
    bundler: Option<PathBuf>,
}

impl JsTools {
    /// Tools from `dir` (holding `bundle.mjs`, `prelude.js` and
    /// `node_modules/esbuild`), with node and npm from `PATH`.
    pub fn new(dir: PathBuf) -> Self {
        Self {
            dir,
            node: "node".into(),
            npm: "npm".into(),
            dependency_cache: None,
            npmrc: None,
            bundler: None,
        }
    }

    /// Bundles through the long-lived bundler listening on `socket` (the
    /// build service gives each build one) rather than starting node and
    /// esbuild for this build alone: those cost more than bundling a small
    /// Function.
    pub fn with_bundler(mut self, socket: PathBuf) -> Self {
        self.bundler = Some(socket);
        self
    }

    /// npm reads `path` as its user configuration (`.npmrc`: a private
    /// registry and its credentials), when the file exists: a build Job
    /// mounts it from an optional Secret. Only npm sees it; it is not part
    /// of the Function or its module.
    pub fn with_npmrc(mut self, path: PathBuf) -> Self {
        // npm runs in the build's own folder: a relative path would miss.
        self.npmrc = Some(std::path::absolute(&path).unwrap_or(path));
        self
    }

    fn npmrc(&self) -> Option<&Path> {
        self.npmrc.as_deref().filter(|p| p.is_file())
    }

    /// Keeps each package.json's installed `node_modules` under `dir`, keyed
    /// by the package.json's content, so rebuilding a Function whose
    /// dependencies did not change (`shoal up` after an edit, `shoal build`
    /// again) skips npm. Ranges are resolved once per content: a newer
    /// release of a `^` dependency is picked up when package.json changes
    /// or the cache is removed.
    pub fn with_dependency_cache(mut self, dir: PathBuf) -> Self {
        self.dependency_cache = Some(dir);
        self
    }

    /// Tools from [`crate::default_js_tools_dir`].
    pub fn locate() -> Self {
        Self::new(crate::default_js_tools_dir())
    }

    /// Fails with instructions when the tools are not installed.
    pub fn check(&self) -> Result<(), BuildError> {
        if !self.dir.join("node_modules/esbuild/package.json").exists() {
            return Err(BuildError::Tooling(format!(
                "esbuild is not installed in {}: run `npm ci --prefix {}` (the README's setup does this)",
                self.dir.display(),
                self.dir.display()
            )));
        }
        Ok(())
    }

    /// Bundles the Function in `work`: the bundle, and the bundler's
    /// warnings (a built-in Shoal does not know, files fs cannot read).
    pub(crate) async fn bundle(
        &self,
        work: &Path,
        inputs: &BuildInputs,
        timings: &mut BuildTimings,
    ) -> Result<(String, Vec<String>), BuildError> {
        self.check()?;
        tokio::fs::write(work.join("handler.js"), &inputs.source).await?;
        for (relative, content) in &inputs.files {
            let path = Path::new(relative);
            let inside = path.components().all(|c| matches!(c, std::path::Component::Normal(_)));
            if !inside {
                return Err(BuildError::Invalid(format!(
                    "the Function's file {relative:?} is not a path inside its folder"
                )));
            }
            let target = work.join(path);
            if let Some(parent) = target.parent() {
                tokio::fs::create_dir_all(parent).await?;
            }
            tokio::fs::write(target, content).await?;
        }
        if let Some(deps) = &inputs.dependencies {
            tokio::fs::write(work.join("package.json"), deps).await?;
            if has_dependencies(deps) {
                let t = Instant::now();
                self.install_dependencies(work, deps).await?;
                timings.npm = t.elapsed();
            }
        }

        let t = Instant::now();
        let out = work.join("__shoal_bundle.js");
        let (ok, messages) = match &self.bundler {
            Some(socket) => ask_bundler(socket, work, &out).await?,
            None => {
                let output = run(
                    Command::new(&self.node)
                        .arg(self.dir.join("bundle.mjs"))
                        .arg(work)
                        .arg(&out),
                    BUNDLE_TIMEOUT,
                    "node (bundling)",
                )
                .await?;
                let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
                (output.status.success(), stderr)
            }
        };
        timings.bundle = t.elapsed();
        if !ok {
            return Err(BuildError::Bundle(messages.trim().to_string()));
        }
        Ok((tokio::fs::read_to_string(&out).await?, bundle_warnings(&messages)))
    }

    /// npm install in `work`, or the cached install of the same package.json
    /// linked in.
    async fn install_dependencies(&self, work: &Path, package_json: &str) -> Result<(), BuildError> {
        let Some(cache) = &self.dependency_cache else {
            return self.npm_install(work).await;
        };
        // Another registry may serve other packages under the same names:
        // the .npmrc is part of what an install depends on.
        let mut hasher = sha2::Sha256::new();
        hasher.update(package_json.as_bytes());
        if let Some(npmrc) = self.npmrc() {
            hasher.update(std::fs::read(npmrc)?);
        }
        let key = hex::encode(hasher.finalize());
        let cached = cache.join(&key);
        let modules = work.join("node_modules");
        if !cached.join("node_modules").is_dir() {
            self.npm_install(work).await?;
            // Moved in whole under a temporary name, then renamed, so a
            // concurrent build sees a complete install or none.
            let staging = cache.join(format!("{key}.{}.tmp", std::process::id()));
            let stored = async {
                tokio::fs::create_dir_all(&staging).await?;
                tokio::fs::rename(&modules, staging.join("node_modules")).await?;
                tokio::fs::rename(&staging, &cached).await
            }
            .await;
            if stored.is_err() {
                // Another build stored it first, or the cache is not
                // writable: build from this install, wherever it is.
                if !modules.exists() && staging.join("node_modules").exists() {
                    tokio::fs::rename(staging.join("node_modules"), &modules).await?;
                }
                let _ = tokio::fs::remove_dir_all(&staging).await;
                if modules.exists() {
                    return Ok(());
                }
            }
        }
        std::os::unix::fs::symlink(cached.join("node_modules"), &modules)?;
        Ok(())
    }

    async fn npm_install(&self, work: &Path) -> Result<(), BuildError> {
        let mut npm = Command::new(&self.npm);
        if let Some(npmrc) = self.npmrc() {
            npm.env("NPM_CONFIG_USERCONFIG", npmrc);
        }
        let output = run(
            npm.args([
                "install",
                "--omit=dev",
                // Dependencies' install scripts would run arbitrary code in
                // the build and cannot produce anything the engine runs.
                "--ignore-scripts",
                "--no-audit",
                "--no-fund",
                "--no-package-lock",
                "--loglevel=error",
            ])
            .current_dir(work),
            NPM_TIMEOUT,
            "npm",
        )
        .await?;
        if output.status.success() {
            return Ok(());
        }
        let stderr = String::from_utf8_lossy(&output.stderr);
        if stderr.contains("E404") {
            // npm words it "'x@^1' is not in this registry" or "The requested
            // resource 'x@^1' could not be found"; the quoted spec is the news.
            let spec = stderr
                .lines()
                .find(|l| l.contains("is not in this registry") || l.contains("could not be found"))
                .and_then(|l| l.split('\'').nth(1))
                .unwrap_or("a dependency");
            return Err(BuildError::Npm(format!(
                "package not found in the npm registry: {spec}"
            )));
        }
        let lines: Vec<&str> = stderr
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.contains("A complete log of this run"))
            .take(20)
            .collect();
        Err(BuildError::Npm(lines.join("\n")))
    }
}

fn has_dependencies(package_json: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(package_json)
        .ok()
        .and_then(|v| v.get("dependencies").and_then(|d| d.as_object()).map(|d| !d.is_empty()))
        .unwrap_or(false)
}

async fn run(cmd: &mut Command, timeout: Duration, what: &str) -> Result<std::process::Output, BuildError> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let child = cmd
        .spawn()
        .map_err(|e| BuildError::Tooling(format!("cannot start {what}: {e} (is Node.js installed?)")))?;
    match tokio::time::timeout(timeout, child.wait_with_output()).await {
        Ok(result) => Ok(result?),
        Err(_) => Err(BuildError::Tooling(format!("{what} did not finish within {timeout:?}"))),
    }
}

/// What `bundle.mjs --serve` answers a request.
#[derive(serde::Deserialize)]
struct BundlerAnswer {
    ok: bool,
    messages: Vec<String>,
}

/// Bundles `work` to `out` through the bundler on `socket`: whether it
/// built, and its messages as the bundling command prints them.
async fn ask_bundler(socket: &Path, work: &Path, out: &Path) -> Result<(bool, String), BuildError> {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let unavailable = |e: std::io::Error| BuildError::Tooling(format!("the bundler at {}: {e}", socket.display()));
    let exchange = async {
        let stream = tokio::net::UnixStream::connect(socket).await?;
        let (read, mut write) = stream.into_split();
        let request = serde_json::json!({ "id": 0, "dir": work, "out": out });
        write.write_all(format!("{request}\n").as_bytes()).await?;
        let mut line = String::new();
        tokio::io::BufReader::new(read).read_line(&mut line).await?;
        Ok::<_, std::io::Error>(line)
    };
    let line = tokio::time::timeout(BUNDLE_TIMEOUT, exchange)
        .await
        .map_err(|_| BuildError::Tooling(format!("the bundler did not answer within {BUNDLE_TIMEOUT:?}")))?
        .map_err(unavailable)?;
    if line.is_empty() {
        return Err(BuildError::Tooling("the bundler stopped before answering".to_string()));
    }
    let answer: BundlerAnswer = serde_json::from_str(&line)
        .map_err(|e| BuildError::Tooling(format!("the bundler's answer is unreadable ({e}): {line:.300}")))?;
    Ok((answer.ok, answer.messages.join("\n")))
}

/// The warnings bundle.mjs prints on success: each starts a line with
/// "warning: "; the lines after it (the source line it points at) are part
/// of it.
fn bundle_warnings(stderr: &str) -> Vec<String> {
    let mut warnings: Vec<String> = Vec::new();
    let mut in_warning = false;
    for line in stderr.lines() {
        if let Some(text) = line.strip_prefix("warning: ") {
            warnings.push(text.to_string());
            in_warning = true;
        } else if let (true, Some(last)) = (in_warning, warnings.last_mut()) {
            last.push('\n');
            last.push_str(line);
        }
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::bundle_warnings;

    #[test]
    fn warnings_keep_the_lines_that_follow_them() {
        let stderr = "warning: handler.js:1:21: the Node.js built-in module \"ffi\" is not available\n    const ffi = require('node:ffi');\nwarning: second\n";
        assert_eq!(
            bundle_warnings(stderr),
            vec![
                "handler.js:1:21: the Node.js built-in module \"ffi\" is not available\n    const ffi = require('node:ffi');".to_string(),
                "second".to_string(),
            ]
        );
        assert!(bundle_warnings("").is_empty());
    }
}
