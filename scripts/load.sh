#!/usr/bin/env bash
# load.sh — `make load`: mixed traffic (80% search, 15% answer, 5% ingest) of
# real questions at a fixed rate against a real `ragd serve` on loopback,
# reporting p50/p95/p99, errors and the server's RSS over time
# (ragd-bench load). Settings:
#   LOAD_RATE (100 req/s), LOAD_DURATION (10m), LOAD_MIX (80,15,5),
#   LOAD_TENANT (loadtest; created and seeded with LOAD_SEED_DOCS=300
#   generated documents when missing; LOAD_TENANT=pgdocs after `make demo`
#   loads the PostgreSQL manual instead), LOAD_ADDR (127.0.0.1:18080),
#   LOAD_QUERIES (the questions: tenants/<tenant>/eval.jsonl's when the
#   tenant has an evaluation set there, as the manual has; otherwise
#   natural-language questions generated about the seeded documents).
# The server log is kept in ${TMPDIR:-/tmp}/ragd-load-server.log.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${RAGD_BIN:-bin/ragd}
BENCH=${RAGD_BENCH_BIN:-bin/ragd-bench}
go build -o "$BIN" ./cmd/ragd
go build -o "$BENCH" ./cmd/ragd-bench

rate=${LOAD_RATE:-100}
duration=${LOAD_DURATION:-10m}
mix=${LOAD_MIX:-80,15,5}
tenant=${LOAD_TENANT:-loadtest}
seed_docs=${LOAD_SEED_DOCS:-300}
queries=${LOAD_QUERIES:-}
if [ -z "$queries" ] && [ -f "tenants/$tenant/eval.jsonl" ]; then
	queries=tenants/$tenant/eval.jsonl
fi
export RAGD_ADDR=${LOAD_ADDR:-127.0.0.1:18080}
export RAGD_LOG_LEVEL=${RAGD_LOG_LEVEL:-warn}
if [ -z "${RAGD_JWT_SECRET:-}${RAGD_JWT_SECRET_FILE:-}" ]; then
	secret_file=${XDG_CACHE_HOME:-$HOME/.cache}/ragd/jwt-secret
	mkdir -p "$(dirname "$secret_file")"
	[ -s "$secret_file" ] || (umask 077 && head -c 48 /dev/urandom | base64 -w0 >"$secret_file")
	export RAGD_JWT_SECRET_FILE=$secret_file
fi

"$BIN" migrate up >/dev/null
seed=0
if ! "$BIN" tenant show --slug "$tenant" >/dev/null 2>&1; then
	"$BIN" tenant create --slug "$tenant" --name "Load test" >/dev/null
	seed=$seed_docs
fi

log=${TMPDIR:-/tmp}/ragd-load-server.log
"$BIN" serve >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null || true' EXIT
for _ in $(seq 120); do
	curl -fsS "http://$RAGD_ADDR/readyz" >/dev/null 2>&1 && break
	kill -0 $pid 2>/dev/null || { cat "$log" >&2; exit 1; }
	sleep 0.5
done

token=$("$BIN" token issue --tenant "$tenant" --role editor --ttl 24h)
echo "load: server pid $pid on $RAGD_ADDR, tenant $tenant; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "load: questions from ${queries:-the generator (natural-language questions about the seeded documents)}"
RAGD_LOAD_TOKEN=$token "$BENCH" load --url "http://$RAGD_ADDR" --rate "$rate" --duration "$duration" --mix "$mix" \
	--seed-docs "$seed" ${queries:+--queries "$queries"} ${LOAD_ARGS:-}
