//! `shoal engine-init`: Wizer-initialize the raw engine plugin and record it
//! with the hash of the sources it came from.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

#[derive(Args)]
pub struct EngineInitArgs {
    /// The raw plugin built by cargo for wasm32-wasip1.
    raw: PathBuf,
    /// Toolchain description recorded in engine.json.
    #[arg(long)]
    toolchain: String,
}

pub async fn run(args: EngineInitArgs) -> anyhow::Result<()> {
    let raw = std::fs::read(&args.raw).with_context(|| format!("reading {}", args.raw.display()))?;
    let wasm = shoal_build::init_engine(&raw).await?;
    let plugin_dir = shoal_engine::plugin_dir();
    let crate_dir = plugin_dir.parent().context("engine crate directory")?.to_path_buf();
    let manifest = shoal_engine::EngineManifest {
        source_sha256: shoal_engine::plugin_source_hash(&plugin_dir)?,
        wasm_sha256: shoal_engine::sha256_hex(&wasm),
        wasm_bytes: wasm.len() as u64,
        javy_plugin_api: "7.1.0".into(),
        toolchain: args.toolchain,
    };
    std::fs::write(crate_dir.join("shoal-engine.wasm"), &wasm)?;
    std::fs::write(
        crate_dir.join("engine.json"),
        serde_json::to_string_pretty(&manifest)? + "\n",
    )?;
    println!(
        "engine: {} -> {} bytes, sha256 {}, sources {}",
        raw.len(),
        wasm.len(),
        manifest.wasm_sha256,
        manifest.source_sha256
    );
    Ok(())
}
