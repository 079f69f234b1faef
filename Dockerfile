# Build stage: the Swift 6 toolchain compiles a release binary with the Swift runtime linked in.
FROM swift:6.1-noble AS build
RUN apt-get update && apt-get install -y --no-install-recommends libsqlite3-dev zlib1g-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
# The manifest names the test targets too, so their folders must exist for SwiftPM.
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --product ggtracker --static-swift-stdlib \
    && mkdir /staging \
    && cp "$(swift build -c release --show-bin-path)/ggtracker" /staging/ \
    && cp -R "$(swift build -c release --show-bin-path)"/*.resources /staging/

# Runtime stage: a slim image with SQLite and curl, running as a non-root user, data on a volume.
FROM ubuntu:noble
RUN apt-get update && apt-get install -y --no-install-recommends \
        libsqlite3-0 libcurl4 zlib1g ca-certificates tzdata curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --create-home --home-dir /app ggtracker \
    && mkdir /data && chown ggtracker:ggtracker /data
WORKDIR /app
COPY --from=build /staging /app
COPY config/ggtracker.example.toml /app/config/ggtracker.example.toml
ENV GGTRACKER_HOST=0.0.0.0 \
    GGTRACKER_PORT=8080 \
    GGTRACKER_DATABASE=/data/ggtracker.sqlite
VOLUME /data
USER ggtracker
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s --start-period=30s CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["/app/ggtracker"]
CMD ["serve"]
