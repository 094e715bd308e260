// Package search is the retrieval half of ragd: hybrid search over one
// tenant's chunks.
//
// Pipeline (Searcher.Search, one function per step): plan (validate, the
// tenant's effective settings) → embed the query with the tenant's model
// (outside any transaction; skipped when the model does not represent the
// question's script) → retrieve: in one tenant transaction sent as one batch
// (retrieve.go), the vector leg (cosine, top-N), the keyword leg (Okapi BM25,
// top-N, each chunk with the query lexemes it holds) and the query's names no
// chunk contains → fuse (Combine: by default a convex combination of
// normalised scores with the model's prior weight and document evidence,
// fuse.go; or weighted RRF) → assess (the answerability probability and its
// reason, answerable.go) → optional rerank of the fused top 20 and each leg's
// first five through an HTTP /rerank API → cut to top-k with explain fields.
//
// Vector leg under row-level security. An HNSW scan applies the tenant filter
// after the index walk, so over an index shared by tenants a small tenant
// would get few or none of its rows and a mid-size one pays a walk of about
// 1/share rows per result. Tenants with at most ExactThreshold chunks are
// therefore searched exactly (a scan of the tenant's own rows through the
// tenant_id btree; recall 1.0); larger tenants have a dedicated partial HNSW
// index each (built by internal/vindex, the operator side), walked with
// hnsw.iterative_scan = relaxed_order and hnsw.ef_search ≥ 2× the candidates,
// the candidates re-sorted outside the scan. Filtered searches (source URI
// prefix, metadata) are exact over the matching chunks. The choice is made by
// ragd from the tenant's chunk count, not by a plan cache: the application
// role runs with plan_cache_mode = force_custom_plan. The batch's keyword
// statements, which read the same rows under any plan, run on generic plans
// planned once per connection (store.GenericPlans); the vector leg switches
// back to custom plans first.
//
// Keyword leg: the SQL function keyword_search (db/migrations) scores BM25 over
// per-tenant posting lists keyed by (tenant_id, lexeme); see
// docs/ARCHITECTURE.md for why not a GIN index under RLS.
//
// Keyword text: the question as analyze.Query gives it (CJK runs as
// character bigrams, underscore identifiers also joined), the same analysis
// ingestion stores in chunks.keywords.
//
// Degradation (degrade.go): if embedding the query fails, or the question is
// mostly in scripts the embedding model does not represent (embed.Represents;
// USE-lite represents Latin only), search runs the keyword leg alone; a
// failing reranker keeps the fused order. Each such case sets Degraded and
// adds a Degradation naming the leg and a reason a person can read.
package search
