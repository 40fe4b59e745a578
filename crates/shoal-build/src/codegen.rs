//! From a bundle to a Function module, and the engine's own initialization.
//!
//! A dynamically linked module (the default) is small and written here: the
//! bundle's QuickJS bytecode in a passive data segment and a `_start` that
//! copies it into the engine's memory and calls the engine's `invoke`, the
//! layout javy-codegen gives such modules. The bytecode comes from the
//! node's own runtime ([`Runtime::compile_js`]), whose compiled engine is
//! cached, so a build does not compile the 2 MB engine with Cranelift as
//! javy-codegen does on every call. Static linking (the engine copied into
//! every module) still goes through javy-codegen.

use std::borrow::Cow;

use javy_codegen::{Generator, JS, LinkingKind, Plugin, SourceEmbedding};
use wasmtime::{Engine, Linker, Store};
use wasmtime_wasi::WasiCtxBuilder;
use wasmtime_wizer::Wizer;

use shoal_runtime::{Runtime, RuntimeError};
use wasm_encoder::{
    CodeSection, DataCountSection, DataSection, EntityType, ExportKind, ExportSection, Function, FunctionSection,
    ImportSection, MemoryType, Module, ProducersField, ProducersSection, TypeSection, ValType,
};

use crate::{BuildError, Linking};

/// Compiles a bundled ES module to a Wasm module.
pub(crate) async fn generate(runtime: &Runtime, bundle: &str, linking: Linking) -> Result<Vec<u8>, BuildError> {
    match linking {
        Linking::Dynamic => {
            let bytecode = runtime.compile_js(bundle.as_bytes()).await.map_err(|e| match e {
                RuntimeError::JsCompile(message) => BuildError::Compile(clean_javy_error(&message)),
                other => BuildError::Compile(format!("{other:#}")),
            })?;
            Ok(dynamic_module(&bytecode))
        }
        Linking::Static => generate_static(bundle).await,
    }
}

/// A module that runs `bytecode` on the engine it imports from
/// [`shoal_engine::IMPORT_NAMESPACE`].
fn dynamic_module(bytecode: &[u8]) -> Vec<u8> {
    const CABI_REALLOC: u32 = 0;
    const INVOKE: u32 = 1;
    const START: u32 = 2;
    let namespace = shoal_engine::IMPORT_NAMESPACE;
    let len = bytecode.len() as i32;
    let mut module = Module::new();

    let mut types = TypeSection::new();
    types.ty().function([ValType::I32; 4], [ValType::I32]);
    types.ty().function([ValType::I32; 5], []);
    types.ty().function([], []);
    module.section(&types);

    let mut imports = ImportSection::new();
    imports.import(namespace, "cabi_realloc", EntityType::Function(0));
    imports.import(namespace, "invoke", EntityType::Function(1));
    imports.import(
        namespace,
        "memory",
        EntityType::Memory(MemoryType {
            minimum: 0,
            maximum: None,
            memory64: false,
            shared: false,
            page_size_log2: None,
        }),
    );
    module.section(&imports);

    let mut functions = FunctionSection::new();
    functions.function(2);
    module.section(&functions);

    let mut exports = ExportSection::new();
    exports.export("_start", ExportKind::Func, START);
    module.section(&exports);
    module.section(&DataCountSection { count: 1 });

    // _start: ptr = cabi_realloc(0, 0, 1, len); memory.init(ptr, 0, len);
    // invoke(ptr, len, none, 0, 0): evaluate the module's top level.
    let mut start = Function::new([(1, ValType::I32)]);
    start
        .instructions()
        .i32_const(0)
        .i32_const(0)
        .i32_const(1)
        .i32_const(len)
        .call(CABI_REALLOC)
        .local_tee(0)
        .i32_const(0)
        .i32_const(len)
        .memory_init(0, 0)
        .local_get(0)
        .i32_const(len)
        .i32_const(0)
        .i32_const(0)
        .i32_const(0)
        .call(INVOKE)
        .end();
    let mut code = CodeSection::new();
    code.function(&start);
    module.section(&code);

    let mut data = DataSection::new();
    data.passive(bytecode.iter().copied());
    module.section(&data);

    let mut tools = ProducersField::new();
    tools.value("shoal", shoal_engine::engine_version());
    let mut producers = ProducersSection::new();
    producers.field("processed-by", &tools);
    module.section(&producers);
    module.finish()
}

/// A statically linked module, through javy-codegen.
async fn generate_static(bundle: &str) -> Result<Vec<u8>, BuildError> {
    let plugin = Plugin::new(Cow::Borrowed(shoal_engine::ENGINE_WASM))
        .map_err(|e| BuildError::Compile(format!("the committed engine is not a valid Javy plugin: {e}")))?;
    let mut generator = Generator::new(plugin);
    generator
        .linking(LinkingKind::Static)
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
