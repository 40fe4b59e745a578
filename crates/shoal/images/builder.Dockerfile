# syntax=docker/dockerfile:1
# The build Job: `shoal build` with npm (for Function dependencies), the
# esbuild bundler, and git with ssh (for gitRepository sources). Writes only
# under /tmp (an emptyDir in the Job).
ARG BUILD_IMAGE=shoal-build:dev
FROM ${BUILD_IMAGE} AS build

FROM docker.io/library/node:20-bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends git openssh-client ca-certificates \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /usr/local/bin/shoal /usr/local/bin/shoal
COPY --from=build /opt/shoal/js /opt/shoal/js
ENV SHOAL_JS_TOOLS=/opt/shoal/js \
    HOME=/tmp \
    npm_config_cache=/tmp/npm-cache \
    npm_config_update_notifier=false
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/shoal"]
CMD ["build", "--help"]
