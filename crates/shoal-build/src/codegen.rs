//! From a bundle to a Function module, and the engine's own initialization.
//!
//! A Function module is small and written here: the bundle's QuickJS
//! bytecode in a passive data segment and a `_start` that copies it into
//! the engine's memory and calls the engine's `invoke`. It imports the
//! engine (one instance per sandbox, compiled once per node), so a module is
//! a few kilobytes and a node holds one engine for thousands of Functions.
//! It exports [`shoal_runtime::SNAPSHOT_EXPORT`]: its prelude can load the
//! module without a request, so the node may keep that state as the
//! Function's snapshot.
//! The bytecode comes from the node's own runtime ([`Runtime::compile_js`]),
//! whose compiled engine is cached, so a build does not compile the 2 MB
//! engine again.

use wasmtime::{Engine, Linker, Store};
use wasmtime_wasi::WasiCtxBuilder;
use wasmtime_wizer::Wizer;

use shoal_runtime::{Runtime, RuntimeError};
use wasm_encoder::{
    CodeSection, ConstExpr, DataCountSection, DataSection, EntityType, ExportKind, ExportSection, Function,
    FunctionSection, GlobalSection, GlobalType, ImportSection, MemoryType, Module, ProducersField, ProducersSection,
    TypeSection, ValType,
};

use crate::BuildError;

/// The engine's exports a Function module and the builder use.
const ENGINE_EXPORTS: [&str; 4] = ["memory", "cabi_realloc", "invoke", "compile-src"];

/// Compiles a bundled ES module to a Wasm module.
pub(crate) async fn generate(runtime: &Runtime, bundle: &str) -> Result<Vec<u8>, BuildError> {
    let bytecode = runtime.compile_js(bundle.as_bytes()).await.map_err(|e| match e {
        RuntimeError::JsCompile(message) => BuildError::Compile(clean_engine_error(&message)),
        other => BuildError::Compile(shoal_runtime::causes(&other)),
    })?;
    Ok(dynamic_module(&bytecode))
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

    // The marker's value is the snapshot protocol's version.
    let mut globals = GlobalSection::new();
    globals.global(
        GlobalType {
            val_type: ValType::I32,
            mutable: false,
            shared: false,
        },
        &ConstExpr::i32_const(1),
    );
    module.section(&globals);

    let mut exports = ExportSection::new();
    exports.export("_start", ExportKind::Func, START);
    exports.export(shoal_runtime::SNAPSHOT_EXPORT, ExportKind::Global, 0);
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

fn clean_engine_error(message: &str) -> String {
    // The engine names every script "function.mjs"; the bundle is what it
    // compiled.
    message.replace("function.mjs", "bundle.js")
}

/// Initializes a freshly built engine plugin, as `javy init-plugin` does:
/// runs its `initialize-runtime` export under Wizer (and keeps the export,
/// as Javy's plugin format expects), then checks the result has what
/// Function modules and the builder use. Used by `build-engine.sh`.
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
    let initialized = wasmtime::Module::new(&engine, &wasm)
        .map_err(|e| BuildError::Compile(format!("the initialized engine does not load: {e:#}")))?;
    for name in ENGINE_EXPORTS {
        if initialized.get_export(name).is_none() {
            return Err(BuildError::Compile(format!(
                "the initialized engine does not export {name}"
            )));
        }
    }
    Ok(wasm)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine build's last step, on the committed engine: Wizer runs its
    /// initializer again and the result still exports what Function
    /// modules and the builder use (build-engine.sh is the only other caller).
    #[tokio::test]
    async fn an_engine_initializes_under_wizer_and_keeps_what_function_modules_use() {
        let initialized = init_engine(shoal_engine::ENGINE_WASM).await.expect("initialized");
        let module = wasmtime::Module::new(&Engine::default(), &initialized).expect("it loads");
        for name in ENGINE_EXPORTS {
            assert!(module.get_export(name).is_some(), "{name} is exported");
        }
        assert!(
            init_engine(b"\0asm\x01\0\0\0").await.is_err(),
            "a module without the initializer is refused"
        );
    }
}
