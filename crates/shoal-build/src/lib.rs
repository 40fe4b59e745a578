//! Builds a Kyma Function's JavaScript into a WebAssembly module.
//!
//! The pipeline, in order: check the inputs ([`shoal_api`] rules); install
//! the package.json's dependencies with npm; bundle the handler, its
//! dependencies and Shoal's prelude (`js/prelude.js`, the Kyma handler
//! contract) into one ES module with esbuild; compile that to QuickJS
//! bytecode with Shoal's engine and write a small Wasm module carrying it
//! (it imports the engine); and run the result once in wasmtime to prove it
//! exports a `main` function.
//!
//! A Function's code comes from a file, a folder, Kyma YAML, or a Git
//! repository ([`git`]: one commit fetched with the `git` command).
//!
//! This crate owns the JavaScript side of the host ABI (the prelude) and the
//! build. It does not push artifacts (`shoal-oci`) or serve (`shoal-node`).

mod bundle;
mod codegen;
mod source;

/// Git sources ([`shoal_git`]).
pub use shoal_git as git;

use std::{
    collections::BTreeMap,
    path::PathBuf,
    sync::Arc,
    time::{Duration, Instant},
};

pub use bundle::JsTools;
pub use codegen::init_engine;
pub use shoal_api::BuildInputs;
use shoal_runtime::{InvokeLimits, Runtime};
pub use source::{
    FunctionSource, MAX_OTHER_FILES, MAX_OTHER_FILES_BYTES, fetch_git_source, git_function, load_function, other_files,
    static_env,
};

/// Why a build failed. Every message is meant for the Function's author.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The Function breaks a rule of the API (runtime, empty source, ...).
    #[error("invalid Function: {0}")]
    Invalid(String),
    /// The package.json is not usable.
    #[error("invalid package.json: {0}")]
    PackageJson(String),
    /// npm could not install a dependency.
    #[error("npm install failed: {0}")]
    Npm(String),
    /// The bundler rejected the code (syntax errors land here, with
    /// file:line:column).
    #[error("{0}")]
    Bundle(String),
    /// The engine could not compile the bundle.
    #[error("compiling JavaScript to Wasm failed: {0}")]
    Compile(String),
    /// The module does not export a usable `main`.
    #[error("{0}")]
    NoMain(String),
    /// A tool (node, npm, esbuild) is missing or failed to start.
    #[error("build tooling: {0}")]
    Tooling(String),
    /// Reading or writing build files failed.
    #[error("reading or writing build files failed")]
    Io(#[from] std::io::Error),
    /// The Git source could not be had.
    #[error("the Git source could not be fetched")]
    Git(#[source] git::GitError),
}

/// A built Function module.
#[derive(Debug, Clone)]
pub struct BuiltFunction {
    /// The Wasm module: the bundle's bytecode, importing the node's shared
    /// engine.
    pub wasm: Vec<u8>,
    /// [`BuildInputs::hash`] of what it was built from.
    pub source_hash: String,
    /// The engine it runs on ([`shoal_engine::engine_version`]).
    pub engine_version: String,
    /// Size of the bundled JavaScript.
    pub bundle_bytes: usize,
    /// What the build could not check and why (for the author's eyes).
    pub warnings: Vec<String>,
    /// Where the time went.
    pub timings: BuildTimings,
}

/// Time spent in each build step.
#[derive(Debug, Clone, Default)]
pub struct BuildTimings {
    /// npm install (zero without dependencies).
    pub npm: Duration,
    /// esbuild.
    pub bundle: Duration,
    /// Compiling the bundle to bytecode and writing the module.
    pub codegen: Duration,
    /// Loading and probing the module.
    pub check: Duration,
    /// The whole build.
    pub total: Duration,
}

/// Builds Functions. Cheap to clone; holds the runtime used to check results.
#[derive(Clone)]
pub struct Builder {
    tools: JsTools,
    runtime: Arc<Runtime>,
}

impl Builder {
    /// A builder using `tools` for npm/esbuild and `runtime` to check modules.
    pub fn new(tools: JsTools, runtime: Arc<Runtime>) -> Self {
        Self { tools, runtime }
    }

    /// Builds one Function.
    ///
    /// # Errors
    /// A [`BuildError`] saying what is wrong with the Function or the tools.
    pub async fn build(&self, inputs: &BuildInputs) -> Result<BuiltFunction, BuildError> {
        self.build_with_env(inputs, &BTreeMap::new()).await
    }

    /// Builds one Function, loading it for the check with `env` (its plain
    /// `spec.env` values, where known: code that reads other variables
    /// while loading is not failed for it, only warned about).
    ///
    /// # Errors
    /// A [`BuildError`] saying what is wrong with the Function or the tools.
    pub async fn build_with_env(
        &self,
        inputs: &BuildInputs,
        env: &BTreeMap<String, String>,
    ) -> Result<BuiltFunction, BuildError> {
        let started = Instant::now();
        check_inputs(inputs)?;
        let mut timings = BuildTimings::default();

        let work = tempfile::Builder::new().prefix("shoal-build-").tempdir()?;
        let (bundle, bundle_warnings) = self.tools.bundle(work.path(), inputs, &mut timings).await?;

        let t = Instant::now();
        let wasm = codegen::generate(&self.runtime, &bundle).await?;
        timings.codegen = t.elapsed();

        let t = Instant::now();
        let mut warnings = bundle_warnings;
        warnings.extend(self.check_main(&wasm, &inputs.runtime, env).await?);
        timings.check = t.elapsed();
        timings.total = started.elapsed();

        Ok(BuiltFunction {
            wasm,
            source_hash: inputs.hash(),
            engine_version: shoal_engine::engine_version().to_string(),
            bundle_bytes: bundle.len(),
            warnings,
            timings,
        })
    }

    /// Runs the module once with a probe request: the prelude loads the
    /// handler and answers whether `main` is a function; a warning when it
    /// could not tell for want of env.
    async fn check_main(
        &self,
        wasm: &[u8],
        runtime: &str,
        env: &BTreeMap<String, String>,
    ) -> Result<Option<String>, BuildError> {
        let module = self.runtime.load(wasm).map_err(|e| {
            BuildError::Compile(format!(
                "the generated module does not load: {}",
                shoal_runtime::causes(&e)
            ))
        })?;
        // A head of its own (`probe`), which the prelude answers instead of
        // calling the handler. The Function's runtime decides what loads
        // (nodejs26's `sdk` module).
        let head = serde_json::json!({
            "v": shoal_envelope::ENVELOPE_VERSION, "probe": true, "method": "GET", "path": "/",
            "query": "", "headers": [], "env": env,
            "function": {"name": "probe", "namespace": "probe", "runtime": runtime, "timeout": 10, "bodySizeLimit": 1},
        });
        let probe = shoal_runtime::GuestRequest {
            head: head.to_string().into(),
            body: bytes::Bytes::new(),
            trace: None,
        };
        let limits = InvokeLimits {
            timeout: Duration::from_secs(10),
            ..InvokeLimits::default()
        };
        let run = self.runtime.invoke(&module, probe, limits).await;
        let logs = String::from_utf8_lossy(&run.logs).trim().to_string();
        if let Some(err) = &run.error {
            return Err(BuildError::NoMain(format!(
                "loading the Function failed: {err}\n{logs}"
            )));
        }
        let answer = String::from_utf8_lossy(&run.body);
        match run.response_head() {
            Ok(head) if head.status == 200 => Ok(answer.starts_with("not checked:").then(|| answer.into_owned())),
            Ok(_) => Err(BuildError::NoMain(answer.into_owned())),
            Err(e) => Err(BuildError::NoMain(format!(
                "the Function's code failed to load ({e}): {logs}"
            ))),
        }
    }
}

fn check_inputs(inputs: &BuildInputs) -> Result<(), BuildError> {
    shoal_api::check_runtime(&inputs.runtime).map_err(BuildError::Invalid)?;
    if inputs.source.trim().is_empty() {
        return Err(BuildError::Invalid(
            "the source is empty: a Function needs code that exports main".into(),
        ));
    }
    if let Some(deps) = &inputs.dependencies {
        shoal_api::check_dependencies(deps).map_err(BuildError::PackageJson)?;
    }
    Ok(())
}

/// Where the JavaScript build tools live by default: `js/` beside this crate
/// in a source checkout, or `SHOAL_JS_TOOLS` (as set in the builder image).
pub fn default_js_tools_dir() -> PathBuf {
    std::env::var_os("SHOAL_JS_TOOLS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/js")))
}
