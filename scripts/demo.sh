#!/usr/bin/env bash
# demo.sh — the main job end to end on real input: the PostgreSQL 15 manual is
# ingested into tenant "pgdocs" (tenants/pgdocs/tenant.yaml), ragd serves the
# tenant API, and four real questions are asked over HTTP with a reader token
# (the last one is outside the manual and is refused, with the reason). A PDF
# manual (libtasn1-doc) is ingested into tenant "manuals" (tenants/manuals)
# and one question about it is answered with a citation naming its page.
# Run through `make demo` (which runs `make setup` and builds bin/ragd first).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${RAGD_BIN:-bin/ragd}
[ -x "$BIN" ] || go build -o "$BIN" ./cmd/ragd

command -v jq >/dev/null || {
	sudo_cmd=; [ "$(id -u)" = 0 ] || sudo_cmd=sudo
	$sudo_cmd apt-get install -y -qq --no-install-recommends jq >/dev/null
}
command -v curl >/dev/null || { echo "demo: curl is required" >&2; exit 1; }

# A development HS256 secret, made once and kept out of the repository.
if [ -z "${RAGD_JWT_SECRET:-}${RAGD_JWT_SECRET_FILE:-}" ]; then
	secret_file=${XDG_CACHE_HOME:-$HOME/.cache}/ragd/jwt-secret
	mkdir -p "$(dirname "$secret_file")"
	[ -s "$secret_file" ] || (umask 077 && head -c 48 /dev/urandom | base64 -w0 >"$secret_file")
	export RAGD_JWT_SECRET_FILE=$secret_file
fi
export RAGD_ADDR=${RAGD_ADDR:-127.0.0.1:8080}

# Checked before the ingest, which takes minutes on a first run.
if curl -fsS -o /dev/null "http://$RAGD_ADDR/healthz" 2>/dev/null; then
	echo "demo: something already answers on $RAGD_ADDR (another ragd serve?); stop it or set RAGD_ADDR" >&2
	exit 1
fi
echo "== migrate"
"$BIN" migrate up
echo "== apply tenants/pgdocs (ingest the manual; a re-run skips unchanged pages, unless a newer ragd extracts or chunks them differently)"
# The apply's whole output, its evaluation report of every missed question
# included, goes to a file; progress and the summary are shown.
applylog=$(mktemp "${TMPDIR:-/tmp}/ragd-demo-apply.XXXXXX")
if ! "$BIN" tenant apply tenants/pgdocs 2>&1 | tee "$applylog" |
	grep --line-buffered -E '^(ingest: |tenant |source |vector index|evaluation set|run |      leg|   vector|  keyword|  fused)'; then
	cat "$applylog" >&2
	exit 1
fi
echo "(the full evaluation report, every missed question included: $applylog)"
echo "== apply tenants/manuals (a PDF manual: libtasn1-doc's 36 pages)"
"$BIN" tenant apply tenants/manuals 2>&1 | grep --line-buffered -E '^(ingest: |tenant |source )'

echo "== serve on $RAGD_ADDR"
log=$(mktemp)
"$BIN" serve >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 120); do
	curl -fsS "http://$RAGD_ADDR/readyz" >/dev/null 2>&1 && break
	kill -0 $pid 2>/dev/null || { cat "$log" >&2; exit 1; }
	sleep 0.5
done
curl -fsS "http://$RAGD_ADDR/readyz" >/dev/null || { echo "demo: server not ready" >&2; cat "$log" >&2; exit 1; }

token=$("$BIN" token issue --tenant pgdocs --role reader --ttl 15m)
pdftoken=$("$BIN" token issue --tenant manuals --role reader --ttl 15m)

# ask QUESTION WANT [TOKEN]: asks over HTTP (as the pgdocs reader unless
# TOKEN is given) and prints the answer; WANT is "answer" (an answer with at
# least one citation), "page" (a cited answer whose citations name PDF
# pages) or "refusal". The demo fails when an answer is not what it should be.
failed=0
ask() {
	printf '\n== Q: %s\n' "$1"
	local resp
	resp=$(jq -n --arg q "$1" '{question: $q}' |
		curl -fsS -X POST "http://$RAGD_ADDR/v1/answer" -H "Authorization: Bearer ${3:-$token}" \
			-H 'Content-Type: application/json' --data-binary @-)
	jq -r '.answer, "",
		(if .refused then "(refused: \(.refusal_reason); \(.confidence_reason // "low confidence"); confidence \((.confidence * 100 | round) / 100), threshold \((.refuse_below * 100 | round) / 100))"
		 else "(confidence \((.confidence * 100 | round) / 100), threshold \((.refuse_below * 100 | round) / 100): how likely the documents answer it, not a check of this answer)" end),
		(.citations[] | "[\(.n)] \(if .heading_path == "" then .title else .heading_path end)\n    \(.source_uri)\(if .anchor then "#\(.anchor)" else "" end)\(if .page then ", \(.page)" else "" end)")' <<<"$resp"
	case "$2" in
	answer) jq -e '(.refused | not) and (.citations | length > 0)' <<<"$resp" >/dev/null ||
		{ echo "demo: expected a cited answer" >&2; failed=1; } ;;
	page) jq -e '(.refused | not) and (.citations | length > 0) and all(.citations[]; .page != null)' <<<"$resp" >/dev/null ||
		{ echo "demo: expected an answer citing PDF pages" >&2; failed=1; } ;;
	refusal) jq -e '.refused' <<<"$resp" >/dev/null ||
		{ echo "demo: expected a refusal" >&2; failed=1; } ;;
	esac
}
ask "What does SQLSTATE 42P01 mean?" answer
ask "How many concurrent disk I/O operations can PostgreSQL issue, and which setting controls it?" answer
ask "How do I make a copy of my whole database into a single file?" answer
echo "(A known miss: the answer is pg_dump, which the question does not name, and the local model does not bridge"
echo " the paraphrase; docs/EVAL.md, \"Known weakness seen in the demo\".)"
# An honest "I don't know": the manual does not cover another product.
ask "How do I set up sharding with replica sets in MongoDB?" refusal
# The PDF manual: the answer cites the page it comes from.
ask "How do I check only the syntax of an ASN.1 definitions file with asn1Parser?" page "$pdftoken"
exit $failed
