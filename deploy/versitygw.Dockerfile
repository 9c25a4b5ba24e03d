# versitygw, a real S3 server, for docker-compose.yml (built from its Go
# module, the same version the tests and deploy/local-cluster.sh use).
FROM golang:1.26 AS build
RUN CGO_ENABLED=0 go install github.com/versity/versitygw/cmd/versitygw@v1.8.0 \
 && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /go/bin/versitygw /versitygw
# /data belongs to nonroot, so the volume mounted there (which takes the
# ownership of the image's folder when it is created) is writable.
COPY --from=build --chown=65532:65532 /out/data /data
# The posix backend keeps one folder per bucket under /data (a volume; it
# needs extended attributes, which ext4, xfs and Docker's volumes have).
USER nonroot
ENTRYPOINT ["/versitygw"]
