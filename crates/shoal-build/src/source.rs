//! Reading a Function from disk: a JS file, a folder, or Kyma YAML.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

use shoal_api::{BuildInputs, DEFAULT_RUNTIME, Function};

use crate::BuildError;

/// A Function as found on disk.
#[derive(Debug, Clone)]
pub struct FunctionSource {
    /// The Function's name (from metadata, or the file or folder name).
    pub name: String,
    /// Its namespace (`default` unless the YAML says otherwise).
    pub namespace: String,
    /// What the build needs.
    pub inputs: BuildInputs,
    /// The parsed resource, when the source was Kyma YAML.
    pub function: Option<Function>,
    /// The path it came from.
    pub origin: PathBuf,
    /// Where its code is when it comes from Git (then `inputs` are filled
    /// by [`fetch_git_source`]).
    pub git: Option<crate::git::GitSpec>,
    /// The Secret named by the Git source's auth, with its type.
    pub git_auth: Option<shoal_api::RepositoryAuth>,
    /// The commit built, once fetched.
    pub commit: Option<String>,
}

/// Reads a Function from `path`: a `.js`/`.mjs`/`.cjs` file, a folder with
/// `handler.js` (and optionally `package.json`), or a Kyma Function YAML.
pub fn load_function(path: &Path) -> Result<FunctionSource, BuildError> {
    let read = |p: &Path| {
        std::fs::read_to_string(p).map_err(|e| BuildError::Invalid(format!("cannot read {}: {e}", p.display())))
    };
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if path.is_dir() {
        // A folder's files are its own: a symbolic link (a Git checkout can
        // hold one pointing anywhere) is followed only where it stays in the
        // folder (a mounted ConfigMap's keys are links into its `..data`).
        let read = |p: &Path| {
            let inside = match (p.canonicalize(), path.canonicalize()) {
                (Ok(file), Ok(folder)) => file.starts_with(folder),
                _ => true,
            };
            if !inside {
                return Err(BuildError::Invalid(format!(
                    "{} is a symbolic link out of its folder: a Function's handler.js and package.json must be files in it",
                    p.display()
                )));
            }
            read(p)
        };
        let handler = path.join("handler.js");
        if !handler.exists() {
            return Err(BuildError::Invalid(format!(
                "{} has no handler.js (a Function folder holds handler.js and optionally package.json)",
                path.display()
            )));
        }
        let package = path.join("package.json");
        let dependencies = if package.exists() { Some(read(&package)?) } else { None };
        return Ok(FunctionSource {
            name: name_from_path(path),
            namespace: "default".into(),
            inputs: BuildInputs {
                source: read(&handler)?,
                dependencies,
                runtime: DEFAULT_RUNTIME.into(),
                files: other_files(path)?,
            },
            function: None,
            origin: path.to_path_buf(),
            git: None,
            git_auth: None,
            commit: None,
        });
    }
    match ext {
        "js" | "mjs" | "cjs" => Ok(FunctionSource {
            name: name_from_path(path),
            namespace: "default".into(),
            inputs: BuildInputs {
                source: read(path)?,
                dependencies: None,
                runtime: DEFAULT_RUNTIME.into(),
                files: Default::default(),
            },
            function: None,
            origin: path.to_path_buf(),
            git: None,
            git_auth: None,
            commit: None,
        }),
        "yaml" | "yml" => {
            let function = Function::from_yaml(&read(path)?).map_err(|e| BuildError::Invalid(e.to_string()))?;
            shoal_api::validate(&function).map_err(|e| {
                let message = e.to_string();
                if message.contains("dependencies") {
                    BuildError::PackageJson(message)
                } else {
                    BuildError::Invalid(message)
                }
            })?;
            let git = function.spec.source.git_repository.clone();
            let inputs = match (function.build_inputs(), &git) {
                (Some(inputs), _) => inputs,
                // Filled from the commit by fetch_git_source.
                (None, Some(_)) => BuildInputs {
                    source: String::new(),
                    dependencies: None,
                    runtime: function.runtime().to_string(),
                    files: Default::default(),
                },
                (None, None) => return Err(BuildError::Invalid("the Function has no source".into())),
            };
            Ok(FunctionSource {
                name: function.metadata.name.clone().unwrap_or_else(|| name_from_path(path)),
                namespace: function.metadata.namespace.clone().unwrap_or_else(|| "default".into()),
                inputs,
                git: git.as_ref().map(|g| crate::git::GitSpec {
                    url: g.url.clone(),
                    reference: g
                        .reference
                        .clone()
                        .unwrap_or_else(|| crate::git::DEFAULT_REFERENCE.into()),
                    base_dir: g.base_dir.clone().unwrap_or_else(|| "/".into()),
                }),
                git_auth: git.and_then(|g| g.auth),
                function: Some(function),
                origin: path.to_path_buf(),
                commit: None,
            })
        }
        _ => Err(BuildError::Invalid(format!(
            "{} is not a Function: expected a .js file, a folder with handler.js, or a Kyma Function .yaml",
            path.display()
        ))),
    }
}

/// Most bytes of other files a Function folder may bring.
pub const MAX_OTHER_FILES_BYTES: u64 = 32 << 20;
/// Most other files a Function folder may bring.
pub const MAX_OTHER_FILES: usize = 5_000;

/// The files of a Function folder besides `handler.js` and `package.json`
/// (local modules, data), keyed by their path relative to the folder:
/// `require('./lib/x')` and `fs.readFileSync(__dirname + '/data.json')`
/// find them as in Kyma's pod. Installed dependencies (`node_modules`),
/// `package-lock.json` (the build resolves package.json itself) and hidden
/// entries (`.git`) are left out, and so are symbolic links: a build reads
/// nothing outside the folder.
///
/// # Errors
/// When the folder cannot be read, or holds more than
/// [`MAX_OTHER_FILES`] files or [`MAX_OTHER_FILES_BYTES`] bytes.
pub fn other_files(dir: &Path) -> Result<BTreeMap<String, Vec<u8>>, BuildError> {
    let mut files = BTreeMap::new();
    let mut total = 0u64;
    let mut pending = vec![PathBuf::new()];
    let unreadable = |p: &Path, e: std::io::Error| BuildError::Invalid(format!("cannot read {}: {e}", p.display()));
    while let Some(rel) = pending.pop() {
        let here = dir.join(&rel);
        let entries = std::fs::read_dir(&here).map_err(|e| unreadable(&here, e))?;
        for entry in entries {
            let entry = entry.map_err(|e| unreadable(&here, e))?;
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            let top = rel.as_os_str().is_empty();
            // `__shoal_*` names are the build's own files in the same folder.
            if name.starts_with('.')
                || name.starts_with("__shoal_")
                || (top
                    && matches!(
                        name,
                        "node_modules" | "handler.js" | "package.json" | "package-lock.json"
                    ))
            {
                continue;
            }
            let kind = entry.file_type().map_err(|e| unreadable(&entry.path(), e))?;
            let path = rel.join(name);
            if kind.is_dir() {
                pending.push(path);
            } else if kind.is_file() {
                let content = std::fs::read(entry.path()).map_err(|e| unreadable(&entry.path(), e))?;
                total += content.len() as u64;
                if total > MAX_OTHER_FILES_BYTES || files.len() >= MAX_OTHER_FILES {
                    return Err(BuildError::Invalid(format!(
                        "{} holds more than {MAX_OTHER_FILES} files or {} MiB besides handler.js and package.json: a Function's folder holds its code, not its dependencies or build output",
                        dir.display(),
                        MAX_OTHER_FILES_BYTES >> 20
                    )));
                }
                if let Some(key) = path.to_str() {
                    files.insert(key.to_owned(), content);
                }
            }
        }
    }
    Ok(files)
}

/// A Function whose code is in Git: `git+URL#REF:DIR` (see
/// [`crate::git::GitSpec`]), named after the repository's last path part
/// (or `DIR`'s).
pub fn git_function(spec: crate::git::GitSpec) -> FunctionSource {
    let stem = spec
        .base_dir
        .trim_matches('/')
        .rsplit('/')
        .next()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| {
            spec.url
                .trim_end_matches('/')
                .trim_end_matches(".git")
                .rsplit('/')
                .next()
                .unwrap_or("function")
        });
    FunctionSource {
        name: name_from_path(Path::new(stem)),
        namespace: "default".into(),
        inputs: BuildInputs {
            source: String::new(),
            dependencies: None,
            runtime: DEFAULT_RUNTIME.into(),
            files: Default::default(),
        },
        function: None,
        origin: PathBuf::from(format!("git+{}", crate::git::scrub(&spec.url))),
        git: Some(spec),
        git_auth: None,
        commit: None,
    }
}

/// Fetches a Git Function's commit into `work` and fills its inputs from
/// `baseDir` (handler.js, package.json and the folder's other files, as a
/// Function folder). Records the commit built.
///
/// # Errors
/// The Git error (unreachable, authentication failed, unknown reference,
/// missing baseDir or handler.js), or reading the folder failed.
pub async fn fetch_git_source(
    source: &mut FunctionSource,
    auth: crate::git::GitAuth,
    work: &Path,
) -> Result<(), BuildError> {
    let Some(spec) = source.git.clone() else { return Ok(()) };
    let remote = crate::git::GitRemote::new(&spec.url, auth);
    let commit = remote.resolve(&spec.reference).await.map_err(BuildError::Git)?;
    let checkout = remote
        .checkout(&commit, &spec.base_dir, work)
        .await
        .map_err(BuildError::Git)?;
    let folder = load_function(&checkout.dir)?;
    source.inputs = BuildInputs {
        runtime: source.inputs.runtime.clone(),
        ..folder.inputs
    };
    source.commit = Some(checkout.commit);
    Ok(())
}

/// Static environment of a Function from YAML: `spec.env` entries with a
/// plain `value` (references to ConfigMaps and Secrets need a cluster).
pub fn static_env(function: &Function) -> BTreeMap<String, String> {
    function
        .spec
        .env
        .iter()
        .filter_map(|e| e.value.clone().map(|v| (e.name.clone(), v)))
        .collect()
}

fn name_from_path(path: &Path) -> String {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("function");
    let mut name: String = stem
        .to_ascii_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    name = name.trim_matches('-').to_string();
    if !name.starts_with(|c: char| c.is_ascii_lowercase()) {
        name = format!("fn-{name}");
    }
    name.truncate(63);
    name.trim_end_matches('-').to_string()
}
