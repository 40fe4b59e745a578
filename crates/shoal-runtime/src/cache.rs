//! Precompiled modules on disk, keyed by module digest and engine
//! fingerprint, so a module is compiled once per engine configuration rather
//! than once per process start.

use std::{
    hash::{Hash, Hasher},
    io,
    path::{Path, PathBuf},
};

use wasmtime::{Engine, Module};

use crate::RuntimeError;

/// A directory of `<sha256>.cwasm` files for one engine configuration.
#[derive(Debug, Clone)]
pub struct ModuleCache {
    dir: PathBuf,
}

impl ModuleCache {
    /// Opens (creating) the cache directory for `engine`'s configuration.
    pub fn new(engine: &Engine, root: PathBuf) -> io::Result<Self> {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        engine.precompile_compatibility_hash().hash(&mut hasher);
        let dir = root.join(format!("{:016x}", hasher.finish()));
        std::fs::create_dir_all(&dir)?;
        Ok(Self { dir })
    }

    /// The directory holding this engine's entries.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Loads the precompiled form of `wasm`, compiling and storing it first
    /// when absent.
    pub fn load_or_compile(&self, engine: &Engine, wasm: &[u8]) -> Result<Module, RuntimeError> {
        let digest = shoal_engine::sha256_hex(wasm);
        let path = self.dir.join(format!("{digest}.cwasm"));
        if path.exists() {
            // SAFETY: files in this directory are written only by
            // `Module::serialize` of this engine configuration (the directory
            // name is the engine's compatibility hash), and renamed into
            // place atomically, so they are complete and trusted.
            match unsafe { Module::deserialize_file(engine, &path) } {
                Ok(module) => return Ok(module),
                Err(e) => tracing::warn!(path = %path.display(), error = %e, "discarding unusable precompiled module"),
            }
        }
        let module = Module::new(engine, wasm).map_err(RuntimeError::InvalidModule)?;
        let bytes = module.serialize().map_err(RuntimeError::InvalidModule)?;
        let tmp = self.dir.join(format!("{digest}.{}.tmp", std::process::id()));
        std::fs::write(&tmp, bytes)?;
        std::fs::rename(&tmp, &path)?;
        Ok(module)
    }
}
