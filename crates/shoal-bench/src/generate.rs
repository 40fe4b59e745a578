//! Distinct Functions, generated cheaply: the hello-world handler is built
//! once through the real pipeline (esbuild, javy-codegen), then its unique
//! 15-character id string is rewritten in place in the QuickJS bytecode
//! (and the bytecode's checksum recomputed), giving N modules that each
//! answer with their own id. Same length, so no offset in the module moves.

use std::{path::Path, sync::Arc, time::Duration};

use anyhow::Context;
use shoal_build::{Builder, JsTools};
use shoal_runtime::{Runtime, RuntimeConfig};

const MARKER: &str = "fn-000000000000";

/// Build figures of the template.
#[derive(Debug, Clone)]
pub struct Template {
    /// Size of one generated module.
    pub module_bytes: usize,
    /// Time to build the template (the whole pipeline).
    pub build_time: Duration,
}

/// The id a generated Function answers with.
pub fn id(i: usize) -> String {
    format!("fn-{i:012}")
}

/// The route of generated Function `i`.
pub fn name(i: usize) -> String {
    format!("fn-{i:05}")
}

/// Writes `count` modules `fn-NNNNN.wasm` into `dir`.
pub async fn functions(dir: &Path, count: usize) -> anyhow::Result<Template> {
    let runtime = Arc::new(Runtime::new(&RuntimeConfig {
        pooling: false,
        ..RuntimeConfig::default()
    })?);
    let builder = Builder::new(JsTools::locate(), runtime);
    let inputs = shoal_api::BuildInputs {
        source: format!("module.exports = {{ main: () => 'hello from {MARKER}' }};"),
        dependencies: None,
        runtime: "nodejs22".into(),
        files: Default::default(),
    };
    let built = builder.build(&inputs).await?;
    let wasm = built.wasm;
    let at: Vec<usize> = wasm
        .windows(MARKER.len())
        .enumerate()
        .filter(|(_, w)| *w == MARKER.as_bytes())
        .map(|(i, _)| i)
        .collect();
    let [offset] = at.as_slice() else {
        anyhow::bail!("the marker occurs {} times in the module, expected once", at.len());
    };
    let bytecode = bytecode_segment(&wasm, *offset)?;
    std::fs::create_dir_all(dir)?;
    let mut module = wasm.clone();
    for i in 0..count {
        module[*offset..*offset + MARKER.len()].copy_from_slice(id(i).as_bytes());
        let sum = bc_csum(&module[bytecode.start + 5..bytecode.end]);
        module[bytecode.start + 1..bytecode.start + 5].copy_from_slice(&sum.to_le_bytes());
        std::fs::write(dir.join(format!("{}.wasm", name(i))), &module).context("writing a generated module")?;
    }
    Ok(Template {
        module_bytes: wasm.len(),
        build_time: built.timings.total,
    })
}

/// The handlers compared with the Node.js baseline, as generated Functions
/// of `dir`: `fn-00000` hello world (copied from `hello_dir`), `fn-00001`
/// `handlers/json.js`, `fn-00002` `handlers/state.js`.
pub async fn handlers(dir: &Path, hello_dir: &Path) -> anyhow::Result<()> {
    let runtime = Arc::new(Runtime::new(&RuntimeConfig {
        pooling: false,
        ..RuntimeConfig::default()
    })?);
    let builder = Builder::new(JsTools::locate(), runtime);
    std::fs::create_dir_all(dir)?;
    std::fs::copy(
        hello_dir.join(format!("{}.wasm", name(0))),
        dir.join(format!("{}.wasm", name(0))),
    )?;
    let sources = Path::new(env!("CARGO_MANIFEST_DIR")).join("handlers");
    for (i, handler) in [(1, "json"), (2, "state")] {
        let inputs = shoal_api::BuildInputs {
            source: std::fs::read_to_string(sources.join(format!("{handler}.js")))?,
            dependencies: None,
            runtime: "nodejs22".into(),
            files: Default::default(),
        };
        let built = builder.build(&inputs).await?;
        std::fs::write(dir.join(format!("{}.wasm", name(i))), &built.wasm)?;
    }
    Ok(())
}

/// The ~2 KB order the JSON handler is sent.
pub fn order_json() -> String {
    let items: Vec<serde_json::Value> = (0..16)
        .map(|i| serde_json::json!({"sku": format!("sku-{i:04}-blue"), "quantity": i % 5 + 1, "price": 3.25 + i as f64, "note": "gift wrap"}))
        .collect();
    serde_json::json!({
        "id": "order-2026-000042",
        "customer": {"firstName": "Ada", "lastName": "Lovelace", "email": "ada@example.com"},
        "items": items,
        "tags": ["priority", "gift", "priority", "eu"],
    })
    .to_string()
}

/// The byte range of the data segment holding `offset`: the QuickJS
/// bytecode javy-codegen embeds in a dynamically linked module.
fn bytecode_segment(wasm: &[u8], offset: usize) -> anyhow::Result<std::ops::Range<usize>> {
    for payload in wasmparser::Parser::new(0).parse_all(wasm) {
        if let wasmparser::Payload::DataSection(reader) = payload? {
            for data in reader {
                let data = data?;
                let start = data.data.as_ptr() as usize - wasm.as_ptr() as usize;
                let range = start..start + data.data.len();
                if range.contains(&offset) {
                    return Ok(range);
                }
            }
        }
    }
    anyhow::bail!("no data segment holds the marker")
}

/// QuickJS-ng's bytecode checksum (`bc_csum` in quickjs.c), over everything
/// after the version byte and the checksum itself.
fn bc_csum(p: &[u8]) -> u32 {
    let mut h: u32 = 0;
    let mut i = 0;
    while i + 4 < p.len() {
        h = h.wrapping_add(u32::from_le_bytes([p[i], p[i + 1], p[i + 2], p[i + 3]]));
        h = h.wrapping_mul(0x9e37_0001);
        i += 4;
    }
    // quickjs.c's switch has no case for 4 remaining bytes: they count as 0.
    let rest = &p[i..];
    let (a, b, c) = match rest.len() {
        3 => (rest[0] as u32, rest[1] as u32, rest[2] as u32),
        2 => (rest[0] as u32, rest[1] as u32, 0),
        1 => (rest[0] as u32, 0, 0),
        _ => (0, 0, 0),
    };
    h = h.wrapping_add(a | (b << 8) | (c << 16));
    h.wrapping_mul(0x9e37_0001)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_ported_checksum_matches_the_one_quickjs_wrote() {
        let runtime = Arc::new(
            Runtime::new(&RuntimeConfig {
                pooling: false,
                ..RuntimeConfig::default()
            })
            .unwrap(),
        );
        let inputs = shoal_api::BuildInputs {
            source: format!("module.exports = {{ main: () => 'hello from {MARKER}' }};"),
            dependencies: None,
            runtime: "nodejs22".into(),
            files: Default::default(),
        };
        let wasm = Builder::new(JsTools::locate(), runtime)
            .build(&inputs)
            .await
            .unwrap()
            .wasm;
        let offset = wasm.windows(MARKER.len()).position(|w| w == MARKER.as_bytes()).unwrap();
        let segment = bytecode_segment(&wasm, offset).unwrap();
        let written = u32::from_le_bytes(wasm[segment.start + 1..segment.start + 5].try_into().unwrap());
        assert_eq!(bc_csum(&wasm[segment.start + 5..segment.end]), written);
    }
}
