#!/usr/bin/env bash
# Rebuilds Shoal's JavaScript engine (crates/shoal-engine/shoal-engine.wasm)
# from crates/shoal-engine/plugin, using only Debian packages and crates.io:
# rustup here has no wasm32 target, so the plugin is built with Debian's
# rustc-web (which ships its std source) via -Zbuild-std, and clang-22 +
# Debian's wasi-libc stand in for a WASI SDK. Idempotent; safe to re-run.
#
#   crates/shoal-engine/build-engine.sh          # build, initialize, record hashes
#
# Then commit shoal-engine.wasm and engine.toml together with the source change.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${SHOAL_ENGINE_WORK:-$root/target/engine-toolchain}
mkdir -p "$work"

pkgs=(rustc-web cargo-web rust-web-src libstd-rust-web-dev clang-22 lld-22 llvm-22 libclang-22-dev
      libclang-rt-22-dev-wasm32 wasi-libc)
if ! dpkg -s "${pkgs[@]}" >/dev/null 2>&1; then
  echo "== installing Debian packages: ${pkgs[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${pkgs[@]}"
fi

# clang-22 looks for <sysroot>/{include,lib}/wasm32-wasip1; Debian installs
# .../wasm32-wasi, and with --sysroot=/usr clang silently uses glibc headers.
mkdir -p "$work/sysroot/include" "$work/sysroot/lib" "$work/wasi-sdk/bin" "$work/wasi-sdk/share"
for d in wasm32-wasip1 wasm32-wasi; do
  ln -sfn /usr/include/wasm32-wasi "$work/sysroot/include/$d"
  ln -sfn /usr/lib/wasm32-wasi "$work/sysroot/lib/$d"
done
# rquickjs-sys downloads a WASI SDK unless WASI_SDK points at one; it only
# needs bin/{clang,ar} and share/wasi-sysroot.
ln -sfn /usr/lib/llvm-22/bin/clang "$work/wasi-sdk/bin/clang"
ln -sfn /usr/lib/llvm-22/bin/llvm-ar "$work/wasi-sdk/bin/ar"
ln -sfn /usr/lib/llvm-22/bin/wasm-ld "$work/wasi-sdk/bin/wasm-ld"
ln -sfn "$work/sysroot" "$work/wasi-sdk/share/wasi-sysroot"

echo "== building the plugin (wasm32-wasip1)"
(
  cd "$here/plugin"
  export RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1
  export WASI_SDK="$work/wasi-sdk" LIBCLANG_PATH=/usr/lib/llvm-22/lib
  export CARGO_TARGET_DIR="$work/target"
  # Debian's rustc has no rust-lld; LLVM's own wasm-ld is the same linker.
  export CARGO_TARGET_WASM32_WASIP1_LINKER=/usr/lib/llvm-22/bin/wasm-ld
  export CARGO_TARGET_WASM32_WASIP1_RUSTFLAGS="-C link-self-contained=no -L native=/usr/lib/wasm32-wasi"
  /usr/bin/cargo build --locked --release --target wasm32-wasip1 -Zbuild-std=std,panic_abort
)
raw="$work/target/wasm32-wasip1/release/shoal_engine_plugin.wasm"

toolchain="$(/usr/bin/rustc -V); $(/usr/lib/llvm-22/bin/clang --version | head -1); wasi-libc $(dpkg-query -W -f='${Version}' wasi-libc)"
echo "== initializing (Wizer) and recording hashes"
cd "$root"
cargo run -q -p shoal -- engine-init "$raw" --toolchain "$toolchain"
