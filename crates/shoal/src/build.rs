//! `shoal build`: one Function to a Wasm module, optionally pushed.

use std::{path::PathBuf, sync::Arc, time::Instant};

use anyhow::Context;
use clap::Args;
use shoal_build::{Builder, JsTools};
use shoal_oci::{ArtifactMetadata, Credentials, Registry};
use shoal_runtime::{Runtime, RuntimeConfig};

#[derive(Args)]
pub struct BuildArgs {
    /// A .js file, a folder with handler.js (+ package.json), a Kyma Function
    /// YAML (inline or gitRepository source), or `git+URL#REF:DIR` (REF a
    /// branch, tag or commit, default main; DIR the Function's folder).
    path: PathBuf,
    /// A folder holding a Git auth Secret's keys as files (`username` and
    /// `password`, or `key` and optionally `password`), as a build Job
    /// mounts it. Default for a Function YAML: `.secrets/<auth.secretName>`
    /// next to it.
    #[arg(long, env = "SHOAL_GIT_AUTH_DIR")]
    git_auth_dir: Option<PathBuf>,
    /// `basic` or `key`: how to use --git-auth-dir (default: the YAML's
    /// auth.type, else basic when the folder has a username, else key).
    #[arg(long, env = "SHOAL_GIT_AUTH_TYPE")]
    git_auth_type: Option<String>,
    /// Where to write the module (default: <name>.wasm, unless --push is given).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Push the module to this OCI reference (registry/repository:tag).
    #[arg(long)]
    push: Option<String>,
    /// The Function's NAMESPACE/NAME (default: from the YAML, file or folder name).
    #[arg(long, value_name = "NS/NAME")]
    name: Option<String>,
    /// The runtime (default: from the YAML, else nodejs24).
    #[arg(long)]
    runtime: Option<String>,
    /// Write the outcome here: on success `{"artifact": …, "digest": …}`
    /// (pushed) or `{"sourceHash": …, "engineVersion": …}` (not pushed), on
    /// failure the error. A build Job points this at /dev/termination-log so
    /// the controller can read it from the pod's status; the build service
    /// reads it from the build's folder.
    #[arg(long, value_name = "PATH")]
    result_file: Option<PathBuf>,
    /// An `.npmrc` for installing the Function's dependencies (a private
    /// npm registry and its token); ignored when the file does not exist.
    #[arg(long, env = "SHOAL_NPMRC")]
    npmrc: Option<PathBuf>,
    /// Registry user for --push (anonymous when unset).
    #[arg(long, env = "SHOAL_REGISTRY_USER")]
    registry_user: Option<String>,
    /// Registry password for --push.
    #[arg(long, env = "SHOAL_REGISTRY_PASSWORD", hide_env_values = true)]
    registry_password: Option<String>,
}

/// Where precompiled modules are cached: `SHOAL_CACHE_DIR`, else the user's
/// cache folder, so repeated runs skip compiling the engine.
pub fn default_cache_dir() -> Option<PathBuf> {
    std::env::var_os("SHOAL_CACHE_DIR")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("shoal")))
        .or_else(|| std::env::var_os("HOME").map(|d| PathBuf::from(d).join(".cache/shoal")))
}

/// The JavaScript tools, keeping installed dependencies in the cache folder
/// (`<cache>/npm`) when there is one, bundling through the build service's
/// bundler when it gives one (`SHOAL_BUNDLER_SOCKET`).
pub fn js_tools() -> JsTools {
    let mut tools = JsTools::locate();
    if let Some(socket) = std::env::var_os(shoal_builder::bundler::BUNDLER_SOCKET_ENV) {
        tools = tools.with_bundler(socket.into());
    }
    match default_cache_dir() {
        Some(dir) => tools.with_dependency_cache(dir.join("npm")),
        None => tools,
    }
}

/// A runtime for checking built modules (no instance pool: one probe at a time).
fn build_runtime() -> anyhow::Result<Arc<Runtime>> {
    let config = RuntimeConfig {
        pooling: false,
        cache_dir: default_cache_dir(),
        ..RuntimeConfig::default()
    };
    Ok(Arc::new(Runtime::new(&config)?))
}

/// A Git auth Secret from a folder of its keys.
///
/// # Errors
/// When the folder cannot be read or lacks a key the type needs.
pub fn git_auth_from_dir(dir: &std::path::Path, kind: Option<&str>) -> anyhow::Result<shoal_build::git::GitAuth> {
    let mut data = std::collections::BTreeMap::new();
    let entries = std::fs::read_dir(dir).with_context(|| format!("reading the Git auth folder {}", dir.display()))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        // A mounted Secret's ..data links and hidden files are not keys.
        if name.starts_with('.') || !entry.path().is_file() {
            continue;
        }
        data.insert(name, std::fs::read(entry.path())?);
    }
    let kind = kind.unwrap_or(if data.contains_key("username") { "basic" } else { "key" });
    Ok(shoal_build::git::GitAuth::from_secret(kind, &data)?)
}

/// Fetches a Git Function's commit into a temporary folder (returned, to be
/// kept while building) and fills its inputs; nothing for other sources.
pub async fn fetch_git(
    source: &mut shoal_build::FunctionSource,
    auth_dir: Option<&std::path::Path>,
    auth_type: Option<&str>,
) -> anyhow::Result<Option<tempfile::TempDir>> {
    let Some(spec) = source.git.clone() else {
        return Ok(None);
    };
    let auth = git_auth_for(source, auth_dir, auth_type)?;
    let work = tempfile::tempdir()?;
    shoal_build::fetch_git_source(source, auth, work.path()).await?;
    let folder = if spec.base_dir == "/" {
        "the repository root".to_string()
    } else {
        spec.base_dir.clone()
    };
    println!(
        "fetched {} at {} ({folder})",
        shoal_build::git::scrub(&spec.url),
        source.commit.as_deref().unwrap_or("?"),
    );
    Ok(Some(work))
}

/// The credentials for a Git Function: from `auth_dir`, else (for a
/// Function YAML naming an auth Secret) the `.secrets/<secretName>` folder
/// next to it, else none.
///
/// # Errors
/// When the folder cannot be read or lacks a key the type needs.
pub fn git_auth_for(
    source: &shoal_build::FunctionSource,
    auth_dir: Option<&std::path::Path>,
    auth_type: Option<&str>,
) -> anyhow::Result<shoal_build::git::GitAuth> {
    let declared = source.git_auth.clone();
    let local_secret = declared.as_ref().map(|a| {
        source
            .origin
            .parent()
            .unwrap_or(std::path::Path::new("."))
            .join(".secrets")
            .join(&a.secret_name)
    });
    let kind = auth_type.or(declared.as_ref().map(|a| a.kind.as_str()));
    Ok(match (auth_dir, local_secret) {
        (Some(dir), _) => git_auth_from_dir(dir, kind)?,
        (None, Some(dir)) => git_auth_from_dir(&dir, kind)
            .with_context(|| format!("the Function's auth Secret stands in as the folder {}", dir.display()))?,
        (None, None) => shoal_build::git::GitAuth::None,
    })
}

pub async fn run(args: BuildArgs) -> anyhow::Result<()> {
    let result_file = args.result_file.clone();
    let outcome = build(args).await;
    if let Some(path) = result_file {
        // The kubelet keeps at most 4096 bytes of a termination message.
        let text = match &outcome {
            Ok(Outcome {
                pushed: Some(pushed), ..
            }) => serde_json::json!({ "artifact": pushed.pinned, "digest": pushed.digest }).to_string(),
            Ok(Outcome {
                pushed: None,
                source_hash,
                engine_version,
            }) => serde_json::json!({ "sourceHash": source_hash, "engineVersion": engine_version }).to_string(),
            Err(e) => {
                let mut message = format!("{e:#}");
                if message.len() > 4000 {
                    let mut cut = 4000;
                    while !message.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    message.truncate(cut);
                }
                message
            }
        };
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("warning: writing {}: {e}", path.display());
        }
    }
    outcome.map(|_| ())
}

/// What a build made.
struct Outcome {
    pushed: Option<shoal_oci::Pushed>,
    source_hash: String,
    engine_version: String,
}

async fn build(args: BuildArgs) -> anyhow::Result<Outcome> {
    let started = Instant::now();
    let arg = args.path.to_string_lossy().to_string();
    let mut source = match shoal_build::git::GitSpec::parse(&arg) {
        Some(spec) => shoal_build::git_function(spec),
        None => shoal_build::load_function(&args.path)?,
    };
    // A Git source: fetch its commit first (kept until the build is done).
    let _checkout = fetch_git(&mut source, args.git_auth_dir.as_deref(), args.git_auth_type.as_deref()).await?;
    if let Some(full) = &args.name {
        let (namespace, name) = full.split_once('/').context("--name takes NAMESPACE/NAME")?;
        source.namespace = namespace.to_string();
        source.name = name.to_string();
    }
    if let Some(runtime) = &args.runtime {
        shoal_api::check_runtime(runtime).map_err(anyhow::Error::msg)?;
        source.inputs.runtime = runtime.clone();
    }
    let tools = match &args.npmrc {
        Some(npmrc) => crate::build::js_tools().with_npmrc(npmrc.clone()),
        None => crate::build::js_tools(),
    };
    let builder = Builder::new(tools, build_runtime()?);
    let env = source
        .function
        .as_ref()
        .map(shoal_build::static_env)
        .unwrap_or_default();
    let built = builder.build_with_env(&source.inputs, &env).await?;
    for warning in &built.warnings {
        eprintln!("warning: {warning}");
    }
    let digest = shoal_oci::sha256_digest(&built.wasm);
    let t = &built.timings;
    println!(
        "built {}/{}: {} bytes, {digest}",
        source.namespace,
        source.name,
        built.wasm.len()
    );
    println!(
        "  in {:.2} s (npm {} ms, bundle {} ms, codegen {} ms, check {} ms); engine {} ({} bytes)",
        t.total.as_secs_f64(),
        t.npm.as_millis(),
        t.bundle.as_millis(),
        t.codegen.as_millis(),
        t.check.as_millis(),
        built.engine_version,
        shoal_engine::ENGINE_WASM.len()
    );

    let output = args.output.or_else(|| {
        args.push
            .is_none()
            .then(|| PathBuf::from(format!("{}.wasm", source.name)))
    });
    if let Some(output) = output {
        std::fs::write(&output, &built.wasm).with_context(|| format!("writing {}", output.display()))?;
        println!("  wrote {}", output.display());
    }
    let mut pushed_to = None;
    if let Some(reference) = args.push {
        let credentials = match (args.registry_user, args.registry_password) {
            (Some(username), Some(password)) => Credentials::Basic { username, password },
            (None, None) => Credentials::Anonymous,
            _ => anyhow::bail!("--registry-user and --registry-password go together"),
        };
        let metadata = ArtifactMetadata {
            function: format!("{}/{}", source.namespace, source.name),
            source_hash: built.source_hash.clone(),
            engine_version: built.engine_version.clone(),
        };
        let pushed = Registry::for_reference(&reference, credentials)
            .push(&reference, &built.wasm, &metadata)
            .await
            .with_context(|| format!("pushing to {reference}"))?;
        println!("  pushed {}", pushed.pinned);
        pushed_to = Some(pushed);
    }
    tracing::debug!(elapsed = ?started.elapsed(), "build command finished");
    Ok(Outcome {
        pushed: pushed_to,
        source_hash: built.source_hash,
        engine_version: built.engine_version,
    })
}
