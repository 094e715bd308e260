# ragd — see README.md. Every target works on a fresh Debian/Ubuntu machine
# after `make setup` (which is idempotent).
SHELL := /bin/bash
GO    ?= go
BIN   := bin/ragd
BENCH := bin/ragd-bench

export RAGD_DATABASE_URL       ?= postgres://ragd_app:ragd_app@127.0.0.1:5432/ragd?sslmode=disable
export RAGD_ADMIN_DATABASE_URL ?= postgres://ragd_owner:ragd_owner@127.0.0.1:5432/ragd?sslmode=disable

.PHONY: setup build test test-race test-short check generate demo bench bench-full fuzz soak load eval trials clean

setup: ## database, pgvector, roles, model, demo corpus (idempotent)
	@# The URL defaults above are this Makefile's, not the user's: setup-db.sh
	@# must then build the local server itself (it only adopts URLs the user set).
	$(if $(filter file,$(origin RAGD_DATABASE_URL)),env -u RAGD_DATABASE_URL -u RAGD_ADMIN_DATABASE_URL) scripts/setup.sh

build: ## bin/ragd (server and operator CLI) and bin/ragd-bench (benchmark, load generator)
	$(GO) build -o $(BIN) ./cmd/ragd
	$(GO) build -o $(BENCH) ./cmd/ragd-bench

test: setup ## the full test suite against the local database
	$(GO) test -count=1 -timeout 40m ./...

# The race detector over the packages whose tests run concurrent code, within
# CI's time. Measured with -race on the shared 2-core machine (load 13-18,
# per-package times including the -race build): reliability 179 s (38 s at
# load 5; the leak fuzzer, faults, hostile inputs, concurrent writers), cli 58 s, chunk 51 s,
# embed 43 s, eval 33 s, api 28 s, extract 20 s, ingest 18 s, auth 15 s, the
# rest under 10 s each; about 8 min in all, plus about 5 min to build the
# dependencies with -race once. The first test to read a PDF on a machine
# compiles PDFium's WebAssembly into the user's cache directory: 70 s with
# -race at load 15 (extract's PDF tests: 78 s in all); later ones load it in
# about 0.5 s. Left out, each run by `make test` already:
#   internal/ask   - the acceptance suite ingests the PostgreSQL manual on a
#                    fresh database (484 s without -race; killed after 524 s
#                    with it) and then answers questions one at a time;
#   internal/bench - the benchmark corpus and load generator (heavy, shares
#                    state with the scale tests);
#   TestScale*     - search's 300k-row corpus (2 min 46 s to build on a fresh
#                    database), sequential queries over it.
RACE_PKGS = $$($(GO) list ./... | grep -v -e '/internal/ask$$' -e '/internal/bench$$')
test-race: setup ## go test -race over the packages CI can afford (see above)
	$(GO) test -race -count=1 -timeout 40m -skip '^TestScale' $(RACE_PKGS)

test-short:
	$(GO) test -short -count=1 ./...

generate: ## sqlc code and the OpenAPI document
	$(GO) tool sqlc generate
	$(GO) run ./cmd/ragd openapi > openapi/openapi.json.tmp && mv openapi/openapi.json.tmp openapi/openapi.json

check: ## formatting, vet, generated-code drift (sqlc, OpenAPI, the AVX-512 kernels, the everyday words), no built binaries in git
	scripts/check-tracked.sh
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt: files above need formatting"; exit 1; }
	$(GO) vet ./...
	$(GO) tool sqlc diff
	$(GO) run ./cmd/ragd openapi | diff -u openapi/openapi.json - || { echo "openapi/openapi.json is stale: run make generate"; exit 1; }
	@d=$$(mktemp -d) && cp internal/embed/gen_avx512.go $$d && (cd $$d && GO111MODULE=off $(GO) run gen_avx512.go) && \
	  for f in gemm_avx512_amd64.s gemm_avx512_amd64.go; do diff -q $$d/$$f internal/embed/$$f || { echo "internal/embed/$$f is stale: go generate ./internal/embed"; rm -rf $$d; exit 1; }; done; rm -rf $$d
	@d=$$(mktemp -d) && cp internal/analyze/gen_everyday.go $$d && (cd $$d && GO111MODULE=off $(GO) run gen_everyday.go) && \
	  { diff -q $$d/everyday_words.txt internal/analyze/everyday_words.txt || { echo "internal/analyze/everyday_words.txt is stale: go generate ./internal/analyze"; rm -rf $$d; exit 1; }; }; rm -rf $$d

demo: setup build ## the main job: the PostgreSQL manual answered over the HTTP API
	scripts/demo.sh

bench: build ## small-scale benchmark (about a minute)
	$(BENCH) bench

bench-full: build
	$(BENCH) bench --chunks 1000000 --tenants 1000

fuzz: ## run every Go fuzz target for FUZZTIME each (default 30s)
	scripts/fuzz.sh $${FUZZTIME:-30s}

soak: ## the cross-tenant leak fuzzer for SOAK (default 10m; SOAK_TENANTS=50)
	scripts/soak.sh $${SOAK:-10m}

load: ## mixed traffic of real questions at LOAD_RATE req/s for LOAD_DURATION against ragd serve (default 100/s, 10m)
	scripts/load.sh

eval: build
	$(BIN) eval run --tenant pgdocs

trials: setup build ## the held-out trial sets of tenants/trials measured as development sets (SETS="polib tenacity" for some; scripts/trials.sh)
	scripts/trials.sh $(SETS)

clean: ## build outputs, including a stray `go build ./cmd/ragd` (or ./cmd/ragd-bench) at the root
	rm -rf bin ragd ragd.exe ragd-bench ragd-bench.exe openapi/openapi.json.tmp
