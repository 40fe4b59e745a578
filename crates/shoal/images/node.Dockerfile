# syntax=docker/dockerfile:1
# A node server: wasmtime + hyper serving every Function of the cluster.
# Its caches live on mounted volumes; the root filesystem stays read-only.
ARG BUILD_IMAGE=shoal-build:dev
FROM ${BUILD_IMAGE} AS build

FROM gcr.io/distroless/cc-debian12:nonroot
COPY --from=build /usr/local/bin/shoal /usr/local/bin/shoal
USER 65532:65532
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/shoal"]
CMD ["node", "--cluster"]
