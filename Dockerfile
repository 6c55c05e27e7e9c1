# syntax=docker/dockerfile:1
# Stage 1: npm packages (React, used by the startup build).
FROM node:20-bookworm-slim AS node
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

# Stage 2: the Go binary. VERSION and COMMIT name the build in
# `site version`, /metrics and backups' manifests:
#   docker build --build-arg VERSION=1.4.0 --build-arg COMMIT=$(git rev-parse --short HEAD) .
FROM golang:1.26-bookworm AS build
ARG VERSION=dev
ARG COMMIT=unknown
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w -X main.version=${VERSION} -X main.commit=${COMMIT}" -o /out/site . && mkdir -p /out/data

# Stage 3: a slim runtime. The binary bundles the React sources with
# esbuild at startup, so it ships with them and the npm packages.
FROM gcr.io/distroless/static-debian12:nonroot
WORKDIR /app
COPY --from=build /out/site /app/site
COPY --from=node /src/node_modules /app/node_modules
COPY package.json tsconfig.json /app/
COPY pages /app/pages
COPY components /app/components
COPY client /app/client
COPY styles /app/styles
COPY static /app/static
COPY admin /app/admin
# The data folder (SQLite, media, upload spool) belongs to the nonroot user.
COPY --from=build --chown=65532:65532 /out/data /data
ENV SOURCE_DIR=/app DATA_DIR=/data PORT=8080
VOLUME /data
EXPOSE 8080
USER nonroot
# Liveness through the binary itself (distroless has no shell or curl):
# 0 while the site answers /healthz on $PORT. The first start renders
# every page, hence the start period.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 CMD ["/app/site", "healthcheck"]
ENTRYPOINT ["/app/site"]
