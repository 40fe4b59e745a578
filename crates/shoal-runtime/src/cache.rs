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
        self.load_or_compile_as(engine, wasm, &shoal_engine::sha256_hex(wasm))
    }

    /// [`Self::load_or_compile`] for a `wasm` whose SHA-256 (hex) the
    /// caller has: `digest`.
    pub(crate) fn load_or_compile_as(
        &self,
        engine: &Engine,
        wasm: &[u8],
        digest: &str,
    ) -> Result<Module, RuntimeError> {
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
        let compiled = Module::new(engine, wasm).map_err(RuntimeError::InvalidModule)?;
        let bytes = compiled.serialize().map_err(RuntimeError::InvalidModule)?;
        let tmp = self.dir.join(format!("{digest}.{}.tmp", std::process::id()));
        std::fs::write(&tmp, bytes)?;
        std::fs::rename(&tmp, &path)?;
        // Served from the file just written rather than from the compiled
        // copy: its code and data are then clean file pages the kernel can
        // drop and read again, not anonymous memory the node holds for
        // every loaded Function (86 KiB each of 10,000 hello worlds
        // compiled in-process, against 38 KiB mapped from their files).
        //
        // SAFETY: as above; this process wrote the file a moment ago.
        match unsafe { Module::deserialize_file(engine, &path) } {
            Ok(module) => Ok(module),
            Err(e) => {
                tracing::warn!(path = %path.display(), error = %e, "serving a module compiled in memory: its precompiled file does not load");
                Ok(compiled)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The address ranges of this process mapped from `path`.
    fn mapped_from(path: &Path) -> Vec<std::ops::Range<usize>> {
        let maps = std::fs::read_to_string("/proc/self/maps").unwrap_or_default();
        let wanted = path.to_string_lossy();
        maps.lines()
            .filter(|line| line.ends_with(wanted.as_ref()))
            .filter_map(|line| {
                let (start, end) = line.split_whitespace().next()?.split_once('-')?;
                Some(usize::from_str_radix(start, 16).ok()?..usize::from_str_radix(end, 16).ok()?)
            })
            .collect()
    }

    #[test]
    fn a_module_compiled_into_the_cache_is_served_from_its_file() {
        let engine = Engine::default();
        let root = tempfile::tempdir().expect("tempdir");
        let cache = ModuleCache::new(&engine, root.path().to_path_buf()).expect("cache");
        let wasm = b"\0asm\x01\0\0\0\x01\x04\x01\x60\0\0\x03\x02\x01\0\x0a\x04\x01\x02\0\x0b";
        for load in ["compiled", "from the cache"] {
            let module = cache.load_or_compile(&engine, wasm).expect("module");
            let file = cache.dir().join(format!("{}.cwasm", shoal_engine::sha256_hex(wasm)));
            let image = module.image_range();
            let start = image.start as usize;
            assert!(
                mapped_from(&file).iter().any(|range| range.contains(&start)),
                "{load}: the module's image is not mapped from {}",
                file.display()
            );
        }
    }
}
