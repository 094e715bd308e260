#!/usr/bin/env bash
# trials.sh: the held-out trial sets of tenants/trials as development sets,
# measured as one (docs/EVAL.md, "Held-out trials on six more documentation
# sets, a development harness of 55 tenants …").
#
#   scripts/trials.sh [SLUG...]
#
# For each set (default: every one whose README row ingests with a plain
# `ragd ingest` command): install its Debian package, create the tenant
# $TRIALS_PREFIX<slug> with the defaults (once), ingest with the row's
# command (unchanged documents are skipped), load the set, then print the
# key terms of `ragd eval answers --checks`, the refusals of `ragd eval
# answers --set default` and the fused and keyword nDCG@10 of `ragd eval run
# --no-store`, and the totals. Needs the database of `make setup` and
# bin/ragd (`make build`); the environment of `make setup`'s output
# (RAGD_DATABASE_URL, RAGD_ADMIN_DATABASE_URL).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-bin/ragd}
PREFIX=${TRIALS_PREFIX:-trial-}
README=tenants/trials/README.md
[ -x "$BIN" ] || { echo "trials: $BIN missing: run make build" >&2; exit 1; }

rows=$(sed -n 's/^| \([a-z0-9-]*\) | \([^ |]*\) | `\(ragd ingest [^`]*\)`.*$/\1\t\2\t\3/p' "$README")
if [ $# -gt 0 ]; then
	want=" $* "
	rows=$(printf '%s\n' "$rows" | awk -F'\t' -v w="$want" 'index(w, " " $1 " ") > 0')
fi
[ -n "$rows" ] || { echo "trials: no set of $README matches: $*" >&2; exit 1; }

sudo_cmd=; [ "$(id -u)" = 0 ] || sudo_cmd=sudo
terms=0 checked=0 unans=0 unans_refused=0 ans=0 ans_refused=0
printf '%-16s %9s %12s %12s %8s %8s\n' set "key terms" "unans ref." "ans ref." fused keyword
while IFS=$'\t' read -r slug pkg cmd; do
	tenant=$PREFIX$slug
	if ! dpkg -s "$pkg" >/dev/null 2>&1; then
		DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "$pkg" >/dev/null 2>&1 ||
			{ echo "$slug: apt-get install $pkg failed" >&2; continue; }
	fi
	"$BIN" tenant show --slug "$tenant" >/dev/null 2>&1 || "$BIN" tenant create --slug "$tenant" --name "$slug" >/dev/null 2>&1
	# The row's command with this binary and this tenant.
	read -r -a args <<<"${cmd#ragd ingest }"
	for i in "${!args[@]}"; do
		if [ "${args[$i]}" = --tenant ]; then args[i + 1]=$tenant; fi
		args[i]=${args[i]//\'/}
	done
	"$BIN" ingest "${args[@]}" >/dev/null 2>&1 || { echo "$slug: ingest failed" >&2; continue; }
	"$BIN" eval load --tenant "$tenant" --name default "tenants/trials/$slug/eval.jsonl" >/dev/null
	hits=$("$BIN" eval answers --tenant "$tenant" --checks "tenants/trials/$slug/answers.jsonl" 2>/dev/null |
		sed -n 's/^ *key-term hits: \([0-9]*\) of \([0-9]*\).*/\1 \2/p' | head -1)
	if [ -z "$hits" ]; then
		echo "$slug: eval answers --checks printed no key-term hits" >&2
		continue
	fi
	set_out=$("$BIN" eval answers --tenant "$tenant" --set default --json 2>/dev/null) ||
		{ echo "$slug: eval answers --set default failed" >&2; continue; }
	num() { printf '%s' "$set_out" | sed -n "s/.*\"$1\": *\([0-9.]*\).*/\1/p" | head -1; }
	a=$(num answerable) u=$(num unanswerable) fr=$(num false_refusals) rc=$(num refusal_correct)
	ur=$((rc - (a - fr)))
	run=$("$BIN" eval run --tenant "$tenant" --set default --no-store 2>/dev/null)
	# The nDCG@10 column of a leg's row ("fused *" marks the production leg).
	nd() { printf '%s\n' "$run" | awk -v leg="$1" '$1 == leg { print ($2 == "*") ? $9 : $8; exit }'; }
	printf '%-16s %9s %12s %12s %8s %8s\n' "$slug" "${hits% *}/${hits#* }" "$ur/$u" "$fr/$a" "$(nd fused)" "$(nd keyword)"
	terms=$((terms + ${hits% *})) checked=$((checked + ${hits#* }))
	unans=$((unans + u)) unans_refused=$((unans_refused + ur)) ans=$((ans + a)) ans_refused=$((ans_refused + fr))
done <<<"$rows"
printf '%-16s %9s %12s %12s\n' total "$terms/$checked" "$unans_refused/$unans" "$ans_refused/$ans"
