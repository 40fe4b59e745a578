#!/usr/bin/env bash
# Builds Shoal's three images with docker or podman:
#   <registry>/shoal-controller:<tag>, <registry>/shoal-node:<tag>, <registry>/shoal-builder:<tag>
# Usage: crates/shoal/images/build.sh [--push] [REGISTRY] [TAG]
#   REGISTRY defaults to ghcr.io/shoal-dev (the chart's image.registry), TAG to dev.
set -euo pipefail
push=false
if [ "${1:-}" = "--push" ]; then push=true; shift; fi
registry=${1:-ghcr.io/shoal-dev}
tag=${2:-dev}
root=$(cd "$(dirname "$0")/../../.." && pwd)
here="$root/crates/shoal/images"

engine=${CONTAINER_ENGINE:-}
if [ -z "$engine" ]; then
  for candidate in docker podman; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" info >/dev/null 2>&1; then
      engine=$candidate
      break
    fi
  done
fi
if [ -z "$engine" ]; then
  echo "error: no working container engine (docker or podman) found; set CONTAINER_ENGINE" >&2
  exit 1
fi

export DOCKER_BUILDKIT=1
build_image="shoal-build:$tag"
echo "== $engine: building $build_image (release shoal binary + bundler)"
"$engine" build -f "$here/build.Dockerfile" -t "$build_image" "$root"
for image in controller node builder; do
  reference="$registry/shoal-$image:$tag"
  echo "== $engine: building $reference"
  "$engine" build -f "$here/$image.Dockerfile" --build-arg "BUILD_IMAGE=$build_image" -t "$reference" "$here"
  if $push; then
    "$engine" push "$reference"
  fi
done
echo "built: $registry/shoal-{controller,node,builder}:$tag"
