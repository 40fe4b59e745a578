#!/usr/bin/env bash
# Reproduces crates/shoal-bench/results/README.md: installs wrk if needed,
# builds the harness in release mode and runs the whole suite.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
.ci/setup
if ! command -v wrk >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends wrk >/dev/null
fi
cargo run --release --locked -p shoal-bench -- run "$@"
