//! Shoal's JavaScript engine: a Javy plugin (QuickJS) for wasm32-wasip1.
//!
//! Generated Function modules are linked against it dynamically (they import
//! `memory`, `cabi_realloc` and `invoke` from the `shoal_engine_v1` namespace),
//! so one compiled copy of the engine serves every Function on a node.
//!
//! Beyond Javy's stock APIs (console on stderr, `Javy.IO`, JSON,
//! TextEncoder/TextDecoder, an event loop for Promises, `WeakRef`,
//! `performance`) it adds:
//! - `__shoal_jobsPending()`: whether the microtask queue still has work, so
//!   the prelude's event loop knows when to wait;
//! - `__shoal_native` ([`native`]): hashing, HMAC, PBKDF2, a CSPRNG, zlib,
//!   WHATWG URL parsing and read-only files, behind Node's `crypto`, `zlib`,
//!   `URL` and `fs`, and public-key cryptography ([`crypto`]);
//! - `__shoal_host` ([`host`]): outbound HTTP performed by the node, and the
//!   event loop's wait for timers and completed calls.

use javy_plugin_api::{
    Config, import_namespace,
    javy::{
        Runtime,
        quickjs::{Ctx, Function, qjs},
    },
};

mod cipher;
mod crypto;
mod host;
mod intl;
mod native;

import_namespace!("shoal_engine_v1");

fn config() -> Config {
    let mut config = Config::default();
    config
        .text_encoding(true)
        .javy_stream_io(true)
        .simd_json_builtins(true)
        // Console output is the Function's log, which the host reads from
        // stderr; responses travel through the host imports, never stdio.
        .redirect_stdout_to_stderr(true)
        .weak_ref(true)
        .performance(true);
    config.event_loop(true);
    config
}

fn jobs_pending(ctx: Ctx<'_>) -> bool {
    // SAFETY: the context pointer is live for the duration of this call, and
    // JS_IsJobPending only reads the runtime's job list.
    unsafe { qjs::JS_IsJobPending(qjs::JS_GetRuntime(ctx.as_raw().as_ptr())) as i32 != 0 }
}

fn add_shoal_globals(runtime: Runtime) -> Runtime {
    let installed = runtime.context().with(|ctx| {
        let globals = ctx.globals();
        globals.set("__shoal_jobsPending", Function::new(ctx.clone(), jobs_pending)?)?;
        native::install(&ctx)?;
        intl::js::install(&ctx)?;
        host::install(&ctx)?;
        Ok::<_, javy_plugin_api::javy::quickjs::Error>(())
    });
    if let Err(e) = installed {
        panic!("installing Shoal globals: {e}");
    }
    runtime
}

/// Run once at build time under Wizer (`shoal engine-init`); the snapshot is
/// what gets committed as `shoal-engine.wasm`.
#[unsafe(export_name = "initialize-runtime")]
pub extern "C" fn initialize_runtime() {
    // Touch the environment while real WASI is present (under Wizer) so
    // wasi-libc's lazily built `environ` and std's backtrace setting land in
    // the snapshot. Otherwise the first error inside `compile-src` (which
    // javy-codegen runs with stubbed WASI) traps instead of reporting the JS
    // syntax error.
    let _ = std::backtrace::Backtrace::capture();
    if let Err(e) = javy_plugin_api::initialize_runtime(config, add_shoal_globals) {
        panic!("initializing the Javy runtime: {e}");
    }
}
