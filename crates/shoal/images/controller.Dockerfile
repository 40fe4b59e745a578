# syntax=docker/dockerfile:1
# The controller: reconciler and admission webhooks (also runs `helm test`).
ARG BUILD_IMAGE=shoal-build:dev
FROM ${BUILD_IMAGE} AS build

FROM gcr.io/distroless/cc-debian12:nonroot
COPY --from=build /usr/local/bin/shoal /usr/local/bin/shoal
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/shoal"]
CMD ["controller"]
