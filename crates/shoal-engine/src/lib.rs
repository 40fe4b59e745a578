//! Shoal's JavaScript engine: a Javy plugin (QuickJS compiled to
//! wasm32-wasip1) that every Function module links against.
//!
//! This crate owns the plugin's source (`plugin/`), the script that builds it
//! (`build-engine.sh`) and the committed, Wizer-initialized result
//! (`shoal-engine.wasm`, described by `engine.json`). Committing the binary
//! means `cargo build` needs no wasm toolchain; the test in this crate fails
//! when the plugin's sources change without the engine being rebuilt.
//!
//! It also declares the host ABI the engine imports ([`abi`]).
//!
//! It must not compile or run anything: the builder (`shoal-build`) and
//! the node (`shoal-node`) instantiate it through `shoal-runtime`.

pub mod abi;

use std::{
    io,
    path::{Path, PathBuf},
    sync::OnceLock,
};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The initialized engine plugin.
pub static ENGINE_WASM: &[u8] = include_bytes!("../shoal-engine.wasm");

/// The namespace dynamically linked Function modules import the engine from.
pub const IMPORT_NAMESPACE: &str = "shoal_engine_v1";

static MANIFEST_JSON: &str = include_str!("../engine.json");

/// What `engine.json` records about the committed engine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineManifest {
    /// Hash of the plugin sources the engine was built from ([`plugin_source_hash`]).
    pub source_sha256: String,
    /// Hash of `shoal-engine.wasm`.
    pub wasm_sha256: String,
    /// Size of `shoal-engine.wasm` in bytes.
    pub wasm_bytes: u64,
    /// The javy-plugin-api version the plugin is built on.
    pub javy_plugin_api: String,
    /// rustc, clang and wasi-libc versions used by `build-engine.sh`.
    pub toolchain: String,
}

/// The manifest of the committed engine.
pub fn manifest() -> &'static EngineManifest {
    static MANIFEST: OnceLock<EngineManifest> = OnceLock::new();
    MANIFEST.get_or_init(|| match serde_json::from_str(MANIFEST_JSON) {
        Ok(m) => m,
        // A malformed engine.json is a broken checkout, caught by this crate's tests.
        Err(e) => panic!("crates/shoal-engine/engine.json is malformed: {e}"),
    })
}

/// A short, stable name for this engine build, recorded in every artifact
/// so a node can tell which engine a module was generated against.
pub fn engine_version() -> &'static str {
    static VERSION: OnceLock<String> = OnceLock::new();
    VERSION.get_or_init(|| {
        let hash = &manifest().wasm_sha256;
        format!("{IMPORT_NAMESPACE}+{}", &hash[..hash.len().min(12)])
    })
}

/// The plugin crate's directory in a source checkout.
pub fn plugin_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("plugin")
}

/// Hex SHA-256 of a byte string.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Hashes every input of the engine build: the plugin's manifest, lock file,
/// sources, and the build script (a flag change there changes the output).
pub fn plugin_source_hash(plugin_dir: &Path) -> io::Result<String> {
    let mut files = vec![
        plugin_dir.join("Cargo.toml"),
        plugin_dir.join("Cargo.lock"),
        plugin_dir.join("../build-engine.sh"),
    ];
    let mut stack = vec![plugin_dir.join("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files.push(path);
            }
        }
    }
    let mut named: Vec<(String, PathBuf)> = files
        .into_iter()
        .map(|p| {
            let name = p
                .strip_prefix(plugin_dir)
                .map(|r| r.to_string_lossy().replace('\\', "/"))
                .unwrap_or_else(|_| "build-engine.sh".to_string());
            (name, p)
        })
        .collect();
    named.sort();
    let mut hasher = Sha256::new();
    for (name, path) in named {
        let content = std::fs::read(&path)?;
        hasher.update(name.as_bytes());
        hasher.update([0]);
        hasher.update((content.len() as u64).to_le_bytes());
        hasher.update(&content);
    }
    Ok(hex::encode(hasher.finalize()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn committed_engine_matches_its_manifest() {
        let m = manifest();
        assert_eq!(m.wasm_bytes as usize, ENGINE_WASM.len());
        assert_eq!(
            m.wasm_sha256,
            sha256_hex(ENGINE_WASM),
            "shoal-engine.wasm does not match engine.json: rebuild with crates/shoal-engine/build-engine.sh"
        );
    }

    #[test]
    fn committed_engine_was_built_from_these_sources() {
        let hash = plugin_source_hash(&plugin_dir()).expect("reading the plugin sources");
        assert_eq!(
            manifest().source_sha256,
            hash,
            "the engine plugin's sources changed but shoal-engine.wasm was not rebuilt: \
             run crates/shoal-engine/build-engine.sh and commit the result"
        );
    }
}
