# syntax=docker/dockerfile:1
# The controller: reconciler and admission webhooks (also runs `helm test`).
# git and ssh list the refs of Functions' gitRepository sources.
ARG BUILD_IMAGE=shoal-build:dev
FROM ${BUILD_IMAGE} AS build

FROM docker.io/library/debian:bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends git openssh-client ca-certificates \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /usr/local/bin/shoal /usr/local/bin/shoal
USER 65532:65532
ENV HOME=/tmp
ENTRYPOINT ["/usr/local/bin/shoal"]
CMD ["controller"]
