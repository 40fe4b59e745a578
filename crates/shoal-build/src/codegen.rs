//! javy-codegen against Shoal's engine, and the engine's own initialization.

use std::borrow::Cow;

use javy_codegen::{Generator, JS, LinkingKind, Plugin, SourceEmbedding};
use wasmtime::{Engine, Linker, Store};
use wasmtime_wasi::WasiCtxBuilder;
use wasmtime_wizer::Wizer;

use crate::{BuildError, Linking};

/// Compiles a bundled ES module to a Wasm module.
pub(crate) async fn generate(bundle: &str, linking: Linking) -> Result<Vec<u8>, BuildError> {
    let plugin = Plugin::new(Cow::Borrowed(shoal_engine::ENGINE_WASM))
        .map_err(|e| BuildError::Compile(format!("the committed engine is not a valid Javy plugin: {e}")))?;
    let mut generator = Generator::new(plugin);
    generator
        .linking(match linking {
            Linking::Dynamic => LinkingKind::Dynamic,
            Linking::Static => LinkingKind::Static,
        })
        // The bundle is rebuilt from the Function's source on demand; keeping
        // a copy in every module only costs node memory.
        .source_embedding(SourceEmbedding::Omitted)
        // Fixed clocks and randomness while Wizer snapshots a static module:
        // the same bundle must give the same bytes (and artifact digest).
        .deterministic(true)
        .producer_version(shoal_engine::engine_version().to_string());
    generator
        .generate(&JS::from_string(bundle.to_string()))
        .await
        .map_err(|e| BuildError::Compile(clean_javy_error(&format!("{e:#}"))))
}

fn clean_javy_error(message: &str) -> String {
    // Javy names every script "function.mjs"; the bundle is what it compiled.
    message.replace("function.mjs", "bundle.js")
}

/// Initializes a freshly built engine plugin, as `javy init-plugin` does: runs
/// its `initialize-runtime` export under Wizer and keeps the export, which
/// javy-codegen re-runs for static linking. Used by `build-engine.sh`.
pub async fn init_engine(raw: &[u8]) -> Result<Vec<u8>, BuildError> {
    let engine = Engine::default();
    let wasi = WasiCtxBuilder::new().inherit_stderr().build_p1();
    let mut store = Store::new(&engine, wasi);
    let wasm = Wizer::new()
        .init_func("initialize-runtime")
        .keep_init_func(true)
        .run(&mut store, raw, async |store, module| {
            let mut linker = Linker::new(store.engine());
            wasmtime_wasi::p1::add_to_linker_async(&mut linker, |cx| cx)?;
            linker.define_unknown_imports_as_traps(module)?;
            linker.instantiate_async(store, module).await
        })
        .await
        .map_err(|e| BuildError::Compile(format!("initializing the engine under Wizer: {e:#}")))?;
    Plugin::new(Cow::Owned(wasm.clone()))
        .map_err(|e| BuildError::Compile(format!("javy-codegen refuses the initialized engine: {e:#}")))?;
    Ok(wasm)
}
