#!/usr/bin/env bash
# soak.sh DURATION — `make soak SOAK=10m`: the cross-tenant leak fuzzer
# (internal/reliability TestLeakFuzz) for DURATION instead of CI's 5 s, over
# SOAK_TENANTS tenants (default 50), against the test database (`make setup`).
# It logs heap, goroutines and pool use every minute and stops at the first
# twenty violations (responses carrying another tenant's data, wrong counts,
# scores that moved with another tenant's writes, 5xx).
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-10m}
RAGD_SOAK=$duration RAGD_SOAK_TENANTS=${SOAK_TENANTS:-50} \
	exec go test ./internal/reliability -run '^TestLeakFuzz$' -count=1 -v -timeout 0
