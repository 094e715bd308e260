// Package reliability holds ragd's reliability and security suites; it has no
// runtime code, only tests that drive the real HTTP API on the test database,
// wired as `ragd serve` wires it (internal/app; providers replaced only by
// production clients pointed at in-process fake servers):
//
//   - leak_test.go: the cross-tenant leak fuzzer — 50+ tenants, randomized
//     interleaved requests over every route the server registers (a route
//     left unexercised fails it) through a real HTTP server on a
//     two-connection pool, with ingestion running concurrently; every response
//     is checked for another tenant's ids, source_uris, canary words, counts
//     and score statistics. RAGD_SOAK=10m runs it for as long as asked
//     (`make soak SOAK=10m`).
//   - hostile_test.go: the hostile-input catalogue of docs/SECURITY.md, one
//     subtest per class, each followed by a health check and a check that
//     nothing was partially stored.
//   - faults_test.go: embedding, LLM and rerank APIs that fail (429, 500,
//     garbage, silence) → degraded answers, never a 5xx; a database behind a
//     TCP proxy that goes away → 503 with Retry-After, then recovery.
//   - crash_test.go: `ragd ingest` (the real binary) killed with SIGKILL at
//     random points; every document is then whole or absent and a rerun
//     completes.
//
// The suites are sized for CI on two shared cores (well under a minute in
// all); docs/SECURITY.md lists what each checks and how to run them longer.
package reliability
