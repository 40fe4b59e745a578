#!/usr/bin/env bash
# Reproduces crates/shoal-bench/results/ (README.md, results.json, density.png):
# installs wrk, fonts and the Node.js baseline's express if needed, builds the
# harness in release mode and runs the whole suite. Extra arguments go to
# `shoal-bench run` (for example --counts 100,1000 --seconds 5).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
.ci/setup
if ! command -v wrk >/dev/null 2>&1 || [ ! -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends wrk fonts-dejavu-core >/dev/null
fi
baseline=crates/shoal-bench/node-baseline
if [ ! -d "$baseline/node_modules/express" ]; then
  npm ci --prefix "$baseline" --no-audit --no-fund --loglevel=error
fi
cargo run --release --locked -p shoal-bench -- run "$@"
