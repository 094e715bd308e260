// Package bench is `ragd-bench bench`: a synthetic multi-tenant corpus at
// a chosen scale, and the measurements its speed targets are judged by —
// hybrid search latency per tenant size class (SQL time, and API time with
// and without embedding the question, at several concurrencies), the vector
// leg's recall@20 against exact search, the keyword leg's latency on common
// and rare terms, a naive reference hybrid query (store.BenchReferenceQuery)
// on the same data, a real-question workload next to the synthetic one
// (natural-language questions of real lengths, questions.go), ingestion
// throughput, memory and database size — written as JSON, Markdown and an
// SVG plot. docs/BENCHMARKS.md records the runs.
//
// Design choices, and why:
//
//   - A dedicated database (ragd_bench by default), migrated with the
//     embedded migrations, so a load can TRUNCATE, drop and rebuild the HNSW
//     index and VACUUM without disturbing the serving or test databases. The
//     corpus is a pure function of the configuration and seed; its
//     fingerprint is stored as the database's comment at the end of a load,
//     so a rerun with the same flags reuses it (--fresh reloads).
//   - Tenant sizes follow a Zipf law with the largest tenant at 20 % of the
//     rows (1,000 tenants: down to ~0.007 %). Vectors are unit vectors near
//     cluster centres shared by all tenants, each tenant using its own subset
//     of clusters: a large tenant's HNSW walk passes other tenants' rows, as
//     in production. Text comes from a Zipfian vocabulary (English stop
//     words first, then pseudo-words), with a share of each chunk's words from
//     its cluster's topic, so the keyword leg meets long posting lists
//     (common words), short ones (rare words) and correlated terms.
//   - Rows are written as the application role inside each tenant's
//     transaction with multi-row INSERT … SELECT unnest(…) through pgx (COPY
//     is refused under row-level security), so the statement triggers build
//     postings and BM25 statistics exactly as ingestion does. The HNSW index
//     is dropped before the load and built once after it, with
//     maintenance_work_mem sized to hold the graph.
//   - Latency is measured through the production code: search.Searcher for
//     SQL time (an in-process embedder returns each question's precomputed
//     vector), and the real HTTP API over loopback for API time, with that
//     embedder or with the local model. Ingestion throughput goes through
//     ingest.Pipeline with the local model and with embed.NewOpenAI against
//     an in-process server that adds a fixed delay per request.
//   - The reference query is run as the application role in the tenant's
//     transaction, like everything else, and only measured.
//
// The package holds no SQL: the loader's statements, the reference query
// and the exact ground truth are sqlc queries (queries/bench.sql), the
// catalog reads and DDL hand-written in internal/store/bench.go, and the
// schema version comes from internal/migrate.
package bench
