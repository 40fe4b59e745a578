# syntax=docker/dockerfile:1
# The shared build stage of Shoal's three images: one release `shoal` binary
# and the JavaScript bundler it drives. build.sh builds this first and hands
# it to controller/node/builder.Dockerfile as BUILD_IMAGE.

FROM docker.io/library/node:20-bookworm-slim AS js
WORKDIR /opt/shoal/js
COPY crates/shoal-build/js/package.json crates/shoal-build/js/package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=error
COPY crates/shoal-build/js/ ./

FROM docker.io/library/rust:1.95-bookworm AS rust
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked -p shoal \
 && install -D -m 0755 target/release/shoal /out/shoal

FROM docker.io/library/debian:bookworm-slim
COPY --from=rust /out/shoal /usr/local/bin/shoal
COPY --from=js /opt/shoal/js /opt/shoal/js
