# ragd image: the binary plus the offline embedding model.
# Build: docker build -t ragd .   (docker-compose.yml does it for you)
FROM golang:1.26-bookworm AS build
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends npm ca-certificates && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -o /out/ragd ./cmd/ragd
RUN RAGD_MODEL_DIR=/out/model scripts/fetch-model.sh

FROM debian:bookworm-slim
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends ca-certificates && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 ragd
COPY --from=build /out/ragd /usr/local/bin/ragd
# Apache-2.0 model files with their LICENSE and NOTICE (attribution kept)
COPY --from=build /out/model /opt/ragd/model
ENV RAGD_MODEL_DIR=/opt/ragd/model RAGD_ADDR=0.0.0.0:8080
USER ragd
EXPOSE 8080
ENTRYPOINT ["ragd"]
CMD ["serve"]
