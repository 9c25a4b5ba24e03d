# syntax=docker/dockerfile:1

# ---- build ----
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# Pure-Go SQLite driver (glebarez/modernc): no cgo needed, fully static binary.
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /stratum ./cmd/stratum
# The project folder served by the image, with the writable directories present.
RUN mkdir -p /out/app \
 && cp -a examples/blog/. /out/app/ \
 && mkdir -p /out/app/.tmp /out/app/public/uploads

# ---- run ----
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /stratum /stratum
# /app is created by this COPY, so it and everything in it belong to nonroot
# (uid 65532): the SQLite file (.tmp/) and uploads (public/uploads/) are writable.
COPY --from=build --chown=65532:65532 /out/app /app
WORKDIR /app
ENV HOST=0.0.0.0 \
    PORT=1337
EXPOSE 1337
USER nonroot
CMD ["/stratum", "serve", "--dir", "/app"]
